/*
 * bloomfilter.c
 *		Module initialization and the checks the four filter types share:
 *		errors for corrupt values and bad parameters, the common header's
 *		initialization and validation, and the info-record builder.  The other
 *		shared jobs have their own files: bfio.c (text and binary I/O),
 *		bfcache.c (element hasher, detoast-once cache, probe views), bfagg.c
 *		(aggregate plumbing), bfgeneric.c (the generic SQL entry points) and
 *		hash.c (canonical element hashing).
 */
#include "bloomfilter.h"

#include <math.h>

#include "access/htup_details.h"
#include "funcapi.h"
#include "utils/guc.h"

#if PG_VERSION_NUM >= 180000
PG_MODULE_MAGIC_EXT(.name = "bloomfilter",.version = BLOOMFILTER_VERSION);
#else
PG_MODULE_MAGIC;
#endif

void		_PG_init(void);

/*
 * Module load: reserve the "bloomfilter." prefix (no settings but one in
 * test builds: a stale SET of the removed 1.0 settings is an
 * error rather than a silently ignored placeholder) and register the index
 * AM's reloptions
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

/*
 * Raise 22P02 if the parameters of a text value (what) describe a filter of
 * more bytes than any filter can have: malformed input, checked before the
 * payload is decoded (the input functions' counterpart of BfCheckSize)
 */
void
BfCheckInputSize(const char *typname, const char *what, double bytes)
{
	if (!(bytes <= (double) BF_MAX_DATUM_SIZE))
		BfCorrupt(typname, "%s describe a value of %.0f bytes, more than the maximum of %zu.",
				  what, bytes, BF_MAX_DATUM_SIZE);
}

/*
 * Raise 54000 if a filter of this many bytes would exceed the varlena limit,
 * with the given detail (or none) and hint (or the constructors' one)
 */
void
BfCheckSizeHint(const char *typname, double bytes, const char *detail, const char *hint)
{
	if (!(bytes <= (double) BF_MAX_DATUM_SIZE))
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("%s would need %.0f bytes, more than the maximum of %zu",
						typname, bytes, BF_MAX_DATUM_SIZE),
				 detail ? errdetail_internal("%s", detail) : 0,
				 hint ? errhint("%s", hint) :
				 errhint("Ask for a smaller capacity or a larger false-positive rate, or split the data over several filters.")));
}

/* The same for a constructor's request */
void
BfCheckSize(const char *typname, double bytes)
{
	BfCheckSizeHint(typname, bytes, NULL, NULL);
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
