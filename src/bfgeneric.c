/*
 * bfgeneric.c
 *		The generic SQL entry points over a type's BfTypeOps (bloomfilter.h):
 *		text and binary input and output, the empty constructor, adding and
 *		removing elements, the combining operators, comparison and hashing
 *		of filter values, so that each type's SQL function is a one-line
 *		wrapper.  The aggregate entry points are in bfagg.c.
 */
#include "bloomfilter.h"

#include "utils/array.h"

/* The filter argument argno, detoasted (or read in place: BfDetoastForRead) and checked; read-only */
struct varlena *
BfGetFilterArg(FunctionCallInfo fcinfo, int argno, const BfTypeOps *ops)
{
	struct varlena *v = BfDetoastForRead(PG_GETARG_DATUM(argno));

	ops->check(v, VARSIZE(v));
	return v;
}

/*
 * <type>_in(cstring): the common text fields, the type's keys (text_read),
 * then the payload, whose length is checked before the filter is allocated
 * and which is decoded into it.
 */
Datum
BfInGeneric(FunctionCallInfo fcinfo, const BfTypeOps *ops)
{
	BfTextFields f;
	char	   *hdr = palloc0(ops->headsize);
	void	   *extra = NULL;
	Size		len;
	struct varlena *v;

	BfTextParse(ops->name, PG_GETARG_CSTRING(0), &f);
	len = ops->text_read(&f, hdr, &extra);
	BfTextCheckPayload(&f, len);
	BfTextFinish(&f);
	v = palloc(ops->headsize + len);
	memcpy(v, hdr, ops->headsize);
	BfInitHeader((BfHeader *) v, ops->headsize + len, ops->kind, f.seed);
	((BfHeader *) v)->ninserts = BfPut64(f.ninserts);
	BfTextGetPayload(&f, (char *) v + ops->headsize, len);
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
	BfTextPayload(&buf, (const char *) v + ops->headsize, VARSIZE(v) - ops->headsize);
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
