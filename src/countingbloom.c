/*
 * countingbloom.c
 *		The countingbloom type: a counting Bloom filter of m 4-bit counters
 *		and k hash positions, which can delete elements and bound their
 *		multiplicity.
 *
 * Layout (doc/design.md): the common 24-byte header, then m (uint64 LE),
 * k (uint32 LE), a reserved uint32 (0), then ceil(m / 16) * 8 bytes of
 * counters.  Counter i is the low nibble of byte i / 2 when i is even, the
 * high nibble when i is odd; counters at and beyond m are always zero.
 *
 * Positions are those of bloom (the same BfPositions over m with the same
 * seed), so bloom bit i is set exactly when counter i is non-zero and the
 * cast to bloom is exact.  A counter that reaches 15 is saturated: it is
 * never incremented or decremented again, so removes never create false
 * negatives.  The header's insert counter holds adds minus removes.
 */
#include "bloomfilter.h"

#include <math.h>

#include "catalog/pg_type.h"
#include "port/pg_bitutils.h"
#include "utils/array.h"
#include "utils/builtins.h"

#include "bloom.h"

typedef struct CountingBloom
{
	BfHeader	hdr;			/* common header, 24 bytes */
	uint64		m;				/* LE: number of counters */
	uint32		k;				/* LE: number of hash positions */
	uint32		reserved;		/* 0 */
	uint8		counters[FLEXIBLE_ARRAY_MEMBER];	/* ceil(m / 16) * 8 bytes */
} CountingBloom;

#define CBLOOM_HDRSZ		offsetof(CountingBloom, counters)
#define CBLOOM_SATURATED	15
/* k is limited like bloom's, so that every filter casts to bloom */
#define CBLOOM_MAX_K		BLOOM_MAX_K
/* the largest m whose datum stays within the varlena limit */
#define CBLOOM_MAX_COUNTERS ((uint64) ((BF_MAX_DATUM_SIZE - CBLOOM_HDRSZ) / 8) * 16)

StaticAssertDecl(offsetof(CountingBloom, counters) == 40,
				 "countingbloom header must be 40 bytes");

/* Outcome of taking an element's counters down by one */
typedef enum CBloomRemoveResult
{
	CBLOOM_REMOVED,				/* every counter was non-zero: decremented */
	CBLOOM_ABSENT,				/* some counter was zero: nothing changed */
	CBLOOM_SATURATED_HIT		/* exact mode only: a counter is saturated */
} CBloomRemoveResult;

PG_FUNCTION_INFO_V1(countingbloom_in);
PG_FUNCTION_INFO_V1(countingbloom_out);
PG_FUNCTION_INFO_V1(countingbloom_recv);
PG_FUNCTION_INFO_V1(countingbloom_send);
PG_FUNCTION_INFO_V1(countingbloom_empty);
PG_FUNCTION_INFO_V1(countingbloom_create);
PG_FUNCTION_INFO_V1(countingbloom_add);
PG_FUNCTION_INFO_V1(countingbloom_add_array);
PG_FUNCTION_INFO_V1(countingbloom_remove);
PG_FUNCTION_INFO_V1(countingbloom_remove_array);
PG_FUNCTION_INFO_V1(countingbloom_contains);
PG_FUNCTION_INFO_V1(countingbloom_contained);
PG_FUNCTION_INFO_V1(countingbloom_count);
PG_FUNCTION_INFO_V1(countingbloom_union);
PG_FUNCTION_INFO_V1(countingbloom_difference);
PG_FUNCTION_INFO_V1(countingbloom_eq);
PG_FUNCTION_INFO_V1(countingbloom_ne);
PG_FUNCTION_INFO_V1(countingbloom_lt);
PG_FUNCTION_INFO_V1(countingbloom_le);
PG_FUNCTION_INFO_V1(countingbloom_gt);
PG_FUNCTION_INFO_V1(countingbloom_ge);
PG_FUNCTION_INFO_V1(countingbloom_cmp);
PG_FUNCTION_INFO_V1(countingbloom_hash);
PG_FUNCTION_INFO_V1(countingbloom_hash_extended);
PG_FUNCTION_INFO_V1(countingbloom_cardinality);
PG_FUNCTION_INFO_V1(countingbloom_fpr);
PG_FUNCTION_INFO_V1(countingbloom_info);
PG_FUNCTION_INFO_V1(countingbloom_to_bloom);
PG_FUNCTION_INFO_V1(countingbloom_agg_trans);
PG_FUNCTION_INFO_V1(countingbloom_agg_inv);
PG_FUNCTION_INFO_V1(countingbloom_agg_final);
PG_FUNCTION_INFO_V1(countingbloom_union_trans);

/* Number of counters m */
static inline uint64
CBloomM(const CountingBloom *cb)
{
	return BfGet64(cb->m);
}

/* Number of hash positions k */
static inline uint32
CBloomK(const CountingBloom *cb)
{
	return BfGet32(cb->k);
}

/* Payload bytes of a filter of m counters (whole 64-bit words) */
static inline Size
CBloomPayloadSize(uint64 m)
{
	return (Size) (((m + 15) / 16) * 8);
}

/* Value of counter i */
static inline uint8
CBloomGet(const uint8 *counters, uint64 i)
{
	return (counters[i >> 1] >> ((i & 1) << 2)) & 0x0f;
}

/* Add one to counter i unless it is saturated (branch-free) */
static inline void
CBloomIncrement(uint8 *counters, uint64 i)
{
	int			shift = (i & 1) << 2;
	uint8		byte = counters[i >> 1];

	counters[i >> 1] = byte + (uint8) ((((byte >> shift) & 0x0f) != CBLOOM_SATURATED) << shift);
}

/* Check the parameters m and k, raising 22023 (or 54000 for size) */
static void
CBloomCheckParams(int64 m, int64 k)
{
	if (m < 1 || (double) m > (double) CBLOOM_MAX_COUNTERS)
	{
		if (m >= 1)
			BfCheckSize("countingbloom", (double) CBLOOM_HDRSZ + ceil((double) m / 16.0) * 8.0);
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("number of counters m must be between 1 and " UINT64_FORMAT, CBLOOM_MAX_COUNTERS),
				 errdetail("m = " INT64_FORMAT " was given.", m),
				 errhint("Use countingbloom_empty(capacity, fpr) to have m and k computed.")));
	}
	if (k < 1 || k > CBLOOM_MAX_K)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("number of hash functions k must be between 1 and %d", CBLOOM_MAX_K),
				 errdetail("k = " INT64_FORMAT " was given.", k),
				 errhint("Use countingbloom_empty(capacity, fpr) to have m and k computed.")));
}

/* A new empty filter (palloc'd in the current context) */
static CountingBloom *
CBloomNew(uint64 m, uint32 k, uint64 seed)
{
	Size		size;
	CountingBloom *cb;

	CBloomCheckParams((int64) m, k);
	size = CBLOOM_HDRSZ + CBloomPayloadSize(m);
	cb = palloc0(size);
	BfInitHeader(&cb->hdr, size, BF_KIND_COUNTINGBLOOM, seed);
	cb->m = BfPut64(m);
	cb->k = BfPut32(k);
	return cb;
}

/*
 * m and k for n elements at false-positive rate p: the same as bloom's
 * (BloomSizeFor), since a counter is non-zero exactly where the Bloom bit
 * would be set.  The size check comes first, against the counting
 * filter's four bits per position, so the error names this type.
 */
static void
CBloomSizeFor(int64 capacity, double fpr, uint64 *m, uint32 *k)
{
	BfCheckCapacityFpr(capacity, fpr);
	/* m as BloomSizeFor computes it, to check our size before it does */
	BfCheckSize("countingbloom", (double) CBLOOM_HDRSZ +
				ceil(ceil(-(double) capacity * log(fpr) / (M_LN2 * M_LN2)) / 16.0) * 8.0);
	BloomSizeFor(capacity, fpr, m, k);
}

/* Describe a filter's parameters for error messages */
static char *
CBloomParamString(const CountingBloom *cb)
{
	return psprintf("m=" UINT64_FORMAT ", k=%u, seed=" INT64_FORMAT,
					CBloomM(cb), CBloomK(cb), (int64) BfGet64(cb->hdr.seed));
}

/*
 * Cheap structural check run on every datum a function receives: header,
 * parameter ranges, and a size that matches m.  Input functions add the
 * full check of the payload (CBloomValidate).
 */
static void
CBloomCheck(const void *cb_arg, Size size)
{
	const CountingBloom *cb = cb_arg;
	uint64		m;
	uint32		k;

	BfValidateHeader("countingbloom", (const struct varlena *) cb,
					 BF_KIND_COUNTINGBLOOM, CBLOOM_HDRSZ);
	m = CBloomM(cb);
	k = CBloomK(cb);
	if (m < 1 || m > CBLOOM_MAX_COUNTERS)
		BfCorrupt("countingbloom", "m = " UINT64_FORMAT " is out of range.", m);
	if (k < 1 || k > CBLOOM_MAX_K)
		BfCorrupt("countingbloom", "k = %u is out of range.", k);
	if (cb->reserved != 0)
		BfCorrupt("countingbloom", "The reserved header field is not zero.");
	if (size != CBLOOM_HDRSZ + CBloomPayloadSize(m))
		BfCorrupt("countingbloom", "The value is %zu bytes long, but m = " UINT64_FORMAT " needs %zu.",
				  size, m, CBLOOM_HDRSZ + CBloomPayloadSize(m));
}

/*
 * Full check of a value from outside: structure plus no non-zero counter
 * beyond m.  Every 4-bit value 0..15 is a valid counter.
 */
static void
CBloomValidate(const void *cb_arg)
{
	const CountingBloom *cb = cb_arg;
	uint64		m;
	Size		i,
				n;

	CBloomCheck(cb, VARSIZE(cb));
	m = CBloomM(cb);
	n = CBloomPayloadSize(m);
	if ((m & 1) != 0 && (cb->counters[m >> 1] & 0xf0) != 0)
		BfCorrupt("countingbloom", "Counter " UINT64_FORMAT " is non-zero, beyond m = " UINT64_FORMAT ".",
				  m, m);
	for (i = (Size) ((m + 1) / 2); i < n; i++)
		if (cb->counters[i] != 0)
			BfCorrupt("countingbloom", "Counters beyond m = " UINT64_FORMAT " are non-zero.", m);
}

/* Raise 22023 unless a and b have the same m, k and seed */
static void
CBloomCheckCompatible(const void *a_arg, const void *b_arg)
{
	const CountingBloom *a = a_arg;
	const CountingBloom *b = b_arg;
	if (CBloomM(a) != CBloomM(b) || CBloomK(a) != CBloomK(b) ||
		a->hdr.seed != b->hdr.seed || a->hdr.hashalg != b->hdr.hashalg)
		BfParamMismatch("countingbloom", CBloomParamString(a), CBloomParamString(b));
}

/*
 * Increment the k counters of hash h (saturating).  The positions are
 * computed and their cache lines prefetched first, so that the k
 * read-modify-writes of a filter larger than the CPU caches wait for memory
 * together rather than one after the other.
 */
static inline void
CBloomAddHash(CountingBloom *cb, uint64 m, uint32 k, uint64 h)
{
	uint64		pos[CBLOOM_MAX_K];
	uint32		i;

	BfPositionsPrefetched(h, m, k, cb->counters, 1, pos);
	for (i = 0; i < k; i++)
		CBloomIncrement(cb->counters, pos[i]);
}

/* Add one element datum (not null) hashed by hasher h */
static inline void
CBloomAddDatum(CountingBloom *cb, BfHasher *h, Datum value)
{
	CBloomAddHash(cb, CBloomM(cb), CBloomK(cb), BfHashDatumFast(h, value, BfGet64(cb->hdr.seed)));
	cb->hdr.ninserts = BfPut64(BfAddSat64(BfGet64(cb->hdr.ninserts), 1));
}

/*
 * Take the k counters of hash h down by one, if every one is non-zero
 * (else the element was certainly never added, and nothing changes).
 * Saturated counters stay at 15.  In exact mode (the moving-aggregate
 * inverse) a saturated counter makes the removal fail without changing
 * anything, because its true value is unknown; so does a counter that
 * would go below zero (a position repeated among the k, which only an
 * inconsistent state could show).
 */
static CBloomRemoveResult
CBloomRemoveHash(CountingBloom *cb, uint64 h, bool exact)
{
	uint64		m = CBloomM(cb);
	uint32		k = CBloomK(cb);
	uint64		pos[CBLOOM_MAX_K];
	BfPositions p;
	uint32		i;

	BfPositionsInit(&p, h);
	for (i = 0; i < k; i++)
	{
		uint8		c;

		pos[i] = BfPositionsNext(&p, m);
		c = CBloomGet(cb->counters, pos[i]);
		if (c == 0)
			return CBLOOM_ABSENT;
		if (exact && c == CBLOOM_SATURATED)
			return CBLOOM_SATURATED_HIT;
	}
	if (exact)
	{
		/* a position repeated j times needs its counter >= j */
		for (i = 0; i < k; i++)
		{
			uint32		j,
						uses = 0;

			for (j = 0; j < k; j++)
				uses += (pos[j] == pos[i]);
			if (uses > CBloomGet(cb->counters, pos[i]))
				return CBLOOM_SATURATED_HIT;
		}
	}
	for (i = 0; i < k; i++)
	{
		uint8		c = CBloomGet(cb->counters, pos[i]);

		if (c != 0 && c != CBLOOM_SATURATED)
			cb->counters[pos[i] >> 1] -= (uint8) (1 << ((pos[i] & 1) << 2));
	}
	if (BfGet64(cb->hdr.ninserts) > 0)
		cb->hdr.ninserts = BfPut64(BfGet64(cb->hdr.ninserts) - 1);
	return CBLOOM_REMOVED;
}

/*
 * The smallest of the k counters of hash h in an opened filter (0 as soon
 * as one is zero): zero means "certainly not in the filter", otherwise it
 * bounds the element's multiplicity from above.
 */
static uint8
CBloomMinHash(BfFilterRef *ref, uint64 m, uint32 k, uint64 h)
{
	BfPositions p;
	uint32		i;
	uint8		minc = CBLOOM_SATURATED;

	BfPositionsInit(&p, h);
	if (ref->full)
	{
		const CountingBloom *cb = (const CountingBloom *) ref->full;

		/*
		 * Read four counters before each early exit (as bloom does): their
		 * loads, likely cache misses in a big filter, then overlap instead
		 * of waiting on an unpredictable branch one by one.
		 */
		for (i = 0; i < k; i++)
		{
			uint8		c = CBloomGet(cb->counters, BfPositionsNext(&p, m));

			minc = Min(minc, c);
			if ((i & 3) == 3 && minc == 0)
				return 0;
		}
		return minc;
	}
	for (i = 0; i < k; i++)
	{
		uint64		pos = BfPositionsNext(&p, m);
		uint8		byte,
					c;

		BfRefReadBytes(ref, CBLOOM_HDRSZ + (pos >> 1), 1, &byte);
		c = (byte >> ((pos & 1) << 2)) & 0x0f;
		if (c < minc)
		{
			if (c == 0)
				return 0;
			minc = c;
		}
	}
	return minc;
}

/*
 * The Bloom filter with the same m, k and seed whose bit i is set exactly
 * when counter i is non-zero: the cast to bloom, and the probe view of @>.
 */
static Bloom *
CBloomToBloom(const CountingBloom *cb)
{
	uint64		m = CBloomM(cb);
	Size		n = (Size) ((m + 1) / 2),
				i;
	Bloom	   *b = BloomNew(m, CBloomK(cb), BfGet64(cb->hdr.seed));

	/* byte i holds counters 2i and 2i + 1: bits 2i, 2i + 1 of the bloom */
	for (i = 0; i < n; i++)
	{
		uint8		c = cb->counters[i];
		uint8		bits;

		if (c == 0)
			continue;
		bits = (uint8) (((c & 0x0f) ? 1 : 0) | ((c & 0xf0) ? 2 : 0));
		b->bits[i >> 2] |= (uint8) (bits << ((i & 3) << 1));
	}
	b->hdr.ninserts = cb->hdr.ninserts;
	return b;
}

/* BfViewBuilder of @>: the filter's bits (a quarter of its counters' size) */
static void *
CBloomBuildView(const struct varlena *v)
{
	return CBloomToBloom((const CountingBloom *) v);
}

/*
 * Probe the filter argument fargno for the element argument eargno: the
 * smallest of its k counters, or with presence_only just zero or non-zero
 * (then a filter the call site probes again and again is probed through
 * its bits, which give the same answer with a quarter of the memory).
 */
static uint8
CBloomProbe(FunctionCallInfo fcinfo, int fargno, int eargno, bool presence_only)
{
	BfFilterRef ref;
	const CountingBloom *head;
	BfHasher   *h = BfGetHasher(fcinfo, eargno);
	uint64		hv;

	BfOpenFilter(fcinfo, fargno, CBLOOM_HDRSZ, &ref);
	head = (const CountingBloom *) BfRefHead(&ref);
	CBloomCheck(head, ref.total);	/* reads the header only: fine in slice mode */
	hv = BfHashDatumFast(h, PG_GETARG_DATUM(eargno), BfGet64(head->hdr.seed));
	if (presence_only)
	{
		const Bloom *view = BfProbeView(fcinfo, &ref, CBloomBuildView);

		if (view != NULL)
			return BloomTestHashFull(view, hv) ? 1 : 0;
	}
	return CBloomMinHash(&ref, CBloomM(head), CBloomK(head), hv);
}

/* Add b's counters into a, saturating at 15 (same parameters) */
static void
CBloomUnionInto(CountingBloom *a, const CountingBloom *b)
{
	Size		n = CBloomPayloadSize(CBloomM(a)),
				i;

	for (i = 0; i < n; i++)
	{
		uint8		x = a->counters[i],
					y = b->counters[i];
		unsigned	lo,
					hi;

		if (y == 0)
			continue;
		lo = Min((unsigned) (x & 0x0f) + (y & 0x0f), CBLOOM_SATURATED);
		hi = Min((unsigned) (x >> 4) + (y >> 4), CBLOOM_SATURATED);
		a->counters[i] = (uint8) (lo | (hi << 4));
	}
	a->hdr.ninserts = BfPut64(BfAddSat64(BfGet64(a->hdr.ninserts), BfGet64(b->hdr.ninserts)));
}

/* One counter of a minus one of b: saturated stays saturated, floor 0 */
static inline unsigned
CBloomSubCounter(unsigned x, unsigned y)
{
	if (x == CBLOOM_SATURATED)
		return x;
	return x > y ? x - y : 0;
}

/* Subtract b's counters from a (same parameters) */
static void
CBloomDifferenceInto(CountingBloom *a, const CountingBloom *b)
{
	Size		n = CBloomPayloadSize(CBloomM(a)),
				i;
	uint64		na = BfGet64(a->hdr.ninserts),
				nb = BfGet64(b->hdr.ninserts);

	for (i = 0; i < n; i++)
	{
		uint8		x = a->counters[i],
					y = b->counters[i];

		if (y == 0)
			continue;
		a->counters[i] = (uint8) (CBloomSubCounter(x & 0x0f, y & 0x0f) |
								  (CBloomSubCounter(x >> 4, y >> 4) << 4));
	}
	a->hdr.ninserts = BfPut64(na > nb ? na - nb : 0);
}

/*
 * Count the non-zero and the saturated counters, 16 counters per 64-bit
 * word: a nibble is non-zero when the OR of its bits is set, saturated
 * when their AND is.  Counters beyond m are zero, so whole words are fine.
 */
static void
CBloomCounterStats(const CountingBloom *cb, uint64 *nonzero, uint64 *saturated)
{
	Size		n = CBloomPayloadSize(CBloomM(cb)) / 8,
				i;
	uint64		nz = 0,
				sat = 0;

	for (i = 0; i < n; i++)
	{
		uint64		w;

		memcpy(&w, cb->counters + i * 8, 8);
		if (w == 0)
			continue;
		nz += pg_popcount64((w | (w >> 1) | (w >> 2) | (w >> 3)) & UINT64CONST(0x1111111111111111));
		sat += pg_popcount64((w & (w >> 1) & (w >> 2) & (w >> 3)) & UINT64CONST(0x1111111111111111));
	}
	*nonzero = nz;
	*saturated = sat;
}

/* ---------------------------------------------------------------------
 * The type's operations (BfTypeOps) for the generic entry points
 * ---------------------------------------------------------------------
 */

/* new_sized op: an empty filter for capacity elements at fpr */
static struct varlena *
CBloomNewSized(int64 capacity, double fpr, uint64 seed)
{
	uint64		m;
	uint32		k;

	CBloomSizeFor(capacity, fpr, &m, &k);
	return (struct varlena *) CBloomNew(m, k, seed);
}

/* text_read op: m and k; the payload is ceil(m / 16) words */
static Size
CBloomTextRead(BfTextFields *f, char *hdr, void **extra)
{
	CountingBloom *cb = (CountingBloom *) hdr;
	uint64		m = BfTextGetUInt64(f, "m", 1, CBLOOM_MAX_COUNTERS);
	uint64		k = BfTextGetUInt64(f, "k", 1, CBLOOM_MAX_K);

	cb->m = BfPut64(m);
	cb->k = BfPut32((uint32) k);
	return CBloomPayloadSize(m);
}

/* text_write op: m and k */
static void
CBloomTextWrite(StringInfo buf, const struct varlena *v)
{
	const CountingBloom *cb = (const CountingBloom *) v;

	appendStringInfo(buf, " m=" UINT64_FORMAT " k=%u", CBloomM(cb), CBloomK(cb));
}

/* add and agg_add op: increment the element's k counters */
static inline struct varlena *
CBloomAddOp(struct varlena *v, BfHasher *h, Datum value)
{
	CBloomAddDatum((CountingBloom *) v, h, value);
	return v;
}

/* remove op: take the element's counters down unless one is zero */
static void
CBloomRemoveOp(struct varlena *v, BfHasher *h, Datum value)
{
	CountingBloom *cb = (CountingBloom *) v;

	(void) CBloomRemoveHash(cb, BfHashDatumFast(h, value, BfGet64(cb->hdr.seed)), false);
}

/* merge op: add other's counters into state, in place */
static struct varlena *
CBloomUnionOp(struct varlena *state, const struct varlena *other)
{
	CBloomUnionInto((CountingBloom *) state, (const CountingBloom *) other);
	return state;
}

/* Merge function of -: subtract other's counters from state, in place */
static struct varlena *
CBloomDifferenceOp(struct varlena *state, const struct varlena *other)
{
	CBloomDifferenceInto((CountingBloom *) state, (const CountingBloom *) other);
	return state;
}

/* ahead_words op: a pending row is its k counter positions */
static uint32
CBloomAheadWords(const struct varlena *v)
{
	return CBloomK((const CountingBloom *) v);
}

/* ahead_prepare op: the k counter positions of hash h, their cache lines asked for */
static void
CBloomAheadPrepare(const struct varlena *v, uint64 h, uint64 *row)
{
	const CountingBloom *cb = (const CountingBloom *) v;

	BfPositionsPrefetched(h, CBloomM(cb), CBloomK(cb), cb->counters, 1, row);
}

/* ahead_add op: increment the counters of a prepared row */
static struct varlena *
CBloomAheadAdd(struct varlena *v, const uint64 *row)
{
	CountingBloom *cb = (CountingBloom *) v;
	uint32		k = CBloomK(cb);
	uint32		i;

	for (i = 0; i < k; i++)
		CBloomIncrement(cb->counters, row[i]);
	cb->hdr.ninserts = BfPut64(BfAddSat64(BfGet64(cb->hdr.ninserts), 1));
	return v;
}

static const BfTypeOps CBloomOps = {
	.name = "countingbloom",
	.kind = BF_KIND_COUNTINGBLOOM,
	.headsize = CBLOOM_HDRSZ,
	.check = CBloomCheck,
	.validate = CBloomValidate,
	.new_sized = CBloomNewSized,
	.text_read = CBloomTextRead,
	.text_write = CBloomTextWrite,
	.add = CBloomAddOp,
	.agg_add = CBloomAddOp,
	.remove = CBloomRemoveOp,
	.check_compatible = CBloomCheckCompatible,
	.merge = CBloomUnionOp,
	.compare = BfCompareAfterHeader,
	.hash = BfHashAfterHeader,
	.ahead_words = CBloomAheadWords,
	.ahead_prepare = CBloomAheadPrepare,
	.ahead_add = CBloomAheadAdd,
	.agg_final = countingbloom_agg_final,
	.agg_combine = countingbloom_union_trans,
};

/* The filter argument argno, detoasted and checked */
static inline CountingBloom *
CBloomGetArg(FunctionCallInfo fcinfo, int argno)
{
	return (CountingBloom *) BfGetFilterArg(fcinfo, argno, &CBloomOps);
}

/* ---------------------------------------------------------------------
 * SQL functions
 * ---------------------------------------------------------------------
 */

/* countingbloom_in(cstring) RETURNS countingbloom */
Datum
countingbloom_in(PG_FUNCTION_ARGS)
{
	return BfInGeneric(fcinfo, &CBloomOps);
}

/* countingbloom_out(countingbloom) RETURNS cstring */
Datum
countingbloom_out(PG_FUNCTION_ARGS)
{
	return BfOutGeneric(fcinfo, &CBloomOps);
}

/* countingbloom_recv(internal) RETURNS countingbloom */
Datum
countingbloom_recv(PG_FUNCTION_ARGS)
{
	return BfRecvGeneric(fcinfo, &CBloomOps);
}

/* countingbloom_send(countingbloom) RETURNS bytea */
Datum
countingbloom_send(PG_FUNCTION_ARGS)
{
	return BfSendGeneric(fcinfo, &CBloomOps);
}

/*
 * countingbloom_empty(capacity bigint, fpr float8, seed bigint)
 *		An empty filter sized like bloom_empty for capacity elements at
 *		false-positive rate fpr.
 */
Datum
countingbloom_empty(PG_FUNCTION_ARGS)
{
	return BfEmptyGeneric(fcinfo, &CBloomOps);
}

/*
 * countingbloom_create(m bigint, k integer, seed bigint)
 *		An empty filter with explicit m and k.
 */
Datum
countingbloom_create(PG_FUNCTION_ARGS)
{
	int64		m = PG_GETARG_INT64(0);
	int32		k = PG_GETARG_INT32(1);

	CBloomCheckParams(m, k);
	PG_RETURN_POINTER(CBloomNew((uint64) m, (uint32) k, (uint64) PG_GETARG_INT64(2)));
}

/*
 * countingbloom_add(countingbloom, anynonarray) RETURNS countingbloom
 *		A copy of the filter with the element added; a NULL element leaves
 *		the filter as it is.
 */
Datum
countingbloom_add(PG_FUNCTION_ARGS)
{
	return BfAddGeneric(fcinfo, &CBloomOps);
}

/*
 * countingbloom_add(countingbloom, anyarray) RETURNS countingbloom
 *		A copy of the filter with every non-null array element added (an
 *		element given twice is added twice).
 */
Datum
countingbloom_add_array(PG_FUNCTION_ARGS)
{
	return BfAddArrayGeneric(fcinfo, &CBloomOps);
}

/*
 * countingbloom_remove(countingbloom, anynonarray) RETURNS countingbloom
 *		A copy of the filter with one occurrence of the element removed.  An
 *		element that is certainly absent (a zero counter) leaves the filter
 *		unchanged, silently; so does a NULL element.
 */
Datum
countingbloom_remove(PG_FUNCTION_ARGS)
{
	return BfRemoveGeneric(fcinfo, &CBloomOps);
}

/*
 * countingbloom_remove(countingbloom, anyarray) RETURNS countingbloom
 *		A copy of the filter with each non-null array element removed once,
 *		in array order, as countingbloom_remove does.
 */
Datum
countingbloom_remove_array(PG_FUNCTION_ARGS)
{
	return BfRemoveArrayGeneric(fcinfo, &CBloomOps);
}

/*
 * countingbloom_contains(countingbloom, anynonarray) RETURNS bool	(@>)
 *		Whether the element may be in the filter (false means: certainly not).
 */
Datum
countingbloom_contains(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(CBloomProbe(fcinfo, 0, 1, true) != 0);
}

/*
 * countingbloom_contained(anynonarray, countingbloom) RETURNS bool	(<@)
 */
Datum
countingbloom_contained(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(CBloomProbe(fcinfo, 1, 0, true) != 0);
}

/*
 * countingbloom_count(countingbloom, anynonarray) RETURNS integer
 *		The smallest of the element's k counters: an upper bound of how many
 *		times it was added (and not removed); 15 means "15 or more".
 */
Datum
countingbloom_count(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32((int32) CBloomProbe(fcinfo, 0, 1, false));
}

/*
 * countingbloom_union(countingbloom, countingbloom)	(operator |)
 *		Counter-wise sum, saturating at 15.
 */
Datum
countingbloom_union(PG_FUNCTION_ARGS)
{
	return BfCombineGeneric(fcinfo, &CBloomOps, CBloomUnionOp, true);
}

/*
 * countingbloom_difference(countingbloom, countingbloom)	(operator -)
 *		Counter-wise difference, never below 0; saturated counters of the
 *		left filter stay saturated.
 */
Datum
countingbloom_difference(PG_FUNCTION_ARGS)
{
	return BfCombineGeneric(fcinfo, &CBloomOps, CBloomDifferenceOp, true);
}

/*
 * countingbloom_eq, _ne, _lt, _le, _gt, _ge(countingbloom, countingbloom) RETURNS bool	(=, <>, <, <=, >, >=)
 *		A total order over all values (design.md, "Equality and ordering"):
 *		filters with different parameters are unequal, not an error.
 */
Datum
countingbloom_eq(PG_FUNCTION_ARGS)
{
	return BfCompareGeneric(fcinfo, &CBloomOps, BF_CMP_EQ);
}

Datum
countingbloom_ne(PG_FUNCTION_ARGS)
{
	return BfCompareGeneric(fcinfo, &CBloomOps, BF_CMP_NE);
}

Datum
countingbloom_lt(PG_FUNCTION_ARGS)
{
	return BfCompareGeneric(fcinfo, &CBloomOps, BF_CMP_LT);
}

Datum
countingbloom_le(PG_FUNCTION_ARGS)
{
	return BfCompareGeneric(fcinfo, &CBloomOps, BF_CMP_LE);
}

Datum
countingbloom_gt(PG_FUNCTION_ARGS)
{
	return BfCompareGeneric(fcinfo, &CBloomOps, BF_CMP_GT);
}

Datum
countingbloom_ge(PG_FUNCTION_ARGS)
{
	return BfCompareGeneric(fcinfo, &CBloomOps, BF_CMP_GE);
}

/* countingbloom_cmp(countingbloom, countingbloom) RETURNS int4: the btree operator class's support function */
Datum
countingbloom_cmp(PG_FUNCTION_ARGS)
{
	return BfCompareGeneric(fcinfo, &CBloomOps, BF_CMP);
}

/* countingbloom_hash(countingbloom) RETURNS int4: the hash operator class's support function */
Datum
countingbloom_hash(PG_FUNCTION_ARGS)
{
	return BfHashGeneric(fcinfo, &CBloomOps, false);
}

/* countingbloom_hash_extended(countingbloom, bigint) RETURNS bigint: the seeded 64-bit hash support function */
Datum
countingbloom_hash_extended(PG_FUNCTION_ARGS)
{
	return BfHashGeneric(fcinfo, &CBloomOps, true);
}

/*
 * countingbloom_cardinality(countingbloom) RETURNS bigint
 *		Swamidass-Baldi over the non-zero counters, as bloom_cardinality.
 */
Datum
countingbloom_cardinality(PG_FUNCTION_ARGS)
{
	CountingBloom *cb = CBloomGetArg(fcinfo, 0);
	uint64		nonzero,
				saturated;

	CBloomCounterStats(cb, &nonzero, &saturated);
	PG_RETURN_INT64((int64) llround(BloomEstimateCardinality(CBloomM(cb), CBloomK(cb), nonzero)));
}

/*
 * countingbloom_fpr(countingbloom) RETURNS float8
 *		The fraction of non-zero counters to the power k.
 */
Datum
countingbloom_fpr(PG_FUNCTION_ARGS)
{
	CountingBloom *cb = CBloomGetArg(fcinfo, 0);
	uint64		nonzero,
				saturated;

	CBloomCounterStats(cb, &nonzero, &saturated);
	PG_RETURN_FLOAT8(BloomEstimateFpr(CBloomM(cb), CBloomK(cb), nonzero));
}

/*
 * countingbloom_info(countingbloom) RETURNS record
 *		Every parameter, the size, the fill, the saturated counters and the
 *		estimates.
 */
Datum
countingbloom_info(PG_FUNCTION_ARGS)
{
	CountingBloom *cb = CBloomGetArg(fcinfo, 0);
	uint64		m = CBloomM(cb);
	uint32		k = CBloomK(cb);
	uint64		n = BfGet64(cb->hdr.ninserts);
	uint64		nonzero,
				saturated;
	Datum		values[12];
	bool		nulls[12] = {0};

	CBloomCounterStats(cb, &nonzero, &saturated);
	values[0] = Int32GetDatum(cb->hdr.version);
	values[1] = CStringGetTextDatum("xxh3");
	values[2] = Int64GetDatum((int64) BfGet64(cb->hdr.seed));
	values[3] = Int64GetDatum((int64) m);
	values[4] = Int32GetDatum((int32) k);
	values[5] = Int64GetDatum(n > (uint64) PG_INT64_MAX ? PG_INT64_MAX : (int64) n);
	values[6] = Int64GetDatum((int64) nonzero);
	values[7] = Int64GetDatum((int64) saturated);
	values[8] = Float8GetDatum((double) nonzero / (double) m);
	values[9] = Int64GetDatum((int64) VARSIZE(cb));
	values[10] = Int64GetDatum((int64) llround(BloomEstimateCardinality(m, k, nonzero)));
	values[11] = Float8GetDatum(BloomEstimateFpr(m, k, nonzero));
	PG_RETURN_DATUM(BfInfoTuple(fcinfo, values, nulls, 12));
}

/*
 * countingbloom_to_bloom(countingbloom) RETURNS bloom	(cast)
 *		The Bloom filter with the same m, k and seed whose bit i is set
 *		exactly when counter i is non-zero.
 */
Datum
countingbloom_to_bloom(PG_FUNCTION_ARGS)
{
	PG_RETURN_POINTER(CBloomToBloom(CBloomGetArg(fcinfo, 0)));
}

/*
 * The state argument of a transition function, to be updated in place.
 * Inside an aggregate it is a state this module built (or a copy of a
 * checked filter); a direct call gets a checked private copy.
 */
static inline CountingBloom *
CBloomStateForUpdate(FunctionCallInfo fcinfo, int argno)
{
	CountingBloom *state = (CountingBloom *) BfStateForUpdate(fcinfo, argno);

	if (!BfInAggregate(fcinfo))
		CBloomCheck(state, VARSIZE(state));
	return state;
}

/*
 * countingbloom_agg_trans(countingbloom, anynonarray [, bigint, float8])
 *		Aggregate transition (also the moving-aggregate one): add the
 *		element to the state, creating the state on the first row.  NULL
 *		elements are skipped.  Never returns NULL.
 */
Datum
countingbloom_agg_trans(PG_FUNCTION_ARGS)
{
	return BfAggTransGeneric(fcinfo, &CBloomOps);
}

/*
 * countingbloom_agg_inv(countingbloom, anynonarray [, bigint, float8])
 *		Moving-aggregate inverse transition: remove an element that the
 *		transition function added.  When a counter of the element is
 *		saturated its true value is unknown, so the inverse returns NULL,
 *		which makes the window machinery recompute the frame from scratch:
 *		the result is always the filter of exactly the frame's rows.
 */
Datum
countingbloom_agg_inv(PG_FUNCTION_ARGS)
{
	CountingBloom *state;

	if (PG_ARGISNULL(0))
		PG_RETURN_NULL();
	if (PG_ARGISNULL(1))
		PG_RETURN_DATUM(PG_GETARG_DATUM(0));
	state = CBloomStateForUpdate(fcinfo, 0);
	if (CBloomRemoveHash(state, BfHashDatumFast(BfGetHasher(fcinfo, 1), PG_GETARG_DATUM(1),
											BfGet64(state->hdr.seed)),
						 true) != CBLOOM_REMOVED)
		PG_RETURN_NULL();
	PG_RETURN_POINTER(state);
}

/*
 * countingbloom_agg_final(countingbloom [, anynonarray, bigint, float8])
 *		The state, unchanged (the window machinery calls this repeatedly on
 *		a live state), or over no rows an empty filter with the aggregate's
 *		parameters (its constant arguments, else the constant defaults).
 *		An overfilled result (bloom's rule, over the non-zero counters) gets
 *		one WARNING per group, as bloom_agg's does (none in window frames).
 */
Datum
countingbloom_agg_final(PG_FUNCTION_ARGS)
{
	Datum		result = BfAggFinalGeneric(fcinfo, &CBloomOps);
	const CountingBloom *cb = (const CountingBloom *) DatumGetPointer(result);
	uint64		nonzero,
				saturated;

	if (PG_ARGISNULL(0) || AggCheckCallContext(fcinfo, NULL) != AGG_CONTEXT_AGGREGATE)
		return result;
	CBloomCounterStats(cb, &nonzero, &saturated);
	if (BloomOverfilled(CBloomM(cb), CBloomK(cb), nonzero))
		BloomWarnOverfilled("counting bloom filter", "counters are non-zero", "countingbloom_agg",
							CBloomM(cb), CBloomK(cb), nonzero);
	return result;
}

/*
 * countingbloom_union_trans(countingbloom, countingbloom)
 *		Transition function of countingbloom_union_agg and combine function
 *		of every countingbloom aggregate: add the right filter's counters
 *		into the state.
 */
Datum
countingbloom_union_trans(PG_FUNCTION_ARGS)
{
	return BfMergeTransGeneric(fcinfo, &CBloomOps, CBloomUnionOp);
}
