/*
 * cuckoofilter.c
 *		The cuckoofilter type: a cuckoo filter (Fan, Andersen, Kaminsky and
 *		Mitzenmacher 2014) of buckets of b = 4 fingerprints of f bits, with
 *		partial-key cuckoo hashing, deletion of one copy, counting of copies
 *		and growth by chaining sub-filters.
 *
 * Layout (doc/design.md, "cuckoofilter"), every multi-byte field little-endian:
 *
 *	the common 24-byte header, then
 *	  uint8  f			fingerprint bits, 4..32
 *	  uint8  b			bucket size, always 4
 *	  uint8  layout		1: semi-sorted buckets
 *	  uint8  reserved	0
 *	  uint32 nsub		number of sub-filters, 1..CF_MAX_SUBFILTERS
 *	  uint64 count		fingerprints stored in all sub-filters
 *	then nsub sub-filters, each
 *	  uint8  level s (0..31): N = N0 * 2^s buckets, N0 the first's count
 *	  uint8  victim_used (0 or 1)
 *	  uint16 reserved	0
 *	  uint32 victim_fp	(0 when unused)
 *	  uint32 N			its bucket count, 1..2^32 - 1
 *	  uint32 victim_bucket (0 when unused)
 *	  uint64 count		fingerprints in its table plus its victim
 *	  table: N semi-sorted buckets of 4f - 4 bits, bucket i at bit
 *		  i * (4f - 4); bit t of the table is bit (t % 8) of byte t / 8, a
 *		  field's bit k is table bit (its position + k).  A bucket's 4
 *		  f-bit entries (0 = empty) ascend, e0 <= e1 <= e2 <= e3; bits 0..11
 *		  hold the code of their top 4 bits n0 <= .. <= n3, C(n0, 1) +
 *		  C(n1 + 1, 2) + C(n2 + 2, 3) + C(n3 + 3, 4) < 3876, bits
 *		  12 + j (f - 4) the low f - 4 bits of e_j.  The table is padded
 *		  with zero bits to a multiple of 64 bits plus 8 zero bytes, so a
 *		  bucket of f <= 15 (and any field) is one 8-byte load.
 *
 * The first sub-filter has level 0 and N0 buckets (any count >= 1, the
 * filter's base); chains grow by levels, twice the largest each time.
 *
 * Element to entries: h = the canonical 64-bit hash with the filter's seed,
 * L = h & (2^32 - 1), fp = (h >> 32) & (2^f - 1), replaced by 1 when 0 (0
 * marks an empty entry), i1 = (L * N) >> 32 (fast range reduction).  The
 * alternate (CfAltIndex) of bucket i = q * 2^s + r at level s is
 * ((c + N0 - q) mod N0) * 2^s + (r xor t), with m = BfMix64(fp),
 * c = (m * N0) >> 64 and t the top s bits of m * 0x9E3779B97F4A7C15: its
 * own inverse, and (c + N - i1) mod N in a level-0 sub-filter.  Every
 * sub-filter uses the same formulas with its own level, and both commute
 * with dropping low bits (floor(L * N0 * 2^s / 2^32) >> d =
 * floor(L * N0 * 2^(s-d) / 2^32)), so a fingerprint stored at bucket i of a
 * sub-filter of level s can move to any sub-filter of level s' <= s of the
 * same N0 as bucket i >> (s - s').  Filters of different N0 cannot be merged.
 */
#include "bloomfilter.h"

#include <math.h>

#include "catalog/pg_type.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "port/pg_bitutils.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/tuplestore.h"

PG_FUNCTION_INFO_V1(cuckoofilter_in);
PG_FUNCTION_INFO_V1(cuckoofilter_out);
PG_FUNCTION_INFO_V1(cuckoofilter_recv);
PG_FUNCTION_INFO_V1(cuckoofilter_send);
PG_FUNCTION_INFO_V1(cuckoofilter_empty);
PG_FUNCTION_INFO_V1(cuckoofilter_create);
PG_FUNCTION_INFO_V1(cuckoofilter_add);
PG_FUNCTION_INFO_V1(cuckoofilter_add_array);
PG_FUNCTION_INFO_V1(cuckoofilter_remove);
PG_FUNCTION_INFO_V1(cuckoofilter_remove_array);
PG_FUNCTION_INFO_V1(cuckoofilter_contains);
PG_FUNCTION_INFO_V1(cuckoofilter_contained);
PG_FUNCTION_INFO_V1(cuckoofilter_count);
PG_FUNCTION_INFO_V1(cuckoofilter_union);
PG_FUNCTION_INFO_V1(cuckoofilter_eq);
PG_FUNCTION_INFO_V1(cuckoofilter_ne);
PG_FUNCTION_INFO_V1(cuckoofilter_lt);
PG_FUNCTION_INFO_V1(cuckoofilter_le);
PG_FUNCTION_INFO_V1(cuckoofilter_gt);
PG_FUNCTION_INFO_V1(cuckoofilter_ge);
PG_FUNCTION_INFO_V1(cuckoofilter_cmp);
PG_FUNCTION_INFO_V1(cuckoofilter_hash);
PG_FUNCTION_INFO_V1(cuckoofilter_hash_extended);
PG_FUNCTION_INFO_V1(cuckoofilter_cardinality);
PG_FUNCTION_INFO_V1(cuckoofilter_fpr);
PG_FUNCTION_INFO_V1(cuckoofilter_info);
PG_FUNCTION_INFO_V1(cuckoofilter_positions);
PG_FUNCTION_INFO_V1(cuckoofilter_subfilters);
PG_FUNCTION_INFO_V1(cuckoofilter_agg_trans);
PG_FUNCTION_INFO_V1(cuckoofilter_agg_final);
PG_FUNCTION_INFO_V1(cuckoofilter_union_trans);

#define CF_TYPNAME			"cuckoofilter"
#define CF_BUCKET_SIZE		4
#define CF_MIN_FPBITS		4
#define CF_MAX_FPBITS		32
/* fingerprint bits cuckoofilter_agg(x) adds to the rate's (CfNewUnsized) */
#define CF_AGG_RESERVE_BITS	4
#define CF_MAX_LEVEL		31
#define CF_MAX_BUCKETS		UINT64CONST(0xFFFFFFFF)
#define CF_MAX_KICKS		500
#define CF_MAX_SUBFILTERS	65536
#define CF_DESIGN_LOAD		0.95
#define CF_LAYOUT_SEMISORTED 1	/* the one bucket encoding: semi-sorted */
#define CF_LAYOUT_NAME		"semisorted"
#define CF_CODE_BITS		12	/* the sorted top nibbles of a bucket */
#define CF_NCODES			3876	/* multisets of 4 nibbles: C(19, 4) */

typedef struct CuckooFilter
{
	BfHeader	hdr;			/* common header, 24 bytes */
	uint8		fpbits;			/* f */
	uint8		bucketsize;		/* b, always 4 */
	uint8		layout;			/* CF_LAYOUT_SEMISORTED */
	uint8		reserved;		/* 0 */
	uint32		nsub;			/* LE: number of sub-filters */
	uint64		count;			/* LE: fingerprints stored */
	uint8		data[FLEXIBLE_ARRAY_MEMBER];	/* the sub-filters */
} CuckooFilter;

typedef struct CfSubHeader
{
	uint8		level;			/* s: N = N0 * 2^s */
	uint8		victim_used;	/* 0 or 1 */
	uint16		reserved;		/* 0 */
	uint32		victim_fp;		/* LE */
	uint32		nbuckets;		/* LE: N */
	uint32		victim_bucket;	/* LE */
	uint64		count;			/* LE: entries in the table + victim */
} CfSubHeader;

#define CF_HDRSZ		offsetof(CuckooFilter, data)
#define CF_SUBHDRSZ		sizeof(CfSubHeader)

StaticAssertDecl(offsetof(CuckooFilter, data) == 40, "cuckoofilter header must be 40 bytes");
StaticAssertDecl(sizeof(CfSubHeader) == 24, "cuckoofilter sub-filter header must be 24 bytes");

/* A decoded sub-filter header and where its parts are in the datum */
typedef struct CfSub
{
	Size		offset;			/* of the sub-filter header in the datum */
	Size		table_off;		/* of the table in the datum */
	Size		size;			/* header plus table bytes */
	int			level;
	uint64		nbuckets;
	bool		victim_used;
	uint32		victim_fp;
	uint64		victim_bucket;
	uint64		count;
} CfSub;

/* Result of inserting into one sub-filter */
typedef enum CfInsertResult
{
	CF_INSERTED,				/* stored (in a bucket or the victim slot) */
	CF_SATURATED,				/* already 2b copies: nothing stored */
	CF_FULL						/* no sub-filter with a free victim slot */
} CfInsertResult;

/* ---------------------------------------------------------------------
 * Sizes and bit-level access
 * ---------------------------------------------------------------------
 */

/* Mask of f fingerprint bits */
static inline uint32
CfFpMask(int f)
{
	return (uint32) ((UINT64CONST(1) << f) - 1);
}

/*
 * Bits of one bucket: the 12-bit code of its 4 top nibbles (sorted) and the
 * 4 low parts of f - 4 bits, 4f - 4 bits in all (semi-sorted buckets)
 */
static inline uint64
CfBucketBits(int f)
{
	return (uint64) CF_BUCKET_SIZE * (uint64) (f - 4) + CF_CODE_BITS;
}

/* Bytes of a table of nbuckets buckets (with 8 padding bytes) */
static inline uint64
CfTableBytes(uint64 nbuckets, int f)
{
	uint64		bits = CfBucketBits(f) * nbuckets;

	return ((bits + 63) / 64) * 8 + 8;
}

/* Bytes of a whole sub-filter */
static inline uint64
CfSubBytes(uint64 nbuckets, int f)
{
	return CF_SUBHDRSZ + CfTableBytes(nbuckets, f);
}

/* Size in bytes (as a double, for limit checks) of a sub-filter of n buckets */
static inline double
CfSubBytesD(double n, int f)
{
	return (double) CF_SUBHDRSZ + ceil((double) CfBucketBits(f) * n / 64.0) * 8.0 + 8.0;
}

/* The fingerprint of a hash: f bits above bit 32, never 0 */
static inline uint32
CfFingerprint(uint64 h, int f)
{
	uint32		fp = (uint32) (h >> 32) & CfFpMask(f);

	return fp == 0 ? 1 : fp;
}

/* The first bucket of low hash bits L among n buckets: (L * n) >> 32 */
static inline uint64
CfIndex(uint64 L, uint64 n)
{
	return ((L & UINT64CONST(0xFFFFFFFF)) * n) >> 32;
}

/*
 * The alternate bucket of a fingerprint stored in bucket i of a sub-filter
 * of level s and n = N0 * 2^s buckets.  Bucket i is q * 2^s + r (q = i >> s
 * < N0, r < 2^s); with m = BfMix64(fp), c = (m * N0) >> 64 and
 * t = the top s bits of m * 0x9E3779B97F4A7C15 (0 when s = 0), the alternate
 * is ((c + N0 - q) mod N0) * 2^s + (r xor t).  Each part is its own
 * inverse, so the alternate of the alternate is i, and dropping the low d
 * bits of both buckets of a pair gives the pair at level s - d (the top
 * s - d bits of the multiplied mix are the top bits of the top s bits), so
 * a fingerprint moves to a smaller sub-filter as bucket i >> d.
 */
static inline uint64
CfAltIndex(uint64 i, uint32 fp, uint64 n, int level)
{
	uint64		m = BfMix64((uint64) fp);
	uint64		n0 = n >> level;
	uint64		t = BfMulHi64(m, n0) + n0 - (i >> level);

	/* c < N0 and q < N0, so 0 < t < 2 N0 */
	if (t >= n0)
		t -= n0;
	if (level == 0)
		return t;
	return (t << level) |
		((i & ((UINT64CONST(1) << level) - 1)) ^ ((m * UINT64CONST(0x9E3779B97F4A7C15)) >> (64 - level)));
}

/* Read the field of up to 32 bits fmask at bit offset bit of p (8 readable bytes there) */
static inline uint32
CfGetEntry(const uint8 *p, uint64 bit, uint32 fmask)
{
	uint64		w;

	memcpy(&w, p + (bit >> 3), 8);
	return (uint32) (BfGet64(w) >> (bit & 7)) & fmask;
}

/* Write the field of up to 32 bits fmask at bit offset bit of p */
static inline void
CfSetEntry(uint8 *p, uint64 bit, uint32 fmask, uint32 v)
{
	uint64		w;
	int			sh = (int) (bit & 7);

	memcpy(&w, p + (bit >> 3), 8);
	w = BfGet64(w);
	w = (w & ~((uint64) fmask << sh)) | ((uint64) v << sh);
	w = BfPut64(w);
	memcpy(p + (bit >> 3), &w, 8);
}

/* The 8 bytes at bit offset bit of p, shifted so the bucket starts at bit 0 */
static pg_attribute_always_inline uint64
CfBucketWord(const uint8 *p, uint64 bit)
{
	uint64		w;

	memcpy(&w, p + (bit >> 3), 8);
	return BfGet64(w) >> (bit & 7);
}

/*
 * Semi-sorted buckets (Fan et al. 2014, section 5.2).  A bucket's 4 entries
 * (0 = empty) are kept in ascending order e0 <= e1 <= e2 <= e3, so their top
 * 4 bits ("nibbles") n0 <= n1 <= n2 <= n3 are a multiset of 4 values of
 * 0..15: one of C(19, 4) = 3876, coded in 12 bits instead of 16 as its
 * colex rank C(n0, 1) + C(n1 + 1, 2) + C(n2 + 2, 3) + C(n3 + 3, 4) (the
 * combination n0 < n1 + 1 < n2 + 2 < n3 + 3 of 0..18).  The bucket stores
 * the code in its bits 0..11 and the low f - 4 bits of e_j at bits
 * 12 + j (f - 4).  CfNibbles decodes a code to n0 | n1 << 4 | n2 << 8 |
 * n3 << 12; CfRank[j][n] = C(n + j, j + 1) encodes.  Codes 3876..4095,
 * which input never accepts, decode to 0, so no stored value reads outside
 * the table.
 */
static uint16 CfNibbles[1 << CF_CODE_BITS];
static uint16 CfRank[CF_BUCKET_SIZE][16];
static bool CfTablesBuilt = false;

static pg_noinline void
CfBuildTables(void)
{
	int			j,
				n,
				a,
				b,
				c,
				d;

	for (j = 0; j < CF_BUCKET_SIZE; j++)
		for (n = 0; n < 16; n++)
		{
			uint32		v = 1;
			int			t;

			/* C(n + j, j + 1), exact at every step */
			for (t = 0; t <= j; t++)
				v = v * (uint32) (n + j - t) / (uint32) (t + 1);
			CfRank[j][n] = (uint16) v;
		}
	memset(CfNibbles, 0, sizeof(CfNibbles));
	for (a = 0; a < 16; a++)
		for (b = a; b < 16; b++)
			for (c = b; c < 16; c++)
				for (d = c; d < 16; d++)
				{
					int			code = CfRank[0][a] + CfRank[1][b] + CfRank[2][c] + CfRank[3][d];

					Assert(code < CF_NCODES && (code == 0 || CfNibbles[code] == 0));
					CfNibbles[code] = (uint16) (a | (b << 4) | (c << 8) | (d << 12));
				}
	CfTablesBuilt = true;
}

/* The nibbles n0 | n1 << 4 | n2 << 8 | n3 << 12 of a bucket's code */
static pg_attribute_always_inline uint32
CfDecodeNibbles(uint32 code)
{
	if (unlikely(!CfTablesBuilt))
		CfBuildTables();
	return CfNibbles[code & ((1 << CF_CODE_BITS) - 1)];
}

/* The code of the nibbles of ascending entries e of f = g + 4 bits */
static pg_attribute_always_inline uint32
CfEncodeNibbles(const uint32 *e, int g)
{
	if (unlikely(!CfTablesBuilt))
		CfBuildTables();
	return (uint32) CfRank[0][e[0] >> g] + CfRank[1][e[1] >> g] +
		CfRank[2][e[2] >> g] + CfRank[3][e[3] >> g];
}

/* Bit offset of bucket i in its table */
static inline uint64
CfBucketBit(uint64 i, int f)
{
	return i * CfBucketBits(f);
}

/*
 * The 4 entries, ascending, of the bucket whose first bit is at bit offset
 * bit of p (8 bytes past its last byte readable).  For f <= 15 the bucket
 * (at most 56 bits) is one 8-byte load.
 */
static pg_attribute_always_inline void
CfBucketDecodeAt(const uint8 *p, uint64 bit, int f, uint32 *e)
{
	int			g = f - 4;
	uint32		gmask = (uint32) ((UINT64CONST(1) << g) - 1);
	uint32		nib;
	int			j;

	if (f <= 15)
	{
		uint64		w = CfBucketWord(p, bit);

		nib = CfDecodeNibbles((uint32) w);
		w >>= CF_CODE_BITS;
		for (j = 0; j < CF_BUCKET_SIZE; j++)
			e[j] = (((nib >> (4 * j)) & 15) << g) | ((uint32) (w >> (j * g)) & gmask);
		return;
	}
	nib = CfDecodeNibbles(CfGetEntry(p, bit, (1 << CF_CODE_BITS) - 1));
	for (j = 0; j < CF_BUCKET_SIZE; j++)
		e[j] = (((nib >> (4 * j)) & 15) << g) |
			CfGetEntry(p, bit + CF_CODE_BITS + (uint64) (j * g), gmask);
}

/* Store the ascending entries e (f bits each) as the bucket at bit offset bit of p */
static pg_attribute_always_inline void
CfBucketEncodeAt(uint8 *p, uint64 bit, int f, const uint32 *e)
{
	int			g = f - 4;
	uint32		gmask = (uint32) ((UINT64CONST(1) << g) - 1);
	uint32		code = CfEncodeNibbles(e, g);
	int			j;

	Assert(e[0] <= e[1] && e[1] <= e[2] && e[2] <= e[3]);
	if (f <= 15)
	{
		uint64		v = code,
					mask = ((UINT64CONST(1) << CfBucketBits(f)) - 1) << (bit & 7),
					w;

		for (j = 0; j < CF_BUCKET_SIZE; j++)
			v |= (uint64) (e[j] & gmask) << (CF_CODE_BITS + j * g);
		memcpy(&w, p + (bit >> 3), 8);
		w = BfGet64(w);
		w = (w & ~mask) | (v << (bit & 7));
		w = BfPut64(w);
		memcpy(p + (bit >> 3), &w, 8);
		return;
	}
	CfSetEntry(p, bit, (1 << CF_CODE_BITS) - 1, code);
	for (j = 0; j < CF_BUCKET_SIZE; j++)
		CfSetEntry(p, bit + CF_CODE_BITS + (uint64) (j * g), gmask, e[j] & gmask);
}

#define CF_CSWAP(x, y) \
	do { uint32 lo_ = Min(x, y), hi_ = Max(x, y); (x) = lo_; (y) = hi_; } while (0)

/* Sort 4 entries ascending (an optimal network of 5 comparators) */
static pg_attribute_always_inline void
CfSort4(uint32 *e)
{
	CF_CSWAP(e[0], e[1]);
	CF_CSWAP(e[2], e[3]);
	CF_CSWAP(e[0], e[2]);
	CF_CSWAP(e[1], e[3]);
	CF_CSWAP(e[1], e[2]);
}

/* The entries of bucket i of a table, ascending */
static pg_attribute_always_inline void
CfBucketGet(const uint8 *table, uint64 i, int f, uint32 *e)
{
	CfBucketDecodeAt(table, CfBucketBit(i, f), f, e);
}

/* Store entries e (any order; sorted here) as bucket i of a table */
static pg_attribute_always_inline void
CfBucketSet(uint8 *table, uint64 i, int f, uint32 *e)
{
	CfSort4(e);
	CfBucketEncodeAt(table, CfBucketBit(i, f), f, e);
}

/* Copies of fp among 4 entries */
static pg_attribute_always_inline int
CfCountIn(const uint32 *e, uint32 fp)
{
	return (e[0] == fp) + (e[1] == fp) + (e[2] == fp) + (e[3] == fp);
}

/*
 * Copies of fp in a bucket of f <= 15 bits loaded by CfBucketWord, for
 * probes: the low parts first, compared all at once (SWAR: adding the
 * low-bits mask to the low g - 1 bits of a g-bit field carries into its top
 * bit exactly when they are not all zero, and never into the next field),
 * so a bucket where no low part matches (most buckets a non-member's probe
 * reads: 4 / 2^g of them match) needs no decoding of its code; else the
 * nibbles the same way.
 */
static pg_attribute_always_inline int
CfWordMatches(uint64 w, int f, uint32 fp)
{
	int			g = f - 4;
	uint32		zl,
				zn,
				x,
				m;

	if (g > 0)
	{
		uint64		lsb = 1 | (UINT64CONST(1) << g) | (UINT64CONST(1) << (2 * g)) |
			(UINT64CONST(1) << (3 * g));
		uint64		all = (UINT64CONST(1) << (4 * g)) - 1;
		uint64		hi = lsb << (g - 1);
		uint64		low = all ^ hi;
		uint64		y = ((w >> CF_CODE_BITS) & all) ^
			((uint64) (fp & ((UINT64CONST(1) << g) - 1)) * lsb);
		uint64		z = ~(((y & low) + low) | y) & hi;

		if (z == 0)
			return 0;
		/* bit j*g + g-1 for entry j, to bit j */
		zl = (uint32) (((z >> (g - 1)) & 1) | ((z >> (2 * g - 2)) & 2) |
					   ((z >> (3 * g - 3)) & 4) | ((z >> (4 * g - 4)) & 8));
	}
	else
		zl = 15;
	x = CfDecodeNibbles((uint32) w) ^ ((fp >> g) * 0x1111);
	zn = ~(((x & 0x7777) + 0x7777) | x) & 0x8888;
	m = zl & (((zn >> 3) & 1) | ((zn >> 6) & 2) | ((zn >> 9) & 4) | ((zn >> 12) & 8));
	return (int) ((m & 1) + ((m >> 1) & 1) + ((m >> 2) & 1) + (m >> 3));
}

/* Copies of fp in the bucket at bit offset bit of p */
static pg_attribute_always_inline int
CfBucketMatchesAt(const uint8 *p, uint64 bit, int f, uint32 fp)
{
	uint32		e[CF_BUCKET_SIZE];

	if (f <= 15)
		return CfWordMatches(CfBucketWord(p, bit), f, fp);
	CfBucketDecodeAt(p, bit, f, e);
	return CfCountIn(e, fp);
}

/*
 * Copies of fp in the buckets i1 and i2 (counted once if equal) of a table,
 * for probes: both loads are issued before either bucket is looked at.
 */
static pg_attribute_always_inline int
CfPairCount(const uint8 *table, uint64 i1, uint64 i2, int f, uint32 fp)
{
	if (f <= 15)
	{
		uint64		w1 = CfBucketWord(table, CfBucketBit(i1, f)),
					w2 = CfBucketWord(table, CfBucketBit(i2, f));

		return CfWordMatches(w1, f, fp) + (i1 != i2 ? CfWordMatches(w2, f, fp) : 0);
	}
	return CfBucketMatchesAt(table, CfBucketBit(i1, f), f, fp) +
		(i1 != i2 ? CfBucketMatchesAt(table, CfBucketBit(i2, f), f, fp) : 0);
}

/*
 * Scan the buckets i1 and i2 (i2 only when it differs) of a table: copies
 * of fp in both, and in *room bit 0 when i1 has a free entry, bit 1 when i2
 * (a different bucket) has one.  Both loads are independent of each other,
 * so their cache misses overlap.
 */
static pg_attribute_always_inline int
CfPairScan(const uint8 *table, uint64 i1, uint64 i2, int f, uint32 fp, uint32 *room)
{
	uint32		e1[CF_BUCKET_SIZE],
				e2[CF_BUCKET_SIZE];
	uint32		same = (uint32) (i1 == i2);
	int			n;

	CfBucketGet(table, i1, f, e1);
	CfBucketGet(table, i2, f, e2);
	n = CfCountIn(e1, fp);
	/* a bucket that is its own alternate counts once */
	n += CfCountIn(e2, fp) & -(int) (same ^ 1);
	/* ascending entries: a free one is first */
	*room = (uint32) (e1[0] == 0) | (((uint32) (e2[0] == 0) & (same ^ 1)) << 1);
	return n;
}

/* xorshift64* step: the deterministic relocation choices */
static inline uint64
CfRandNext(uint64 *state)
{
	uint64		x = *state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * UINT64CONST(0x2545F4914F6CDD1D);
}

/*
 * Generator state for one insertion: derived from the filter's seed, the
 * sub-filter's count, the bucket and the fingerprint, so the same inserts
 * in the same order give the same bytes.
 */
static inline uint64
CfRandInit(uint64 seed, uint64 subcount, uint64 i, uint32 fp)
{
	uint64		s = BfMix64(seed ^ BfMix64(((uint64) fp << 32) ^ i) ^
							(subcount * UINT64CONST(0x9E3779B97F4A7C15)));

	return s ? s : UINT64CONST(0x9E3779B97F4A7C15);
}

/* ---------------------------------------------------------------------
 * Header access and checks
 * ---------------------------------------------------------------------
 */

/* Describe a filter's parameters for error messages */
static char *
CfParamString(const CuckooFilter *cf)
{
	const CfSubHeader *sh = (const CfSubHeader *) cf->data;

	return psprintf("buckets=%u, f=%d, b=%d, seed=" INT64_FORMAT,
					BfGet32(sh->nbuckets), cf->fpbits, cf->bucketsize,
					(int64) BfGet64(cf->hdr.seed));
}

/*
 * Decode and check the sub-filter header at offset off of a datum of total
 * bytes, whose fingerprints have f bits.  *n0 is the chain's base bucket
 * count, 0 before the first sub-filter (which sets it and must have level 0).
 */
static void
CfDecodeSub(const CfSubHeader *sh, Size off, Size total, int f, uint64 *n0, CfSub *s)
{
	uint64		size,
				n = BfGet32(sh->nbuckets);

	if (sh->level > CF_MAX_LEVEL)
		BfCorrupt(CF_TYPNAME, "Sub-filter at byte %zu has level %u, more than %d.",
				  off, sh->level, CF_MAX_LEVEL);
	if (n == 0)
		BfCorrupt(CF_TYPNAME, "Sub-filter at byte %zu has no buckets.", off);
	if (*n0 == 0)
	{
		if (sh->level != 0)
			BfCorrupt(CF_TYPNAME, "The first sub-filter has level %u, not 0.", sh->level);
		*n0 = n;
	}
	else if (n != (*n0 << sh->level))
		BfCorrupt(CF_TYPNAME, "Sub-filter at byte %zu has " UINT64_FORMAT " buckets, not " UINT64_FORMAT " * 2^%u.",
				  off, n, *n0, sh->level);
	size = CfSubBytes(n, f);
	if (size > total || off > total - size)
		BfCorrupt(CF_TYPNAME, "Sub-filter at byte %zu needs " UINT64_FORMAT " bytes, past the end of the %zu-byte value.",
				  off, size, total);
	if (sh->reserved != 0)
		BfCorrupt(CF_TYPNAME, "Sub-filter at byte %zu has a non-zero reserved field.", off);
	s->offset = off;
	s->table_off = off + CF_SUBHDRSZ;
	s->size = (Size) size;
	s->level = sh->level;
	s->nbuckets = n;
	s->victim_fp = BfGet32(sh->victim_fp);
	s->victim_bucket = BfGet32(sh->victim_bucket);
	s->count = BfGet64(sh->count);
	if (sh->victim_used > 1)
		BfCorrupt(CF_TYPNAME, "Sub-filter at byte %zu has victim flag %u, not 0 or 1.", off, sh->victim_used);
	s->victim_used = sh->victim_used != 0;
	if (s->victim_used)
	{
		if (s->victim_fp == 0 || s->victim_fp > CfFpMask(f))
			BfCorrupt(CF_TYPNAME, "Sub-filter at byte %zu has victim fingerprint %u outside 1..%u.",
					  off, s->victim_fp, CfFpMask(f));
		if (s->victim_bucket >= s->nbuckets)
			BfCorrupt(CF_TYPNAME, "Sub-filter at byte %zu has victim bucket " UINT64_FORMAT " of " UINT64_FORMAT ".",
					  off, s->victim_bucket, s->nbuckets);
	}
	else if (s->victim_fp != 0 || s->victim_bucket != 0)
		BfCorrupt(CF_TYPNAME, "Sub-filter at byte %zu has an unused victim slot that is not zero.", off);
	if (s->count > s->nbuckets * CF_BUCKET_SIZE + (s->victim_used ? 1 : 0) ||
		s->count < (s->victim_used ? 1 : 0))
		BfCorrupt(CF_TYPNAME, "Sub-filter at byte %zu has count " UINT64_FORMAT ", impossible for its size.",
				  off, s->count);
}

/*
 * Cheap structural check run on every datum a function receives: header,
 * parameters, the chain of sub-filter headers, sizes and counts.  Input
 * functions add the full check of every entry (CfValidate).
 */
static void
CfCheck(const void *cf_arg, Size size)
{
	const CuckooFilter *cf = cf_arg;
	uint32		nsub,
				k;
	int			f;
	Size		off;
	uint64		total = 0,
				n0 = 0;

	BfValidateHeader(CF_TYPNAME, (const struct varlena *) cf, BF_KIND_CUCKOOFILTER, CF_HDRSZ);
	f = cf->fpbits;
	if (f < CF_MIN_FPBITS || f > CF_MAX_FPBITS)
		BfCorrupt(CF_TYPNAME, "Fingerprint bits f = %d is outside %d..%d.", f, CF_MIN_FPBITS, CF_MAX_FPBITS);
	if (cf->bucketsize != CF_BUCKET_SIZE)
		BfCorrupt(CF_TYPNAME, "Bucket size b = %u is not %d.", cf->bucketsize, CF_BUCKET_SIZE);
	if (cf->layout != CF_LAYOUT_SEMISORTED)
		BfCorrupt(CF_TYPNAME, "Bucket layout %u is not %d (semi-sorted).", cf->layout, CF_LAYOUT_SEMISORTED);
	if (cf->reserved != 0)
		BfCorrupt(CF_TYPNAME, "The reserved header field is not zero.");
	nsub = BfGet32(cf->nsub);
	if (nsub < 1 || nsub > CF_MAX_SUBFILTERS)
		BfCorrupt(CF_TYPNAME, "The number of sub-filters %u is outside 1..%d.", nsub, CF_MAX_SUBFILTERS);
	off = CF_HDRSZ;
	for (k = 0; k < nsub; k++)
	{
		CfSub		s;

		if (off > size || size - off < CF_SUBHDRSZ)
			BfCorrupt(CF_TYPNAME, "The value ends inside sub-filter %u of %u.", k + 1, nsub);
		CfDecodeSub((const CfSubHeader *) ((const char *) cf + off), off, size, f, &n0, &s);
		total += s.count;
		off += s.size;
	}
	if (off != size)
		BfCorrupt(CF_TYPNAME, "The value is %zu bytes long, but its sub-filters end at byte %zu.", size, off);
	if (total != BfGet64(cf->count))
		BfCorrupt(CF_TYPNAME, "The header count " UINT64_FORMAT " is not the sum " UINT64_FORMAT " of the sub-filter counts.",
				  BfGet64(cf->count), total);
}

/*
 * Decode the sub-filter at offset off of a filter that CfCheck accepted
 * (no checks again: this runs once per sub-filter and element)
 */
static inline void
CfSubAt(const CuckooFilter *cf, Size off, CfSub *s)
{
	const CfSubHeader *sh = (const CfSubHeader *) ((const char *) cf + off);

	s->offset = off;
	s->table_off = off + CF_SUBHDRSZ;
	s->level = sh->level;
	s->nbuckets = BfGet32(sh->nbuckets);
	s->size = (Size) CfSubBytes(s->nbuckets, cf->fpbits);
	s->victim_used = sh->victim_used != 0;
	s->victim_fp = BfGet32(sh->victim_fp);
	s->victim_bucket = BfGet32(sh->victim_bucket);
	s->count = BfGet64(sh->count);
}

/* Full check of a value from outside: structure plus every entry */
static void
CfValidate(const void *cf_arg)
{
	const CuckooFilter *cf = cf_arg;
	Size		size = VARSIZE(cf);
	uint32		nsub,
				k;
	int			f;
	Size		off;

	CfCheck(cf, size);
	f = cf->fpbits;
	nsub = BfGet32(cf->nsub);
	off = CF_HDRSZ;
	for (k = 0; k < nsub; k++)
	{
		CfSub		s;
		const uint8 *table;
		uint64		i,
					used = 0,
					bits,
					t;

		CfSubAt(cf, off, &s);
		table = (const uint8 *) cf + s.table_off;
		for (i = 0; i < s.nbuckets; i++)
		{
			uint64		bit = CfBucketBit(i, f);
			uint32		code = CfGetEntry(table, bit, (1 << CF_CODE_BITS) - 1);
			uint32		e[CF_BUCKET_SIZE];
			int			j;

			if ((i & 0xFFFF) == 0xFFFF)
				CHECK_FOR_INTERRUPTS();
			/* a code of a multiset of nibbles, low parts ascending within equal nibbles */
			if (code >= CF_NCODES)
				BfCorrupt(CF_TYPNAME, "Sub-filter %u, bucket " UINT64_FORMAT ": nibble code %u is not below %d.",
						  k + 1, i, code, CF_NCODES);
			CfBucketDecodeAt(table, bit, f, e);
			for (j = 0; j < CF_BUCKET_SIZE; j++)
			{
				if (j > 0 && e[j - 1] > e[j])
					BfCorrupt(CF_TYPNAME, "Sub-filter %u, bucket " UINT64_FORMAT ": entries are not in ascending order.",
							  k + 1, i);
				used += (e[j] != 0);
			}
		}
		if (used + (s.victim_used ? 1 : 0) != s.count)
			BfCorrupt(CF_TYPNAME, "Sub-filter %u holds " UINT64_FORMAT " fingerprints%s, but its count is " UINT64_FORMAT ".",
					  k + 1, used, s.victim_used ? " plus a victim" : "", s.count);
		/* padding bits after the last bucket are zero */
		bits = s.nbuckets * CfBucketBits(f);
		for (t = bits; t < (bits + 7) / 8 * 8; t++)
			if (table[t >> 3] & (1 << (t & 7)))
				BfCorrupt(CF_TYPNAME, "Sub-filter %u has a padding bit set after its last entry.", k + 1);
		for (t = (bits + 7) / 8; t < CfTableBytes(s.nbuckets, f); t++)
			if (table[t] != 0)
				BfCorrupt(CF_TYPNAME, "Sub-filter %u has a padding byte that is not zero.", k + 1);
		off += s.size;
	}
}

/* Raise 22023 for bad explicit parameters */
static void
CfCheckParams(int64 buckets, int64 f)
{
	if (buckets < 1 || buckets > (int64) CF_MAX_BUCKETS)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("number of buckets must be between 1 and " UINT64_FORMAT, CF_MAX_BUCKETS),
				 errdetail("buckets = " INT64_FORMAT " was given.", buckets),
				 errhint("Use cuckoofilter_empty(capacity, fpr) to have the size computed.")));
	if (f < CF_MIN_FPBITS || f > CF_MAX_FPBITS)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("fingerprint bits must be between %d and %d", CF_MIN_FPBITS, CF_MAX_FPBITS),
				 errdetail("fingerprint_bits = " INT64_FORMAT " was given.", f),
				 errhint("Use cuckoofilter_empty(capacity, fpr) to have the size computed.")));
}

/* The base bucket count N0 of a filter: its first sub-filter's */
static inline uint64
CfN0(const CuckooFilter *cf)
{
	return BfGet32(((const CfSubHeader *) cf->data)->nbuckets);
}

/* A new empty filter of one sub-filter (level 0) of nbuckets buckets */
static CuckooFilter *
CfNew(uint64 nbuckets, int f, uint64 seed)
{
	double		dsize = (double) CF_HDRSZ + CfSubBytesD((double) nbuckets, f);
	Size		size;
	CuckooFilter *cf;
	CfSubHeader *sh;

	BfCheckSize(CF_TYPNAME, dsize);
	Assert(nbuckets >= 1 && nbuckets <= CF_MAX_BUCKETS);
	size = CF_HDRSZ + (Size) CfSubBytes(nbuckets, f);
	cf = palloc0(size);
	BfInitHeader(&cf->hdr, size, BF_KIND_CUCKOOFILTER, seed);
	cf->fpbits = (uint8) f;
	cf->bucketsize = CF_BUCKET_SIZE;
	cf->layout = CF_LAYOUT_SEMISORTED;
	cf->nsub = BfPut32(1);
	sh = (CfSubHeader *) cf->data;
	sh->level = 0;
	sh->nbuckets = BfPut32((uint32) nbuckets);
	return cf;
}

/*
 * Fingerprint bits and base bucket count for capacity elements at fpr:
 * f = ceil(log2(2b / fpr)) clamped to 4..32, and the smallest N0 >= 1 with
 * capacity <= 0.95 * b * N0.
 */
static void
CfSizeFor(int64 capacity, double fpr, uint64 *pn0, int *f)
{
	double		df,
				dn;

	BfCheckCapacityFpr(capacity, fpr);
	df = ceil(log2(2.0 * CF_BUCKET_SIZE / fpr) - 1e-9);
	if (df < CF_MIN_FPBITS)
		df = CF_MIN_FPBITS;
	if (df > CF_MAX_FPBITS)
		df = CF_MAX_FPBITS;
	dn = ceil((double) capacity / (CF_DESIGN_LOAD * CF_BUCKET_SIZE));
	if (dn < 1.0)
		dn = 1.0;
	*f = (int) df;
	/* 2^32 buckets of 4-bit entries are already over the limit */
	BfCheckSize(CF_TYPNAME, (double) CF_HDRSZ + CfSubBytesD(dn, *f));
	*pn0 = (uint64) dn;
}

/*
 * cf with one more, empty, sub-filter of level level (N0 * 2^level buckets)
 * appended: a copy palloc'd in the current context (cf is left as it is),
 * or, with inplace, cf itself resized (repalloc: the caller owns it alone
 * and takes the result in its place; a large chunk then grows without a
 * copy).  54000 when the result would be over the size or sub-filter limit.
 */
static CuckooFilter *
CfAppendSub(CuckooFilter *cf, int level, bool inplace)
{
	Size		oldsize = VARSIZE(cf);
	uint32		nsub = BfGet32(cf->nsub);
	double		dn = ldexp((double) CfN0(cf), level);
	double		dsize = (double) oldsize + CfSubBytesD(dn, cf->fpbits);
	CuckooFilter *r;
	CfSubHeader *sh;

	if (nsub >= CF_MAX_SUBFILTERS)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("cuckoofilter cannot chain more than %d sub-filters", CF_MAX_SUBFILTERS),
				 errhint("Build the filter with a larger capacity.")));
	BfCheckSize(CF_TYPNAME, dsize);
	/* the size limit keeps every bucket count far below 2^32 */
	Assert(level <= CF_MAX_LEVEL && dn <= (double) CF_MAX_BUCKETS);
	if (inplace)
		r = repalloc(cf, (Size) dsize);
	else
	{
		r = palloc((Size) dsize);
		memcpy(r, cf, oldsize);
	}
	memset((char *) r + oldsize, 0, (Size) dsize - oldsize);
	SET_VARSIZE(r, (Size) dsize);
	r->nsub = BfPut32(nsub + 1);
	sh = (CfSubHeader *) ((char *) r + oldsize);
	sh->level = (uint8) level;
	sh->nbuckets = BfPut32((uint32) dn);
	return r;
}

/* ---------------------------------------------------------------------
 * Insertion, lookup and deletion in one sub-filter
 * ---------------------------------------------------------------------
 */

/*
 * Number of copies of fp in the buckets i1, i2 (counted once if equal)
 * and the victim slot of sub-filter s of a filter whose bytes start at base.
 */
static pg_attribute_always_inline int
CfSubPairCount(const char *base, const CfSub *s, int f, uint64 i1, uint64 i2, uint32 fp)
{
	const uint8 *table = (const uint8 *) base + s->table_off;
	int			n = CfPairCount(table, i1, i2, f, fp);

	if (s->victim_used && s->victim_fp == fp &&
		(s->victim_bucket == i1 || s->victim_bucket == i2))
		n++;
	return n;
}

/* The most copies a pair of buckets holds before it saturates */
static inline int
CfSaturation(uint64 i1, uint64 i2)
{
	return i1 == i2 ? CF_BUCKET_SIZE : 2 * CF_BUCKET_SIZE;
}

/* Put fp into bucket i, if it has a free entry */
static pg_attribute_always_inline bool
CfBucketPut(uint8 *table, uint64 i, int f, uint32 fp)
{
	uint32		e[CF_BUCKET_SIZE];

	CfBucketGet(table, i, f, e);
	/* ascending entries: a free one is first */
	if (e[0] != 0)
		return false;
	/* e[1..3] are sorted: one pass puts fp in its place */
	e[0] = fp;
	CF_CSWAP(e[0], e[1]);
	CF_CSWAP(e[1], e[2]);
	CF_CSWAP(e[2], e[3]);
	CfBucketEncodeAt(table, CfBucketBit(i, f), f, e);
	return true;
}

/* Write the decoded victim and count fields back into a sub-filter header */
static void
CfSubStore(CuckooFilter *cf, const CfSub *s)
{
	CfSubHeader *sh = (CfSubHeader *) ((char *) cf + s->offset);

	sh->victim_used = s->victim_used ? 1 : 0;
	sh->victim_fp = BfPut32(s->victim_fp);
	sh->victim_bucket = BfPut32((uint32) s->victim_bucket);
	sh->count = BfPut64(s->count);
}

/*
 * Store fp, which belongs to bucket i (or its alternate), in sub-filter s,
 * whose victim slot must be free: into a free entry of one of its two
 * buckets, else by at most CF_MAX_KICKS relocation steps (each looks one
 * move ahead before it swaps at random), else into the victim slot.  Always
 * succeeds.  Updates s and its stored header.  pair_full says
 * the caller already found both buckets full (and skips looking again).
 */
static void
CfSubInsert(CuckooFilter *cf, CfSub *s, uint64 i, uint32 fp, bool pair_full)
{
	int			f = cf->fpbits;
	uint8	   *table = (uint8 *) cf + s->table_off;
	uint64		i2 = CfAltIndex(i, fp, s->nbuckets, s->level);
	uint64		rng,
				cur;
	uint32		curfp = fp;
	int			kick;

	Assert(!s->victim_used);
	s->count++;
	if (!pair_full && (CfBucketPut(table, i, f, fp) || CfBucketPut(table, i2, f, fp)))
	{
		CfSubStore(cf, s);
		return;
	}
	rng = CfRandInit(BfGet64(cf->hdr.seed), s->count, i, fp);
	cur = (CfRandNext(&rng) >> 63) ? i2 : i;
	for (kick = 0; kick < CF_MAX_KICKS; kick++)
	{
		uint32		e[CF_BUCKET_SIZE],
					out;
		uint64		alt[CF_BUCKET_SIZE];
		int			j;

		/*
		 * The current bucket is full.  Look one move ahead: the first entry
		 * (ascending) whose alternate is another bucket with a free entry
		 * moves there and the carried fingerprint takes its place.  The
		 * alternates' loads are independent, so their misses overlap.
		 */
		CfBucketGet(table, cur, f, e);
		for (j = 0; j < CF_BUCKET_SIZE; j++)
		{
			alt[j] = CfAltIndex(cur, e[j], s->nbuckets, s->level);
			__builtin_prefetch(table + (CfBucketBit(alt[j], f) >> 3));
		}
		for (j = 0; j < CF_BUCKET_SIZE; j++)
		{
			if (alt[j] != cur && CfBucketPut(table, alt[j], f, e[j]))
			{
				e[j] = curfp;
				CfBucketSet(table, cur, f, e);
				CfSubStore(cf, s);
				return;
			}
		}
		/* else swap with entry j, in ascending order, and carry it on */
		j = (int) (CfRandNext(&rng) >> 62);
		out = e[j];
		e[j] = curfp;
		CfBucketSet(table, cur, f, e);
		curfp = out;
		cur = alt[j];
	}
	s->victim_used = true;
	s->victim_fp = curfp;
	s->victim_bucket = cur;
	CfSubStore(cf, s);
}

/*
 * After a fingerprint left sub-filter s: move its victim, if any, back
 * into the table (or into the victim slot again).
 */
static void
CfSubReplaceVictim(CuckooFilter *cf, CfSub *s)
{
	uint64		vb;
	uint32		vfp;

	if (!s->victim_used)
		return;
	vb = s->victim_bucket;
	vfp = s->victim_fp;
	s->victim_used = false;
	s->victim_fp = 0;
	s->victim_bucket = 0;
	s->count--;
	CfSubInsert(cf, s, vb, vfp, false);
}

/* growlevel value asking CfChainInsert for twice the largest sub-filter */
#define CF_GROW_DOUBLE	(-2)

/* fromlevel value saying that CfChainInsert's i is the hash's low 32 bits */
#define CF_FROM_HASH	(-1)

static int	CfMaxLevel(const CuckooFilter *cf);

/*
 * The bucket in sub-filter s of a fingerprint given to CfChainInsert as i
 * (the hash's low 32 bits, or a bucket at level fromlevel >= s->level)
 */
static inline uint64
CfBucketIn(const CfSub *s, uint64 i, int fromlevel)
{
	if (fromlevel == CF_FROM_HASH)
		return CfIndex(i, s->nbuckets);
	return i >> (fromlevel - s->level);
}

/*
 * Where CfChainInsert starts looking for the first eligible sub-filter in a
 * run of inserts of one fromlevel (a union's inserts from one sub-filter of
 * the other filter): sub-filter k, at byte offset off.  The ones before it
 * are not eligible (too large for the level, or their victim slot in use)
 * and stay so (nothing frees a victim slot during a union, and chained
 * sub-filters come last), so a union's inserts do not decode every full
 * sub-filter's header again (a cache miss each): for 120 inputs chained into
 * 24 sub-filters, that walk was most of the union's time.  Start at {0,
 * CF_HDRSZ}; set it back there when fromlevel changes.
 */
typedef struct CfChainHint
{
	uint32		k;
	Size		off;
} CfChainHint;

/*
 * Store a fingerprint in the chain.  With fromlevel = CF_FROM_HASH, i is the
 * low 32 bits L of the element's hash and its first bucket in a sub-filter
 * of N buckets is (L * N) >> 32; otherwise i is a bucket of a sub-filter of
 * level fromlevel, it is bucket i >> (fromlevel - s) at level s, and only
 * sub-filters of level s <= fromlevel may take it.  The first such sub-filter with a free victim slot takes it
 * (into its first bucket if it has a free entry, else its second, else by
 * relocation), unless its pair already holds 2b copies: then nothing is
 * stored (CF_SATURATED; full sub-filters are not looked at, so an element
 * can have up to 2b copies in each sub-filter).  Without such a sub-filter, a
 * sub-filter of level growlevel is chained when growlevel >= 0 (twice the
 * largest, or as large at the limits, for CF_GROW_DOUBLE) and *pcf
 * replaced (resized in place with inplace: CfAppendSub), else CF_FULL is
 * returned with the filter unchanged.
 */
static CfInsertResult
CfChainInsert(CuckooFilter **pcf, uint64 i, uint32 fp, int fromlevel, int growlevel,
			  bool inplace, CfChainHint *hint)
{
	CuckooFilter *cf = *pcf;
	uint32		nsub = BfGet32(cf->nsub),
				k = 0;
	Size		off = CF_HDRSZ;
	bool		have_target = false;
	CfSub		target = {0};
	uint64		target_bucket = 0;
	bool		target_free = false;
	int			f = cf->fpbits;

	/* sub-filters before the hint are not eligible (see CfChainHint) */
	if (hint != NULL)
	{
		k = hint->k;
		off = hint->off;
	}
	/* the first eligible sub-filter whose victim slot is free */
	for (; k < nsub; k++)
	{
		CfSub		s;

		CfSubAt(cf, off, &s);
		if ((fromlevel == CF_FROM_HASH || s.level <= fromlevel) && !s.victim_used)
		{
			target = s;
			have_target = true;
			if (hint != NULL)
			{
				hint->k = k;
				hint->off = off;
			}
			break;
		}
		off += s.size;
	}
	if (have_target)
	{
		uint64		i1 = CfBucketIn(&target, i, fromlevel),
					i2 = CfAltIndex(i1, fp, target.nbuckets, target.level);
		uint32		room;
		int			n = CfPairScan((const uint8 *) cf + target.table_off, i1, i2, f, fp, &room);

		/* 2b copies of this pair here already: saturated, store nothing */
		if (n >= CfSaturation(i1, i2))
			return CF_SATURATED;
		/* i1 if it has a free entry, else i2 */
		if (room != 0)
		{
			target_bucket = (room & 1) ? i1 : i2;
			target_free = true;
		}
	}
	if (!have_target)
	{
		/* the loop went through the whole chain: off is its end */
		if (growlevel == CF_GROW_DOUBLE)
		{
			int			m = CfMaxLevel(cf);

			growlevel = m;
			if (m < CF_MAX_LEVEL &&
				(double) VARSIZE(cf) + CfSubBytesD(ldexp((double) CfN0(cf), m + 1), f) <= (double) BF_MAX_DATUM_SIZE)
				growlevel = m + 1;
		}
		if (growlevel < 0)
			return CF_FULL;
		cf = CfAppendSub(cf, growlevel, inplace);
		*pcf = cf;
		CfSubAt(cf, off, &target);
	}
	if (target_free)
	{
		bool		put PG_USED_FOR_ASSERTS_ONLY =
			CfBucketPut((uint8 *) cf + target.table_off, target_bucket, f, fp);

		Assert(put);
		target.count++;
		CfSubStore(cf, &target);
	}
	else
		CfSubInsert(cf, &target, CfBucketIn(&target, i, fromlevel), fp, have_target);
	cf->count = BfPut64(BfGet64(cf->count) + 1);
	return CF_INSERTED;
}

/* Largest level in the chain */
static int
CfMaxLevel(const CuckooFilter *cf)
{
	uint32		nsub = BfGet32(cf->nsub),
				k;
	Size		off = CF_HDRSZ;
	int			m = 0;

	for (k = 0; k < nsub; k++)
	{
		CfSub		s;

		CfSubAt(cf, off, &s);
		off += s.size;
		m = Max(m, s.level);
	}
	return m;
}

/*
 * Add an element of hash h.  With grow, a full filter chains a sub-filter
 * twice as large as its largest (or as large, at the size limits);
 * without, a full filter raises 54000 and is left unchanged.
 */
static void
CfAddHash(CuckooFilter **pcf, uint64 h, bool grow)
{
	CuckooFilter *cf = *pcf;
	CfInsertResult r;

	/*
	 * The common case, a first sub-filter with a free victim slot (it takes
	 * every insert, see CfChainInsert), inline: one hash mix for the
	 * alternate bucket, and only the counts of the headers written.  A free
	 * entry in i1 takes the fingerprint without a look at i2: with one, the
	 * pair holds at most 2b - 1 copies of fp (b - 1 when i1 = i2), so it
	 * cannot be saturated, and i1 is where a scan of the pair would put it
	 * too.  At the loads aggregates run at that is most
	 * inserts, and it saves the second cache miss; i2 is prefetched for the
	 * others.
	 */
	{
		CfSubHeader *sh = (CfSubHeader *) cf->data;

		if (likely(!sh->victim_used))
		{
			int			f = cf->fpbits;
			uint32		fp = CfFingerprint(h, f);
			uint64		n = BfGet32(sh->nbuckets);
			uint64		i1 = CfIndex(h, n);
			uint64		i2 = CfAltIndex(i1, fp, n, sh->level);
			uint8	   *table = (uint8 *) cf->data + CF_SUBHDRSZ;
			uint32		room;

			__builtin_prefetch(table + (CfBucketBit(i2, f) >> 3), 1);
			if (likely(CfBucketPut(table, i1, f, fp)))
			{
				sh->count = BfPut64(BfGet64(sh->count) + 1);
				cf->count = BfPut64(BfGet64(cf->count) + 1);
			}
			/* i1 is full; 2b copies of this pair already: saturated, store nothing */
			else if (CfPairScan(table, i1, i2, f, fp, &room) < CfSaturation(i1, i2))
			{
				if (likely(room != 0))
				{
					/* i1 is full, so the free entry is in i2 */
					(void) CfBucketPut(table, i2, f, fp);
					sh->count = BfPut64(BfGet64(sh->count) + 1);
				}
				else
				{
					CfSub		s;

					CfSubAt(cf, CF_HDRSZ, &s);
					CfSubInsert(cf, &s, i1, fp, true);
				}
				cf->count = BfPut64(BfGet64(cf->count) + 1);
			}
			cf->hdr.ninserts = BfPut64(BfAddSat64(BfGet64(cf->hdr.ninserts), 1));
			return;
		}
	}

	r = CfChainInsert(pcf, h & UINT64CONST(0xFFFFFFFF), CfFingerprint(h, cf->fpbits), CF_FROM_HASH,
					  grow ? CF_GROW_DOUBLE : -1, false, NULL);
	if (r == CF_FULL)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("cuckoo filter is full"),
				 errdetail("It holds " UINT64_FORMAT " fingerprints in %u sub-filter(s) and no relocation path within %d moves was found.",
						   BfGet64(cf->count), BfGet32(cf->nsub), CF_MAX_KICKS),
				 errhint("Create the filter with a larger capacity, or build it with cuckoofilter_agg or the | operator, which chain a new sub-filter when the filter is full.")));
	cf = *pcf;
	cf->hdr.ninserts = BfPut64(BfAddSat64(BfGet64(cf->hdr.ninserts), 1));
}

/*
 * Remove one copy of the element of hash h: from the largest sub-filter
 * holding a matching fingerprint (so a copy that belongs to a colliding
 * element in a smaller sub-filter stays), preferring its victim slot.
 * A saturated pair (2b copies) is never decremented.  Returns whether a
 * fingerprint was removed.
 */
static bool
CfRemoveHash(CuckooFilter *cf, uint64 h)
{
	int			f = cf->fpbits;
	uint32		fp = CfFingerprint(h, f);
	uint32		nsub = BfGet32(cf->nsub),
				k;
	Size		off = CF_HDRSZ;
	bool		found = false;
	CfSub		best = {0};
	int			bestn = 0;
	uint64		i1,
				i2;
	uint8	   *table;
	int			b,
				j;

	for (k = 0; k < nsub; k++)
	{
		CfSub		s;
		int			n;

		CfSubAt(cf, off, &s);
		off += s.size;
		i1 = CfIndex(h, s.nbuckets);
		i2 = CfAltIndex(i1, fp, s.nbuckets, s.level);
		n = CfSubPairCount((const char *) cf, &s, f, i1, i2, fp);
		if (n > 0 && (!found || s.level > best.level))
		{
			best = s;
			bestn = n;
			found = true;
		}
	}
	if (!found)
		return false;
	i1 = CfIndex(h, best.nbuckets);
	i2 = CfAltIndex(i1, fp, best.nbuckets, best.level);
	if (bestn >= CfSaturation(i1, i2))
		return false;
	if (best.victim_used && best.victim_fp == fp &&
		(best.victim_bucket == i1 || best.victim_bucket == i2))
	{
		best.victim_used = false;
		best.victim_fp = 0;
		best.victim_bucket = 0;
		best.count--;
		CfSubStore(cf, &best);
		cf->count = BfPut64(BfGet64(cf->count) - 1);
		return true;
	}
	table = (uint8 *) cf + best.table_off;
	for (b = 0; b < 2; b++)
	{
		uint64		bi = b == 0 ? i1 : i2;

		uint32		e[CF_BUCKET_SIZE];

		CfBucketGet(table, bi, f, e);
		for (j = 0; j < CF_BUCKET_SIZE; j++)
		{
			if (e[j] == fp)
			{
				e[j] = 0;
				CfBucketSet(table, bi, f, e);
				best.count--;
				CfSubStore(cf, &best);
				cf->count = BfPut64(BfGet64(cf->count) - 1);
				CfSubReplaceVictim(cf, &best);
				return true;
			}
		}
	}
	/* the pair count said there is a copy */
	elog(ERROR, "cuckoofilter copy not found during removal");
	return false;
}

/* ---------------------------------------------------------------------
 * Probing (also through TOAST slices)
 * ---------------------------------------------------------------------
 */

/*
 * Copies of the element of hash h in an opened filter; with stop_at_one,
 * returns as soon as one is found.
 */
static uint64
CfProbeRef(BfFilterRef *ref, uint64 h, bool stop_at_one)
{
	const CuckooFilter *head = (const CuckooFilter *) BfRefHead(ref);
	int			f = head->fpbits;
	uint32		fp = CfFingerprint(h, f);
	uint32		nsub = BfGet32(head->nsub),
				k;
	Size		off = CF_HDRSZ;
	uint64		total = 0,
				n0 = 0;

	for (k = 0; k < nsub; k++)
	{
		CfSub		s;
		uint64		i1,
					i2;
		int			n;

		/* every sub-filter header is checked as it is reached */
		if (ref->full)
		{
			if (off > ref->total || ref->total - off < CF_SUBHDRSZ)
				BfCorrupt(CF_TYPNAME, "The value ends inside sub-filter %u of %u.", k + 1, nsub);
			CfDecodeSub((const CfSubHeader *) ((const char *) ref->full + off), off, ref->total, f, &n0, &s);
		}
		else
		{
			CfSubHeader sh;

			BfRefReadBytes(ref, off, CF_SUBHDRSZ, &sh);
			CfDecodeSub(&sh, off, ref->total, f, &n0, &s);
		}
		off += s.size;
		i1 = CfIndex(h, s.nbuckets);
		i2 = CfAltIndex(i1, fp, s.nbuckets, s.level);
		if (ref->full)
			n = CfSubPairCount((const char *) ref->full, &s, f, i1, i2, fp);
		else
		{
			uint8		buf[32];
			int			b;

			n = 0;
			for (b = 0; b < (i1 == i2 ? 1 : 2); b++)
			{
				uint64		bit = CfBucketBit(b == 0 ? i1 : i2, f);

				/* the bucket's bytes and the 8 after them (at most 17 + 8) */
				BfRefReadBytes(ref, s.table_off + (Size) (bit >> 3),
							   (Size) (((bit & 7) + CfBucketBits(f) + 7) >> 3) + 8, buf);
				n += CfBucketMatchesAt(buf, bit & 7, f, fp);
			}
			if (s.victim_used && s.victim_fp == fp &&
				(s.victim_bucket == i1 || s.victim_bucket == i2))
				n++;
		}
		total += n;
		if (stop_at_one && total > 0)
			return total;
	}
	if (off != ref->total)
		BfCorrupt(CF_TYPNAME, "The value is %zu bytes long, but its sub-filters end at byte %zu.", ref->total, off);
	return total;
}

/* Open the filter argument fargno and count the element argument eargno */
static uint64
CfProbe(FunctionCallInfo fcinfo, int fargno, int eargno, bool stop_at_one)
{
	BfFilterRef ref;
	const CuckooFilter *head;
	BfHasher   *h = BfGetHasher(fcinfo, eargno);

	BfOpenFilter(fcinfo, fargno, CF_HDRSZ, &ref);
	head = (const CuckooFilter *) BfRefHead(&ref);
	/* the header here, each sub-filter header as the probe reaches it */
	BfValidateHeader(CF_TYPNAME, (const struct varlena *) head, BF_KIND_CUCKOOFILTER, CF_HDRSZ);
	if (head->fpbits < CF_MIN_FPBITS || head->fpbits > CF_MAX_FPBITS ||
		head->bucketsize != CF_BUCKET_SIZE || head->layout != CF_LAYOUT_SEMISORTED || head->reserved != 0 ||
		BfGet32(head->nsub) < 1 || BfGet32(head->nsub) > CF_MAX_SUBFILTERS)
		BfCorrupt(CF_TYPNAME, "The header's parameters are out of range.");
	/* the common case, one sub-filter in memory: only the bounds matter here */
	if (ref.full && BfGet32(head->nsub) == 1)
	{
		const CfSubHeader *sh = (const CfSubHeader *) head->data;
		int			f = head->fpbits;

		uint64		nb = BfGet32(sh->nbuckets);

		if (nb >= 1 && sh->level == 0 &&
			ref.total == CF_HDRSZ + CfSubBytes(nb, f))
		{
			uint64		hv = BfHashDatumFast(h, PG_GETARG_DATUM(eargno), BfGet64(head->hdr.seed));
			uint32		fp = CfFingerprint(hv, f);
			uint64		i1 = CfIndex(hv, nb);
			uint64		i2 = CfAltIndex(i1, fp, nb, 0);
			int			n = CfPairCount((const uint8 *) head->data + CF_SUBHDRSZ, i1, i2, f, fp);

			if (sh->victim_used && BfGet32(sh->victim_fp) == fp &&
				(BfGet32(sh->victim_bucket) == i1 || BfGet32(sh->victim_bucket) == i2))
				n++;
			return (uint64) n;
		}
	}
	return CfProbeRef(&ref, BfHashDatumFast(h, PG_GETARG_DATUM(eargno), BfGet64(head->hdr.seed)),
					  stop_at_one);
}

/* ---------------------------------------------------------------------
 * Union, equality and statistics
 * ---------------------------------------------------------------------
 */

/*
 * Raise 22023 unless a and b have the same f, base bucket count N0 and seed:
 * a fingerprint can only move between tables of the same N0 (N0 * 2^s
 * buckets), so filters of different N0 cannot be merged.
 */
static void
CfCheckCompatible(const void *a_arg, const void *b_arg)
{
	const CuckooFilter *a = a_arg;
	const CuckooFilter *b = b_arg;

	if (a->fpbits != b->fpbits || CfN0(a) != CfN0(b) ||
		a->hdr.seed != b->hdr.seed || a->hdr.hashalg != b->hdr.hashalg)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("cuckoofilter filters have different parameters"),
				 errdetail("Left filter has %s; right filter has %s.", CfParamString(a), CfParamString(b)),
				 errhint("Only filters with the same base bucket count, fingerprint bits and seed can be combined or compared: build both with the same capacity and fpr (and seed).")));
}

/*
 * Reinsert every fingerprint of b into *pa (same parameters), in the
 * order sub-filter, bucket, entry, then victim.  A fingerprint from a
 * sub-filter of N buckets goes into the first sub-filter of *pa of at most
 * N buckets with room; when there is none, a sub-filter of N buckets is
 * chained (*pa resized in place with inplace, and after the first chained
 * one in any case: that copy is ours; copying again for every further one
 * kept a copy of the whole filter per chained sub-filter until the call's
 * memory was reset, gigabytes for a parallel combine of many day filters).
 */
static void
CfUnionInto(CuckooFilter **pa, const CuckooFilter *b, bool inplace)
{
	int			f = b->fpbits;
	uint32		nsub = BfGet32(b->nsub),
				k;
	Size		off = CF_HDRSZ;
	CfChainHint hint = {0, CF_HDRSZ};
	int			lastlevel = -1;

	for (k = 0; k < nsub; k++)
	{
		CfSub		s;
		const uint8 *table;
		uint64		i;
		int			j;
		uint32		e[CF_BUCKET_SIZE];

		CfSubAt(b, off, &s);
		off += s.size;
		table = (const uint8 *) b + s.table_off;
		if (k == 0 || s.level != lastlevel)
		{
			hint.k = 0;
			hint.off = CF_HDRSZ;
			lastlevel = s.level;
		}
		for (i = 0; i < s.nbuckets; i++)
		{
			/* reinserting a large filter takes seconds to minutes */
			if ((i & 0xFFFF) == 0xFFFF)
				CHECK_FOR_INTERRUPTS();
			/* the entries in ascending order */
			CfBucketGet(table, i, f, e);
			for (j = 0; j < CF_BUCKET_SIZE; j++)
				if (e[j] != 0)
				{
					CuckooFilter *before = *pa;

					(void) CfChainInsert(pa, i, e[j], s.level, s.level, inplace, &hint);
					inplace |= (*pa != before);
				}
		}
		if (s.victim_used)
			(void) CfChainInsert(pa, s.victim_bucket, s.victim_fp, s.level, s.level, inplace, &hint);
	}
	(*pa)->hdr.ninserts = BfPut64(BfAddSat64(BfGet64((*pa)->hdr.ninserts), BfGet64(b->hdr.ninserts)));
}

/*
 * Estimated false-positive rate: a non-member matches each stored entry of
 * its two buckets with probability 1 / (2^f - 1), and sub-filter s has
 * 2 * count_s / N_s such entries on average; every sub-filter is probed, so
 * fpr = 1 - prod_s (1 - 1 / (2^f - 1))^(2 count_s / N_s).
 */
static double
CfEstimateFpr(const CuckooFilter *cf)
{
	uint32		nsub = BfGet32(cf->nsub),
				k;
	Size		off = CF_HDRSZ;
	double		logmiss = 0.0;
	double		lq = log1p(-1.0 / (double) CfFpMask(cf->fpbits));

	for (k = 0; k < nsub; k++)
	{
		CfSub		s;

		CfSubAt(cf, off, &s);
		off += s.size;
		logmiss += lq * 2.0 * (double) s.count / (double) s.nbuckets;
	}
	return logmiss < 0.0 ? -expm1(logmiss) : 0.0;
}

/* ---------------------------------------------------------------------
 * The type's operations (BfTypeOps) for the generic entry points
 * ---------------------------------------------------------------------
 */

/* new_sized op: an empty filter of one sub-filter for capacity elements at fpr */
static struct varlena *
CfNewSized(int64 capacity, double fpr, uint64 seed)
{
	uint64		n0;
	int			f;

	CfSizeFor(capacity, fpr, &n0, &f);
	return (struct varlena *) CfNew(n0, f, seed);
}

/*
 * new_unsized op: the first state of cuckoofilter_agg(x), or of
 * cuckoofilter_agg(x, NULL, fpr), which have no capacity to size for and
 * chain sub-filters as they grow.  Each full sub-filter adds about
 * 2b * 0.95 / 2^f to the rate, so the default capacity gets the
 * fingerprints of CF_AGG_RESERVE_BITS more bits than the rate needs (those
 * of fpr / 2^CF_AGG_RESERVE_BITS): the rates of up to 21 full sub-filters
 * add up to less than fpr, and a chain that doubles from the default
 * capacity reaches the size limit with 12 (about 400M elements).
 */
static struct varlena *
CfNewUnsized(double fpr, uint64 seed)
{
	BfCheckCapacityFpr(BF_DEFAULT_CAPACITY, fpr);
	return CfNewSized(BF_DEFAULT_CAPACITY, fpr / (1 << CF_AGG_RESERVE_BITS), seed);
}

/* The sub-filter sizes of a text form, kept for CfTextDone */
typedef struct CfTextSubs
{
	uint32		nsub;
	uint64	   *nbuckets;
} CfTextSubs;

/*
 * text_read op: "f=F b=4 buckets=N0,N1,... count=C", the bucket counts of
 * the sub-filters in chain order: the first is the base N0, every other
 * N0 * 2^s for its level s.  The size the buckets
 * list describes is checked against the limit before the payload is
 * decoded; the list itself is checked against the sub-filter headers by
 * CfTextDone.
 */
static Size
CfTextRead(BfTextFields *tf, char *hdr, void **extra)
{
	CuckooFilter *cf = (CuckooFilter *) hdr;
	CfTextSubs *subs = palloc(sizeof(CfTextSubs));
	uint64		f,
				count;
	int			i,
				bi = -1,
				li = -1;
	char	   *p;
	uint32		nsub = 0;
	uint64	   *nbs;
	double		dsize = CF_HDRSZ;

	f = BfTextGetUInt64(tf, "f", CF_MIN_FPBITS, CF_MAX_FPBITS);
	(void) BfTextGetUInt64(tf, "b", CF_BUCKET_SIZE, CF_BUCKET_SIZE);
	count = BfTextGetUInt64(tf, "count", 0, PG_UINT64_MAX);
	for (i = 0; i < tf->nfields; i++)
	{
		if (strcmp(tf->keys[i], "buckets") == 0)
			bi = i;
		if (strcmp(tf->keys[i], "layout") == 0)
			li = i;
	}
	if (li < 0 || strcmp(tf->values[li], CF_LAYOUT_NAME) != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
				 errmsg("invalid input syntax for type %s", CF_TYPNAME),
				 li < 0 ? errdetail("Key \"layout\" is missing.") :
				 errdetail("Bucket layout \"%s\" is not \"" CF_LAYOUT_NAME "\".", tf->values[li]),
				 errhint("The text form is as cuckoofilter output writes it.")));
	tf->used[li] = true;
	if (bi < 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
				 errmsg("invalid input syntax for type %s", CF_TYPNAME),
				 errdetail("Key \"buckets\" is missing."),
				 errhint("The text form is as cuckoofilter output writes it.")));
	tf->used[bi] = true;
	nbs = palloc(sizeof(uint64) * (strlen(tf->values[bi]) / 2 + 1));
	p = tf->values[bi];
	for (;;)
	{
		char	   *end;
		uint64		n;

		errno = 0;
		n = (*p >= '0' && *p <= '9') ? strtoull(p, &end, 10) : 0;
		/* n >= 1: a leading '0' is a leading zero, not as output writes it */
		if (*p < '1' || *p > '9' || errno != 0 || n < 1 || n > CF_MAX_BUCKETS ||
			(nsub > 0 && (n % nbs[0] != 0 || ((n / nbs[0]) & (n / nbs[0] - 1)) != 0)) ||
			(*end != ',' && *end != '\0') || nsub >= CF_MAX_SUBFILTERS)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
					 errmsg("invalid input syntax for type %s", CF_TYPNAME),
					 errdetail("buckets must be a comma-separated list of at most %d bucket counts between 1 and " UINT64_FORMAT " (no leading zeros), each the first times a power of two, found \"%s\".",
							   CF_MAX_SUBFILTERS, CF_MAX_BUCKETS, tf->values[bi]),
					 errhint("The text form is as cuckoofilter output writes it.")));
		nbs[nsub] = n;
		dsize += CfSubBytesD((double) n, (int) f);
		nsub++;
		if (*end == '\0')
			break;
		p = end + 1;
	}
	BfCheckInputSize(CF_TYPNAME, "The buckets", dsize);
	cf->fpbits = (uint8) f;
	cf->bucketsize = CF_BUCKET_SIZE;
	cf->layout = CF_LAYOUT_SEMISORTED;
	cf->nsub = BfPut32(nsub);
	cf->count = BfPut64(count);
	subs->nsub = nsub;
	subs->nbuckets = nbs;
	*extra = subs;
	return (Size) dsize - CF_HDRSZ;
}

/* text_done op: the sub-filter headers must agree with the buckets list */
static void
CfTextDone(const struct varlena *v, void *extra)
{
	const CuckooFilter *cf = (const CuckooFilter *) v;
	CfTextSubs *subs = (CfTextSubs *) extra;
	Size		off = CF_HDRSZ;
	uint32		k;

	for (k = 0; k < subs->nsub; k++)
	{
		const CfSubHeader *sh = (const CfSubHeader *) ((const char *) cf + off);

		/* the level is checked before it is used as a shift (validate comes later) */
		if (BfGet32(sh->nbuckets) != subs->nbuckets[k] || sh->level > CF_MAX_LEVEL ||
			(subs->nbuckets[0] << sh->level) != subs->nbuckets[k])
			BfCorrupt(CF_TYPNAME, "Sub-filter %u has %u buckets at level %u, but the buckets list says " UINT64_FORMAT " (base " UINT64_FORMAT ").",
					  k + 1, BfGet32(sh->nbuckets), sh->level, subs->nbuckets[k], subs->nbuckets[0]);
		off += (Size) CfSubBytes(subs->nbuckets[k], cf->fpbits);
	}
}

/* text_write op: f, b, the bucket counts of the sub-filters and the count */
static void
CfTextWrite(StringInfo buf, const struct varlena *v)
{
	const CuckooFilter *cf = (const CuckooFilter *) v;
	uint32		nsub = BfGet32(cf->nsub),
				k;
	Size		off = CF_HDRSZ;

	appendStringInfo(buf, " f=%d b=%d layout=" CF_LAYOUT_NAME " buckets=", cf->fpbits, cf->bucketsize);
	for (k = 0; k < nsub; k++)
	{
		CfSub		s;

		CfSubAt(cf, off, &s);
		off += s.size;
		appendStringInfo(buf, "%s" UINT64_FORMAT, k > 0 ? "," : "", s.nbuckets);
	}
	appendStringInfo(buf, " count=" UINT64_FORMAT, BfGet64(cf->count));
}

/* add op: one more copy of the element; 54000 when the filter is full */
static struct varlena *
CfAddOp(struct varlena *v, BfHasher *h, Datum value)
{
	CuckooFilter *cf = (CuckooFilter *) v;

	CfAddHash(&cf, BfHashDatumFast(h, value, BfGet64(cf->hdr.seed)), false);
	return (struct varlena *) cf;
}

/* agg_add op: as CfAddOp, but a full filter chains a new sub-filter */
static struct varlena *
CfAggAddOp(struct varlena *v, BfHasher *h, Datum value)
{
	CuckooFilter *cf = (CuckooFilter *) v;

	CfAddHash(&cf, BfHashDatumFast(h, value, BfGet64(cf->hdr.seed)), true);
	return (struct varlena *) cf;
}

/* remove op: one copy of the element, if there */
static void
CfRemoveOp(struct varlena *v, BfHasher *h, Datum value)
{
	CuckooFilter *cf = (CuckooFilter *) v;

	(void) CfRemoveHash(cf, BfHashDatumFast(h, value, BfGet64(cf->hdr.seed)));
}

/* merge op: reinsert other's fingerprints into state (which may chain) */
static struct varlena *
CfUnionOp(struct varlena *state, const struct varlena *other)
{
	CuckooFilter *cf = (CuckooFilter *) state;

	CfUnionInto(&cf, (const CuckooFilter *) other, false);
	return (struct varlena *) cf;
}

/*
 * merge_owned op: the same into a state the caller owns alone, which grows
 * in place (a union aggregate's expanded state: no copy per chained
 * sub-filter)
 */
static struct varlena *
CfUnionOwnedOp(struct varlena *state, const struct varlena *other)
{
	CuckooFilter *cf = (CuckooFilter *) state;

	CfUnionInto(&cf, (const CuckooFilter *) other, true);
	return (struct varlena *) cf;
}

/*
 * ahead_prepare op: the hash, and the cache lines of its two buckets in the
 * sub-filter that takes the inserts, the first whose victim slot is free
 * (CfChainInsert): the first one until it fills, in a chain the last ones
 */
static void
CfAheadPrepare(const struct varlena *v, uint64 h, uint64 *row)
{
	const CuckooFilter *cf = (const CuckooFilter *) v;
	const CfSubHeader *sh = (const CfSubHeader *) cf->data;
	int			f = cf->fpbits;
	uint32		fp = CfFingerprint(h, f);
	Size		off = CF_HDRSZ;
	uint32		nsub = BfGet32(cf->nsub),
				k;

	row[0] = h;
	for (k = 0; k < nsub && sh->victim_used; k++)
	{
		off += CfSubBytes(BfGet32(sh->nbuckets), f);
		sh = (const CfSubHeader *) ((const char *) cf + off);
	}
	if (k < nsub)
	{
		uint64		n = BfGet32(sh->nbuckets);
		uint64		i1 = CfIndex(h, n);
		uint64		i2 = CfAltIndex(i1, fp, n, sh->level);
		const uint8 *table = (const uint8 *) sh + CF_SUBHDRSZ;

		BfPrefetchWrite(table + (CfBucketBit(i1, f) >> 3));
		BfPrefetchWrite(table + (CfBucketBit(i2, f) >> 3));
	}
}

/* ahead_add op: add a row's hash as the aggregate does (a full filter chains a sub-filter) */
static struct varlena *
CfAheadAdd(struct varlena *v, const uint64 *row)
{
	CuckooFilter *cf = (CuckooFilter *) v;

	CfAddHash(&cf, row[0], true);
	return (struct varlena *) cf;
}

static const BfTypeOps CfOps = {
	.name = CF_TYPNAME,
	.kind = BF_KIND_CUCKOOFILTER,
	.headsize = CF_HDRSZ,
	.check = CfCheck,
	.validate = CfValidate,
	.new_sized = CfNewSized,
	.new_unsized = CfNewUnsized,
	.text_read = CfTextRead,
	.text_done = CfTextDone,
	.text_write = CfTextWrite,
	.add = CfAddOp,
	.agg_add = CfAggAddOp,
	.remove = CfRemoveOp,
	.check_compatible = CfCheckCompatible,
	.merge = CfUnionOp,
	.merge_owned = CfUnionOwnedOp,
	.compare = BfCompareAfterHeader,
	.hash = BfHashAfterHeader,
	.ahead_words = BfAheadWordsHash,
	.ahead_prepare = CfAheadPrepare,
	.ahead_add = CfAheadAdd,
	.agg_final = cuckoofilter_agg_final,
	.agg_combine = cuckoofilter_union_trans,
};

/* The filter argument argno, detoasted and checked */
static inline CuckooFilter *
CfGetArg(FunctionCallInfo fcinfo, int argno)
{
	return (CuckooFilter *) BfGetFilterArg(fcinfo, argno, &CfOps);
}

/* ---------------------------------------------------------------------
 * SQL functions
 * ---------------------------------------------------------------------
 */

/*
 * cuckoofilter_in(cstring) RETURNS cuckoofilter
 *		"cuckoofilter v1 hash=xxh3 seed=S inserts=N f=F b=4
 *		 buckets=N1,N2,... count=C data=<base64 of the sub-filters>"
 */
Datum
cuckoofilter_in(PG_FUNCTION_ARGS)
{
	return BfInGeneric(fcinfo, &CfOps);
}

/* cuckoofilter_out(cuckoofilter) RETURNS cstring */
Datum
cuckoofilter_out(PG_FUNCTION_ARGS)
{
	return BfOutGeneric(fcinfo, &CfOps);
}

/* cuckoofilter_recv(internal) RETURNS cuckoofilter */
Datum
cuckoofilter_recv(PG_FUNCTION_ARGS)
{
	return BfRecvGeneric(fcinfo, &CfOps);
}

/* cuckoofilter_send(cuckoofilter) RETURNS bytea */
Datum
cuckoofilter_send(PG_FUNCTION_ARGS)
{
	return BfSendGeneric(fcinfo, &CfOps);
}

/*
 * cuckoofilter_empty(capacity bigint, fpr float8, seed bigint) RETURNS cuckoofilter
 *		An empty filter sized for capacity elements at false-positive rate fpr.
 */
Datum
cuckoofilter_empty(PG_FUNCTION_ARGS)
{
	return BfEmptyGeneric(fcinfo, &CfOps);
}

/*
 * cuckoofilter_create(buckets bigint, fingerprint_bits integer, seed bigint)
 *		An empty filter with an explicit bucket count and fingerprint width.
 */
Datum
cuckoofilter_create(PG_FUNCTION_ARGS)
{
	int64		buckets = PG_GETARG_INT64(0);
	int32		f = PG_GETARG_INT32(1);

	CfCheckParams(buckets, f);
	PG_RETURN_POINTER(CfNew((uint64) buckets, f, (uint64) PG_GETARG_INT64(2)));
}

/*
 * cuckoofilter_add(cuckoofilter, anynonarray) RETURNS cuckoofilter
 *		A copy of the filter with one more copy of the element; a NULL element
 *		leaves the filter as it is.  54000 when the filter is full.
 */
Datum
cuckoofilter_add(PG_FUNCTION_ARGS)
{
	return BfAddGeneric(fcinfo, &CfOps);
}

/*
 * cuckoofilter_add(cuckoofilter, anyarray) RETURNS cuckoofilter
 *		A copy of the filter with every non-null array element added.
 */
Datum
cuckoofilter_add_array(PG_FUNCTION_ARGS)
{
	return BfAddArrayGeneric(fcinfo, &CfOps);
}

/*
 * cuckoofilter_remove(cuckoofilter, anynonarray) RETURNS cuckoofilter
 *		A copy of the filter with one copy of the element removed (unchanged
 *		when it holds none).
 */
Datum
cuckoofilter_remove(PG_FUNCTION_ARGS)
{
	return BfRemoveGeneric(fcinfo, &CfOps);
}

/*
 * cuckoofilter_remove(cuckoofilter, anyarray) RETURNS cuckoofilter
 *		A copy of the filter with one copy of every non-null element removed.
 */
Datum
cuckoofilter_remove_array(PG_FUNCTION_ARGS)
{
	return BfRemoveArrayGeneric(fcinfo, &CfOps);
}

/*
 * cuckoofilter_contains(cuckoofilter, anynonarray) RETURNS bool	(operator @>)
 *		Whether the element may be in the filter (false means: certainly not).
 */
Datum
cuckoofilter_contains(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(CfProbe(fcinfo, 0, 1, true) > 0);
}

/*
 * cuckoofilter_contained(anynonarray, cuckoofilter) RETURNS bool	(operator <@)
 */
Datum
cuckoofilter_contained(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(CfProbe(fcinfo, 1, 0, true) > 0);
}

/*
 * cuckoofilter_count(cuckoofilter, anynonarray) RETURNS integer
 *		Copies of the element's fingerprint in its buckets and victim slots
 *		over all sub-filters: an upper bound of its multiplicity.
 */
Datum
cuckoofilter_count(PG_FUNCTION_ARGS)
{
	uint64		n = CfProbe(fcinfo, 0, 1, false);

	PG_RETURN_INT32(n > PG_INT32_MAX ? PG_INT32_MAX : (int32) n);
}

/*
 * cuckoofilter_union(cuckoofilter, cuckoofilter) RETURNS cuckoofilter	(operator |)
 *		The left filter with every fingerprint of the right one reinserted.
 */
Datum
cuckoofilter_union(PG_FUNCTION_ARGS)
{
	return BfCombineGeneric(fcinfo, &CfOps, CfUnionOp, true);
}

/*
 * cuckoofilter_eq, _ne, _lt, _le, _gt, _ge(cuckoofilter, cuckoofilter) RETURNS bool	(=, <>, <, <=, >, >=)
 *		A total order over all values (design.md, "Equality and ordering"):
 *		filters with different parameters are unequal, not an error.
 */
Datum
cuckoofilter_eq(PG_FUNCTION_ARGS)
{
	return BfCompareGeneric(fcinfo, &CfOps, BF_CMP_EQ);
}

Datum
cuckoofilter_ne(PG_FUNCTION_ARGS)
{
	return BfCompareGeneric(fcinfo, &CfOps, BF_CMP_NE);
}

Datum
cuckoofilter_lt(PG_FUNCTION_ARGS)
{
	return BfCompareGeneric(fcinfo, &CfOps, BF_CMP_LT);
}

Datum
cuckoofilter_le(PG_FUNCTION_ARGS)
{
	return BfCompareGeneric(fcinfo, &CfOps, BF_CMP_LE);
}

Datum
cuckoofilter_gt(PG_FUNCTION_ARGS)
{
	return BfCompareGeneric(fcinfo, &CfOps, BF_CMP_GT);
}

Datum
cuckoofilter_ge(PG_FUNCTION_ARGS)
{
	return BfCompareGeneric(fcinfo, &CfOps, BF_CMP_GE);
}

/* cuckoofilter_cmp(cuckoofilter, cuckoofilter) RETURNS int4: the btree operator class's support function */
Datum
cuckoofilter_cmp(PG_FUNCTION_ARGS)
{
	return BfCompareGeneric(fcinfo, &CfOps, BF_CMP);
}

/* cuckoofilter_hash(cuckoofilter) RETURNS int4: the hash operator class's support function */
Datum
cuckoofilter_hash(PG_FUNCTION_ARGS)
{
	return BfHashGeneric(fcinfo, &CfOps, false);
}

/* cuckoofilter_hash_extended(cuckoofilter, bigint) RETURNS bigint: the seeded 64-bit hash support function */
Datum
cuckoofilter_hash_extended(PG_FUNCTION_ARGS)
{
	return BfHashGeneric(fcinfo, &CfOps, true);
}

/*
 * cuckoofilter_cardinality(cuckoofilter) RETURNS bigint
 *		The exact number of stored fingerprints.
 */
Datum
cuckoofilter_cardinality(PG_FUNCTION_ARGS)
{
	CuckooFilter *cf = CfGetArg(fcinfo, 0);

	PG_RETURN_INT64((int64) BfGet64(cf->count));
}

/*
 * cuckoofilter_fpr(cuckoofilter) RETURNS float8
 */
Datum
cuckoofilter_fpr(PG_FUNCTION_ARGS)
{
	PG_RETURN_FLOAT8(CfEstimateFpr(CfGetArg(fcinfo, 0)));
}

/*
 * cuckoofilter_info(cuckoofilter) RETURNS record
 *		Every parameter, the size, the load and the estimates.
 */
Datum
cuckoofilter_info(PG_FUNCTION_ARGS)
{
	CuckooFilter *cf = CfGetArg(fcinfo, 0);
	uint32		nsub = BfGet32(cf->nsub),
				k;
	Size		off = CF_HDRSZ;
	uint64		slots = 0,
				victims = 0,
				nbuckets0 = 0;
	uint64		count = BfGet64(cf->count);
	uint64		n = BfGet64(cf->hdr.ninserts);
	Datum		values[15];
	bool		nulls[15] = {0};

	for (k = 0; k < nsub; k++)
	{
		CfSub		s;

		CfSubAt(cf, off, &s);
		off += s.size;
		if (k == 0)
			nbuckets0 = s.nbuckets;
		slots += s.nbuckets * CF_BUCKET_SIZE;
		victims += s.victim_used ? 1 : 0;
	}
	values[0] = Int32GetDatum(cf->hdr.version);
	values[1] = CStringGetTextDatum("xxh3");
	values[2] = Int64GetDatum((int64) BfGet64(cf->hdr.seed));
	values[3] = Int32GetDatum(cf->fpbits);
	values[4] = Int32GetDatum(cf->bucketsize);
	values[5] = Int64GetDatum((int64) nbuckets0);
	values[6] = Int32GetDatum((int32) nsub);
	values[7] = Int64GetDatum((int64) (slots / CF_BUCKET_SIZE));
	values[8] = Int64GetDatum((int64) slots);
	values[9] = Int64GetDatum((int64) count);
	values[10] = Int64GetDatum(n > (uint64) PG_INT64_MAX ? PG_INT64_MAX : (int64) n);
	values[11] = Float8GetDatum((double) (count - victims) / (double) slots);
	values[12] = Int32GetDatum((int32) victims);
	values[13] = Int64GetDatum((int64) VARSIZE(cf));
	values[14] = Float8GetDatum(CfEstimateFpr(cf));
	PG_RETURN_DATUM(BfInfoTuple(fcinfo, values, nulls, 15));
}

/*
 * cuckoofilter_positions(cuckoofilter, anynonarray) RETURNS record
 *		Where the element goes in the primary sub-filter: its hash, its
 *		fingerprint and its two buckets (for clients in other languages).
 */
Datum
cuckoofilter_positions(PG_FUNCTION_ARGS)
{
	CuckooFilter *cf = CfGetArg(fcinfo, 0);
	uint64		h = BfHashDatumFast(BfGetHasher(fcinfo, 1), PG_GETARG_DATUM(1), BfGet64(cf->hdr.seed));
	CfSub		s;
	uint32		fp = CfFingerprint(h, cf->fpbits);
	uint64		i1;
	Datum		values[4];
	bool		nulls[4] = {0};

	CfSubAt(cf, CF_HDRSZ, &s);
	i1 = CfIndex(h, s.nbuckets);
	values[0] = Int64GetDatum((int64) h);
	values[1] = Int64GetDatum((int64) fp);
	values[2] = Int64GetDatum((int64) i1);
	values[3] = Int64GetDatum((int64) CfAltIndex(i1, fp, s.nbuckets, s.level));
	PG_RETURN_DATUM(BfInfoTuple(fcinfo, values, nulls, 4));
}

/*
 * cuckoofilter_subfilters(cuckoofilter) RETURNS SETOF record
 *		One row per sub-filter of the chain: its buckets, fingerprints, load
 *		and victim slot.
 */
Datum
cuckoofilter_subfilters(PG_FUNCTION_ARGS)
{
	CuckooFilter *cf = CfGetArg(fcinfo, 0);
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	uint32		nsub = BfGet32(cf->nsub),
				k;
	Size		off = CF_HDRSZ;

	InitMaterializedSRF(fcinfo, 0);
	for (k = 0; k < nsub; k++)
	{
		CfSub		s;
		Datum		values[6];
		bool		nulls[6] = {0};

		CfSubAt(cf, off, &s);
		off += s.size;
		values[0] = Int32GetDatum((int32) k + 1);
		values[1] = Int64GetDatum((int64) s.nbuckets);
		values[2] = Int64GetDatum((int64) s.count);
		values[3] = Float8GetDatum((double) (s.count - (s.victim_used ? 1 : 0)) /
								   (double) (s.nbuckets * CF_BUCKET_SIZE));
		values[4] = BoolGetDatum(s.victim_used);
		values[5] = Int64GetDatum((int64) s.size);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}

/*
 * cuckoofilter_agg_trans(cuckoofilter, anynonarray [, capacity bigint, fpr float8])
 *		Aggregate transition: add the element to the state, creating the
 *		state on the first row and chaining a sub-filter when it is full.
 *		NULL elements are skipped.
 */
Datum
cuckoofilter_agg_trans(PG_FUNCTION_ARGS)
{
	return BfAggTransGeneric(fcinfo, &CfOps);
}

/*
 * cuckoofilter_agg_final(cuckoofilter [, anynonarray, bigint, float8])
 *		The state, or over no rows an empty filter with the aggregate's
 *		parameters (its constant arguments, else the constant defaults;
 *		without a capacity, or a NULL one, CfNewUnsized's).
 */
Datum
cuckoofilter_agg_final(PG_FUNCTION_ARGS)
{
	return BfAggFinalGeneric(fcinfo, &CfOps);
}

/*
 * cuckoofilter_union_trans(cuckoofilter, cuckoofilter) RETURNS cuckoofilter
 *		Transition and combine function of the union aggregate and combine
 *		function of cuckoofilter_agg: reinsert the right filter into the state.
 */
Datum
cuckoofilter_union_trans(PG_FUNCTION_ARGS)
{
	return BfMergeTransGeneric(fcinfo, &CfOps, CfUnionOp);
}
