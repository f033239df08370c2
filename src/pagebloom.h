/*
 * pagebloom.h
 *		The pagebloom index access method: a Bloom signature per range of
 *		heap blocks, stored bit-sliced and blocked (doc/design.md,
 *		"pagebloom").
 *
 * Index layout
 *		block 0			metapage (PageBloomMetaPageData)
 *		block 1 + s * nblocks + b
 *						slice page of segment s, signature block b
 *
 * A range's signature has nblocks * blockBits bits, cut into nblocks
 * blocks of blockBits bits.  A key (column c, value v) hashes to one
 * block and k bit positions inside it.  A segment is rowWords * 64
 * consecutive ranges; the slice page (s, b) holds block b of every range of
 * segment s, bit-sliced: row j of the page is a bitmap over the segment's
 * ranges of "bit j of block b is set".  A probe for one key reads one page
 * per segment and ANDs k rows of rowWords words; an insert touches one
 * page per indexed column.
 */
#ifndef PAGEBLOOM_H
#define PAGEBLOOM_H

#include "bloomfilter.h"

#include "access/amapi.h"
#include "access/genam.h"
#include "access/itup.h"
#include "port/pg_bitutils.h"
#include "nodes/pathnodes.h"
#include "storage/bufmgr.h"
#include "storage/bufpage.h"
#include "storage/lock.h"
#include "miscadmin.h"
#include "utils/rel.h"
#include "utils/relcache.h"

#define PB_MAGIC			0x50424C4DU /* "PBLM" */
#define PB_VERSION			2
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

#define PageBloomPageGetOpaque(page) \
	((PageBloomPageOpaque) PageGetSpecialPointer(page))

/* 64-bit words of bit data on one slice page */
#define PB_PAGE_WORDS \
	((BLCKSZ - MAXALIGN(SizeOfPageHeaderData) - \
	  MAXALIGN(sizeof(PageBloomPageOpaqueData))) / sizeof(uint64))
/*
 * Words per row: a row is a bitmap over the ranges of one segment.  The build
 * chooses 4, 8 or 16 (meta->rowWords, PbComputeParams): fewer words give
 * more rows per page, i.e. larger blocks (255, 127 or 63 bits: a lower
 * false-positive rate for the same bits per key), and fewer ranges per
 * segment (256, 512 or 1024: more pages read per probe).
 */
#define PB_MIN_ROW_WORDS		4
#define PB_MAX_ROW_WORDS		16
#define PB_MAX_RANGES_PER_SEGMENT	(PB_MAX_ROW_WORDS * 64)
/* rows per slice page = bits per signature block, for a row width */
#define PB_BLOCK_BITS_FOR(rowwords)	((int) (PB_PAGE_WORDS / (rowwords)))
#define PB_MAX_BLOCK_BITS		PB_BLOCK_BITS_FOR(PB_MIN_ROW_WORDS)
/* 64-bit words of a key's row mask */
#define PB_MASK_WORDS			((PB_MAX_BLOCK_BITS + 63) / 64)

#define PageBloomPageGetWords(page) \
	((uint64 *) PageGetContents(page))

/* Limits */
/*
 * Signature blocks per range: a segment has this many slice pages, and a
 * build or re-summarization holds one segment in memory, so 8192 blocks
 * (516096 bits per range) cap both at 64 MB.
 */
#define PB_MAX_NBLOCKS			8192
#define PB_MAX_K				16
#define PB_MAX_PAGES_PER_RANGE	131072

/* Reloption defaults (doc/design.md says how they were chosen) */
#define PB_DEFAULT_PAGES_PER_RANGE	1
/*
 * fpr: 0 (the default) derives the rate from the table: about one false range
 * per one-column probe, at most PB_DEFAULT_FPR, with at most
 * PB_DEFAULT_BITS_PER_KEY bits per key (PbDerivedFpr)
 */
#define PB_DEFAULT_FPR				0.01
#define PB_MIN_FPR					0.000001
#define PB_DEFAULT_BITS_PER_KEY		24
/* probe cost model (microseconds) for the choice of block size */
#define PB_COST_SLICE_READ			0.5
#define PB_COST_HEAP_PAGE			1.0
#define PB_COST_HEAP_ROW			0.06
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
	uint32		unused;
	uint8		kcol[INDEX_MAX_KEYS];	/* bits per key of each column; k is
										 * their maximum */
	float4		designFprCol[INDEX_MAX_KEYS];	/* design FPR of each column;
												 * designFpr is the maximum */
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
	int			blockBits;		/* 63, 127, 255, or 0 = chosen */
} PageBloomOptions;

/*
 * Per-index state cached in rd_amcache: the metapage parameters and a hasher
 * per index column.
 */
typedef struct PageBloomState
{
	PageBloomMetaPageData meta;
	int			natts;
	uint32		knownSegments;	/* segments known to exist on disk */
	BfHasher	hashers[INDEX_MAX_KEYS];
} PageBloomState;

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
extern PageBloomState *PbGetState(Relation index);
extern void PbComputeParams(Relation heap, Relation index,
							PageBloomMetaPageData *meta, bool warn);
extern double PbBlockedFpr(double nvalues, uint32 nblocks, int blockbits, int k);
extern double PbBlockedFprMixed(double nvalues, uint32 nblocks, int blockbits,
								double kbar, int k);
extern int	PbParseColumnFpr(const char *str, double *fprs, bool report);
extern void PbInitMetaPage(Page page, const PageBloomMetaPageData *meta);
extern void PbInitSlicePage(Page page, uint32 segment, uint32 block);
extern void PbCheckMetaPage(Relation index, Page page);
extern int	PbKeyRows(const PageBloomMetaPageData *meta, int attno, uint64 h, uint16 *rows);
extern uint32 PbChooseRowWords(double nranges, double nvalues, double rows);
extern void PbEnsureSegment(Relation index, PageBloomState *state, uint32 segment);
extern void PbSetKeys(Relation index, PageBloomState *state, uint32 segment,
					  uint32 rangebit, const uint64 *hashes, int nhashes);
extern void PbHashTuple(PageBloomState *state, Datum *values, bool *isnull,
						uint64 *hashes);

/* The block number of the slice page of a segment and signature block */
static inline BlockNumber
PbSliceBlkno(const PageBloomMetaPageData *meta, uint32 segment, uint32 block)
{
	return (BlockNumber) (1 + (uint64) segment * meta->nblocks + block);
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

/* The key of a value (or NULL) of column attno, hashed as the column's type */
static inline uint64
PbKeyHash(PageBloomState *state, int attno, Datum value, bool isnull)
{
	if (isnull)
		return PbNullHash(state->meta.seed, attno);
	return BfHashDatum(&state->hashers[attno], value, state->meta.seed + (uint64) attno);
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

/* Ranges per segment of an index */
static inline uint32
PbRangesPerSegment(const PageBloomMetaPageData *meta)
{
	return meta->rowWords * 64;
}

/*
 * The rows (bit numbers inside its block) of a key of column attno, as a
 * mask of PB_MASK_WORDS words: k distinct rows (k of that column).  A
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
	memset(mask, 0, sizeof(uint64) * PB_MASK_WORDS);
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

#endif							/* PAGEBLOOM_H */
