/*
 * bloomfilter.c
 *		Module initialization and the code the four filter types share:
 *		header checks, text and binary I/O helpers, base64, parameter checks,
 *		info records, the detoast-once cache and the aggregate plumbing.
 */
#include "bloomfilter.h"

#include <math.h>

#include "access/detoast.h"
#include "access/htup_details.h"
#include "catalog/pg_type.h"
#include "funcapi.h"
#include "libpq/pqformat.h"
#include "miscadmin.h"
#include "executor/executor.h"
#include "nodes/execnodes.h"
#include "nodes/primnodes.h"
#include "optimizer/clauses.h"
#include "optimizer/optimizer.h"
#include "utils/array.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"

#if PG_VERSION_NUM >= 180000
PG_MODULE_MAGIC_EXT(.name = "bloomfilter",.version = BLOOMFILTER_VERSION);
#else
PG_MODULE_MAGIC;
#endif

void		_PG_init(void);

/*
 * Module load: reserve the "bloomfilter." prefix (there are no settings: a
 * stale SET of the removed 1.0 settings is an error rather than a silently
 * ignored placeholder) and register the index AM's reloptions
 */
void
_PG_init(void)
{
	MarkGUCPrefixReserved("bloomfilter");

	PageBloomInit();
}

/* ---------------------------------------------------------------------
 * Errors and checks
 * ---------------------------------------------------------------------
 */

/* Raise 22P02 for a malformed or inconsistent filter value */
void
BfCorrupt(const char *typname, const char *detailfmt,...)
{
	char		detail[512];
	va_list		ap;

	va_start(ap, detailfmt);
	vsnprintf(detail, sizeof(detail), detailfmt, ap);
	va_end(ap);
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
			 errmsg("invalid %s value", typname),
			 errdetail("%s", detail),
			 errhint("Use a value produced by the %s output or send function of this extension.", typname)));
}

/* Raise 54000 if a filter of this many bytes would exceed the varlena limit */
void
BfCheckSize(const char *typname, double bytes)
{
	if (!(bytes <= (double) BF_MAX_DATUM_SIZE))
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("%s would need %.0f bytes, more than the maximum of %zu",
						typname, bytes, BF_MAX_DATUM_SIZE),
				 errhint("Ask for a smaller capacity or a larger false-positive rate, or split the data over several filters.")));
}

/* Raise 22023 for a bad capacity or false-positive rate */
void
BfCheckCapacityFpr(int64 capacity, double fpr)
{
	if (capacity <= 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("capacity must be positive"),
				 errdetail("Capacity " INT64_FORMAT " was given.", capacity),
				 errhint("Give the number of distinct elements you expect to add.")));
	if (isnan(fpr) || fpr <= 0.0 || fpr >= 1.0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("false-positive rate must be between 0 and 1 exclusive"),
				 errdetail("False-positive rate %g was given.", fpr),
				 errhint("Use a value such as 0.01 for 1%%.")));
}

/* Raise 22023 for two filters whose parameters differ */
void
BfParamMismatch(const char *typname, const char *aparams, const char *bparams)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("%s filters have different parameters", typname),
			 errdetail("Left filter has %s; right filter has %s.", aparams, bparams),
			 errhint("Only filters built with the same parameters and seed can be combined or compared.")));
}

/* Check that two filters share hash algorithm and seed */
void
BfCheckSeedsMatch(const char *typname, const BfHeader *a, const BfHeader *b,
				  const char *aparams, const char *bparams)
{
	if (a->hashalg != b->hashalg || a->seed != b->seed)
		BfParamMismatch(typname, aparams, bparams);
}

/* Fill in the common header of a zeroed new datum of the given size */
void
BfInitHeader(BfHeader *h, Size size, BfKind kind, uint64 seed)
{
	SET_VARSIZE(h, size);
	h->version = BF_FORMAT_VERSION;
	h->kind = (uint8) kind;
	h->hashalg = BF_HASH_XXH3_64;
	h->flags = 0;
	h->seed = BfPut64(seed);
	h->ninserts = 0;
}

/* Validate the common header of a detoasted datum of a given kind */
void
BfValidateHeader(const char *typname, const struct varlena *v, BfKind kind,
				 Size fixedsize)
{
	const BfHeader *h = (const BfHeader *) v;
	Size		size = VARSIZE_ANY(v);

	if (VARATT_IS_SHORT(v) || size < fixedsize)
		BfCorrupt(typname, "The value is %zu bytes long, shorter than the %zu-byte header.",
				  size, fixedsize);
	if (h->version != BF_FORMAT_VERSION)
		BfCorrupt(typname, "Format version %u is not supported; this version of the extension reads version %d.",
				  h->version, BF_FORMAT_VERSION);
	if (h->kind != (uint8) kind)
		BfCorrupt(typname, "The value is of filter kind %u, not %s.", h->kind, typname);
	if (h->hashalg != BF_HASH_XXH3_64)
		BfCorrupt(typname, "Hash algorithm %u is not supported.", h->hashalg);
	/* bloom: bit 0 marks a self-sized filter (bloom.h) */
	if ((h->flags & ~(kind == BF_KIND_BLOOM ? 0x01 : 0x00)) != 0)
		BfCorrupt(typname, "Unknown flags 0x%02x are set.", h->flags);
}

/* A palloc'd copy of a (plain, 4-byte header) varlena */
void *
BfCopyDatum(const struct varlena *v)
{
	void	   *copy = palloc(VARSIZE(v));

	memcpy(copy, v, VARSIZE(v));
	return copy;
}

/* ---------------------------------------------------------------------
 * base64 (RFC 4648, with padding; strict on input)
 * ---------------------------------------------------------------------
 */
static const char bf_b64_chars[] =
"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/* Length of the base64 encoding of len bytes */
Size
BfBase64EncodedLen(Size len)
{
	return ((len + 2) / 3) * 4;
}

/* Encode len bytes into dst (BfBase64EncodedLen(len) bytes); returns length */
Size
BfBase64Encode(const uint8 *src, Size len, char *dst)
{
	char	   *p = dst;
	Size		i;

	for (i = 0; i + 3 <= len; i += 3)
	{
		uint32		v = ((uint32) src[i] << 16) | ((uint32) src[i + 1] << 8) | src[i + 2];

		*p++ = bf_b64_chars[(v >> 18) & 63];
		*p++ = bf_b64_chars[(v >> 12) & 63];
		*p++ = bf_b64_chars[(v >> 6) & 63];
		*p++ = bf_b64_chars[v & 63];
	}
	if (len - i == 1)
	{
		uint32		v = (uint32) src[i] << 16;

		*p++ = bf_b64_chars[(v >> 18) & 63];
		*p++ = bf_b64_chars[(v >> 12) & 63];
		*p++ = '=';
		*p++ = '=';
	}
	else if (len - i == 2)
	{
		uint32		v = ((uint32) src[i] << 16) | ((uint32) src[i + 1] << 8);

		*p++ = bf_b64_chars[(v >> 18) & 63];
		*p++ = bf_b64_chars[(v >> 12) & 63];
		*p++ = bf_b64_chars[(v >> 6) & 63];
		*p++ = '=';
	}
	return p - dst;
}

/* Value of one base64 character, or -1 */
static inline int
BfBase64Value(unsigned char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+')
		return 62;
	if (c == '/')
		return 63;
	return -1;
}

/*
 * Decode exactly dstlen bytes from srclen base64 characters.  Returns false
 * if the text is not the canonical encoding of exactly dstlen bytes.
 */
bool
BfBase64Decode(const char *src, Size srclen, uint8 *dst, Size dstlen)
{
	Size		i,
				o = 0;

	if (srclen != BfBase64EncodedLen(dstlen))
		return false;
	for (i = 0; i < srclen; i += 4)
	{
		int			a = BfBase64Value(src[i]),
					b = BfBase64Value(src[i + 1]),
					c,
					d;
		uint32		v;

		if (a < 0 || b < 0)
			return false;
		if (i + 4 == srclen && src[i + 2] == '=')
		{
			/* one byte left: "xx==" with no stray low bits */
			if (src[i + 3] != '=' || dstlen - o != 1 || (b & 15) != 0)
				return false;
			dst[o++] = (uint8) ((a << 2) | (b >> 4));
			break;
		}
		c = BfBase64Value(src[i + 2]);
		if (c < 0)
			return false;
		if (i + 4 == srclen && src[i + 3] == '=')
		{
			if (dstlen - o != 2 || (c & 3) != 0)
				return false;
			v = ((uint32) a << 18) | ((uint32) b << 12) | ((uint32) c << 6);
			dst[o++] = (uint8) (v >> 16);
			dst[o++] = (uint8) (v >> 8);
			break;
		}
		d = BfBase64Value(src[i + 3]);
		if (d < 0 || dstlen - o < 3)
			return false;
		v = ((uint32) a << 18) | ((uint32) b << 12) | ((uint32) c << 6) | (uint32) d;
		dst[o++] = (uint8) (v >> 16);
		dst[o++] = (uint8) (v >> 8);
		dst[o++] = (uint8) v;
	}
	return o == dstlen;
}

/* ---------------------------------------------------------------------
 * Text I/O
 * ---------------------------------------------------------------------
 */

/* Write "<typname> v<version> hash=xxh3 seed=S inserts=N" */
void
BfTextBegin(StringInfo buf, const char *typname, const BfHeader *h)
{
	appendStringInfo(buf, "%s v%d hash=xxh3 seed=" INT64_FORMAT " inserts=" UINT64_FORMAT,
					 typname, (int) h->version,
					 (int64) BfGet64(h->seed), BfGet64(h->ninserts));
}

/* Append " name=<base64 of data>" */
void
BfTextPayload(StringInfo buf, const char *name, const void *data, Size len)
{
	Size		enclen = BfBase64EncodedLen(len);

	appendStringInfo(buf, " %s=", name);
	enlargeStringInfo(buf, enclen + 1);
	buf->len += BfBase64Encode(data, len, buf->data + buf->len);
	buf->data[buf->len] = '\0';
}

/* Find the index of a key, or -1 */
static int
BfTextFind(BfTextFields *f, const char *key)
{
	int			i;

	for (i = 0; i < f->nfields; i++)
		if (strcmp(f->keys[i], key) == 0)
			return i;
	return -1;
}

/* Whether the text form has a key (a type whose keys depend on its variant) */
bool
BfTextHas(BfTextFields *f, const char *key)
{
	return BfTextFind(f, key) >= 0;
}

/* Malformed-text error with a detail */
static void
BfTextError(BfTextFields *f, const char *detail, const char *arg)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
			 errmsg("invalid input syntax for type %s", f->typname),
			 errdetail(detail, arg),
			 errhint("The text form is \"%s v%d hash=xxh3 seed=... inserts=... <parameters> data=<base64>\", as %s output writes it.",
					 f->typname, BF_FORMAT_VERSION, f->typname)));
}

/*
 * Split the text form into key=value fields and check the common part:
 * type name, version, hash algorithm, seed and insert counter.
 */
void
BfTextParse(const char *typname, const char *str, BfTextFields *f)
{
	char	   *s = pstrdup(str);
	char	   *tok;
	char	   *save = NULL;
	int			ntok = 0;

	memset(f, 0, sizeof(*f));
	f->typname = typname;

	for (tok = strtok_r(s, " \t\n\r", &save); tok; tok = strtok_r(NULL, " \t\n\r", &save))
	{
		if (ntok == 0)
		{
			if (strcmp(tok, typname) != 0)
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
						 errmsg("invalid input syntax for type %s", typname),
						 errdetail("The value must start with \"%s\".", typname),
						 errhint("To probe for or add a string literal, cast it: %s @> 'abc'::text.",
								 "filter")));
		}
		else if (ntok == 1)
		{
			if (tok[0] != 'v' || strspn(tok + 1, "0123456789") != strlen(tok + 1) || tok[1] == '\0')
				BfTextError(f, "Expected a format version such as \"v" CppAsString2(BF_FORMAT_VERSION) "\", found \"%s\".", tok);
			if (strcmp(tok + 1, CppAsString2(BF_FORMAT_VERSION)) != 0)
				BfTextError(f, "Format version \"%s\" is not supported by this version of the extension.", tok);
		}
		else
		{
			char	   *eq = strchr(tok, '=');

			if (eq == NULL || eq == tok)
				BfTextError(f, "Expected key=value, found \"%s\".", tok);
			*eq = '\0';
			if (BfTextFind(f, tok) >= 0)
				BfTextError(f, "Key \"%s\" appears more than once.", tok);
			if (f->nfields >= BF_TEXT_MAX_FIELDS)
				BfTextError(f, "Too many fields, at \"%s\".", tok);
			f->keys[f->nfields] = tok;
			f->values[f->nfields] = eq + 1;
			f->nfields++;
		}
		ntok++;
	}
	if (ntok < 2)
		BfTextError(f, "The value is truncated after \"%s\".", ntok == 0 ? "" : typname);

	{
		int			i = BfTextFind(f, "hash");

		if (i < 0)
			BfTextError(f, "Key \"%s\" is missing.", "hash");
		if (strcmp(f->values[i], "xxh3") != 0)
			BfTextError(f, "Hash algorithm \"%s\" is not supported.", f->values[i]);
		f->used[i] = true;
	}
	f->seed = (uint64) BfTextGetUInt64(f, "seed", 0, PG_UINT64_MAX);
	f->ninserts = BfTextGetUInt64(f, "inserts", 0, PG_UINT64_MAX);
}

/*
 * Integer field.  "seed" is read as a signed int64 (as SQL shows it) and
 * returned as its bit pattern; other keys are unsigned within [min, max].
 */
uint64
BfTextGetUInt64(BfTextFields *f, const char *key, uint64 min, uint64 max)
{
	int			i = BfTextFind(f, key);
	const char *v;
	char	   *end;
	uint64		r;

	if (i < 0)
		BfTextError(f, "Key \"%s\" is missing.", key);
	f->used[i] = true;
	v = f->values[i];
	errno = 0;
	if (strcmp(key, "seed") == 0)
	{
		long long	sv = strtoll(v, &end, 10);

		if (errno != 0 || end == v || *end != '\0')
			BfTextError(f, "Invalid seed \"%s\".", v);
		return (uint64) (int64) sv;
	}
	if (*v < '0' || *v > '9')
		BfTextError(f, "Invalid number \"%s\".", v);
	r = (uint64) strtoull(v, &end, 10);
	if (errno != 0 || *end != '\0')
		BfTextError(f, "Invalid number \"%s\".", v);
	if (r < min || r > max)
	{
		char		msg[128];

		snprintf(msg, sizeof(msg), "%s=%s is out of range [" UINT64_FORMAT ", " UINT64_FORMAT "].",
				 key, v, min, max);
		BfTextError(f, "%s", msg);
	}
	return r;
}

/* Floating-point field within [min, max] */
double
BfTextGetFloat8(BfTextFields *f, const char *key, double min, double max)
{
	int			i = BfTextFind(f, key);
	char	   *end;
	double		r;

	if (i < 0)
		BfTextError(f, "Key \"%s\" is missing.", key);
	f->used[i] = true;
	errno = 0;
	r = strtod(f->values[i], &end);
	if (errno != 0 || end == f->values[i] || *end != '\0' || isnan(r) || r < min || r > max)
		BfTextError(f, "Invalid or out-of-range number \"%s\".", f->values[i]);
	return r;
}

/* Decode a base64 field that must hold exactly expected_len bytes */
char *
BfTextGetPayload(BfTextFields *f, const char *key, Size expected_len)
{
	int			i = BfTextFind(f, key);
	char	   *out;

	if (i < 0)
		BfTextError(f, "Key \"%s\" is missing.", key);
	f->used[i] = true;
	if (strlen(f->values[i]) != BfBase64EncodedLen(expected_len))
	{
		char		msg[128];

		snprintf(msg, sizeof(msg), "%zu", expected_len);
		BfTextError(f, "The data field is not valid base64 of exactly %s bytes.", msg);
	}
	out = palloc(expected_len + 1);
	if (!BfBase64Decode(f->values[i], strlen(f->values[i]), (uint8 *) out, expected_len))
	{
		char		msg[128];

		snprintf(msg, sizeof(msg), "%zu", expected_len);
		BfTextError(f, "The data field is not valid base64 of exactly %s bytes.", msg);
	}
	return out;
}

/* Refuse fields that were not asked for */
void
BfTextFinish(BfTextFields *f)
{
	int			i;

	for (i = 0; i < f->nfields; i++)
		if (!f->used[i])
			BfTextError(f, "Unknown key \"%s\".", f->keys[i]);
}

/* ---------------------------------------------------------------------
 * Binary I/O
 * ---------------------------------------------------------------------
 */

/* send: the datum's bytes after the length word */
bytea *
BfSend(const struct varlena *v)
{
	StringInfoData buf;

	pq_begintypsend(&buf);
	pq_sendbytes(&buf, VARDATA(v), VARSIZE(v) - VARHDRSZ);
	return pq_endtypsend(&buf);
}

/* recv: a new datum from the remaining bytes; the caller validates it */
struct varlena *
BfRecv(StringInfo buf)
{
	int			len = buf->len - buf->cursor;
	struct varlena *v;

	if (len < 0 || (Size) len > BF_MAX_DATUM_SIZE - VARHDRSZ)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
				 errmsg("invalid binary filter value"),
				 errdetail("The value is %d bytes long, more than the largest filter.", len),
				 errhint("Use a value produced by the send function of this extension.")));
	v = palloc(len + VARHDRSZ);
	SET_VARSIZE(v, len + VARHDRSZ);
	pq_copymsgbytes(buf, VARDATA(v), len);
	return v;
}

/* ---------------------------------------------------------------------
 * Info records
 * ---------------------------------------------------------------------
 */

/* Build the function's OUT-parameter record from values/nulls */
Datum
BfInfoTuple(FunctionCallInfo fcinfo, Datum *values, bool *nulls, int natts)
{
	TupleDesc	tupdesc;

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	if (tupdesc->natts != natts)
		elog(ERROR, "info record has %d columns, expected %d", tupdesc->natts, natts);
	tupdesc = BlessTupleDesc(tupdesc);
	return HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls));
}

/* ---------------------------------------------------------------------
 * Per-call cache: element hasher and detoast-once
 * ---------------------------------------------------------------------
 */

/* The cache in fn_extra, allocated on first use */
BfFnCache *
BfGetFnCache(FunctionCallInfo fcinfo)
{
	BfFnCache  *c = (BfFnCache *) fcinfo->flinfo->fn_extra;

	if (c == NULL)
	{
		c = MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(BfFnCache));
		fcinfo->flinfo->fn_extra = c;
	}
	return c;
}

/* Hasher for the call's argument argno (its declared type at the call site) */
static BfHasher *
BfHasherFor(FunctionCallInfo fcinfo, Oid typid)
{
	BfFnCache  *c = BfGetFnCache(fcinfo);
	Oid			coll = PG_GET_COLLATION();

	if (!OidIsValid(typid))
		ereport(ERROR,
				(errcode(ERRCODE_INDETERMINATE_DATATYPE),
				 errmsg("could not determine the element type"),
				 errhint("Cast the element to a specific type.")));
	if (!c->hasher_valid || c->hasher_typid != typid || c->hasher_collation != coll)
	{
		BfHasherInit(&c->hasher, typid, coll, fcinfo->flinfo->fn_mcxt);
		c->hasher_typid = typid;
		c->hasher_collation = coll;
		c->hasher_valid = true;
	}
	return &c->hasher;
}

/* BfGetHasher's first call at a call site: set up the cached hasher */
BfHasher *
BfGetHasherSlow(FunctionCallInfo fcinfo, int argno)
{
	return BfHasherFor(fcinfo, get_fn_expr_argtype(fcinfo->flinfo, argno));
}

/* Hasher for the elements of the anyarray argument argno */
BfHasher *
BfGetArrayElemHasher(FunctionCallInfo fcinfo, int argno)
{
	BfFnCache  *c = (BfFnCache *) fcinfo->flinfo->fn_extra;

	if (likely(c != NULL && c->hasher_valid))
		return &c->hasher;
	{
	Oid			arrtype = get_fn_expr_argtype(fcinfo->flinfo, argno);
		Oid			elemtype = OidIsValid(arrtype) ? get_element_type(getBaseType(arrtype)) : InvalidOid;

	return BfHasherFor(fcinfo, elemtype);
	}
}

/* Empty a cache slot: free its copy and its probe view */
static void
BfCacheSlotClear(BfCacheSlot *slot)
{
	if (slot->view)
		pfree(slot->view);
	if (slot->copy)
		pfree(slot->copy);
	memset(slot, 0, sizeof(*slot));
}

/* The slot of the out-of-line value relid/valueid, or NULL */
static BfCacheSlot *
BfCacheLookup(BfFnCache *c, Oid relid, Oid valueid)
{
	int			i;

	for (i = 0; i < BF_CACHE_SLOTS; i++)
		if (c->slots[i].valid && c->slots[i].relid == relid && c->slots[i].valueid == valueid)
			return &c->slots[i];
	return NULL;
}

/*
 * A slot for a new value: a free one, else the least recently probed of
 * those without a copy (values still read through slices), else the least
 * recently probed, emptied.  So a stream of big filters probed once each
 * does not push out the copies of filters probed again and again.
 */
static BfCacheSlot *
BfCacheVictim(BfFnCache *c)
{
	BfCacheSlot *victim = &c->slots[0];
	int			i;

	for (i = 0; i < BF_CACHE_SLOTS; i++)
	{
		BfCacheSlot *slot = &c->slots[i];

		if (!slot->valid)
		{
			victim = slot;
			break;
		}
		if ((slot->copy == NULL) != (victim->copy == NULL) ?
			slot->copy == NULL : slot->last_use < victim->last_use)
			victim = slot;
	}
	BfCacheSlotClear(victim);
	return victim;
}

/*
 * Make room for a copy of size bytes in slot keep: free the copies of the
 * least recently probed other slots until all copies fit work_mem (a single
 * value larger than that is still cached, alone).
 */
static void
BfCacheMakeRoom(BfFnCache *c, BfCacheSlot *keep, Size size)
{
	Size		budget = (Size) work_mem * 1024;

	for (;;)
	{
		Size		used = size;
		BfCacheSlot *lru = NULL;
		int			i;

		for (i = 0; i < BF_CACHE_SLOTS; i++)
		{
			BfCacheSlot *slot = &c->slots[i];

			if (slot == keep || slot->copy == NULL)
				continue;
			used += VARSIZE(slot->copy);
			if (lru == NULL || slot->last_use < lru->last_use)
				lru = slot;
		}
		if (used <= budget || lru == NULL)
			return;
		BfCacheSlotClear(lru);
	}
}

/*
 * The probe view of an opened filter, or NULL.  Only values the call site's
 * cache holds (detoasted once, identified by their TOAST pointer or their
 * compressed bytes) get one: a plain in-memory value has no identity that
 * outlives the call.  Rent or buy: the view is built once the filter has
 * been probed about as many times as building it costs (one probe for every
 * 64 bytes of the filter), so a statement never spends more than about
 * twice what the better of the two would have cost.  The view is freed with
 * the copy it was built from.
 */
void *
BfProbeView(FunctionCallInfo fcinfo, const BfFilterRef *ref, BfViewBuilder build)
{
	BfFnCache  *c = (BfFnCache *) fcinfo->flinfo->fn_extra;
	BfCacheSlot *slot = NULL;
	MemoryContext old;
	int			i;

	if (c == NULL || ref->full == NULL)
		return NULL;
	if (ref->full == c->inline_slot.copy)
		slot = &c->inline_slot;
	for (i = 0; slot == NULL && i < BF_CACHE_SLOTS; i++)
		if (ref->full == c->slots[i].copy)
			slot = &c->slots[i];
	if (slot == NULL)
		return NULL;
	if (slot->view != NULL)
		return slot->view;
	if (++slot->view_uses < (int64) (VARSIZE(slot->copy) / 64))
		return NULL;
	old = MemoryContextSwitchTo(fcinfo->flinfo->fn_mcxt);
	slot->view = build(slot->copy);
	MemoryContextSwitchTo(old);
	return slot->view;
}

/*
 * Open the filter argument argno for probing.
 *
 * Plain in-memory values are used as they are.  Out-of-line values are
 * cached by their TOAST identity (up to BF_CACHE_SLOTS of them, least
 * recently probed out first, their copies together within work_mem), so a
 * filter that is constant for a query (a parameter, a scalar subquery), or
 * one of a few that a join alternates between, is detoasted once, not once
 * per row.  A large uncompressed out-of-line value is not detoasted for its
 * first probes (one for each BF_SLICE_THRESHOLD bytes of its size): only its
 * first headsize bytes are fetched and the probe reads the bytes it needs
 * through TOAST slices.  The last inline-compressed value is cached by its
 * compressed bytes.
 */
void
BfOpenFilter(FunctionCallInfo fcinfo, int argno, Size headsize, BfFilterRef *ref)
{
	Datum		d = PG_GETARG_DATUM(argno);
	struct varlena *v = (struct varlena *) DatumGetPointer(d);
	BfFnCache  *c;

	Assert(headsize <= sizeof(ref->head));
	ref->toasted = NULL;
	ref->full = NULL;

	if (!VARATT_IS_EXTENDED(v))
	{
		ref->full = v;
		ref->total = VARSIZE(v);
		return;
	}
	if (VARATT_IS_EXTERNAL_ONDISK(v))
	{
		struct varatt_external ext;
		BfCacheSlot *slot;
		MemoryContext old;

		VARATT_EXTERNAL_GET_POINTER(ext, v);
		c = BfGetFnCache(fcinfo);
		slot = BfCacheLookup(c, ext.va_toastrelid, ext.va_valueid);
		if (slot != NULL)
		{
			if (slot->uses < INT_MAX)
				slot->uses++;
			slot->last_use = ++c->clock;
			if (slot->copy != NULL)
			{
				ref->full = slot->copy;
				ref->total = VARSIZE(ref->full);
				return;
			}
		}
		else
		{
			slot = BfCacheVictim(c);
			slot->valid = true;
			slot->relid = ext.va_toastrelid;
			slot->valueid = ext.va_valueid;
			slot->uses = 1;
			slot->last_use = ++c->clock;
		}

		/*
		 * A big uncompressed value: slice mode for its first probes, until
		 * the slices fetched would have cost about as much as reading the
		 * whole value once (rent or buy: never more than twice the better
		 * of the two).  A probe's few slice fetches, each an index lookup in
		 * the TOAST table, cost about as much as reading BF_SLICE_THRESHOLD
		 * bytes of the value in one go, so a value of n times that size gets
		 * n sliced probes before it is detoasted and cached.
		 */
		if (slot->uses <= (int) Min((Size) ext.va_rawsize / BF_SLICE_THRESHOLD, (Size) INT_MAX) &&
			(Size) VARATT_EXTERNAL_GET_EXTSIZE(ext) >= (Size) ext.va_rawsize - VARHDRSZ &&
			(Size) ext.va_rawsize >= BF_SLICE_THRESHOLD && headsize > VARHDRSZ)
		{
			struct varlena *head;

			ref->toasted = v;
			ref->total = ext.va_rawsize;
			head = detoast_attr_slice(v, 0, headsize - VARHDRSZ);
			if (VARSIZE(head) != headsize)
				BfCorrupt("filter", "The stored value is shorter than its header.");
			memcpy(ref->head, head, headsize);
			SET_VARSIZE(ref->head, ref->total);
			pfree(head);
			return;
		}
		BfCacheMakeRoom(c, slot, (Size) ext.va_rawsize);
		old = MemoryContextSwitchTo(fcinfo->flinfo->fn_mcxt);
		slot->copy = detoast_attr(v);
		MemoryContextSwitchTo(old);
		ref->full = slot->copy;
		ref->total = VARSIZE(ref->full);
		return;
	}
	if (VARATT_IS_COMPRESSED(v))
	{
		Size		rawlen = VARSIZE(v);

		c = BfGetFnCache(fcinfo);
		if (c->inline_raw == NULL || VARSIZE(c->inline_raw) != rawlen ||
			memcmp(c->inline_raw, v, rawlen) != 0)
		{
			MemoryContext old = MemoryContextSwitchTo(fcinfo->flinfo->fn_mcxt);
			struct varlena *copy;

			/* empty the cache first: if decompression fails, it stays empty */
			if (c->inline_raw)
				pfree(c->inline_raw);
			c->inline_raw = NULL;
			BfCacheSlotClear(&c->inline_slot);
			copy = detoast_attr(v);
			c->inline_raw = palloc(rawlen);
			memcpy(c->inline_raw, v, rawlen);
			c->inline_slot.copy = copy;
			MemoryContextSwitchTo(old);
		}
		ref->full = c->inline_slot.copy;
		ref->total = VARSIZE(ref->full);
		return;
	}
	/* short header or in-memory expanded: an ordinary detoast */
	ref->full = pg_detoast_datum(v);
	ref->total = VARSIZE(ref->full);
}

/* Read len bytes at offset of an opened filter */
void
BfRefReadBytes(BfFilterRef *ref, Size offset, Size len, void *dst)
{
	struct varlena *slice;

	if (offset + len > ref->total)
		BfCorrupt("filter", "A probe reads past the end of the value.");
	if (ref->full)
	{
		memcpy(dst, (const char *) ref->full + offset, len);
		return;
	}
	slice = detoast_attr_slice(ref->toasted, offset - VARHDRSZ, len);
	if (VARSIZE(slice) - VARHDRSZ != len)
		BfCorrupt("filter", "The stored value is shorter than its header says.");
	memcpy(dst, VARDATA(slice), len);
	pfree(slice);
}

/* ---------------------------------------------------------------------
 * Aggregate plumbing
 * ---------------------------------------------------------------------
 */

/* The aggregate context, or NULL when not called as an aggregate */
MemoryContext
BfAggContext(FunctionCallInfo fcinfo)
{
	MemoryContext aggcontext;

	if (AggCheckCallContext(fcinfo, &aggcontext))
		return aggcontext;
	return NULL;
}

/*
 * The filter argument argno as something this call may modify: the state
 * itself inside an aggregate (we created it in the aggregate context), a
 * fresh copy otherwise.
 */
struct varlena *
BfStateForUpdate(FunctionCallInfo fcinfo, int argno)
{
	Pointer		p = DatumGetPointer(PG_GETARG_DATUM(argno));
	struct varlena *v;

	/* per-row path of every aggregate: no function call, no detoast call */
	if (BfInAggregate(fcinfo))
	{
		if (VARATT_IS_EXTENDED(p))
			elog(ERROR, "aggregate state is unexpectedly toasted");
		return (struct varlena *) p;
	}
	v = PG_DETOAST_DATUM(PG_GETARG_DATUM(argno));
	if ((Pointer) v != p)
		return v;				/* detoasting already made a private copy */
	return BfCopyDatum(v);
}

/*
 * A private copy of the filter argument argno, in the current memory
 * context, for a state that starts from an input value.  Inside an
 * aggregate the executor copies a new state into the aggregate context
 * itself (and frees ours with the per-tuple context), so allocating it
 * there too would keep two copies of every state.
 */
struct varlena *
BfStateCopyIn(FunctionCallInfo fcinfo, int argno)
{
	struct varlena *v = PG_GETARG_VARLENA_P(argno);

	if ((Pointer) v != DatumGetPointer(PG_GETARG_DATUM(argno)))
		return v;				/* detoasting already made a private copy */
	return BfCopyDatum(v);
}

/*
 * The expression of argument argindex (0-based, the element being 0) of the
 * aggregate being finalized, or NULL.  In a Finalize Aggregate the Aggref's
 * only argument refers to the partial aggregate's output: follow it down the
 * plan (Gather, Sort, ...) to the partial Aggref, whose arguments are intact.
 */
static Expr *
BfAggArgExpr(FunctionCallInfo fcinfo, int argindex)
{
	Aggref	   *aggref = AggGetAggref(fcinfo);
	Plan	   *plan;
	Expr	   *expr;

	if (aggref == NULL)
		return NULL;
	if (!DO_AGGSPLIT_COMBINE(aggref->aggsplit))
	{
		if (argindex >= list_length(aggref->args))
			return NULL;
		return ((TargetEntry *) list_nth(aggref->args, argindex))->expr;
	}
	if (fcinfo->context == NULL || !IsA(fcinfo->context, AggState) ||
		list_length(aggref->args) != 1)
		return NULL;
	plan = ((AggState *) fcinfo->context)->ss.ps.plan;
	expr = ((TargetEntry *) linitial(aggref->args))->expr;
	while (expr != NULL && IsA(expr, Var) && ((Var *) expr)->varno == OUTER_VAR)
	{
		Var		   *var = (Var *) expr;

		plan = plan ? outerPlan(plan) : NULL;
		if (plan == NULL || var->varattno < 1 || var->varattno > list_length(plan->targetlist))
			return NULL;
		expr = ((TargetEntry *) list_nth(plan->targetlist, var->varattno - 1))->expr;
	}
	if (expr == NULL || !IsA(expr, Aggref))
		return NULL;
	aggref = (Aggref *) expr;
	if (argindex >= list_length(aggref->args))
		return NULL;
	return ((TargetEntry *) list_nth(aggref->args, argindex))->expr;
}

/*
 * The value of argument argindex of the aggregate being finalized, if it is
 * the same for the whole query (a constant, a parameter of a prepared
 * statement's generic plan, or an expression of those).
 */
static bool
BfAggConstArg(FunctionCallInfo fcinfo, int argindex, Datum *value)
{
	Expr	   *expr = BfAggArgExpr(fcinfo, argindex);
	bool		isnull;

	if (expr == NULL)
		return false;
	if (IsA(expr, Const))
	{
		if (((Const *) expr)->constisnull)
			return false;
		*value = ((Const *) expr)->constvalue;
		return true;
	}
	if (contain_var_clause((Node *) expr) || contain_agg_clause((Node *) expr) ||
		contain_window_function((Node *) expr) || contain_subplans((Node *) expr) ||
		contain_volatile_functions((Node *) expr) ||
		fcinfo->context == NULL || !IsA(fcinfo->context, AggState))
		return false;
	{
		AggState   *aggstate = (AggState *) fcinfo->context;
		ExprState  *es = ExecInitExpr(expr, &aggstate->ss.ps);

		*value = ExecEvalExprSwitchContext(es, aggstate->ss.ps.ps_ExprContext, &isnull);
	}
	return !isnull;
}

/*
 * Capacity and fpr for an aggregate: from the call's arguments when given
 * (transition functions), else, in a final function over no rows, from the
 * aggregate's arguments when they are the same for the whole query (also in
 * parallel plans and generic plans), else the constant defaults.  capacity_arg and
 * fpr_arg are the argument numbers in the call (< 0: the aggregate has no
 * such argument); the aggregate's own argument index is one less (the state
 * comes first).  In a window frame with no rows the defaults are used.
 */
void
BfAggParams(FunctionCallInfo fcinfo, int capacity_arg, int fpr_arg,
			int64 *capacity, double *fpr)
{
	Datum		v;

	*capacity = BF_DEFAULT_CAPACITY;
	*fpr = BF_DEFAULT_FPR;

	if (capacity_arg >= 0 && capacity_arg < PG_NARGS() && !PG_ARGISNULL(capacity_arg))
		*capacity = PG_GETARG_INT64(capacity_arg);
	else if (capacity_arg >= 1 && BfAggConstArg(fcinfo, capacity_arg - 1, &v))
		*capacity = DatumGetInt64(v);
	if (fpr_arg >= 0 && fpr_arg < PG_NARGS() && !PG_ARGISNULL(fpr_arg))
		*fpr = PG_GETARG_FLOAT8(fpr_arg);
	else if (fpr_arg >= 1 && BfAggConstArg(fcinfo, fpr_arg - 1, &v))
		*fpr = DatumGetFloat8(v);
	BfCheckCapacityFpr(*capacity, *fpr);
}

/* ---------------------------------------------------------------------
 * Generic SQL entry points over a type's BfTypeOps (bloomfilter.h)
 * ---------------------------------------------------------------------
 */

/* The filter argument argno, detoasted and checked */
struct varlena *
BfGetFilterArg(FunctionCallInfo fcinfo, int argno, const BfTypeOps *ops)
{
	struct varlena *v = PG_DETOAST_DATUM(PG_GETARG_DATUM(argno));

	ops->check(v, VARSIZE(v));
	return v;
}

/*
 * <type>_in(cstring): the common text fields, the type's keys (text_read),
 * then the payload, whose length is checked before the filter is allocated.
 */
Datum
BfInGeneric(FunctionCallInfo fcinfo, const BfTypeOps *ops)
{
	BfTextFields f;
	char	   *hdr = palloc0(ops->headsize);
	void	   *extra = NULL;
	Size		len;
	char	   *payload;
	struct varlena *v;

	BfTextParse(ops->name, PG_GETARG_CSTRING(0), &f);
	len = ops->text_read(&f, hdr, &extra);
	payload = BfTextGetPayload(&f, "data", len);
	BfTextFinish(&f);
	v = palloc(ops->headsize + len);
	memcpy(v, hdr, ops->headsize);
	BfInitHeader((BfHeader *) v, ops->headsize + len, ops->kind, f.seed);
	((BfHeader *) v)->ninserts = BfPut64(f.ninserts);
	memcpy((char *) v + ops->headsize, payload, len);
	pfree(payload);
	pfree(hdr);
	if (ops->text_done)
		ops->text_done(v, extra);
	ops->validate(v);
	PG_RETURN_POINTER(v);
}

/* <type>_out(<type>): the common text fields, the type's keys, the payload */
Datum
BfOutGeneric(FunctionCallInfo fcinfo, const BfTypeOps *ops)
{
	struct varlena *v = BfGetFilterArg(fcinfo, 0, ops);
	StringInfoData buf;

	initStringInfo(&buf);
	BfTextBegin(&buf, ops->name, (const BfHeader *) v);
	ops->text_write(&buf, v);
	BfTextPayload(&buf, "data", (const char *) v + ops->headsize, VARSIZE(v) - ops->headsize);
	PG_RETURN_CSTRING(buf.data);
}

/* <type>_recv(internal): the datum's bytes, fully validated */
Datum
BfRecvGeneric(FunctionCallInfo fcinfo, const BfTypeOps *ops)
{
	struct varlena *v = BfRecv((StringInfo) PG_GETARG_POINTER(0));

	ops->validate(v);
	PG_RETURN_POINTER(v);
}

/* <type>_send(<type>) */
Datum
BfSendGeneric(FunctionCallInfo fcinfo, const BfTypeOps *ops)
{
	PG_RETURN_BYTEA_P(BfSend(BfGetFilterArg(fcinfo, 0, ops)));
}

/* <type>_empty(capacity bigint, fpr float8, seed bigint) */
Datum
BfEmptyGeneric(FunctionCallInfo fcinfo, const BfTypeOps *ops)
{
	PG_RETURN_POINTER(ops->new_sized(PG_GETARG_INT64(0), PG_GETARG_FLOAT8(1),
									 (uint64) PG_GETARG_INT64(2)));
}

/*
 * The filter argument 0 of an update function (_add, _remove) as a checked
 * value this call may modify; false when the call's result is decided by
 * NULL arguments already (*result set).
 */
static bool
BfUpdateBegin(FunctionCallInfo fcinfo, const BfTypeOps *ops, struct varlena **v,
			  Datum *result, bool *isnull)
{
	if (PG_ARGISNULL(0))
	{
		*result = (Datum) 0;
		*isnull = true;
		return false;
	}
	if (PG_ARGISNULL(1))
	{
		*result = PG_GETARG_DATUM(0);
		*isnull = false;
		return false;
	}
	*v = BfStateForUpdate(fcinfo, 0);
	ops->check(*v, VARSIZE(*v));
	return true;
}

/*
 * <type>_add(<type>, anynonarray): a copy of the filter with the element
 * added; a NULL element leaves the filter as it is.
 */
Datum
BfAddGeneric(FunctionCallInfo fcinfo, const BfTypeOps *ops)
{
	struct varlena *v;
	Datum		result;

	if (!BfUpdateBegin(fcinfo, ops, &v, &result, &fcinfo->isnull))
		return result;
	PG_RETURN_POINTER(ops->add(v, BfGetHasher(fcinfo, 1), PG_GETARG_DATUM(1)));
}

/*
 * Apply the add op (add) or the remove op to every non-null element of the
 * array argument 1, in array order, on a copy of the filter argument 0.
 * Intermediate datums of repeated growth are freed as the loop goes.
 */
static Datum
BfArrayApply(FunctionCallInfo fcinfo, const BfTypeOps *ops, bool add)
{
	struct varlena *v;
	struct varlena *orig;
	Datum		result;
	BfHasher   *h;
	ArrayIterator it;
	Datum		value;
	bool		isnull;

	if (!BfUpdateBegin(fcinfo, ops, &v, &result, &fcinfo->isnull))
		return result;
	orig = v;
	h = BfGetArrayElemHasher(fcinfo, 1);
	it = array_create_iterator(PG_GETARG_ARRAYTYPE_P(1), 0, NULL);
	while (array_iterate(it, &value, &isnull))
	{
		struct varlena *grown;

		if (isnull)
			continue;
		if (!add)
		{
			ops->remove(v, h, value);
			continue;
		}
		grown = ops->add(v, h, value);
		if (grown != v && v != orig)
			pfree(v);
		v = grown;
	}
	array_free_iterator(it);
	PG_RETURN_POINTER(v);
}

/*
 * <type>_add(<type>, anyarray): a copy of the filter with every non-null
 * element added in array order.
 */
Datum
BfAddArrayGeneric(FunctionCallInfo fcinfo, const BfTypeOps *ops)
{
	return BfArrayApply(fcinfo, ops, true);
}

/*
 * <type>_remove(<type>, anynonarray): a copy of the filter with one copy of
 * the element removed (unchanged when it is certainly absent, or NULL).
 */
Datum
BfRemoveGeneric(FunctionCallInfo fcinfo, const BfTypeOps *ops)
{
	struct varlena *v;
	Datum		result;

	if (!BfUpdateBegin(fcinfo, ops, &v, &result, &fcinfo->isnull))
		return result;
	ops->remove(v, BfGetHasher(fcinfo, 1), PG_GETARG_DATUM(1));
	PG_RETURN_POINTER(v);
}

/* <type>_remove(<type>, anyarray): each non-null element removed once, in order */
Datum
BfRemoveArrayGeneric(FunctionCallInfo fcinfo, const BfTypeOps *ops)
{
	return BfArrayApply(fcinfo, ops, false);
}

/*
 * A binary operation building a new filter from two compatible ones (|, &,
 * -): merge(left, right), on a copy of the left one when copy_left (merge
 * updates in place), else on the left argument itself (merge builds anew).
 */
Datum
BfCombineGeneric(FunctionCallInfo fcinfo, const BfTypeOps *ops, BfMergeFn merge,
				 bool copy_left)
{
	struct varlena *a = BfGetFilterArg(fcinfo, 0, ops);
	struct varlena *b = BfGetFilterArg(fcinfo, 1, ops);

	ops->check_compatible(a, b);
	PG_RETURN_POINTER(merge(copy_left ? BfCopyDatum(a) : a, b));
}

/*
 * Comparison operators (=, <>, <, <=, >, >=) and the btree support function
 * of a type: a total order over all values, whatever their parameters, so
 * that = is false (not an error) for filters with different parameters and
 * GROUP BY, DISTINCT, merge joins and REPLICA IDENTITY FULL work
 */
Datum
BfCompareGeneric(FunctionCallInfo fcinfo, const BfTypeOps *ops, BfCmpMode mode)
{
	struct varlena *a = BfGetFilterArg(fcinfo, 0, ops);
	struct varlena *b = BfGetFilterArg(fcinfo, 1, ops);
	int			c = ops->compare(a, b);

	switch (mode)
	{
		case BF_CMP:
			PG_RETURN_INT32(c);
		case BF_CMP_EQ:
			PG_RETURN_BOOL(c == 0);
		case BF_CMP_NE:
			PG_RETURN_BOOL(c != 0);
		case BF_CMP_LT:
			PG_RETURN_BOOL(c < 0);
		case BF_CMP_LE:
			PG_RETURN_BOOL(c <= 0);
		case BF_CMP_GT:
			PG_RETURN_BOOL(c > 0);
		case BF_CMP_GE:
			PG_RETURN_BOOL(c >= 0);
	}
	pg_unreachable();
}

/*
 * Hash support functions of a type's hash operator class: the standard one
 * (int4) and the extended one (int8, with a seed argument)
 */
Datum
BfHashGeneric(FunctionCallInfo fcinfo, const BfTypeOps *ops, bool extended)
{
	struct varlena *v = BfGetFilterArg(fcinfo, 0, ops);

	if (extended)
		PG_RETURN_INT64((int64) ops->hash(v, (uint64) PG_GETARG_INT64(1)));
	PG_RETURN_INT32((int32) (uint32) ops->hash(v, 0));
}

/*
 * Order of two values given as fixed parameter bytes (same length on both
 * sides) then payload bytes: the parameters, then the payload bytes, then the
 * payload length.  Returns -1, 0 or 1.
 */
int
BfCompareKeyed(const void *pa, const void *pb, Size plen,
			   const void *a, Size alen, const void *b, Size blen)
{
	int			c = memcmp(pa, pb, plen);

	if (c == 0)
		c = memcmp(a, b, Min(alen, blen));
	if (c == 0)
		return alen < blen ? -1 : (alen > blen ? 1 : 0);
	return c < 0 ? -1 : 1;
}

/* The hash algorithm and seed of a value, as compared bytes */
static void
BfHeaderKey(const struct varlena *v, uint8 *key)
{
	const BfHeader *h = (const BfHeader *) v;

	key[0] = h->hashalg;
	memcpy(key + 1, &h->seed, 8);	/* stored little-endian: the same bytes everywhere */
}

/*
 * compare op of the types whose = looks at the hash algorithm, the seed and
 * every byte after the common header (the parameters and the payload: bloom,
 * countingbloom, cuckoofilter); the insert counter and the flags are not
 * part of the value
 */
int
BfCompareAfterHeader(const void *a, const void *b)
{
	uint8		ka[9],
				kb[9];

	BfHeaderKey(a, ka);
	BfHeaderKey(b, kb);
	return BfCompareKeyed(ka, kb, sizeof(ka),
						  (const char *) a + BF_HEADER_SIZE, VARSIZE(a) - BF_HEADER_SIZE,
						  (const char *) b + BF_HEADER_SIZE, VARSIZE(b) - BF_HEADER_SIZE);
}

/* hash op matching BfCompareAfterHeader */
uint64
BfHashAfterHeader(const void *v, uint64 seed)
{
	uint8		k[9];

	BfHeaderKey(v, k);
	return BfHashKeyed(k, sizeof(k), (const char *) v + BF_HEADER_SIZE,
					   VARSIZE(v) - BF_HEADER_SIZE, seed);
}

/* XXH3 of parameter bytes followed by payload bytes, as BfCompareKeyed sees them */
uint64
BfHashKeyed(const void *p, Size plen, const void *payload, Size len, uint64 seed)
{
	XXH3_state_t st;

	XXH3_INITSTATE(&st);
	XXH3_64bits_reset_withSeed(&st, seed);
	XXH3_64bits_update(&st, p, plen);
	XXH3_64bits_update(&st, payload, len);
	return XXH3_64bits_digest(&st);
}

/*
 * The first state of an element aggregate, sized by its capacity and fpr
 * arguments (or the defaults), in the current context: the executor copies a
 * new state into its own.  Out of line: the per-row path stays small.
 */
pg_noinline struct varlena *
BfAggNewState(FunctionCallInfo fcinfo, const BfTypeOps *ops)
{
	int64		capacity;
	double		fpr;

	BfAggParams(fcinfo, PG_NARGS() > 2 ? 2 : -1, PG_NARGS() > 3 ? 3 : -1, &capacity, &fpr);
	return ops->new_sized(capacity, fpr, 0);
}

/*
 * Final function of the element aggregates: the state, unchanged (window
 * aggregates call it repeatedly on a live state), or over no rows an empty
 * filter with the aggregate's parameters (its constant arguments, else the
 * constant defaults).
 */
Datum
BfAggFinalGeneric(FunctionCallInfo fcinfo, const BfTypeOps *ops)
{
	if (!PG_ARGISNULL(0))
		PG_RETURN_DATUM(PG_GETARG_DATUM(0));
	PG_RETURN_POINTER(BfAggNewState(fcinfo, ops));
}

/*
 * Transition and combine function of the filter-combining aggregates
 * (union, bloom's intersection): NULL inputs are skipped, the first filter
 * becomes the state (a checked copy), later ones are merged into it.
 */
Datum
BfMergeTransGeneric(FunctionCallInfo fcinfo, const BfTypeOps *ops, BfMergeFn merge)
{
	struct varlena *state;
	struct varlena *b;

	if (PG_ARGISNULL(1))
	{
		if (PG_ARGISNULL(0))
			PG_RETURN_NULL();
		PG_RETURN_DATUM(PG_GETARG_DATUM(0));
	}
	if (PG_ARGISNULL(0))
	{
		state = BfStateCopyIn(fcinfo, 1);
		ops->check(state, VARSIZE(state));
		PG_RETURN_POINTER(state);
	}
	state = BfStateForUpdate(fcinfo, 0);
	if (!BfInAggregate(fcinfo))
		ops->check(state, VARSIZE(state));
	b = BfGetFilterArg(fcinfo, 1, ops);
	ops->check_compatible(state, b);
	PG_RETURN_POINTER(merge(state, b));
}
