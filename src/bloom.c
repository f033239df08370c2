/*
 * bloom.c
 *		The bloom type: a classic Bloom filter of m bits and k hash positions.
 *
 * Layout (doc/design.md): the common 24-byte header, then m (uint64 LE),
 * k (uint32 LE), a reserved uint32 (0), then ceil(m / 64) * 8 bytes of bits.
 * Bit i is bit (i % 8) of byte i / 8; bits at and beyond m are always zero.
 * A value with header flag bit 0 is a self-sized filter instead, a chain of
 * such bit arrays (bloomselfsized.c); the functions here serve both.
 */
#include "bloomfilter.h"

#include <math.h>

#include "catalog/pg_type.h"
#include "common/shortest_dec.h"
#include "port/pg_bitutils.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"

#include "bloom.h"

PG_FUNCTION_INFO_V1(bloom_in);
PG_FUNCTION_INFO_V1(bloom_out);
PG_FUNCTION_INFO_V1(bloom_recv);
PG_FUNCTION_INFO_V1(bloom_send);
PG_FUNCTION_INFO_V1(bloom_empty);
PG_FUNCTION_INFO_V1(bloom_empty_self_sized);
PG_FUNCTION_INFO_V1(bloom_create);
PG_FUNCTION_INFO_V1(bloom_add);
PG_FUNCTION_INFO_V1(bloom_add_array);
PG_FUNCTION_INFO_V1(bloom_contains);
PG_FUNCTION_INFO_V1(bloom_contained);
PG_FUNCTION_INFO_V1(bloom_contains_bloom);
PG_FUNCTION_INFO_V1(bloom_contained_bloom);
PG_FUNCTION_INFO_V1(bloom_union);
PG_FUNCTION_INFO_V1(bloom_intersect);
PG_FUNCTION_INFO_V1(bloom_eq);
PG_FUNCTION_INFO_V1(bloom_ne);
PG_FUNCTION_INFO_V1(bloom_lt);
PG_FUNCTION_INFO_V1(bloom_le);
PG_FUNCTION_INFO_V1(bloom_gt);
PG_FUNCTION_INFO_V1(bloom_ge);
PG_FUNCTION_INFO_V1(bloom_cmp);
PG_FUNCTION_INFO_V1(bloom_hash);
PG_FUNCTION_INFO_V1(bloom_hash_extended);
PG_FUNCTION_INFO_V1(bloom_cardinality);
PG_FUNCTION_INFO_V1(bloom_fpr);
PG_FUNCTION_INFO_V1(bloom_info);
PG_FUNCTION_INFO_V1(bloom_agg_trans);
PG_FUNCTION_INFO_V1(bloom_agg_final);
PG_FUNCTION_INFO_V1(bloom_agg_auto_trans);
PG_FUNCTION_INFO_V1(bloom_agg_auto_final);
PG_FUNCTION_INFO_V1(bloom_union_trans);
PG_FUNCTION_INFO_V1(bloom_intersect_trans);

/* Payload bytes of a filter of m bits (whole 64-bit words) */
Size
BloomPayloadSize(uint64 m)
{
	return (Size) (((m + 63) / 64) * 8);
}

/* Check the parameters m and k, raising 22023 (or 54000 for size) */
static void
BloomCheckParams(int64 m, int64 k)
{
	if (m < 1 || (double) m > (double) BLOOM_MAX_BITS)
	{
		if (m >= 1)
			BfCheckSize("bloom", (double) BLOOM_HDRSZ + ceil((double) m / 64.0) * 8.0);
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("number of bits m must be between 1 and " UINT64_FORMAT, BLOOM_MAX_BITS),
				 errdetail("m = " INT64_FORMAT " was given.", m),
				 errhint("Use bloom_empty(capacity, fpr) to have m and k computed.")));
	}
	if (k < 1 || k > BLOOM_MAX_K)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("number of hash functions k must be between 1 and %d", BLOOM_MAX_K),
				 errdetail("k = " INT64_FORMAT " was given.", k),
				 errhint("Use bloom_empty(capacity, fpr) to have m and k computed.")));
}

/* A new empty filter (palloc'd in the current context) */
Bloom *
BloomNew(uint64 m, uint32 k, uint64 seed)
{
	Size		size;
	Bloom	   *b;

	BloomCheckParams((int64) m, k);
	size = BLOOM_HDRSZ + BloomPayloadSize(m);
	b = palloc0(size);
	BfInitHeader(&b->hdr, size, BF_KIND_BLOOM, seed);
	b->m = BfPut64(m);
	b->k = BfPut32(k);
	return b;
}

/*
 * m and k for n elements at false-positive rate p:
 * m = ceil(-n ln p / (ln 2)^2), k = round(m / n * ln 2), at least 1.
 */
void
BloomSizeFor(int64 capacity, double fpr, uint64 *m, uint32 *k)
{
	double		dm,
				dk;

	BfCheckCapacityFpr(capacity, fpr);
	dm = ceil(-(double) capacity * log(fpr) / (M_LN2 * M_LN2));
	BfCheckSize("bloom", (double) BLOOM_HDRSZ + ceil(dm / 64.0) * 8.0);
	dk = round(dm / (double) capacity * M_LN2);
	if (dk < 1)
		dk = 1;
	if (dk > BLOOM_MAX_K)
		dk = BLOOM_MAX_K;
	*m = (uint64) dm;
	*k = (uint32) dk;
}

/* Describe a filter's parameters for error messages */
static char *
BloomParamString(const Bloom *b)
{
	if (BloomIsSelfSized(b))
	{
		const BloomMember *mb = BloomSsSingleBits((const struct varlena *) b);

		if (mb != NULL)
			return psprintf("self-sized m=" UINT64_FORMAT ", k=%u, seed=" INT64_FORMAT,
							BfGet64(mb->m), BfGet32(mb->k), (int64) BfGet64(b->hdr.seed));
		return psprintf("%d self-sized members, seed=" INT64_FORMAT,
						BloomSsMembers(b), (int64) BfGet64(b->hdr.seed));
	}
	return psprintf("m=" UINT64_FORMAT ", k=%u, seed=" INT64_FORMAT,
					BloomM(b), BloomK(b), (int64) BfGet64(b->hdr.seed));
}

/*
 * Cheap structural check run on every datum a function receives: header,
 * parameter ranges, and a size that matches m.  Input functions add the
 * full check of the payload (BloomValidate).
 */
void
BloomCheck(const void *b_arg, Size size)
{
	const Bloom *b = b_arg;
	uint64		m;
	uint32		k;

	BfValidateHeader("bloom", (const struct varlena *) b, BF_KIND_BLOOM, BLOOM_HDRSZ);
	if (BloomIsSelfSized(b))
	{
		BloomSsCheck(b, size);
		return;
	}
	m = BloomM(b);
	k = BloomK(b);
	if (m < 1 || m > BLOOM_MAX_BITS)
		BfCorrupt("bloom", "m = " UINT64_FORMAT " is out of range.", m);
	if (k < 1 || k > BLOOM_MAX_K)
		BfCorrupt("bloom", "k = %u is out of range.", k);
	if (b->reserved != 0)
		BfCorrupt("bloom", "The reserved header field is not zero.");
	if (size != BLOOM_HDRSZ + BloomPayloadSize(m))
		BfCorrupt("bloom", "The value is %zu bytes long, but m = " UINT64_FORMAT " needs %zu.",
				  size, m, BLOOM_HDRSZ + BloomPayloadSize(m));
}

/* Full check of a value from outside: structure plus no bits beyond m */
static void
BloomValidate(const void *b_arg)
{
	const Bloom *b = b_arg;
	uint64		m,
				i,
				nbits;

	BloomCheck(b, VARSIZE(b));
	if (BloomIsSelfSized(b))
	{
		BloomSsValidate(b);
		return;
	}
	m = BloomM(b);
	nbits = (uint64) BloomPayloadSize(m) * 8;
	for (i = m; i < nbits && (i & 7) != 0; i++)
		if (b->bits[i >> 3] & (1 << (i & 7)))
			BfCorrupt("bloom", "Bit " UINT64_FORMAT " is set, beyond m = " UINT64_FORMAT ".", i, m);
	for (i = (m + 7) / 8; i < nbits / 8; i++)
		if (b->bits[i] != 0)
			BfCorrupt("bloom", "Bits beyond m = " UINT64_FORMAT " are set.", m);
}

/* Set the k bits of hash h (the per-row path of the fixed-size aggregate) */
static inline void
BloomSetHash(Bloom *b, uint64 m, uint32 k, uint64 h)
{
	BfPositions p;
	uint32		i;

	BfPositionsInit(&p, h);
	for (i = 0; i < k; i++)
	{
		uint64		pos = BfPositionsNext(&p, m);

#ifdef WORDS_BIGENDIAN
		b->bits[pos >> 3] |= (uint8) (1 << (pos & 7));
#else
		/* bit pos & 7 of byte pos >> 3 is bit pos & 63 of the LE word */
		((uint64 *) b->bits)[pos >> 6] |= UINT64CONST(1) << (pos & 63);
#endif
	}
}

/* Add one element datum (not null) hashed by hasher h: the inlined body */
static inline void
BloomAddDatumInline(Bloom *b, BfHasher *h, Datum value)
{
	BloomSetHash(b, BloomM(b), BloomK(b), BfHashDatumFast(h, value, BfGet64(b->hdr.seed)));
	b->hdr.ninserts = BfPut64(BfAddSat64(BfGet64(b->hdr.ninserts), 1));
}

/* Whether all k bits of hash h are set in a filter in memory */
bool
BloomTestHashFull(const Bloom *b, uint64 h)
{
	return BloomBitsTestHash(b->bits, BloomM(b), BloomK(b), h);
}

/* Whether all k bits of hash h are set in an opened filter */
static bool
BloomTestHash(BfFilterRef *ref, uint64 m, uint32 k, uint64 h)
{
	BfPositions p;
	uint32		i;

	if (ref->full)
		return BloomTestHashFull((const Bloom *) ref->full, h);
	BfPositionsInit(&p, h);
	for (i = 0; i < k; i++)
	{
		uint64		pos = BfPositionsNext(&p, m);
		uint8		byte;

		BfRefReadBytes(ref, BLOOM_HDRSZ + (pos >> 3), 1, &byte);
		if ((byte & (1 << (pos & 7))) == 0)
			return false;
	}
	return true;
}

/* Probe the filter argument fargno for the element argument eargno */
static bool
BloomProbe(FunctionCallInfo fcinfo, int fargno, int eargno)
{
	BfFilterRef ref;
	const Bloom *head;
	BfHasher   *h = BfGetHasher(fcinfo, eargno);

	BfOpenFilter(fcinfo, fargno, BLOOM_HDRSZ, &ref);
	head = (const Bloom *) BfRefHead(&ref);
	/* both layouts have a 40-byte fixed part: check it before reading the flags */
	BfValidateHeader("bloom", (const struct varlena *) head, BF_KIND_BLOOM, BLOOM_HDRSZ);
	if (BloomIsSelfSized(head))
	{
		/* each member's header is checked as the probe reads it */
		if (ref.full)
			BloomSsCheck(ref.full, ref.total);
		return BloomSsTestRef(&ref, BfHashDatumFast(h, PG_GETARG_DATUM(eargno),
													BfGet64(head->hdr.seed)));
	}
	BloomCheck(head, ref.total);	/* reads the header only: fine in slice mode */
	return BloomTestHash(&ref, BloomM(head), BloomK(head),
						 BfHashDatumFast(h, PG_GETARG_DATUM(eargno), BfGet64(head->hdr.seed)));
}

/* Raise 22023 unless a and b have the same m, k and seed */
void
BloomCheckCompatible(const void *a_arg, const void *b_arg)
{
	const Bloom *a = a_arg;
	const Bloom *b = b_arg;

	/* a self-sized filter unions with any filter of the same hashing */
	if (BloomIsSelfSized(a) || BloomIsSelfSized(b))
	{
		if (a->hdr.seed != b->hdr.seed || a->hdr.hashalg != b->hdr.hashalg)
			BfParamMismatch("bloom", BloomParamString(a), BloomParamString(b));
		return;
	}
	if (BloomM(a) != BloomM(b) || BloomK(a) != BloomK(b) ||
		a->hdr.seed != b->hdr.seed || a->hdr.hashalg != b->hdr.hashalg)
		BfParamMismatch("bloom", BloomParamString(a), BloomParamString(b));
}

/* OR b's bits into a (same parameters) */
void
BloomUnionInto(Bloom *a, const Bloom *b)
{
	Size		n = BloomPayloadSize(BloomM(a)) / 8,
				i;

	for (i = 0; i < n; i++)
	{
		uint64		x,
					y;

		memcpy(&x, a->bits + i * 8, 8);
		memcpy(&y, b->bits + i * 8, 8);
		x |= y;
		memcpy(a->bits + i * 8, &x, 8);
	}
	a->hdr.ninserts = BfPut64(BfAddSat64(BfGet64(a->hdr.ninserts), BfGet64(b->hdr.ninserts)));
}

/*
 * The one bit array of a filter, for the operations that compare bit arrays
 * position by position (&, bloom_intersect_agg, filter @> filter): a fixed
 * filter's, or a self-sized filter's when it has a single Bloom member.  A
 * longer chain raises 22023: its members have different sizes.
 */
static uint8 *
BloomOneBitArray(const Bloom *b, uint64 *m, uint32 *k)
{
	const BloomMember *mb;

	if (!BloomIsSelfSized(b))
	{
		*m = BloomM(b);
		*k = BloomK(b);
		return (uint8 *) b->bits;
	}
	mb = BloomSsSingleBits((const struct varlena *) b);
	if (mb == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("bloom filter intersection and containment need one bit array on each side"),
				 BloomSsMembers(b) == 0 ?
				 errdetail("One side is an empty self-sized filter: it has no bit array yet.") :
				 BloomSsMembers(b) == 1 &&
				 BfGet32(((const BloomMember *) ((const BloomSs *) b)->members)->kind) == BLOOM_MEMBER_HASHES ?
				 errdetail("One side is an aggregate's unsealed state (a list of hashes).") :
				 BloomSsMembers(b) == 1 ?
				 errdetail("One side is a self-sized filter grown by bloom_add (a list of fingerprints).") :
				 errdetail("One side is a self-sized filter of %d members.", BloomSsMembers(b)),
				 errhint("Build both sides with the same capacity and fpr, bloom_agg(x, capacity, fpr) or bloom_empty(capacity, fpr); "
						 "a union (|) works on any filters.")));
	*m = BfGet64(mb->m);
	*k = BfGet32(mb->k);
	return (uint8 *) mb->payload;
}

/* The bit arrays of a and b, whose m, k and seed must match (22023) */
static void
BloomTwoBitArrays(const Bloom *a, const Bloom *b, uint8 **x, const uint8 **y, Size *nwords)
{
	uint64		ma,
				mb;
	uint32		ka,
				kb;

	*x = BloomOneBitArray(a, &ma, &ka);
	*y = BloomOneBitArray(b, &mb, &kb);
	if (ma != mb || ka != kb || a->hdr.seed != b->hdr.seed)
		BfParamMismatch("bloom", BloomParamString(a), BloomParamString(b));
	*nwords = BloomPayloadSize(ma) / 8;
}

/*
 * Elements counted in a filter's one bit array: its insert counter, or a
 * self-sized filter's member's count
 */
static uint64
BloomBitArrayCount(const Bloom *b)
{
	if (BloomIsSelfSized(b))
		return BfGet64(BloomSsSingleBits((const struct varlena *) b)->count);
	return BfGet64(b->hdr.ninserts);
}

/*
 * AND b's bits into a (one bit array each, same parameters).  The counts
 * (the insert counter, a member's count and capacity) and a self-sized
 * target rate become the smaller of the two, so that the result does not
 * depend on which side a was.
 */
static void
BloomIntersectInto(Bloom *a, const Bloom *b)
{
	uint8	   *x;
	const uint8 *y;
	Size		n,
				i;

	BloomTwoBitArrays(a, b, &x, &y, &n);
	for (i = 0; i < n; i++)
	{
		uint64		wx,
					wy;

		memcpy(&wx, x + i * 8, 8);
		memcpy(&wy, y + i * 8, 8);
		wx &= wy;
		memcpy(x + i * 8, &wx, 8);
	}
	a->hdr.ninserts = BfPut64(Min(BfGet64(a->hdr.ninserts), BfGet64(b->hdr.ninserts)));
	if (BloomIsSelfSized(a))
	{
		BloomSs    *ss = (BloomSs *) a;
		BloomMember *ma = unconstify(BloomMember *, BloomSsSingleBits((struct varlena *) a));

		ma->count = BfPut64(Min(BloomBitArrayCount(a), BloomBitArrayCount(b)));
		if (BloomIsSelfSized(b))
		{
			const BloomMember *mb = BloomSsSingleBits((const struct varlena *) b);

			if (BloomSsTarget(b) < BloomSsTarget(a))
				ss->fpr = ((const BloomSs *) b)->fpr;
			ma->capacity = BfPut64(Min(BfGet64(ma->capacity), BfGet64(mb->capacity)));
		}
	}
}

/* Whether every bit of b is set in a (one bit array each, same parameters) */
static bool
BloomIsSuperset(const Bloom *a, const Bloom *b)
{
	uint8	   *x;
	const uint8 *y;
	Size		n,
				i;

	BloomTwoBitArrays(a, b, &x, &y, &n);
	for (i = 0; i < n; i++)
	{
		uint64		wx,
					wy;

		memcpy(&wx, x + i * 8, 8);
		memcpy(&wy, y + i * 8, 8);
		if ((wx & wy) != wy)
			return false;
	}
	return true;
}

/* Number of set bits */
uint64
BloomBitsSet(const Bloom *b)
{
	Size		n = BloomPayloadSize(BloomM(b));
	uint64		total = 0;
	Size		off;

	/* pg_popcount takes an int length: go in chunks */
	for (off = 0; off < n; off += 1 << 30)
		total += pg_popcount((const char *) b->bits + off, (int) Min(n - off, (Size) 1 << 30));
	return total;
}

/*
 * Swamidass-Baldi estimate of the number of distinct elements:
 * n = -(m / k) ln(1 - X / m).  Special cases: X = 0 gives 0; 0 < X <= k
 * gives 1 (one element sets at most k bits); X = m (saturated) gives the
 * estimate for X = m - 1/2, a lower bound.
 */
double
BloomEstimateCardinality(uint64 m, uint32 k, uint64 x)
{
	double		dx = (double) x;

	if (x == 0)
		return 0.0;
	if (x <= k)
		return 1.0;
	if (x >= m)
		dx = (double) m - 0.5;
	return -((double) m / (double) k) * log1p(-dx / (double) m);
}

/* Current false-positive probability: the fill ratio to the power k */
double
BloomEstimateFpr(uint64 m, uint32 k, uint64 x)
{
	return pow((double) x / (double) m, (double) k);
}

/* ---------------------------------------------------------------------
 * The type's operations (BfTypeOps) for the generic entry points
 * ---------------------------------------------------------------------
 */

/* new_sized op: an empty filter for capacity elements at fpr */
static struct varlena *
BloomNewSized(int64 capacity, double fpr, uint64 seed)
{
	uint64		m;
	uint32		k;

	BloomSizeFor(capacity, fpr, &m, &k);
	return (struct varlena *) BloomNew(m, k, seed);
}

/*
 * text_read op: m and k (the payload is ceil(m / 64) words), or for a
 * self-sized filter fpr, members and bytes (the payload is its members)
 */
static Size
BloomTextRead(BfTextFields *f, char *hdr, void **extra)
{
	Bloom	   *b = (Bloom *) hdr;
	uint64		m,
				k;

	if (BfTextHas(f, "fpr"))
	{
		BloomSs    *ss = (BloomSs *) hdr;
		double		fpr = BfTextGetFloat8(f, "fpr", 0.0, 1.0);
		uint64		bits;

		memcpy(&bits, &fpr, sizeof(bits));
		ss->fpr = BfPut64(bits);
		ss->nmembers = BfPut32((uint32) BfTextGetUInt64(f, "members", 0, PG_INT32_MAX));
		*extra = (void *) ss;	/* non-NULL: set the flag in text_done */
		return (Size) BfTextGetUInt64(f, "bytes", 0, BF_MAX_DATUM_SIZE - BLOOM_SS_HDRSZ);
	}
	m = BfTextGetUInt64(f, "m", 1, BLOOM_MAX_BITS);
	k = BfTextGetUInt64(f, "k", 1, BLOOM_MAX_K);
	b->m = BfPut64(m);
	b->k = BfPut32((uint32) k);
	return BloomPayloadSize(m);
}

/* text_done op: mark a self-sized filter read from text as one */
static void
BloomTextDone(const struct varlena *v, void *extra)
{
	if (extra != NULL)
		((BfHeader *) v)->flags = BLOOM_FLAG_SELF_SIZED;
}

/* text_write op: m and k, or fpr, members and bytes */
static void
BloomTextWrite(StringInfo buf, const struct varlena *v)
{
	const Bloom *b = (const Bloom *) v;

	if (BloomIsSelfSized(b))
	{
		/* the shortest decimal that reads back as the same float8, whatever extra_float_digits */
		char		fpr[DOUBLE_SHORTEST_DECIMAL_LEN];

		double_to_shortest_decimal_buf(BloomSsTarget(b), fpr);
		appendStringInfo(buf, " fpr=%s members=%d bytes=%zu", fpr,
						 BloomSsMembers(b), (Size) (VARSIZE(b) - BLOOM_SS_HDRSZ));
	}
	else
		appendStringInfo(buf, " m=" UINT64_FORMAT " k=%u", BloomM(b), BloomK(b));
}

/* agg_add op of the fixed-size aggregate: set the element's k bits (inlined into bloom_agg_trans) */
static inline struct varlena *
BloomAggAddOp(struct varlena *v, BfHasher *h, Datum value)
{
	if (unlikely(BloomIsSelfSized(v)))	/* a self-sized state given by hand */
		return BloomSsAdd(v, BfHashDatumFast(h, value, BfGet64(((BfHeader *) v)->seed)));
	BloomAddDatumInline((Bloom *) v, h, value);
	return v;
}

/* add op: set the element's k bits, or add it to a self-sized filter (which may grow) */
static struct varlena *
BloomAddOp(struct varlena *v, BfHasher *h, Datum value)
{
	if (BloomIsSelfSized(v))
		return BloomSsAdd(v, BfHashDatumFast(h, value, BfGet64(((BfHeader *) v)->seed)));
	BloomAddDatumInline((Bloom *) v, h, value);
	return v;
}

/*
 * merge op: OR other into state, in place; with a self-sized filter on
 * either side, a new self-sized filter with the members of both
 */
static struct varlena *
BloomUnionOp(struct varlena *state, const struct varlena *other)
{
	if (BloomIsSelfSized(state) || BloomIsSelfSized(other))
		return BloomSsUnion(state, other);
	BloomUnionInto((Bloom *) state, (const Bloom *) other);
	return state;
}

/*
 * Merge function of & and bloom_intersect_agg: AND other into state, in
 * place, or, when only other is self-sized, into a copy of other (the result
 * is self-sized when either side is, as for |, so that a & b = b & a)
 */
static struct varlena *
BloomIntersectOp(struct varlena *state, const struct varlena *other)
{
	if (!BloomIsSelfSized(state) && BloomIsSelfSized(other))
	{
		struct varlena *copy;
		uint8	   *x;
		const uint8 *y;
		Size		n;

		/* parameters checked in argument order, for the message */
		BloomTwoBitArrays((const Bloom *) state, (const Bloom *) other, &x, &y, &n);
		copy = palloc(VARSIZE(other));
		memcpy(copy, other, VARSIZE(other));
		BloomIntersectInto((Bloom *) copy, (const Bloom *) state);
		return copy;
	}
	BloomIntersectInto((Bloom *) state, (const Bloom *) other);
	return state;
}

/*
 * ahead_words op: a pending row is its k bit positions; 0 (no ring) for a
 * self-sized filter, which a user's aggregate with an initial value could
 * hand to bloom_agg_trans
 */
static uint32
BloomAheadWords(const struct varlena *v)
{
	if (BloomIsSelfSized(v))
		return 0;
	return BloomK((const Bloom *) v);
}

/* ahead_prepare op: the k bit positions of hash h, their cache lines asked for */
static void
BloomAheadPrepare(const struct varlena *v, uint64 h, uint64 *row)
{
	const Bloom *b = (const Bloom *) v;

	BfPositionsPrefetched(h, BloomM(b), BloomK(b), b->bits, 3, row);
}

/*
 * ahead_add op: set the bits of a prepared row (a fixed filter: the
 * aggregate's state is one, BfAheadAttach takes no other)
 */
static struct varlena *
BloomAheadAdd(struct varlena *v, const uint64 *row)
{
	Bloom	   *b = (Bloom *) v;
	uint32		k = BloomK(b);
	uint32		i;

	Assert(!BloomIsSelfSized(v));
	for (i = 0; i < k; i++)
		b->bits[row[i] >> 3] |= (uint8) (1 << (row[i] & 7));
	b->hdr.ninserts = BfPut64(BfAddSat64(BfGet64(b->hdr.ninserts), 1));
	return v;
}

static const BfTypeOps BloomOps = {
	.name = "bloom",
	.kind = BF_KIND_BLOOM,
	.headsize = BLOOM_HDRSZ,
	.check = BloomCheck,
	.validate = BloomValidate,
	.new_sized = BloomNewSized,
	.text_read = BloomTextRead,
	.text_done = BloomTextDone,
	.text_write = BloomTextWrite,
	.add = BloomAddOp,
	.agg_add = BloomAggAddOp,
	.check_compatible = BloomCheckCompatible,
	.merge = BloomUnionOp,
	.compare = BfCompareAfterHeader,
	.hash = BfHashAfterHeader,
	.ahead_words = BloomAheadWords,
	.ahead_prepare = BloomAheadPrepare,
	.ahead_add = BloomAheadAdd,
	.agg_final = bloom_agg_final,
	.agg_combine = bloom_union_trans,
};

/*
 * Whether a filter is overfilled: its false-positive rate now, (x/m)^k, is
 * more than twice the rate at its design fill, half the bits set (bloom_empty
 * chooses k = round(m/n ln 2), which sets half the bits at n elements):
 * (x/m)^k > 2 * 0.5^k, that is x/m > 0.5 * 2^(1/k) (design.md, "bloom").
 * Also the rule of counting filters, whose x is their non-zero counters.
 */
bool
BloomOverfilled(uint64 m, uint32 k, uint64 x)
{
	return (double) x / (double) m > 0.5 * pow(2.0, 1.0 / (double) k);
}

/*
 * The one WARNING of an aggregate whose fixed-size result is overfilled (x of
 * its m positions set, bits or non-zero counters), once per group: typname
 * names the filter, positions what x counts, aggname the aggregate to size.
 */
void
BloomWarnOverfilled(const char *typname, const char *positions, const char *aggname,
					uint64 m, uint32 k, uint64 x)
{
	ereport(WARNING,
			(errcode(ERRCODE_WARNING),
			 errmsg("%s built by the aggregate holds more elements than it was sized for", typname),
			 errdetail("%.0f%% of its " UINT64_FORMAT " %s, for about " INT64_FORMAT " distinct elements: "
					   "its false-positive rate is %.3g, more than twice the %.3g it has at its design fill.",
					   100.0 * (double) x / (double) m, m, positions,
					   (int64) llround(BloomEstimateCardinality(m, k, x)),
					   BloomEstimateFpr(m, k, x), pow(0.5, (double) k)),
			 errhint("Size it for the data: %s(x, capacity, fpr) with a capacity of at least the number of distinct elements.",
					 aggname)));
}

/* The filter argument argno, detoasted and checked */
Bloom *
BloomGetArg(FunctionCallInfo fcinfo, int argno)
{
	return (Bloom *) BfGetFilterArg(fcinfo, argno, &BloomOps);
}

/* ---------------------------------------------------------------------
 * SQL functions
 * ---------------------------------------------------------------------
 */

/* bloom_in(cstring) RETURNS bloom */
Datum
bloom_in(PG_FUNCTION_ARGS)
{
	return BfInGeneric(fcinfo, &BloomOps);
}

/* bloom_out(bloom) RETURNS cstring */
Datum
bloom_out(PG_FUNCTION_ARGS)
{
	return BfOutGeneric(fcinfo, &BloomOps);
}

/* bloom_recv(internal) RETURNS bloom */
Datum
bloom_recv(PG_FUNCTION_ARGS)
{
	return BfRecvGeneric(fcinfo, &BloomOps);
}

/* bloom_send(bloom) RETURNS bytea */
Datum
bloom_send(PG_FUNCTION_ARGS)
{
	return BfSendGeneric(fcinfo, &BloomOps);
}

/*
 * bloom_empty(capacity bigint, fpr float8, seed bigint) RETURNS bloom
 *		An empty filter sized for capacity elements at false-positive rate fpr.
 */
Datum
bloom_empty(PG_FUNCTION_ARGS)
{
	return BfEmptyGeneric(fcinfo, &BloomOps);
}

/*
 * bloom_empty() RETURNS bloom
 * bloom_empty_self_sized(fpr float8, seed bigint) RETURNS bloom
 *		An empty self-sized filter: it grows as elements are added, keeping
 *		its false-positive rate under fpr (0.01 without arguments).
 */
Datum
bloom_empty_self_sized(PG_FUNCTION_ARGS)
{
	double		fpr = PG_NARGS() > 0 ? PG_GETARG_FLOAT8(0) : BF_DEFAULT_FPR;
	uint64		seed = PG_NARGS() > 1 ? (uint64) PG_GETARG_INT64(1) : 0;

	PG_RETURN_POINTER(BloomSsNew(fpr, seed));
}

/*
 * bloom_create(m bigint, k integer, seed bigint) RETURNS bloom
 *		An empty filter with explicit m and k.
 */
Datum
bloom_create(PG_FUNCTION_ARGS)
{
	int64		m = PG_GETARG_INT64(0);
	int32		k = PG_GETARG_INT32(1);

	BloomCheckParams(m, k);
	PG_RETURN_POINTER(BloomNew((uint64) m, (uint32) k, (uint64) PG_GETARG_INT64(2)));
}

/*
 * bloom_add(bloom, anynonarray) RETURNS bloom
 *		A copy of the filter with the element added; a NULL element leaves
 *		the filter as it is.
 */
Datum
bloom_add(PG_FUNCTION_ARGS)
{
	return BfAddGeneric(fcinfo, &BloomOps);
}

/*
 * bloom_add(bloom, anyarray) RETURNS bloom
 *		A copy of the filter with every non-null array element added.
 */
Datum
bloom_add_array(PG_FUNCTION_ARGS)
{
	struct varlena *v;
	BfHasher   *h;
	ArrayIterator it;
	Datum		value;
	bool		isnull;
	uint64	   *hs = NULL;
	int64		nh = 0,
				cap = 0;
	uint64		seed;

	if (PG_ARGISNULL(0))
		PG_RETURN_NULL();
	if (PG_ARGISNULL(1))
		PG_RETURN_DATUM(PG_GETARG_DATUM(0));
	v = BfStateForUpdate(fcinfo, 0);
	BloomCheck(v, VARSIZE(v));
	seed = BfGet64(((BfHeader *) v)->seed);
	h = BfGetArrayElemHasher(fcinfo, 1);
	it = array_create_iterator(PG_GETARG_ARRAYTYPE_P(1), 0, NULL);
	while (array_iterate(it, &value, &isnull))
	{
		if (isnull)
			continue;
		if (!BloomIsSelfSized(v))
		{
			BloomAddDatumInline((Bloom *) v, h, value);
			continue;
		}
		/* a self-sized filter takes the whole array at once (one rebuild) */
		if (nh == cap)
		{
			cap = Max(cap * 2, 64);
			hs = hs ? repalloc_huge(hs, (Size) cap * 8) : palloc_extended((Size) cap * 8, MCXT_ALLOC_HUGE);
		}
		hs[nh++] = BfHashDatumFast(h, value, seed);
	}
	array_free_iterator(it);
	if (nh > 0)
		v = BloomSsAddMany(v, hs, nh);
	PG_RETURN_POINTER(v);
}

/*
 * bloom_contains(bloom, anynonarray) RETURNS bool	(operator @>)
 *		Whether the element may be in the filter (false means: certainly not).
 */
Datum
bloom_contains(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(BloomProbe(fcinfo, 0, 1));
}

/*
 * bloom_contained(anynonarray, bloom) RETURNS bool	(operator <@)
 */
Datum
bloom_contained(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(BloomProbe(fcinfo, 1, 0));
}

/*
 * bloom_contains_bloom(bloom, bloom) RETURNS bool	(operator @>)
 *		Whether every bit of the right filter is set in the left one.
 */
Datum
bloom_contains_bloom(PG_FUNCTION_ARGS)
{
	Bloom	   *a = BloomGetArg(fcinfo, 0);
	Bloom	   *b = BloomGetArg(fcinfo, 1);

	PG_RETURN_BOOL(BloomIsSuperset(a, b));
}

/*
 * bloom_contained_bloom(bloom, bloom) RETURNS bool	(operator <@)
 */
Datum
bloom_contained_bloom(PG_FUNCTION_ARGS)
{
	Bloom	   *a = BloomGetArg(fcinfo, 0);
	Bloom	   *b = BloomGetArg(fcinfo, 1);
	uint8	   *x;
	const uint8 *y;
	Size		n;

	/* parameters checked in argument order, for the message */
	BloomTwoBitArrays(a, b, &x, &y, &n);
	PG_RETURN_BOOL(BloomIsSuperset(b, a));
}

/* bloom_union(bloom, bloom) RETURNS bloom	(operator |) */
Datum
bloom_union(PG_FUNCTION_ARGS)
{
	return BfCombineGeneric(fcinfo, &BloomOps, BloomUnionOp, true);
}

/* bloom_intersect(bloom, bloom) RETURNS bloom	(operator &) */
Datum
bloom_intersect(PG_FUNCTION_ARGS)
{
	return BfCombineGeneric(fcinfo, &BloomOps, BloomIntersectOp, true);
}

/*
 * bloom_eq, _ne, _lt, _le, _gt, _ge(bloom, bloom) RETURNS bool	(=, <>, <, <=, >, >=)
 *		A total order over all values (design.md, "Equality and ordering"):
 *		filters with different parameters are unequal, not an error.
 */
Datum
bloom_eq(PG_FUNCTION_ARGS)
{
	return BfCompareGeneric(fcinfo, &BloomOps, BF_CMP_EQ);
}

Datum
bloom_ne(PG_FUNCTION_ARGS)
{
	return BfCompareGeneric(fcinfo, &BloomOps, BF_CMP_NE);
}

Datum
bloom_lt(PG_FUNCTION_ARGS)
{
	return BfCompareGeneric(fcinfo, &BloomOps, BF_CMP_LT);
}

Datum
bloom_le(PG_FUNCTION_ARGS)
{
	return BfCompareGeneric(fcinfo, &BloomOps, BF_CMP_LE);
}

Datum
bloom_gt(PG_FUNCTION_ARGS)
{
	return BfCompareGeneric(fcinfo, &BloomOps, BF_CMP_GT);
}

Datum
bloom_ge(PG_FUNCTION_ARGS)
{
	return BfCompareGeneric(fcinfo, &BloomOps, BF_CMP_GE);
}

/* bloom_cmp(bloom, bloom) RETURNS int4: the btree operator class's support function */
Datum
bloom_cmp(PG_FUNCTION_ARGS)
{
	return BfCompareGeneric(fcinfo, &BloomOps, BF_CMP);
}

/* bloom_hash(bloom) RETURNS int4: the hash operator class's support function */
Datum
bloom_hash(PG_FUNCTION_ARGS)
{
	return BfHashGeneric(fcinfo, &BloomOps, false);
}

/* bloom_hash_extended(bloom, bigint) RETURNS bigint: the seeded 64-bit hash support function */
Datum
bloom_hash_extended(PG_FUNCTION_ARGS)
{
	return BfHashGeneric(fcinfo, &BloomOps, true);
}

/*
 * Statistics of a filter: bits, positions (a self-sized filter: its biggest
 * member's), bits set, estimated distinct elements and false-positive rate
 */
static void
BloomStats(const Bloom *b, uint64 *m, uint32 *k, uint64 *x, double *card, double *fpr)
{
	if (BloomIsSelfSized(b))
	{
		BloomSsStats((const struct varlena *) b, m, k, x, card, fpr);
		return;
	}
	*m = BloomM(b);
	*k = BloomK(b);
	*x = BloomBitsSet(b);
	*card = BloomEstimateCardinality(*m, *k, *x);
	*fpr = BloomEstimateFpr(*m, *k, *x);
}

/*
 * bloom_cardinality(bloom) RETURNS bigint
 */
Datum
bloom_cardinality(PG_FUNCTION_ARGS)
{
	uint64		m,
				x;
	uint32		k;
	double		card,
				fpr;

	BloomStats(BloomGetArg(fcinfo, 0), &m, &k, &x, &card, &fpr);
	PG_RETURN_INT64((int64) llround(card));
}

/*
 * bloom_fpr(bloom) RETURNS float8
 */
Datum
bloom_fpr(PG_FUNCTION_ARGS)
{
	uint64		m,
				x;
	uint32		k;
	double		card,
				fpr;

	BloomStats(BloomGetArg(fcinfo, 0), &m, &k, &x, &card, &fpr);
	PG_RETURN_FLOAT8(fpr);
}

/*
 * bloom_info(bloom) RETURNS record
 *		Every parameter, the size, the fill and the estimates.
 */
Datum
bloom_info(PG_FUNCTION_ARGS)
{
	Bloom	   *b = BloomGetArg(fcinfo, 0);
	uint64		m,
				x;
	uint32		k;
	double		card,
				fpr;
	uint64		n = BfGet64(b->hdr.ninserts);
	bool		self_sized = BloomIsSelfSized(b);
	Datum		values[15];
	bool		nulls[15] = {0};

	BloomStats(b, &m, &k, &x, &card, &fpr);

	values[0] = Int32GetDatum(b->hdr.version);
	values[1] = CStringGetTextDatum("xxh3");
	values[2] = Int64GetDatum((int64) BfGet64(b->hdr.seed));
	values[3] = Int64GetDatum((int64) m);
	values[4] = Int32GetDatum((int32) k);
	values[5] = Int64GetDatum(n > (uint64) PG_INT64_MAX ? PG_INT64_MAX : (int64) n);
	values[6] = Int64GetDatum((int64) x);
	values[7] = Float8GetDatum(m > 0 ? (double) x / (double) m : 0.0);
	values[8] = Int64GetDatum((int64) VARSIZE(b));
	values[9] = Int64GetDatum((int64) llround(card));
	values[10] = Float8GetDatum(fpr);
	/* a self-sized filter: its rate over twice its target (unions of many) */
	values[11] = BoolGetDatum(self_sized ? fpr > 2.0 * BloomSsTarget(b) : BloomOverfilled(m, k, x));
	values[12] = BoolGetDatum(self_sized);
	values[13] = Int32GetDatum(self_sized ? BloomSsMembers(b) : 1);
	values[14] = Float8GetDatum(self_sized ? BloomSsTarget(b) : 0.0);
	nulls[14] = !self_sized;	/* a fixed filter does not record the rate it was sized for */
	PG_RETURN_DATUM(BfInfoTuple(fcinfo, values, nulls, 15));
}

/*
 * bloom_agg_trans(bloom, anynonarray [, capacity bigint, fpr float8])
 *		Aggregate transition: add the element to the state, creating the
 *		state on the first row.  NULL elements are skipped.  The add op is
 *		inlined here (BfAggTransGeneric is inline, BloomOps constant).
 */
Datum
bloom_agg_trans(PG_FUNCTION_ARGS)
{
	return BfAggTransGeneric(fcinfo, &BloomOps);
}

/*
 * bloom_agg_final(bloom [, anynonarray, bigint, float8])
 *		The state, or over no rows an empty filter with the aggregate's
 *		parameters (its constant arguments, else the constant defaults).
 *		An overfilled result gets one WARNING per group (none per row, and
 *		none in window frames, whose final function runs once per row).
 */
Datum
bloom_agg_final(PG_FUNCTION_ARGS)
{
	Datum		result = BfAggFinalGeneric(fcinfo, &BloomOps);
	const Bloom *b = (const Bloom *) DatumGetPointer(result);
	uint64		m,
				x;
	uint32		k;

	if (PG_ARGISNULL(0) || AggCheckCallContext(fcinfo, NULL) != AGG_CONTEXT_AGGREGATE ||
		BloomIsSelfSized(b))
		return result;
	m = BloomM(b);
	k = BloomK(b);
	x = BloomBitsSet(b);
	if (BloomOverfilled(m, k, x))
		BloomWarnOverfilled("bloom filter", "bits are set", "bloom_agg", m, k, x);
	return result;
}

/*
 * bloom_union_trans(bloom, bloom) RETURNS bloom
 *		Transition and combine function of the union aggregates: OR the
 *		right filter into the state.  A self-sized state of a plain
 *		aggregate that has grown to BF_EXPANDED_MIN_BYTES becomes an
 *		expanded union state (bloomselfsized.c), which later unions change
 *		in place instead of building a new value holding the whole state.
 */
Datum
bloom_union_trans(PG_FUNCTION_ARGS)
{
	const struct varlena *head;
	Datum		result;

	if (!PG_ARGISNULL(0) && BfInAggregate(fcinfo) &&
		(head = BloomSsUnionStateHead(PG_GETARG_DATUM(0))) != NULL)
	{
		if (!PG_ARGISNULL(1))
		{
			/* a fixed partial state's pending rows added: a plain filter */
			struct varlena *b = BfAheadPlainCopy(BfDetoastForRead(PG_GETARG_DATUM(1)), &BloomOps);

			BloomCheck(b, VARSIZE(b));
			/* the header decides; a mismatch is reported with the whole value */
			if (((const BfHeader *) head)->seed != ((const BfHeader *) b)->seed ||
				((const BfHeader *) head)->hashalg != ((const BfHeader *) b)->hashalg)
				BloomCheckCompatible(BfDetoastForRead(PG_GETARG_DATUM(0)), b);
			BloomSsUnionStateAdd(PG_GETARG_DATUM(0), b);
		}
		PG_RETURN_DATUM(PG_GETARG_DATUM(0));
	}
	result = BfMergeTransGeneric(fcinfo, &BloomOps, BloomUnionOp);
	if (BfInAggregate(fcinfo) && DatumGetPointer(result) != NULL &&
		!VARATT_IS_EXTENDED(DatumGetPointer(result)) &&
		BloomIsSelfSized(DatumGetPointer(result)) &&
		VARSIZE(DatumGetPointer(result)) >= BF_EXPANDED_MIN_BYTES)
	{
		Datum		es = BloomSsUnionStateWrap(fcinfo, (struct varlena *) DatumGetPointer(result));

		if (es != (Datum) 0)
			PG_RETURN_DATUM(es);
	}
	return result;
}

/*
 * bloom_intersect_trans(bloom, bloom) RETURNS bloom
 *		Transition and combine function of bloom_intersect_agg.
 */
Datum
bloom_intersect_trans(PG_FUNCTION_ARGS)
{
	return BfMergeTransGeneric(fcinfo, &BloomOps, BloomIntersectOp);
}

/*
 * bloom_agg_auto_trans(bloom, anynonarray [, fpr float8])
 *		Transition of the self-sized bloom_agg(x) and bloom_agg(x, fpr):
 *		the element's hash goes into the state's hash list (bloomselfsized.c),
 *		the state being created on the first row.  NULL elements are skipped.
 *		In a plain aggregate, a state that has grown to BF_EXPANDED_MIN_BYTES
 *		becomes an expanded object (bfagg.c), so that its list doubles in
 *		place rather than being copied twice.
 */
Datum
bloom_agg_auto_trans(PG_FUNCTION_ARGS)
{
	struct varlena *state;
	BfExpandedState *es;
	uint64		h;

	if (PG_ARGISNULL(0))
	{
		int64		capacity;
		double		fpr;

		BfAggParams(fcinfo, -1, PG_NARGS() > 2 ? 2 : -1, &capacity, &fpr);
		state = BloomSsNew(fpr, 0);
	}
	else if (likely((es = BfExpandedStateOf(PG_GETARG_DATUM(0), true)) != NULL &&
					es->build == NULL && BfInAggregate(fcinfo)))
	{
		/* the per-row path of a large state: ours, always self-sized */
		if (!PG_ARGISNULL(1))
			es->flat = BloomSsAggAddOwned(es->flat,
										  BfHashDatumFast(BfGetHasher(fcinfo, 1), PG_GETARG_DATUM(1),
														  BfGet64(((BfHeader *) es->flat)->seed)),
										  es->hdr.eoh_context);
		PG_RETURN_DATUM(PG_GETARG_DATUM(0));
	}
	else if (likely(BfInAggregate(fcinfo) &&
					!VARATT_IS_EXTENDED(DatumGetPointer(PG_GETARG_DATUM(0)))))
		state = (struct varlena *) DatumGetPointer(PG_GETARG_DATUM(0));	/* ours */
	else
	{
		state = BfStateForUpdate(fcinfo, 0);
		BloomCheck(state, VARSIZE(state));
	}
	if (PG_ARGISNULL(1))
		PG_RETURN_POINTER(state);
	if (unlikely(!BloomIsSelfSized(state)))
		PG_RETURN_POINTER(BloomAddOp(state, BfGetHasher(fcinfo, 1), PG_GETARG_DATUM(1)));
	h = BfHashDatumFast(BfGetHasher(fcinfo, 1), PG_GETARG_DATUM(1), BfGet64(((BfHeader *) state)->seed));
	if (BloomSsAggAppend(state, h))
		PG_RETURN_POINTER(state);
	/* no room: a large state of a plain aggregate becomes an expanded one */
	if (VARSIZE(state) >= BF_EXPANDED_MIN_BYTES &&
		(es = BfExpandedStateWrap(fcinfo, state)) != NULL)
	{
		es->flat = BloomSsAggAddOwned(es->flat, h, es->hdr.eoh_context);
		PG_RETURN_DATUM(EOHPGetRWDatum(&es->hdr));
	}
	PG_RETURN_POINTER(BloomSsAggAddSlow(state, h, false));
}

/*
 * bloom_agg_auto_final(bloom [, anynonarray, fpr float8])
 *		The state with its hash list sealed into a member sized exactly for
 *		the distinct elements it holds (a new value: the state stays as it
 *		is, for window frames), or over no rows an empty self-sized filter.
 */
Datum
bloom_agg_auto_final(PG_FUNCTION_ARGS)
{
	struct varlena *state;
	struct varlena *sealed;

	if (PG_ARGISNULL(0))
	{
		int64		capacity;
		double		fpr;

		BfAggParams(fcinfo, -1, PG_NARGS() > 2 ? 2 : -1, &capacity, &fpr);
		PG_RETURN_POINTER(BloomSsNew(fpr, 0));
	}
	state = BfDetoastForRead(PG_GETARG_DATUM(0));	/* our expanded state: in place */
	BloomCheck(state, VARSIZE(state));
	if (!BloomIsSelfSized(state))
		PG_RETURN_POINTER(state);
	sealed = BloomSsSeal(state);
	PG_RETURN_POINTER(sealed ? sealed : state);
}
