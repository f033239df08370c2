/*
 * pagebloombuild.c
 *		Building a pagebloom index: ambuild, ambuildempty.
 *
 * Design.  ambuild sizes the signature from the table (PbComputeParams),
 * writes the metapage, then scans the heap in physical order (no
 * synchronized scan) and ORs the row mask of each key of each tuple into a
 * compact buffer for 64 consecutive ranges (one to four uint64 per range and
 * block, as the block has up to 64, 128 or 256 rows); when the scan leaves
 * those 64 ranges, each block's 64 x 64 bit matrices are transposed into
 * word w of the block's rows in an in-memory copy of the
 * current segment (nblocks pages of bits).  When the scan moves to the
 * next segment the copy is written out as new pages, WAL-logged as full
 * page images (log_newpages, 32 to a record) and appended through smgr,
 * bypassing shared buffers as nbtree's build does, then synced when the
 * build ends, so the build is crash-safe and replicated like any later
 * change; the segment's row map pages (fingerprints of each
 * tuple's keys at its line pointer) are filled in memory beside the slice
 * pages and written after them.  Memory is one segment: its pages * 8 kB.
 * A tuple that comes back to an earlier segment (never seen in a plain heap
 * scan, handled anyway) is set directly in the written pages.
 *
 * CREATE INDEX CONCURRENTLY needs nothing special: the validation pass calls
 * ambulkdelete (which reports no TIDs), so every heap tuple is inserted again,
 * which sets bits that are already set.
 *
 * ambuildempty writes the metapage of the init fork of an unlogged index; a
 * reset unlogged index is a metapage alone, and inserts add segments.
 */
#include "pagebloom.h"

#include "access/generic_xlog.h"
#include "access/table.h"
#include "access/tableam.h"
#include "access/xloginsert.h"
#include "catalog/index.h"
#include "commands/progress.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "port/pg_bitutils.h"
#include "storage/smgr.h"
#include "utils/rel.h"

typedef struct PbBuildState
{
	PageBloomState *state;
	uint64	   *segbits;		/* nblocks pages of PB_PAGE_WORDS words */
	uint64	   *segmap;			/* the segment's row map pages, as many
								 * words each */
	bool		havesegment;	/* segbits holds segment cursegment */
	uint32		cursegment;
	uint32		nextsegment;	/* first segment not yet written */
	uint64	   *batchsig;		/* signatures of 64 consecutive ranges: for
								 * block b, batchsig[(b * 64 + i) * maskwords
								 * + q] is word q of the row mask of range 64
								 * * curbatch + i (a key's words together) */
	int			maskwords;		/* words of a row mask: blockBits / 64 up */
	bool		havebatch;
	uint32		curbatch;
	uint64		maxrange;		/* the last range seen */
	double		indtuples;
	/* segment pages waiting to be written, PB_BUILD_WRITE_PAGES at most */
	char	   *wpages;			/* the pages, BLCKSZ each, I/O-aligned */
	void	   *wpagesraw;		/* wpages as allocated */
	BlockNumber wfirst;			/* block of the first */
	int			nwpages;
	bool		usewal;			/* RelationNeedsWAL(index) */
} PbBuildState;

/* Pages per write batch: as many as one WAL record holds */
#define PB_BUILD_WRITE_PAGES	XLR_MAX_BLOCK_ID

/* Alignment of the write batch (16 added direct I/O, which needs it) */
#ifdef PG_IO_ALIGN_SIZE
#define PB_IO_ALIGN		PG_IO_ALIGN_SIZE
#else
#define PB_IO_ALIGN		BLCKSZ
#endif

/*
 * Transpose a 64 x 64 bit matrix in place: afterwards bit i of a[j] is what
 * bit j of a[i] was (bit 0 the least significant), by swapping ever smaller
 * blocks (32, 16, ..., 1) across the diagonal.
 */
static void
PbTranspose64(uint64 *a)
{
	uint64		m = UINT64CONST(0x00000000FFFFFFFF);
	int			j;
	int			k;

	for (j = 32; j != 0; j >>= 1, m ^= m << j)
		for (k = 0; k < 64; k = ((k | j) + 1) & ~j)
		{
			uint64		t = ((a[k] >> j) ^ a[k | j]) & m;

			a[k | j] ^= t;
			a[k] ^= t << j;
		}
}

/*
 * Move the signatures of the current batch of 64 ranges into the segment's
 * pages.  For each block, the 64 row masks (one per range) transposed are the
 * block's rows as 64-range words: word w of every row, which is exactly the
 * page layout.  Keeping the batch compact while its tuples arrive keeps the
 * per-key work in cache.
 */
static void
PbFlushBatch(PbBuildState *bs)
{
	const PageBloomMetaPageData *meta = &bs->state->meta;
	uint32		rps = PbRangesPerSegment(meta);
	uint32		rw = meta->rowWords;
	uint32		w = (bs->curbatch * 64 % rps) / 64;
	uint32		b;

	if (!bs->havebatch)
		return;
	Assert(bs->havesegment && bs->curbatch * 64 / rps == bs->cursegment);
	for (b = 0; b < meta->nblocks; b++)
	{
		uint64	   *words = bs->segbits + (Size) b * PB_PAGE_WORDS;
		int			q;

		uint64	   *sig = bs->batchsig + (Size) b * 64 * bs->maskwords;

		for (q = 0; q < bs->maskwords; q++)
		{
			uint64		a[64];
			uint64		any = 0;
			int			i;

			for (i = 0; i < 64; i++)
			{
				a[i] = sig[i * bs->maskwords + q];
				any |= a[i];
			}
			if (!any)
				continue;
			PbTranspose64(a);
			for (i = 0; i < 64 && q * 64 + i < (int) meta->blockBits; i++)
				words[(q * 64 + i) * rw + w] |= a[i];
		}
		memset(sig, 0, sizeof(uint64) * 64 * bs->maskwords);
	}
	bs->havebatch = false;
}

/*
 * Write the batched segment pages: WAL-logged as full images, up to
 * PB_BUILD_WRITE_PAGES to a record (log_newpages), then appended to the index
 * through smgr, bypassing shared buffers, as nbtree's build does.  Through
 * shared buffers every page took a buffer (on a freshly started server, the
 * first touch of its memory) and was copied twice more by generic WAL.
 * pbbuild syncs the index at the end, so a checkpoint taken meanwhile, whose
 * redo would skip this WAL, loses nothing.
 */
static void
PbWriteBatch(Relation index, PbBuildState *bs)
{
	Page		pages[PB_BUILD_WRITE_PAGES];
	BlockNumber blknos[PB_BUILD_WRITE_PAGES];
	int			i;

	if (bs->nwpages == 0)
		return;
	for (i = 0; i < bs->nwpages; i++)
	{
		pages[i] = (Page) (bs->wpages + (Size) i * BLCKSZ);
		blknos[i] = bs->wfirst + i;
	}
	if (bs->usewal)
		log_newpages(BfSmgrFileLocator(RelationGetSmgr(index)), MAIN_FORKNUM,
					 bs->nwpages, blknos, pages, true);
	for (i = 0; i < bs->nwpages; i++)
	{
		PageSetChecksumInplace(pages[i], blknos[i]);
		smgrextend(RelationGetSmgr(index), MAIN_FORKNUM, blknos[i],
				   (char *) pages[i], true);
	}
	bs->nwpages = 0;
}

/*
 * Append page pos of a segment (a slice page, or a row map page past the
 * nblocks slice pages) with the given contents (no bits set if NULL) to the
 * write batch
 */
static void
PbWriteSegmentPage(Relation index, PbBuildState *bs, uint32 segment, uint32 pos,
				   const uint64 *words)
{
	const PageBloomMetaPageData *meta = &bs->state->meta;
	BlockNumber blkno = PbSliceBlkno(meta, segment, 0) + pos;
	Page		page;

	if (bs->nwpages == 0)
	{
		BlockNumber nblocks = RelationGetNumberOfBlocks(index);

		if (nblocks != blkno)
			elog(ERROR, "pagebloom index \"%s\": unexpected block %u while building, expected %u",
				 RelationGetRelationName(index), nblocks, blkno);
		bs->wfirst = blkno;
	}
	Assert(blkno == bs->wfirst + bs->nwpages);
	page = (Page) (bs->wpages + (Size) bs->nwpages * BLCKSZ);
	PbInitSegmentPage(page, meta, blkno);
	if (words)
		memcpy(PageBloomPageGetWords(page), words, PB_PAGE_WORDS * sizeof(uint64));
	if (++bs->nwpages == PB_BUILD_WRITE_PAGES)
		PbWriteBatch(index, bs);
}

/*
 * Write the segments before 'upto': the buffered one, and empty ones.  With
 * last, the last of them is the index's last segment, whose row map pages
 * are written only up to the group of the last range the scan saw
 * (PbBlocksForRange).
 */
static void
PbFlushSegments(Relation index, PbBuildState *bs, uint32 upto, bool last)
{
	const PageBloomMetaPageData *meta = &bs->state->meta;
	uint32		s;
	uint32		b;

	for (s = bs->nextsegment; s < upto; s++)
	{
		bool		buffered = bs->havesegment && s == bs->cursegment;
		uint32		nmap = PbSegmentPages(meta) - meta->nblocks;

		/* block numbers are 32 bits: refuse before logging past them */
		(void) PbBlocksForRange(meta, ((uint64) s + 1) * PbRangesPerSegment(meta) - 1);

		if (last && s == upto - 1 && meta->rowSlots > 0)
			nmap = PbBlocksForRange(meta, bs->maxrange) -
				PbSliceBlkno(meta, s, meta->nblocks);

		for (b = 0; b < meta->nblocks; b++)
			PbWriteSegmentPage(index, bs, s, b,
							   buffered ? bs->segbits + (Size) b * PB_PAGE_WORDS : NULL);
		for (b = 0; b < nmap; b++)
			PbWriteSegmentPage(index, bs, s, meta->nblocks + b,
							   buffered ? bs->segmap + (Size) b * PB_PAGE_WORDS : NULL);
		CHECK_FOR_INTERRUPTS();
	}
	/* the written segments are in the file, where a later tuple may set bits */
	PbWriteBatch(index, bs);
	if (upto > bs->nextsegment)
		bs->nextsegment = upto;
}

/* Set the row map entries of one tuple of the buffered segment */
static void
PbBuildSetRowMap(PbBuildState *bs, ItemPointer tid, const uint64 *hashes)
{
	const PageBloomMetaPageData *meta = &bs->state->meta;
	BlockNumber heapblk = ItemPointerGetBlockNumber(tid);
	OffsetNumber off = ItemPointerGetOffsetNumber(tid);
	uint32		rangebit = (heapblk / meta->pagesPerRange) % PbRangesPerSegment(meta);
	uint32		hidx = PbMapHeapIndex(meta, heapblk);
	uint32		group = rangebit / PbMapRangesPerPage(meta);
	uint32		c;

	for (c = 0; c < meta->ncols; c++)
	{
		uint64	   *words = bs->segmap + (Size) (group * meta->ncols + c) * PB_PAGE_WORDS;

		if (off > meta->rowSlots)
			words[hidx / 64] |= UINT64CONST(1) << (hidx % 64);
		else
		{
			uint8	   *hi = (uint8 *) (words + PB_MAP_OVERFLOW_WORDS);
			uint32		slot = hidx * meta->rowSlots + off - 1;
			uint16		fp = PbRowFingerprint(hashes[c]);

			hi[slot] = (uint8) (fp >> 8);
			hi[PB_MAP_SLOTS + slot] = (uint8) fp;
		}
	}
}

/* Per-tuple callback of the heap scan */
static void
PbBuildCallback(Relation index, ItemPointer tid, Datum *values,
				bool *isnull, bool tupleIsAlive, void *arg)
{
	PbBuildState *bs = (PbBuildState *) arg;
	PageBloomState *state = bs->state;
	const PageBloomMetaPageData *meta = &state->meta;
	uint32		range = ItemPointerGetBlockNumber(tid) / meta->pagesPerRange;
	uint32		segment = range / PbRangesPerSegment(meta);
	uint32		rangebit = range % PbRangesPerSegment(meta);
	uint64		hashes[INDEX_MAX_KEYS];
	int			i;

	PbHashTuple(state, values, isnull, hashes);

	if (segment < bs->nextsegment)
	{
		/* an earlier segment, already written: set the bits in place */
		PbEnsureRange(index, state, range);
		PbSetKeys(index, state, segment, rangebit, hashes, state->natts, tid);
	}
	else
	{
		if (bs->havebatch && range / 64 != bs->curbatch)
			PbFlushBatch(bs);
		if (!bs->havesegment || segment != bs->cursegment)
		{
			/* write what we have and the empty segments before this one */
			PbFlushSegments(index, bs, segment, false);
			memset(bs->segbits, 0, (Size) meta->nblocks * PB_PAGE_WORDS * sizeof(uint64));
			if (bs->segmap)
				memset(bs->segmap, 0, (Size) (PbSegmentPages(meta) - meta->nblocks) *
					   PB_PAGE_WORDS * sizeof(uint64));
			bs->cursegment = segment;
			bs->havesegment = true;
		}
		bs->curbatch = range / 64;
		bs->havebatch = true;
		bs->maxrange = Max(bs->maxrange, range);
		for (i = 0; i < state->natts; i++)
		{
			uint64		mask[PB_MASK_WORDS];
			uint64	   *sig = bs->batchsig +
				((Size) PbKeyBlock(meta, hashes[i]) * 64 + range % 64) * bs->maskwords;
			int			q;

			PbKeyMask(meta, i, hashes[i], mask);
			for (q = 0; q < bs->maskwords; q++)
				sig[q] |= mask[q];
		}
		if (meta->rowSlots > 0)
			PbBuildSetRowMap(bs, tid, hashes);
	}

	bs->indtuples += 1;
	if (((int64) bs->indtuples) % 1024 == 0)
		pgstat_progress_update_param(PROGRESS_CREATEIDX_TUPLES_DONE, (int64) bs->indtuples);
}

/* Write the metapage as block 0 of a new index */
static void
PbWriteMetaPage(Relation index, const PageBloomMetaPageData *meta)
{
	Buffer		buf = ReadBufferExtended(index, MAIN_FORKNUM, P_NEW, RBM_NORMAL, NULL);
	GenericXLogState *gx;
	Page		page;

	Assert(BufferGetBlockNumber(buf) == PB_METAPAGE_BLKNO);
	LockBuffer(buf, BUFFER_LOCK_EXCLUSIVE);
	gx = GenericXLogStart(index);
	page = GenericXLogRegisterBuffer(gx, buf, GENERIC_XLOG_FULL_IMAGE);
	PbInitMetaPage(page, meta);
	GenericXLogFinish(gx);
	UnlockReleaseBuffer(buf);
}

/*
 * ambuild: size the signature, write the metapage, scan the heap in order
 * and write the segments.
 */
IndexBuildResult *
pbbuild(Relation heap, Relation index, IndexInfo *indexInfo)
{
	IndexBuildResult *result;
	PageBloomMetaPageData meta;
	PbBuildState bs;
	double		reltuples;

	if (RelationGetNumberOfBlocks(index) != 0)
		elog(ERROR, "index \"%s\" already contains data",
			 RelationGetRelationName(index));
	PbCheckHeapAm(heap);

	/*
	 * An exclusion constraint's check scans the index directly, rechecking
	 * only its operators: the rows outside a partial index's predicate that
	 * lossy pages and replaced row map slots name would count as conflicts
	 */
	if (indexInfo->ii_ExclusionOps != NULL && indexInfo->ii_Predicate != NIL)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("pagebloom does not support exclusion constraints with a WHERE clause"),
				 errdetail("The index may name rows outside the predicate, which the constraint check does not recheck."),
				 errhint("Use a B-tree index for a partial exclusion constraint, or drop the WHERE clause.")));

	PbComputeParams(heap, index, &meta, true);
	PbWriteMetaPage(index, &meta);

	memset(&bs, 0, sizeof(bs));
	bs.state = PbGetState(index);
	bs.segbits = palloc_extended((Size) meta.nblocks * PB_PAGE_WORDS * sizeof(uint64),
								 MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	if (meta.rowSlots > 0)
		bs.segmap = palloc_extended((Size) (PbSegmentPages(&meta) - meta.nblocks) *
									PB_PAGE_WORDS * sizeof(uint64),
									MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	bs.maskwords = (int) (meta.blockBits + 63) / 64;
	bs.batchsig = palloc0(sizeof(uint64) * 64 * bs.maskwords * meta.nblocks);
	bs.wpagesraw = palloc((Size) PB_BUILD_WRITE_PAGES * BLCKSZ + PB_IO_ALIGN);
	bs.wpages = (char *) TYPEALIGN(PB_IO_ALIGN, bs.wpagesraw);
	bs.usewal = RelationNeedsWAL(index);

	pgstat_progress_update_param(PROGRESS_CREATEIDX_SUBPHASE, PB_BUILD_PHASE_SCAN);
	reltuples = table_index_build_scan(heap, index, indexInfo, false, true,
									   PbBuildCallback, &bs, NULL);
	PbFlushBatch(&bs);
	if (bs.havesegment)
		PbFlushSegments(index, &bs, bs.cursegment + 1, true);

	/*
	 * The segment pages bypassed shared buffers, so no checkpoint writes or
	 * syncs them: sync them now when their WAL may be skipped by a redo that
	 * starts at a checkpoint taken during the build, and for an unlogged
	 * index, which a clean shutdown must leave on disk (nbtree's build
	 * before 17 syncs the first only; 17's bulk writes register both with
	 * the checkpointer instead, unless a checkpoint began meanwhile).  An
	 * index built without WAL under wal_level minimal is synced or logged
	 * at commit, and a temporary one needs neither.
	 */
	if (RelationNeedsWAL(index) ||
		index->rd_rel->relpersistence == RELPERSISTENCE_UNLOGGED)
		smgrimmedsync(RelationGetSmgr(index), MAIN_FORKNUM);
	bs.state->knownBlocks = RelationGetNumberOfBlocks(index);
	pgstat_progress_update_param(PROGRESS_CREATEIDX_TUPLES_DONE, (int64) bs.indtuples);
	pfree(bs.segbits);
	if (bs.segmap)
		pfree(bs.segmap);
	pfree(bs.batchsig);
	pfree(bs.wpagesraw);

	result = (IndexBuildResult *) palloc(sizeof(IndexBuildResult));
	result->heap_tuples = reltuples;
	result->index_tuples = bs.indtuples;
	return result;
}

/*
 * ambuildempty: the init fork of an unlogged index, a metapage sized for the
 * table as it is now.
 */
void
pbbuildempty(Relation index)
{
	Oid			heapoid = IndexGetRelation(RelationGetRelid(index), false);
	Relation	heap = table_open(heapoid, NoLock);
	PageBloomMetaPageData meta;
	Page		page;

	PbComputeParams(heap, index, &meta, false);
	table_close(heap, NoLock);

	page = (Page) palloc(BLCKSZ);
	PbInitMetaPage(page, &meta);
	PageSetChecksumInplace(page, PB_METAPAGE_BLKNO);
	smgrwrite(RelationGetSmgr(index), INIT_FORKNUM, PB_METAPAGE_BLKNO,
			  (char *) page, true);
	log_newpage(BfSmgrFileLocator(RelationGetSmgr(index)), INIT_FORKNUM,
				PB_METAPAGE_BLKNO, page, true);
	smgrimmedsync(RelationGetSmgr(index), INIT_FORKNUM);
	pfree(page);
}

/* Name of a build subphase for pg_stat_progress_create_index */
char *
pbbuildphasename(int64 phasenum)
{
	switch (phasenum)
	{
		case PROGRESS_CREATEIDX_SUBPHASE_INITIALIZE:
			return "initializing";
		case PB_BUILD_PHASE_SCAN:
			return "scanning table";
		default:
			return NULL;
	}
}
