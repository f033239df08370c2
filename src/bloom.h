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

#endif							/* BLOOM_H */
