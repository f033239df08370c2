/*
 * pagebloom.h
 *		The pagebloom index access method: a Bloom signature per range of
 *		heap blocks, stored bit-sliced and blocked (doc/design.md,
 *		"pagebloom").
 *
 * Index layout
 *		block 0			metapage (PageBloomMetaPageData)
 *		block 1 + s * segpages + b
 *						slice page of segment s, signature block b
 *		block 1 + s * segpages + nblocks + g * ncols + c
 *						row map page of segment s, range group g, column c
 *		(segpages = nblocks + mapgroups * ncols: PbSegmentPages)
 *
 * A range's signature has nblocks * blockBits bits, cut into nblocks
 * blocks of blockBits bits.  A key (column c, value v) hashes to one
 * block and k bit positions inside it.  A segment is rowWords * 64
 * consecutive ranges; the slice page (s, b) holds block b of every range of
 * segment s, bit-sliced: row j of the page is a bitmap over the segment's
 * ranges of "bit j of block b is set".  A probe for one key reads one page
 * per segment and ANDs k rows of rowWords words; an insert touches one
 * page per indexed column.
 *
 * The row map (meta->rowSlots > 0): for every heap page, a
 * 16-bit fingerprint of each column's key for each of the line pointers
 * 1 .. rowSlots, kept per column on row map pages that each cover
 * PbMapRangesPerPage consecutive ranges.  A probe reads the row map page of
 * each candidate range for one of its keys and adds only the line pointers
 * whose fingerprint matches, as exact TIDs (to recheck), instead of whole
 * heap pages; rows past rowSlots set the heap page's overflow bit and make
 * it a lossy page.  An insert writes one row map page per column.
 *
 * The metapage's extent is the number of index blocks that exist: the
 * insert that adds pages raises it before it sets bits on them, so a scan
 * reads it (and the heap's size this backend last saw) instead of asking
 * the files for their sizes.
 */
#ifndef PAGEBLOOM_H
#define PAGEBLOOM_H

#include "bloomfilter.h"

#include "access/amapi.h"
#include "access/genam.h"
#include "access/itup.h"
#include "port/pg_bitutils.h"
#include "nodes/pathnodes.h"
#include "storage/dsm.h"
#include "storage/shm_toc.h"
#include "storage/bufmgr.h"
#include "storage/bufpage.h"
#include "storage/lock.h"
#include "miscadmin.h"
#include "utils/rel.h"
#include "utils/relcache.h"

#define PB_MAGIC			0x50424C4DU /* "PBLM" */
#define PB_VERSION			4	/* earlier versions were never released */
#define PB_METAPAGE_BLKNO	0

/* Special space of every page */
typedef struct PageBloomPageOpaqueData
{
	uint16		flags;			/* PB_META or PB_SLICE */
	uint16		block;			/* slice pages: signature block b */
	uint32		segment;		/* slice pages: segment s */
} PageBloomPageOpaqueData;

typedef PageBloomPageOpaqueData *PageBloomPageOpaque;

#define PB_META		0x0001
#define PB_SLICE	0x0002
#define PB_MAP		0x0004

#define PageBloomPageGetOpaque(page) \
	((PageBloomPageOpaque) PageGetSpecialPointer(page))

/* 64-bit words of bit data on one slice page */
#define PB_PAGE_WORDS \
	((BLCKSZ - MAXALIGN(SizeOfPageHeaderData) - \
	  MAXALIGN(sizeof(PageBloomPageOpaqueData))) / sizeof(uint64))
/*
 * Words per row: a row is a bitmap over the ranges of one segment.  The build
 * chooses 1, 2, 4, 8 or 16 (meta->rowWords, PbComputeParams): fewer words
 * give more rows per page, i.e. larger blocks (1020, 510, 255, 127 or 63
 * bits: a lower false-positive rate for the same bits per key), and fewer
 * ranges per segment (64, 128, 256, 512 or 1024: more pages read per probe,
 * less room left empty in the last segment).
 */
#define PB_MIN_ROW_WORDS		1
#define PB_MAX_ROW_WORDS		16
#define PB_DEFAULT_ROW_WORDS	4
#define PB_MAX_RANGES_PER_SEGMENT	(PB_MAX_ROW_WORDS * 64)
/* rows per slice page = bits per signature block, for a row width */
#define PB_BLOCK_BITS_FOR(rowwords)	((int) (PB_PAGE_WORDS / (rowwords)))
#define PB_MAX_BLOCK_BITS		PB_BLOCK_BITS_FOR(PB_MIN_ROW_WORDS)
/* 64-bit words of a key's row mask */
#define PB_MASK_WORDS			((PB_MAX_BLOCK_BITS + 63) / 64)

#define PageBloomPageGetWords(page) \
	((uint64 *) PageGetContents(page))

/*
 * Row map pages: PB_MAP_OVERFLOW_WORDS words of overflow bits (one per heap
 * page the page covers: at most PB_MAP_MAX_HEAP_PAGES), then the high bytes
 * of PB_MAP_SLOTS 16-bit fingerprints, then their low bytes (0 in both: "no
 * row indexed there").  A probe compares the high bytes, sixteen slots at a
 * time, and reads the low byte only where the high byte matches: half the
 * bytes of the page.
 */
#define PB_MAP_OVERFLOW_WORDS	8
#define PB_MAP_MAX_HEAP_PAGES	(PB_MAP_OVERFLOW_WORDS * 64)
#define PB_MAP_SLOTS			((int) ((PB_PAGE_WORDS - PB_MAP_OVERFLOW_WORDS) * 4))
#define PbMapGetOverflow(page)	PageBloomPageGetWords(page)
/* the high bytes; the low byte of slot i is at [PB_MAP_SLOTS + i] */
#define PbMapGetHi(page) \
	((uint8 *) (PageBloomPageGetWords(page) + PB_MAP_OVERFLOW_WORDS))

/* The fingerprint in slot i of a row map page's bytes (PbMapGetHi) */
static inline uint16
PbMapSlot(const uint8 *hi, uint32 i)
{
	return (uint16) ((hi[i] << 8) | hi[PB_MAP_SLOTS + i]);
}

/* Limits */
/*
 * Signature blocks per range: a segment has this many slice pages, and a
 * build or re-summarization holds one segment in memory, so 8192 blocks
 * (516096 bits per range) cap both at 64 MB.
 */
#define PB_MAX_NBLOCKS			8192
#define PB_MAX_K				16
#define PB_MAX_PAGES_PER_RANGE	131072

/* added to the cost of an index-only scan path, which pagebloom cannot serve */
#define PB_NO_INDEX_ONLY_COST	1.0e12

/*
 * With the row map a plain index scan returns its exact TIDs range by range
 * in heap order, each heap page once, as a bitmap heap scan visits them,
 * without building a bitmap or prefetching through the buffer mapping table
 * (cached tables: 10% - 13% faster).  pbcostestimate reports the correlation
 * that makes it the cheaper path up to the square of this fraction of the
 * heap's pages (1.44%).
 */
#define PB_PLAIN_SCAN_SQRT_FRACTION	0.12

/* Reloption defaults (doc/design.md says how they were chosen) */
#define PB_DEFAULT_PAGES_PER_RANGE	1	/* without a row map */
/*
 * fpr: 0 (the default) derives the rate from the table: about one false range
 * per one-column probe, at most PB_DEFAULT_FPR, with at most
 * PB_DEFAULT_BITS_PER_KEY bits per key (PbDerivedFpr)
 */
#define PB_DEFAULT_FPR				0.01
#define PB_MIN_FPR					0.000001
#define PB_MAX_FPR					0.5
#define PB_DEFAULT_BITS_PER_KEY		24
/* probe cost model (microseconds) for the choice of block size */
#define PB_COST_SLICE_READ			0.5
#define PB_COST_HEAP_PAGE			1.0
#define PB_COST_HEAP_ROW			0.06
#define PB_COST_MAP_SCAN			0.3
/* the cost model's price of one bit per key of index size */
#define PB_COST_BIT_PER_KEY		0.5
/* default rate with a row map: about this many false ranges per probe */
#define PB_MAP_FALSE_RANGES			2.0
/* VACUUM re-summarizes a mostly-emptied range when this much of it is stale */
#define PB_VACUUM_MIN_STALE			0.25

/* Metapage contents */
typedef struct PageBloomMetaPageData
{
	uint32		magic;
	uint32		version;
	uint32		pagesPerRange;
	uint32		nblocks;		/* signature blocks per range */
	uint32		blockBits;		/* PB_BLOCK_BITS_FOR(rowWords) */
	uint32		rowWords;		/* words per row: 4, 8 or 16 */
	uint32		ncols;
	uint32		k;				/* bits per key, inside its block */
	uint64		seed;			/* hash seed; column c hashes with seed + c */
	float8		targetFpr;		/* reloption fpr */
	float8		designFpr;		/* estimated one-column probe FPR at design
								 * load */
	float8		rowsPerRange;	/* design load: rows per range */
	uint32		signatureBitsOption;	/* reloption, 0 = computed */
	uint32		rowSlots;		/* row map: line pointers per heap page, 0 =
								 * no row map */
	uint8		kcol[INDEX_MAX_KEYS];	/* bits per key of each column; k is
										 * their maximum */
	float4		designFprCol[INDEX_MAX_KEYS];	/* design FPR of each column;
												 * designFpr is the maximum */
	uint32		extentBlocks;	/* index blocks that exist: the build's, and
								 * every later extension's, raised before the
								 * new pages are used (PbRaiseExtent) */
} PageBloomMetaPageData;

#define PageBloomPageGetMeta(page) \
	((PageBloomMetaPageData *) PageGetContents(page))

/* Reloptions */
typedef struct PageBloomOptions
{
	int32		vl_len_;		/* varlena header (do not touch directly!) */
	int			pagesPerRange;
	double		fpr;
	int			signatureBits;
	int			columnFprOffset;	/* string: per-column fpr list, 0 = none */
	int			blockBits;		/* 63 .. 1020, or 0 = chosen */
	bool		rowMap;			/* keep a row map (default on) */
} PageBloomOptions;

/*
 * Per-index state cached in rd_amcache: the metapage parameters, a hasher
 * per index column and the buffer hints of PbReadIndexBuffer.
 */
typedef struct PageBloomState
{
	PageBloomMetaPageData meta;
	int			natts;
	BlockNumber knownBlocks;	/* index blocks known to be in the
								 * metapage's extent */
	BfHasher   *hashers;		/* natts hashers, a chunk of their own in
								 * rd_indexcxt (see PbGetState) */
	MemoryContext cxt;			/* rd_indexcxt, where the state lives */
	Size		allocSize;		/* bytes of the state's chunk */
	uint64		insertGeneration;	/* pagebloominsert.c's flush point of
									 * this backend's last insert at once */
	uint32		nrecent;		/* entries of recentBuffers: a power of 2,
								 * or 0 (a temporary index) */
	Buffer		recentBuffers[FLEXIBLE_ARRAY_MEMBER];	/* for index block b,
														 * at b % nrecent: the
														 * buffer this backend
														 * last read it into,
														 * a hint for
														 * PbReadIndexBuffer */
} PageBloomState;

/*
 * At most this many recentBuffers (4 bytes each: 256 kB per index per
 * backend), and at most the index's blocks rounded up to a power of 2.  They
 * live in the same allocation as the rest of the state, which the relcache
 * frees with one pfree (rd_amcache) when it reloads the index.
 */
#define PB_RECENT_MAX			65536

/* One hinted read in this many takes the usual path (usage count, above) */
#define PB_RECENT_BUMP			8

/* Build progress subphase */
#define PB_BUILD_PHASE_SCAN		2

/* pagebloom.c */
extern void PageBloomInit(void);
extern bytea *pboptions(Datum reloptions, bool validate);
extern bool pbvalidate(Oid opclassoid);

/* pagebloombuild.c */
extern IndexBuildResult *pbbuild(Relation heap, Relation index,
								 struct IndexInfo *indexInfo);
extern void pbbuildempty(Relation index);
extern char *pbbuildphasename(int64 phasenum);
extern Oid PbIndexTable(Oid indexoid);
extern PGDLLEXPORT void PbParallelBuildMain(dsm_segment *seg, shm_toc *toc);

/* pagebloominsert.c */
extern bool pbinsert(Relation index, Datum *values, bool *isnull,
					 ItemPointer ht_ctid, Relation heapRel,
					 IndexUniqueCheck checkUnique, bool indexUnchanged,
					 struct IndexInfo *indexInfo);

/* pagebloomscan.c */
extern IndexScanDesc pbbeginscan(Relation r, int nkeys, int norderbys);
extern void pbrescan(IndexScanDesc scan, ScanKey scankey, int nscankeys,
					 ScanKey orderbys, int norderbys);
extern int64 pbgetbitmap(IndexScanDesc scan, TIDBitmap *tbm);
extern bool pbgettuple(IndexScanDesc scan, ScanDirection dir);
extern void pbendscan(IndexScanDesc scan);

/* pagebloomvacuum.c */
extern IndexBulkDeleteResult *pbbulkdelete(IndexVacuumInfo *info,
										   IndexBulkDeleteResult *stats,
										   IndexBulkDeleteCallback callback,
										   void *callback_state);
extern IndexBulkDeleteResult *pbvacuumcleanup(IndexVacuumInfo *info,
											  IndexBulkDeleteResult *stats);

/* pagebloomutils.c */
extern void pbcostestimate(PlannerInfo *root, IndexPath *path,
						   double loop_count, Cost *indexStartupCost,
						   Cost *indexTotalCost, Selectivity *indexSelectivity,
						   double *indexCorrelation, double *indexPages);
extern Oid PbKeyType(Relation index, int i);
extern PageBloomState *PbGetState(Relation index);
extern PageBloomState *PbGetStateCopy(Relation index);
extern int	pbHashersPinned;
extern void PbHashersUnpinAll(void);
extern Buffer PbReadIndexBuffer(Relation index, BlockNumber blkno);
extern void PbComputeParams(Relation heap, Relation index,
							PageBloomMetaPageData *meta, bool warn);
extern double PbBlockedFprMixed(double nvalues, uint32 nblocks, int blockbits,
								double kbar, int k);
extern int	PbParseColumnFpr(const char *str, double *fprs, bool report);
extern void PbInitMetaPage(Page page, const PageBloomMetaPageData *meta);
extern void PbInitSlicePage(Page page, uint32 segment, uint32 block);
extern void PbInitSegmentPage(Page page, const PageBloomMetaPageData *meta,
							  BlockNumber blkno);
extern void PbCheckMetaPage(Relation index, Page page);
extern int	PbKeyRows(const PageBloomMetaPageData *meta, int attno, uint64 h, uint16 *rows);
extern uint32 PbChooseRowWords(double nranges, double nvalues, double falseCost,
							   double target, bool rowmap, uint32 maxRowWords,
							   double *costp);
extern double PbFalseRangeCost(bool rowmap, double ppr, double rows);
extern BlockNumber PbBlocksForRange(const PageBloomMetaPageData *meta, uint64 range);
extern void PbEnsureRange(Relation index, PageBloomState *state, uint64 range);
extern void PbRaiseExtent(Relation index, BlockNumber nblocks);
extern BlockNumber PbReadExtent(Relation index);
extern void PbSetKeys(Relation index, PageBloomState *state, uint32 segment,
					  uint32 rangebit, const uint64 *hashes, int nhashes,
					  ItemPointer tid);
extern void PbFlushPending(void);
extern void PbCheckNoPending(Relation index);
extern void PbInsertInit(void);
extern void PbSetRows(Relation index, PageBloomState *state, uint32 segment,
					  int nrows, const uint32 *rangebits, const uint64 *hashes,
					  int nhashes, const ItemPointerData *tids);
extern void PbHashTuple(PageBloomState *state, Datum *values, bool *isnull,
						uint64 *hashes);

/* Ranges per segment of an index */
static inline uint32
PbRangesPerSegment(const PageBloomMetaPageData *meta)
{
	return meta->rowWords * 64;
}

/* Consecutive ranges whose row map (of one column) is on one page */
static inline uint32
PbMapRangesPerPage(const PageBloomMetaPageData *meta)
{
	uint32		n;

	if (meta->rowSlots == 0)
		return 1;
	n = (uint32) PB_MAP_SLOTS / (meta->pagesPerRange * meta->rowSlots);
	n = Min(n, PB_MAP_MAX_HEAP_PAGES / meta->pagesPerRange);
	n = Min(n, PbRangesPerSegment(meta));
	return Max(n, 1);
}

/* Row map pages per column and segment */
static inline uint32
PbMapGroups(const PageBloomMetaPageData *meta)
{
	uint32		rpm = PbMapRangesPerPage(meta);

	if (meta->rowSlots == 0)
		return 0;
	return (PbRangesPerSegment(meta) + rpm - 1) / rpm;
}

/* Pages of one segment: slice pages, then row map pages */
static inline uint32
PbSegmentPages(const PageBloomMetaPageData *meta)
{
	return meta->nblocks + PbMapGroups(meta) * meta->ncols;
}

/* The block number of the slice page of a segment and signature block */
static inline BlockNumber
PbSliceBlkno(const PageBloomMetaPageData *meta, uint32 segment, uint32 block)
{
	return (BlockNumber) (1 + (uint64) segment * PbSegmentPages(meta) + block);
}

/* The block number of the row map page of a range (bit of a segment) and column */
static inline BlockNumber
PbMapBlkno(const PageBloomMetaPageData *meta, uint32 segment, uint32 rangebit,
		   int attno)
{
	return (BlockNumber) (1 + (uint64) segment * PbSegmentPages(meta) + meta->nblocks +
						  (rangebit / PbMapRangesPerPage(meta)) * meta->ncols + attno);
}

/*
 * The place of heap block blkno on its row map page: the heap page's number
 * among those the page covers (its overflow bit); its first slot is that
 * times rowSlots
 */
static inline uint32
PbMapHeapIndex(const PageBloomMetaPageData *meta, BlockNumber blkno)
{
	uint64		range = blkno / meta->pagesPerRange;

	return (uint32) ((range % PbRangesPerSegment(meta)) % PbMapRangesPerPage(meta)) *
		meta->pagesPerRange + blkno % meta->pagesPerRange;
}

/* The 16-bit row map fingerprint of a key: 1 .. 65535 (0 is an empty slot) */
#define PB_FP_SALT		UINT64CONST(0xb7e151628aed2a6b)
static inline uint16
PbRowFingerprint(uint64 h)
{
	return (uint16) (1 + BfMix64(h ^ PB_FP_SALT) % 65535);
}

/*
 * The segment lock: a heavyweight lock on (database, index, segment).  Inserts
 * into a segment hold it in PB_SEGLOCK_INSERT mode (they do not conflict with
 * each other); re-summarization of the segment holds it in
 * PB_SEGLOCK_RESUMMARIZE mode, so no insert can set bits in the segment
 * between the re-summarization's heap scan and its page rewrites.  It is an
 * advisory-type lock tag (field 4 PB_SEGLOCK_TAG, which user advisory locks
 * never use: they use 1 and 2), not a page lock: PostgreSQL asserts that no
 * other heavyweight lock is taken while a page lock is held, and
 * re-summarization takes some under the segment lock (TOAST tables, catalogs,
 * whatever index expressions lock).  Held for the transaction at most,
 * released explicitly.
 */
#define PB_SEGLOCK_INSERT		ShareLock
#define PB_SEGLOCK_RESUMMARIZE	ExclusiveLock
#define PB_SEGLOCK_TAG			0x5042	/* "PB" */

/* Take the segment lock of a segment in mode */
static inline void
PbLockSegment(Relation index, uint32 segment, LOCKMODE mode)
{
	LOCKTAG		tag;

	SET_LOCKTAG_ADVISORY(tag, MyDatabaseId, RelationGetRelid(index), segment,
						 PB_SEGLOCK_TAG);
	(void) LockAcquire(&tag, mode, false, false);
}

/* Release the segment lock of a segment taken in mode */
static inline void
PbUnlockSegment(Relation index, uint32 segment, LOCKMODE mode)
{
	LOCKTAG		tag;

	SET_LOCKTAG_ADVISORY(tag, MyDatabaseId, RelationGetRelid(index), segment,
						 PB_SEGLOCK_TAG);
	LockRelease(&tag, mode, false);
}

/* Salts that separate the null keys and the row derivation from values */
#define PB_NULL_SALT	UINT64CONST(0x6a09e667f3bcc908)
#define PB_ROW_SALT		UINT64CONST(0x243f6a8885a308d3)

/* The key of a NULL in column attno */
static inline uint64
PbNullHash(uint64 seed, int attno)
{
	return BfMix64((seed + (uint64) attno) ^ PB_NULL_SALT);
}

#ifdef USE_ASSERT_CHECKING
extern int	pb_debug_discard_state;
extern void PbDebugDiscardState(MemoryContext cxt, Size size, Relation index);
#endif

/*
 * What hashing a key needs from the state, taken before any hasher runs:
 * hashing can process a relcache invalidation (a detoast or catalog lookup
 * takes a lock), which frees the index's cached state (PbGetState), though
 * not its hashers.
 */
typedef struct PbKeyHasher
{
	BfHasher   *hashers;
	uint64		seed;
	MemoryContext cxt;			/* the state's, for PbDebugDiscardState */
	Size		allocSize;
} PbKeyHasher;

static inline PbKeyHasher
PbKeyHasherOf(const PageBloomState *state)
{
	PbKeyHasher kh;

	kh.hashers = state->hashers;
	kh.seed = state->meta.seed;
	kh.cxt = state->cxt;
	kh.allocSize = state->allocSize;
	return kh;
}

/* The key of a value (or NULL) of column attno, hashed as the column's type */
static inline uint64
PbKeyHashWith(const PbKeyHasher *kh, int attno, Datum value, bool isnull)
{
	if (isnull)
		return PbNullHash(kh->seed, attno);
#ifdef USE_ASSERT_CHECKING
	if (pb_debug_discard_state > 0)
		PbDebugDiscardState(kh->cxt, kh->allocSize, NULL);
#endif
	return BfHashDatum(&kh->hashers[attno], value, kh->seed + (uint64) attno);
}

/*
 * Test builds: the same simulated invalidation where a relation was just
 * opened (opening one may process invalidations), for the callers that get
 * the state again afterwards
 */
#ifdef USE_ASSERT_CHECKING
static inline void
PbDebugDiscardAt(Relation index)
{
	if (pb_debug_discard_state > 0)
	{
		PageBloomState *state = PbGetState(index);

		PbDebugDiscardState(state->cxt, state->allocSize, index);
	}
}
#else
#define PbDebugDiscardAt(index) ((void) 0)
#endif

/*
 * The same, from the state: the state is not read once the hasher runs, and
 * its hashers are pinned meanwhile (pbHashersPinned)
 */
static inline uint64
PbKeyHash(PageBloomState *state, int attno, Datum value, bool isnull)
{
	PbKeyHasher kh = PbKeyHasherOf(state);
	uint64		h;

	pbHashersPinned++;
	h = PbKeyHashWith(&kh, attno, value, isnull);
	pbHashersPinned--;
	return h;
}

/* The signature block of a key */
static inline uint32
PbKeyBlock(const PageBloomMetaPageData *meta, uint64 h)
{
	return (uint32) BfMulHi64(h, meta->nblocks);
}

/* The row width whose blocks have blockbits bits, 0 if none */
static inline uint32
PbRowWordsForBlockBits(int blockbits)
{
	uint32		rw;

	for (rw = PB_MIN_ROW_WORDS; rw <= PB_MAX_ROW_WORDS; rw *= 2)
		if (PB_BLOCK_BITS_FOR(rw) == blockbits)
			return rw;
	return 0;
}

/*
 * The rows (bit numbers inside its block) of a key of column attno, as a
 * mask of (blockBits + 63) / 64 words: k distinct rows (k of that column).  A
 * splitmix64 sequence seeded by a remix of h supplies 64-bit words; each word
 * is cut into draws of the fewest bits that can hold blockBits - 1 (6 bits
 * for 63 rows, 7 for 127, 8 for 255), a draw >= blockBits is rejected (so
 * rows are uniform), and a row already taken is skipped (so every key has k
 * bits).
 */
static inline void
PbKeyMask(const PageBloomMetaPageData *meta, int attno, uint64 h, uint64 *mask)
{
	const uint32 blockbits = meta->blockBits;
	const uint32 nbits = pg_leftmost_one_pos32(blockbits - 1) + 1;
	const uint64 drawmask = (UINT64CONST(1) << nbits) - 1;
	const int	perword = 64 / nbits;
	const uint32 k = meta->kcol[attno];
	uint64		x = h ^ PB_ROW_SALT;
	uint32		n = 0;
	uint32		steps;

	Assert(blockbits >= 2 && blockbits <= PB_MAX_BLOCK_BITS);
	memset(mask, 0, sizeof(uint64) * ((blockbits + 63) / 64));
	for (steps = 0; n < k && steps < 1000; steps++)
	{
		uint64		z;
		int			d;

		x += UINT64CONST(0x9e3779b97f4a7c15);
		z = BfMix64(x);
		for (d = 0; d < perword && n < k; d++)
		{
			uint32		r = (uint32) (z & drawmask);

			z >>= nbits;
			if (r < blockbits && !(mask[r / 64] & (UINT64CONST(1) << (r % 64))))
			{
				mask[r / 64] |= UINT64CONST(1) << (r % 64);
				n++;
			}
		}
	}
	/* never taken in practice; keeps the count exact */
	for (steps = 0; n < k && steps < blockbits; steps++)
		if (!(mask[steps / 64] & (UINT64CONST(1) << (steps % 64))))
		{
			mask[steps / 64] |= UINT64CONST(1) << (steps % 64);
			n++;
		}
}

extern void PbCheckHeapAm(Relation heap);
extern void PbCheckCollations(Relation index);

#endif							/* PAGEBLOOM_H */
