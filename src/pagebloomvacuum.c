/*
 * pagebloomvacuum.c
 *		VACUUM of a pagebloom index (ambulkdelete, amvacuumcleanup) and
 *		re-summarization of stale ranges (pagebloom_resummarize, and VACUUM).
 *
 * Design.  A signature cannot forget a key, so ambulkdelete removes nothing:
 * the bits of deleted rows stay, which raises the false-positive rate of their
 * range but never hides a row.  ambulkdelete never calls the callback (which
 * also makes CREATE INDEX CONCURRENTLY re-insert every tuple in its validation
 * pass, harmlessly).
 *
 * Re-summarization rebuilds the signatures of ranges whose bits have mostly
 * gone stale, one segment (1024 ranges) at a time, under the table's
 * ShareUpdateExclusiveLock (held by VACUUM; taken by pagebloom_resummarize:
 * one at a time, reads and writes go on) and, per segment, the segment lock in
 * exclusive mode: inserts into that segment wait until the segment is done,
 * inserts elsewhere do not.  Under the segment lock it reads the heap's size
 * again and computes the new signatures of the candidate ranges from every
 * tuple that still has storage on their heap pages (live or dead, but not
 * inserted by an aborted transaction), gathered without waiting for any
 * transaction: a dead row loses its bits only after pruning removed it, and
 * pruning's WAL is what cancels standby queries that could still see it.  A
 * tuple whose heap insert the scan missed has not had its index insert yet
 * (that waits for the segment lock) and sets its bits afterwards.  A
 * candidate range is rewritten when at least min_stale of its set bits are
 * not in the new signature.  Each page is rewritten under its exclusive lock
 * in one generic WAL record as (old AND NOT rewritten-ranges) OR new, so a
 * concurrent scan sees each page either before or after, both
 * supersets of what any snapshot can see; bits missing from a candidate range
 * are added back as well.
 *
 * Candidates: every range for pagebloom_resummarize; for VACUUM
 * (amvacuumcleanup), the ranges whose heap pages have at least half their
 * space free in the free space map beyond what the fillfactor leaves free, so
 * that VACUUM scans again only the heap of ranges that lost many rows.
 */
#include "pagebloom.h"

#include "access/generic_xlog.h"
#include "access/heapam.h"
#include "access/table.h"
#include "access/tableam.h"
#include "access/xlog.h"
#include "catalog/index.h"
#include "executor/executor.h"
#include "miscadmin.h"
#include "port/pg_bitutils.h"
#include "storage/freespace.h"
#include "storage/lmgr.h"
#include "utils/acl.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"

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

typedef struct PbResumState
{
	PageBloomState *state;
	uint64	   *segbits;
	uint32		segment;
	uint32	   *oldcnt;
	uint32	   *newcnt;
	/* heap scan */
	EState	   *estate;
	TupleTableSlot *slot;
	ExprState  *predicate;
	bool		evalDead;		/* no expression or predicate: deleted rows
								 * that a snapshot may still see, and rows
								 * being inserted, can be evaluated (see
								 * PbResumScanBlocks) */
	BufferAccessStrategy strategy;
	/* ranges that must keep their old bits (see PbResumScanBlocks) */
	uint64		keep[PB_MAX_ROW_WORDS];
#if PG_VERSION_NUM >= 140000
	GlobalVisState *vistest;
#endif
} PbResumState;

/* Set the keys of one index tuple of heap block blkno in the new signatures */
static void
PbResumAddTuple(PbResumState *rs, BlockNumber blkno, Datum *values, bool *isnull)
{
	PageBloomState *state = rs->state;
	const PageBloomMetaPageData *meta = &state->meta;
	uint32		range = blkno / meta->pagesPerRange;
	uint32		rangebit = range % PbRangesPerSegment(meta);
	int			i;

	Assert(range / PbRangesPerSegment(meta) == rs->segment);
	for (i = 0; i < state->natts; i++)
	{
		uint64		h = PbKeyHash(state, i, values[i], isnull[i]);
		uint64	   *words = rs->segbits + (Size) PbKeyBlock(meta, h) * PB_PAGE_WORDS;
		uint16		rows[PB_MAX_K];
		int			nrows = PbKeyRows(meta, i, h, rows);
		int			r;

		for (r = 0; r < nrows; r++)
			words[rows[r] * meta->rowWords + rangebit / 64] |=
				UINT64CONST(1) << (rangebit % 64);
	}
}

/* Keep the old bits of the range of heap block blkno (not rewritten this time) */
static void
PbResumKeepRange(PbResumState *rs, BlockNumber blkno)
{
	uint32		rangebit = (blkno / rs->state->meta.pagesPerRange) % PbRangesPerSegment(&rs->state->meta);

	rs->keep[rangebit / 64] |= UINT64CONST(1) << (rangebit % 64);
}

/*
 * Set in the new signatures the keys of every tuple that still has storage
 * on heap blocks first .. first + nblk - 1: every LP_NORMAL item, live or
 * dead, except tuples whose inserting transaction aborted (never visible to
 * any snapshot, here or on a standby).  A dead tuple's bits thus go only once
 * heap pruning has removed its storage, and the WAL of pruning is what
 * cancels standby queries whose snapshots could still see it; bits cleared
 * by our generic WAL would cancel nothing.  Never waits for a transaction.
 */
static void
PbResumScanBlocks(Relation heap, IndexInfo *indexInfo, PbResumState *rs,
				  BlockNumber first, BlockNumber nblk)
{
	ExprContext *econtext = GetPerTupleExprContext(rs->estate);
	BlockNumber blkno;
	Datum		values[INDEX_MAX_KEYS];
	bool		isnull[INDEX_MAX_KEYS];

	for (blkno = first; blkno < first + nblk; blkno++)
	{
		OffsetNumber offs[MaxHeapTuplesPerPage];
		uint16		lens[MaxHeapTuplesPerPage];
		int			n = 0;
		int			i;
		Buffer		buf;
		Page		page;

		CHECK_FOR_INTERRUPTS();
		buf = ReadBufferExtended(heap, MAIN_FORKNUM, blkno, RBM_NORMAL, rs->strategy);
		LockBuffer(buf, BUFFER_LOCK_SHARE);
		page = BufferGetPage(buf);
		if (!PageIsNew(page))
		{
			OffsetNumber maxoff = PageGetMaxOffsetNumber(page);
			OffsetNumber off;

			for (off = FirstOffsetNumber; off <= maxoff; off++)
			{
				ItemId		lp = PageGetItemId(page, off);
				HeapTupleData tup;
				TransactionId deadAfter;

				if (!ItemIdIsNormal(lp))
					continue;
				tup.t_tableOid = RelationGetRelid(heap);
				tup.t_data = (HeapTupleHeader) PageGetItem(page, lp);
				tup.t_len = ItemIdGetLength(lp);
				ItemPointerSet(&tup.t_self, blkno, off);
				switch (HeapTupleSatisfiesVacuumHorizon(&tup, buf, &deadAfter))
				{
					case HEAPTUPLE_DEAD:
						/* DEAD here means: inserted by an aborted transaction */
						continue;
					case HEAPTUPLE_RECENTLY_DEAD:

						/*
						 * Deleted, and maybe already removable: its TOAST
						 * chunks may be gone (TOAST tables are vacuumed on
						 * their own) and CREATE INDEX never evaluated such a
						 * row, so it must not be evaluated.  But its bits may
						 * not go before pruning removes it (standbys): keep
						 * the whole range's old bits.  Not yet removable: its
						 * columns can be read, but CREATE INDEX may not have
						 * evaluated it either (a broken HOT chain's older
						 * members, rows deleted before a CREATE INDEX
						 * CONCURRENTLY's snapshots), so an index expression
						 * or predicate, which may fail on it, is not
						 * evaluated on it: the range keeps its old bits too.
						 */
#if PG_VERSION_NUM >= 140000
						if (rs->evalDead && !BfGlobalVisTestIsRemovableXid(rs->vistest, deadAfter))
							break;
#endif
						PbResumKeepRange(rs, blkno);
						continue;
					case HEAPTUPLE_DELETE_IN_PROGRESS:
						/* likewise (an older HOT chain member of an open CREATE INDEX's own transaction) */
						if (rs->evalDead)
							break;
						PbResumKeepRange(rs, blkno);
						continue;
					case HEAPTUPLE_INSERT_IN_PROGRESS:

						/*
						 * Its inserter may not have evaluated the expression
						 * or predicate yet (it does so before its index
						 * insert, which then adds the bits), and fails itself
						 * if that fails: not evaluated here either, the range
						 * keeps its old bits.
						 */
						if (rs->evalDead)
							break;
						PbResumKeepRange(rs, blkno);
						continue;
					default:
						break;
				}
				offs[n] = off;
				lens[n] = (uint16) tup.t_len;
				n++;
			}
		}
		LockBuffer(buf, BUFFER_LOCK_UNLOCK);

		/*
		 * Evaluate without the buffer lock (expressions may do anything); the
		 * pin keeps pruning from moving or removing these tuples.
		 */
		for (i = 0; i < n; i++)
		{
			HeapTupleData tup;
			MemoryContext oldcxt;

			tup.t_tableOid = RelationGetRelid(heap);
			tup.t_data = (HeapTupleHeader) PageGetItem(page, PageGetItemId(page, offs[i]));
			tup.t_len = lens[i];
			ItemPointerSet(&tup.t_self, blkno, offs[i]);
			ExecStoreBufferHeapTuple(&tup, rs->slot, buf);
			oldcxt = MemoryContextSwitchTo(econtext->ecxt_per_tuple_memory);
			/* a partial index: rows outside its predicate are never probed */
			if (rs->predicate == NULL || ExecQual(rs->predicate, econtext))
			{
				FormIndexDatum(indexInfo, rs->slot, rs->estate, values, isnull);
				PbResumAddTuple(rs, blkno, values, isnull);
			}
			MemoryContextSwitchTo(oldcxt);
			ExecClearTuple(rs->slot);
			ResetExprContext(econtext);
		}
		ReleaseBuffer(buf);
	}
}

/* Add, per range, the set bits of one page's rows to counts[] */
static void
PbCountBits(const PageBloomMetaPageData *meta, const uint64 *words, uint32 *counts)
{
	int			j;
	int			w;

	for (j = 0; j < (int) meta->blockBits; j++)
		for (w = 0; w < (int) meta->rowWords; w++)
		{
			uint64		x = words[j * meta->rowWords + w];

			while (x)
			{
				counts[w * 64 + pg_rightmost_one_pos64(x)]++;
				x &= x - 1;
			}
		}
}

/*
 * Re-summarize the candidate ranges of one segment; return how many were
 * rewritten.  Candidates: every range of the segment in the heap
 * (byvacuum false), or those whose heap pages have at least freeNeeded bytes
 * free each on average in the free space map (byvacuum true).  The caller
 * holds ShareUpdateExclusiveLock on the heap and made sure the segment
 * exists.
 */
static int64
PbResummarizeSegment(Relation heap, Relation index, IndexInfo *indexInfo,
					 PbResumState *rs, uint32 segment, double minStale,
					 bool byvacuum, double freeNeeded)
{
	const PageBloomMetaPageData *meta = &rs->state->meta;
	uint64		ppr = meta->pagesPerRange;
	uint64		cand[PB_MAX_ROW_WORDS];
	uint64		mask[PB_MAX_ROW_WORDS];
	bool		any = false;
	BlockNumber heapBlocks;
	uint64		nranges;
	int64		rewritten = 0;
	uint32		b;
	int			r;
	int			w;

	/* no insert into this segment from here until its pages are rewritten */
	PbLockSegment(index, segment, PB_SEGLOCK_RESUMMARIZE);

	/*
	 * The heap's size now, under the lock: an insert that extended the heap
	 * and set its bits before we took the lock must be scanned.
	 */
	heapBlocks = RelationGetNumberOfBlocks(heap);
	nranges = ((uint64) heapBlocks + ppr - 1) / ppr;

	memset(cand, 0, sizeof(cand));
	for (r = 0; r < (int) PbRangesPerSegment(meta); r++)
	{
		uint64		range = (uint64) segment * PbRangesPerSegment(meta) + r;
		uint64		first = range * ppr;

		if (range >= nranges)
			break;
		if (byvacuum)
		{
			double		freeBytes = 0;
			uint64		p;

			for (p = first; p < first + ppr && p < heapBlocks; p++)
				freeBytes += GetRecordedFreeSpace(heap, (BlockNumber) p);
			if (freeBytes < freeNeeded * (Min(first + ppr, heapBlocks) - first))
				continue;
		}
		cand[r / 64] |= UINT64CONST(1) << (r % 64);
		any = true;
	}
	if (!any)
	{
		PbUnlockSegment(index, segment, PB_SEGLOCK_RESUMMARIZE);
		return 0;
	}

	/* new signatures of the candidates: scan each run of candidate ranges */
	rs->segment = segment;
	memset(rs->keep, 0, sizeof(rs->keep));
#if PG_VERSION_NUM >= 140000
	rs->vistest = GlobalVisTestFor(heap);
#endif
	memset(rs->segbits, 0, (Size) meta->nblocks * PB_PAGE_WORDS * sizeof(uint64));
	r = 0;
	while (r < (int) PbRangesPerSegment(meta))
	{
		int			start;
		uint64		first;
		uint64		nblk;

		if (!(cand[r / 64] & (UINT64CONST(1) << (r % 64))))
		{
			r++;
			continue;
		}
		start = r;
		while (r < (int) PbRangesPerSegment(meta) && (cand[r / 64] & (UINT64CONST(1) << (r % 64))))
			r++;
		first = ((uint64) segment * PbRangesPerSegment(meta) + start) * ppr;
		nblk = (uint64) (r - start) * ppr;
		if (first < heapBlocks)
			PbResumScanBlocks(heap, indexInfo, rs, (BlockNumber) first,
							  (BlockNumber) Min(nblk, heapBlocks - first));
	}

	/* which candidates are stale? */
	memset(rs->oldcnt, 0, sizeof(uint32) * PbRangesPerSegment(meta));
	memset(rs->newcnt, 0, sizeof(uint32) * PbRangesPerSegment(meta));
	for (b = 0; b < meta->nblocks; b++)
	{
		Buffer		buf = ReadBuffer(index, PbSliceBlkno(meta, segment, b));
		Page		page;

		LockBuffer(buf, BUFFER_LOCK_SHARE);
		page = BufferGetPage(buf);
		if (!PageIsNew(page))
			PbCountBits(meta, PageBloomPageGetWords(page), rs->oldcnt);
		UnlockReleaseBuffer(buf);
		PbCountBits(meta, rs->segbits + (Size) b * PB_PAGE_WORDS, rs->newcnt);
	}
	memset(mask, 0, sizeof(mask));
	for (r = 0; r < (int) PbRangesPerSegment(meta); r++)
	{
		uint32		oldc = rs->oldcnt[r];
		uint32		newc = rs->newcnt[r];

		if ((cand[r / 64] & (UINT64CONST(1) << (r % 64))) &&
			!(rs->keep[r / 64] & (UINT64CONST(1) << (r % 64))) && oldc > newc &&
			(double) (oldc - newc) >= minStale * oldc)
		{
			mask[r / 64] |= UINT64CONST(1) << (r % 64);
			rewritten++;
		}
	}

	/* rewrite: (old AND NOT mask) OR new, one page at a time */
	for (b = 0; b < meta->nblocks; b++)
	{
		BlockNumber blkno = PbSliceBlkno(meta, segment, b);
		const uint64 *nw = rs->segbits + (Size) b * PB_PAGE_WORDS;
		Buffer		buf = ReadBuffer(index, blkno);
		Page		page;
		bool		changed = false;
		int			j;

		LockBuffer(buf, BUFFER_LOCK_EXCLUSIVE);
		page = BufferGetPage(buf);
		if (PageIsNew(page))
			changed = true;
		else
		{
			const uint64 *ow = PageBloomPageGetWords(page);

			for (j = 0; j < (int) meta->blockBits && !changed; j++)
				for (w = 0; w < (int) meta->rowWords; w++)
					if (((ow[j * meta->rowWords + w] & ~mask[w]) | nw[j * meta->rowWords + w]) !=
						ow[j * meta->rowWords + w])
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
				PbInitSlicePage(page, segment, b);
			}
			else
				page = GenericXLogRegisterBuffer(gx, buf, 0);
			words = PageBloomPageGetWords(page);
			for (j = 0; j < (int) meta->blockBits; j++)
				for (w = 0; w < (int) meta->rowWords; w++)
					words[j * meta->rowWords + w] =
						(words[j * meta->rowWords + w] & ~mask[w]) | nw[j * meta->rowWords + w];
			GenericXLogFinish(gx);
		}
		UnlockReleaseBuffer(buf);
	}

	PbUnlockSegment(index, segment, PB_SEGLOCK_RESUMMARIZE);
	return rewritten;
}

/*
 * Re-summarize the stale ranges of an index, all of them candidates
 * (byvacuum false) or only those whose heap pages are mostly free in the free
 * space map (byvacuum true).  Returns the number of ranges rewritten.
 */
static int64
PbResummarize(Relation heap, Relation index, double minStale, bool byvacuum)
{
	PageBloomState *state = PbGetStateCopy(index);
	const PageBloomMetaPageData *meta = &state->meta;
	IndexInfo  *indexInfo = BuildIndexInfo(index);
	BlockNumber heapBlocks = RelationGetNumberOfBlocks(heap);
	uint64		ppr = meta->pagesPerRange;
	uint64		nranges = ((uint64) heapBlocks + ppr - 1) / ppr;
	uint64		nsegs = (nranges + PbRangesPerSegment(meta) - 1) / PbRangesPerSegment(meta);
	double		fillfactor = RelationGetFillFactor(heap, HEAP_DEFAULT_FILLFACTOR) / 100.0;
	double		freeNeeded = (0.5 + (1.0 - fillfactor)) * BLCKSZ;
	int64		rewritten = 0;
	PbResumState rs;
	uint64		s;

	/* re-summarization reads heap pages itself */
	PbCheckHeapAm(heap);

	/*
	 * An invalid index (a failed CREATE INDEX or REINDEX CONCURRENTLY) is
	 * never scanned, and VACUUM still visits it: it may lack rows that were
	 * inserted while it was not ready, on which an index expression was
	 * never evaluated and may fail.  Leave it as it is (REINDEX or DROP
	 * INDEX are the way out), rather than fail every VACUUM of the table.
	 */
	if (!index->rd_index->indisvalid)
		return 0;

	if (byvacuum)
	{
		/* only existing segments: VACUUM does not grow the index */
		BlockNumber blocks = RelationGetNumberOfBlocks(index);
		uint64		have = blocks > meta->nblocks ?
			(blocks - 1 - meta->nblocks) / PbSegmentPages(meta) + 1 : 0;

		nsegs = Min(nsegs, have);
		if (freeNeeded >= BLCKSZ)
			return 0;
	}
	if (nsegs == 0)
		return 0;
	PbEnsureRange(index, state, (nsegs - 1) * PbRangesPerSegment(meta));

	memset(&rs, 0, sizeof(rs));
	rs.state = state;
	rs.segbits = palloc_extended((Size) meta->nblocks * PB_PAGE_WORDS * sizeof(uint64),
								 MCXT_ALLOC_HUGE);
	rs.oldcnt = palloc(sizeof(uint32) * PbRangesPerSegment(meta));
	rs.newcnt = palloc(sizeof(uint32) * PbRangesPerSegment(meta));

	rs.estate = CreateExecutorState();
	rs.slot = MakeSingleTupleTableSlot(RelationGetDescr(heap), &TTSOpsBufferHeapTuple);
	GetPerTupleExprContext(rs.estate)->ecxt_scantuple = rs.slot;
	rs.predicate = ExecPrepareQual(indexInfo->ii_Predicate, rs.estate);
	rs.evalDead = indexInfo->ii_Expressions == NIL && indexInfo->ii_Predicate == NIL;
	rs.strategy = GetAccessStrategy(BAS_BULKREAD);

	for (s = 0; s < nsegs; s++)
	{
		CHECK_FOR_INTERRUPTS();
		rewritten += PbResummarizeSegment(heap, index, indexInfo, &rs, (uint32) s,
										  minStale, byvacuum, freeNeeded);
	}

	ExecDropSingleTupleTableSlot(rs.slot);
	FreeExecutorState(rs.estate);
	FreeAccessStrategy(rs.strategy);
	pfree(rs.segbits);
	pfree(rs.oldcnt);
	pfree(rs.newcnt);
	return rewritten;
}

/*
 * amvacuumcleanup: re-summarize the ranges that lost most of their rows
 * (VACUUM holds the ShareUpdateExclusiveLock re-summarization needs), report
 * the index size.
 */
IndexBulkDeleteResult *
pbvacuumcleanup(IndexVacuumInfo *info, IndexBulkDeleteResult *stats)
{
	if (info->analyze_only)
		return stats;
	if (stats == NULL)
		stats = (IndexBulkDeleteResult *) palloc0(sizeof(IndexBulkDeleteResult));

	if (!RecoveryInProgress())
	{
		Oid			heapoid = IndexGetRelation(RelationGetRelid(info->index), false);
		Relation	heap = table_open(heapoid, NoLock);

		PbResummarize(heap, info->index, PB_VACUUM_MIN_STALE, true);
		table_close(heap, NoLock);
	}

	stats->num_pages = RelationGetNumberOfBlocks(info->index);
	stats->num_index_tuples = info->num_heap_tuples;
	stats->estimated_count = info->estimated_count;
	return stats;
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
	int64		rewritten;

	if (!(minStale >= 0.0 && minStale <= 1.0))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("min_stale must be between 0 and 1, got %g", minStale),
				 errhint("0 rewrites every range with a stale bit, 1 only ranges with no live key left.")));
	if (RecoveryInProgress())
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("recovery is in progress"),
				 errdetail("pagebloom_resummarize writes the index, which a server in recovery cannot do."),
				 errhint("Run pagebloom_resummarize on the primary.")));

	heapoid = PbIndexTable(indexoid);
	/* checked before the lock too: no queueing behind lockers without it */
	if (!BfRelationOwnerCheck(heapoid, GetUserId()))
		aclcheck_error(ACLCHECK_NOT_OWNER, get_relkind_objtype(get_rel_relkind(heapoid)),
					   get_rel_name(heapoid));
	/* one re-summarization or VACUUM at a time; readers and writers go on */
	heap = table_open(heapoid, ShareUpdateExclusiveLock);
	if (!BfRelationOwnerCheck(heapoid, GetUserId()))
		aclcheck_error(ACLCHECK_NOT_OWNER, get_relkind_objtype(heap->rd_rel->relkind),
					   RelationGetRelationName(heap));
	index = index_open(indexoid, RowExclusiveLock);
	if (index->rd_rel->relkind != RELKIND_INDEX || index->rd_indam->ambuild != pbbuild)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("\"%s\" is not a pagebloom index", RelationGetRelationName(index)),
				 errhint("Pass a pagebloom index (a partitioned index has one per partition).")));
	/* the rows this transaction inserted have their keys first */
	PbFlushPending();

	rewritten = PbResummarize(heap, index, minStale, false);

	index_close(index, RowExclusiveLock);
	table_close(heap, ShareUpdateExclusiveLock);
	PG_RETURN_INT64(rewritten);
}
