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
 * With parallel workers (as many as the planner allows a CREATE INDEX on the
 * table: max_parallel_maintenance_workers, maintenance_work_mem, the table's
 * parallel_workers), the leader and the workers scan units of 64 ranges each
 * into one image of the current segment in dynamic shared memory, and the
 * leader writes each segment when all its units are done (see "Parallel
 * build" below); the index is the serial build's, bit for bit.
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
#include "access/parallel.h"
#include "access/table.h"
#include "access/tableam.h"
#include "access/xact.h"
#include "access/xlog.h"
#include "access/xloginsert.h"
#include "catalog/index.h"
#include "commands/progress.h"
#include "executor/instrument.h"
#include "miscadmin.h"
#include "optimizer/optimizer.h"
#include "pgstat.h"
#include "port/atomics.h"
#include "port/pg_bitutils.h"
#include "storage/barrier.h"
#include "storage/condition_variable.h"
#include "storage/dsm_impl.h"
#include "storage/smgr.h"
#include "storage/proc.h"
#include "storage/spin.h"
#include "storage/sync.h"
#include "tcop/tcopprot.h"
#include "utils/rel.h"

/*
 * Shared state of a parallel build (in the DSM segment, followed by the image
 * of the segment being built: its slice pages, then its row map pages, as
 * PB_PAGE_WORDS words each).
 */
typedef struct PbParallelShared
{
	Oid			heaprelid;
	Oid			indexrelid;
	BlockNumber heapblocks;		/* heap blocks to scan */
	uint32		nsegments;		/* index segments they cover */
	uint32		units;			/* units of 64 ranges per segment */
	Size		imagewords;		/* words of the segment image */
	Barrier		barrier;		/* phase 2s: scan segment s; 2s + 1: the
								 * leader writes it */
	pg_atomic_uint32 nextunit;	/* next unit of the segment being scanned */
	ConditionVariable attachcv; /* signalled when a worker has attached */
	slock_t		mutex;			/* protects what follows, and the overflow
								 * words of the image's row map pages */
	int64		segmaxrange;	/* last range with a tuple in the segment
								 * being scanned, -1 if none */
	double		reltuples;		/* heap tuples, over all participants */
	double		indtuples;		/* index tuples, over all participants */
	BlockNumber blocksdone;		/* heap blocks scanned, for progress */
	int			nattached;		/* workers attached to the barrier */
	bool		brokenhotchain; /* a participant saw a broken HOT chain */
} PbParallelShared;

#define PB_SHM_KEY_SHARED		UINT64CONST(0x5042000000000001)
#define PB_SHM_KEY_QUERY_TEXT	UINT64CONST(0x5042000000000002)
#define PB_SHM_KEY_BUFFER_USAGE	UINT64CONST(0x5042000000000003)
#define PB_SHM_KEY_WAL_USAGE	UINT64CONST(0x5042000000000004)

#define PbParallelImage(shared) \
	((uint64 *) ((char *) (shared) + MAXALIGN(sizeof(PbParallelShared))))

typedef struct PbBuildState
{
	PageBloomState *state;
	uint64	   *segbits;		/* nblocks pages of PB_PAGE_WORDS words */
	uint64	   *segmap;			/* the segment's row map pages, as many
								 * words each */
	bool		havesegment;	/* segbits holds segment cursegment */
	uint32		cursegment;
	uint32		nextsegment;	/* first segment not yet written */
	uint64	   *batchsig;		/* signatures of 64 consecutive ranges:
								 * batchsig[(i * nblocks + b) * maskwords + q]
								 * is word q of block b's row mask of range 64
								 * * curbatch + i (a range's blocks together,
								 * so the keys of the range being scanned
								 * touch nblocks * maskwords words, not the
								 * whole buffer: 32 kB in cache, not 2 MB) */
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
	PbParallelShared *shared;	/* parallel build: the shared state */
	bool		leader;			/* parallel build: this is the leader */
	int64		partialsegment; /* parallel build: the last segment written,
								 * whose row map stops at its last range
								 * with a tuple (-1: none) */
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

		uint64	   *sig = bs->batchsig + (Size) b * bs->maskwords;
		Size		stride = (Size) meta->nblocks * bs->maskwords;

		for (q = 0; q < bs->maskwords; q++)
		{
			uint64		a[64];
			uint64		any = 0;
			int			i;

			for (i = 0; i < 64; i++)
			{
				a[i] = sig[i * stride + q];
				any |= a[i];
			}
			if (!any)
				continue;
			PbTranspose64(a);
			for (i = 0; i < 64 && q * 64 + i < (int) meta->blockBits; i++)
				words[(q * 64 + i) * rw + w] |= a[i];
		}
	}
	memset(bs->batchsig, 0, sizeof(uint64) * 64 * bs->maskwords * meta->nblocks);
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
		BfPageSetChecksum(pages[i], blknos[i]);
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
		{
			/* a row map page may span two participants' units */
			if (bs->shared)
				SpinLockAcquire(&bs->shared->mutex);
			words[hidx / 64] |= UINT64CONST(1) << (hidx % 64);
			if (bs->shared)
				SpinLockRelease(&bs->shared->mutex);
		}
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
				((Size) (range % 64) * meta->nblocks + PbKeyBlock(meta, hashes[i])) * bs->maskwords;
			int			q;

			PbKeyMask(meta, i, hashes[i], mask);
			for (q = 0; q < bs->maskwords; q++)
				sig[q] |= mask[q];
		}
		if (meta->rowSlots > 0)
			PbBuildSetRowMap(bs, tid, hashes);
	}

	bs->indtuples += 1;
	if (!bs->shared && ((int64) bs->indtuples) % 1024 == 0)
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
 * Parallel build.  The heap is cut into units of 64 ranges (one batch: word
 * w of every row of the segment's slice pages, and the row map slots of their
 * heap pages), which the leader and its workers claim one at a time and scan
 * with their own range scans, ORing their bits into one shared image of the
 * segment being built.  Units never share a word of slice page (only the
 * overflow words of a row map page that spans two units, set under a
 * spinlock), so no other locking is needed.  When every unit of a segment is
 * done (the barrier's even phase), the leader alone writes the segment, as
 * the serial build does (its odd phase), and clears the image for the next.
 * The pages written are the serial build's, bit for bit.
 */

/*
 * The parallel workers to ask for: none for CONCURRENTLY, for exclusion
 * constraints, for a table of one unit, or when the segment image would take
 * more than maintenance_work_mem (it lives in dynamic shared memory, which
 * may be small, as in containers, and whose exhaustion is an error, not a
 * fallback); else what the planner allows for a CREATE INDEX on the table
 * (max_parallel_maintenance_workers, the table's size or parallel_workers,
 * maintenance_work_mem; on 17+ index_build has asked it, amcanbuildparallel),
 * at most a worker per unit beyond the leader's
 */
static int
PbParallelWorkers(Relation heap, Relation index, IndexInfo *indexInfo,
				  const PageBloomMetaPageData *meta, BlockNumber heapblocks)
{
	uint64		units;
	int			nworkers;

	if (indexInfo->ii_Concurrent || indexInfo->ii_ExclusionOps != NULL ||
		heapblocks == 0 || !IsUnderPostmaster)
		return 0;
	units = ((uint64) (heapblocks - 1) / meta->pagesPerRange) / 64 + 1;
	if (units < 2 ||
		(double) PbSegmentPages(meta) * PB_PAGE_WORDS * sizeof(uint64) >
		(double) maintenance_work_mem * 1024.0)
		return 0;
#if PG_VERSION_NUM >= 170000
	nworkers = indexInfo->ii_ParallelWorkers;
#else
	nworkers = plan_create_index_workers(RelationGetRelid(heap), RelationGetRelid(index));
#endif
	return (int) Min((uint64) nworkers, units - 1);
}

/* The leader's progress report: tuples and heap blocks of all participants */
static void
PbParallelReportProgress(PbParallelShared *shared)
{
	const int	index[] = {PROGRESS_CREATEIDX_TUPLES_DONE, PROGRESS_SCAN_BLOCKS_DONE};
	int64		val[2];

	SpinLockAcquire(&shared->mutex);
	val[0] = (int64) shared->indtuples;
	val[1] = (int64) shared->blocksdone;
	SpinLockRelease(&shared->mutex);
	pgstat_progress_update_multi_param(2, index, val);
}

/*
 * Scan unit 'unit' of segment 'segment' into the shared image and add what
 * it saw to the shared counts
 */
static void
PbParallelScanUnit(Relation heap, Relation index, IndexInfo *indexInfo,
				   PbBuildState *bs, uint32 segment, uint32 unit)
{
	PbParallelShared *shared = bs->shared;
	const PageBloomMetaPageData *meta = &bs->state->meta;
	uint64		firstrange = (uint64) segment * PbRangesPerSegment(meta) + (uint64) unit * 64;
	uint64		start = firstrange * meta->pagesPerRange;
	uint64		end = Min(start + (uint64) 64 * meta->pagesPerRange, (uint64) shared->heapblocks);
	double		before = bs->indtuples;
	double		reltuples;

	if (start >= end)
		return;
	bs->havesegment = true;
	bs->cursegment = segment;
	bs->havebatch = false;
	bs->maxrange = 0;
	reltuples = table_index_build_range_scan(heap, index, indexInfo, false, false, false,
											 (BlockNumber) start, (BlockNumber) (end - start),
											 PbBuildCallback, bs, NULL);
	PbFlushBatch(bs);

	SpinLockAcquire(&shared->mutex);
	if (bs->indtuples > before)
		shared->segmaxrange = Max(shared->segmaxrange, (int64) bs->maxrange);
	shared->reltuples += reltuples;
	shared->indtuples += bs->indtuples - before;
	shared->blocksdone += (BlockNumber) (end - start);
	SpinLockRelease(&shared->mutex);
	if (bs->leader)
		PbParallelReportProgress(shared);
}

/*
 * The leader's part between two segments: write the segment just scanned
 * from the shared image (if it had any tuple) as the serial build would, and
 * clear the image for the next.  A segment is written as if it were the last
 * (its row map up to its last range with a tuple); a later segment with
 * tuples first completes it with empty row map pages.
 */
static void
PbParallelWriteSegment(Relation index, PbBuildState *bs, uint32 segment)
{
	PbParallelShared *shared = bs->shared;
	const PageBloomMetaPageData *meta = &bs->state->meta;

	if (shared->segmaxrange >= 0)
	{
		if (bs->partialsegment >= 0)
		{
			uint32		ps = (uint32) bs->partialsegment;
			uint32		pos;

			for (pos = RelationGetNumberOfBlocks(index) - PbSliceBlkno(meta, ps, 0);
				 pos < PbSegmentPages(meta); pos++)
				PbWriteSegmentPage(index, bs, ps, pos, NULL);
		}
		bs->havesegment = true;
		bs->cursegment = segment;
		bs->maxrange = (uint64) shared->segmaxrange;
		PbFlushSegments(index, bs, segment + 1, true);
		bs->partialsegment = segment;
	}
	/* the next segment starts from a clear image; after the last, none does */
	if (segment + 1 < shared->nsegments)
		memset(bs->segbits, 0, shared->imagewords * sizeof(uint64));
	shared->segmaxrange = -1;
	pg_atomic_write_u32(&shared->nextunit, 0);
}

/*
 * Take part in a parallel build until every segment is written: claim and
 * scan units of the current segment (the leader too, unless scan is false:
 * parallel_leader_participation off), then wait for the others; the leader
 * (attached to the barrier before any worker started, so that no phase ends
 * without it) writes each segment.  A broken HOT chain seen here is reported
 * to the leader, which marks the index (indcheckxmin) as a serial build does.
 */
static void
PbParallelParticipate(Relation heap, Relation index, IndexInfo *indexInfo,
					  PbBuildState *bs, bool leader, bool scan)
{
	PbParallelShared *shared = bs->shared;
	int			phase;

	if (leader)
		phase = BarrierPhase(&shared->barrier);
	else
	{
		phase = BarrierAttach(&shared->barrier);
		SpinLockAcquire(&shared->mutex);
		shared->nattached++;
		SpinLockRelease(&shared->mutex);
		ConditionVariableBroadcast(&shared->attachcv);
	}
	while (phase / 2 < (int) shared->nsegments)
	{
		if (phase % 2 == 0)
		{
			uint32		unit;

			while (scan &&
				   (unit = pg_atomic_fetch_add_u32(&shared->nextunit, 1)) < shared->units)
				PbParallelScanUnit(heap, index, indexInfo, bs, (uint32) (phase / 2), unit);
		}
		else if (leader)
			PbParallelWriteSegment(index, bs, (uint32) (phase / 2));
		BarrierArriveAndWait(&shared->barrier, PG_WAIT_EXTENSION);
		if (leader)
			PbParallelReportProgress(shared);
		phase = BarrierPhase(&shared->barrier);
	}
	BarrierDetach(&shared->barrier);

	if (indexInfo->ii_BrokenHotChain)
	{
		SpinLockAcquire(&shared->mutex);
		shared->brokenhotchain = true;
		SpinLockRelease(&shared->mutex);
	}
}

/*
 * A build state: the cached index state and the batch buffer; for a parallel
 * participant (shared given), the segment image is the shared one, else the
 * caller allocates its own
 */
static void
PbInitBuildState(PbBuildState *bs, Relation index, PbParallelShared *shared)
{
	const PageBloomMetaPageData *meta;

	memset(bs, 0, sizeof(*bs));
	bs->state = PbGetStateCopy(index);
	meta = &bs->state->meta;
	bs->maskwords = (int) (meta->blockBits + 63) / 64;
	bs->batchsig = palloc0(sizeof(uint64) * 64 * bs->maskwords * meta->nblocks);
	bs->partialsegment = -1;
	bs->shared = shared;
	if (shared)
	{
		bs->segbits = PbParallelImage(shared);
		if (meta->rowSlots > 0)
			bs->segmap = bs->segbits + (Size) meta->nblocks * PB_PAGE_WORDS;
	}
}

/* Entry point of a parallel build worker */
void
PbParallelBuildMain(dsm_segment *seg, shm_toc *toc)
{
	PbParallelShared *shared = shm_toc_lookup(toc, PB_SHM_KEY_SHARED, false);
	BufferUsage *bufferusage;
	WalUsage   *walusage;
	Relation	heap;
	Relation	index;
	IndexInfo  *indexInfo;
	PbBuildState bs;

	/* the leader's statement, for pg_stat_activity and error reports */
	debug_query_string = shm_toc_lookup(toc, PB_SHM_KEY_QUERY_TEXT, false);
	pgstat_report_activity(STATE_RUNNING, debug_query_string);
	InstrStartParallelQuery();

	/* the lock modes CREATE INDEX and REINDEX hold (concurrent builds are serial) */
	heap = table_open(shared->heaprelid, ShareLock);
	index = index_open(shared->indexrelid, AccessExclusiveLock);
	indexInfo = BuildIndexInfo(index);

	PbInitBuildState(&bs, index, shared);
	PbParallelParticipate(heap, index, indexInfo, &bs, false, true);
	pfree(bs.batchsig);

	bufferusage = shm_toc_lookup(toc, PB_SHM_KEY_BUFFER_USAGE, false);
	walusage = shm_toc_lookup(toc, PB_SHM_KEY_WAL_USAGE, false);
	InstrEndParallelQuery(&bufferusage[ParallelWorkerNumber], &walusage[ParallelWorkerNumber]);

	index_close(index, AccessExclusiveLock);
	table_close(heap, ShareLock);
}

/* Leave parallel mode; the build state no longer points into the DSM */
static void
PbEndParallel(PbBuildState *bs, ParallelContext *pcxt)
{
	bs->shared = NULL;
	bs->leader = false;
	bs->segbits = NULL;
	bs->segmap = NULL;
	DestroyParallelContext(pcxt);
	ExitParallelMode();
}

/*
 * Build with nworkers parallel workers besides the leader; false (nothing
 * done) if no dynamic shared memory segment could be had or no worker could
 * be launched.  On success the segments are written and reltuples holds the
 * heap tuples scanned.
 */
static bool
PbBuildParallel(Relation heap, Relation index, IndexInfo *indexInfo,
				PbBuildState *bs, int nworkers, BlockNumber heapblocks,
				double *reltuples)
{
	const PageBloomMetaPageData *meta = &bs->state->meta;
	Size		imagewords = (Size) PbSegmentPages(meta) * PB_PAGE_WORDS;
	Size		size = MAXALIGN(sizeof(PbParallelShared)) + imagewords * sizeof(uint64);
	ParallelContext *pcxt;
	PbParallelShared *shared;
	bool		leaderscans;
	Size		querylen = debug_query_string ? strlen(debug_query_string) : 0;
	BufferUsage *bufferusage;
	WalUsage   *walusage;
	int			i;

	EnterParallelMode();
	pcxt = CreateParallelContext("bloomfilter", "PbParallelBuildMain", nworkers);
	shm_toc_estimate_chunk(&pcxt->estimator, size);
	shm_toc_estimate_chunk(&pcxt->estimator, querylen + 1);
	shm_toc_estimate_chunk(&pcxt->estimator, mul_size(sizeof(BufferUsage), nworkers));
	shm_toc_estimate_chunk(&pcxt->estimator, mul_size(sizeof(WalUsage), nworkers));
	shm_toc_estimate_keys(&pcxt->estimator, 4);
	InitializeParallelDSM(pcxt);
	if (pcxt->seg == NULL)
	{
		PbEndParallel(bs, pcxt);
		return false;
	}

	shared = (PbParallelShared *) shm_toc_allocate(pcxt->toc, size);

	/*
	 * The image must start zeroed.  A segment of its own is zero-filled by
	 * the operating system (a new POSIX or System V segment, a new file that
	 * dsm_impl_mmap fills with zeros, a new Windows mapping); only a segment
	 * carved from the main region that min_dynamic_shared_memory reserves
	 * can hold an earlier segment's bytes.  Clearing it here took 65 - 85 ms
	 * of a 1M-row build (20 MB): the leader's first touch of every page,
	 * before any worker could start; untouched, each participant maps the
	 * pages it writes, in parallel (doc/design.md, "Parallel build").
	 */
	memset(shared, 0, min_dynamic_shared_memory > 0 ? size : sizeof(PbParallelShared));
	shared->heaprelid = RelationGetRelid(heap);
	shared->indexrelid = RelationGetRelid(index);
	shared->heapblocks = heapblocks;
	shared->nsegments = (uint32) (((uint64) (heapblocks - 1) / meta->pagesPerRange) /
								  PbRangesPerSegment(meta) + 1);
	shared->units = PbRangesPerSegment(meta) / 64;
	shared->imagewords = imagewords;
	BarrierInit(&shared->barrier, 0);
	ConditionVariableInit(&shared->attachcv);
	pg_atomic_init_u32(&shared->nextunit, 0);
	SpinLockInit(&shared->mutex);
	shared->segmaxrange = -1;
	shm_toc_insert(pcxt->toc, PB_SHM_KEY_SHARED, shared);
	{
		char	   *querytext = shm_toc_allocate(pcxt->toc, querylen + 1);

		if (querylen > 0)
			memcpy(querytext, debug_query_string, querylen);
		querytext[querylen] = '\0';
		shm_toc_insert(pcxt->toc, PB_SHM_KEY_QUERY_TEXT, querytext);
	}
	/* the workers' buffer and WAL usage, for pg_stat_statements and EXPLAIN */
	bufferusage = shm_toc_allocate(pcxt->toc, mul_size(sizeof(BufferUsage), nworkers));
	shm_toc_insert(pcxt->toc, PB_SHM_KEY_BUFFER_USAGE, bufferusage);
	walusage = shm_toc_allocate(pcxt->toc, mul_size(sizeof(WalUsage), nworkers));
	shm_toc_insert(pcxt->toc, PB_SHM_KEY_WAL_USAGE, walusage);

	bs->shared = shared;
	bs->segbits = PbParallelImage(shared);
	bs->segmap = meta->rowSlots > 0 ? bs->segbits + (Size) meta->nblocks * PB_PAGE_WORDS : NULL;
	bs->partialsegment = -1;
	bs->leader = true;
	(void) BarrierAttach(&shared->barrier);
	pgstat_progress_update_param(PROGRESS_SCAN_BLOCKS_TOTAL, heapblocks);

	LaunchParallelWorkers(pcxt);
	elog(DEBUG1, "pagebloom build of \"%s\": %d of %d parallel workers launched",
		 RelationGetRelationName(index), pcxt->nworkers_launched, nworkers);
	if (pcxt->nworkers_launched == 0)
	{
		/* none to be had: build serially, in private memory */
		PbEndParallel(bs, pcxt);
		return false;
	}
	leaderscans = parallel_leader_participation;
	if (!leaderscans)
	{
		/*
		 * A phase ends when every participant attached to the barrier has
		 * arrived, and so far only the leader is: wait for the workers (an
		 * error if one failed to start), or the leader would end each scan
		 * phase alone with its units unscanned.
		 */
		WaitForParallelWorkersToAttach(pcxt);
		ConditionVariablePrepareToSleep(&shared->attachcv);
		for (;;)
		{
			int			nattached;

			SpinLockAcquire(&shared->mutex);
			nattached = shared->nattached;
			SpinLockRelease(&shared->mutex);
			if (nattached >= pcxt->nworkers_launched)
				break;
			ConditionVariableSleep(&shared->attachcv, PG_WAIT_EXTENSION);
		}
		ConditionVariableCancelSleep();
	}
	PbParallelParticipate(heap, index, indexInfo, bs, true, leaderscans);
	WaitForParallelWorkersToFinish(pcxt);
	for (i = 0; i < pcxt->nworkers_launched; i++)
		InstrAccumParallelQuery(&bufferusage[i], &walusage[i]);

	*reltuples = shared->reltuples;
	bs->indtuples = shared->indtuples;
	if (shared->brokenhotchain)
		indexInfo->ii_BrokenHotChain = true;
	PbEndParallel(bs, pcxt);
	return true;
}

/*
 * Ask the checkpointer to sync the main fork of index, as writes to shared
 * buffers do (one request per 1 GB segment file); false if its request queue
 * is full.  17 and later have smgrregistersync(); before, the request is the
 * one md.c's writes send (storage/sync.h).
 */
static bool
PbRegisterSync(Relation index)
{
	SMgrRelation smgr = RelationGetSmgr(index);
#if PG_VERSION_NUM >= 170000
	smgrregistersync(smgr, MAIN_FORKNUM);
	return true;
#else
	BlockNumber nblocks = smgrnblocks(smgr, MAIN_FORKNUM);
	BlockNumber segno;

	/*
	 * the segment files that exist: a request for one past the last (an
	 * index of exactly N GB) fails the checkpoint's sync with ENOENT, a PANIC
	 */
	for (segno = 0; (uint64) segno * RELSEG_SIZE < nblocks; segno++)
	{
		FileTag		tag;

		memset(&tag, 0, sizeof(tag));	/* the tag is hashed whole */
		tag.handler = SYNC_HANDLER_MD;
		tag.forknum = MAIN_FORKNUM;
#if PG_VERSION_NUM >= 160000
		tag.rlocator = smgr->smgr_rlocator.locator;
#else
		tag.rnode = smgr->smgr_rnode.node;
#endif
		tag.segno = segno;
		if (!RegisterSyncRequest(&tag, SYNC_REQUEST, false))
			return false;
	}
	return true;
#endif
}

/*
 * Make the segment pages, written past shared buffers, durable, as 17's
 * bulk writes do.  A temporary index needs nothing, nor one built without
 * WAL under wal_level minimal (synced or logged at commit); an unlogged one
 * must be on disk after a clean shutdown, whose checkpoint syncs what is
 * registered.  A WAL-logged index is replayed from its WAL after a crash,
 * unless a checkpoint that began during the build moved the redo point past
 * some of it: then it is synced now; else the next checkpoint syncs it.  No
 * checkpoint may begin between the test and the registration
 * (DELAY_CHKPT_START).  The sync took some 30 ms of a 1M-row, 20 MB build,
 * and grows with the index.
 */
static void
PbBuildSync(Relation index, XLogRecPtr startRedo)
{
	bool		registered;

	if (index->rd_rel->relpersistence == RELPERSISTENCE_TEMP)
		return;
	if (!RelationNeedsWAL(index))
	{
		if (index->rd_rel->relpersistence == RELPERSISTENCE_UNLOGGED &&
			!PbRegisterSync(index))
			smgrimmedsync(RelationGetSmgr(index), MAIN_FORKNUM);
		return;
	}
	Assert((MyProc->delayChkptFlags & DELAY_CHKPT_START) == 0);
	MyProc->delayChkptFlags |= DELAY_CHKPT_START;
	registered = startRedo == GetRedoRecPtr() && PbRegisterSync(index);
	MyProc->delayChkptFlags &= ~DELAY_CHKPT_START;
	if (!registered)
	{
		smgrimmedsync(RelationGetSmgr(index), MAIN_FORKNUM);
		elog(DEBUG1, "pagebloom index \"%s\" synced at the end of its build: %s",
			 RelationGetRelationName(index), startRedo != GetRedoRecPtr() ?
			 "a checkpoint began during the build" : "the checkpointer's request queue is full");
	}
	else
		elog(DEBUG1, "pagebloom index \"%s\" registered with the checkpointer at the end of its build",
			 RelationGetRelationName(index));
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
	BlockNumber heapblocks,
				nblocks;
	int			nworkers;
	XLogRecPtr	startRedo;

	if (RelationGetNumberOfBlocks(index) != 0)
		elog(ERROR, "index \"%s\" already contains data",
			 RelationGetRelationName(index));
	PbCheckHeapAm(heap);
	PbCheckCollations(index);

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

	/* no rows of this transaction wait for the index (pagebloominsert.c) */
	PbCheckNoPending(index);

	/* a checkpoint that begins after this knows nothing of our writes */
	startRedo = GetRedoRecPtr();
	PbComputeParams(heap, index, &meta, true);
	PbWriteMetaPage(index, &meta);

	PbInitBuildState(&bs, index, NULL);
	bs.wpagesraw = palloc((Size) PB_BUILD_WRITE_PAGES * BLCKSZ + PB_IO_ALIGN);
	bs.wpages = (char *) TYPEALIGN(PB_IO_ALIGN, bs.wpagesraw);
	bs.usewal = RelationNeedsWAL(index);

	pgstat_progress_update_param(PROGRESS_CREATEIDX_SUBPHASE, PB_BUILD_PHASE_SCAN);
	heapblocks = RelationGetNumberOfBlocks(heap);
	nworkers = PbParallelWorkers(heap, index, indexInfo, &meta, heapblocks);
	if (nworkers == 0 ||
		!PbBuildParallel(heap, index, indexInfo, &bs, nworkers, heapblocks, &reltuples))
	{
		/* cleared by the callback when the first segment starts */
		bs.segbits = palloc_extended((Size) meta.nblocks * PB_PAGE_WORDS * sizeof(uint64),
									 MCXT_ALLOC_HUGE);
		if (meta.rowSlots > 0)
			bs.segmap = palloc_extended((Size) (PbSegmentPages(&meta) - meta.nblocks) *
										PB_PAGE_WORDS * sizeof(uint64),
										MCXT_ALLOC_HUGE);
		reltuples = table_index_build_scan(heap, index, indexInfo, false, true,
										   PbBuildCallback, &bs, NULL);
		PbFlushBatch(&bs);
		if (bs.havesegment)
			PbFlushSegments(index, &bs, bs.cursegment + 1, true);
		pfree(bs.segbits);
		if (bs.segmap)
			pfree(bs.segmap);
	}

	/*
	 * the metapage's extent: every page written, known to the cached state
	 * (bs.state is a copy) for the inserts that follow in this backend
	 */
	nblocks = RelationGetNumberOfBlocks(index);
	PbGetState(index)->knownBlocks = nblocks;
	PbRaiseExtent(index, nblocks);
	PbBuildSync(index, startRedo);
	pgstat_progress_update_param(PROGRESS_CREATEIDX_TUPLES_DONE, (int64) bs.indtuples);
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
	BfPageSetChecksum(page, PB_METAPAGE_BLKNO);
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
