/*
 * bfagg.c
 *		Aggregate plumbing shared by the four filter types: access to the
 *		transition state (the filter itself, updated in place inside an
 *		aggregate, copied outside one), the capacity and fpr of an aggregate
 *		(from its arguments, also in parallel and generic plans), and the
 *		first state, final function and filter-combining transition function
 *		over a type's BfTypeOps, and states kept as expanded objects.
 */
#include "bloomfilter.h"

#include "access/htup_details.h"
#include "catalog/pg_aggregate.h"
#include "executor/executor.h"
#include "nodes/execnodes.h"
#include "nodes/primnodes.h"
#include "optimizer/clauses.h"
#include "optimizer/optimizer.h"
#include "utils/syscache.h"

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
 * The node below plan whose output plan's OUTER_VAR Vars refer to: its outer
 * plan, or for an Append or MergeAppend (partitionwise aggregation: a
 * Partial Aggregate per partition under a Finalize Aggregate) its first
 * child, whose target list is laid out as the node's; NULL if none
 */
static Plan *
BfAggOuterChild(Plan *plan)
{
	if (plan == NULL)
		return NULL;
	if (IsA(plan, Append))
		return ((Append *) plan)->appendplans != NIL ?
			(Plan *) linitial(((Append *) plan)->appendplans) : NULL;
	if (IsA(plan, MergeAppend))
		return ((MergeAppend *) plan)->mergeplans != NIL ?
			(Plan *) linitial(((MergeAppend *) plan)->mergeplans) : NULL;
	return outerPlan(plan);
}

/*
 * The expression of argument argindex (0-based, the element being 0) of the
 * aggregate being finalized, or NULL.  In a Finalize Aggregate the Aggref's
 * only argument refers to the partial aggregate's output: follow it down the
 * plan (Gather, Sort, Append of per-partition partial aggregates, ...) to the
 * partial Aggref, whose arguments are intact.
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

		plan = BfAggOuterChild(plan);
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

static bool BfAggSplitIs(FunctionCallInfo fcinfo, int op);

/* Whether argument argindex of the aggregate is a NULL constant (the default) */
static bool
BfAggArgIsNullConst(FunctionCallInfo fcinfo, int argindex)
{
	Expr	   *expr = BfAggArgExpr(fcinfo, argindex);

	return expr != NULL && IsA(expr, Const) && ((Const *) expr)->constisnull;
}

/*
 * Capacity and fpr for an aggregate: from the call's arguments when given
 * (transition functions), else, in a final function over no rows, from the
 * aggregate's arguments when they are the same for the whole query (also in
 * parallel plans and generic plans), else the constant defaults.  capacity_arg and
 * fpr_arg are the argument numbers in the call (< 0: the aggregate has no
 * such argument); the aggregate's own argument index is one less (the state
 * comes first).  In a window frame with no rows the defaults are used.
 * Returns whether they are the aggregate's own (false: an argument that
 * varies, whose defaults stand in).
 */
bool
BfAggParams(FunctionCallInfo fcinfo, int capacity_arg, int fpr_arg,
			int64 *capacity, double *fpr)
{
	Datum		v;
	bool		known = true;

	*capacity = BF_DEFAULT_CAPACITY;
	*fpr = BF_DEFAULT_FPR;

	if (capacity_arg >= 0 && capacity_arg < PG_NARGS() && !PG_ARGISNULL(capacity_arg))
		*capacity = PG_GETARG_INT64(capacity_arg);
	else if (capacity_arg >= 1 && BfAggConstArg(fcinfo, capacity_arg - 1, &v))
		*capacity = DatumGetInt64(v);
	else if (capacity_arg >= 1)
		known &= BfAggArgIsNullConst(fcinfo, capacity_arg - 1);
	if (fpr_arg >= 0 && fpr_arg < PG_NARGS() && !PG_ARGISNULL(fpr_arg))
		*fpr = PG_GETARG_FLOAT8(fpr_arg);
	else if (fpr_arg >= 1 && BfAggConstArg(fcinfo, fpr_arg - 1, &v))
		*fpr = DatumGetFloat8(v);
	else if (fpr_arg >= 1)
		known &= BfAggArgIsNullConst(fcinfo, fpr_arg - 1);
	BfCheckCapacityFpr(*capacity, *fpr);
	return known;
}

/* ---------------------------------------------------------------------
 * Expanded aggregate states (bloomfilter.h, BfExpandedState)
 * ---------------------------------------------------------------------
 */

/* The plain state of es, laid out from its parts first if it is kept in parts */
struct varlena *
BfExpandedFlat(BfExpandedState *es)
{
	if (es->flat == NULL)
		es->flat = es->build(es);
	return es->flat;
}

/* get_flat_size method: the bytes of the plain state */
static Size
BfExpandedFlatSize(ExpandedObjectHeader *eohptr)
{
	return VARSIZE(BfExpandedFlat((BfExpandedState *) eohptr));
}

/* flatten_into method: a copy of the plain state */
static void
BfExpandedFlattenInto(ExpandedObjectHeader *eohptr, void *result, Size allocated_size)
{
	const struct varlena *flat = BfExpandedFlat((BfExpandedState *) eohptr);

	Assert(allocated_size == VARSIZE(flat));
	memcpy(result, flat, allocated_size);
}

static const ExpandedObjectMethods BfExpandedMethods = {
	BfExpandedFlatSize,
	BfExpandedFlattenInto
};

/*
 * A new expanded state holding a copy of plain state v, in a memory context
 * of its own under the aggregate context; NULL when the call does not come
 * from a plain aggregate (window aggregates keep plain states)
 */
BfExpandedState *
BfExpandedStateWrap(FunctionCallInfo fcinfo, const struct varlena *v)
{
	BfExpandedState *es = BfExpandedStateNew(fcinfo, sizeof(BfExpandedState));

	if (es == NULL)
		return NULL;
	es->flat = MemoryContextAlloc(es->hdr.eoh_context, VARSIZE(v));
	memcpy(es->flat, v, VARSIZE(v));
	return es;
}

/*
 * A new expanded state of size bytes (a BfExpandedState, or a type's struct
 * that starts with one), zeroed, in a memory context of its own under the
 * aggregate context; NULL outside a plain aggregate
 */
BfExpandedState *
BfExpandedStateNew(FunctionCallInfo fcinfo, Size size)
{
	MemoryContext aggcontext;
	MemoryContext cxt;
	BfExpandedState *es;

	if (AggCheckCallContext(fcinfo, &aggcontext) != AGG_CONTEXT_AGGREGATE)
		return NULL;
	cxt = AllocSetContextCreate(aggcontext, "bloomfilter aggregate state", ALLOCSET_SMALL_SIZES);
	es = MemoryContextAllocZero(cxt, size);
	EOH_init_header(&es->hdr, &BfExpandedMethods, cxt);
	return es;
}

/*
 * The expanded state that datum d points to, if it is one of ours (and, with
 * rw, a read-write pointer: the caller may change it); else NULL
 */
BfExpandedState *
BfExpandedStateOf(Datum d, bool rw)
{
	Pointer		p = DatumGetPointer(d);
	ExpandedObjectHeader *eoh;

	if (!VARATT_IS_EXTERNAL_EXPANDED(p) || (rw && !VARATT_IS_EXTERNAL_EXPANDED_RW(p)))
		return NULL;
	eoh = DatumGetEOHP(d);
	if (eoh->eoh_methods != &BfExpandedMethods)
		return NULL;
	return (BfExpandedState *) eoh;
}

/*
 * A filter datum in plain form, to be read only: an expanded aggregate
 * state of ours is read where it is (on PostgreSQL 16 and later a result
 * of a user's aggregate without a final function, or the leader's own
 * partial state, leaves the Agg node as a read-only pointer to it), any
 * other datum is detoasted
 */
struct varlena *
BfDetoastForRead(Datum d)
{
	BfExpandedState *es = BfExpandedStateOf(d, false);

	if (es != NULL)
		return BfExpandedFlat(es);
	return PG_DETOAST_DATUM(d);
}

/* ---------------------------------------------------------------------
 * Aggregate entry points over a type's BfTypeOps (bloomfilter.h)
 * ---------------------------------------------------------------------
 */

/*
 * Whether an element aggregate has no capacity to size for: an aggregate
 * without the argument, a NULL in the row (transition function), or a NULL
 * constant (final function over no rows, whose extra arguments are all NULL)
 */
static bool
BfAggNoCapacity(FunctionCallInfo fcinfo, int capacity_arg, bool final)
{
	if (capacity_arg < 0)
		return true;
	if (!final)
		return PG_ARGISNULL(capacity_arg);
	return BfAggArgIsNullConst(fcinfo, capacity_arg - 1);
}

/*
 * The first state of an element aggregate, sized by its capacity and fpr
 * arguments (or the defaults; the type's new_unsized op when there is no
 * capacity), in the current context: the executor copies a new state into
 * its own.  final: called by the final function over no rows.  Out of
 * line: the per-row path stays small.
 */
pg_noinline struct varlena *
BfAggNewState(FunctionCallInfo fcinfo, const BfTypeOps *ops, bool final)
{
	int			capacity_arg = PG_NARGS() > 2 ? 2 : -1;
	int64		capacity;
	double		fpr;

	BfAggParams(fcinfo, capacity_arg, PG_NARGS() > 3 ? 3 : -1, &capacity, &fpr);
	if (ops->new_unsized != NULL && BfAggNoCapacity(fcinfo, capacity_arg, final))
		return ops->new_unsized(fpr, 0);
	if (ops->new_partial != NULL && BfAggSplitIs(fcinfo, AGGSPLITOP_SKIPFINAL))
		return ops->new_partial(capacity, fpr, 0);
	return ops->new_sized(capacity, fpr, 0);
}

/*
 * Whether the aggregate calling fcinfo runs with split flag op: a partial
 * aggregate (AGGSPLITOP_SKIPFINAL: its states go to a combine) or one that
 * combines partial states (AGGSPLITOP_COMBINE: a Finalize Aggregate)
 */
static bool
BfAggSplitIs(FunctionCallInfo fcinfo, int op)
{
	Aggref	   *aggref;

	if (!BfInAggregate(fcinfo))
		return false;
	aggref = AggGetAggref(fcinfo);
	return aggref != NULL && (aggref->aggsplit & op) != 0;
}

/* ---------------------------------------------------------------------
 * Deferred adds (bloomfilter.h, BfAhead)
 * ---------------------------------------------------------------------
 */

/* Whether function fn (an OID, possibly invalid) is the C function addr */
static bool
BfAheadIsFunction(Oid fn, PGFunction addr)
{
	FmgrInfo	finfo;

	if (!OidIsValid(fn) || addr == NULL)
		return false;
	fmgr_info(fn, &finfo);
	return finfo.fn_addr == addr;
}

/*
 * Whether the aggregate calling transition function fcinfo is one of ours,
 * whose final function (ops->agg_final) and combine function (none, or
 * ops->agg_combine) handle a ring, with a state of its own: a state shared
 * with another aggregate (same transition function and arguments, any
 * final function) may end up as that aggregate's result, and a user's
 * aggregate over our transition function must get a plain filter.  Once
 * per group, for large states only.
 */
static bool
BfAheadOurAggregate(FunctionCallInfo fcinfo, const BfTypeOps *ops)
{
	Aggref	   *aggref = AggGetAggref(fcinfo);
	HeapTuple	tup;
	Oid			finalfn;
	Oid			combinefn;

	if (aggref == NULL || AggStateIsShared(fcinfo))
		return false;
	tup = SearchSysCache1(AGGFNOID, ObjectIdGetDatum(aggref->aggfnoid));
	if (!HeapTupleIsValid(tup))
		return false;
	finalfn = ((Form_pg_aggregate) GETSTRUCT(tup))->aggfinalfn;
	combinefn = ((Form_pg_aggregate) GETSTRUCT(tup))->aggcombinefn;
	ReleaseSysCache(tup);
	return BfAheadIsFunction(finalfn, ops->agg_final) &&
		(!OidIsValid(combinefn) || BfAheadIsFunction(combinefn, ops->agg_combine));
}

/* ahead_words op of the types whose pending row is the element's hash (cuckoo, quotient) */
uint32
BfAheadWordsHash(const struct varlena *v)
{
	return 1;
}

/* Bytes of a ring of rows of words 64-bit words: header, rows, trailing size */
static Size
BfAheadSize(uint32 words)
{
	return offsetof(BfAhead, rows) + sizeof(uint64) * BF_AHEAD_ROWS * words + sizeof(uint64);
}

/* Put ring ah (size bytes) behind the filter of plain bytes at r, flagged */
static struct varlena *
BfAheadPlace(struct varlena *r, Size plain, const BfAhead *ah, Size size)
{
	BfAhead    *nah;
	uint64		sz = size;

	r = repalloc(r, MAXALIGN(plain) + size);
	memset((char *) r + plain, 0, MAXALIGN(plain) - plain);
	SET_VARSIZE(r, MAXALIGN(plain) + size);
	((BfHeader *) r)->flags |= BF_FLAG_AHEAD;
	nah = (BfAhead *) ((char *) r + MAXALIGN(plain));
	memcpy(nah, ah, size - sizeof(uint64));
	nah->plain = plain;
	nah->size = size;
	memcpy((char *) r + VARSIZE(r) - sizeof(uint64), &sz, sizeof(uint64));
	return r;
}

/*
 * State v of an element aggregate (its first, or a new allocation after a
 * growth), with a ring of pending rows behind the filter when it has at
 * least BF_AHEAD_MIN_BYTES and is the state of a plain (not window)
 * aggregate of ours; else v.
 */
struct varlena *
BfAheadAttach(FunctionCallInfo fcinfo, struct varlena *v, const BfTypeOps *ops)
{
	uint32		words;
	Size		size;
	BfAhead    *ah;

	if (VARSIZE(v) < BF_AHEAD_MIN_BYTES ||
		AggCheckCallContext(fcinfo, NULL) != AGG_CONTEXT_AGGREGATE ||
		!BfAheadOurAggregate(fcinfo, ops))
		return v;
	Assert((((BfHeader *) v)->flags & BF_FLAG_AHEAD) == 0);
	words = ops->ahead_words(v);
	if (words == 0)
		return v;				/* the type defers no adds for this filter */
	Assert(words <= 64);
	size = BfAheadSize(words);
	ah = palloc0(size);
	ah->magic = BF_AHEAD_MAGIC;
	ah->words = words;
	v = BfAheadPlace(v, VARSIZE(v), ah, size);
	pfree(ah);
	return v;
}

/*
 * The state that a filter grown by an add became: r (a new allocation,
 * without a ring) with the ring ah (of the old state) behind it
 */
struct varlena *
BfAheadMoved(struct varlena *r, const BfAhead *ah)
{
	return BfAheadPlace(r, VARSIZE(r), ah, ah->size);
}

/*
 * The ring of state v, checked: its size (the last word) before anything
 * is read through it
 */
static const BfAhead *
BfAheadChecked(const struct varlena *v, const BfTypeOps *ops)
{
	uint64		size;
	const BfAhead *ah;

	if (VARSIZE(v) < ops->headsize + BfAheadSize(1))
		elog(ERROR, "%s aggregate state has a corrupt ring of pending rows", ops->name);
	memcpy(&size, (const char *) v + VARSIZE(v) - sizeof(uint64), sizeof(uint64));
	if (size < BfAheadSize(1) || size > BfAheadSize(64) || size > VARSIZE(v) - ops->headsize)
		elog(ERROR, "%s aggregate state has a corrupt ring of pending rows", ops->name);
	ah = BfAheadOf(v);
	if (ah->magic != BF_AHEAD_MAGIC || ah->words < 1 || ah->words > 64 ||
		ah->size != size || size != BfAheadSize(ah->words) || ah->n > BF_AHEAD_ROWS ||
		ah->next >= BF_AHEAD_ROWS || ah->plain < ops->headsize ||
		MAXALIGN(ah->plain) + size != VARSIZE(v))
		elog(ERROR, "%s aggregate state has a corrupt ring of pending rows", ops->name);
	return ah;
}

/* A copy of the filter of state v (ring ah) without the ring or its rows */
static struct varlena *
BfAheadFilterCopy(const struct varlena *v, const BfAhead *ah)
{
	struct varlena *r = palloc(ah->plain);

	memcpy(r, v, ah->plain);
	SET_VARSIZE(r, ah->plain);
	((BfHeader *) r)->flags &= ~BF_FLAG_AHEAD;
	return r;
}

/*
 * Add the pending rows of ring ah, oldest first, to the plain filter v;
 * returns it (a new allocation if it grew)
 */
static struct varlena *
BfAheadAddPending(struct varlena *v, const BfAhead *ah, const BfTypeOps *ops)
{
	uint32		start = ah->n < BF_AHEAD_ROWS ? 0 : ah->next;
	uint32		i;

	for (i = 0; i < ah->n; i++)
		v = ops->ahead_add(v, ah->rows + (Size) ((start + i) % BF_AHEAD_ROWS) * ah->words);
	return v;
}

/*
 * A plain filter of everything state v holds: a copy of its filter with
 * its pending hashes added (v unchanged); v itself when it has no ring
 */
struct varlena *
BfAheadPlainCopy(const struct varlena *v, const BfTypeOps *ops)
{
	const BfAhead *ah;

	if (BfAheadOf(v) == NULL)
		return (struct varlena *) v;
	ah = BfAheadChecked(v, ops);
	return BfAheadAddPending(BfAheadFilterCopy(v, ah), ah, ops);
}

/*
 * Final function of the element aggregates: the state, unchanged (window
 * aggregates call it repeatedly on a live state), or a copy of it with its
 * pending hashes added when it has a ring (the same filter as adding every
 * row at once), or over no rows an empty filter with the aggregate's parameters (its
 * constant arguments, else the constant defaults; the type's new_unsized op
 * for the aggregate without them).
 */
Datum
BfAggFinalGeneric(FunctionCallInfo fcinfo, const BfTypeOps *ops)
{
	if (!PG_ARGISNULL(0))
	{
		struct varlena *r;
		int64		capacity;
		double		fpr;

		if (ops->ahead_add != NULL && BfInAggregate(fcinfo))
			r = BfAheadPlainCopy(BfDetoastForRead(PG_GETARG_DATUM(0)), ops);
		else if (ops->final_partial != NULL)
			r = BfDetoastForRead(PG_GETARG_DATUM(0));
		else
			PG_RETURN_DATUM(PG_GETARG_DATUM(0));
		if (ops->final_partial != NULL && BfAggSplitIs(fcinfo, AGGSPLITOP_COMBINE))
		{
			bool		known;

			known = BfAggParams(fcinfo, PG_NARGS() > 2 ? 2 : -1, PG_NARGS() > 3 ? 3 : -1, &capacity, &fpr);
			r = ops->final_partial(r, capacity, fpr, known);
		}
		PG_RETURN_POINTER(r);
	}
	PG_RETURN_POINTER(BfAggNewState(fcinfo, ops, true));
}

/*
 * Transition and combine function of the filter-combining aggregates
 * (union, bloom's intersection): NULL inputs are skipped, the first filter
 * becomes the state (a checked copy), later ones are merged into it.  A
 * union that can grow the state (ops->merge_owned) keeps a state of
 * BF_EXPANDED_MIN_BYTES or more, in a plain aggregate, as an expanded
 * object, which grows in place: a cuckoo filter union of per-day filters
 * chains a sub-filter every few inputs, and each one copied the whole state
 * twice (the function, then the executor taking the new value), the square
 * of the inputs in all.
 */
Datum
BfMergeTransGeneric(FunctionCallInfo fcinfo, const BfTypeOps *ops, BfMergeFn merge)
{
	struct varlena *state;
	struct varlena *old;
	struct varlena *b;
	BfExpandedState *es;
	bool		owned;
	Aggref	   *aggref = BfInAggregate(fcinfo) ? AggGetAggref(fcinfo) : NULL;
	bool		ahead = ops->ahead_add != NULL && aggref != NULL &&
		DO_AGGSPLIT_COMBINE(aggref->aggsplit);
	const BfAhead *bah = NULL;

	/*
	 * As the combine function of an element aggregate (and only then: a
	 * filter with a ring anywhere else is refused by the type's check), the
	 * partial states may have rings of pending rows (BfAhead): plain copies
	 * stand for them, and another state's pending rows are added after its
	 * filter is merged
	 */
	if (PG_ARGISNULL(1))
	{
		if (PG_ARGISNULL(0))
			PG_RETURN_NULL();
		if (!ahead)
			PG_RETURN_DATUM(PG_GETARG_DATUM(0));
		PG_RETURN_POINTER(BfAheadPlainCopy(BfDetoastForRead(PG_GETARG_DATUM(0)), ops));
	}
	if (PG_ARGISNULL(0))
	{
		b = BfDetoastForRead(PG_GETARG_DATUM(1));
		if (ahead && BfAheadOf(b) != NULL)
			state = BfAheadPlainCopy(b, ops);	/* a copy with the rows added */
		else if ((Pointer) b != DatumGetPointer(PG_GETARG_DATUM(1)) &&
				 BfExpandedStateOf(PG_GETARG_DATUM(1), false) == NULL)
			state = b;			/* detoasting made a private copy */
		else
			state = BfCopyDatum(b);
		ops->check(state, VARSIZE(state));
		PG_RETURN_POINTER(state);
	}
	owned = !ahead && merge == ops->merge && ops->merge_owned != NULL;
	if (owned && (es = BfExpandedStateOf(PG_GETARG_DATUM(0), true)) != NULL &&
		es->build == NULL && BfInAggregate(fcinfo))
	{
		/* the expanded state: merged where it is, in its own context */
		MemoryContext oldcxt;
		struct varlena *flat;

		b = BfDetoastForRead(PG_GETARG_DATUM(1));
		ops->check(b, VARSIZE(b));
		ops->check_compatible(es->flat, b);
		oldcxt = MemoryContextSwitchTo(es->hdr.eoh_context);
		flat = ops->merge_owned(es->flat, b);
		MemoryContextSwitchTo(oldcxt);
		es->flat = flat;
		PG_RETURN_DATUM(PG_GETARG_DATUM(0));
	}
	state = BfStateForUpdate(fcinfo, 0);
	if (ahead)
		state = BfAheadPlainCopy(state, ops);
	if (!BfInAggregate(fcinfo))
		ops->check(state, VARSIZE(state));
	b = BfDetoastForRead(PG_GETARG_DATUM(1));
	if (ahead && BfAheadOf(b) != NULL)
	{
		bah = BfAheadChecked(b, ops);
		b = BfAheadFilterCopy(b, bah);
	}
	ops->check(b, VARSIZE(b));
	ops->check_compatible(state, b);
	old = state;
	state = merge(state, b);
	if (bah != NULL)
		state = BfAheadAddPending(state, bah, ops);

	/*
	 * a state that grew to BF_EXPANDED_MIN_BYTES (a new value: the old one
	 * is the executor's) becomes an expanded one, outside window aggregates
	 */
	if (owned && state != old && VARSIZE(state) >= BF_EXPANDED_MIN_BYTES &&
		BfInAggregate(fcinfo) && (es = BfExpandedStateWrap(fcinfo, state)) != NULL)
		PG_RETURN_DATUM(EOHPGetRWDatum(&es->hdr));
	PG_RETURN_POINTER(state);
}
