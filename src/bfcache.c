/*
 * bfcache.c
 *		The per-call-site cache the four filter types share, kept in
 *		fn_extra: the element hasher of the call site's argument type, and
 *		the filters of its recent probes, detoasted once (or read through
 *		TOAST slices while that is cheaper), with the probe views the types
 *		build of filters probed again and again.
 */
#include "bloomfilter.h"

#include "access/detoast.h"
#include "miscadmin.h"
#include "utils/lsyscache.h"

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
	/* short header or in-memory expanded: an ordinary detoast (ours: read in place) */
	ref->full = BfDetoastForRead(d);
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
