/*
 * hash.c
 *		Canonical element hashing shared by every filter type and the index.
 *
 * An element becomes canonical bytes (equal SQL values give equal bytes, also
 * across types that compare equal: int2/int4/int8, text/varchar,
 * float4/float8, 1.0/1.00 numeric, an integer as int, numeric or float, a date
 * and its midnight's timestamp), and those bytes are hashed with XXH3-64
 * seeded by the filter's seed.  This mapping is part of the storage format;
 * doc/design.md documents it with golden vectors.  Never change it for an
 * existing format version.
 */
#include "bloomfilter.h"

#include <math.h>

#include "catalog/pg_collation.h"
#include "common/int128.h"
#include "access/htup_details.h"
#include "catalog/pg_type.h"
#include "mb/pg_wchar.h"
#include "utils/typcache.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/date.h"
#include "utils/float.h"
#include "utils/formatting.h"
#include "utils/jsonb.h"
#include "utils/lsyscache.h"
#include "utils/numeric.h"
#include "utils/pg_locale.h"
#include "utils/rangetypes.h"
#include "utils/syscache.h"
#if PG_VERSION_NUM >= 140000
#include "utils/multirangetypes.h"
#endif
#include "utils/timestamp.h"
#include "utils/uuid.h"

PG_FUNCTION_INFO_V1(bloomfilter_hash);
PG_FUNCTION_INFO_V1(bloomfilter_positions);

/* XXH3-64 of a byte string with a seed */
uint64
BfHashBytes(const void *data, Size len, uint64 seed)
{
	return (uint64) XXH3_64bits_withSeed(data, len, (XXH64_hash_t) seed);
}

/*
 * Hash a float8 by its value: an integral value within the int64 range hashes
 * as that integer (so 42.0::float8 agrees with 42 and 42::numeric), a larger
 * integral one as its exact decimal digits (the form a numeric of that value
 * hashes as), any other value by its IEEE bits with -0 folded to +0 and every
 * NaN to one NaN.
 */
static uint64
BfHashFloat8(double d, uint64 seed)
{
	uint64		bits;

	if (isnan(d))
		bits = UINT64CONST(0x7ff8000000000000);
	else if (!isinf(d) && d == floor(d))
	{
		char		digits[400];	/* DBL_MAX has 309 digits */
		int			len;

		/* [-2^63, 2^63): the range in which the cast to int64 is exact */
		if (d >= -9223372036854775808.0 && d < 9223372036854775808.0)
			return BfHashInt64((int64) d, seed);
		len = snprintf(digits, sizeof(digits), "%.0f", d);
		Assert(len > 0 && len < (int) sizeof(digits));
		return BfHashBytes(digits, len, seed);
	}
	else
		memcpy(&bits, &d, sizeof(bits));
	bits = BfPut64(bits);
	return (uint64) XXH3_64bits_withSeed(&bits, sizeof(bits), (XXH64_hash_t) seed);
}

/*
 * Parse the decimal text of an integer (an optional '-' and digits) into an
 * int64; false if it has any other character or does not fit.
 */
static bool
BfDecimalToInt64(const char *s, size_t len, int64 *result)
{
	bool		neg = false;
	uint64		acc = 0;
	size_t		i = 0;

	if (len > 0 && s[0] == '-')
	{
		neg = true;
		i = 1;
	}
	if (i == len || len - i > 19)
		return false;
	for (; i < len; i++)
	{
		if (s[i] < '0' || s[i] > '9')
			return false;
		acc = acc * 10 + (uint64) (s[i] - '0');	/* 19 digits cannot wrap */
	}
	if (neg ? acc > (uint64) PG_INT64_MAX + 1 : acc > (uint64) PG_INT64_MAX)
		return false;
	*result = neg ? (int64) (0 - acc) : (int64) acc;
	return true;
}

/*
 * Hash a numeric by its value.  An integer within the int64 range hashes as
 * that integer (so 42::numeric agrees with 42 and 42.0::float8), NaN and the
 * infinities as the float8 ones do; any other value by its normalized decimal
 * text: numeric_out's output without trailing fractional zeros and without a
 * trailing point, so 1.50 and 1.5 agree.
 */
static uint64
BfHashNumeric(Datum value, uint64 seed)
{
	char	   *str = DatumGetCString(DirectFunctionCall1(numeric_out, value));
	char	   *s = str;
	size_t		len = strlen(s);
	int64		i64;
	uint64		h;

	if (strchr(s, '.') != NULL)
	{
		while (len > 0 && s[len - 1] == '0')
			len--;
		if (len > 0 && s[len - 1] == '.')
			len--;
	}
	if (len == 2 && s[0] == '-' && s[1] == '0')
	{
		s++;
		len = 1;
	}
	if (BfDecimalToInt64(s, len, &i64))
		h = BfHashInt64(i64, seed);
	else if (strcmp(s, "NaN") == 0)
		h = BfHashFloat8(get_float8_nan(), seed);
	else if (strcmp(s, "Infinity") == 0)
		h = BfHashFloat8(get_float8_infinity(), seed);
	else if (strcmp(s, "-Infinity") == 0)
		h = BfHashFloat8(-get_float8_infinity(), seed);
	else
		h = BfHashBytes(s, len, seed);
	pfree(str);
	return h;
}

/*
 * Hash a date as the timestamp of its midnight (so a date agrees with the
 * timestamp that = calls equal to it); infinities as the timestamp ones, and
 * a date past the timestamp range (no timestamp equals it) by its day number.
 * Computed as date2timestamp does, without depending on its name.
 */
static uint64
BfHashDate(DateADT d, uint64 seed)
{
	if (DATE_IS_NOBEGIN(d))
		return BfHashInt64(DT_NOBEGIN, seed);
	if (DATE_IS_NOEND(d))
		return BfHashInt64(DT_NOEND, seed);
	/* both ranges begin at Julian day 0: only the end can pass */
	if (d >= TIMESTAMP_END_JULIAN - POSTGRES_EPOCH_JDATE)
		return BfHashInt64((int64) d, seed);
	return BfHashInt64((int64) d * USECS_PER_DAY, seed);
}

/*
 * Hash an interval by the span interval equality compares: months count 30
 * days and days 24 hours, as a signed 128-bit little-endian microsecond count.
 */
static uint64
BfHashInterval(const Interval *iv, uint64 seed)
{
	int64		dayfraction = iv->time % USECS_PER_DAY;
	int64		days = iv->time / USECS_PER_DAY + (int64) iv->month * 30 + iv->day;
	uint8		buf[16];
	uint64		lo,
				hi;

	/* span = days * USECS_PER_DAY + dayfraction, computed in 128 bits */
	INT128		span = int64_to_int128(dayfraction);

	int128_add_int64_mul_int64(&span, days, USECS_PER_DAY);
#if USE_NATIVE_INT128
	lo = (uint64) span;
	hi = (uint64) (span >> 64);
#else
	lo = span.lo;
	hi = (uint64) span.hi;
#endif
	lo = BfPut64(lo);
	hi = BfPut64(hi);
	memcpy(buf, &lo, 8);
	memcpy(buf + 8, &hi, 8);
	return BfHashBytes(buf, sizeof(buf), seed);
}

/*
 * The send output of a value as if the client encoding were the database
 * encoding: send functions of text-bearing types (enum, jsonb, xml, citext,
 * ...) convert to the client encoding, and a hash must not depend on the
 * session.
 */
static bytea *
BfSendInServerEncoding(BfHasher *h, Datum value)
{
	int			client = pg_get_client_encoding();
	int			server = GetDatabaseEncoding();
	bytea	   *b;

	if (client == server || server == PG_SQL_ASCII)
		return SendFunctionCall(&h->sendfn, value);
	SetClientEncoding(server);
	PG_TRY();
	{
		b = SendFunctionCall(&h->sendfn, value);
	}
	PG_FINALLY();
	{
		SetClientEncoding(client);
	}
	PG_END_TRY();
	return b;
}

/*
 * The hasher's scratch buffer, emptied: composite values are serialized into
 * it, and it is kept (in the hasher's memory context) for the next value
 * instead of a palloc per value.  A hasher never hashes two values at once:
 * the parts of a value go to the sub-hashers.
 */
static StringInfo
BfHasherScratch(BfHasher *h)
{
	if (h->scratch.data == NULL)
	{
		MemoryContext old = MemoryContextSwitchTo(h->mcxt);

		initStringInfo(&h->scratch);
		MemoryContextSwitchTo(old);
	}
	else
		resetStringInfo(&h->scratch);
	return &h->scratch;
}

/* Append a uint32 in little-endian order */
static inline void
BfAppendUInt32(StringInfo buf, uint32 v)
{
	uint32		le = BfPut32(v);

	appendBinaryStringInfo(buf, (char *) &le, 4);
}

/* Append a column's or element's presence and canonical hash (seed 0) */
static inline void
BfAppendPart(StringInfo buf, BfHasher *h, Datum value, bool isnull)
{
	uint8		flag = isnull ? 0 : 1;

	appendBinaryStringInfo(buf, (char *) &flag, 1);
	if (!isnull)
	{
		uint64		le = BfPut64(BfHashDatum(h, value, 0));

		appendBinaryStringInfo(buf, (char *) &le, 8);
	}
}

/*
 * Hash a composite value column by column: for each column that is not
 * dropped, a byte 0 (null) or 1 followed by the column's canonical hash
 * (seed 0, 8 bytes LE); the concatenation is hashed with the seed.  Equal
 * records (record_eq compares columns with their own equality) hash alike,
 * and nothing depends on type OIDs, which change across dump and restore.
 */
static uint64
BfHashRecord(BfHasher *h, HeapTupleHeader rec, uint64 seed)
{
	Oid			typid = HeapTupleHeaderGetTypeId(rec);
	int32		typmod = HeapTupleHeaderGetTypMod(rec);
	TupleDesc	tupdesc;
	HeapTupleData tuple;
	StringInfo	buf;
	int			i;
	uint64		r;

	tupdesc = lookup_rowtype_tupdesc(typid, typmod);
	if (h->cols == NULL || h->rectypid != typid || h->rectypmod != typmod ||
		h->ncols != tupdesc->natts)
	{
		BfHasher  **cols = MemoryContextAllocZero(h->mcxt, sizeof(BfHasher *) * Max(tupdesc->natts, 1));

		for (i = 0; i < tupdesc->natts; i++)
		{
			Form_pg_attribute att = TupleDescAttr(tupdesc, i);

			if (att->attisdropped)
				continue;
			cols[i] = MemoryContextAllocZero(h->mcxt, sizeof(BfHasher));
			BfHasherInit(cols[i], att->atttypid, att->attcollation, h->mcxt);
		}
		h->cols = cols;
		h->ncols = tupdesc->natts;
		h->rectypid = typid;
		h->rectypmod = typmod;
	}

	tuple.t_len = HeapTupleHeaderGetDatumLength(rec);
	ItemPointerSetInvalid(&tuple.t_self);
	tuple.t_tableOid = InvalidOid;
	tuple.t_data = rec;

	buf = BfHasherScratch(h);
	appendStringInfoChar(buf, 'R');
	for (i = 0; i < tupdesc->natts; i++)
	{
		bool		isnull;
		Datum		v;

		if (TupleDescAttr(tupdesc, i)->attisdropped)
			continue;
		v = heap_getattr(&tuple, i + 1, tupdesc, &isnull);
		BfAppendPart(buf, h->cols[i], v, isnull);
	}
	ReleaseTupleDesc(tupdesc);
	r = BfHashBytes(buf->data, buf->len, seed);
	return r;
}

/*
 * Hash an array by its shape and elements: 'A', ndims (int32 LE), each
 * dimension's length and lower bound (int32 LE), then per element a byte 0
 * (null) or 1 and the element's canonical hash (seed 0, 8 bytes LE), in
 * storage order.  array_eq compares exactly these.
 */
static uint64
BfHashArray(BfHasher *h, ArrayType *arr, uint64 seed)
{
	int			ndims = ARR_NDIM(arr);
	int		   *dims = ARR_DIMS(arr);
	int		   *lbs = ARR_LBOUND(arr);
	StringInfo	buf;
	ArrayIterator it;
	Datum		v;
	bool		isnull;
	int			i;
	uint64		r;

	buf = BfHasherScratch(h);
	appendStringInfoChar(buf, 'A');
	BfAppendUInt32(buf, (uint32) ndims);
	for (i = 0; i < ndims; i++)
	{
		BfAppendUInt32(buf, (uint32) dims[i]);
		BfAppendUInt32(buf, (uint32) lbs[i]);
	}
	it = array_create_iterator(arr, 0, NULL);
	while (array_iterate(it, &v, &isnull))
		BfAppendPart(buf, h->elem, v, isnull);
	array_free_iterator(it);
	r = BfHashBytes(buf->data, buf->len, seed);
	return r;
}

/* Append a length (uint32 LE) and that many bytes */
static void
BfAppendCounted(StringInfo buf, const char *data, uint32 len)
{
	BfAppendUInt32(buf, len);
	appendBinaryStringInfo(buf, data, len);
}

/*
 * Hash a jsonb by what jsonb equality compares, walking its tokens: 'J',
 * then per token: an array 'a', its raw-scalar flag (0/1) and element count
 * (uint32 LE), ... 'A'; an object 'o', its pair count (uint32 LE), ... 'O'
 * (jsonb stores keys sorted and unique, so equal objects walk alike); a key
 * 'k' or a string 's' with its length (uint32 LE) and bytes (server
 * encoding); a number 'd' and its canonical numeric hash (seed 0, 8 bytes
 * LE), so {"a": 1.0} = {"a": 1.00} agree; 't', 'f', 'n' for true, false,
 * null.
 */
static uint64
BfHashJsonb(BfHasher *h, Jsonb *jb, uint64 seed)
{
	JsonbIterator *it = JsonbIteratorInit(&jb->root);
	JsonbIteratorToken tok;
	JsonbValue	v;
	StringInfo	buf;
	uint64		res;

	buf = BfHasherScratch(h);
	appendStringInfoChar(buf, 'J');
	while ((tok = JsonbIteratorNext(&it, &v, false)) != WJB_DONE)
	{
		switch (tok)
		{
			case WJB_BEGIN_ARRAY:
				appendStringInfoChar(buf, 'a');
				appendStringInfoChar(buf, v.val.array.rawScalar ? 1 : 0);
				BfAppendUInt32(buf, (uint32) v.val.array.nElems);
				break;
			case WJB_END_ARRAY:
				appendStringInfoChar(buf, 'A');
				break;
			case WJB_BEGIN_OBJECT:
				appendStringInfoChar(buf, 'o');
				BfAppendUInt32(buf, (uint32) v.val.object.nPairs);
				break;
			case WJB_END_OBJECT:
				appendStringInfoChar(buf, 'O');
				break;
			case WJB_KEY:
				appendStringInfoChar(buf, 'k');
				BfAppendCounted(buf, v.val.string.val, (uint32) v.val.string.len);
				break;
			case WJB_VALUE:
			case WJB_ELEM:
				switch (v.type)
				{
					case jbvNull:
						appendStringInfoChar(buf, 'n');
						break;
					case jbvBool:
						appendStringInfoChar(buf, v.val.boolean ? 't' : 'f');
						break;
					case jbvString:
						appendStringInfoChar(buf, 's');
						BfAppendCounted(buf, v.val.string.val, (uint32) v.val.string.len);
						break;
					case jbvNumeric:
						{
							uint64		le = BfPut64(BfHashNumeric(NumericGetDatum(v.val.numeric), 0));

							appendStringInfoChar(buf, 'd');
							appendBinaryStringInfo(buf, (char *) &le, 8);
						}
						break;
					default:
						elog(ERROR, "unexpected jsonb value type %d", (int) v.type);
				}
				break;
			default:
				elog(ERROR, "unexpected jsonb token %d", (int) tok);
		}
	}
	res = BfHashBytes(buf->data, buf->len, seed);
	return res;
}

/*
 * Hash a range by what range_eq compares: 'G', a flags byte (1 empty, 2 lower
 * bound inclusive, 4 upper inclusive, 8 lower infinite, 16 upper infinite),
 * then each finite bound as a byte 1 and its canonical hash (the subtype's,
 * seed 0, 8 bytes LE).  Equal ranges whose bounds differ in representation
 * (numrange(1.0, 2) = numrange(1.00, 2)) hash alike.
 */
static uint64
BfHashRange(BfHasher *h, RangeType *r, uint64 seed)
{
	RangeBound	lower,
				upper;
	bool		empty;
	uint8		flags;
	StringInfo	buf;
	uint64		res;

	range_deserialize(h->typcache, r, &lower, &upper, &empty);
	if (empty)
		flags = 1;
	else
		flags = (lower.inclusive ? 2 : 0) | (upper.inclusive ? 4 : 0) |
			(lower.infinite ? 8 : 0) | (upper.infinite ? 16 : 0);
	buf = BfHasherScratch(h);
	appendStringInfoChar(buf, 'G');
	appendBinaryStringInfo(buf, (char *) &flags, 1);
	if (!empty && !lower.infinite)
		BfAppendPart(buf, h->elem, lower.val, false);
	if (!empty && !upper.infinite)
		BfAppendPart(buf, h->elem, upper.val, false);
	res = BfHashBytes(buf->data, buf->len, seed);
	return res;
}

#if PG_VERSION_NUM >= 140000
/*
 * Hash a multirange by its ranges (stored normalized: sorted, merged): 'M',
 * their count (uint32 LE), then per range a byte 1 and its canonical hash
 * (seed 0, 8 bytes LE).
 */
static uint64
BfHashMultirange(BfHasher *h, MultirangeType *mr, uint64 seed)
{
	int32		count;
	RangeType **ranges;
	StringInfo	buf;
	int32		i;
	uint64		res;

	multirange_deserialize(h->typcache->rngtype, mr, &count, &ranges);
	buf = BfHasherScratch(h);
	appendStringInfoChar(buf, 'M');
	BfAppendUInt32(buf, (uint32) count);
	for (i = 0; i < count; i++)
		BfAppendPart(buf, h->elem, RangeTypePGetDatum(ranges[i]), false);
	res = BfHashBytes(buf->data, buf->len, seed);
	return res;
}
#endif

/*
 * Whether a type is the citext extension's (a case-insensitive text whose
 * equality compares lower-cased strings): its input function is citextin.
 */
static bool
BfTypeIsCitext(Oid typid)
{
	Oid			typinput,
				typioparam;
	char	   *name;
	bool		result;

	getTypeInputInfo(typid, &typinput, &typioparam);
	name = get_func_name(typinput);
	result = name != NULL && strcmp(name, "citextin") == 0;
	if (name)
		pfree(name);
	return result;
}

/*
 * Set up a hasher for a type.  Text types under a nondeterministic collation
 * are refused: equal strings would not give equal bytes.
 */
void
BfHasherInit(BfHasher *h, Oid typid, Oid collation, MemoryContext mcxt)
{
	Oid			base = getBaseType(typid);

	memset(h, 0, sizeof(*h));
	h->mcxt = mcxt;
	h->typid = typid;
	h->basetypid = base;
	get_typlenbyval(base, &h->typlen, &h->typbyval);

	switch (base)
	{
		case INT2OID:
			h->canon = BF_CANON_INT2;
			break;
		case INT4OID:
			h->canon = BF_CANON_INT4;
			break;
		case INT8OID:
			h->canon = BF_CANON_INT8;
			break;
		case OIDOID:
			/* the reg* types are oids under another name: = compares them as oids */
		case REGPROCOID:
		case REGPROCEDUREOID:
		case REGOPEROID:
		case REGOPERATOROID:
		case REGCLASSOID:
		case REGTYPEOID:
		case REGCONFIGOID:
		case REGDICTIONARYOID:
		case REGNAMESPACEOID:
		case REGROLEOID:
#if PG_VERSION_NUM >= 130000
		case REGCOLLATIONOID:
#endif
			h->canon = BF_CANON_OID;
			break;
		case TEXTOID:
		case VARCHAROID:
			h->canon = BF_CANON_TEXT;
			break;
		case NAMEOID:
			h->canon = BF_CANON_NAME;
			break;
		case BPCHAROID:
			h->canon = BF_CANON_BPCHAR;
			break;
		case BYTEAOID:
			h->canon = BF_CANON_BYTEA;
			break;
		case BOOLOID:
			h->canon = BF_CANON_BOOL;
			break;
		case FLOAT4OID:
			h->canon = BF_CANON_FLOAT4;
			break;
		case FLOAT8OID:
			h->canon = BF_CANON_FLOAT8;
			break;
		case NUMERICOID:
			h->canon = BF_CANON_NUMERIC;
			break;
		case UUIDOID:
			h->canon = BF_CANON_UUID;
			break;
		case DATEOID:
			h->canon = BF_CANON_DATE;
			break;
		case TIMESTAMPOID:
		case TIMESTAMPTZOID:
		case TIMEOID:
			h->canon = BF_CANON_INT64TIME;
			break;
		case INTERVALOID:
			h->canon = BF_CANON_INTERVAL;
			break;
		case CHAROID:
			h->canon = BF_CANON_CHAR;
			break;
		default:
			if (type_is_rowtype(base))
			{
				h->canon = BF_CANON_RECORD;
				break;
			}
			if (base == JSONBOID)
			{
				h->canon = BF_CANON_JSONB;
				break;
			}
			if (type_is_range(base))
			{
				h->canon = BF_CANON_RANGE;
				h->typcache = lookup_type_cache(base, TYPECACHE_RANGE_INFO);
				h->elem = MemoryContextAllocZero(mcxt, sizeof(BfHasher));
				BfHasherInit(h->elem, h->typcache->rngelemtype->type_id,
							 h->typcache->rng_collation, mcxt);
				break;
			}
#if PG_VERSION_NUM >= 140000
			if (type_is_multirange(base))
			{
				h->canon = BF_CANON_MULTIRANGE;
				h->typcache = lookup_type_cache(base, TYPECACHE_MULTIRANGE_INFO);
				h->elem = MemoryContextAllocZero(mcxt, sizeof(BfHasher));
				BfHasherInit(h->elem, h->typcache->rngtype->type_id, collation, mcxt);
				break;
			}
#endif
			if (OidIsValid(get_element_type(base)))
			{
				h->canon = BF_CANON_ARRAY;
				h->elemtypid = get_element_type(base);
				get_typlenbyvalalign(h->elemtypid, &h->elemlen, &h->elembyval, &h->elemalign);
				h->elem = MemoryContextAllocZero(mcxt, sizeof(BfHasher));
				BfHasherInit(h->elem, h->elemtypid, collation, mcxt);
				break;
			}
			if (BfTypeIsCitext(base))
			{
				h->canon = BF_CANON_CITEXT;
				break;
			}
			{
				Oid			sendfn;
				bool		isvarlena;
				Oid			sendtype = base == CIDROID ? INETOID : base;
				HeapTuple	tup;
				bool		hassend;

				h->canon = BF_CANON_SEND;
				/* a type without a canonical form must have a send function */
				tup = SearchSysCache1(TYPEOID, ObjectIdGetDatum(sendtype));
				if (!HeapTupleIsValid(tup))
					elog(ERROR, "cache lookup failed for type %u", sendtype);
				hassend = OidIsValid(((Form_pg_type) GETSTRUCT(tup))->typsend);
				ReleaseSysCache(tup);
				if (!hassend)
					ereport(ERROR,
							(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
							 errmsg("type %s cannot be a filter element", format_type_be(typid)),
							 errdetail("A value of a type without a canonical form is hashed by its binary output, and this type has no binary output function."),
							 errhint("Cast the values to a type that has one, such as text: x::text.")));

				/*
				 * cidr is inet with a flag that cidr_send writes and = ignores
				 * (cidr '10.0.0.0/8' = inet '10.0.0.0/8'): hash it as inet.
				 */
				getTypeBinaryOutputInfo(sendtype, &sendfn, &isvarlena);
				fmgr_info_cxt(sendfn, &h->sendfn, mcxt);
			}
			break;
	}

	if (OidIsValid(collation) && type_is_collatable(base) &&
		!get_collation_isdeterministic(collation))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("nondeterministic collations are not supported for filter elements"),
				 errdetail("Strings that are equal under collation \"%s\" can have different bytes, and filters hash bytes.",
						   get_collation_name(collation)),
				 errhint("Add COLLATE \"C\" (or another deterministic collation) to the element expression.")));
}

/* Hash one non-null datum of the hasher's type with the given seed */
uint64
BfHashDatum(BfHasher *h, Datum value, uint64 seed)
{
	switch (h->canon)
	{
		case BF_CANON_INT2:
			return BfHashInt64((int64) DatumGetInt16(value), seed);
		case BF_CANON_INT4:
			return BfHashInt64((int64) DatumGetInt32(value), seed);
		case BF_CANON_INT8:
			return BfHashInt64(DatumGetInt64(value), seed);
		case BF_CANON_OID:
			return BfHashInt64((int64) DatumGetObjectId(value), seed);
		case BF_CANON_DATE:
			return BfHashDate(DatumGetDateADT(value), seed);
		case BF_CANON_INT64TIME:
			return BfHashInt64(DatumGetInt64(value), seed);
		case BF_CANON_BOOL:
			{
				uint8		b = DatumGetBool(value) ? 1 : 0;

				return BfHashBytes(&b, 1, seed);
			}
		case BF_CANON_CHAR:
			{
				char		c = DatumGetChar(value);

				return BfHashBytes(&c, 1, seed);
			}
		case BF_CANON_FLOAT4:
			return BfHashFloat8((double) DatumGetFloat4(value), seed);
		case BF_CANON_FLOAT8:
			return BfHashFloat8(DatumGetFloat8(value), seed);
		case BF_CANON_NUMERIC:
			return BfHashNumeric(value, seed);
		case BF_CANON_UUID:
			return BfHashBytes(DatumGetUUIDP(value)->data, UUID_LEN, seed);
		case BF_CANON_INTERVAL:
			return BfHashInterval(DatumGetIntervalP(value), seed);
		case BF_CANON_NAME:
			{
				const char *s = NameStr(*DatumGetName(value));

				return BfHashBytes(s, strnlen(s, NAMEDATALEN), seed);
			}
		case BF_CANON_TEXT:
		case BF_CANON_BYTEA:
			{
				struct varlena *v = PG_DETOAST_DATUM_PACKED(value);
				uint64		r = BfHashBytes(VARDATA_ANY(v), VARSIZE_ANY_EXHDR(v), seed);

				if ((Pointer) v != DatumGetPointer(value))
					pfree(v);
				return r;
			}
		case BF_CANON_CITEXT:
			{
				/* what citext's own = and hash compare: lower() by the default collation */
				struct varlena *v = PG_DETOAST_DATUM_PACKED(value);
				char	   *lower = str_tolower(VARDATA_ANY(v), VARSIZE_ANY_EXHDR(v), DEFAULT_COLLATION_OID);
				uint64		r = BfHashBytes(lower, strlen(lower), seed);

				pfree(lower);
				if ((Pointer) v != DatumGetPointer(value))
					pfree(v);
				return r;
			}
		case BF_CANON_BPCHAR:
			{
				struct varlena *v = PG_DETOAST_DATUM_PACKED(value);
				const char *s = VARDATA_ANY(v);
				Size		len = VARSIZE_ANY_EXHDR(v);
				uint64		r;

				while (len > 0 && s[len - 1] == ' ')
					len--;
				r = BfHashBytes(s, len, seed);
				if ((Pointer) v != DatumGetPointer(value))
					pfree(v);
				return r;
			}
		case BF_CANON_RECORD:
			return BfHashRecord(h, DatumGetHeapTupleHeader(value), seed);
		case BF_CANON_ARRAY:
			return BfHashArray(h, DatumGetArrayTypeP(value), seed);
		case BF_CANON_RANGE:
			return BfHashRange(h, DatumGetRangeTypeP(value), seed);
		case BF_CANON_JSONB:
			{
				Jsonb	   *jb = DatumGetJsonbP(value);
				uint64		r = BfHashJsonb(h, jb, seed);

				if ((Pointer) jb != DatumGetPointer(value))
					pfree(jb);
				return r;
			}
		case BF_CANON_MULTIRANGE:
#if PG_VERSION_NUM >= 140000
			return BfHashMultirange(h, DatumGetMultirangeTypeP(value), seed);
#else
			break;
#endif
		case BF_CANON_SEND:
			{
				bytea	   *b = BfSendInServerEncoding(h, value);
				uint64		r = BfHashBytes(VARDATA(b), VARSIZE(b) - VARHDRSZ, seed);

				pfree(b);
				return r;
			}
	}
	pg_unreachable();
}

/*
 * bloomfilter_hash(anyelement, seed bigint DEFAULT 0) RETURNS bigint
 *		The 64-bit canonical hash of a value, for checking other
 *		implementations against this one.
 */
Datum
bloomfilter_hash(PG_FUNCTION_ARGS)
{
	BfHasher   *h = BfGetHasher(fcinfo, 0);
	int64		seed = PG_GETARG_INT64(1);

	PG_RETURN_INT64((int64) BfHashDatum(h, PG_GETARG_DATUM(0), (uint64) seed));
}

/*
 * bloomfilter_positions(anyelement, m bigint, k integer, seed bigint DEFAULT 0)
 *		RETURNS bigint[]
 *		The k bit positions (0-based, in probe order) of a value in a
 *		Bloom-family filter of m bits: golden vectors for other clients.
 */
Datum
bloomfilter_positions(PG_FUNCTION_ARGS)
{
	BfHasher   *h = BfGetHasher(fcinfo, 0);
	int64		m = PG_GETARG_INT64(1);
	int32		k = PG_GETARG_INT32(2);
	uint64		seed = (uint64) PG_GETARG_INT64(3);
	BfPositions p;
	Datum	   *elems;
	int			i;

	if (m < 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("number of bits m must be positive"),
				 errhint("Give the m of the filter, as bloom_info shows it.")));
	if (k < 1 || k > 64)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("number of hash functions k must be between 1 and 64"),
				 errhint("Give the k of the filter, as bloom_info shows it.")));
	elems = palloc(sizeof(Datum) * k);
	BfPositionsInit(&p, BfHashDatum(h, PG_GETARG_DATUM(0), seed));
	for (i = 0; i < k; i++)
		elems[i] = Int64GetDatum((int64) BfPositionsNext(&p, (uint64) m));
	PG_RETURN_ARRAYTYPE_P(construct_array(elems, k, INT8OID, 8, FLOAT8PASSBYVAL, TYPALIGN_DOUBLE));
}
