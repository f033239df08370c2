/*
 * pagebloominsert.c
 *		Inserting into a pagebloom index: aminsert, and the rows whose keys
 *		wait to be set until their transaction commits or reads the index.
 *
 * Design.  A heap tuple's keys must be in the index before any snapshot can
 * see the tuple.  Only its own transaction can see it before the commit, so
 * aminsert keeps the tuple's keys (its TID and one hash per column) in a list
 * per index and transaction, and sets them in batches (PbSetRows): when a
 * list has PB_PENDING_ROWS rows, when this backend begins a scan of the index
 * (or pagebloom_verify, pagebloom_info, pagebloom_resummarize open it),
 * before any utility statement (DDL that copies, rewrites, truncates or drops
 * the index or its table finds it complete; so do COPY's, transaction
 * control's and every other's), and before the transaction commits or
 * prepares.  A batch changes each page once however many keys it gets: the
 * row map page of a range takes the entries of all its new rows in one
 * locked write, a slice page the bits of several keys.  Set row by row, an
 * insert locked and logged one page per column and key kind (twelve for six
 * columns), and that was most of its time.
 *
 * Nothing else sees those rows earlier.  Other snapshots see them only after
 * the commit; a standby only after replaying the commit record, which follows
 * the keys' WAL.  A crash or an abort takes the rows with it, and a
 * subtransaction's abort drops its rows from the lists.  Exclusion
 * constraints look for conflicting rows of transactions in progress (a dirty
 * snapshot): an index with one sets a row's keys at once, as does a parallel
 * worker.  The range's segment is created at once too (PbEnsureRange), so
 * that an index that cannot grow fails the INSERT, not the COMMIT.
 *
 * A batch sets a row's keys only if its TID still holds a tuple that this
 * transaction inserted: a row map slot belongs to its line pointer, and the
 * tuple of a speculative insertion that lost its conflict is killed at once
 * (no subtransaction abort): pruning may give its line pointer to another
 * transaction's row, whose entry an old one written later would replace.
 * The tuples of the transaction in progress cannot be pruned otherwise, so
 * the check holds until the batch is written.
 *
 * Setting keys.  Bits only ever go from 0 to 1, so concurrent inserters
 * cannot undo each other; pages are locked in block order, up to four per
 * generic WAL record (PbSetRows).  A batch holds its segment's lock in shared
 * mode, which only a re-summarization of that segment waits for
 * (pagebloomvacuum.c): it sees these tuples as being inserted and either
 * sets their keys itself or keeps the range's old bits, and the batch adds
 * its bits afterwards.  HOT updates do not call aminsert: the new version is
 * on the same page (same range) with the same indexed values.
 */
#include "pagebloom.h"

#include "access/heapam.h"
#include "access/htup_details.h"
#include "access/parallel.h"
#include "access/relation.h"
#include "access/table.h"
#include "access/xact.h"
#include "miscadmin.h"
#include "nodes/execnodes.h"
#include "storage/bufmgr.h"
#include "storage/lmgr.h"
#include "tcop/utility.h"
#include "utils/memutils.h"
#include "utils/rel.h"

/* Rows of an index's list: a batch */
#define PB_PENDING_ROWS		1024

/* The rows of one index waiting for their keys, in insertion order */
typedef struct PbPendingIndex
{
	struct PbPendingIndex *next;
	Oid			indexoid;
	Oid			relfilenode;	/* the index's storage when they came */
	int			natts;
	int			nrows;
	ItemPointerData tids[PB_PENDING_ROWS];
	SubTransactionId subids[PB_PENDING_ROWS];
	uint64	   *hashes;			/* natts per row */
} PbPendingIndex;

/* This transaction's lists (in TopTransactionContext), and their rows */
static PbPendingIndex *pbPending = NULL;
static int64 pbPendingRows = 0;

static ProcessUtility_hook_type pbPrevProcessUtility = NULL;

/* The list of an index, made if asked */
static PbPendingIndex *
PbPendingList(Relation index, int natts, bool create)
{
	PbPendingIndex *p;

	for (p = pbPending; p != NULL; p = p->next)
		if (p->indexoid == RelationGetRelid(index))
			return p;
	if (!create)
		return NULL;
	p = MemoryContextAllocZero(TopTransactionContext, sizeof(PbPendingIndex));
	p->indexoid = RelationGetRelid(index);
	p->relfilenode = index->rd_rel->relfilenode;
	p->natts = natts;
	p->hashes = MemoryContextAlloc(TopTransactionContext,
								   sizeof(uint64) * natts * PB_PENDING_ROWS);
	p->next = pbPending;
	pbPending = p;
	return p;
}

/*
 * Whether row i of list p is still this transaction's tuple: its TID holds a
 * normal tuple inserted by this transaction (or a subtransaction of it that
 * has not aborted).  The caller holds a pin and share lock on its heap page.
 */
static bool
PbPendingRowIsOurs(Page page, ItemPointer tid)
{
	OffsetNumber off = ItemPointerGetOffsetNumber(tid);
	ItemId		lp;
	HeapTupleHeader htup;

	if (off < FirstOffsetNumber || off > PageGetMaxOffsetNumber(page))
		return false;
	lp = PageGetItemId(page, off);
	if (!ItemIdIsNormal(lp))
		return false;
	htup = (HeapTupleHeader) PageGetItem(page, lp);
	return TransactionIdIsCurrentTransactionId(HeapTupleHeaderGetRawXmin(htup));
}

/*
 * Set the keys of list p's rows in index (whose storage p's rows came to),
 * a segment at a time under its lock, and empty the list
 */
static void
PbFlushList(Relation index, PbPendingIndex *p)
{
	PageBloomState *state = PbGetState(index);
	const PageBloomMetaPageData *meta = &state->meta;
	uint32		rps = PbRangesPerSegment(meta);
	Relation	heap;
	bool	   *keep;
	bool	   *done;
	ItemPointerData *tids;
	uint32	   *rangebits;
	uint64	   *hashes;
	Buffer		buf = InvalidBuffer;
	BlockNumber bufblk = InvalidBlockNumber;
	int			left = 0;
	int			i;

	Assert(p->natts == state->natts);
	if (p->nrows == 0)
		return;

	/* the rows whose TIDs still hold our tuples */
	heap = table_open(index->rd_index->indrelid, AccessShareLock);
	keep = palloc(sizeof(bool) * p->nrows);
	for (i = 0; i < p->nrows; i++)
	{
		BlockNumber blk = ItemPointerGetBlockNumber(&p->tids[i]);

		if (blk != bufblk)
		{
			if (BufferIsValid(buf))
				UnlockReleaseBuffer(buf);
			buf = ReadBuffer(heap, blk);
			LockBuffer(buf, BUFFER_LOCK_SHARE);
			bufblk = blk;
		}
		keep[i] = PbPendingRowIsOurs(BufferGetPage(buf), &p->tids[i]);
		left += keep[i];
	}
	if (BufferIsValid(buf))
		UnlockReleaseBuffer(buf);
	table_close(heap, AccessShareLock);

	/* a segment at a time, the rows in their order */
	done = palloc0(sizeof(bool) * p->nrows);
	tids = palloc(sizeof(ItemPointerData) * p->nrows);
	rangebits = palloc(sizeof(uint32) * p->nrows);
	hashes = palloc(sizeof(uint64) * p->natts * p->nrows);
	for (i = 0; left > 0 && i < p->nrows; i++)
	{
		uint64		segment;
		uint64		maxrange = 0;
		int			n = 0;
		int			j;

		if (!keep[i] || done[i])
			continue;
		segment = (ItemPointerGetBlockNumber(&p->tids[i]) / meta->pagesPerRange) / rps;
		for (j = i; j < p->nrows; j++)
		{
			uint64		range = ItemPointerGetBlockNumber(&p->tids[j]) / meta->pagesPerRange;

			if (!keep[j] || done[j] || range / rps != segment)
				continue;
			tids[n] = p->tids[j];
			rangebits[n] = (uint32) (range % rps);
			memcpy(hashes + (Size) n * p->natts, p->hashes + (Size) j * p->natts,
				   sizeof(uint64) * p->natts);
			maxrange = Max(maxrange, range);
			done[j] = true;
			n++;
		}
		/* created by the inserts, unless the index was rebuilt meanwhile */
		PbEnsureRange(index, state, maxrange);
		PbLockSegment(index, (uint32) segment, PB_SEGLOCK_INSERT);
		PbSetRows(index, state, (uint32) segment, n, rangebits, hashes, p->natts, tids);
		PbUnlockSegment(index, (uint32) segment, PB_SEGLOCK_INSERT);
		left -= n;
	}
	pfree(keep);
	pfree(done);
	pfree(tids);
	pfree(rangebits);
	pfree(hashes);

	pbPendingRows -= p->nrows;
	p->nrows = 0;
}

/* Set the keys of the rows waiting for index, if any (before reading it) */
void
PbFlushPending(Relation index)
{
	PbPendingIndex *p;

	if (pbPendingRows == 0)
		return;
	p = PbPendingList(index, 0, false);
	if (p == NULL || p->nrows == 0)
		return;
	if (p->relfilenode != index->rd_rel->relfilenode)
	{
		/* rebuilt from its table since (cannot happen: DDL flushes first) */
		pbPendingRows -= p->nrows;
		p->nrows = 0;
		return;
	}
	PbFlushList(index, p);
}

/*
 * Set the keys of every waiting row: before a commit, a prepare or a utility
 * statement.  An index that no longer exists (dropped by this transaction)
 * or has new storage takes nothing.
 */
static void
PbFlushAllPending(void)
{
	PbPendingIndex *p;

	for (p = pbPending; p != NULL && pbPendingRows > 0; p = p->next)
	{
		Relation	index;

		if (p->nrows == 0)
			continue;
		index = try_relation_open(p->indexoid, RowExclusiveLock);
		if (index != NULL &&
			index->rd_rel->relkind == RELKIND_INDEX &&
			index->rd_indam->ambuild == pbbuild &&
			index->rd_rel->relfilenode == p->relfilenode)
			PbFlushList(index, p);
		else
		{
			pbPendingRows -= p->nrows;
			p->nrows = 0;
		}
		if (index != NULL)
			relation_close(index, RowExclusiveLock);
	}
}

/* Transaction end: set the keys before a commit or prepare, forget them after */
static void
PbXactCallback(XactEvent event, void *arg)
{
	switch (event)
	{
		case XACT_EVENT_PRE_COMMIT:
		case XACT_EVENT_PRE_PREPARE:
			PbFlushAllPending();
			break;
		case XACT_EVENT_COMMIT:
		case XACT_EVENT_PARALLEL_COMMIT:
		case XACT_EVENT_ABORT:
		case XACT_EVENT_PARALLEL_ABORT:
		case XACT_EVENT_PREPARE:
			/* the lists were in TopTransactionContext */
			pbPending = NULL;
			pbPendingRows = 0;
			break;
		default:
			break;
	}
}

/*
 * Subtransaction abort: drop the rows it inserted (those of mySubid and of
 * its children, which began after it), keeping the others in order
 */
static void
PbSubXactCallback(SubXactEvent event, SubTransactionId mySubid,
				  SubTransactionId parentSubid, void *arg)
{
	PbPendingIndex *p;

	if (event != SUBXACT_EVENT_ABORT_SUB)
		return;
	for (p = pbPending; p != NULL; p = p->next)
	{
		int			n = 0;
		int			i;

		for (i = 0; i < p->nrows; i++)
		{
			if (p->subids[i] >= mySubid)
				continue;
			if (n != i)
			{
				p->tids[n] = p->tids[i];
				p->subids[n] = p->subids[i];
				memcpy(p->hashes + (Size) n * p->natts, p->hashes + (Size) i * p->natts,
					   sizeof(uint64) * p->natts);
			}
			n++;
		}
		pbPendingRows -= p->nrows - n;
		p->nrows = n;
	}
}

/* Utility statements find every index complete */
static void
PbProcessUtility(PlannedStmt *pstmt, const char *queryString, bool readOnlyTree,
				 ProcessUtilityContext context, ParamListInfo params,
				 QueryEnvironment *queryEnv, DestReceiver *dest,
				 QueryCompletion *qc)
{
	if (pbPendingRows > 0 && IsTransactionState())
		PbFlushAllPending();
	if (pbPrevProcessUtility)
		pbPrevProcessUtility(pstmt, queryString, readOnlyTree, context, params,
							 queryEnv, dest, qc);
	else
		standard_ProcessUtility(pstmt, queryString, readOnlyTree, context, params,
								queryEnv, dest, qc);
}

/* Register the transaction callbacks and the utility hook (from _PG_init) */
void
PbInsertInit(void)
{
	RegisterXactCallback(PbXactCallback, NULL);
	RegisterSubXactCallback(PbSubXactCallback, NULL);
	pbPrevProcessUtility = ProcessUtility_hook;
	ProcessUtility_hook = PbProcessUtility;
}

/* aminsert: set the keys of one heap tuple in its range's signature */
bool
pbinsert(Relation index, Datum *values, bool *isnull,
		 ItemPointer ht_ctid, Relation heapRel,
		 IndexUniqueCheck checkUnique, bool indexUnchanged,
		 IndexInfo *indexInfo)
{
	PageBloomState *state = PbGetState(index);
	const PageBloomMetaPageData *meta = &state->meta;
	uint32		range = ItemPointerGetBlockNumber(ht_ctid) / meta->pagesPerRange;
	uint32		segment = range / PbRangesPerSegment(meta);
	uint64		hashes[INDEX_MAX_KEYS];

	PbHashTuple(state, values, isnull, hashes);
	PbEnsureRange(index, state, range);

	if (indexInfo->ii_ExclusionOps == NULL && !IsParallelWorker())
	{
		PbPendingIndex *p = PbPendingList(index, state->natts, true);

		if (p->relfilenode != index->rd_rel->relfilenode)
		{
			/* new storage: what waited for the old is in it or obsolete */
			pbPendingRows -= p->nrows;
			p->nrows = 0;
			p->relfilenode = index->rd_rel->relfilenode;
		}
		p->tids[p->nrows] = *ht_ctid;
		p->subids[p->nrows] = GetCurrentSubTransactionId();
		memcpy(p->hashes + (Size) p->nrows * p->natts, hashes, sizeof(uint64) * p->natts);
		p->nrows++;
		pbPendingRows++;
		if (p->nrows == PB_PENDING_ROWS)
			PbFlushList(index, p);
		return false;
	}

	PbLockSegment(index, segment, PB_SEGLOCK_INSERT);
	PbSetKeys(index, state, segment, range % PbRangesPerSegment(meta),
			  hashes, state->natts, ht_ctid);
	PbUnlockSegment(index, segment, PB_SEGLOCK_INSERT);
	return false;
}
