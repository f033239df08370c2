/*
 * pagebloomvacuum.c
 *		VACUUM of a pagebloom index (ambulkdelete, amvacuumcleanup) and
 *		re-summarization of stale ranges (pagebloom_resummarize).
 *
 * Design.  A signature cannot forget a key, so VACUUM removes nothing: the
 * bits of deleted rows stay, which raises the false-positive rate of their
 * range but never hides a row.  ambulkdelete therefore never calls the
 * callback (which also makes CREATE INDEX CONCURRENTLY re-insert every tuple
 * in its validation pass, harmlessly).
 *
 * pagebloom_resummarize(index, min_stale) rebuilds the signatures of ranges
 * whose bits have mostly gone stale, one segment (1024 ranges) at a time.  It
 * takes ShareUpdateExclusiveLock on the table (one re-summarization or VACUUM
 * at a time; reads and writes go on) and, per segment, the segment lock in
 * exclusive mode: inserts into that segment wait until the segment is done,
 * inserts elsewhere do not.  Under the segment lock it computes the new
 * signatures from every tuple not yet dead to all transactions (live,
 * recently dead, inserted or deleted by transactions in progress: the set an
 * index build with anyvisible uses).  A tuple whose heap insert the scan
 * missed has not had its index insert yet (that waits for the segment lock)
 * and sets its bits afterwards.  A range is
 * rewritten when at least min_stale of its set bits are not in the new
 * signature.  Each page is then rewritten under its exclusive lock in one
 * generic WAL record as (old AND NOT rewritten-ranges) OR new, so a
 * concurrent scan sees each page either before or after, both supersets of
 * what any snapshot can see; bits missing from any range are added back as
 * well.
 */
#include "pagebloom.h"

#include "access/generic_xlog.h"
#include "access/table.h"
#include "access/tableam.h"
#include "access/xlog.h"
#include "catalog/index.h"
#include "miscadmin.h"
#include "port/pg_bitutils.h"
#include "storage/lmgr.h"
#include "utils/acl.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"

PG_FUNCTION_INFO_V1(pagebloom_resummarize);

/* ambulkdelete: nothing to remove from signatures */
IndexBulkDeleteResult *
pbbulkdelete(IndexVacuumInfo *info, IndexBulkDeleteResult *stats,
			 IndexBulkDeleteCallback callback, void *callback_state)
{
	if (stats == NULL)
		stats = (IndexBulkDeleteResult *) palloc0(sizeof(IndexBulkDeleteResult));
	return stats;
}

/* amvacuumcleanup: report the index size */
IndexBulkDeleteResult *
pbvacuumcleanup(IndexVacuumInfo *info, IndexBulkDeleteResult *stats)
{
	if (info->analyze_only)
		return stats;
	if (stats == NULL)
		stats = (IndexBulkDeleteResult *) palloc0(sizeof(IndexBulkDeleteResult));
	stats->num_pages = RelationGetNumberOfBlocks(info->index);
	stats->num_index_tuples = info->num_heap_tuples;
	stats->estimated_count = info->estimated_count;
	return stats;
}

typedef struct PbResumState
{
	PageBloomState *state;
	uint64	   *segbits;
	uint32		segment;
} PbResumState;

/* Heap scan callback: set a tuple's keys in the new signatures */
static void
PbResumCallback(Relation index, ItemPointer tid, Datum *values,
				bool *isnull, bool tupleIsAlive, void *arg)
{
	PbResumState *rs = (PbResumState *) arg;
	PageBloomState *state = rs->state;
	const PageBloomMetaPageData *meta = &state->meta;
	uint32		range = ItemPointerGetBlockNumber(tid) / meta->pagesPerRange;
	uint32		rangebit = range % PB_RANGES_PER_SEGMENT;
	int			i;

	if (range / PB_RANGES_PER_SEGMENT != rs->segment)
		return;					/* cannot happen with a range scan */
	for (i = 0; i < state->natts; i++)
	{
		uint64		h = PbKeyHash(state, i, values[i], isnull[i]);
		uint64	   *words = rs->segbits + (Size) PbKeyBlock(meta, h) * PB_PAGE_WORDS;
		uint16		rows[PB_MAX_K];
		uint32		r;

		PbKeyRows(meta, h, rows);
		for (r = 0; r < meta->k; r++)
			words[rows[r] * PB_ROW_WORDS + rangebit / 64] |= UINT64CONST(1) << (rangebit % 64);
	}
}

/* Add, per range, the set bits of one page's rows to counts[] */
static void
PbCountBits(const uint64 *words, uint32 *counts)
{
	int			j;
	int			w;

	for (j = 0; j < PB_BLOCK_BITS; j++)
		for (w = 0; w < PB_ROW_WORDS; w++)
		{
			uint64		x = words[j * PB_ROW_WORDS + w];

			while (x)
			{
				counts[w * 64 + pg_rightmost_one_pos64(x)]++;
				x &= x - 1;
			}
		}
}

/*
 * pagebloom_resummarize(index regclass, min_stale float8 DEFAULT 0.25)
 *		RETURNS bigint
 *		Rebuild the signatures of the ranges of which at least min_stale of
 *		the set bits belong to no tuple any more; return how many.
 */
Datum
pagebloom_resummarize(PG_FUNCTION_ARGS)
{
	Oid			indexoid = PG_GETARG_OID(0);
	double		minStale = PG_GETARG_FLOAT8(1);
	Oid			heapoid;
	Relation	heap;
	Relation	index;
	PageBloomState *state;
	const PageBloomMetaPageData *meta;
	IndexInfo  *indexInfo;
	BlockNumber heapBlocks;
	uint64		nranges;
	uint64		nsegs;
	uint64		s;
	int64		rewritten = 0;
	PbResumState rs;
	uint32	   *oldcnt;
	uint32	   *newcnt;

	if (!(minStale >= 0.0 && minStale <= 1.0))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("min_stale must be between 0 and 1, got %g", minStale),
				 errhint("0 rewrites every range, 1 only ranges with no live key left.")));
	if (RecoveryInProgress())
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("recovery is in progress"),
				 errhint("pagebloom re-summarization cannot run during recovery; run it on the primary.")));

	heapoid = IndexGetRelation(indexoid, true);
	if (!OidIsValid(heapoid))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("\"%s\" is not an index",
						get_rel_name(indexoid) ? get_rel_name(indexoid) : "?"),
				 errhint("Pass a pagebloom index.")));
	/* one re-summarization or VACUUM at a time; readers and writers go on */
	heap = table_open(heapoid, ShareUpdateExclusiveLock);
	if (!pg_class_ownercheck(heapoid, GetUserId()))
		aclcheck_error(ACLCHECK_NOT_OWNER, get_relkind_objtype(heap->rd_rel->relkind),
					   RelationGetRelationName(heap));
	index = index_open(indexoid, RowExclusiveLock);
	if (index->rd_rel->relkind != RELKIND_INDEX || index->rd_indam->ambuild != pbbuild)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("\"%s\" is not a pagebloom index", RelationGetRelationName(index)),
				 errhint("Pass a pagebloom index (a partitioned index has one per partition).")));

	state = PbGetState(index);
	meta = &state->meta;
	indexInfo = BuildIndexInfo(index);
	heapBlocks = RelationGetNumberOfBlocks(heap);
	nranges = ((uint64) heapBlocks + meta->pagesPerRange - 1) / meta->pagesPerRange;
	nsegs = (nranges + PB_RANGES_PER_SEGMENT - 1) / PB_RANGES_PER_SEGMENT;
	if (nsegs > 0)
		PbEnsureSegment(index, state, (uint32) (nsegs - 1));

	memset(&rs, 0, sizeof(rs));
	rs.state = state;
	rs.segbits = palloc_extended((Size) meta->nblocks * PB_PAGE_WORDS * sizeof(uint64),
								 MCXT_ALLOC_HUGE);
	oldcnt = palloc(sizeof(uint32) * PB_RANGES_PER_SEGMENT);
	newcnt = palloc(sizeof(uint32) * PB_RANGES_PER_SEGMENT);

	for (s = 0; s < nsegs; s++)
	{
		uint64		mask[PB_ROW_WORDS];
		uint64		first = s * PB_RANGES_PER_SEGMENT * meta->pagesPerRange;
		uint64		nblk = (uint64) PB_RANGES_PER_SEGMENT * meta->pagesPerRange;
		uint32		b;
		int			r;
		int			w;

		CHECK_FOR_INTERRUPTS();
		/* no insert into this segment from here until its pages are rewritten */
		LockPage(index, PbSliceBlkno(meta, (uint32) s, 0), PB_SEGLOCK_RESUMMARIZE);
		rs.segment = (uint32) s;
		memset(rs.segbits, 0, (Size) meta->nblocks * PB_PAGE_WORDS * sizeof(uint64));
		if (first < heapBlocks)
			table_index_build_range_scan(heap, index, indexInfo, false, true, false,
										 (BlockNumber) first,
										 (BlockNumber) Min(nblk, heapBlocks - first),
										 PbResumCallback, &rs, NULL);

		/* which ranges are stale? */
		memset(oldcnt, 0, sizeof(uint32) * PB_RANGES_PER_SEGMENT);
		memset(newcnt, 0, sizeof(uint32) * PB_RANGES_PER_SEGMENT);
		for (b = 0; b < meta->nblocks; b++)
		{
			Buffer		buf = ReadBuffer(index, PbSliceBlkno(meta, (uint32) s, b));
			Page		page;

			LockBuffer(buf, BUFFER_LOCK_SHARE);
			page = BufferGetPage(buf);
			if (!PageIsNew(page))
				PbCountBits(PageBloomPageGetWords(page), oldcnt);
			UnlockReleaseBuffer(buf);
			PbCountBits(rs.segbits + (Size) b * PB_PAGE_WORDS, newcnt);
		}
		memset(mask, 0, sizeof(mask));
		for (r = 0; r < PB_RANGES_PER_SEGMENT; r++)
		{
			if (oldcnt[r] > newcnt[r] &&
				(double) (oldcnt[r] - newcnt[r]) >= minStale * oldcnt[r])
			{
				mask[r / 64] |= UINT64CONST(1) << (r % 64);
				rewritten++;
			}
		}

		/* rewrite: (old AND NOT mask) OR new, one page at a time */
		for (b = 0; b < meta->nblocks; b++)
		{
			BlockNumber blkno = PbSliceBlkno(meta, (uint32) s, b);
			const uint64 *nw = rs.segbits + (Size) b * PB_PAGE_WORDS;
			Buffer		buf = ReadBuffer(index, blkno);
			Page		page;
			bool		changed = false;
			const uint64 *ow;
			int			j;

			LockBuffer(buf, BUFFER_LOCK_EXCLUSIVE);
			page = BufferGetPage(buf);
			if (PageIsNew(page))
				changed = true;
			else
			{
				ow = PageBloomPageGetWords(page);
				for (j = 0; j < PB_BLOCK_BITS && !changed; j++)
					for (w = 0; w < PB_ROW_WORDS; w++)
						if (((ow[j * PB_ROW_WORDS + w] & ~mask[w]) | nw[j * PB_ROW_WORDS + w]) !=
							ow[j * PB_ROW_WORDS + w])
						{
							changed = true;
							break;
						}
			}
			if (changed)
			{
				GenericXLogState *gx = GenericXLogStart(index);
				uint64	   *words;

				if (PageIsNew(page))
				{
					page = GenericXLogRegisterBuffer(gx, buf, GENERIC_XLOG_FULL_IMAGE);
					PbInitSlicePage(page, (uint32) s, b);
				}
				else
					page = GenericXLogRegisterBuffer(gx, buf, 0);
				words = PageBloomPageGetWords(page);
				for (j = 0; j < PB_BLOCK_BITS; j++)
					for (w = 0; w < PB_ROW_WORDS; w++)
						words[j * PB_ROW_WORDS + w] =
							(words[j * PB_ROW_WORDS + w] & ~mask[w]) | nw[j * PB_ROW_WORDS + w];
				GenericXLogFinish(gx);
			}
			UnlockReleaseBuffer(buf);
		}
		UnlockPage(index, PbSliceBlkno(meta, (uint32) s, 0), PB_SEGLOCK_RESUMMARIZE);
	}

	pfree(rs.segbits);
	pfree(oldcnt);
	pfree(newcnt);
	index_close(index, RowExclusiveLock);
	table_close(heap, ShareUpdateExclusiveLock);
	PG_RETURN_INT64(rewritten);
}
