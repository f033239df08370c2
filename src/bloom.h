/*
 * bloom.h
 *		The bloom type's layout and the helpers other modules reuse
 *		(countingbloom casts to bloom with identical bit positions).
 */
#ifndef BLOOM_H
#define BLOOM_H

#include "bloomfilter.h"

typedef struct Bloom
{
	BfHeader	hdr;			/* common header, 24 bytes */
	uint64		m;				/* LE: number of bits */
	uint32		k;				/* LE: number of hash positions */
	uint32		reserved;		/* 0 */
	uint8		bits[FLEXIBLE_ARRAY_MEMBER];	/* ceil(m / 64) * 8 bytes */
} Bloom;

#define BLOOM_HDRSZ		offsetof(Bloom, bits)
#define BLOOM_MAX_K		64
/* the largest m whose datum stays within the varlena limit */
#define BLOOM_MAX_BITS	((uint64) ((BF_MAX_DATUM_SIZE - BLOOM_HDRSZ) / 8) * 64)

StaticAssertDecl(offsetof(Bloom, bits) == 40, "bloom header must be 40 bytes");

static inline uint64
BloomM(const Bloom *b)
{
	return BfGet64(b->m);
}

static inline uint32
BloomK(const Bloom *b)
{
	return BfGet32(b->k);
}

/*
 * Set the k positions of hash h in a bit array of m bits (bit i is bit
 * i % 8 of byte i / 8); true when at least one bit was clear
 */
static inline bool
BloomBitsSetHash(uint8 *bits, uint64 m, uint32 k, uint64 h)
{
	BfPositions p;
	uint32		i;
	uint8		changed = 0;

	BfPositionsInit(&p, h);
	for (i = 0; i < k; i++)
	{
		uint64		pos = BfPositionsNext(&p, m);
		uint8		bit = (uint8) (1 << (pos & 7));

		changed |= (uint8) (~bits[pos >> 3] & bit);
		bits[pos >> 3] |= bit;
	}
	return changed != 0;
}

/*
 * Whether all k positions of hash h are set in a bit array of m bits.  Four
 * positions are tested before each early exit: their loads (likely cache
 * misses in a big filter) then overlap instead of waiting on an
 * unpredictable branch one by one.
 */
static inline bool
BloomBitsTestHash(const uint8 *bits, uint64 m, uint32 k, uint64 h)
{
	BfPositions p;
	uint32		i;
	uint32		missing = 0;

	BfPositionsInit(&p, h);
	for (i = 0; i < k; i++)
	{
		uint64		pos = BfPositionsNext(&p, m);

		missing |= ~((uint32) bits[pos >> 3] >> (pos & 7)) & 1;
		if ((i & 3) == 3 && missing)
			return false;
	}
	return missing == 0;
}

/*
 * Self-sized filters (bloom_agg(x), bloom_empty()): header flag bit 0.  After
 * the common header: the target false-positive rate (float8 LE), the number
 * of members (uint32 LE), a reserved uint32 (0), then the members one after
 * the other, each a 32-byte BloomMember and its payload (doc/design.md,
 * "Self-sized bloom").
 */
#define BLOOM_FLAG_SELF_SIZED	0x01

typedef struct BloomSs
{
	BfHeader	hdr;			/* flags = BLOOM_FLAG_SELF_SIZED */
	uint64		fpr;			/* LE: bits of the float8 target rate */
	uint32		nmembers;		/* LE */
	uint32		reserved;		/* 0 */
	char		members[FLEXIBLE_ARRAY_MEMBER];
} BloomSs;

#define BLOOM_SS_HDRSZ	offsetof(BloomSs, members)
StaticAssertDecl(offsetof(BloomSs, members) == 40, "self-sized bloom header must be 40 bytes");

/* member kinds */
#define BLOOM_MEMBER_BITS	1	/* a Bloom filter of m bits and k positions */
#define BLOOM_MEMBER_HASHES 2	/* the open member of an aggregate: element hashes */
#define BLOOM_MEMBER_FINGERPRINTS 3	/* what bloom_add grows: levels of sorted fingerprints */

typedef struct BloomMember
{
	uint64		m;				/* LE: bits (BITS), 0 (HASHES), payload bits used (FINGERPRINTS) */
	uint32		k;				/* LE: positions (BITS), 0 (HASHES), precision excess c (FINGERPRINTS) */
	uint32		kind;			/* LE: BLOOM_MEMBER_* */
	uint64		count;			/* LE: elements that set a bit (BITS), hashes held (HASHES),
								 * fingerprints held (FINGERPRINTS) */
	uint64		capacity;		/* LE: elements it is sized for (BITS), hash slots (HASHES), 0
								 * (FINGERPRINTS) */
	uint8		payload[FLEXIBLE_ARRAY_MEMBER];
} BloomMember;

#define BLOOM_MEMBER_HDRSZ	offsetof(BloomMember, payload)
StaticAssertDecl(offsetof(BloomMember, payload) == 32, "bloom member header must be 32 bytes");

static inline bool
BloomIsSelfSized(const void *v)
{
	return (((const BfHeader *) v)->flags & BLOOM_FLAG_SELF_SIZED) != 0;
}

extern Size BloomPayloadSize(uint64 m);
extern Bloom *BloomNew(uint64 m, uint32 k, uint64 seed);
extern void BloomSizeFor(int64 capacity, double fpr, uint64 *m, uint32 *k);
extern void BloomCheck(const void *b_arg, Size size);
extern Bloom *BloomGetArg(FunctionCallInfo fcinfo, int argno);
extern void BloomCheckCompatible(const void *a_arg, const void *b_arg);
extern void BloomUnionInto(Bloom *a, const Bloom *b);
extern bool BloomTestHashFull(const Bloom *b, uint64 h);
extern uint64 BloomBitsSet(const Bloom *b);
extern double BloomEstimateCardinality(uint64 m, uint32 k, uint64 x);
extern double BloomEstimateFpr(uint64 m, uint32 k, uint64 x);
extern bool BloomOverfilled(uint64 m, uint32 k, uint64 x);
extern void BloomWarnOverfilled(const char *typname, const char *positions,
								const char *aggname, uint64 m, uint32 k, uint64 x);

/* self-sized filters (bloomselfsized.c) */
extern struct varlena *BloomSsNew(double fpr, uint64 seed);
extern void BloomSsCheck(const void *v, Size size);
extern void BloomSsValidate(const void *v);
extern struct varlena *BloomSsAdd(struct varlena *v, uint64 h);
extern struct varlena *BloomSsAddMany(struct varlena *v, const uint64 *hs, int64 nh);
extern struct varlena *BloomSsAggAddSlow(struct varlena *v, uint64 h, bool owned);
extern struct varlena *BloomSsSeal(const struct varlena *v);
extern struct varlena *BloomSsUnion(const struct varlena *a, const struct varlena *b);
extern Datum BloomSsUnionStateWrap(FunctionCallInfo fcinfo, const struct varlena *v);
extern const struct varlena *BloomSsUnionStateHead(Datum d);
extern void BloomSsUnionStateAdd(Datum d, const struct varlena *b);
extern bool BloomSsTestRef(BfFilterRef *ref, uint64 h);
extern const BloomMember *BloomSsSingleBits(const struct varlena *v);
extern void BloomSsStats(const struct varlena *v, uint64 *m, uint32 *k, uint64 *x,
						 double *cardinality, double *fpr);
extern double BloomSsTarget(const void *v);
extern int	BloomSsMembers(const void *v);

/*
 * Append hash h to the open hash list of self-sized filter v when it has
 * room (the per-row path of the aggregate); false when it has none
 */
static inline bool
BloomSsAggAppend(struct varlena *v, uint64 h)
{
	BloomSs    *ss = (BloomSs *) v;

	if (likely(BfGet32(ss->nmembers) == 1))
	{
		BloomMember *mb = (BloomMember *) ss->members;
		uint64		count = BfGet64(mb->count);

		if (BfGet32(mb->kind) == BLOOM_MEMBER_HASHES && count < BfGet64(mb->capacity))
		{
			uint64		le = BfPut64(h);

			memcpy(mb->payload + count * 8, &le, 8);
			mb->count = BfPut64(count + 1);
			ss->hdr.ninserts = BfPut64(BfAddSat64(BfGet64(ss->hdr.ninserts), 1));
			return true;
		}
	}
	return false;
}

/*
 * Aggregate transition of a self-sized filter: append hash h, making room
 * on the slow path (a new datum; v is left for the executor to free)
 */
static inline struct varlena *
BloomSsAggAdd(struct varlena *v, uint64 h)
{
	if (BloomSsAggAppend(v, h))
		return v;
	return BloomSsAggAddSlow(v, h, false);
}

/*
 * The same for a state v that the caller owns, in memory context cxt (an
 * expanded state's): room is made by resizing v there, and a datum that
 * replaces it frees it
 */
static inline struct varlena *
BloomSsAggAddOwned(struct varlena *v, uint64 h, MemoryContext cxt)
{
	MemoryContext old;

	if (BloomSsAggAppend(v, h))
		return v;
	old = MemoryContextSwitchTo(cxt);
	v = BloomSsAggAddSlow(v, h, true);
	MemoryContextSwitchTo(old);
	return v;
}

#endif							/* BLOOM_H */
