/*
 * pagebloominsert.c
 *		Inserting into a pagebloom index: aminsert, and the rows of the
 *		running statement whose keys wait to be set until it ends.
 *
 * Design.  A heap tuple's keys must be in the index before anything can look
 * for the tuple there.  Set row by row, an insert locked and logged one page
 * per column and key kind (twelve for six columns), and that was most of its
 * time; set in batches, each page is changed once for all the rows whose keys
 * it gets (PbSetRows).  So while a statement runs (an executor run or finish,
 * or a utility statement such as COPY: PbExecutorRun, PbExecutorFinish,
 * PbProcessUtility), aminsert keeps each new tuple's keys (its TID and one
 * hash per column) in a list per index.  The lists are set when such a call
 * returns and when one begins (a statement or function inside the running
 * one, a parallel query whose workers cannot see this backend's lists), when
 * this backend begins a scan of a pagebloom index (or pagebloom_verify,
 * pagebloom_info, pagebloom_resummarize open one), when a list has
 * PB_PENDING_ROWS rows or all have PB_PENDING_ALL, and before the transaction
 * commits or prepares (a safety net: nothing is left by then).  The first
 * row an index gets after one of these points sets its keys at once, so that
 * a one-row INSERT costs what it did before.
 *
 * Nothing else sees those rows earlier.  Other snapshots see them only after
 * the commit; a standby only after replaying the commit record, which follows
 * the keys' WAL.  The statement's own scans cannot see the rows it inserts
 * (they are of its own command), and a statement or function run inside it
 * that could sets them first.  An error takes the rows with the transaction
 * or subtransaction that inserted them: an abort drops the lists' rows of
 * the subtransactions it ends.  Some inserts set their keys at once: outside
 * a statement run (logical replication's apply; but see below for the
 * statement that loads this library); into an index with an
 * exclusion constraint (its check looks for conflicting rows of transactions
 * in progress, with a dirty snapshot); the validation of CREATE INDEX
 * CONCURRENTLY (it inserts rows of other transactions, already committed);
 * in a parallel worker; and after this transaction's lists were set for its
 * commit (another extension's pre-commit work).  The range's segment is
 * created at once (PbEnsureRange), so that an index that cannot grow fails
 * the row's insert.
 *
 * The index cannot change under a list: a list lives only within the call
 * that filled it (any call inside it sets the lists first), and that call
 * has the index open (the executor's result relations, COPY's target), which
 * makes PostgreSQL refuse whatever would rebuild, copy, truncate or drop the
 * index or its table meanwhile ("is being used by active queries in this
 * session").  A list still records the index's storage, and its flush fails
 * rather than lose its rows or write them to other storage, as does a build
 * of the index while rows wait for it (PbCheckNoPending).
 *
 * The statement that loads this library (a session's first COPY into a table
 * with a pagebloom index: it opens the index, and so loads the library, in
 * the middle of its run) is not wrapped by the hooks.  In a regular backend,
 * loaded while a client's statement runs (a portal is active: not in the
 * commit's own work, such as another extension's pre-commit callback, which
 * runs after ours would have), its rows wait all the same (pbUnwrapped,
 * until the transaction ends; a commit that finds rows warns), and
 * their list outlives the call that filled it, but only until the next of:
 * a statement call (any, also the next statement of the transaction: each
 * sets the lists first), a scan, the commit or prepare (whose callback runs
 * before the ON COMMIT actions and before the deferred triggers are shut
 * down), or an abort, which drops it.  Between the end of that statement and
 * the next point nothing runs in this backend that could read or rebuild the
 * index, and the transaction's lock on it keeps other backends from doing
 * anything but scanning (they cannot see these rows), inserting and
 * vacuuming, which batches already allow.
 * An earlier version kept the lists until the commit and missed rows in nine
 * ways (doc/performance.md, "Inserts in batches"); TAP test 057 holds each
 * of them, and the ways of this version's first draft (rows of a WITH query
 * inserted by ExecutorFinish inside DDL).
 *
 * A batch sets a row's keys only if its TID still holds a tuple that this
 * transaction inserted: a row map slot belongs to its line pointer, and the
 * tuple of a speculative insertion that lost its conflict is killed at once
 * (no subtransaction abort): while the statement goes on, pruning may give
 * its line pointer to another transaction's row, whose entry an old one
 * written later would replace.  The tuples of the transaction in progress
 * cannot be pruned otherwise, so the check holds until the batch is written.
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
#include "executor/executor.h"
#include "miscadmin.h"
#include "nodes/execnodes.h"
#include "storage/bufmgr.h"
#include "storage/lmgr.h"
#include "tcop/pquery.h"
#include "tcop/utility.h"
#include "utils/hsearch.h"
#include "utils/memutils.h"
#include "utils/rel.h"

/* Rows of an index's list: a batch; rows of all lists */
#define PB_PENDING_ROWS		1024
#define PB_PENDING_ALL		16384

/* The hint of the errors of rows found without their index (not known to happen) */
#define PB_PENDING_BUG_HINT \
	"Report this as a bug; rolling back the transaction keeps the index consistent."

/* The rows of one index waiting for their keys, in insertion order */
typedef struct PbPendingIndex
{
	Oid			indexoid;		/* hash key */
	Oid			spc;			/* the storage the rows came to: the */
	Oid			rfn;			/* index's pg_class reltablespace and
								 * relfilenode */
	int			natts;
	int			nrows;
	int			maxrows;		/* allocated: 16, doubled up to a batch */
	ItemPointerData *tids;
	SubTransactionId *subids;
	uint64	   *hashes;			/* natts per row */
} PbPendingIndex;

/*
 * This transaction's lists, by index (in TopTransactionContext), the rows in
 * them, the lists holding arrays, and whether they were set for the commit
 * (later inserts set their keys at once).  pbRunDepth counts the statement
 * calls in progress (rows wait only inside one); pbGeneration counts the
 * points where all lists are set (an index's first row after one sets its
 * keys at once: PageBloomState.insertGeneration).  pbUnwrapped: this library
 * was loaded while a client's statement of this regular backend's
 * transaction ran (its rows wait although no hooked call runs; see the
 * design note).
 */
static HTAB *pbPending = NULL;
static int64 pbPendingRows = 0;
static int	pbListsWithArrays = 0;
static bool pbCommitting = false;
static int	pbRunDepth = 0;
static bool pbUnwrapped = false;
static uint64 pbGeneration = 1;

static ExecutorRun_hook_type pbPrevExecutorRun = NULL;
static ExecutorFinish_hook_type pbPrevExecutorFinish = NULL;
static ProcessUtility_hook_type pbPrevProcessUtility = NULL;

/* The list of an index, made if asked */
static PbPendingIndex *
PbPendingList(Relation index, int natts, bool create)
{
	Oid			indexoid = RelationGetRelid(index);
	PbPendingIndex *p;
	bool		found;

	if (pbPending == NULL)
	{
		HASHCTL		ctl;

		if (!create)
			return NULL;
		ctl.keysize = sizeof(Oid);
		ctl.entrysize = sizeof(PbPendingIndex);
		ctl.hcxt = TopTransactionContext;
		pbPending = hash_create("pagebloom pending rows", 16, &ctl,
								HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
	}
	p = hash_search(pbPending, &indexoid, create ? HASH_ENTER : HASH_FIND, &found);
	if (p != NULL && !found)
	{
		/* an entry that an allocation failure leaves is an empty list */
		p->natts = natts;
		p->nrows = 0;
		p->maxrows = 0;
		p->tids = NULL;
		p->subids = NULL;
		p->hashes = NULL;
		p->spc = index->rd_rel->reltablespace;
		p->rfn = index->rd_rel->relfilenode;
	}
	return p;
}

/*
 * Room for one more row in list p (a batch at most): 16 rows, then doubled;
 * the count changes only once every array has its new size
 */
static void
PbPendingGrow(PbPendingIndex *p)
{
	int			n;

	if (p->nrows < p->maxrows)
		return;
	Assert(p->maxrows < PB_PENDING_ROWS);
	n = p->maxrows == 0 ? 16 : Min(p->maxrows * 2, PB_PENDING_ROWS);
	if (p->maxrows == 0)
	{
		pbListsWithArrays++;
		p->tids = MemoryContextAlloc(TopTransactionContext, sizeof(ItemPointerData) * n);
		p->subids = MemoryContextAlloc(TopTransactionContext, sizeof(SubTransactionId) * n);
		p->hashes = MemoryContextAlloc(TopTransactionContext, sizeof(uint64) * p->natts * n);
	}
	else
	{
		p->tids = repalloc(p->tids, sizeof(ItemPointerData) * n);
		p->subids = repalloc(p->subids, sizeof(SubTransactionId) * n);
		p->hashes = repalloc(p->hashes, sizeof(uint64) * p->natts * n);
	}
	p->maxrows = n;
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
	PageBloomState *state;
	const PageBloomMetaPageData *meta;
	uint32		rps;
	Relation	heap;
	bool	   *keep;
	bool	   *done;
	ItemPointerData *tids;
	uint32	   *rangebits;
	uint64	   *hashes;
	Buffer		buf = InvalidBuffer;
	BlockNumber bufblk = InvalidBlockNumber;
	BlockNumber heapblocks;
	int			left = 0;
	int			i;

	if (p->nrows == 0)
		return;

	/*
	 * the rows whose TIDs still hold our tuples; the statement that inserted
	 * them holds its lock on the table (taking a new one could process
	 * invalidations, which may free the index's cached state)
	 */
	heap = table_open(index->rd_index->indrelid, NoLock);
	heapblocks = RelationGetNumberOfBlocks(heap);
	keep = palloc(sizeof(bool) * p->nrows);
	for (i = 0; i < p->nrows; i++)
	{
		BlockNumber blk = ItemPointerGetBlockNumber(&p->tids[i]);

		if (blk >= heapblocks)
		{
			/* cannot happen (the statement's lock keeps the table whole) */
			keep[i] = false;
			continue;
		}
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
	table_close(heap, NoLock);
	PbDebugDiscardAt(index);
	elog(DEBUG1, "pagebloom index \"%s\": keys of %d rows set in one batch",
		 RelationGetRelationName(index), left);

	state = PbGetState(index);
	meta = &state->meta;
	rps = PbRangesPerSegment(meta);
	Assert(p->natts == state->natts);

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
		/* created by the inserts already */
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

/*
 * Set the keys of list p's rows in its index, opened here.  The index is
 * there with the storage the rows came to (see the design note); if it is
 * not, this fails rather than lose the rows or write them elsewhere.
 */
static void
PbFlushListOpen(PbPendingIndex *p)
{
	Relation	index;

	index = try_relation_open(p->indexoid, RowExclusiveLock);
	if (index == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INTERNAL_ERROR),
				 errmsg("pagebloom index %u was dropped under rows waiting for their keys",
						p->indexoid),
				 errhint(PB_PENDING_BUG_HINT)));
	if (index->rd_rel->relkind != RELKIND_INDEX || index->rd_indam->ambuild != pbbuild ||
		IndexRelationGetNumberOfKeyAttributes(index) != p->natts ||
		index->rd_rel->reltablespace != p->spc || index->rd_rel->relfilenode != p->rfn)
		ereport(ERROR,
				(errcode(ERRCODE_INTERNAL_ERROR),
				 errmsg("pagebloom index \"%s\" changed under rows waiting for their keys",
						RelationGetRelationName(index)),
				 errdetail("It is now relation file %u in tablespace %u; the rows came to file %u in tablespace %u of a pagebloom index of %d columns.",
						   index->rd_rel->relfilenode, index->rd_rel->reltablespace,
						   p->rfn, p->spc, p->natts),
				 errhint(PB_PENDING_BUG_HINT)));
	PbFlushList(index, p);
	relation_close(index, NoLock);
}

/*
 * Set the keys of every waiting row (see the design note for when): a
 * point where an index's next row sets its keys at once
 */
void
PbFlushPending(void)
{
	HASH_SEQ_STATUS seq;
	PbPendingIndex *p;

	pbGeneration++;
	if (pbPending == NULL || (pbPendingRows == 0 && pbListsWithArrays == 0))
		return;
	Assert(IsTransactionState());
	hash_seq_init(&seq, pbPending);
	while ((p = hash_seq_search(&seq)) != NULL)
	{
		if (p->nrows > 0)
			PbFlushListOpen(p);
		/* a list's arrays last as long as its statement */
		if (p->maxrows > 0)
		{
			pfree(p->tids);
			pfree(p->subids);
			pfree(p->hashes);
			p->tids = NULL;
			p->subids = NULL;
			p->hashes = NULL;
			p->maxrows = 0;
			pbListsWithArrays--;
		}
	}
	Assert(pbPendingRows == 0 && pbListsWithArrays == 0);
}

/*
 * Fail if rows wait for index, which is being built (pbbuild): the build
 * would have them, but not the storage a rolled-back savepoint brings back
 * (not known to happen: see the design note)
 */
void
PbCheckNoPending(Relation index)
{
	PbPendingIndex *p;

	if (pbPendingRows == 0)
		return;
	p = PbPendingList(index, 0, false);
	if (p != NULL && p->nrows > 0)
		ereport(ERROR,
				(errcode(ERRCODE_INTERNAL_ERROR),
				 errmsg("pagebloom index \"%s\" is being built under rows waiting for their keys",
						RelationGetRelationName(index)),
				 errhint(PB_PENDING_BUG_HINT)));
}

/*
 * Transaction end: set the keys before a commit or prepare (and any insert
 * after that at once), forget the lists after
 */
static void
PbXactCallback(XactEvent event, void *arg)
{
	switch (event)
	{
		case XACT_EVENT_PRE_COMMIT:
		case XACT_EVENT_PRE_PREPARE:
			PbFlushPending();
			pbCommitting = true;
			break;
		case XACT_EVENT_COMMIT:
		case XACT_EVENT_PARALLEL_COMMIT:
		case XACT_EVENT_ABORT:
		case XACT_EVENT_PARALLEL_ABORT:
		case XACT_EVENT_PREPARE:
			/*
			 * the lists were in TopTransactionContext.  Rows left at a
			 * commit came after the pre-commit flush without it seeing them
			 * (not known to happen: see PbInsertInit): say so, as the
			 * committed rows' keys are missing
			 */
			if (pbPendingRows > 0 && event != XACT_EVENT_ABORT &&
				event != XACT_EVENT_PARALLEL_ABORT)
				ereport(WARNING,
						(errcode(ERRCODE_INTERNAL_ERROR),
						 errmsg("keys of " INT64_FORMAT " rows inserted into pagebloom indexes were not set before the commit",
								pbPendingRows),
						 errdetail("The rows were inserted after the transaction's pre-commit step had set the waiting rows."),
						 errhint("REINDEX the pagebloom indexes of the tables this transaction wrote, and report this as a bug.")));
			PbHashersUnpinAll();
			pbPending = NULL;
			pbPendingRows = 0;
			pbListsWithArrays = 0;
			pbCommitting = false;
			pbUnwrapped = false;
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
	HASH_SEQ_STATUS seq;
	PbPendingIndex *p;

	if (event != SUBXACT_EVENT_ABORT_SUB || pbPending == NULL || pbPendingRows == 0)
		return;
	hash_seq_init(&seq, pbPending);
	while ((p = hash_seq_search(&seq)) != NULL)
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

/*
 * A statement run begins or returns: set the waiting rows' keys (see the
 * design note)
 */
static void
PbRunBoundary(void)
{
	if (pbPendingRows > 0 || pbListsWithArrays > 0)
		PbFlushPending();
	else
		pbGeneration++;
}

/*
 * ExecutorRun hook: rows inserted during an executor run wait (pbRunDepth);
 * those before it and its own are set as it begins and returns.  An error
 * leaves its rows to the (sub)transaction abort.
 */
#if PG_VERSION_NUM >= 180000
static void
PbExecutorRun(QueryDesc *queryDesc, ScanDirection direction, uint64 count)
#else
static void
PbExecutorRun(QueryDesc *queryDesc, ScanDirection direction, uint64 count,
			  bool execute_once)
#endif
{
	PbRunBoundary();
	pbRunDepth++;
	PG_TRY();
	{
#if PG_VERSION_NUM >= 180000
		if (pbPrevExecutorRun)
			pbPrevExecutorRun(queryDesc, direction, count);
		else
			standard_ExecutorRun(queryDesc, direction, count);
#else
		if (pbPrevExecutorRun)
			pbPrevExecutorRun(queryDesc, direction, count, execute_once);
		else
			standard_ExecutorRun(queryDesc, direction, count, execute_once);
#endif
	}
	PG_FINALLY();
	{
		pbRunDepth--;
	}
	PG_END_TRY();
	PbRunBoundary();
}

/*
 * ExecutorFinish hook: the same for the rest of a statement's work after its
 * run (AFTER triggers, and the rows of data-modifying WITH queries that the
 * run did not read to the end, e.g. for a SELECT INTO of PL/pgSQL)
 */
static void
PbExecutorFinish(QueryDesc *queryDesc)
{
	PbRunBoundary();
	pbRunDepth++;
	PG_TRY();
	{
		if (pbPrevExecutorFinish)
			pbPrevExecutorFinish(queryDesc);
		else
			standard_ExecutorFinish(queryDesc);
	}
	PG_FINALLY();
	{
		pbRunDepth--;
	}
	PG_END_TRY();
	PbRunBoundary();
}

/*
 * ProcessUtility hook: the same for a utility statement (COPY FROM inserts
 * outside the executor)
 */
static void
PbProcessUtility(PlannedStmt *pstmt, const char *queryString, bool readOnlyTree,
				 ProcessUtilityContext context, ParamListInfo params,
				 QueryEnvironment *queryEnv, DestReceiver *dest, QueryCompletion *qc)
{
	PbRunBoundary();
	pbRunDepth++;
	PG_TRY();
	{
		if (pbPrevProcessUtility)
			pbPrevProcessUtility(pstmt, queryString, readOnlyTree, context,
								 params, queryEnv, dest, qc);
		else
			standard_ProcessUtility(pstmt, queryString, readOnlyTree, context,
									params, queryEnv, dest, qc);
	}
	PG_FINALLY();
	{
		pbRunDepth--;
	}
	PG_END_TRY();
	PbRunBoundary();
}

/* Register the transaction callbacks and the statement hooks (from _PG_init) */
void
PbInsertInit(void)
{
	RegisterXactCallback(PbXactCallback, NULL);
	RegisterSubXactCallback(PbSubXactCallback, NULL);
	pbPrevExecutorRun = ExecutorRun_hook;
	ExecutorRun_hook = PbExecutorRun;
	pbPrevExecutorFinish = ExecutorFinish_hook;
	ExecutorFinish_hook = PbExecutorFinish;
	pbPrevProcessUtility = ProcessUtility_hook;
	ProcessUtility_hook = PbProcessUtility;

	/*
	 * loaded in the middle of a client's statement in a regular backend (not
	 * a logical replication worker's apply, not a parallel worker, not the
	 * commit's own work, where no portal runs: another extension's pre-commit
	 * callback, called after ours would have been): its rows wait too, until
	 * the next statement call, scan or the transaction's end
	 */
	pbUnwrapped = IsTransactionState() && MyBackendType == B_BACKEND &&
		ActivePortal != NULL && ActivePortal->status == PORTAL_ACTIVE;
}

/* aminsert: set the keys of one heap tuple in its range's signature, or list them */
bool
pbinsert(Relation index, Datum *values, bool *isnull,
		 ItemPointer ht_ctid, Relation heapRel,
		 IndexUniqueCheck checkUnique, bool indexUnchanged,
		 IndexInfo *indexInfo)
{
	PageBloomState *state = PbGetState(index);
	const PageBloomMetaPageData *meta;
	uint32		range,
				segment;
	uint64		hashes[INDEX_MAX_KEYS];

	PbHashTuple(state, values, isnull, hashes);
	/* hashing may have processed an invalidation that freed the state */
	state = PbGetState(index);
	meta = &state->meta;
	range = ItemPointerGetBlockNumber(ht_ctid) / meta->pagesPerRange;
	segment = range / PbRangesPerSegment(meta);
	PbEnsureRange(index, state, range);

	if ((pbRunDepth > 0 || pbUnwrapped) && indexInfo->ii_ExclusionOps == NULL &&
		!indexInfo->ii_Concurrent && !IsParallelWorker() && !pbCommitting)
	{
		PbPendingIndex *p = pbPendingRows > 0 ? PbPendingList(index, state->natts, false) : NULL;

		/*
		 * at once: the index's first row after a flush point, if none of its
		 * rows waits (a row must not be set before an older one: a later
		 * row map entry for a slot wins); its list is made by its second row
		 */
		if ((p == NULL || p->nrows == 0) && state->insertGeneration != pbGeneration)
			state->insertGeneration = pbGeneration;
		else
		{
			if (p == NULL)
				p = PbPendingList(index, state->natts, true);
			if (p->nrows == 0)
			{
				p->spc = index->rd_rel->reltablespace;
				p->rfn = index->rd_rel->relfilenode;
			}
			else if (p->spc != index->rd_rel->reltablespace ||
					 p->rfn != index->rd_rel->relfilenode)
				PbFlushListOpen(p); /* fails: see the design note */
			if (p->nrows >= PB_PENDING_ROWS)
				PbFlushList(index, p);
			PbPendingGrow(p);
			p->tids[p->nrows] = *ht_ctid;
			p->subids[p->nrows] = GetCurrentSubTransactionId();
			memcpy(p->hashes + (Size) p->nrows * p->natts, hashes, sizeof(uint64) * p->natts);
			p->nrows++;
			pbPendingRows++;
			if (p->nrows == PB_PENDING_ROWS)
				PbFlushList(index, p);
			else if (pbPendingRows >= PB_PENDING_ALL)
				PbFlushPending();
			return false;
		}
	}

	PbLockSegment(index, segment, PB_SEGLOCK_INSERT);
	PbSetKeys(index, state, segment, range % PbRangesPerSegment(meta),
			  hashes, state->natts, ht_ctid);
	PbUnlockSegment(index, segment, PB_SEGLOCK_INSERT);
	return false;
}
