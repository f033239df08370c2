/*
 * bloomselfsized.c
 *		Self-sized bloom filters: what bloom_agg(x) and bloom_empty() build
 *		when no capacity is given.
 *
 * A self-sized filter is a chain of members (bloom.h, doc/design.md
 * "Self-sized bloom").  A member is a Bloom filter (BITS) with the same bit
 * positions as a fixed bloom of its m and k; or, in an aggregate's
 * transition state, the list of element hashes seen so far (HASHES); or the
 * levels of sorted fingerprints that bloom_add grows (FINGERPRINTS).  An
 * element may be in the filter when any member may hold it.
 *
 * The aggregate collects hashes, and its final function seals the list into
 * one member sized exactly for the distinct hashes it holds (with a reserve
 * of precision for later unions, below), so the result is a constant factor
 * of a filter sized with the true count, whatever the count.
 * The list is bounded (BLOOM_SS_LIST_MAX hashes): past it, the list is
 * sealed and a new one started.  bloom_add, which sees one call's elements
 * only, keeps their fingerprints in levels whose last one it rebuilds on
 * every call (see "Fingerprint members" below): exactly sized too, at about
 * c + 2 bits per element.
 *
 * A BITS member j made by the aggregate is sized for the false-positive
 * rate target * w_j, with w_0 = 1/2 and w_j = 1/20 * (9/10)^(j-1) after it;
 * the shares add up to 1, so the filter's false-positive rate (at most the
 * sum of its members') stays below its target however long the chain grows.
 * The first member (all of a result up to 16M distinct elements) gets more
 * bits than that, BLOOM_SS_UNION_RESERVE times those of a filter sized at
 * the target, with the k of its share: its rate is then about 1/20 of the
 * target at 1%, so that unions of many aggregate results (rollups of days
 * into months) stay within twice the target.  (The same schedule, without
 * the reserve, sized the members of the scalable Bloom chains that
 * bloom_add grew before fingerprint members; such values are still read.)
 */
#include "bloomfilter.h"

#include <math.h>

#include "port/pg_bitutils.h"

#include "bloom.h"

/* Largest open hash list before it is sealed: 16M hashes, 128 MB */
#define BLOOM_SS_LIST_MAX	(UINT64CONST(1) << 24)
/* First hash list of an aggregate state */
#define BLOOM_SS_LIST_MIN	8
/*
 * Smallest target rate: a normal float8, which prints and reads back exactly,
 * and whose bits (above 2^60) are never a fixed filter's m
 */
#define BLOOM_SS_MIN_FPR	1e-300
/* Lists up to this many hashes are counted exactly (sorted), longer ones estimated */
#define BLOOM_SS_EXACT_MAX	(UINT64CONST(1) << 20)
/*
 * Bits of an aggregate's first member against a filter sized for its count
 * at the target: the precision that keeps unions of many aggregate results
 * within twice the target (doc/design.md)
 */
#define BLOOM_SS_UNION_RESERVE	1.7
/* Hashes whose bit positions are prefetched ahead of the one being sealed */
#define BLOOM_SS_SEAL_AHEAD		16

/* uint64 sort for de-duplicating hash lists */
#define ST_SORT BloomSsSortHashes
#define ST_ELEMENT_TYPE uint64
#define ST_COMPARE(a, b) (*(a) < *(b) ? -1 : (*(a) > *(b) ? 1 : 0))
#define ST_SCOPE static
#define ST_DEFINE
#include "lib/sort_template.h"

/* fingerprint members (below) */
static bool FpHeaderOk(const BloomMember *mb);
static void FpValidate(const BloomMember *mb);
static double FpRate(const BloomMember *mb);
static bool FpProbeRef(BfFilterRef *ref, Size base, const BloomMember *mh, uint64 h);

/* The false-positive rate share of member j (the header comment) */
static double
BloomSsMemberFpr(double target, uint32 j)
{
	if (j == 0)
		return target * 0.5;
	/* past 100 members (unions of many filters) the share stops shrinking */
	return target * 0.05 * pow(0.9, (double) (Min(j, 100) - 1));
}

/* The target rate of a self-sized filter */
double
BloomSsTarget(const void *v)
{
	uint64		bits = BfGet64(((const BloomSs *) v)->fpr);
	double		d;

	memcpy(&d, &bits, sizeof(d));
	return d;
}

/* Number of members */
int
BloomSsMembers(const void *v)
{
	return (int) BfGet32(((const BloomSs *) v)->nmembers);
}

/* Bytes of a member's payload */
static Size
BloomSsPayloadSize(const BloomMember *mb)
{
	if (BfGet32(mb->kind) == BLOOM_MEMBER_HASHES)
		return (Size) BfGet64(mb->capacity) * 8;
	return BloomPayloadSize(BfGet64(mb->m));	/* BITS, FINGERPRINTS */
}

/* Bytes of a member, header included */
static Size
BloomSsMemberSize(const BloomMember *mb)
{
	return BLOOM_MEMBER_HDRSZ + BloomSsPayloadSize(mb);
}

/* The first member, then the one after mb */
static inline BloomMember *
BloomSsFirst(const BloomSs *ss)
{
	return (BloomMember *) ss->members;
}

static inline BloomMember *
BloomSsNext(const BloomMember *mb)
{
	return (BloomMember *) ((const char *) mb + BloomSsMemberSize(mb));
}

/* The i-th hash of a HASHES member */
static inline uint64
BloomSsHashAt(const BloomMember *mb, uint64 i)
{
	uint64		le;

	memcpy(&le, mb->payload + i * 8, 8);
	return BfGet64(le);
}

/* An empty self-sized filter with target rate fpr */
struct varlena *
BloomSsNew(double fpr, uint64 seed)
{
	BloomSs    *ss = palloc0(BLOOM_SS_HDRSZ);
	uint64		bits;

	BfCheckCapacityFpr(1, fpr);
	if (fpr < BLOOM_SS_MIN_FPR)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("target false-positive rate of a self-sized bloom filter must be at least 1e-300"),
				 errdetail("fpr = %g was given.", fpr),
				 errhint("Use a rate such as 0.01 or 0.0001.")));
	BfInitHeader(&ss->hdr, BLOOM_SS_HDRSZ, BF_KIND_BLOOM, seed);
	ss->hdr.flags = BLOOM_FLAG_SELF_SIZED;
	memcpy(&bits, &fpr, sizeof(bits));
	ss->fpr = BfPut64(bits);
	return (struct varlena *) ss;
}

/*
 * Structural check of a self-sized datum of size bytes: the target, then
 * every member's header and size, the members filling the datum exactly, and
 * a hash list only as the last member (22P02)
 */
void
BloomSsCheck(const void *v, Size size)
{
	const BloomSs *ss = v;
	double		fpr = BloomSsTarget(v);
	uint32		n = BfGet32(ss->nmembers),
				j;
	Size		off = BLOOM_SS_HDRSZ;

	if (isnan(fpr) || !(fpr >= BLOOM_SS_MIN_FPR && fpr < 1.0))
		BfCorrupt("bloom", "The target false-positive rate %g is not in [1e-300, 1).", fpr);
	if (ss->reserved != 0)
		BfCorrupt("bloom", "The reserved header field is not zero.");
	for (j = 0; j < n; j++)
	{
		const BloomMember *mb = (const BloomMember *) ((const char *) v + off);
		uint32		kind;
		uint64		m,
					k,
					count,
					capacity;

		if (size - off < BLOOM_MEMBER_HDRSZ)
			BfCorrupt("bloom", "Member %u of %u is cut short.", j + 1, n);
		kind = BfGet32(mb->kind);
		m = BfGet64(mb->m);
		k = BfGet32(mb->k);
		count = BfGet64(mb->count);
		capacity = BfGet64(mb->capacity);
		if (kind == BLOOM_MEMBER_BITS)
		{
			if (m < 1 || m > BLOOM_MAX_BITS || k < 1 || k > BLOOM_MAX_K)
				BfCorrupt("bloom", "Member %u has m = " UINT64_FORMAT " and k = " UINT64_FORMAT ", out of range.",
						  j + 1, m, k);
		}
		else if (kind == BLOOM_MEMBER_FINGERPRINTS)
		{
			if (m < 1 || m > BLOOM_MAX_BITS || !FpHeaderOk(mb))
				BfCorrupt("bloom", "Member %u is a fingerprint list with an inconsistent header.", j + 1);
		}
		else if (kind == BLOOM_MEMBER_HASHES)
		{
			if (j != n - 1)
				BfCorrupt("bloom", "Member %u is a hash list but not the last member.", j + 1);
			if (m != 0 || k != 0 || count > capacity || capacity == 0 ||
				capacity > (uint64) ((size - off - BLOOM_MEMBER_HDRSZ) / 8))
				BfCorrupt("bloom", "Member %u is a hash list with inconsistent counts.", j + 1);
		}
		else
			BfCorrupt("bloom", "Member %u is of unknown kind %u.", j + 1, kind);
		if (size - off - BLOOM_MEMBER_HDRSZ < BloomSsPayloadSize(mb))
			BfCorrupt("bloom", "Member %u is cut short.", j + 1);
		off += BloomSsMemberSize(mb);
	}
	if (off != size)
		BfCorrupt("bloom", "The value is %zu bytes long, but its %u members take %zu.", size, n, off);
}

/* Full check of a value from outside: structure, no bits beyond m, unused slots zero */
void
BloomSsValidate(const void *v)
{
	const BloomSs *ss = v;
	const BloomMember *mb;
	uint32		n,
				j;

	BloomSsCheck(v, VARSIZE(v));
	n = BfGet32(ss->nmembers);
	mb = BloomSsFirst(ss);
	for (j = 0; j < n; j++, mb = BloomSsNext(mb))
	{
		Size		len = BloomSsPayloadSize(mb);
		Size		i;

		if (BfGet32(mb->kind) != BLOOM_MEMBER_HASHES)
		{
			uint64		m = BfGet64(mb->m);

			for (i = m; i < len * 8; i++)
				if (mb->payload[i >> 3] & (1 << (i & 7)))
					BfCorrupt("bloom", "Member %u has bits set beyond m = " UINT64_FORMAT ".", j + 1, m);
			if (BfGet32(mb->kind) == BLOOM_MEMBER_FINGERPRINTS)
				FpValidate(mb);
		}
		else
		{
			for (i = BfGet64(mb->count) * 8; i < len; i++)
				if (mb->payload[i] != 0)
					BfCorrupt("bloom", "Member %u has unused hash slots that are not zero.", j + 1);
		}
	}
}

/*
 * A new datum: the header of src with nmembers members, made of the pieces
 * given (each a whole member's bytes), payload sizes as they say
 */
static BloomSs *
BloomSsBuild(const BloomSs *src, const BloomMember **pieces, int npieces)
{
	Size		size = BLOOM_SS_HDRSZ;
	BloomSs    *ss;
	char	   *p;
	int			i;

	for (i = 0; i < npieces; i++)
		size += BloomSsMemberSize(pieces[i]);
	BfCheckSize("bloom", (double) size);
	ss = palloc(size);
	memcpy(ss, src, BLOOM_SS_HDRSZ);
	SET_VARSIZE(ss, size);
	ss->nmembers = BfPut32((uint32) npieces);
	p = ss->members;
	for (i = 0; i < npieces; i++)
	{
		Size		len = BloomSsMemberSize(pieces[i]);

		memcpy(p, pieces[i], len);
		p += len;
	}
	return ss;
}

/* The last member of a datum, or NULL (a walk: no allocation on the per-row paths) */
static BloomMember *
BloomSsLast(const BloomSs *ss)
{
	uint32		n = BfGet32(ss->nmembers),
				j;
	BloomMember *mb = BloomSsFirst(ss);

	if (n == 0)
		return NULL;
	for (j = 1; j < n; j++)
		mb = BloomSsNext(mb);
	return mb;
}

/* The members of a datum as an array of pointers (palloc'd, *n of them) */
static const BloomMember **
BloomSsPieces(const BloomSs *ss, int extra, int *n)
{
	int			nm = (int) BfGet32(ss->nmembers);
	const BloomMember **pieces = palloc((nm + extra + 1) * sizeof(BloomMember *));
	const BloomMember *mb = BloomSsFirst(ss);
	int			j;

	for (j = 0; j < nm; j++, mb = BloomSsNext(mb))
		pieces[j] = mb;
	*n = nm;
	return pieces;
}

/*
 * A new, empty BITS member of at least m bits (rounded up to whole words:
 * the payload has them anyway, so every bit of the last one is used) with k
 * positions per element, sized for capacity elements
 */
static BloomMember *
BloomSsNewBits(uint64 m, uint32 k, uint64 capacity)
{
	BloomMember *mb;

	m = Min((m + 63) / 64 * 64, BLOOM_MAX_BITS);
	mb = palloc0(BLOOM_MEMBER_HDRSZ + BloomPayloadSize(m));
	mb->m = BfPut64(m);
	mb->k = BfPut32(k);
	mb->kind = BfPut32(BLOOM_MEMBER_BITS);
	mb->capacity = BfPut64(capacity);
	return mb;
}

/* A new, empty member: BITS for capacity elements at rate fpr, or HASHES with slots */
static BloomMember *
BloomSsNewMember(uint32 kind, int64 capacity, double fpr)
{
	BloomMember *mb;

	if (kind == BLOOM_MEMBER_BITS)
	{
		uint64		m;
		uint32		k;

		BloomSizeFor(capacity, fpr, &m, &k);
		return BloomSsNewBits(m, k, (uint64) capacity);
	}
	BfCheckSize("bloom", (double) BLOOM_SS_HDRSZ + BLOOM_MEMBER_HDRSZ + (double) capacity * 8.0);
	mb = palloc0(BLOOM_MEMBER_HDRSZ + (Size) capacity * 8);
	mb->kind = BfPut32(kind);
	mb->capacity = BfPut64((uint64) capacity);
	return mb;
}

/* Number of distinct hashes in a list, exactly (a sorted copy) */
static uint64
BloomSsDistinctExact(const BloomMember *mb)
{
	uint64		count = BfGet64(mb->count);
	uint64	   *h;
	uint64		distinct = 1,
				i;

	if (count <= 1)
		return count;
	h = palloc_extended((Size) count * 8, MCXT_ALLOC_HUGE);
	for (i = 0; i < count; i++)
		h[i] = BloomSsHashAt(mb, i);
	BloomSsSortHashes(h, count);
	for (i = 1; i < count; i++)
		distinct += h[i] != h[i - 1];
	pfree(h);
	return distinct;
}

/*
 * Number of distinct hashes in a list: exact for a set of up to
 * BLOOM_SS_EXACT_MAX hashes (a sorted copy; a longer list is estimated
 * first, and counted exactly when the estimate says its set is that
 * small), so that a set sizes the same whatever its duplicates; above,
 * linear counting (Whang et al. 1990) over a bitmap of 2^22 bits, a
 * function of the set only.  exact = false (the growth decision): linear
 * counting over at least 4 bits per hash, whose relative error at that load
 * is below 0.1%.
 */
static uint64
BloomSsDistinctOf(const BloomMember *mb, bool exact)
{
	uint64		count = BfGet64(mb->count);
	int			lg = 6;
	uint64		nbits;
	uint64	   *bitmap;
	uint64		i,
				zeros = 0;
	double		est;

	if (count <= 1)
		return count;
	if (exact && count <= BLOOM_SS_EXACT_MAX)
		return BloomSsDistinctExact(mb);
	/*
	 * Above 2^20 hashes the exact count's sort costs too much; linear
	 * counting then uses a bitmap of a fixed 2^22 bits (512 kB, cache
	 * resident), so that the estimate depends on the set of hashes only, not
	 * on how many duplicates the list holds.  Its standard error is below 1%
	 * up to the 16M distinct hashes of a list and 3% at the 32M of two
	 * merged ones; the member's rate is a fraction of the target (the union
	 * reserve), so that error moves it by a few percent of that.  Lists estimated
	 * for the growth decision use 4 bits per hash.
	 */
	if (count > BLOOM_SS_EXACT_MAX)
		lg = 22;
	else
	{
		while (lg < 62 && (UINT64CONST(1) << lg) < count * 4)
			lg++;
	}
	nbits = UINT64CONST(1) << lg;
	bitmap = palloc_extended((Size) (nbits / 8), MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	for (i = 0; i < count; i++)
	{
		uint64		pos = BfMix64(BloomSsHashAt(mb, i)) >> (64 - lg);

		bitmap[pos >> 6] |= UINT64CONST(1) << (pos & 63);
	}
	for (i = 0; i < nbits / 64; i++)
		zeros += 64 - pg_popcount64(bitmap[i]);
	pfree(bitmap);
	if (zeros == 0)
		return count;			/* saturated (not reachable within the list bounds) */
	est = round(-(double) nbits * log((double) zeros / (double) nbits));
	if (est < 1)
		est = 1;
	if (count > BLOOM_SS_EXACT_MAX)
	{
		/*
		 * A long list of a set small enough to be counted exactly without
		 * its duplicates (the merged lists of a parallel aggregate, repeated
		 * rows): count it exactly, as that list alone would be.  Otherwise
		 * the estimate, not capped by the list's length (which counts the
		 * duplicates): a function of the set only.
		 */
		if (exact && est <= 1.05 * (double) BLOOM_SS_EXACT_MAX)
		{
			uint64		distinct = BloomSsDistinctExact(mb);

			if (distinct <= BLOOM_SS_EXACT_MAX)
				return distinct;
		}
		return (uint64) est;
	}
	if (est > (double) count)
		est = (double) count;
	return (uint64) est;
}

/* Distinct hashes of a list: exact up to BLOOM_SS_EXACT_MAX */
static uint64
BloomSsDistinct(const BloomMember *mb)
{
	return BloomSsDistinctOf(mb, true);
}

/* Sort a HASHES member's list in place and drop duplicates */
static void
BloomSsDedup(BloomMember *mb)
{
	uint64		count = BfGet64(mb->count);
	uint64	   *h = (uint64 *) mb->payload;
	uint64		i,
				out = 0;

	/* LE words sort the same as their values only on LE machines: sort values */
	for (i = 0; i < count; i++)
		h[i] = BloomSsHashAt(mb, i);
	BloomSsSortHashes(h, count);
	for (i = 0; i < count; i++)
		if (out == 0 || h[i] != h[out - 1])
			h[out++] = h[i];
	for (i = 0; i < out; i++)
		h[i] = BfPut64(h[i]);
	memset(mb->payload + out * 8, 0, (count - out) * 8);
	mb->count = BfPut64(out);
}

/*
 * A new, empty BITS member for n distinct elements at position j of an
 * aggregate's chain of target rate target.  The first has the k of a filter
 * sized at half the target and BLOOM_SS_UNION_RESERVE times the bits of one
 * sized at the target; later ones are sized at their share of the target.
 */
static BloomMember *
BloomSsNewAggMember(uint64 n, uint32 j, double target)
{
	uint64		m;
	uint32		k;
	double		dm;

	if (j > 0)
		return BloomSsNewMember(BLOOM_MEMBER_BITS, (int64) n, BloomSsMemberFpr(target, j));
	/* k, the work per element, as without the reserve */
	BloomSizeFor((int64) n, BloomSsMemberFpr(target, 0), &m, &k);
	dm = ceil(BLOOM_SS_UNION_RESERVE * -(double) n * log(target) / (M_LN2 * M_LN2));

	/*
	 * Not below the member without the reserve (targets above about 0.37,
	 * where 1.7 ln(1/fpr) < ln(2/fpr)), and no reserve where it would pass
	 * the size limit that the member without it meets (extreme targets)
	 */
	if (dm < (double) m ||
		(double) BLOOM_SS_HDRSZ + BLOOM_MEMBER_HDRSZ + ceil(dm / 64.0) * 8.0 > (double) BF_MAX_DATUM_SIZE)
		dm = (double) m;
	BfCheckSize("bloom", (double) BLOOM_SS_HDRSZ + BLOOM_MEMBER_HDRSZ + ceil(dm / 64.0) * 8.0);
	return BloomSsNewBits((uint64) dm, k, n);
}

/*
 * A BITS member holding the hashes of HASHES member mb, sized for their
 * distinct number as member j of a chain of target rate target
 * (BloomSsNewAggMember); NULL when the list is empty
 */
static BloomMember *
BloomSsSealMember(const BloomMember *mb, uint32 j, double target)
{
	uint64		n = BloomSsDistinct(mb);
	uint64		count = BfGet64(mb->count),
				i,
				m;
	uint32		k;
	BloomMember *bits;
	uint64		ring[BLOOM_SS_SEAL_AHEAD][BLOOM_MAX_K];

	if (n == 0)
		return NULL;
	bits = BloomSsNewAggMember(n, j, target);
	m = BfGet64(bits->m);
	k = BfGet32(bits->k);
	/*
	 * The bits of a big member are cache misses, k per hash: the positions
	 * of the hash BLOOM_SS_SEAL_AHEAD ahead are computed and their lines
	 * prefetched while this one's bits are set (ring holds the positions
	 * in between), so that the misses overlap.  The same bits as setting
	 * each hash's in turn.
	 */
	for (i = 0; i < count + BLOOM_SS_SEAL_AHEAD; i++)
	{
		uint64	   *slot = ring[i % BLOOM_SS_SEAL_AHEAD];
		uint32		r;

		if (i >= BLOOM_SS_SEAL_AHEAD)
		{
			for (r = 0; r < k; r++)
				bits->payload[slot[r] >> 3] |= (uint8) (1 << (slot[r] & 7));
		}
		if (i < count)
		{
			BfPositions p;

			BfPositionsInit(&p, BloomSsHashAt(mb, i));
			for (r = 0; r < k; r++)
			{
				slot[r] = BfPositionsNext(&p, m);
				BfPrefetchWrite(bits->payload + (slot[r] >> 3));
			}
		}
	}
	/* the distinct number, not the bits changed: the same set, the same bytes */
	bits->count = BfPut64(n);
	bits->capacity = BfPut64(n);
	return bits;
}

/*
 * The filter with every hash list sealed into an exactly sized member: the
 * aggregate's final function.  NULL when there is no hash list (the value
 * is final already).
 */
struct varlena *
BloomSsSeal(const struct varlena *v)
{
	const BloomSs *ss = (const BloomSs *) v;
	int			n,
				j;
	const BloomMember **pieces = BloomSsPieces(ss, 0, &n);
	BloomSs    *out;

	if (n == 0 || BfGet32(pieces[n - 1]->kind) != BLOOM_MEMBER_HASHES)
	{
		pfree(pieces);
		return NULL;
	}
	j = n - 1;
	pieces[j] = BloomSsSealMember(pieces[j], (uint32) j, BloomSsTarget(v));
	out = BloomSsBuild(ss, pieces, pieces[j] ? n : n - 1);
	if (pieces[j])
		pfree((void *) pieces[j]);
	pfree(pieces);
	return (struct varlena *) out;
}

/*
 * The slow path of an aggregate's transition (BloomSsAggAdd): open a hash
 * list, or make room in a full one: drop duplicates when at least half are
 * duplicates, else double it, and past BLOOM_SS_LIST_MAX seal it and open a
 * new one.  Then append hash h.  Returns the (possibly new) datum, in the
 * current memory context.  With owned, v is the caller's (in the current
 * memory context) and is replaced: doubled in place (repalloc), or freed
 * when a new datum is built; without, v is left as it was.
 */
struct varlena *
BloomSsAggAddSlow(struct varlena *v, uint64 h, bool owned)
{
	BloomSs    *ss = (BloomSs *) v;
	int			n;
	const BloomMember **pieces;
	BloomMember *last = BloomSsLast(ss);
	BloomMember *fresh = NULL;
	BloomMember *sealed = NULL;
	uint64		le = BfPut64(h);

	/* room in the last list (chains longer than one): append in place */
	if (last != NULL && BfGet32(last->kind) == BLOOM_MEMBER_HASHES &&
		BfGet64(last->count) < BfGet64(last->capacity))
	{
		uint64		count = BfGet64(last->count);

		memcpy(last->payload + count * 8, &le, 8);
		last->count = BfPut64(count + 1);
		ss->hdr.ninserts = BfPut64(BfAddSat64(BfGet64(ss->hdr.ninserts), 1));
		return v;
	}
	pieces = BloomSsPieces(ss, 1, &n);

	if (last != NULL && BfGet32(last->kind) == BLOOM_MEMBER_HASHES &&
		BfGet64(last->count) == BfGet64(last->capacity) &&
		BfGet64(last->capacity) >= 64 &&
		BloomSsDistinctOf(last, false) * 2 <= BfGet64(last->count))
		BloomSsDedup(last);		/* in place: the state is ours */

	if (last == NULL || BfGet32(last->kind) != BLOOM_MEMBER_HASHES)
	{
		/* a new list after the BITS members */
		fresh = BloomSsNewMember(BLOOM_MEMBER_HASHES, BLOOM_SS_LIST_MIN, 0);
		pieces[n++] = fresh;
	}
	else if (BfGet64(last->count) == BfGet64(last->capacity))
	{
		uint64		cap = BfGet64(last->capacity);

		if (cap < BLOOM_SS_LIST_MAX)
		{
			/*
			 * double the list: one copy of the datum (or a resize of the
			 * caller's), the new slots zeroed
			 */
			Size		oldsize = VARSIZE(ss);
			Size		lastoff = (const char *) last - (const char *) ss;
			uint64		more = Max(cap, BLOOM_SS_LIST_MIN);
			BloomSs    *grown;
			BloomMember *gl;

			BfCheckSize("bloom", (double) oldsize + (double) more * 8.0);
			pfree(pieces);
			if (owned)
				grown = repalloc_huge(ss, oldsize + more * 8);
			else
			{
				grown = palloc_extended(oldsize + more * 8, MCXT_ALLOC_HUGE);
				memcpy(grown, ss, oldsize);
			}
			memset((char *) grown + oldsize, 0, more * 8);
			SET_VARSIZE(grown, oldsize + more * 8);
			gl = (BloomMember *) ((char *) grown + lastoff);
			gl->capacity = BfPut64(cap + more);
			return BloomSsAggAddSlow((struct varlena *) grown, h, owned);	/* room now */
		}
		else
		{
			/* seal it and open a new one */
			sealed = BloomSsSealMember(last, (uint32) (n - 1), BloomSsTarget(v));
			pieces[n - 1] = sealed;
			fresh = BloomSsNewMember(BLOOM_MEMBER_HASHES, BLOOM_SS_LIST_MIN, 0);
			pieces[n++] = fresh;
		}
	}
	else
	{
		/* room after the de-duplication: append in place */
		uint64		count = BfGet64(last->count);

		memcpy(last->payload + count * 8, &le, 8);
		last->count = BfPut64(count + 1);
		ss->hdr.ninserts = BfPut64(BfAddSat64(BfGet64(ss->hdr.ninserts), 1));
		pfree(pieces);
		return v;
	}

	ss = BloomSsBuild(ss, pieces, n);
	if (fresh)
		pfree(fresh);
	if (sealed)
		pfree(sealed);
	pfree(pieces);
	if (owned)
		pfree(v);
	return BloomSsAggAddSlow((struct varlena *) ss, h, owned);	/* room now */
}

static bool BloomSsMemberTest(const BloomMember *mb, uint64 h);

/* ---------------------------------------------------------------------
 * Fingerprint members: what bloom_add grows
 *
 * A FINGERPRINTS member holds count = N fingerprints in levels: the i-th
 * fingerprint added (1-based) is in level floor(log4 i), so level g holds
 * 3 * 4^g of them (the last level fewer), each the top u_g = min(64, 2g +
 * 2 + c) bits of the element's hash; c (the member's k) is chosen from the
 * target rate (FpExcess) so that every level's rate, at most 3 * 4^g /
 * 2^u_g = 3/4 * 2^-c, times the at most 16 levels stays under the member's
 * share of the target.  (Levels growing by 4 rather than 2 halve the levels
 * a probe visits, and cost the same bits: design.md.)  A level is a sorted
 * set of distinct u-bit values, stored by Elias-Fano quotienting: with hb =
 * floor(log2 n) for its n values, the high hb bits of each in a unary vector
 * (for each of the 2^hb buckets in order, a 1 per value in it, then a 0: n
 * + 2^hb bits), the low lw = u - hb bits of each packed in order, and before
 * them a directory of 32-bit entries, one for every BLOOM_SS_FP_DIR buckets
 * after the first: the number of values in the buckets before.  Layout of a
 * level, in payload bits: directory, unary vector, low parts; the levels
 * follow each other without padding, and the payload is whole 64-bit LE
 * words (bit b of the payload is bit b % 64 of word b / 64), its unused
 * bits zero.  The layout follows from N and c alone, and m is its length in
 * bits.
 *
 * A probe looks up, in each level, the directory entry of the bucket of the
 * element's fingerprint, scans the unary vector from there to the bucket
 * (at most BLOOM_SS_FP_DIR zeros, a few words) and compares the low parts
 * of the bucket's values (one or two on average).  bloom_add rebuilds the
 * last level (the datum is copied on every call anyway), so every level is
 * exactly as long as its values need: no unused capacity.  A few values
 * into a big last level whose buckets stay (most single adds) are inserted
 * into its bits instead (FpInsertLevel), giving the same bits.
 * ---------------------------------------------------------------------
 */

/* Most fingerprints in a member: levels 0 .. 15, each count a uint32 */
#define BLOOM_SS_FP_MAX_COUNT	((UINT64CONST(1) << 31) - 1)
#define BLOOM_SS_FP_MAX_LEVELS	16
/*
 * The member's rate is at most this many times 2^-c: 16 levels, each at
 * most 3/4 of 2^-c
 */
#define BLOOM_SS_FP_BUDGET_LEVELS	12
/* Buckets per directory entry */
#define BLOOM_SS_FP_DIR			128
/*
 * bloom_add inserts up to this many new values into the last level's bits
 * (at most 1 per 64 values it holds) instead of re-encoding it
 */
#define BLOOM_SS_FP_INSERT_MAX	64
/* Bytes per slice when a stored member is probed by TOAST slices */
#define BLOOM_SS_FP_BLOCK		512

typedef struct FpLevel
{
	uint64		n;				/* fingerprints */
	uint32		u;				/* precision: the top u bits of the hash */
	uint32		hb;				/* high bits: 2^hb buckets */
	uint32		lw;				/* low bits: u - hb (1 .. 64) */
	uint64		ndir;			/* directory entries, 32 bits each */
	uint64		off;			/* bit offset of the level (its directory) */
	uint64		hioff;			/* bit offset of the unary vector */
	uint64		hilen;			/* its length: n + 2^hb */
	uint64		looff;			/* bit offset of the low parts */
	uint64		end;			/* bit offset after the level */
} FpLevel;

/* The level of the i-th fingerprint (1-based): floor(log4 i) */
static inline int
FpLevelOf(uint64 i)
{
	return pg_leftmost_one_pos64(i) / 2;
}

/*
 * The precision of level g, whose 3 * 4^g values need ceil(log2(3 * 4^g)) =
 * 2g + 2 bits, and c more
 */
static inline uint32
FpPrecision(int g, uint32 c)
{
	return Min(64, 2 * (uint32) g + 2 + c);
}

/*
 * The levels of a member of count (1 .. BLOOM_SS_FP_MAX_COUNT) fingerprints
 * and excess c (1 .. 64); returns their number
 */
static int
FpGeometry(uint64 count, uint32 c, FpLevel *lv)
{
	int			g;
	uint64		off = 0;

	Assert(count >= 1 && count <= BLOOM_SS_FP_MAX_COUNT && c >= 1 && c <= 64);
	for (g = 0; g < BLOOM_SS_FP_MAX_LEVELS && (UINT64CONST(1) << (2 * g)) <= count; g++)
	{
		FpLevel    *L = &lv[g];
		uint64		first = UINT64CONST(1) << (2 * g);

		L->n = Min(3 * first, count - first + 1);
		L->u = FpPrecision(g, c);
		L->hb = (uint32) pg_leftmost_one_pos64(L->n);
		L->lw = L->u - L->hb;
		L->ndir = ((UINT64CONST(1) << L->hb) - 1) / BLOOM_SS_FP_DIR;
		L->off = off;
		L->hioff = off + 32 * L->ndir;
		L->hilen = L->n + (UINT64CONST(1) << L->hb);
		L->looff = L->hioff + L->hilen;
		L->end = L->looff + L->n * L->lw;
		off = L->end;
	}
	return g;
}

/*
 * The levels of a member as FpGeometry computes them, from a one-entry
 * cache (every probe of the same member needs them): valid until the next
 * call
 */
static const FpLevel *
FpLayout(uint64 count, uint32 c, int *nl)
{
	static uint64 cached_count = 0;
	static uint32 cached_c = 0;
	static int	cached_nl = 0;
	static FpLevel cached[BLOOM_SS_FP_MAX_LEVELS];

	if (count != cached_count || c != cached_c)
	{
		cached_nl = FpGeometry(count, c, cached);
		cached_count = count;
		cached_c = c;
	}
	*nl = cached_nl;
	return cached;
}

/* Payload bits of a member of count fingerprints and excess c */
static uint64
FpTotalBits(uint64 count, uint32 c)
{
	int			nl;
	const FpLevel *lv = FpLayout(count, c, &nl);

	return lv[nl - 1].end;
}

/* The fingerprint of hash h at precision u: its top u bits */
static inline uint64
FpOf(uint64 h, uint32 u)
{
	return u >= 64 ? h : h >> (64 - u);
}

/* The low w bits of x (w 1 .. 64) */
static inline uint64
FpLow(uint64 x, uint32 w)
{
	return w >= 64 ? x : x & ((UINT64CONST(1) << w) - 1);
}

/*
 * The excess c of a new member given share (0, 1] of the target rate:
 * 2^-c <= share * target / BLOOM_SS_FP_BUDGET_LEVELS, within 1 .. 64
 */
static uint32
FpExcess(double target, double share)
{
	double		c = ceil(log2((double) BLOOM_SS_FP_BUDGET_LEVELS / (share * target)));

	if (!(c >= 1))
		return 1;
	if (c > 64)
		return 64;
	return (uint32) c;
}

/* Reads the words of a member's payload, in memory or by TOAST slices */
typedef struct FpReader
{
	const uint8 *full;			/* the payload in memory, or NULL */
	BfFilterRef *ref;			/* else the value to read slices of */
	Size		base;			/* byte offset of the payload in the value */
	uint64		nwords;			/* words of the payload */
	uint64		blk[2];			/* the blocks in buf, PG_UINT64_MAX for none */
	int			next;			/* the buffer to replace next */
	uint8		buf[2][BLOOM_SS_FP_BLOCK];
} FpReader;

static void
FpReaderInit(FpReader *r, const uint8 *full, BfFilterRef *ref, Size base, uint64 nwords)
{
	r->full = full;
	r->ref = ref;
	r->base = base;
	r->nwords = nwords;
	r->blk[0] = r->blk[1] = PG_UINT64_MAX;
	r->next = 0;
}

/* Word j of the payload */
static pg_attribute_always_inline uint64
FpWordAt(FpReader *r, uint64 j)
{
	uint64		le;

	if (unlikely(j >= r->nwords))
		BfCorrupt("bloom", "A fingerprint member is read past its end.");
	if (likely(r->full != NULL))
		memcpy(&le, r->full + j * 8, 8);
	else
	{
		const uint64 per = BLOOM_SS_FP_BLOCK / 8;
		uint64		b = j / per;
		int			i;

		if (r->blk[0] == b)
			i = 0;
		else if (r->blk[1] == b)
			i = 1;
		else
		{
			uint64		words = Min(per, r->nwords - b * per);

			i = r->next;
			r->next ^= 1;
			BfRefReadBytes(r->ref, r->base + (Size) (b * BLOOM_SS_FP_BLOCK), (Size) (words * 8), r->buf[i]);
			r->blk[i] = b;
		}
		memcpy(&le, r->buf[i] + (j - b * per) * 8, 8);
	}
	return BfGet64(le);
}

/* The w bits (1 .. 64) at bit offset off of the payload */
static pg_attribute_always_inline uint64
FpBits(FpReader *r, uint64 off, uint32 w)
{
	uint64		j = off >> 6;
	uint32		s = (uint32) (off & 63);
	uint64		x = FpWordAt(r, j) >> s;

	if (s != 0 && s + w > 64)
		x |= FpWordAt(r, j + 1) << (64 - s);
	return FpLow(x, w);
}

/* OR x (below 2^w, w 1 .. 64) into the bits at offset off of payload p */
static inline void
FpPutBits(uint8 *p, uint64 off, uint32 w, uint64 x)
{
	uint64		j = off >> 6;
	uint32		s = (uint32) (off & 63);
	uint64		le;

	memcpy(&le, p + j * 8, 8);
	le = BfPut64(BfGet64(le) | (x << s));
	memcpy(p + j * 8, &le, 8);
	if (s != 0 && s + w > 64)
	{
		memcpy(&le, p + (j + 1) * 8, 8);
		le = BfPut64(BfGet64(le) | (x >> (64 - s)));
		memcpy(p + (j + 1) * 8, &le, 8);
	}
}

/* Position of the r-th (1-based, r <= popcount) set bit of x */
static inline uint32
FpSelect64(uint64 x, uint64 r)
{
	uint32		pos = 0;

	for (;;)
	{
		uint32		c = pg_number_of_ones[x & 0xFF];

		if (r <= c)
			break;
		r -= c;
		x >>= 8;
		pos += 8;
	}
	while (--r > 0)
		x &= x - 1;
	return pos + (uint32) pg_rightmost_one_pos64(x);
}

/*
 * Where fingerprint f (at level L's precision) goes in level L: *upos, the
 * offset in the unary vector of the 1 to insert (before the bucket's first
 * value above f, or its end), and *idx, the values before it.  False when
 * the level holds f already (the probe of a level).
 */
static pg_attribute_always_inline bool
FpFindSlot(FpReader *r, const FpLevel *L, uint64 f, uint64 *upos, uint64 *idx)
{
	uint64		hi = L->lw >= 64 ? 0 : f >> L->lw;
	uint64		lo = FpLow(f, L->lw);
	uint64		t = hi / BLOOM_SS_FP_DIR;
	uint64		need = hi - t * BLOOM_SS_FP_DIR;	/* zeros to pass */
	uint64		pos = 0;

	if (t > 0)
		pos = FpBits(r, L->off + 32 * (t - 1), 32) + t * BLOOM_SS_FP_DIR;
	while (need > 0)
	{
		uint64		nb,
					zeros;
		uint64		z;

		if (pos >= L->hilen)
			BfCorrupt("bloom", "A fingerprint level has too few buckets.");
		nb = Min(64, L->hilen - pos);
		zeros = FpLow(~FpBits(r, L->hioff + pos, (uint32) nb), (uint32) nb);
		z = (uint64) pg_popcount64(zeros);
		if (z < need)
		{
			need -= z;
			pos += nb;
		}
		else
		{
			pos += (uint64) FpSelect64(zeros, need) + 1;
			need = 0;
		}
	}
	/* the values of bucket hi (a run of ones from pos), ascending */
	for (;;)
	{
		uint64		nb,
					ones,
					run,
					k;

		if (pos >= L->hilen)
			BfCorrupt("bloom", "A fingerprint level ends inside a bucket.");
		nb = Min(64, L->hilen - pos);
		ones = FpBits(r, L->hioff + pos, (uint32) nb);
		run = ~ones == 0 ? 64 : (uint64) pg_rightmost_one_pos64(~ones);
		run = Min(run, nb);
		for (k = 0; k < run; k++)
		{
			uint64		i = pos + k - hi,	/* ones before it */
						low;

			if (i >= L->n)
				BfCorrupt("bloom", "A fingerprint level has too many values.");
			low = FpBits(r, L->looff + i * L->lw, L->lw);
			if (low >= lo)
			{
				*upos = pos + k;
				*idx = i;
				return low != lo;
			}
		}
		if (run < nb)
		{
			*upos = pos + run;
			*idx = pos + run - hi;
			return true;
		}
		pos += nb;
	}
}

/* Whether level L may hold hash h */
static inline bool
FpProbeLevel(FpReader *r, const FpLevel *L, uint64 h)
{
	uint64		upos,
				idx;

	return !FpFindSlot(r, L, FpOf(h, L->u), &upos, &idx);
}

#if defined(__GNUC__) || defined(__clang__)
#define FpPrefetch(p)	__builtin_prefetch((p), 0)
#else
#define FpPrefetch(p)	((void) (p))
#endif

/* Whether a fingerprint member (levels lv, nl of them) may hold hash h */
static bool
FpProbe(FpReader *r, const FpLevel *lv, int nl, uint64 h)
{
	int			g;

	/*
	 * A probe of a big level reads three places of it (its directory entry,
	 * the unary vector near the bucket, the low parts near the bucket's
	 * values), cache misses in a big member: ask for all of them, at every
	 * level, before the first is needed.  The unary vector and the low
	 * parts are where an even spread of the values would put them.
	 */
	if (r->full != NULL)
	{
		for (g = nl - 1; g >= 0 && lv[g].end - lv[g].off > 8 * 4096; g--)
		{
			const FpLevel *L = &lv[g];
			uint64		f = FpOf(h, L->u);
			uint64		hi = L->lw >= 64 ? 0 : f >> L->lw;
			uint64		t = hi / BLOOM_SS_FP_DIR;
			uint64		i = (uint64) (((double) hi / (double) (UINT64CONST(1) << L->hb)) * (double) L->n);

			if (t > 0)
				FpPrefetch(r->full + ((L->off + 32 * (t - 1)) >> 6) * 8);
			FpPrefetch(r->full + ((L->hioff + hi + i) >> 6) * 8);
			FpPrefetch(r->full + ((L->looff + Min(i, L->n - 1) * L->lw) >> 6) * 8);
		}
	}
	/* the big levels first: a member's hits are mostly there */
	for (g = nl - 1; g >= 0; g--)
		if (FpProbeLevel(r, &lv[g], h))
			return true;
	return false;
}

/* Whether the fingerprint member with header mh, at byte base of ref's value, may hold hash h (read by slices) */
static bool
FpProbeRef(BfFilterRef *ref, Size base, const BloomMember *mh, uint64 h)
{
	FpReader   *r = palloc(sizeof(FpReader));
	int			nl;
	const FpLevel *lv = FpLayout(BfGet64(mh->count), BfGet32(mh->k), &nl);
	bool		found;

	FpReaderInit(r, NULL, ref, base, BloomPayloadSize(BfGet64(mh->m)) / 8);
	found = FpProbe(r, lv, nl, h);
	pfree(r);
	return found;
}

/*
 * Walk level L in order: check it (directory, buckets, ascending values)
 * and, when out is not NULL, store its values there.  Raises 22P02.
 */
static void
FpWalkLevel(FpReader *r, const FpLevel *L, uint64 *out, int levelno)
{
	uint64		pos,
				b = 0,
				i = 0,
				prev = 0,
				buckets = UINT64CONST(1) << L->hb;

	for (pos = 0; pos < L->hilen; pos += 64)
	{
		uint32		nb = (uint32) Min(64, L->hilen - pos);
		uint64		w = FpBits(r, L->hioff + pos, nb);
		uint32		bit;

		for (bit = 0; bit < nb; bit++)
		{
			if ((w >> bit) & 1)
			{
				uint64		f;

				if (i >= L->n || b >= buckets)
					BfCorrupt("bloom", "Fingerprint level %d has a malformed unary vector.", levelno);
				f = (L->lw >= 64 ? 0 : b << L->lw) | FpBits(r, L->looff + i * L->lw, L->lw);
				if (i > 0 && f <= prev)
					BfCorrupt("bloom", "Fingerprint level %d is not strictly ascending.", levelno);
				if (out)
					out[i] = f;
				prev = f;
				i++;
			}
			else
			{
				b++;
				if (b % BLOOM_SS_FP_DIR == 0 && b / BLOOM_SS_FP_DIR <= L->ndir &&
					FpBits(r, L->off + 32 * (b / BLOOM_SS_FP_DIR - 1), 32) != i)
					BfCorrupt("bloom", "Fingerprint level %d has a wrong directory entry.", levelno);
			}
		}
	}
	if (i != L->n || b != buckets)
		BfCorrupt("bloom", "Fingerprint level %d has a malformed unary vector.", levelno);
}

/*
 * The values of a level in ascending order, one at a time: the fast walk of
 * bloom_add (a word of the unary vector at a time, the low parts in order),
 * checking only what keeps the reads in bounds (22P02)
 */
typedef struct FpCursor
{
	FpReader   *r;
	const FpLevel *L;
	uint64		pos;			/* unary vector offset of the word in w */
	uint64		w;				/* its ones not yet returned */
	uint32		nb;				/* its length */
	uint32		next;			/* its first bit not yet counted */
	uint64		b;				/* the bucket of the next value */
	uint64		i;				/* values returned */
	uint64		lowoff;			/* the next low part */
} FpCursor;

static void
FpCursorInit(FpCursor *c, FpReader *r, const FpLevel *L)
{
	c->r = r;
	c->L = L;
	c->pos = 0;
	c->nb = (uint32) Min(64, L->hilen);
	c->w = FpBits(r, L->hioff, c->nb);
	c->next = 0;
	c->b = 0;
	c->i = 0;
	c->lowoff = L->looff;
}

static pg_attribute_always_inline bool
FpCursorNext(FpCursor *c, uint64 *v)
{
	const FpLevel *L = c->L;
	uint32		p;

	while (c->w == 0)
	{
		c->b += c->nb - c->next;
		c->pos += 64;
		if (c->pos >= L->hilen)
		{
			if (c->i != L->n)
				BfCorrupt("bloom", "A fingerprint level has too few values.");
			return false;
		}
		c->nb = (uint32) Min(64, L->hilen - c->pos);
		c->w = FpBits(c->r, L->hioff + c->pos, c->nb);
		c->next = 0;
	}
	p = (uint32) pg_rightmost_one_pos64(c->w);
	c->b += p - c->next;		/* the bucket ends before this value */
	if (c->i >= L->n)
		BfCorrupt("bloom", "A fingerprint level has too many values.");
	*v = (L->lw >= 64 ? 0 : c->b << L->lw) | FpBits(c->r, c->lowoff, L->lw);
	c->lowoff += L->lw;
	c->i++;
	c->next = p + 1;
	c->w &= c->w - 1;
	return true;
}

/* Sequential writes of bit fields into a zeroed payload */
typedef struct FpWriter
{
	uint8	   *p;
	uint64		j;				/* the word being filled */
	uint64		acc;			/* its bits so far */
	uint32		fill;			/* how many (0 .. 63) */
} FpWriter;

static inline void
FpWriterInit(FpWriter *w, uint8 *p, uint64 off)
{
	w->p = p;
	w->j = off >> 6;
	w->fill = (uint32) (off & 63);
	w->acc = 0;
}

static inline void
FpWriterFlush(FpWriter *w)
{
	uint64		le;

	memcpy(&le, w->p + w->j * 8, 8);
	le = BfPut64(BfGet64(le) | w->acc);
	memcpy(w->p + w->j * 8, &le, 8);
}

/* Append x (below 2^nbits, nbits 1 .. 64) */
static pg_attribute_always_inline void
FpAppend(FpWriter *w, uint64 x, uint32 nbits)
{
	w->acc |= x << w->fill;
	if (w->fill + nbits >= 64)
	{
		uint32		used = 64 - w->fill;	/* bits of x in this word */

		FpWriterFlush(w);
		w->j++;
		w->acc = used >= 64 ? 0 : x >> used;
		w->fill = w->fill + nbits - 64;
	}
	else
		w->fill += nbits;
}

/* Skip nbits (zero bits: the payload is zeroed) */
static pg_attribute_always_inline void
FpSkip(FpWriter *w, uint64 nbits)
{
	uint64		total = w->fill + nbits;

	if (total >= 64)
	{
		if (w->acc != 0)
			FpWriterFlush(w);
		w->j += total / 64;
		w->acc = 0;
		w->fill = (uint32) (total % 64);
	}
	else
		w->fill = (uint32) total;
}

static inline void
FpWriterEnd(FpWriter *w)
{
	if (w->fill > 0)
		FpWriterFlush(w);
}

/*
 * Write level L of payload p (zeroed) from the values of cursor c (or none)
 * merged with the na values of a: distinct, each source ascending
 */
static void
FpEncodeLevel(uint8 *p, const FpLevel *L, FpCursor *c, const uint64 *a, uint64 na)
{
	uint64		i,
				t = 1,
				ai = 0,
				cv = 0,
				prev = 0;
	bool		have = c != NULL && FpCursorNext(c, &cv);
	FpWriter	unary,
				lows;

	FpWriterInit(&unary, p, L->hioff);
	FpWriterInit(&lows, p, L->looff);
	for (i = 0; i < L->n; i++)
	{
		uint64		f,
					hi;

		if (have && (ai >= na || cv < a[ai]))
		{
			f = cv;
			have = FpCursorNext(c, &cv);
		}
		else if (ai < na)
			f = a[ai++];
		else
			elog(ERROR, "fingerprint level has fewer values than its layout");
		hi = L->lw >= 64 ? 0 : f >> L->lw;
		Assert(i == 0 || f > prev);
		Assert(hi < (UINT64CONST(1) << L->hb));
		for (; t <= L->ndir && t * BLOOM_SS_FP_DIR <= hi; t++)
			FpPutBits(p, L->off + 32 * (t - 1), 32, i);
		/* the bucket ends since the previous value's bucket, then its 1 */
		FpSkip(&unary, hi - (i == 0 ? 0 : (L->lw >= 64 ? 0 : prev >> L->lw)));
		FpAppend(&unary, 1, 1);
		FpAppend(&lows, FpLow(f, L->lw), L->lw);
		prev = f;
	}
	if (have || ai < na)
		elog(ERROR, "fingerprint level has more values than its layout");
	FpWriterEnd(&unary);
	FpWriterEnd(&lows);
	for (; t <= L->ndir; t++)
		FpPutBits(p, L->off + 32 * (t - 1), 32, L->n);
}

/* Word j (LE) of a payload in memory */
static pg_attribute_always_inline uint64
FpLoad(const uint8 *p, uint64 j)
{
	uint64		le;

	memcpy(&le, p + j * 8, 8);
	return BfGet64(le);
}

static pg_attribute_always_inline void
FpStore(uint8 *p, uint64 j, uint64 x)
{
	uint64		le = BfPut64(x);

	memcpy(p + j * 8, &le, 8);
}

/* The w bits (1 .. 64) at bit offset off of a payload in memory */
static inline uint64
FpGetRaw(const uint8 *p, uint64 off, uint32 w)
{
	uint32		s = (uint32) (off & 63);
	uint64		x = FpLoad(p, off >> 6) >> s;

	if (s != 0 && s + w > 64)
		x |= FpLoad(p, (off >> 6) + 1) << (64 - s);
	return FpLow(x, w);
}

/*
 * Set the w bits (1 .. 64) at bit offset off of payload p to x (below 2^w),
 * the other bits of the words unchanged
 */
static inline void
FpSetRaw(uint8 *p, uint64 off, uint32 w, uint64 x)
{
	uint64		j = off >> 6;
	uint32		s = (uint32) (off & 63);
	uint64		mask = w >= 64 ? PG_UINT64_MAX : (UINT64CONST(1) << w) - 1;

	FpStore(p, j, (FpLoad(p, j) & ~(mask << s)) | (x << s));
	if (s != 0 && s + w > 64)
		FpStore(p, j + 1, (FpLoad(p, j + 1) & ~(mask >> (64 - s))) | (x >> (64 - s)));
}

/*
 * Move nbits of payload p from bit soff up to bit doff (> soff), like
 * memmove: from the top down, a whole word at a time between the partial
 * words at either end; the bits outside the destination are left as they
 * are
 */
static void
FpMoveBitsUp(uint8 *p, uint64 doff, uint64 soff, uint64 nbits)
{
	uint64		delta = doff - soff,
				d;
	uint32		w = (uint32) ((doff + nbits) & 63);

	Assert(doff > soff);
	if (nbits == 0)
		return;
	if (w > 0)
	{
		/* the top partial word */
		w = (uint32) Min(w, nbits);
		nbits -= w;
		FpSetRaw(p, doff + nbits, w, FpGetRaw(p, soff + nbits, w));
	}
	/*
	 * doff + nbits is now whole words, each made of the source words js and
	 * js + 1 (js + 1 the one of the word above), read before they are
	 * overwritten
	 */
	d = (doff + nbits) >> 6;
	if (nbits >= 64)
	{
		uint64		nw = nbits / 64,
					js = (d * 64 - delta) >> 6;
		uint32		sh = (uint32) ((d * 64 - delta) & 63);

		if (sh == 0)
			memmove(p + (d - nw) * 8, p + (js - nw) * 8, nw * 8);
		else
		{
			uint64		above = FpLoad(p, js),
						q;

			for (q = 0; q < nw; q++)
			{
				uint64		below;

				js--;
				d--;
				below = FpLoad(p, js);
				FpStore(p, d, (below >> sh) | (above << (64 - sh)));
				above = below;
			}
		}
		nbits -= nw * 64;
	}
	if (nbits > 0)
		FpSetRaw(p, doff, (uint32) nbits, FpGetRaw(p, soff, (uint32) nbits));
}

/*
 * Insert the na values of a (ascending, none in the level) into level L0,
 * the last level of payload p, making it level L, when both have the same
 * buckets (hb): the unary vector and the low parts move up past each new
 * bit, from the top down, and the directory entries after a new value's
 * bucket count it; the same bits as FpEncodeLevel, in the time of moving
 * what follows the first new value.  p is whole words up to L->end (the
 * words after L0->end zero).  False (p untouched) when a value is in the
 * level already.
 */
static bool
FpInsertLevel(uint8 *p, const FpLevel *L0, const FpLevel *L, const uint64 *a, uint64 na)
{
	FpReader	r;
	uint64	   *upos = palloc((na + 1) * sizeof(uint64)),
			   *idx = palloc((na + 1) * sizeof(uint64));
	uint64		k,
				t;

	Assert(L->off == L0->off && L->hb == L0->hb && L->lw == L0->lw && L->n == L0->n + na);
	FpReaderInit(&r, p, NULL, 0, BloomPayloadSize(L0->end) / 8);
	for (k = 0; k < na; k++)
		if (!FpFindSlot(&r, L0, a[k], &upos[k], &idx[k]))
		{
			pfree(upos);
			pfree(idx);
			return false;
		}
	upos[na] = L0->hilen;
	idx[na] = L0->n;

	/*
	 * From the top: the low parts from old value idx[k - 1] to idx[k] move
	 * up by the na new unary bits and k new low parts, new value k - 1
	 * below them; then the unary vector, old bits upos[k - 1] to upos[k] up
	 * by k, the new 1 below them
	 */
	for (k = na; k > 0; k--)
	{
		FpMoveBitsUp(p, L->looff + (idx[k - 1] + k) * L->lw, L0->looff + idx[k - 1] * L0->lw,
					 (idx[k] - idx[k - 1]) * L0->lw);
		FpSetRaw(p, L->looff + (idx[k - 1] + k - 1) * L->lw, L->lw, FpLow(a[k - 1], L->lw));
	}
	FpMoveBitsUp(p, L->looff, L0->looff, idx[0] * L0->lw);
	for (k = na; k > 0; k--)
	{
		FpMoveBitsUp(p, L->hioff + upos[k - 1] + k, L0->hioff + upos[k - 1], upos[k] - upos[k - 1]);
		FpSetRaw(p, L->hioff + upos[k - 1] + k - 1, 1, 1);
	}
	if (L->end % 64)
		FpSetRaw(p, L->end, 64 - (uint32) (L->end % 64), 0);
	/* entry t counts the values in the buckets below 128 t */
	k = 0;
	for (t = 1; t <= L->ndir; t++)
	{
		uint64		e;

		while (k < na && (L->lw >= 64 ? 0 : a[k] >> L->lw) < t * BLOOM_SS_FP_DIR)
			k++;
		if (k == 0)
			continue;
		e = FpGetRaw(p, L->off + 32 * (t - 1), 32);
		FpSetRaw(p, L->off + 32 * (t - 1), 32, e + k);
	}
	pfree(upos);
	pfree(idx);
	return true;
}

/* A reader of a fingerprint member in memory, and its levels */
static int
FpOpen(const BloomMember *mb, FpReader *r, FpLevel *lv)
{
	FpReaderInit(r, mb->payload, NULL, 0, BloomPayloadSize(BfGet64(mb->m)) / 8);
	return FpGeometry(BfGet64(mb->count), BfGet32(mb->k), lv);
}

/* Whether a fingerprint member's header is consistent (m is its layout's length) */
static bool
FpHeaderOk(const BloomMember *mb)
{
	uint64		count = BfGet64(mb->count);
	uint32		c = BfGet32(mb->k);

	return c >= 1 && c <= 64 && count >= 1 && count <= BLOOM_SS_FP_MAX_COUNT &&
		BfGet64(mb->capacity) == 0 && BfGet64(mb->m) == FpTotalBits(count, c);
}

/* Full check of a fingerprint member's levels (22P02) */
static void
FpValidate(const BloomMember *mb)
{
	FpReader	r;
	FpLevel		lv[BLOOM_SS_FP_MAX_LEVELS];
	int			nl = FpOpen(mb, &r, lv),
				g;

	for (g = 0; g < nl; g++)
		FpWalkLevel(&r, &lv[g], NULL, g);
}

/* The expected rate of a fingerprint member: sum over levels of n / 2^u */
static double
FpRate(const BloomMember *mb)
{
	FpLevel		lv[BLOOM_SS_FP_MAX_LEVELS];
	int			nl = FpGeometry(BfGet64(mb->count), BfGet32(mb->k), lv),
				g;
	double		rate = 0;

	for (g = 0; g < nl; g++)
		rate += ldexp((double) lv[g].n, -(int) lv[g].u);
	return rate;
}

/* The values a batch of adds puts into the levels, and a set of them to probe */
typedef struct FpPending
{
	uint64	   *fp[BLOOM_SS_FP_MAX_LEVELS];	/* per level, in the order added */
	uint64		n[BLOOM_SS_FP_MAX_LEVELS];
	uint64		cap[BLOOM_SS_FP_MAX_LEVELS];
	/* open addressing: key[i] at level lvl[i] (0xFF: empty) */
	uint64	   *key;
	uint8	   *lvl;
	uint64		mask;
	uint64		used;
} FpPending;

static inline uint64
FpSlot(const FpPending *p, int g, uint64 f)
{
	return BfMix64(f + (uint64) (g + 1) * UINT64CONST(0x9E3779B97F4A7C15)) & p->mask;
}

static bool
FpPendingHas(const FpPending *p, int g, uint64 f)
{
	uint64		i;

	if (p->n[g] == 0)
		return false;
	for (i = FpSlot(p, g, f); p->lvl[i] != 0xFF; i = (i + 1) & p->mask)
		if (p->lvl[i] == g && p->key[i] == f)
			return true;
	return false;
}

static void
FpPendingSetPut(FpPending *p, int g, uint64 f)
{
	uint64		i;

	for (i = FpSlot(p, g, f); p->lvl[i] != 0xFF; i = (i + 1) & p->mask)
		;
	p->lvl[i] = (uint8) g;
	p->key[i] = f;
}

static void
FpPendingAdd(FpPending *p, int g, uint64 f)
{
	if (p->n[g] == p->cap[g])
	{
		p->cap[g] = Max(p->cap[g] * 2, 16);
		p->fp[g] = p->fp[g] ? repalloc_huge(p->fp[g], p->cap[g] * 8) :
			palloc_extended(p->cap[g] * 8, MCXT_ALLOC_HUGE);
	}
	p->fp[g][p->n[g]++] = f;
	if ((p->used + 1) * 2 > p->mask + 1)
	{
		/* double the set and put every pending value back */
		uint64		size = (p->mask + 1) * 2;
		int			l;
		uint64		i;

		if (p->key)
		{
			pfree(p->key);
			pfree(p->lvl);
		}
		p->key = palloc_extended(size * 8, MCXT_ALLOC_HUGE);
		p->lvl = palloc_extended(size, MCXT_ALLOC_HUGE);
		memset(p->lvl, 0xFF, size);
		p->mask = size - 1;
		for (l = 0; l < BLOOM_SS_FP_MAX_LEVELS; l++)
			for (i = 0; i < p->n[l] - (l == g ? 1 : 0); i++)
				FpPendingSetPut(p, l, p->fp[l][i]);
	}
	FpPendingSetPut(p, g, f);
	p->used++;
}

static void
FpPendingFree(FpPending *p)
{
	int			g;

	for (g = 0; g < BLOOM_SS_FP_MAX_LEVELS; g++)
		if (p->fp[g])
			pfree(p->fp[g]);
	if (p->key)
	{
		pfree(p->key);
		pfree(p->lvl);
	}
}

/*
 * The rate share of a fingerprint member started after members (BITS only:
 * a filter with a fingerprint member grows that one): what the members'
 * estimated rate leaves of the target, at least 1/32
 */
static double
FpShare(const BloomMember **pieces, int n, double target)
{
	double		pass = 1.0;
	int			j;

	for (j = 0; j < n; j++)
	{
		uint64		m = BfGet64(pieces[j]->m);
		Size		len = BloomPayloadSize(m),
					off;
		uint64		x = 0;

		if (BfGet32(pieces[j]->kind) != BLOOM_MEMBER_BITS)
			continue;
		for (off = 0; off < len; off += 1 << 30)
			x += pg_popcount((const char *) pieces[j]->payload + off, (int) Min(len - off, (Size) 1 << 30));
		pass *= 1.0 - BloomEstimateFpr(m, BfGet32(pieces[j]->k), x);
	}
	return Max(1.0 / 32, 1.0 - (1.0 - pass) / target);
}

/*
 * bloom_add of hashes hs[0 .. nh-1], in order, to a self-sized filter (a
 * copy this call may modify): each one that no member may hold already goes
 * into the last fingerprint member (a new one when there is none), whose
 * last level, and any new ones, are rebuilt once at the end.  A hash list
 * (an aggregate state given to bloom_add) takes the hashes as the aggregate
 * would.  Adding the hashes one call at a time gives the same value.
 */
struct varlena *
BloomSsAddMany(struct varlena *v, const uint64 *hs, int64 nh)
{
	BloomSs    *ss = (BloomSs *) v;
	BloomMember *last = BloomSsLast(ss);
	const BloomMember **pieces;
	int			n,
				j,
				t = -1,
				nl0 = 0,
				nl,
				g;
	uint32		c;
	uint64		n0 = 0,
				count,
				bits;
	int64		i;
	FpReader	r0;
	FpLevel		lv0[BLOOM_SS_FP_MAX_LEVELS],
				lv[BLOOM_SS_FP_MAX_LEVELS];
	FpPending	pend;
	BloomMember *mb = NULL;
	BloomSs    *out;
	Size		size;
	char	   *dst;

	if (nh <= 0)
		return v;
	if (last != NULL && BfGet32(last->kind) == BLOOM_MEMBER_HASHES)
	{
		struct varlena *orig = v;

		for (i = 0; i < nh; i++)
		{
			struct varlena *grown = BloomSsAggAdd(v, hs[i]);

			if (grown != v && v != orig)
				pfree(v);
			v = grown;
		}
		return v;
	}
	ss->hdr.ninserts = BfPut64(BfAddSat64(BfGet64(ss->hdr.ninserts), (uint64) nh));
	pieces = BloomSsPieces(ss, 1, &n);
	for (j = 0; j < n; j++)
		if (BfGet32(pieces[j]->kind) == BLOOM_MEMBER_FINGERPRINTS)
			t = j;
	if (t >= 0)
	{
		nl0 = FpOpen(pieces[t], &r0, lv0);
		n0 = BfGet64(pieces[t]->count);
		c = BfGet32(pieces[t]->k);
	}
	else
		c = FpExcess(BloomSsTarget(v), n == 0 ? 1.0 : FpShare(pieces, n, BloomSsTarget(v)));

	memset(&pend, 0, sizeof(pend));
	count = n0;
	for (i = 0; i < nh; i++)
	{
		uint64		h = hs[i];
		bool		maybe = false;
		int			top = count > 0 ? FpLevelOf(count) : -1;

		for (j = 0; j < n && !maybe; j++)
			maybe = j == t ? FpProbe(&r0, lv0, nl0, h) : BloomSsMemberTest(pieces[j], h);
		for (g = Max(nl0 - 1, 0); g <= top && !maybe; g++)
			maybe = FpPendingHas(&pend, g, FpOf(h, FpPrecision(g, c)));
		if (maybe)
			continue;
		if (count >= BLOOM_SS_FP_MAX_COUNT)
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("a self-sized bloom filter can grow by at most " UINT64_FORMAT " elements", BLOOM_SS_FP_MAX_COUNT),
					 errhint("Build the filter with bloom_agg(x), or a fixed one with bloom_empty(capacity, fpr).")));
		count++;
		g = FpLevelOf(count);
		FpPendingAdd(&pend, g, FpOf(h, FpPrecision(g, c)));
	}
	if (count == n0)
	{
		/* nothing new: only the insert counter changed, in place */
		pfree(pieces);
		return v;
	}

	/*
	 * The new datum, the member rebuilt in place: its levels before the last
	 * copied, the last one merged with its new values, the new ones written
	 */
	nl = FpGeometry(count, c, lv);
	bits = lv[nl - 1].end;

	size = BLOOM_SS_HDRSZ + BLOOM_MEMBER_HDRSZ + BloomPayloadSize(bits);
	for (j = 0; j < n; j++)
		if (j != t)
			size += BloomSsMemberSize(pieces[j]);
	BfCheckSize("bloom", (double) size);

	/*
	 * A few values into the last level, whose buckets stay the same (most
	 * single adds): inserted into its bits, in v itself (a copy this call
	 * may modify) or, when the payload needs another word, in a copy one
	 * word longer, instead of re-encoding the level
	 */
	if (n0 > 0 && nl == nl0 && lv[nl - 1].hb == lv0[nl - 1].hb &&
		pend.n[nl - 1] <= BLOOM_SS_FP_INSERT_MAX && pend.n[nl - 1] * 64 <= lv0[nl - 1].n)
	{
		Size		before = (const char *) pieces[t]->payload + BloomPayloadSize(BfGet64(pieces[t]->m)) -
			(const char *) ss,	/* the bytes up to member t's end */
					grow = size - VARSIZE(ss);

		if (pend.n[nl - 1] > 1)
			BloomSsSortHashes(pend.fp[nl - 1], pend.n[nl - 1]);
		if (grow == 0)
			out = ss;
		else
		{
			out = palloc_extended(size, MCXT_ALLOC_HUGE);
			memcpy(out, ss, before);
			memset((char *) out + before, 0, grow);
			memcpy((char *) out + before + grow, (const char *) ss + before, VARSIZE(ss) - before);
			SET_VARSIZE(out, size);
		}
		mb = (BloomMember *) ((char *) out + ((const char *) pieces[t] - (const char *) ss));
		if (!FpInsertLevel(mb->payload, &lv0[nl - 1], &lv[nl - 1], pend.fp[nl - 1], pend.n[nl - 1]))
			elog(ERROR, "fingerprint level holds a value being added");
		mb->m = BfPut64(bits);
		mb->count = BfPut64(count);
		pfree(pieces);
		FpPendingFree(&pend);
		return (struct varlena *) out;
	}
	out = palloc_extended(size, MCXT_ALLOC_HUGE);
	memcpy(out, ss, BLOOM_SS_HDRSZ);
	SET_VARSIZE(out, size);
	out->nmembers = BfPut32((uint32) (t >= 0 ? n : n + 1));
	dst = out->members;
	for (j = 0; j <= n; j++)
	{
		if (j == t || (j == n && t < 0))
		{
			mb = (BloomMember *) dst;
			memset(mb, 0, BLOOM_MEMBER_HDRSZ + BloomPayloadSize(bits));
			mb->m = BfPut64(bits);
			mb->k = BfPut32(c);
			mb->kind = BfPut32(BLOOM_MEMBER_FINGERPRINTS);
			mb->count = BfPut64(count);
			dst += BLOOM_MEMBER_HDRSZ + BloomPayloadSize(bits);
		}
		else if (j < n)
		{
			Size		len = BloomSsMemberSize(pieces[j]);

			memcpy(dst, pieces[j], len);
			dst += len;
		}
	}
	Assert(dst == (char *) out + size);
	g = 0;
	if (n0 > 0)
	{
		const FpLevel *L0 = &lv0[nl0 - 1];
		bool		whole = pend.n[nl0 - 1] == 0;	/* nothing new in the last level */
		uint64		keep = whole ? L0->end : L0->off;	/* bits copied as they are */
		FpCursor	cur;

		memcpy(mb->payload, pieces[t]->payload, (keep / 64) * 8);
		if (keep % 64)
			FpPutBits(mb->payload, keep & ~UINT64CONST(63), (uint32) (keep % 64),
					  FpBits(&r0, keep & ~UINT64CONST(63), (uint32) (keep % 64)));
		g = nl0 - 1;
		Assert(lv[g].n == L0->n + pend.n[g]);
		if (!whole)
		{
			if (pend.n[g] > 1)
				BloomSsSortHashes(pend.fp[g], pend.n[g]);
			FpCursorInit(&cur, &r0, L0);
			FpEncodeLevel(mb->payload, &lv[g], &cur, pend.fp[g], pend.n[g]);
		}
		g++;
	}
	for (; g < nl; g++)
	{
		Assert(lv[g].n == pend.n[g]);
		if (pend.n[g] > 1)
			BloomSsSortHashes(pend.fp[g], pend.n[g]);
		FpEncodeLevel(mb->payload, &lv[g], NULL, pend.fp[g], pend.n[g]);
	}
	pfree(pieces);
	FpPendingFree(&pend);
	return (struct varlena *) out;
}

/* Whether hash h may be in a member held in memory */
static bool
BloomSsMemberTest(const BloomMember *mb, uint64 h)
{
	uint32		kind = BfGet32(mb->kind);

	if (kind == BLOOM_MEMBER_BITS)
		return BloomBitsTestHash(mb->payload, BfGet64(mb->m), BfGet32(mb->k), h);
	else if (kind == BLOOM_MEMBER_FINGERPRINTS)
	{
		FpReader	r;
		int			nl;
		const FpLevel *lv = FpLayout(BfGet64(mb->count), BfGet32(mb->k), &nl);

		FpReaderInit(&r, mb->payload, NULL, 0, BloomPayloadSize(BfGet64(mb->m)) / 8);
		return FpProbe(&r, lv, nl, h);
	}
	else
	{
		uint64		count = BfGet64(mb->count),
					i;

		for (i = 0; i < count; i++)
			if (BloomSsHashAt(mb, i) == h)
				return true;
		return false;
	}
}

/* bloom_add of one hash to a self-sized filter (BloomSsAddMany) */
struct varlena *
BloomSsAdd(struct varlena *v, uint64 h)
{
	return BloomSsAddMany(v, &h, 1);
}

/* A fixed bloom as a BITS member (palloc'd) */
static BloomMember *
BloomSsFromFixed(const Bloom *b)
{
	uint64		m = BloomM(b);
	uint32		k = BloomK(b);
	Size		len = BloomPayloadSize(m);
	BloomMember *mb = palloc(BLOOM_MEMBER_HDRSZ + len);
	uint64		n = (uint64) llround(BloomEstimateCardinality(m, k, BloomBitsSet(b)));

	mb->m = BfPut64(m);
	mb->k = BfPut32(k);
	mb->kind = BfPut32(BLOOM_MEMBER_BITS);
	mb->count = BfPut64(n);
	mb->capacity = BfPut64(Max(n, 1));
	memcpy(mb->payload, b->bits, len);
	return mb;
}

/*
 * The members of one side of a union (BloomSsPieces), a fixed filter being
 * one member (*fixed: its palloc'd copy, else NULL)
 */
static const BloomMember **
BloomSsSidePieces(const struct varlena *v, BloomMember **fixed, int *n)
{
	const BloomMember **pieces;

	*fixed = NULL;
	if (BloomIsSelfSized(v))
		return BloomSsPieces((const BloomSs *) v, 0, n);
	*fixed = BloomSsFromFixed((const Bloom *) v);
	pieces = palloc(sizeof(BloomMember *));
	pieces[0] = *fixed;
	*n = 1;
	return pieces;
}

/* Order of BITS members in a union: by size, then bytes (a | b = b | a) */
static int
BloomSsMemberCmp(const void *pa, const void *pb)
{
	const BloomMember *a = *(const BloomMember *const *) pa;
	const BloomMember *b = *(const BloomMember *const *) pb;
	Size		la = BloomSsMemberSize(a),
				lb = BloomSsMemberSize(b);
	int			c;

	if (la != lb)
		return la < lb ? -1 : 1;
	c = memcmp(a, b, la);
	return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

/*
 * Whether members p[0 .. n-1] are strictly ascending by BloomSsMemberCmp,
 * as a union's result (or a value of one member) has them
 */
static bool
BloomSsAscending(const BloomMember **p, int n)
{
	int			i;

	for (i = 1; i < n; i++)
		if (BloomSsMemberCmp(&p[i - 1], &p[i]) >= 0)
			return false;
	return true;
}

/*
 * The strictly ascending members of a and b merged into out, a member on
 * both sides once: what sorting and de-duplicating both would give.  Each
 * member of b finds its place in a by a binary search, so that a union
 * aggregate adding an input's few members to a long state makes O(log n)
 * comparisons, not a sort of the state.  Returns the number written.
 */
static int
BloomSsMergeAscending(const BloomMember **a, int na, const BloomMember **b, int nb,
					  const BloomMember **out)
{
	int			ia = 0,
				ib,
				n = 0;

	for (ib = 0; ib < nb; ib++)
	{
		int			lo = ia,
					hi = na;

		/* the first a[lo] >= b[ib] */
		while (lo < hi)
		{
			int			mid = lo + (hi - lo) / 2;

			if (BloomSsMemberCmp(&a[mid], &b[ib]) < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		memcpy(out + n, a + ia, (lo - ia) * sizeof(BloomMember *));
		n += lo - ia;
		ia = lo;
		if (ia < na && BloomSsMemberCmp(&a[ia], &b[ib]) == 0)
			ia++;				/* equal bytes: one of them */
		out[n++] = b[ib];
	}
	memcpy(out + n, a + ia, (na - ia) * sizeof(BloomMember *));
	return n + (na - ia);
}

/*
 * The members of the union of a side whose members are pa[0 .. na) and one
 * whose members are pb[0 .. nb) (BloomSsSidePieces), into pieces (room for
 * na + nb + 1): the members of both, equal members once, in a canonical
 * order, and both hash lists merged into one list, last, in a canonical
 * order (sealed at once, at target, when longer than BLOOM_SS_LIST_MAX), so
 * that a | b = b | a.  *list and *sealed are members made here (palloc'd),
 * or NULL.  Returns the number of pieces.
 */
static int
BloomSsUnionPieces(const BloomMember **pa, int na, const BloomMember **pb, int nb,
				   double target, const BloomMember **pieces,
				   BloomMember **list, BloomMember **sealed)
{
	int			n = 0,
				i,
				j;
	const BloomMember *la = NULL,
			   *lb = NULL;

	*list = NULL;
	*sealed = NULL;
	if (na > 0 && BfGet32(pa[na - 1]->kind) == BLOOM_MEMBER_HASHES)
		la = pa[--na];
	if (nb > 0 && BfGet32(pb[nb - 1]->kind) == BLOOM_MEMBER_HASHES)
		lb = pb[--nb];
	if (BloomSsAscending(pa, na) && BloomSsAscending(pb, nb))
		n = BloomSsMergeAscending(pa, na, pb, nb, pieces);
	else
	{
		for (i = 0; i < na; i++)
			pieces[n++] = pa[i];
		for (i = 0; i < nb; i++)
			pieces[n++] = pb[i];
		qsort(pieces, n, sizeof(BloomMember *), BloomSsMemberCmp);
		/* members equal across or within the sides once */
		for (i = 1, j = 1; i < n; i++)
			if (BloomSsMemberCmp(&pieces[i], &pieces[j - 1]) != 0)
				pieces[j++] = pieces[i];
		n = Min(n, j);
	}
	/* the two lists in a canonical order (a | b = b | a) */
	if (la && lb && BloomSsMemberCmp(&la, &lb) > 0)
	{
		const BloomMember *t = la;

		la = lb;
		lb = t;
	}
	if (la || lb)
	{
		uint64		ca = la ? BfGet64(la->count) : 0,
					cb = lb ? BfGet64(lb->count) : 0,
					cap = BLOOM_SS_LIST_MIN;
		BloomMember *l;

		while (cap < ca + cb)
			cap *= 2;
		l = BloomSsNewMember(BLOOM_MEMBER_HASHES, (int64) cap, 0);
		if (ca)
			memcpy(l->payload, la->payload, ca * 8);
		if (cb)
			memcpy(l->payload + ca * 8, lb->payload, cb * 8);
		l->count = BfPut64(ca + cb);
		*list = l;
		if (cap > BLOOM_SS_LIST_MAX)
		{
			BloomSsDedup(l);
			if (BfGet64(l->count) > BLOOM_SS_LIST_MAX)
			{
				*sealed = BloomSsSealMember(l, (uint32) n, target);
				pieces[n++] = *sealed;
			}
			else
				pieces[n++] = l;
		}
		else
			pieces[n++] = l;
	}
	return n;
}

/*
 * The header of a union whose left side had ninserts_a inserts, out (the
 * left side's header, or the right's when the left is fixed) made the union
 * of b's: the tighter target rate of the two, the inserts summed
 */
static void
BloomSsUnionHeader(BloomSs *out, uint64 ninserts_a, const struct varlena *b)
{
	if (BloomIsSelfSized(b) && BloomSsTarget(b) < BloomSsTarget(out))
		out->fpr = ((const BloomSs *) b)->fpr;
	out->hdr.ninserts = BfPut64(BfAddSat64(ninserts_a, BfGet64(((const BfHeader *) b)->ninserts)));
}

/*
 * The union of two filters of which at least one is self-sized (same seed,
 * checked by the caller): BloomSsUnionPieces laid out as a new datum, with
 * the tighter target rate of the two self-sized sides.  A fixed filter joins
 * as one member.
 */
struct varlena *
BloomSsUnion(const struct varlena *a, const struct varlena *b)
{
	const BloomSs *sa = BloomIsSelfSized(a) ? (const BloomSs *) a : NULL;
	const BloomSs *sb = BloomIsSelfSized(b) ? (const BloomSs *) b : NULL;
	const BloomSs *proto = sa ? sa : sb;
	int			na = 0,
				nb = 0,
				n;
	const BloomMember **pa,
			  **pb,
			  **pieces;
	BloomMember *fixed_a,
			   *fixed_b,
			   *list,
			   *sealed;
	BloomSs    *out;

	pa = BloomSsSidePieces(a, &fixed_a, &na);
	pb = BloomSsSidePieces(b, &fixed_b, &nb);
	pieces = palloc((na + nb + 1) * sizeof(BloomMember *));
	n = BloomSsUnionPieces(pa, na, pb, nb, BloomSsTarget(proto), pieces, &list, &sealed);
	out = BloomSsBuild(proto, pieces, n);
	BloomSsUnionHeader(out, BfGet64(((const BfHeader *) a)->ninserts), b);
	if (sealed)
		pfree(sealed);
	if (list)
		pfree(list);
	if (fixed_a)
		pfree(fixed_a);
	if (fixed_b)
		pfree(fixed_b);
	pfree(pieces);
	pfree(pa);
	pfree(pb);
	return (struct varlena *) out;
}

/* ---------------------------------------------------------------------
 * The union aggregates' expanded state
 *
 * A union of self-sized filters is a new datum holding the members of
 * both, so an aggregate that copied its state into every new union did
 * work in the square of the inputs (and the executor copied each new state
 * once more): a month of day filters of 300k elements took 2.5 s in a new
 * session.  In a plain aggregate, a self-sized union state of
 * BF_EXPANDED_MIN_BYTES or more becomes an expanded object that keeps its
 * members apart, each in a chunk of its own, in the order of the value it
 * stands for; a union adds the input's new members (BloomSsUnionPieces
 * decides which, as for two datums) and frees the ones it drops, and the
 * value is laid out once, when the executor flattens the object.
 * ---------------------------------------------------------------------
 */
typedef struct BloomSsUnionState
{
	BfExpandedState es;			/* es.flat: the value laid out, NULL when stale */
	BloomSs    *head;			/* the value's header (BLOOM_SS_HDRSZ bytes) */
	const BloomMember **members;	/* the value's members, in its order */
	int			n;
	int			cap;
	Size		size;			/* bytes of the value */
} BloomSsUnionState;

/* build op of the expanded state: the value, laid out as BloomSsBuild does */
static struct varlena *
BloomSsUnionBuild(BfExpandedState *es)
{
	BloomSsUnionState *us = (BloomSsUnionState *) es;
	BloomSs    *ss = MemoryContextAlloc(es->hdr.eoh_context, us->size);
	char	   *p;
	int			i;

	memcpy(ss, us->head, BLOOM_SS_HDRSZ);
	SET_VARSIZE(ss, us->size);
	ss->nmembers = BfPut32((uint32) us->n);
	p = ss->members;
	for (i = 0; i < us->n; i++)
	{
		Size		len = BloomSsMemberSize(us->members[i]);

		memcpy(p, us->members[i], len);
		p += len;
	}
	return (struct varlena *) ss;
}

/* A copy of member mb in the state's context */
static const BloomMember *
BloomSsUnionOwn(BloomSsUnionState *us, const BloomMember *mb)
{
	Size		len = BloomSsMemberSize(mb);
	BloomMember *c = MemoryContextAlloc(us->es.hdr.eoh_context, len);

	memcpy(c, mb, len);
	return c;
}

/*
 * A read-write expanded union state holding self-sized value v (copied),
 * in a context of its own under the aggregate context; (Datum) 0 when the
 * call does not come from a plain aggregate (window aggregates keep plain
 * states)
 */
Datum
BloomSsUnionStateWrap(FunctionCallInfo fcinfo, const struct varlena *v)
{
	const BloomSs *ss = (const BloomSs *) v;
	BloomSsUnionState *us;
	MemoryContext cxt;
	const BloomMember *mb;
	int			j;

	us = (BloomSsUnionState *) BfExpandedStateNew(fcinfo, sizeof(BloomSsUnionState));
	if (us == NULL)
		return (Datum) 0;
	cxt = us->es.hdr.eoh_context;
	us->es.build = BloomSsUnionBuild;
	us->head = MemoryContextAlloc(cxt, BLOOM_SS_HDRSZ);
	memcpy(us->head, ss, BLOOM_SS_HDRSZ);
	us->n = (int) BfGet32(ss->nmembers);
	us->cap = Max(us->n, 8);
	us->members = MemoryContextAlloc(cxt, us->cap * sizeof(BloomMember *));
	for (j = 0, mb = BloomSsFirst(ss); j < us->n; j++, mb = BloomSsNext(mb))
		us->members[j] = BloomSsUnionOwn(us, mb);
	us->size = VARSIZE(v);
	return EOHPGetRWDatum(&us->es.hdr);
}

/*
 * The header of the expanded union state d points to (read-write): what
 * a union's check of parameters reads; NULL if d is not one
 */
const struct varlena *
BloomSsUnionStateHead(Datum d)
{
	BfExpandedState *es = BfExpandedStateOf(d, true);

	if (es == NULL || es->build != BloomSsUnionBuild)
		return NULL;
	return (const struct varlena *) ((BloomSsUnionState *) es)->head;
}

/* Order of member pointers by address, to look up the state's own */
static int
BloomSsPtrCmp(const void *a, const void *b)
{
	uintptr_t	x = (uintptr_t) * (const BloomMember *const *) a;
	uintptr_t	y = (uintptr_t) * (const BloomMember *const *) b;

	return x < y ? -1 : (x > y ? 1 : 0);
}

/*
 * Union filter b (checked, compatible) into the expanded union state d, in
 * place: the members BloomSsUnion(state, b) would have, the state's own
 * kept where they are, the new ones copied in, the dropped ones freed.
 */
void
BloomSsUnionStateAdd(Datum d, const struct varlena *b)
{
	BloomSsUnionState *us = (BloomSsUnionState *) DatumGetEOHP(d);
	const BloomMember **pb,
			  **pieces,
			  **old;
	BloomMember *fixed_b,
			   *list,
			   *sealed;
	bool	   *kept;
	int			nb,
				n,
				i;
	Size		size = BLOOM_SS_HDRSZ;

	pb = BloomSsSidePieces(b, &fixed_b, &nb);
	pieces = palloc((us->n + nb + 1) * sizeof(BloomMember *));
	n = BloomSsUnionPieces(us->members, us->n, pb, nb, BloomSsTarget(us->head),
						   pieces, &list, &sealed);
	for (i = 0; i < n; i++)
		size += BloomSsMemberSize(pieces[i]);
	BfCheckSize("bloom", (double) size);

	/* the state's members by address: which pieces are its own */
	old = palloc(Max(us->n, 1) * sizeof(BloomMember *));
	kept = palloc0(Max(us->n, 1) * sizeof(bool));
	memcpy(old, us->members, us->n * sizeof(BloomMember *));
	qsort(old, us->n, sizeof(BloomMember *), BloomSsPtrCmp);
	for (i = 0; i < n; i++)
	{
		const BloomMember **hit = bsearch(&pieces[i], old, us->n, sizeof(BloomMember *), BloomSsPtrCmp);

		if (hit != NULL)
			kept[hit - old] = true;
		else
			pieces[i] = BloomSsUnionOwn(us, pieces[i]);
	}
	for (i = 0; i < us->n; i++)
		if (!kept[i])
			pfree((void *) old[i]);
	if (n > us->cap)
	{
		us->cap = Max(n, us->cap * 2);
		us->members = repalloc(us->members, us->cap * sizeof(BloomMember *));
	}
	memcpy(us->members, pieces, n * sizeof(BloomMember *));
	us->n = n;
	us->size = size;
	us->head->nmembers = BfPut32((uint32) n);
	if (us->es.flat != NULL)
	{
		pfree(us->es.flat);		/* the image readers saw is stale */
		us->es.flat = NULL;
	}
	BloomSsUnionHeader(us->head, BfGet64(us->head->hdr.ninserts), b);
	if (sealed)
		pfree(sealed);
	if (list)
		pfree(list);
	if (fixed_b)
		pfree(fixed_b);
	pfree(kept);
	pfree(old);
	pfree(pieces);
	pfree(pb);
}

/*
 * The only member of a self-sized filter when it has exactly one and it is
 * a Bloom filter (what intersections and filter containment need), else NULL
 */
const BloomMember *
BloomSsSingleBits(const struct varlena *v)
{
	const BloomSs *ss = (const BloomSs *) v;

	if (BfGet32(ss->nmembers) != 1 ||
		BfGet32(BloomSsFirst(ss)->kind) != BLOOM_MEMBER_BITS)
		return NULL;
	return BloomSsFirst(ss);
}

/*
 * Whether hash h may be in an opened self-sized filter (whole, or read by
 * TOAST slices member by member).  Member headers are checked as they are
 * read, so that a damaged value raises an error, not a wild read.
 */
bool
BloomSsTestRef(BfFilterRef *ref, uint64 h)
{
	BloomSs		hdr;
	uint32		n,
				j;
	Size		off = BLOOM_SS_HDRSZ;

	memcpy(&hdr, BfRefHead(ref), BLOOM_SS_HDRSZ);
	n = BfGet32(hdr.nmembers);
	for (j = 0; j < n; j++)
	{
		BloomMember mh;
		uint64		m;
		uint32		k;
		Size		len;

		if (ref->total - off < BLOOM_MEMBER_HDRSZ)
			BfCorrupt("bloom", "Member %u of %u is cut short.", j + 1, n);
		BfRefReadBytes(ref, off, BLOOM_MEMBER_HDRSZ, &mh);
		m = BfGet64(mh.m);
		k = BfGet32(mh.k);
		if (BfGet32(mh.kind) == BLOOM_MEMBER_BITS ?
			(m < 1 || m > BLOOM_MAX_BITS || k < 1 || k > BLOOM_MAX_K) :
			BfGet32(mh.kind) == BLOOM_MEMBER_FINGERPRINTS ?
			(m < 1 || m > BLOOM_MAX_BITS || !FpHeaderOk(&mh)) :
			(BfGet32(mh.kind) != BLOOM_MEMBER_HASHES ||
			 BfGet64(mh.capacity) > (uint64) ((ref->total - off) / 8) ||
			 BfGet64(mh.count) > BfGet64(mh.capacity)))
			BfCorrupt("bloom", "Member %u has an invalid header.", j + 1);
		len = BloomSsPayloadSize(&mh);
		if (ref->total - off - BLOOM_MEMBER_HDRSZ < len)
			BfCorrupt("bloom", "Member %u is cut short.", j + 1);
		if (ref->full)
		{
			if (BloomSsMemberTest((const BloomMember *) ((const char *) ref->full + off), h))
				return true;
		}
		else if (BfGet32(mh.kind) == BLOOM_MEMBER_BITS)
		{
			BfPositions p;
			uint32		i;
			bool		all = true;

			BfPositionsInit(&p, h);
			for (i = 0; i < k && all; i++)
			{
				uint64		pos = BfPositionsNext(&p, m);
				uint8		byte;

				BfRefReadBytes(ref, off + BLOOM_MEMBER_HDRSZ + (pos >> 3), 1, &byte);
				all = (byte & (1 << (pos & 7))) != 0;
			}
			if (all)
				return true;
		}
		else if (BfGet32(mh.kind) == BLOOM_MEMBER_FINGERPRINTS)
		{
			if (FpProbeRef(ref, off + BLOOM_MEMBER_HDRSZ, &mh, h))
				return true;
		}
		else
		{
			/* a stored aggregate state: its list, 8192 hashes per slice */
			uint64		count = BfGet64(mh.count),
						i,
						chunk[8192];

			for (i = 0; i < count; i += lengthof(chunk))
			{
				uint64		n = Min(count - i, (uint64) lengthof(chunk)),
							t;

				BfRefReadBytes(ref, off + BLOOM_MEMBER_HDRSZ + i * 8, n * 8, chunk);
				for (t = 0; t < n; t++)
					if (BfGet64(chunk[t]) == h)
						return true;
			}
		}
		off += BLOOM_MEMBER_HDRSZ + len;
	}
	return false;
}

/*
 * Statistics of a self-sized filter: total bits, the k of its largest
 * member, bits set, the estimated number of distinct elements (the sum over
 * members) and false-positive rate (1 - the product of (1 - each member's))
 */
void
BloomSsStats(const struct varlena *v, uint64 *m, uint32 *k, uint64 *x,
			 double *cardinality, double *fpr)
{
	const BloomSs *ss = (const BloomSs *) v;
	const BloomMember *mb = BloomSsFirst(ss);
	uint32		n = BfGet32(ss->nmembers),
				j;
	uint64		biggest = 0;
	double		pass = 1.0;

	*m = 0;
	*k = 0;
	*x = 0;
	*cardinality = 0;
	for (j = 0; j < n; j++, mb = BloomSsNext(mb))
	{
		if (BfGet32(mb->kind) == BLOOM_MEMBER_BITS)
		{
			uint64		mm = BfGet64(mb->m);
			uint32		kk = BfGet32(mb->k);
			uint64		xx = 0;
			Size		len = BloomPayloadSize(mm),
						off;

			for (off = 0; off < len; off += 1 << 30)
				xx += pg_popcount((const char *) mb->payload + off, (int) Min(len - off, (Size) 1 << 30));
			*m += mm;
			*x += xx;
			if (mm > biggest)
			{
				biggest = mm;
				*k = kk;
			}
			*cardinality += BloomEstimateCardinality(mm, kk, xx);
			pass *= 1.0 - BloomEstimateFpr(mm, kk, xx);
		}
		else if (BfGet32(mb->kind) == BLOOM_MEMBER_FINGERPRINTS)
		{
			uint64		mm = BfGet64(mb->m);
			Size		len = BloomPayloadSize(mm),
						off;

			*m += mm;
			for (off = 0; off < len; off += 1 << 30)
				*x += pg_popcount((const char *) mb->payload + off, (int) Min(len - off, (Size) 1 << 30));
			*cardinality += (double) BfGet64(mb->count);
			pass *= 1.0 - FpRate(mb);
		}
		else
		{
			uint64		d = BloomSsDistinct(mb);

			*cardinality += (double) d;
			pass *= 1.0 - ldexp((double) d, -64);
		}
	}
	*fpr = 1.0 - pass;
}
