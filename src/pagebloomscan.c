/*
 * pagebloomscan.c
 *		Scanning a pagebloom index: ambeginscan, amrescan, amgetbitmap,
 *		amgettuple, amendscan.
 *
 * Design.  amrescan turns the scan keys into per-key lists of hashes: one
 * for "col = v", one per non-null element for
 * "col = ANY(array)" (the whole array in one pass), the column's null key for
 * "col IS NULL"; "col IS NOT NULL" filters nothing and "col = NULL" matches
 * nothing.  Each value is hashed with a hasher for its own type (the
 * operator's right-hand type or the array's element type), which the
 * canonical hashing makes agree with the column's type under cross-type
 * equality.
 *
 * amgetbitmap walks the segments the metapage's extent names (the rows a
 * scan's snapshot sees are all below it: their inserts raised it first).
 * For each segment it keeps a 1024-bit candidate set of ranges, starting
 * full; each key ANDs into it the OR over its values of the AND of the
 * value's k rows in the value's slice page.  A segment whose candidates
 * are all gone stops reading pages.  With a row map, each surviving range's
 * row map page of the first key's column (the key with the fewest values)
 * is read and the rows whose fingerprint matches one of that key's values
 * that passed the range go into the bitmap as exact TIDs (PbAddRangeRows),
 * filtered by the other keys' row maps when many rows match; without one,
 * every heap page of every surviving range goes in as a lossy page.  Either way the executor rechecks the rows.  Pages are
 * read one at a time under a share lock (PbLockPage); each page is either
 * before or after any concurrent change (both are supersets of the tuples
 * the scan may see), and a slice page beyond the end of the index or never
 * initialized has no bits.  A candidate range's heap pages stop at the
 * heap's end, which the scan learns without a system call unless the range
 * reaches past the size this backend last saw (PbScanStart, PbRangeInHeap).
 *
 * amgettuple (index scans) walks the same candidates one range at a time
 * (PbNextRange) and returns the range's exact TIDs, then every line pointer
 * of its lossy pages (the heap follows each HOT chain from its root and
 * skips heap-only tuples and unused line pointers given as a start), all to
 * be rechecked.  Both paths put rows through a PbSink: the bitmap, or the
 * current range's TIDs and pages.  Ranges are disjoint and a range yields a
 * slot once, so an index scan never returns a row twice.  Pages are not kept
 * pinned between calls: under an MVCC snapshot a TID whose row VACUUM
 * removes meanwhile, and whose line pointer a new row reuses, shows the new
 * row, which the snapshot cannot see (as nbtree argues for dropping pins).
 */
#include "pagebloom.h"

#include "access/htup_details.h"
#include "access/relscan.h"
#include "access/table.h"
#include "catalog/index.h"
#include "catalog/pg_index.h"
#include "miscadmin.h"
#include "nodes/tidbitmap.h"
#include "pgstat.h"
#include "utils/array.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"

typedef struct PbScanKey
{
	int			attno;			/* 0-based index column */
	int			nhashes;
	uint64	   *hashes;
	uint32	   *blocks;			/* signature block of each hash */
	uint16	   *rows;			/* PB_MAX_K rows of each hash */
	uint8	   *nrows;			/* rows of each hash */
	uint16	   *fps;			/* row map fingerprint of each hash */
} PbScanKey;

typedef struct PbHasherEntry
{
	Oid			typid;
	Oid			collation;
	BfHasher	hasher;
} PbHasherEntry;

/*
 * Where the rows of candidate ranges go: a bitmap scan's TIDBitmap, or, for
 * an index scan (amgettuple), the output of one range at a time: exact TIDs,
 * whole heap pages (rows past the row map's slots), and a whole range
 * [first, end) where there is no row map.
 */
typedef struct PbSink
{
	TIDBitmap  *tbm;			/* bitmap scan, or NULL */
	ItemPointerData *tids;		/* PB_MAP_SLOTS */
	int			ntids;
	BlockNumber *pages;			/* PB_MAP_SLOTS */
	int			npages;
	BlockNumber first;
	BlockNumber end;
} PbSink;

typedef struct PbScanOpaqueData
{
	MemoryContext scancxt;		/* everything of the scan; deleted at its end */
	MemoryContext keycxt;		/* reset at every rescan */
	int			nkeys;			/* restrictive keys */
	PbScanKey  *keys;
	bool		nomatch;		/* a key can never be true */
	int			nhashers;
	PbHasherEntry hashers[2 * INDEX_MAX_KEYS];

	/* set by PbScanStart, after each rescan; scratch space in keycxt */
	bool		started;
	BlockNumber heapBlocks;
	bool		heapExact;		/* heapBlocks is the heap's size, not a hint */
	BlockNumber indexBlocks;
	uint64		nranges;
	uint64		nsegs;
	uint32		rps;			/* ranges per segment */
	uint64	   *hcand;			/* a segment's candidates of each first-key
								 * value (rowWords words each) */
	uint64		segCand[PB_MAX_ROW_WORDS];	/* the segment's candidate ranges */
	uint32	   *fpsCount;		/* first-key values that passed each of them */
	uint16	   *fps;			/* those values' fingerprints for candidate
								 * ranges fpsFrom .. fpsEnd - 1, range by
								 * range ... */
	uint32	   *fpsStart;		/* ... fpsCount[r] of them from fpsStart[r]
								 * for range bit r */
	uint32		fpsFrom;
	uint32		fpsEnd;
	uint32		fpsSize;		/* allocated entries of fps */
	uint64	   *fpset;			/* 65536 bits, for many fingerprints */

	/* amgettuple: the next candidate range, and the current range's output */
	uint64		seg;			/* segment of cand */
	uint64		cand[PB_MAX_ROW_WORDS]; /* its candidates not yet output */
	bool		segLoaded;		/* cand holds seg's candidates */
	PbSink		sink;
	int			nextTid;		/* in sink.tids */
	int			nextPage;		/* in sink.pages */
	BlockNumber wholePage;		/* page of whole pages being output */
	OffsetNumber wholeOff;		/* last offset output of wholePage */
	OffsetNumber wholeMax;		/* its line pointers */
	bool		inWhole;		/* outputting wholePage */
} PbScanOpaqueData;

typedef PbScanOpaqueData *PbScanOpaque;

/* ambeginscan */
IndexScanDesc
pbbeginscan(Relation r, int nkeys, int norderbys)
{
	IndexScanDesc scan = RelationGetIndexScan(r, nkeys, norderbys);
	MemoryContext scancxt;
	PbScanOpaque so;

	/* the rows this transaction inserted have their keys before it reads */
	PbFlushPending();

	/*
	 * The scan's memory (hashers, the index scan's range buffers) goes in a
	 * context of its own, freed by amendscan: an exclusion constraint check
	 * begins and ends a scan for every row a statement writes
	 */
	scancxt = AllocSetContextCreate(CurrentMemoryContext, "pagebloom scan",
									ALLOCSET_SMALL_SIZES);
	so = (PbScanOpaque) MemoryContextAllocZero(scancxt, sizeof(PbScanOpaqueData));
	so->scancxt = scancxt;
	so->keycxt = AllocSetContextCreate(scancxt, "pagebloom scan keys",
									   ALLOCSET_SMALL_SIZES);
	scan->opaque = so;
	return scan;
}

/* A hasher for values of a type under a collation, cached for the scan */
static BfHasher *
PbScanHasher(PbScanOpaque so, Oid typid, Oid collation)
{
	int			i;
	PbHasherEntry *e;

	for (i = 0; i < so->nhashers; i++)
		if (so->hashers[i].typid == typid && so->hashers[i].collation == collation)
			return &so->hashers[i].hasher;
	if (so->nhashers == lengthof(so->hashers))
		so->nhashers = 0;		/* cannot happen with sane keys; recycle */
	e = &so->hashers[so->nhashers++];
	e->typid = typid;
	e->collation = collation;
	BfHasherInit(&e->hasher, typid, collation, so->scancxt);
	return &e->hasher;
}

/* qsort comparator: keys with fewer values first */
static int
PbScanKeyCmp(const void *a, const void *b)
{
	int			x = ((const PbScanKey *) a)->nhashes;
	int			y = ((const PbScanKey *) b)->nhashes;

	return (x > y) - (x < y);
}

/*
 * Put a key's values in the order of their signature blocks (a counting
 * sort over the segment's nblocks slice pages), so that a segment's values
 * on one slice page are read under one lock: an = ANY list of 100k values
 * read a page per value and segment.
 */
static void
PbSortKeyByBlock(PbScanKey *key, uint32 nblocks)
{
	int			n = key->nhashes;
	uint32	   *start = palloc0(sizeof(uint32) * (nblocks + 1));
	uint64	   *hashes = palloc(sizeof(uint64) * n);
	uint32	   *blocks = palloc(sizeof(uint32) * n);
	uint16	   *rows = palloc(sizeof(uint16) * PB_MAX_K * n);
	uint8	   *nrows = palloc(sizeof(uint8) * n);
	uint16	   *fps = palloc(sizeof(uint16) * n);
	uint32		b;
	int			j;

	for (j = 0; j < n; j++)
		start[key->blocks[j] + 1]++;
	for (b = 0; b < nblocks; b++)
		start[b + 1] += start[b];
	for (j = 0; j < n; j++)
	{
		uint32		to = start[key->blocks[j]]++;

		hashes[to] = key->hashes[j];
		blocks[to] = key->blocks[j];
		memcpy(rows + to * PB_MAX_K, key->rows + j * PB_MAX_K, sizeof(uint16) * PB_MAX_K);
		nrows[to] = key->nrows[j];
		fps[to] = key->fps[j];
	}
	pfree(key->hashes);
	pfree(key->blocks);
	pfree(key->rows);
	pfree(key->nrows);
	pfree(key->fps);
	pfree(start);
	key->hashes = hashes;
	key->blocks = blocks;
	key->rows = rows;
	key->nrows = nrows;
	key->fps = fps;
}

/* amrescan: hash the scan keys */
void
pbrescan(IndexScanDesc scan, ScanKey scankey, int nscankeys,
		 ScanKey orderbys, int norderbys)
{
	PbScanOpaque so = (PbScanOpaque) scan->opaque;
	Relation	index = scan->indexRelation;
	PageBloomState *state = PbGetState(index);
	uint64		seed = state->meta.seed;
	MemoryContext oldcxt;
	int			i;

	if (scankey && scan->numberOfKeys > 0)
		memmove(scan->keyData, scankey, scan->numberOfKeys * sizeof(ScanKeyData));

	MemoryContextReset(so->keycxt);
	so->nkeys = 0;
	so->nomatch = false;
	so->started = false;
	so->keys = MemoryContextAllocZero(so->keycxt,
									  sizeof(PbScanKey) * Max(scan->numberOfKeys, 1));

	for (i = 0; i < scan->numberOfKeys; i++)
	{
		ScanKey		sk = &scan->keyData[i];
		int			attno = sk->sk_attno - 1;
		PbScanKey  *key = &so->keys[so->nkeys];

		key->attno = attno;
		if (sk->sk_flags & SK_ISNULL)
		{
			if (sk->sk_flags & SK_SEARCHNULL)
			{
				key->nhashes = 1;
				key->hashes = MemoryContextAlloc(so->keycxt, sizeof(uint64));
				key->hashes[0] = PbNullHash(seed, attno);
				so->nkeys++;
			}
			else if (sk->sk_flags & SK_SEARCHNOTNULL)
				continue;		/* every range may have non-nulls */
			else
				so->nomatch = true; /* col = NULL */
		}
		else if (sk->sk_flags & SK_SEARCHARRAY)
		{
			ArrayType  *arr = DatumGetArrayTypeP(sk->sk_argument);
			Oid			elemtype = ARR_ELEMTYPE(arr);
			int16		elmlen;
			bool		elmbyval;
			char		elmalign;
			Datum	   *elems;
			bool	   *elemnulls;
			int			nelems;
			int			j;
			BfHasher   *h = PbScanHasher(so, elemtype, sk->sk_collation);

			get_typlenbyvalalign(elemtype, &elmlen, &elmbyval, &elmalign);
			oldcxt = MemoryContextSwitchTo(so->keycxt);
			deconstruct_array(arr, elemtype, elmlen, elmbyval, elmalign,
							  &elems, &elemnulls, &nelems);
			key->hashes = palloc(sizeof(uint64) * Max(nelems, 1));
			MemoryContextSwitchTo(oldcxt);
			key->nhashes = 0;
			for (j = 0; j < nelems; j++)
			{
				if (elemnulls[j])
					continue;	/* col = NULL is never true */
				key->hashes[key->nhashes++] = BfHashDatum(h, elems[j], seed + (uint64) attno);
			}
			if (key->nhashes == 0)
				so->nomatch = true;
			else
				so->nkeys++;
		}
		else
		{
			Oid			typid = OidIsValid(sk->sk_subtype) ? sk->sk_subtype :
				PbKeyType(index, attno);
			BfHasher   *h = PbScanHasher(so, typid, sk->sk_collation);

			key->nhashes = 1;
			key->hashes = MemoryContextAlloc(so->keycxt, sizeof(uint64));
			key->hashes[0] = BfHashDatum(h, sk->sk_argument, seed + (uint64) attno);
			so->nkeys++;
		}
	}
	if (so->nkeys > 1)
		qsort(so->keys, so->nkeys, sizeof(PbScanKey), PbScanKeyCmp);

	/* the catalog lookups above may have rebuilt the relcache entry */
	state = PbGetState(index);

	/* each hash's block and rows, the same in every segment */
	for (i = 0; i < so->nkeys; i++)
	{
		PbScanKey  *key = &so->keys[i];
		int			j;

		key->blocks = MemoryContextAlloc(so->keycxt, sizeof(uint32) * key->nhashes);
		key->rows = MemoryContextAlloc(so->keycxt, sizeof(uint16) * PB_MAX_K * key->nhashes);
		key->nrows = MemoryContextAlloc(so->keycxt, sizeof(uint8) * key->nhashes);
		key->fps = MemoryContextAlloc(so->keycxt, sizeof(uint16) * key->nhashes);
		for (j = 0; j < key->nhashes; j++)
		{
			key->fps[j] = PbRowFingerprint(key->hashes[j]);
			key->blocks[j] = PbKeyBlock(&state->meta, key->hashes[j]);
			key->nrows[j] = (uint8) PbKeyRows(&state->meta, key->attno, key->hashes[j],
											  key->rows + j * PB_MAX_K);
		}
		if (key->nhashes > 1)
		{
			oldcxt = MemoryContextSwitchTo(so->keycxt);
			PbSortKeyByBlock(key, state->meta.nblocks);
			MemoryContextSwitchTo(oldcxt);
		}
	}
}

/* Share-lock index page blkno; NULL, holding none, if past the end or new */
static Page
PbLockPage(Relation index, BlockNumber blkno, BlockNumber indexBlocks,
		   Buffer *buf)
{
	Page		page;

	*buf = InvalidBuffer;
	if (blkno >= indexBlocks)
		return NULL;
	*buf = PbReadIndexBuffer(index, blkno);
	LockBuffer(*buf, BUFFER_LOCK_SHARE);
	page = BufferGetPage(*buf);
	if (PageIsNew(page))
	{
		UnlockReleaseBuffer(*buf);
		*buf = InvalidBuffer;
		return NULL;
	}
	return page;
}

/* Output the heap pages of one range whole (lossy); returns how many */
static int64
PbAddRange(PbSink *sink, uint64 range, uint32 ppr, BlockNumber heapBlocks)
{
	uint64		first = range * ppr;
	uint64		last = Min(first + ppr, (uint64) heapBlocks);
	uint64		p;

	if (last <= first)
		return 0;
	if (sink->tbm == NULL)
	{
		sink->first = (BlockNumber) first;
		sink->end = (BlockNumber) last;
	}
	else
		for (p = first; p < last; p++)
			tbm_add_page(sink->tbm, (BlockNumber) p);
	return (int64) (last - first);
}

/* fingerprints compared against the high bytes; more go through a bitmap */
#define PB_VEC_MAX_FPS		8
/* first-key matches in a range from which the other keys' row maps filter */
#define PB_MAP_FILTER_MIN_ROWS	3

/*
 * Of the n slots in out (of the row map page whose high bytes are hi) whose
 * high byte matches one of the fingerprints fps (never 0), keep, in order,
 * those whose whole fingerprint matches; returns how many.  A second pass
 * over the low bytes rather than a test beside each high-byte match: the low
 * bytes lie 4 kB away, a cache miss each on a cold page, and loads that do
 * not wait for each other's results overlap (issue 13: the misses taken one
 * after another were the largest part of a 10M-row probe).
 */
static inline int
PbMapKeepLow(const uint8 *hi, uint32 *out, int n, const uint16 *fps, int nfps)
{
	int			i;
	int			j;
	int			k = 0;

	for (i = 0; i < n; i++)
	{
		uint32		slot = out[i];
		uint16		v = PbMapSlot(hi, slot);
		bool		keep = false;

		for (j = 0; j < nfps; j++)
			keep |= (v == fps[j]);
		out[k] = slot;
		k += keep ? 1 : 0;
	}
	return k;
}

/*
 * Append to out, in order, the slots base + b (within [start, end)) of the
 * bytes b that are all ones in m, eight compare-result bytes in memory order;
 * returns the new count.
 */
static inline int
PbMapAddByteHits(uint64 m, uint32 base, uint32 start, uint32 end,
				 uint32 *out, int n)
{
	while (m != 0)
	{
#ifdef WORDS_BIGENDIAN
		int			pos = pg_leftmost_one_pos64(m) & ~7;
		uint32		i = base + (uint32) (7 - pos / 8);
#else
		int			pos = pg_rightmost_one_pos64(m) & ~7;
		uint32		i = base + (uint32) (pos / 8);
#endif

		if (i >= start && i < end)
			out[n++] = i;
		m &= ~(UINT64CONST(0xFF) << pos);
	}
	return n;
}

/*
 * The slots in [start, end) of a row map page (its bytes: hi, PbMapGetHi)
 * that hold one of the fingerprints fps, into out (ascending); returns how
 * many.  The high bytes are compared first, the low bytes of the slots
 * where one matches in a second pass (PbMapKeepLow): up to PB_VEC_MAX_FPS
 * fingerprints sixteen slots per compare and fingerprint (GCC vector
 * extension; a byte at a time without it); more (a long = ANY list) are
 * looked up in set, a bitmap of all 65536 values (the scan's, all clear
 * before and after).
 */
static int
PbMapMatches(const uint8 *hi, uint32 start, uint32 end,
			 const uint16 *fps, int nfps, uint64 *set, uint32 *out)
{
	uint32		i;
	int			n = 0;
	int			j;

	if (nfps <= 0)
		return 0;
	if (nfps > PB_VEC_MAX_FPS)
	{
		/* set: 65536 bits, all clear, and left clear */
		for (j = 0; j < nfps; j++)
			set[fps[j] / 64] |= UINT64CONST(1) << (fps[j] % 64);
		for (i = start; i < end; i++)
		{
			uint16		v = PbMapSlot(hi, i);

			if (v != 0 && (set[v / 64] & (UINT64CONST(1) << (v % 64))))
				out[n++] = i;
		}
		for (j = 0; j < nfps; j++)
			set[fps[j] / 64] = 0;
		return n;
	}

#if (defined(__GNUC__) || defined(__clang__)) && !defined(PB_NO_VECTOR_EXT)
	{
		/*
		 * sixteen high bytes per compare (GCC vector extension), one compare
		 * per fingerprint; the matching bytes of a flagged vector are found
		 * from its compare result, not compared again.  Unaligned loads
		 * (aligned(1)): a temporary table's page is MAXALIGNed only.
		 */
		typedef uint8 PbVec8 __attribute__((vector_size(16), aligned(1)));
		const PbVec8 *vecs = (const PbVec8 *) hi;
		PbVec8		hv[PB_VEC_MAX_FPS];
		uint32		v;

		for (j = 0; j < nfps; j++)
		{
			uint8		h = (uint8) (fps[j] >> 8);

			hv[j] = (PbVec8) {h, h, h, h, h, h, h, h, h, h, h, h, h, h, h, h};
		}
		for (v = start / 16; v < (end + 15) / 16; v++)
		{
			PbVec8		x = vecs[v];
			PbVec8		eq = (PbVec8) (x == hv[0]);
			uint64		a,
						b;

			for (j = 1; j < nfps; j++)
				eq |= (PbVec8) (x == hv[j]);
			memcpy(&a, &eq, sizeof(a));
			memcpy(&b, (char *) &eq + sizeof(a), sizeof(b));
			if ((a | b) == 0)
				continue;
			n = PbMapAddByteHits(a, v * 16, start, end, out, n);
			n = PbMapAddByteHits(b, v * 16 + 8, start, end, out, n);
		}
	}
#else
	/*
	 * without vector support: one high byte at a time (also built with
	 * PB_NO_VECTOR_EXT, which make test-matrix tests: NOVEC=1)
	 */
	for (i = start; i < end; i++)
		for (j = 0; j < nfps; j++)
			if (hi[i] == (uint8) (fps[j] >> 8))
			{
				out[n++] = i;
				break;
			}
#endif
	return PbMapKeepLow(hi, out, n, fps, nfps);
}

/*
 * Add the rows of one candidate range that the row map says may hold one of
 * the fingerprints fps (of the first key's column) and, when several do, the
 * other keys' values too: exact TIDs, to be rechecked; heap pages with rows
 * past the row map's slots, and a range whose row map page is missing (never
 * in practice), go in whole as lossy pages.  Returns the number of TIDs added
 * (ten per lossy page).
 */
static int64
PbAddRangeRows(Relation index, const PageBloomMetaPageData *meta, PbSink *sink,
			   BlockNumber indexBlocks, uint32 segment, uint32 rangebit,
			   uint64 range, BlockNumber heapBlocks, PbScanOpaque so,
			   const uint16 *fps, int nfps, uint64 *set)
{
	BlockNumber blkno = PbMapBlkno(meta, segment, rangebit, so->keys[0].attno);
	uint64		first = range * meta->pagesPerRange;
	uint64		last = Min(first + meta->pagesPerRange, (uint64) heapBlocks);
	uint32		nslots = meta->rowSlots;
	uint32		hfirst = PbMapHeapIndex(meta, (BlockNumber) first);
	const uint64 *overflow;
	uint32		match[PB_MAP_SLOTS];
	ItemPointerData tids[PB_MAP_SLOTS];
	ItemPointerData *out;
	int			nmatch;
	int64		ntids = 0;
	uint64		p;
	int			i;
	int			k;
	Buffer		buf;
	Page		page;

	if (last <= first)
		return 0;
	page = PbLockPage(index, blkno, indexBlocks, &buf);
	if (page == NULL)
		return PbAddRange(sink, range, meta->pagesPerRange, heapBlocks) * 10;
	overflow = PbMapGetOverflow(page);
	/* the range's heap pages have consecutive slots */
	nmatch = PbMapMatches(PbMapGetHi(page), hfirst * nslots,
						  (hfirst + (uint32) (last - first)) * nslots, fps, nfps, set, match);
	/* rows of lossy heap pages are added whole, below */
	for (i = 0, k = 0; i < nmatch; i++)
	{
		uint32		hidx = match[i] / nslots;

		if (!(overflow[hidx / 64] & (UINT64CONST(1) << (hidx % 64))))
			match[k++] = match[i];
	}
	nmatch = k;
	for (p = first; p < last; p++)
	{
		uint32		hidx = hfirst + (uint32) (p - first);

		if (overflow[hidx / 64] & (UINT64CONST(1) << (hidx % 64)))
		{
			if (sink->tbm)
				tbm_add_page(sink->tbm, (BlockNumber) p);
			else
				sink->pages[sink->npages++] = (BlockNumber) p;
			ntids += 10;
		}
	}
	UnlockReleaseBuffer(buf);

	/*
	 * Several rows match the first key: the other keys' row map pages (of a
	 * few values each) keep only the rows whose fingerprints match them too.
	 * All columns' slots of a row are written by its insert, before it can
	 * commit.
	 */
	for (k = 1; k < so->nkeys && nmatch >= PB_MAP_FILTER_MIN_ROWS; k++)
	{
		PbScanKey  *key = &so->keys[k];
		BlockNumber kblk = PbMapBlkno(meta, segment, rangebit, key->attno);
		int			kept = 0;
		const uint8 *hi;

		if (key->nhashes > PB_VEC_MAX_FPS)
			continue;
		page = PbLockPage(index, kblk, indexBlocks, &buf);
		if (page == NULL)
			continue;
		hi = PbMapGetHi(page);
		for (i = 0; i < nmatch; i++)
		{
			uint16		v = PbMapSlot(hi, match[i]);
			int			j;

			for (j = 0; j < key->nhashes; j++)
				if (v == key->fps[j])
				{
					match[kept++] = match[i];
					break;
				}
		}
		nmatch = kept;
		UnlockReleaseBuffer(buf);
	}

	/*
	 * An index scan's TIDs go straight into its sink, which has room for a
	 * range's (the range's slots, each matched once, are at most
	 * PB_MAP_SLOTS); a bitmap scan's are added from tids
	 */
	out = sink->tbm ? tids : sink->tids + sink->ntids;
	Assert(sink->tbm || sink->ntids + nmatch <= PB_MAP_SLOTS);
	for (i = 0; i < nmatch; i++)
	{
		uint32		hidx = match[i] / nslots;

		ItemPointerSet(&out[i], (BlockNumber) (first + (hidx - hfirst)),
					   (OffsetNumber) (match[i] % nslots + 1));
	}
	if (sink->tbm && nmatch > 0)
		tbm_add_tuples(sink->tbm, tids, nmatch, true);
	else if (!sink->tbm)
		sink->ntids += nmatch;
	return ntids + nmatch;
}

/*
 * Set up what the scan needs beyond its keys, once after each rescan: the
 * index's and the heap's sizes, and scratch space.
 *
 * Neither takes a system call.  The index's size is the metapage's extent
 * (PbReadExtent).  The heap's is this backend's last known size of its file
 * (smgr's cached size, kept by its own size lookups and extensions, dropped
 * when another backend truncates the file: never more than the file has), or
 * a lookup when there is none; a candidate range that reaches past it asks
 * the file then (PbRangeInHeap), since the heap may have grown and its new
 * rows are in the index.  A size lookup took 4 us of a 10 us probe on this
 * project's 2-core VMs, where a B-tree's probe makes none.
 */
static void
PbScanStart(IndexScanDesc scan)
{
	PbScanOpaque so = (PbScanOpaque) scan->opaque;
	Relation	index = scan->indexRelation;
	PageBloomState *state = PbGetState(index);
	const PageBloomMetaPageData *meta = &state->meta;
	Relation	heap;

	so->indexBlocks = PbReadExtent(index);
	state->knownBlocks = Max(state->knownBlocks, so->indexBlocks);
	/* segments with a page (the rows of any later range have none yet) */
	so->rps = PbRangesPerSegment(meta);
	so->nsegs = so->indexBlocks > 1 ? (so->indexBlocks - 2) / PbSegmentPages(meta) + 1 : 0;
	so->nranges = so->nsegs * so->rps;

	/* the scan's caller holds a lock on the heap */
	heap = table_open(index->rd_index->indrelid, NoLock);
	so->heapBlocks = RelationGetSmgr(heap)->smgr_cached_nblocks[MAIN_FORKNUM];
	so->heapExact = so->heapBlocks == InvalidBlockNumber;
	if (so->heapExact)
		so->heapBlocks = RelationGetNumberOfBlocks(heap);
	table_close(heap, NoLock);
	/* opening a relation may process invalidations, which free the state */
	PbDebugDiscardAt(index);
	meta = &PbGetState(index)->meta;

	so->hcand = NULL;
	so->fps = NULL;
	so->fpsStart = NULL;
	so->fpsCount = NULL;
	so->fpsSize = 0;
	so->fpsFrom = so->fpsEnd = 0;
	so->fpset = NULL;
	if (meta->rowSlots > 0 && so->nkeys > 0)
	{
		int			n = so->keys[0].nhashes;

		so->hcand = MemoryContextAlloc(so->keycxt, sizeof(uint64) * meta->rowWords * n);
		so->fpsStart = MemoryContextAlloc(so->keycxt, sizeof(uint32) * meta->rowWords * 64);
		so->fpsCount = MemoryContextAlloc(so->keycxt, sizeof(uint32) * meta->rowWords * 64);
		if (n > PB_VEC_MAX_FPS)
			so->fpset = MemoryContextAllocZero(so->keycxt, sizeof(uint64) * (65536 / 64));
	}
	so->segLoaded = false;
	so->seg = 0;
	so->started = true;
}

/*
 * Count, for each candidate range of a segment (cand), the first-key values
 * that passed it (so->hcand), for PbGatherRangeFps; nothing is gathered yet.
 */
static void
PbCountRangeFps(PbScanOpaque so, int rw, const uint64 *cand)
{
	uint32	   *count = so->fpsCount;
	uint64		x;
	int			j;
	int			w;

	for (w = 0; w < rw; w++)
	{
		so->segCand[w] = cand[w];
		for (x = cand[w]; x; x &= x - 1)
			count[w * 64 + pg_rightmost_one_pos64(x)] = 0;
	}
	for (j = 0; j < so->keys[0].nhashes; j++)
		for (w = 0; w < rw; w++)
			for (x = so->hcand[j * rw + w] & cand[w]; x; x &= x - 1)
				count[w * 64 + pg_rightmost_one_pos64(x)]++;
	so->fpsFrom = so->fpsEnd = 0;
}

/*
 * Gather the fingerprints of the first key's values that passed each
 * candidate range of the segment from range bit "from" on (a counting sort
 * by range) into so->fps, as many ranges as fit in work_mem (at least one),
 * so that a range's rows are matched against its own values: scanning every
 * value of the key for each range cost a list of a million values seconds.
 * A list of millions on a saturated index passes every range: the ranges
 * are then gathered in several rounds, each a pass over the values.
 */
static void
PbGatherRangeFps(PbScanOpaque so, int rw, uint32 from)
{
	PbScanKey  *key0 = &so->keys[0];
	uint32	   *start = so->fpsStart;
	const uint32 *count = so->fpsCount;
	uint64		limit = Min((uint64) work_mem * 1024, MaxAllocSize) / sizeof(uint16);
	uint64		chunk[PB_MAX_ROW_WORDS];
	uint64		total = 0;
	uint32		r;
	uint64		x;
	int			j;
	int			w;

	memset(chunk, 0, sizeof(chunk));
	for (r = from; r < (uint32) rw * 64; r++)
	{
		if (!(so->segCand[r / 64] & (UINT64CONST(1) << (r % 64))))
			continue;
		if (total > 0 && total + count[r] > limit)
			break;
		chunk[r / 64] |= UINT64CONST(1) << (r % 64);
		start[r] = (uint32) total;
		total += count[r];
	}
	so->fpsFrom = from;
	so->fpsEnd = r;
	if (total > so->fpsSize)
	{
		/* one range's values alone may pass work_mem: a key holds them all */
		uint32		size = (uint32) Min(Max(total, (uint64) so->fpsSize * 2),
										Max(total, limit));

		if (so->fps)
			pfree(so->fps);
		so->fps = MemoryContextAlloc(so->keycxt, sizeof(uint16) * size);
		so->fpsSize = size;
	}
	/* start[r] moves to the end of range r's values as they are filled in */
	for (j = 0; j < key0->nhashes; j++)
		for (w = 0; w < rw; w++)
			for (x = so->hcand[j * rw + w] & chunk[w]; x; x &= x - 1)
				so->fps[start[w * 64 + pg_rightmost_one_pos64(x)]++] = key0->fps[j];
	for (w = 0; w < rw; w++)
		for (x = chunk[w]; x; x &= x - 1)
		{
			r = w * 64 + pg_rightmost_one_pos64(x);
			start[r] -= count[r];
		}
}

/*
 * The candidate ranges of segment s (cand, PB_MAX_ROW_WORDS words): those
 * whose signatures may hold every key (all of them when there is no
 * restrictive key), and, with a row map, of each value of the first key
 * (so->hcand).  Returns whether there is any.
 */
static bool
PbSegmentCandidates(IndexScanDesc scan, uint64 s, uint64 *cand)
{
	PbScanOpaque so = (PbScanOpaque) scan->opaque;
	Relation	index = scan->indexRelation;
	const PageBloomMetaPageData *meta = &PbGetState(index)->meta;
	bool		rowmap = so->hcand != NULL;
	int			rw = (int) meta->rowWords;
	uint64		anycand = 0;
	int			i;
	int			w;

	for (w = 0; w < PB_MAX_ROW_WORDS; w++)
	{
		cand[w] = w < rw ? ~UINT64CONST(0) : 0;
		anycand |= cand[w];
	}
	for (i = 0; i < so->nkeys; i++)
	{
		PbScanKey  *key = &so->keys[i];
		uint64		acc[PB_MAX_ROW_WORDS];
		Buffer		buf = InvalidBuffer;
		BlockNumber locked = InvalidBlockNumber;
		Page		page = NULL;
		int			unchecked = 0;
		int			j;

		memset(acc, 0, sizeof(acc));
		for (j = 0; j < key->nhashes; j++)
		{
			BlockNumber blkno = PbSliceBlkno(meta, (uint32) s, key->blocks[j]);
			const uint16 *rows = key->rows + j * PB_MAX_K;
			int			nrows = key->nrows[j];
			const uint64 *words;

			if (rowmap && i == 0)
				memset(so->hcand + j * rw, 0, sizeof(uint64) * rw);
			/* the values are in block order: a page is locked once */
			if (blkno != locked)
			{
				if (BufferIsValid(buf))
					UnlockReleaseBuffer(buf);
				/* every 64 pages: a list of millions is a long read */
				if (++unchecked >= 64)
				{
					unchecked = 0;
					CHECK_FOR_INTERRUPTS();
				}
				page = PbLockPage(index, blkno, so->indexBlocks, &buf);
				locked = blkno;
			}
			if (page == NULL)
				continue;		/* no such page: no bits */
			words = PageBloomPageGetWords(page);
			for (w = 0; w < rw; w++)
			{
				uint64		x = cand[w];
				int			r;

				/*
				 * no early exit when x is 0: the k rows' loads (cache misses
				 * on a cold page) then overlap
				 */
				for (r = 0; r < nrows; r++)
					x &= words[rows[r] * rw + w];
				acc[w] |= x;
				if (rowmap && i == 0)
					so->hcand[j * rw + w] = x;
			}
		}
		if (BufferIsValid(buf))
			UnlockReleaseBuffer(buf);
		anycand = 0;
		for (w = 0; w < rw; w++)
		{
			cand[w] &= acc[w];
			anycand |= cand[w];
		}
		if (!anycand)
			return false;
	}
	if (rowmap && anycand)
		PbCountRangeFps(so, rw, cand);
	return anycand != 0;
}

/*
 * Whether range (a candidate) has heap pages.  A range that reaches past the
 * heap's size known at scan start (a hint: PbScanStart) first asks the
 * heap's file, once per scan: the rows the range's bits stand for may be on
 * pages added since, and a page past the end (a table that VACUUM truncated
 * keeps its bits) must not be output.  Opening the heap may process
 * invalidations, which free the index's cached state: callers get it again.
 */
static bool
PbRangeInHeap(IndexScanDesc scan, uint64 range)
{
	PbScanOpaque so = (PbScanOpaque) scan->opaque;
	Relation	index = scan->indexRelation;
	uint64		ppr = PbGetState(index)->meta.pagesPerRange;

	if (range >= so->nranges)
		return false;
	if (!so->heapExact && (range + 1) * ppr > so->heapBlocks)
	{
		Relation	heap = table_open(index->rd_index->indrelid, NoLock);

		so->heapBlocks = RelationGetNumberOfBlocks(heap);
		so->heapExact = true;
		table_close(heap, NoLock);
		PbDebugDiscardAt(index);
	}
	return range * ppr < so->heapBlocks;
}

/*
 * Whether segment s may have candidate ranges with heap pages: not when it
 * begins past the heap's end (known exactly)
 */
static bool
PbSegmentInHeap(PbScanOpaque so, uint64 s, uint32 ppr)
{
	return s < so->nsegs &&
		!(so->heapExact && s * so->rps * ppr >= so->heapBlocks);
}

/*
 * Output the rows of candidate range rangebit of segment s to sink: with a
 * row map, those whose fingerprint matches a value of the first key that
 * passed the range (PbAddRangeRows); without, its heap pages whole.  Returns
 * the rows output (ten per whole page).
 */
static int64
PbRangeOutput(IndexScanDesc scan, uint64 s, uint32 rangebit, PbSink *sink)
{
	PbScanOpaque so = (PbScanOpaque) scan->opaque;
	Relation	index = scan->indexRelation;
	const PageBloomMetaPageData *meta = &PbGetState(index)->meta;
	uint64		range = s * so->rps + rangebit;
	const uint16 *fps;
	int			nfps;

	/* a range's work grows with the keys: an = ANY list of millions */
	CHECK_FOR_INTERRUPTS();
	if (so->hcand == NULL)
		return PbAddRange(sink, range, meta->pagesPerRange, so->heapBlocks) * 10;
	/* candidate ranges are output in order: gather the next ones' values */
	if (rangebit < so->fpsFrom || rangebit >= so->fpsEnd)
		PbGatherRangeFps(so, (int) meta->rowWords, rangebit);
	fps = so->fps + so->fpsStart[rangebit];
	nfps = (int) so->fpsCount[rangebit];
	return PbAddRangeRows(index, meta, sink, so->indexBlocks, (uint32) s,
						  rangebit, range, so->heapBlocks, so,
						  fps, nfps, so->fpset);
}

/*
 * amgetbitmap: the rows of every range whose signature may hold all the
 * keys: with a row map, the rows whose fingerprint matches the first key, as
 * exact TIDs; without, the range's heap pages as lossy pages.
 */
int64
pbgetbitmap(IndexScanDesc scan, TIDBitmap *tbm)
{
	PbScanOpaque so = (PbScanOpaque) scan->opaque;
	const PageBloomMetaPageData *meta;
	PbSink		sink;
	int64		ntids = 0;
	uint64		s;

	pgstat_count_index_scan(scan->indexRelation);
#if PG_VERSION_NUM >= 180000
	if (scan->instrument)
		scan->instrument->nsearches++;
#endif
	if (so->nomatch)
		return 0;
	PbScanStart(scan);
	/* PbScanStart opens the heap: the state is got after it */
	meta = &PbGetState(scan->indexRelation)->meta;
	memset(&sink, 0, sizeof(sink));
	sink.tbm = tbm;

	for (s = 0; PbSegmentInHeap(so, s, meta->pagesPerRange); s++)
	{
		uint64		cand[PB_MAX_ROW_WORDS];
		int			w;

		CHECK_FOR_INTERRUPTS();
		if (!PbSegmentCandidates(scan, s, cand))
			continue;
		for (w = 0; w < (int) meta->rowWords; w++)
		{
			uint64		x = cand[w];

			while (x)
			{
				uint32		rangebit = (uint32) w * 64 + pg_rightmost_one_pos64(x);
				bool		inheap;

				x &= x - 1;
				inheap = PbRangeInHeap(scan, s * so->rps + rangebit);
				/* PbRangeInHeap may have opened the heap: see there */
				meta = &PbGetState(scan->indexRelation)->meta;
				if (!inheap)
					break;
				ntids += PbRangeOutput(scan, s, rangebit, &sink);
			}
		}
	}
	return ntids;
}

/*
 * Fill so->sink with the rows of the next candidate range of an index scan;
 * false when there is none left.
 */
static bool
PbNextRange(IndexScanDesc scan)
{
	PbScanOpaque so = (PbScanOpaque) scan->opaque;
	const PageBloomMetaPageData *meta = &PbGetState(scan->indexRelation)->meta;
	PbSink	   *sink = &so->sink;

	sink->ntids = 0;
	sink->npages = 0;
	sink->first = sink->end = 0;
	so->nextTid = 0;
	so->nextPage = 0;
	so->inWhole = false;

	for (;;)
	{
		int			w;

		if (!so->segLoaded)
		{
			if (!PbSegmentInHeap(so, so->seg, meta->pagesPerRange))
				return false;
			CHECK_FOR_INTERRUPTS();
			if (!PbSegmentCandidates(scan, so->seg, so->cand))
			{
				so->seg++;
				continue;
			}
			so->segLoaded = true;
		}
		for (w = 0; w < (int) meta->rowWords; w++)
			if (so->cand[w])
				break;
		if (w < (int) meta->rowWords)
		{
			uint32		rangebit = (uint32) w * 64 + pg_rightmost_one_pos64(so->cand[w]);
			bool		inheap;

			so->cand[w] &= so->cand[w] - 1;
			inheap = PbRangeInHeap(scan, so->seg * so->rps + rangebit);
			/* PbRangeInHeap may have opened the heap: see there */
			meta = &PbGetState(scan->indexRelation)->meta;
			if (inheap)
			{
				PbRangeOutput(scan, so->seg, rangebit, sink);
				if (sink->ntids > 0 || sink->npages > 0 || sink->end > sink->first)
					return true;
				continue;
			}
			/* past the last range: the segment is done */
		}
		so->segLoaded = false;
		so->seg++;
	}
}

/*
 * The number of line pointers of a heap page of the scan (one before the
 * scan started: the heap cannot shrink under the scan's lock)
 */
static OffsetNumber
PbHeapPageItems(IndexScanDesc scan, BlockNumber blkno)
{
	Buffer		buf;
	OffsetNumber n;

	buf = ReadBuffer(scan->heapRelation, blkno);
	LockBuffer(buf, BUFFER_LOCK_SHARE);
	n = PageGetMaxOffsetNumber(BufferGetPage(buf));
	UnlockReleaseBuffer(buf);
	return n;
}

/*
 * amgettuple: the same rows as amgetbitmap, one range at a time: its exact
 * TIDs, then every line pointer of its whole pages (each HOT chain is
 * followed from its root; the heap skips heap-only tuples and unused line
 * pointers given as a start).  Every row is rechecked.
 */
bool
pbgettuple(IndexScanDesc scan, ScanDirection dir)
{
	PbScanOpaque so = (PbScanOpaque) scan->opaque;
	PbSink	   *sink = &so->sink;

	if (scan->xs_want_itup)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("pagebloom indexes do not support index-only scans"),
				 errdetail("The index keeps no column values, and its candidate rows must be checked in the heap."),
				 errhint("Set enable_indexonlyscan to off.")));
	if (!so->started)
	{
		/* the planner gives partial indexes bitmap scans only (PbRestrictIndexes) */
		if (!heap_attisnull(scan->indexRelation->rd_indextuple, Anum_pg_index_indpred, NULL))
			elog(ERROR, "plain index scan of partial pagebloom index \"%s\"",
				 RelationGetRelationName(scan->indexRelation));
		pgstat_count_index_scan(scan->indexRelation);
#if PG_VERSION_NUM >= 180000
		if (scan->instrument)
			scan->instrument->nsearches++;
#endif
		if (so->nomatch)
		{
			so->started = true;
			return false;
		}
		PbScanStart(scan);
		if (sink->tids == NULL)
		{
			sink->tids = MemoryContextAlloc(so->scancxt, sizeof(ItemPointerData) * PB_MAP_SLOTS);
			sink->pages = MemoryContextAlloc(so->scancxt, sizeof(BlockNumber) * PB_MAP_SLOTS);
		}
		sink->ntids = sink->npages = 0;
		sink->first = sink->end = 0;
		so->nextTid = so->nextPage = 0;
		so->inWhole = false;
	}
	else if (so->nomatch)
		return false;

	for (;;)
	{
		if (so->inWhole)
		{
			if (so->wholeOff < so->wholeMax)
			{
				so->wholeOff++;
				ItemPointerSet(&scan->xs_heaptid, so->wholePage, so->wholeOff);
				scan->xs_recheck = true;
				return true;
			}
			so->inWhole = false;
		}
		if (so->nextTid < sink->ntids)
		{
			scan->xs_heaptid = sink->tids[so->nextTid++];
			scan->xs_recheck = true;
			return true;
		}
		if (so->nextPage < sink->npages)
			so->wholePage = sink->pages[so->nextPage++];
		else if (sink->first < sink->end)
			so->wholePage = sink->first++;
		else if (!PbNextRange(scan))
			return false;
		else
			continue;
		so->wholeOff = 0;
		so->wholeMax = PbHeapPageItems(scan, so->wholePage);
		so->inWhole = true;
	}
}

/* amendscan */
void
pbendscan(IndexScanDesc scan)
{
	PbScanOpaque so = (PbScanOpaque) scan->opaque;

	/* the keys, the hashers, the range buffers and so itself */
	MemoryContextDelete(so->scancxt);
	scan->opaque = NULL;
}
