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
 * (or pagebloom_verify, pagebloom_info, pagebloom_resummarize open it), when
 * a subtransaction begins (its rollback could undo the storage they would go
 * to, or the rebuild that dropped them), before a parallel query starts (its
 * workers' scans, also inside functions, cannot see this backend's lists),
 * and before the transaction commits or prepares.  A batch changes each page once
 * however many keys it gets: the row map page of a range takes the entries of
 * all its new rows in one locked write, a slice page the bits of several
 * keys.  Set row by row, an insert locked and logged one page per column and
 * key kind (twelve for six columns), and that was most of its time.
 *
 * Nothing else sees those rows earlier.  Other snapshots see them only after
 * the commit; a standby only after replaying the commit record, which follows
 * the keys' WAL.  A crash or an abort takes the rows with it, and a
 * subtransaction's abort drops its rows from the lists.  Some inserts set
 * their keys at once: into an index with an exclusion constraint (its check
 * looks for conflicting rows of transactions in progress, with a dirty
 * snapshot); the validation of CREATE INDEX CONCURRENTLY (it inserts rows of
 * other transactions, already committed); in a parallel worker; and after
 * this transaction's lists were set for its commit (another extension's
 * pre-commit work).  The range's segment is created at once (PbEnsureRange),
 * so that an index that cannot grow fails the INSERT, not the COMMIT.
 *
 * The index's storage may change under a list within the transaction; the
 * list follows the storage its rows came to (PbPendingTarget).  A copy (SET
 * TABLESPACE of the index or of its table) keeps pages and TIDs: the list goes
 * to the index's new storage.  A swap of storage between two tables and their
 * indexes (pg_repack's last step) sends it to the index that has its storage
 * now.  A rebuild (REINDEX, TRUNCATE, CLUSTER, VACUUM FULL, a table rewrite;
 * also a truncation in place) calls pbbuild, which reads every row of the
 * table, this transaction's too, and drops the index's list
 * (PbForgetPending).  A dropped index's list is dropped at the commit.
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
#include "executor/executor.h"
#include "miscadmin.h"
#include "nodes/execnodes.h"
#include "storage/bufmgr.h"
#include "storage/lmgr.h"
#include "utils/hsearch.h"
#include "utils/memutils.h"
#include "utils/rel.h"

/* Rows of an index's list: a batch */
#define PB_PENDING_ROWS		1024

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
 * them, and whether they were set for the commit (later inserts set their
 * keys at once)
 */
static HTAB *pbPending = NULL;
static int64 pbPendingRows = 0;
static bool pbCommitting = false;

static ExecutorStart_hook_type pbPrevExecutorStart = NULL;

static void PbFlushList(Relation index, PbPendingIndex *p);

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
 * The index that has the storage list p's rows came to, opened, or NULL if
 * none (the list is dropped).  Usually the list's own index.  After a copy of
 * it (SET TABLESPACE) no relation has the old storage: its own index, with
 * the same pages and TIDs in new storage.  After a swap of storage between
 * two indexes and their tables in this transaction (as pg_repack's last step
 * does, with rows inserted before it), the other index.  A rebuild dropped
 * the list (PbForgetPending), and a dropped index takes nothing.
 */
static Relation
PbPendingTarget(PbPendingIndex *p)
{
	Oid			owner = BfRelidByRelfilenode(p->spc, p->rfn);
	Relation	index;

	index = try_relation_open(OidIsValid(owner) ? owner : p->indexoid, RowExclusiveLock);
	if (index == NULL)
		return NULL;
	if (index->rd_rel->relkind != RELKIND_INDEX || index->rd_indam->ambuild != pbbuild ||
		IndexRelationGetNumberOfKeyAttributes(index) != p->natts)
	{
		if (OidIsValid(owner))
			elog(ERROR, "storage %u of pagebloom index %u belongs to relation \"%s\", not a pagebloom index like it",
				 p->rfn, p->indexoid, RelationGetRelationName(index));
		relation_close(index, RowExclusiveLock);
		return NULL;
	}
	return index;
}

/* Set the keys of list p in the index that has its storage (PbPendingTarget) */
static void
PbFlushListAnywhere(PbPendingIndex *p)
{
	Relation	index = PbPendingTarget(p);

	if (index == NULL)
	{
		pbPendingRows -= p->nrows;
		p->nrows = 0;
		return;
	}
	PbFlushList(index, p);
	relation_close(index, RowExclusiveLock);
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
	BlockNumber heapblocks;
	int			left = 0;
	int			i;

	Assert(p->natts == state->natts);
	if (p->nrows == 0)
		return;

	/* the rows whose TIDs still hold our tuples */
	heap = table_open(index->rd_index->indrelid, AccessShareLock);
	heapblocks = RelationGetNumberOfBlocks(heap);
	keep = palloc(sizeof(bool) * p->nrows);
	for (i = 0; i < p->nrows; i++)
	{
		BlockNumber blk = ItemPointerGetBlockNumber(&p->tids[i]);

		if (blk >= heapblocks)
		{
			/* not ours any more (the table was truncated) */
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
	if (p->spc == index->rd_rel->reltablespace && p->rfn == index->rd_rel->relfilenode)
		PbFlushList(index, p);
	else
	{
		/* copied or swapped since: where the rows' storage is now */
		PbFlushListAnywhere(p);
		p->spc = index->rd_rel->reltablespace;
		p->rfn = index->rd_rel->relfilenode;
	}
}

/*
 * Drop the rows waiting for index: it is being built from its table, which
 * has them (pbbuild)
 */
void
PbForgetPending(Relation index)
{
	PbPendingIndex *p;

	if (pbPendingRows == 0)
		return;
	p = PbPendingList(index, 0, false);
	if (p == NULL)
		return;
	pbPendingRows -= p->nrows;
	p->nrows = 0;
}

/*
 * Set the keys of every waiting row: before a commit or a prepare, a
 * subtransaction (whose rollback could undo the storage they would go to,
 * or the build that dropped them), and a parallel query (whose workers'
 * scans cannot see this backend's lists).  An index dropped by this
 * transaction takes nothing.
 */
static void
PbFlushAllPending(void)
{
	HASH_SEQ_STATUS seq;
	PbPendingIndex *p;

	if (pbPending == NULL || pbPendingRows == 0)
		return;
	hash_seq_init(&seq, pbPending);
	while ((p = hash_seq_search(&seq)) != NULL)
		if (p->nrows > 0)
			PbFlushListAnywhere(p);
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
			PbFlushAllPending();
			pbCommitting = true;
			break;
		case XACT_EVENT_COMMIT:
		case XACT_EVENT_PARALLEL_COMMIT:
		case XACT_EVENT_ABORT:
		case XACT_EVENT_PARALLEL_ABORT:
		case XACT_EVENT_PREPARE:
			/* the lists were in TopTransactionContext */
			Assert(pbPendingRows == 0 || event == XACT_EVENT_ABORT ||
				   event == XACT_EVENT_PARALLEL_ABORT);
			pbPending = NULL;
			pbPendingRows = 0;
			pbCommitting = false;
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

	if (event == SUBXACT_EVENT_START_SUB)
	{
		PbFlushAllPending();
		return;
	}
	if (event != SUBXACT_EVENT_ABORT_SUB || pbPending == NULL)
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

/* A parallel query's workers find this transaction's rows in the index */
static void
PbExecutorStart(QueryDesc *queryDesc, int eflags)
{
	if (pbPendingRows > 0 && queryDesc->plannedstmt->parallelModeNeeded &&
		!(eflags & EXEC_FLAG_EXPLAIN_ONLY))
		PbFlushAllPending();
	if (pbPrevExecutorStart)
		pbPrevExecutorStart(queryDesc, eflags);
	else
		standard_ExecutorStart(queryDesc, eflags);
}

/* Register the transaction callbacks and the executor hook (from _PG_init) */
void
PbInsertInit(void)
{
	RegisterXactCallback(PbXactCallback, NULL);
	RegisterSubXactCallback(PbSubXactCallback, NULL);
	pbPrevExecutorStart = ExecutorStart_hook;
	ExecutorStart_hook = PbExecutorStart;
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

	if (indexInfo->ii_ExclusionOps == NULL && !indexInfo->ii_Concurrent &&
		!IsParallelWorker() && !pbCommitting)
	{
		PbPendingIndex *p = PbPendingList(index, state->natts, true);

		if (p->spc != index->rd_rel->reltablespace || p->rfn != index->rd_rel->relfilenode)
		{
			/* copied or swapped since the list began: set its rows first */
			if (p->nrows > 0)
				PbFlushListAnywhere(p);
			p->spc = index->rd_rel->reltablespace;
			p->rfn = index->rd_rel->relfilenode;
		}
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
		return false;
	}

	PbLockSegment(index, segment, PB_SEGLOCK_INSERT);
	PbSetKeys(index, state, segment, range % PbRangesPerSegment(meta),
			  hashes, state->natts, ht_ctid);
	PbUnlockSegment(index, segment, PB_SEGLOCK_INSERT);
	return false;
}
