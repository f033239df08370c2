/*
 * pagebloominsert.c
 *		Inserting into a pagebloom index: aminsert.
 *
 * Design.  A new heap tuple sets its keys in the signature of its range at
 * once, before the inserting transaction can commit, so a scan whose snapshot
 * sees the tuple also sees its bits: no false negative, no pending list.  The
 * range's segment is created first if the table grew past the index
 * (PbEnsureRange, under the relation extension lock).  Then one page per
 * column key is updated, pages locked in block order, up to four per generic
 * WAL record (PbSetKeys); a page that already has all the bits is only read.
 * Bits only ever go from 0 to 1 here, so concurrent inserters cannot undo
 * each other.  With a row map, the tuple's fingerprints go into the row map
 * page of each column in the same pass (PbSetKeys).  The insert holds its
 * segment's lock in shared mode, which only a re-summarization of that
 * segment waits for (pagebloomvacuum.c).  HOT updates do not call aminsert:
 * the new version is on the same page (same range) with the same indexed
 * values.
 */
#include "pagebloom.h"

#include "miscadmin.h"
#include "storage/lmgr.h"
#include "nodes/execnodes.h"

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
	PbLockSegment(index, segment, PB_SEGLOCK_INSERT);
	PbSetKeys(index, state, segment, range % PbRangesPerSegment(meta),
			  hashes, state->natts, ht_ctid);
	PbUnlockSegment(index, segment, PB_SEGLOCK_INSERT);
	return false;
}
