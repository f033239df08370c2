/*
 * bloomselfsized.c
 *		Self-sized bloom filters: what bloom_agg(x) and bloom_empty() build
 *		when no capacity is given.
 *
 * A self-sized filter is a chain of members (bloom.h, doc/design.md
 * "Self-sized bloom").  A member is either a Bloom filter (BITS) with the
 * same bit positions as a fixed bloom of its m and k, or, in an aggregate's
 * transition state, the list of element hashes seen so far (HASHES).  An
 * element may be in the filter when any member may hold it.
 *
 * The aggregate collects hashes, and its final function seals the list into
 * one member sized exactly for the distinct hashes it holds, so the result
 * is as small as a filter sized with the true count, whatever the count.
 * The list is bounded (BLOOM_SS_LIST_MAX hashes): past it, the list is
 * sealed and a new one started.  bloom_add on a self-sized filter instead
 * fills its last BITS member up to its capacity and then appends a member of
 * twice that capacity (Almeida et al., "Scalable Bloom Filters").
 *
 * Member j is sized for the false-positive rate target * w_j, with w_0 = 1/2
 * and w_j = 1/20 * (9/10)^(j-1) after it; the shares add up to 1, so the
 * filter's false-positive rate (at most the sum of its members') stays below
 * its target however long the chain grows.  (Of the schedules modelled, this
 * one keeps bloom_add's chains smallest; design.md, "Self-sized bloom".)
 */
#include "bloomfilter.h"

#include <math.h>

#include "port/pg_bitutils.h"

#include "bloom.h"

/* Largest open hash list before it is sealed: 16M hashes, 128 MB */
#define BLOOM_SS_LIST_MAX	(UINT64CONST(1) << 24)
/* First hash list of an aggregate state, and first member of bloom_add */
#define BLOOM_SS_LIST_MIN	8
#define BLOOM_SS_FIRST_CAPACITY	16
/*
 * Smallest target rate: a normal float8, which prints and reads back exactly,
 * and whose bits (above 2^60) are never a fixed filter's m
 */
#define BLOOM_SS_MIN_FPR	1e-300
/* Lists up to this many hashes are counted exactly (sorted), longer ones estimated */
#define BLOOM_SS_EXACT_MAX	(UINT64CONST(1) << 20)

/* uint64 sort for de-duplicating hash lists */
#define ST_SORT BloomSsSortHashes
#define ST_ELEMENT_TYPE uint64
#define ST_COMPARE(a, b) (*(a) < *(b) ? -1 : (*(a) > *(b) ? 1 : 0))
#define ST_SCOPE static
#define ST_DEFINE
#include "lib/sort_template.h"

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
	if (BfGet32(mb->kind) == BLOOM_MEMBER_BITS)
		return BloomPayloadSize(BfGet64(mb->m));
	return (Size) BfGet64(mb->capacity) * 8;
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

		if (BfGet32(mb->kind) == BLOOM_MEMBER_BITS)
		{
			uint64		m = BfGet64(mb->m);

			for (i = m; i < len * 8; i++)
				if (mb->payload[i >> 3] & (1 << (i & 7)))
					BfCorrupt("bloom", "Member %u has bits set beyond m = " UINT64_FORMAT ".", j + 1, m);
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
		/* the payload is whole words: use every bit of the last one */
		m = Min((m + 63) / 64 * 64, BLOOM_MAX_BITS);
		mb = palloc0(BLOOM_MEMBER_HDRSZ + BloomPayloadSize(m));
		mb->m = BfPut64(m);
		mb->k = BfPut32(k);
	}
	else
	{
		BfCheckSize("bloom", (double) BLOOM_SS_HDRSZ + BLOOM_MEMBER_HDRSZ + (double) capacity * 8.0);
		mb = palloc0(BLOOM_MEMBER_HDRSZ + (Size) capacity * 8);
	}
	mb->kind = BfPut32(kind);
	mb->capacity = BfPut64((uint64) capacity);
	return mb;
}

/*
 * Number of distinct hashes in a list: exact up to BLOOM_SS_EXACT_MAX
 * hashes (a sorted copy), so that a set sizes the same whatever its
 * duplicates; above, linear counting over a bitmap of at least 4 bits per
 * hash (Whang et al. 1990), whose relative error at that load is below 0.1%
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
	{
		uint64	   *h = palloc(count * 8);
		uint64		distinct = 1;

		for (i = 0; i < count; i++)
			h[i] = BloomSsHashAt(mb, i);
		BloomSsSortHashes(h, count);
		for (i = 1; i < count; i++)
			distinct += h[i] != h[i - 1];
		pfree(h);
		return distinct;
	}
	/*
	 * Above 2^20 hashes the exact count's sort costs too much; linear
	 * counting then uses a bitmap of a fixed 2^22 bits (512 kB, cache
	 * resident), so that the estimate depends on the set of hashes only, not
	 * on how many duplicates the list holds.  Its standard error is below 1%
	 * up to the 16M distinct hashes of a list and 3% at the 32M of two
	 * merged ones; the member is sized at half the target rate, so that
	 * error moves its rate by a few percent of the target.  Lists estimated
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
 * A BITS member holding the hashes of HASHES member mb, sized exactly for
 * their distinct number at the rate of position j in a chain of target rate
 * target; NULL when the list is empty
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

	if (n == 0)
		return NULL;
	bits = BloomSsNewMember(BLOOM_MEMBER_BITS, (int64) n, BloomSsMemberFpr(target, j));
	m = BfGet64(bits->m);
	k = BfGet32(bits->k);
	for (i = 0; i < count; i++)
	{
		/*
		 * The bits of a big member are cache misses: ask for the first line
		 * of a hash a few ahead while this one's are set
		 */
		if (i + 8 < count)
			BfPrefetchWrite(bits->payload + (BfMulHi64(BloomSsHashAt(mb, i + 8), m) >> 3));
		BloomBitsSetHash(bits->payload, m, k, BloomSsHashAt(mb, i));
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
 * new one.  Then append hash h.  Returns the (possibly new) datum.
 */
struct varlena *
BloomSsAggAddSlow(struct varlena *v, uint64 h)
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
			/* double the list: one copy of the datum, the new slots zeroed */
			Size		oldsize = VARSIZE(ss);
			uint64		more = Max(cap, BLOOM_SS_LIST_MIN);
			BloomSs    *grown;
			BloomMember *gl;

			BfCheckSize("bloom", (double) oldsize + (double) more * 8.0);
			grown = palloc_extended(oldsize + more * 8, MCXT_ALLOC_HUGE);
			memcpy(grown, ss, oldsize);
			memset((char *) grown + oldsize, 0, more * 8);
			SET_VARSIZE(grown, oldsize + more * 8);
			gl = (BloomMember *) ((char *) grown + ((const char *) last - (const char *) ss));
			gl->capacity = BfPut64(cap + more);
			pfree(pieces);
			return BloomSsAggAdd((struct varlena *) grown, h);
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
	return BloomSsAggAdd((struct varlena *) ss, h);
}

/* Whether hash h may be in a member held in memory */
static bool
BloomSsMemberTest(const BloomMember *mb, uint64 h)
{
	if (BfGet32(mb->kind) == BLOOM_MEMBER_BITS)
		return BloomBitsTestHash(mb->payload, BfGet64(mb->m), BfGet32(mb->k), h);
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

/*
 * bloom_add on a self-sized filter (a copy this call may modify): set the
 * element's bits in the last BITS member while it has room; an element some
 * member may hold already changes nothing; else a new member of twice the
 * last one's capacity.  A hash list (an aggregate state given to bloom_add)
 * takes the hash as the aggregate would.
 */
struct varlena *
BloomSsAdd(struct varlena *v, uint64 h)
{
	BloomSs    *ss = (BloomSs *) v;
	int			n,
				j;
	const BloomMember **pieces;
	BloomMember *last = BloomSsLast(ss);
	BloomMember *fresh;
	int64		capacity;

	if (last != NULL && BfGet32(last->kind) == BLOOM_MEMBER_HASHES)
		return BloomSsAggAdd(v, h);
	ss->hdr.ninserts = BfPut64(BfAddSat64(BfGet64(ss->hdr.ninserts), 1));
	if (last != NULL && BfGet64(last->count) < BfGet64(last->capacity))
	{
		if (BloomBitsSetHash(last->payload, BfGet64(last->m), BfGet32(last->k), h))
			last->count = BfPut64(BfGet64(last->count) + 1);
		return v;
	}
	pieces = BloomSsPieces(ss, 1, &n);
	for (j = 0; j < n; j++)
		if (BloomSsMemberTest(pieces[j], h))
		{
			pfree(pieces);
			return v;
		}
	capacity = BLOOM_SS_FIRST_CAPACITY;
	if (last != NULL)
		capacity = Max(capacity, (int64) Min(BfGet64(last->capacity), (uint64) PG_INT64_MAX / 4) * 2);
	fresh = BloomSsNewMember(BLOOM_MEMBER_BITS, capacity, BloomSsMemberFpr(BloomSsTarget(v), (uint32) n));
	BloomBitsSetHash(fresh->payload, BfGet64(fresh->m), BfGet32(fresh->k), h);
	fresh->count = BfPut64(1);
	pieces[n++] = fresh;
	ss = BloomSsBuild(ss, pieces, n);
	pfree(fresh);
	pfree(pieces);
	return (struct varlena *) ss;
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
 * The union of two filters of which at least one is self-sized (same seed,
 * checked by the caller): the members of both, equal members once, in a
 * canonical order, and both hash lists merged into one list, last, in a
 * canonical order (sealed at once when longer than BLOOM_SS_LIST_MAX), so
 * that a | b = b | a.  A fixed filter joins as one member.  The target rate
 * is the tighter of the two self-sized sides'.
 */
struct varlena *
BloomSsUnion(const struct varlena *a, const struct varlena *b)
{
	const BloomSs *sa = BloomIsSelfSized(a) ? (const BloomSs *) a : NULL;
	const BloomSs *sb = BloomIsSelfSized(b) ? (const BloomSs *) b : NULL;
	const BloomSs *proto = sa ? sa : sb;
	int			na = 0,
				nb = 0,
				n = 0,
				i,
				j;
	const BloomMember **pa,
			  **pb,
			  **pieces;
	const BloomMember *la = NULL,
			   *lb = NULL;
	BloomMember *fixed_a,
			   *fixed_b,
			   *list = NULL,
			   *sealed = NULL;
	BloomSs    *out;

	pa = BloomSsSidePieces(a, &fixed_a, &na);
	pb = BloomSsSidePieces(b, &fixed_b, &nb);
	pieces = palloc((na + nb + 1) * sizeof(BloomMember *));
	if (na > 0 && BfGet32(pa[na - 1]->kind) == BLOOM_MEMBER_HASHES)
		la = pa[--na];
	if (nb > 0 && BfGet32(pb[nb - 1]->kind) == BLOOM_MEMBER_HASHES)
		lb = pb[--nb];
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

		while (cap < ca + cb)
			cap *= 2;
		list = BloomSsNewMember(BLOOM_MEMBER_HASHES, (int64) cap, 0);
		if (ca)
			memcpy(list->payload, la->payload, ca * 8);
		if (cb)
			memcpy(list->payload + ca * 8, lb->payload, cb * 8);
		list->count = BfPut64(ca + cb);
		if (cap > BLOOM_SS_LIST_MAX)
		{
			BloomSsDedup(list);
			if (BfGet64(list->count) > BLOOM_SS_LIST_MAX)
			{
				sealed = BloomSsSealMember(list, (uint32) n, BloomSsTarget(proto));
				pieces[n++] = sealed;
			}
			else
				pieces[n++] = list;
		}
		else
			pieces[n++] = list;
	}
	out = BloomSsBuild(proto, pieces, n);
	if (sa && sb && BloomSsTarget(sb) < BloomSsTarget(sa))
		out->fpr = sb->fpr;		/* the tighter target of the two */
	out->hdr.ninserts = BfPut64(BfAddSat64(BfGet64(((const BfHeader *) a)->ninserts),
										   BfGet64(((const BfHeader *) b)->ninserts)));
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
		else
		{
			uint64		d = BloomSsDistinct(mb);

			*cardinality += (double) d;
			pass *= 1.0 - ldexp((double) d, -64);
		}
	}
	*fpr = 1.0 - pass;
}
