/*
 * bloomfilter.h
 *		Pieces shared by the four filter types and the pagebloom index:
 *		the common varlena header, limits, canonical element hashing,
 *		text/binary I/O helpers, parameter checks, the info-record builder,
 *		the detoast-once cache and the aggregate plumbing.  Each group of
 *		prototypes below names the file that implements it.
 *
 * Every multi-byte field of a stored filter is little-endian, so the bytes
 * of a datum are the same on every platform.  Read and write header fields
 * only through BfGet64/BfPut64 (and the 32-bit variants).
 */
#ifndef BLOOMFILTER_H
#define BLOOMFILTER_H

#include "postgres.h"

#include "compat.h"

#include "fmgr.h"
#include "lib/stringinfo.h"
#include "nodes/nodes.h"
#include "port/pg_bswap.h"
#include "utils/expandeddatum.h"
#include "utils/memutils.h"

/*
 * XXH3 from Debian's libxxhash-dev, inlined: the per-row paths hash fixed
 * 8-byte keys with no call and no length dispatch.
 */
#define XXH_INLINE_ALL
#include <xxhash.h>

#if XXH_VERSION_NUMBER < 800
#error "xxHash 0.8 or later is required (XXH3 output is frozen from 0.8.0)"
#endif

/* Storage format version written into every datum */
#define BF_FORMAT_VERSION	2

/* Hash algorithm ids (stored in the header) */
#define BF_HASH_XXH3_64		1

/* Filter kinds (stored in the header, so a datum says what it is) */
typedef enum BfKind
{
	BF_KIND_BLOOM = 1,
	BF_KIND_COUNTINGBLOOM = 2,
	BF_KIND_QUOTIENTFILTER = 3,
	BF_KIND_CUCKOOFILTER = 4
} BfKind;

/*
 * The common header, 24 bytes including the varlena length word.  Each type
 * appends its own parameters and then its payload; types keep their payload
 * offset a multiple of 8 so word-wise loops are aligned (the SQL types are
 * declared with ALIGNMENT = double).
 */
typedef struct BfHeader
{
	int32		vl_len_;		/* varlena header (do not touch directly) */
	uint8		version;		/* BF_FORMAT_VERSION */
	uint8		kind;			/* BfKind */
	uint8		hashalg;		/* BF_HASH_XXH3_64 */
	uint8		flags;			/* type-specific, 0 unless documented */
	uint64		seed;			/* little-endian: hash seed */
	uint64		ninserts;		/* little-endian: insert counter */
} BfHeader;

#define BF_HEADER_SIZE	sizeof(BfHeader)

/*
 * Largest datum we build: one whose text form (base64, 4/3 of the size, plus
 * a short header) still fits the 1 GB limit of a string, so that every value
 * can be written by COPY and pg_dump and read back: about 768 MB.
 */
#define BF_MAX_DATUM_SIZE	((Size) ((MaxAllocSize - 1024) / 4) * 3)

/* Little-endian field access */
static inline uint64
BfGet64(uint64 v)
{
#ifdef WORDS_BIGENDIAN
	return pg_bswap64(v);
#else
	return v;
#endif
}
#define BfPut64(v) BfGet64(v)

static inline uint32
BfGet32(uint32 v)
{
#ifdef WORDS_BIGENDIAN
	return pg_bswap32(v);
#else
	return v;
#endif
}
#define BfPut32(v) BfGet32(v)

/* High 64 bits of a 64x64 multiplication: Lemire's fast range reduction */
static inline uint64
BfMulHi64(uint64 a, uint64 b)
{
#ifdef HAVE_INT128
	return (uint64) (((uint128) a * (uint128) b) >> 64);
#else
	uint64		a_lo = (uint32) a,
				a_hi = a >> 32,
				b_lo = (uint32) b,
				b_hi = b >> 32;
	uint64		lo_lo = a_lo * b_lo,
				hi_lo = a_hi * b_lo,
				lo_hi = a_lo * b_hi,
				hi_hi = a_hi * b_hi;
	uint64		cross = (lo_lo >> 32) + (uint32) hi_lo + lo_hi;

	return (hi_lo >> 32) + (cross >> 32) + hi_hi;
#endif
}

/* Ask for the cache line of a later write (no-op where the compiler has no builtin) */
#if defined(__GNUC__) || defined(__clang__)
#define BfPrefetchWrite(p)	__builtin_prefetch((p), 1)
#else
#define BfPrefetchWrite(p)	((void) (p))
#endif

/* Saturating addition of insert counters (inline: called once per row) */
static inline uint64
BfAddSat64(uint64 a, uint64 b)
{
	return (a + b < a) ? PG_UINT64_MAX : a + b;
}

/* Murmur3 fmix64 finalizer: the second hash of double hashing */
static inline uint64
BfMix64(uint64 h)
{
	h ^= h >> 33;
	h *= UINT64CONST(0xff51afd7ed558ccd);
	h ^= h >> 33;
	h *= UINT64CONST(0xc4ceb9fe1a85ec53);
	h ^= h >> 33;
	return h;
}

/*
 * Enhanced double hashing (Kirsch-Mitzenmacher; Dillinger-Manolios) in Z_m:
 * with h1 = h and h2 = BfMix64(h), both reduced to [0, m) by fast range
 * reduction, position i is x_i where x_0 = h1 mod' m, y_0 = h2 mod' m, and
 * x_{i+1} = (x_i + y_i) mod m, y_{i+1} = (y_i + i + 1) mod m.  Usage:
 *
 *		BfPositions p;
 *		BfPositionsInit(&p, h);
 *		for (i = 0; i < k; i++) pos = BfPositionsNext(&p, m);
 *
 * The first call of BfPositionsNext fixes m; later calls must pass the same.
 */
typedef struct BfPositions
{
	uint64		h;				/* the element's hash */
	uint64		x;				/* next position */
	uint64		y;				/* current step */
	uint64		i;				/* positions returned so far */
} BfPositions;

static inline void
BfPositionsInit(BfPositions *p, uint64 h)
{
	p->h = h;
	p->i = 0;
}

static inline uint64
BfPositionsNext(BfPositions *p, uint64 nslots)
{
	uint64		pos;

	if (p->i == 0)
	{
		p->x = BfMulHi64(p->h, nslots);
		p->y = BfMulHi64(BfMix64(p->h), nslots);
	}
	pos = p->x;
	p->i++;
	/* x, y < nslots <= 2^63, so the sums cannot overflow */
	p->x += p->y;
	if (p->x >= nslots)
		p->x -= nslots;
	p->y += p->i;
	if (p->y >= nslots)
		p->y %= nslots;
	return pos;
}

/*
 * The k positions of hash h among m into pos, asking for the cache line
 * each will be written in: byte pos >> shift of base (a bit array: 3;
 * 4-bit counters: 1)
 */
static inline void
BfPositionsPrefetched(uint64 h, uint64 m, uint32 k, const uint8 *base, int shift, uint64 *pos)
{
	BfPositions p;
	uint32		i;

	BfPositionsInit(&p, h);
	for (i = 0; i < k; i++)
	{
		pos[i] = BfPositionsNext(&p, m);
		BfPrefetchWrite(base + (pos[i] >> shift));
	}
}

/*
 * Canonical element hashing (hash.c; doc/design.md, "Hashing").  A BfHasher
 * is set up once per element type and call site, then hashes datums of that
 * type.
 */
typedef enum BfCanon
{
	BF_CANON_INT2,
	BF_CANON_INT4,
	BF_CANON_INT8,
	BF_CANON_TEXT,				/* text, varchar: bytes */
	BF_CANON_NAME,
	BF_CANON_BPCHAR,			/* bytes without trailing spaces */
	BF_CANON_BYTEA,
	BF_CANON_BOOL,
	BF_CANON_FLOAT4,
	BF_CANON_FLOAT8,
	BF_CANON_NUMERIC,
	BF_CANON_UUID,
	BF_CANON_DATE,				/* int32 -> int64 */
	BF_CANON_INT64TIME,			/* timestamp, timestamptz, time */
	BF_CANON_INTERVAL,			/* 128-bit span, as interval equality */
	BF_CANON_CHAR,				/* "char": one byte */
	BF_CANON_OID,				/* oid: as int64 */
	BF_CANON_RECORD,			/* composite: column by column */
	BF_CANON_ARRAY,				/* array: shape and elements */
	BF_CANON_RANGE,				/* range: flags and bounds */
	BF_CANON_MULTIRANGE,		/* multirange: its ranges */
	BF_CANON_JSONB,				/* jsonb: its tokens, numbers canonical */
	BF_CANON_CITEXT,			/* citext: the lower-cased bytes */
	BF_CANON_SEND				/* anything else: binary send output */
} BfCanon;

typedef struct BfHasher
{
	Oid			typid;			/* type as given (may be a domain) */
	Oid			basetypid;		/* after looking through domains */
	BfCanon		canon;
	int16		typlen;
	bool		typbyval;
	FmgrInfo	sendfn;			/* BF_CANON_SEND only */
	MemoryContext mcxt;			/* where sub-hashers and the scratch buffer live */
	StringInfoData scratch;		/* composite values: serialization buffer */
	/* BF_CANON_RECORD: column hashers of the last row type seen */
	Oid			rectypid;
	int32		rectypmod;
	int			ncols;
	struct BfHasher **cols;
	/* BF_CANON_ARRAY: the element type and its hasher */
	Oid			elemtypid;
	int16		elemlen;
	bool		elembyval;
	char		elemalign;
	struct BfHasher *elem;		/* also: a range's bound, a multirange's range */
	/* BF_CANON_RANGE, BF_CANON_MULTIRANGE: the type cache entry (lives forever) */
	struct TypeCacheEntry *typcache;
} BfHasher;

extern void BfHasherInit(BfHasher *h, Oid typid, Oid collation, MemoryContext mcxt);
extern uint64 BfHashBytes(const void *data, Size len, uint64 seed);
extern uint64 BfHashDatum(BfHasher *h, Datum value, uint64 seed);

/* Hash a signed 64-bit integer as its 8 little-endian bytes */
static inline uint64
BfHashInt64(int64 v, uint64 seed)
{
	uint64		le = BfPut64((uint64) v);

	/* XXH3 inlined with a constant length: no call, no length dispatch */
	return (uint64) XXH3_64bits_withSeed(&le, sizeof(le), (XXH64_hash_t) seed);
}

/*
 * BfHashDatum for the per-row paths of aggregates and probes: integer keys
 * (the common case) are hashed inline, everything else by BfHashDatum.
 */
static inline uint64
BfHashDatumFast(BfHasher *h, Datum value, uint64 seed)
{
	if (likely(h->canon == BF_CANON_INT8))
		return BfHashInt64(DatumGetInt64(value), seed);
	if (h->canon == BF_CANON_INT4)
		return BfHashInt64((int64) DatumGetInt32(value), seed);
	return BfHashDatum(h, value, seed);
}

/*
 * One filter value held by a call site's cache: a detoasted copy (once the
 * value has been probed often enough to be worth one) and the type's probe
 * view of it (BfProbeView).
 */
typedef struct BfCacheSlot
{
	bool		valid;
	Oid			relid;			/* out of line: the TOAST pointer's identity */
	Oid			valueid;
	int			uses;			/* probes seen for this value */
	uint64		last_use;		/* the cache's clock at its last probe */
	struct varlena *copy;		/* detoasted copy in fn_mcxt, or NULL */
	int64		view_uses;		/* probes of copy so far */
	void	   *view;			/* in fn_mcxt, or NULL until built */
} BfCacheSlot;

/* Out-of-line values a call site keeps at once (within the memory budget) */
#define BF_CACHE_SLOTS	8

/*
 * Per-call-site cache kept in fn_extra (bfcache.c): the element hasher, and
 * the filters of the call site's recent probes, so that a filter that stays
 * the same for a query, or one of a few that a join alternates between, is
 * detoasted once.
 */
typedef struct BfFnCache
{
	/* element hashing */
	bool		hasher_valid;
	Oid			hasher_typid;
	Oid			hasher_collation;
	BfHasher	hasher;

	/* out-of-line values, keyed by their TOAST pointer's identity; LRU */
	BfCacheSlot slots[BF_CACHE_SLOTS];
	uint64		clock;
	/* the last inline-compressed value: its compressed bytes and its copy */
	struct varlena *inline_raw;
	BfCacheSlot inline_slot;
} BfFnCache;

extern BfFnCache *BfGetFnCache(FunctionCallInfo fcinfo);
extern BfHasher *BfGetHasherSlow(FunctionCallInfo fcinfo, int argno);
extern BfHasher *BfGetArrayElemHasher(FunctionCallInfo fcinfo, int argno);

/*
 * Hasher for the anyelement argument argno.  The argument type of a call
 * site never changes, so after the first call this is one pointer test
 * (inline: it runs once per row).
 */
static inline BfHasher *
BfGetHasher(FunctionCallInfo fcinfo, int argno)
{
	BfFnCache  *c = (BfFnCache *) fcinfo->flinfo->fn_extra;

	if (likely(c != NULL && c->hasher_valid))
		return &c->hasher;
	return BfGetHasherSlow(fcinfo, argno);
}

/*
 * A filter argument opened for probing (bfcache.c).  Either the whole datum
 * is in memory (full != NULL), or it is a large uncompressed out-of-line
 * value of which only the header was fetched, and BfRefReadBytes fetches the
 * bytes a probe needs through TOAST slices.
 */
typedef struct BfFilterRef
{
	struct varlena *full;		/* the whole datum, detoasted */
	struct varlena *toasted;	/* the TOAST pointer, in slice mode */
	Size		total;			/* VARSIZE of the whole datum */
	char		head[64];		/* first bytes of the datum in slice mode */
} BfFilterRef;

#define BF_SLICE_THRESHOLD	(256 * 1024)

extern void BfOpenFilter(FunctionCallInfo fcinfo, int argno, Size headsize,
						 BfFilterRef *ref);
extern void BfRefReadBytes(BfFilterRef *ref, Size offset, Size len, void *dst);

/*
 * A probe view (bfcache.c): a structure a type derives from a filter that
 * one call site probes again and again (a parameter, a scalar subquery),
 * built once and then probed instead of the filter, giving exactly the same
 * answers faster (countingbloom: its bits, a quarter of the counters' size).
 */
typedef void *(*BfViewBuilder) (const struct varlena *v);
extern void *BfProbeView(FunctionCallInfo fcinfo, const BfFilterRef *ref,
						 BfViewBuilder build);
static inline const char *
BfRefHead(BfFilterRef *ref)
{
	return ref->full ? (const char *) ref->full : ref->head;
}

/*
 * Header and validation helpers (bloomfilter.c).  Validation failures raise
 * 22P02 with the type name and a detail saying what is wrong.
 */
extern void BfInitHeader(BfHeader *h, Size size, BfKind kind, uint64 seed);
extern void BfValidateHeader(const char *typname, const struct varlena *v,
							 BfKind kind, Size fixedsize);
pg_noreturn extern void BfCorrupt(const char *typname, const char *detailfmt,...) pg_attribute_printf(2, 3);
extern void BfCheckInputSize(const char *typname, const char *what, double bytes);
extern void BfCheckSize(const char *typname, double bytes);
extern void BfCheckSizeHint(const char *typname, double bytes, const char *detail,
							const char *hint);
extern void BfCheckSeedsMatch(const char *typname, const BfHeader *a, const BfHeader *b,
							  const char *aparams, const char *bparams);
pg_noreturn extern void BfParamMismatch(const char *typname, const char *aparams,
										const char *bparams);
extern void BfCheckCapacityFpr(int64 capacity, double fpr);
extern void *BfCopyDatum(const struct varlena *v);

/*
 * Text I/O (bfio.c).  The text form is
 *
 *		<typname> v<version> hash=xxh3 seed=<int64> inserts=<uint64> key=value ... data=<base64>
 *
 * BfTextBegin writes the common part; BfTextPayload appends "data=base64".
 * BfTextParse splits the text and checks the common part; the type then
 * asks for its own keys with BfTextGet*.  Unknown or missing keys, bad
 * numbers and bad base64 raise 22P02.
 */
#define BF_TEXT_MAX_FIELDS 16
#define BF_TEXT_SPACE " \t\n\r"
#define BF_TEXT_PAYLOAD "data"
typedef struct BfTextFields
{
	const char *typname;
	int			nfields;
	const char *keys[BF_TEXT_MAX_FIELDS];
	char	   *values[BF_TEXT_MAX_FIELDS]; /* NULL for the payload */
	bool		used[BF_TEXT_MAX_FIELDS];
	const char *payload;		/* the payload's base64, in the input string */
	Size		payloadlen;
	uint64		seed;
	uint64		ninserts;
} BfTextFields;

extern void BfTextBegin(StringInfo buf, const char *typname, const BfHeader *h);
extern void BfTextPayload(StringInfo buf, const void *data, Size len);
extern void BfTextParse(const char *typname, const char *str, BfTextFields *f);
extern bool BfTextHas(BfTextFields *f, const char *key);
extern uint64 BfTextGetUInt64(BfTextFields *f, const char *key, uint64 min, uint64 max);
extern double BfTextGetFloat8(BfTextFields *f, const char *key, double min, double max);
extern void BfTextCheckPayload(BfTextFields *f, Size len);
extern void BfTextGetPayload(BfTextFields *f, char *dst, Size len);
extern void BfTextFinish(BfTextFields *f);

/* Binary I/O (bfio.c): the datum's bytes after the length word, as they are */
extern bytea *BfSend(const struct varlena *v);
extern struct varlena *BfRecv(StringInfo buf);

/*
 * info records (bloomfilter.c): fills a tuple of the function's declared OUT
 * columns
 */
extern Datum BfInfoTuple(FunctionCallInfo fcinfo, Datum *values, bool *nulls, int natts);

/*
 * Aggregate plumbing (bfagg.c).  The transition state is the filter itself,
 * kept in the aggregate context and updated in place.  Outside an aggregate,
 * the helpers copy, so no input datum is ever modified.
 */
/*
 * Whether the call comes from an aggregate or window aggregate node (what
 * AggCheckCallContext tests, without a function call per row)
 */
static inline bool
BfInAggregate(FunctionCallInfo fcinfo)
{
	return fcinfo->context != NULL &&
		(IsA(fcinfo->context, AggState) || IsA(fcinfo->context, WindowAggState));
}

/*
 * An aggregate state held as an expanded object (utils/expandeddatum.h) in
 * its own memory context under the aggregate context: the executor keeps a
 * read-write expanded state where it is, so a state that grows is resized
 * in place (repalloc) instead of being copied by the function and again by
 * the executor.  flat is the state as a plain varlena, in hdr.eoh_context;
 * flattening copies it.  Only in a plain aggregate (not a window
 * aggregate).  A read-only pointer to it reaches the final function, and on
 * PostgreSQL 16 and later can leave the Agg node (a user's aggregate without
 * a final function, the parallel leader's own partial state): functions
 * that read a filter argument use BfDetoastForRead, which reads it in place.
 * A state kept in parts (a type's larger struct that starts with this one:
 * bloom's union state) sets build, which lays the parts out as flat when
 * flat is NULL (BfExpandedFlat; the type sets it to NULL when the parts
 * change), so that readers read one image per version, not a copy each.
 */
/* Smallest state worth its own memory context (about 1 kB of overhead) */
#define BF_EXPANDED_MIN_BYTES	(64 * 1024)

typedef struct BfExpandedState
{
	ExpandedObjectHeader hdr;
	struct varlena *flat;		/* in hdr.eoh_context; NULL: build it */
	struct varlena *(*build) (struct BfExpandedState *es);	/* NULL: flat is the state */
} BfExpandedState;

extern BfExpandedState *BfExpandedStateWrap(FunctionCallInfo fcinfo, const struct varlena *v);
extern BfExpandedState *BfExpandedStateNew(FunctionCallInfo fcinfo, Size size);
extern BfExpandedState *BfExpandedStateOf(Datum d, bool rw);
extern struct varlena *BfExpandedFlat(BfExpandedState *es);
extern struct varlena *BfDetoastForRead(Datum d);
extern struct varlena *BfStateForUpdate(FunctionCallInfo fcinfo, int argno);
extern struct varlena *BfStateCopyIn(FunctionCallInfo fcinfo, int argno);
extern bool BfAggParams(FunctionCallInfo fcinfo, int capacity_arg, int fpr_arg,
						int64 *capacity, double *fpr);

/*
 * Per-type operations.  Each filter type describes itself with one constant
 * BfTypeOps; the generic SQL entry points below (Bf*Generic, bfgeneric.c;
 * the aggregate ones, bfagg.c) then hold the plumbing every type shares
 * (NULL handling, detoasting, checks, copying, aggregate states), and each
 * type's SQL function is a one-line wrapper.
 *
 * A datum's payload is everything after its headsize fixed bytes: that is
 * what the text form's "data=" field holds.  Ops that update a filter get
 * a value this call may modify (a private copy, or the aggregate's own
 * state); they may return it or a new datum built in CurrentMemoryContext
 * (a grown quotient filter, a chained cuckoo filter).  The read-only ops
 * take const void *, so that a type's own check, validate, compatibility
 * and equality functions serve directly.
 */
typedef struct varlena *(*BfMergeFn) (struct varlena *state, const struct varlena *other);

typedef struct BfTypeOps
{
	const char *name;			/* SQL type name, for messages */
	BfKind		kind;
	Size		headsize;		/* fixed header bytes before the payload */
	/* cheap structural check of a datum of size bytes (22P02) */
	void		(*check) (const void *v, Size size);
	/* full check of a value from outside: text input, recv (22P02) */
	void		(*validate) (const void *v);
	/* an empty filter for capacity elements at fpr (22023, 54000) */
	struct varlena *(*new_sized) (int64 capacity, double fpr, uint64 seed);
	/*
	 * the first state of an element aggregate given no capacity (left out,
	 * or NULL), at the aggregate's fpr or the default (NULL: new_sized with
	 * BF_DEFAULT_CAPACITY)
	 */
	struct varlena *(*new_unsized) (double fpr, uint64 seed);
	/*
	 * Optional, for types whose merge of partial aggregate states cannot
	 * restore the precision each one was built with (quotient filter
	 * fingerprints): new_partial makes the first state of a partial
	 * aggregate (parallel workers, the leader's share; NULL: new_sized), and
	 * final_partial is the final function's last step in a Finalize
	 * Aggregate, on the combined state (a copy it may replace), given the
	 * aggregate's capacity and fpr and whether they are its own (known) or
	 * defaults standing in for per-group values: it returns what a serial
	 * aggregate of those rows would have where it can
	 */
	struct varlena *(*new_partial) (int64 capacity, double fpr, uint64 seed);
	struct varlena *(*final_partial) (struct varlena *v, int64 capacity, double fpr, bool known);
	/*
	 * Text input: read the type's keys into the type's part of hdr (headsize
	 * zeroed bytes), check them and return the payload length, before
	 * anything of that size is allocated.  text_done, if set, checks the
	 * filled datum against what text_read left in *extra.
	 */
	Size		(*text_read) (BfTextFields *f, char *hdr, void **extra);
	void		(*text_done) (const struct varlena *v, void *extra);
	/* text output: append " key=value ..." of the type's parameters */
	void		(*text_write) (StringInfo buf, const struct varlena *v);
	/* add one non-null element (the _add functions) */
	struct varlena *(*add) (struct varlena *v, BfHasher *h, Datum value);
	/* add one non-null element in an aggregate (may grow where add may not) */
	struct varlena *(*agg_add) (struct varlena *v, BfHasher *h, Datum value);
	/* remove one copy of a non-null element, in place (NULL: no removal) */
	void		(*remove) (struct varlena *v, BfHasher *h, Datum value);
	/* 22023 unless a and b can be combined, naming both sides' parameters */
	void		(*check_compatible) (const void *a, const void *b);
	/* union of compatible filters: the | operator and the union aggregates */
	BfMergeFn	merge;
	/*
	 * Optional, for a union that can grow the state (cuckoo filter chains):
	 * merge into a state the caller owns alone, in the current memory
	 * context, which it may resize in place (repalloc).  A union
	 * aggregate's state of BF_EXPANDED_MIN_BYTES or more is then kept as an
	 * expanded object and grows without being copied (BfMergeTransGeneric).
	 */
	BfMergeFn	merge_owned;
	/*
	 * Total order of any two values (whatever their parameters), 0 exactly
	 * when they are equal (=): the btree operator class.  An arbitrary order
	 * for sorting and grouping, not containment.
	 */
	int			(*compare) (const void *a, const void *b);
	/* hash of what compare looks at (the hash operator class) */
	uint64		(*hash) (const void *v, uint64 seed);


	/*
	 * Deferred adds in a large aggregate state (optional; see BfAhead): a
	 * row waits as ahead_words(v) 64-bit words (bloom: its k bit positions;
	 * cuckoo: its hash; 0: no ring for this filter); ahead_prepare fills them for hash h and asks for
	 * the cache lines the add will touch; ahead_add adds the row as agg_add
	 * does (a filter that grows comes back as a new allocation, v left as
	 * it was); agg_final and agg_combine are the element aggregate's final
	 * and combine functions, which add what is pending.
	 */
	uint32		(*ahead_words) (const struct varlena *v);
	void		(*ahead_prepare) (const struct varlena *v, uint64 h, uint64 *row);
	struct varlena *(*ahead_add) (struct varlena *v, const uint64 *row);
	PGFunction	agg_final;
	PGFunction	agg_combine;
} BfTypeOps;

/* comparisons of two filters (BfCompareGeneric) */
typedef enum BfCmpMode
{
	BF_CMP,						/* btree support: -1, 0, 1 */
	BF_CMP_EQ,
	BF_CMP_NE,
	BF_CMP_LT,
	BF_CMP_LE,
	BF_CMP_GT,
	BF_CMP_GE
} BfCmpMode;

extern int	BfCompareKeyed(const void *pa, const void *pb, Size plen,
						   const void *a, Size alen, const void *b, Size blen);
extern uint64 BfHashKeyed(const void *p, Size plen, const void *payload, Size len, uint64 seed);
extern int	BfCompareAfterHeader(const void *a, const void *b);
extern uint64 BfHashAfterHeader(const void *v, uint64 seed);

extern struct varlena *BfGetFilterArg(FunctionCallInfo fcinfo, int argno, const BfTypeOps *ops);
extern Datum BfInGeneric(FunctionCallInfo fcinfo, const BfTypeOps *ops);
extern Datum BfOutGeneric(FunctionCallInfo fcinfo, const BfTypeOps *ops);
extern Datum BfRecvGeneric(FunctionCallInfo fcinfo, const BfTypeOps *ops);
extern Datum BfSendGeneric(FunctionCallInfo fcinfo, const BfTypeOps *ops);
extern Datum BfEmptyGeneric(FunctionCallInfo fcinfo, const BfTypeOps *ops);
extern Datum BfAddGeneric(FunctionCallInfo fcinfo, const BfTypeOps *ops);
extern Datum BfAddArrayGeneric(FunctionCallInfo fcinfo, const BfTypeOps *ops);
extern Datum BfRemoveGeneric(FunctionCallInfo fcinfo, const BfTypeOps *ops);
extern Datum BfRemoveArrayGeneric(FunctionCallInfo fcinfo, const BfTypeOps *ops);
extern Datum BfCombineGeneric(FunctionCallInfo fcinfo, const BfTypeOps *ops,
							  BfMergeFn merge, bool copy_left);
extern Datum BfCompareGeneric(FunctionCallInfo fcinfo, const BfTypeOps *ops, BfCmpMode mode);
extern Datum BfHashGeneric(FunctionCallInfo fcinfo, const BfTypeOps *ops, bool extended);

/* aggregate entry points over a type's ops (bfagg.c) */
extern struct varlena *BfAggNewState(FunctionCallInfo fcinfo, const BfTypeOps *ops, bool final);
extern Datum BfAggFinalGeneric(FunctionCallInfo fcinfo, const BfTypeOps *ops);
extern Datum BfMergeTransGeneric(FunctionCallInfo fcinfo, const BfTypeOps *ops, BfMergeFn merge);

/*
 * Deferred adds (bfagg.c).  An element aggregate's state of at least
 * BF_AHEAD_MIN_BYTES keeps its last BF_AHEAD_ROWS rows pending in a ring
 * behind the filter, in the same varlena, its header flagged BF_FLAG_AHEAD:
 * each row is prepared (its positions computed, their cache lines asked
 * for) and the row BF_AHEAD_ROWS before is added, in the rows' order, so
 * that the rows' cache misses overlap instead of following each other.  A
 * pending row is ahead_words 64-bit words: positions are stored rather than
 * computed again from the hash, which measured twice as fast for counting
 * filters.  Only a state that one of our aggregates creates in
 * AGG_CONTEXT_AGGREGATE has a ring.  Its final function returns a copy with
 * the pending rows added (the state stays as it is: the final function is
 * read-only), and the combine function adds them, so no value with a ring
 * leaves the aggregate; every other function refuses one (the flag is
 * unknown to the types).
 */
#define BF_AHEAD_ROWS		16
#define BF_AHEAD_MIN_BYTES	((Size) 1024 * 1024)
#define BF_AHEAD_MAGIC		0x48414642	/* "BFAH" */
#define BF_FLAG_AHEAD		0x80		/* BfHeader.flags: a ring follows */

typedef struct BfAhead
{
	uint32		magic;			/* BF_AHEAD_MAGIC */
	uint32		n;				/* rows pending */
	uint32		next;			/* ring slot of the next row */
	uint32		words;			/* 64-bit words per row */
	uint64		plain;			/* the state's size without the ring */
	uint64		size;			/* the ring's size, this header included */
	uint64		rows[FLEXIBLE_ARRAY_MEMBER];	/* BF_AHEAD_ROWS * words */
} BfAhead;

extern uint32 BfAheadWordsHash(const struct varlena *v);
extern struct varlena *BfAheadAttach(FunctionCallInfo fcinfo, struct varlena *v,
									 const BfTypeOps *ops);
extern struct varlena *BfAheadMoved(struct varlena *r, const BfAhead *ah);
extern struct varlena *BfAheadPlainCopy(const struct varlena *v, const BfTypeOps *ops);

/*
 * The ring of pending rows of state v, or NULL (none); its size is the last
 * word of the varlena
 */
static inline BfAhead *
BfAheadOf(const struct varlena *v)
{
	uint64		size;

	if (likely((((const BfHeader *) v)->flags & BF_FLAG_AHEAD) == 0))
		return NULL;
	memcpy(&size, (const char *) v + VARSIZE(v) - sizeof(uint64), sizeof(uint64));
	return (BfAhead *) ((char *) v + VARSIZE(v) - size);
}

/*
 * Add pending row row to state v, whose ring is ah, now: the filter without
 * its ring (size and flag) for the type's add, then the ring back, on a new
 * allocation if the filter grew.  Returns the state.
 */
static inline struct varlena *
BfAheadApply(struct varlena *v, BfAhead *ah, const BfTypeOps *ops, const uint64 *row)
{
	Size		total = VARSIZE(v);
	struct varlena *r;

	SET_VARSIZE(v, ah->plain);
	((BfHeader *) v)->flags &= ~BF_FLAG_AHEAD;
	r = ops->ahead_add(v, row);
	if (likely(r == v))
	{
		Assert(VARSIZE(v) == ah->plain);
		SET_VARSIZE(v, total);
		((BfHeader *) v)->flags |= BF_FLAG_AHEAD;
		return v;
	}
	return BfAheadMoved(r, ah);
}

/*
 * Add the row of hash h to state v through its ring ah: add the row
 * BF_AHEAD_ROWS before (once the ring is full), then prepare h's in its
 * slot.  Returns the state.
 */
static inline struct varlena *
BfAheadAdd(struct varlena *v, BfAhead *ah, const BfTypeOps *ops, uint64 h)
{
	uint64	   *slot = ah->rows + (Size) ah->next * ah->words;

	ah->next = ah->next + 1 == BF_AHEAD_ROWS ? 0 : ah->next + 1;
	if (ah->n < BF_AHEAD_ROWS)
		ah->n++;
	else
	{
		v = BfAheadApply(v, ah, ops, slot);
		ah = BfAheadOf(v);
		slot = ah->rows + (Size) (ah->next == 0 ? BF_AHEAD_ROWS - 1 : ah->next - 1) * ah->words;
	}
	ops->ahead_prepare(v, h, slot);
	return v;
}

/*
 * Aggregate transition: add the element (NULLs skipped) to the state,
 * creating the state on the first row from the aggregate's capacity and fpr
 * (arguments 2 and 3, or the defaults).  Inline, so that a type's wrapper
 * passing its constant ops gets its add op inlined into the per-row path;
 * a state not built by an aggregate (a direct call) is checked first.
 */
static inline Datum
BfAggTransGeneric(FunctionCallInfo fcinfo, const BfTypeOps *ops)
{
	struct varlena *state;

	BfAhead    *ah;

	if (PG_ARGISNULL(0))
	{
		state = BfAggNewState(fcinfo, ops, false);
		if (ops->ahead_add != NULL)
			state = BfAheadAttach(fcinfo, state, ops);
	}
	else if (likely(BfInAggregate(fcinfo) &&
					!VARATT_IS_EXTENDED(DatumGetPointer(PG_GETARG_DATUM(0)))))
		state = (struct varlena *) DatumGetPointer(PG_GETARG_DATUM(0));	/* ours */
	else
	{
		state = BfStateForUpdate(fcinfo, 0);
		if (!BfInAggregate(fcinfo))
			ops->check(state, VARSIZE(state));
	}
	if (PG_ARGISNULL(1))
		PG_RETURN_POINTER(state);
	ah = ops->ahead_add != NULL ? BfAheadOf(state) : NULL;
	if (ah != NULL)
		state = BfAheadAdd(state, ah, ops,
						   BfHashDatumFast(BfGetHasher(fcinfo, 1), PG_GETARG_DATUM(1),
										   BfGet64(((BfHeader *) state)->seed)));
	else
	{
		struct varlena *r = ops->agg_add(state, BfGetHasher(fcinfo, 1), PG_GETARG_DATUM(1));

		/* a state that grew (a new allocation) may now be large enough for a ring */
		if (unlikely(r != state) && ops->ahead_add != NULL)
			r = BfAheadAttach(fcinfo, r, ops);
		state = r;
	}
	PG_RETURN_POINTER(state);
}

/*
 * Parameters of filters built without explicit ones (aggregates over no rows
 * or without parameters, constructors without arguments).  Constants, not
 * settings: the same rows give the same filter on every server whatever its
 * configuration, so these functions are honestly IMMUTABLE (design.md).
 */
#define BF_DEFAULT_CAPACITY	100000
#define BF_DEFAULT_FPR		0.01

/* pagebloom index access method: registers its reloptions (src/pagebloom.c) */
extern void PageBloomInit(void);

#endif							/* BLOOMFILTER_H */
