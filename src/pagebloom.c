/*
 * pagebloom.c
 *		The pagebloom index access method: handler, reloptions and
 *		operator class validation.
 *
 * Design (doc/design.md, "pagebloom" has the long form).  For each range of
 * pages_per_range heap blocks the index keeps a Bloom signature of the values
 * of all indexed columns (and a key per column for NULL).  Signatures are
 * blocked: a key's k bits lie in one block of PB_BLOCK_BITS bits.  They are
 * stored bit-sliced: the page for (segment of up to 1024 ranges, block)
 * holds, for each bit of the block, a bitmap over the segment's ranges.  So
 * an equality probe reads one page per segment and ANDs k rows of it, and an
 * insert sets k bits in one page per column.  A row map (on by default)
 * keeps a 16-bit fingerprint of each row's key per column at its line
 * pointer, so a probe returns the matching rows of a candidate range rather
 * than all its heap pages.  Bitmap scans and plain index scans (amgettuple)
 * return candidate rows that the executor rechecks; plain index scans are
 * not offered on partial indexes (PbRestrictIndexes).  Every page change
 * goes through generic WAL.  Hashing is the canonical hashing of hash.c, so
 * cross-type equality in the integer, float and text families agrees.
 */
#include "pagebloom.h"

#include <math.h>

#include "access/amvalidate.h"
#include "access/htup_details.h"
#include "access/reloptions.h"
#include "catalog/pg_amop.h"
#include "catalog/pg_amproc.h"
#include "catalog/pg_opclass.h"
#include "catalog/pg_opfamily.h"
#include "catalog/pg_operator.h"
#include "catalog/pg_type.h"
#include "commands/vacuum.h"
#include "optimizer/pathnode.h"
#include "optimizer/plancat.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/regproc.h"
#include "utils/syscache.h"

PG_FUNCTION_INFO_V1(pagebloom_handler);

static relopt_kind pb_relopt_kind;
static relopt_parse_elt pb_relopt_tab[6];
#if PG_VERSION_NUM >= 190000
static build_simple_rel_hook_type pb_prev_build_simple_rel = NULL;
#else
static get_relation_info_hook_type pb_prev_get_relation_info = NULL;
#endif

/*
 * No plain index scans on partial pagebloom indexes (a planner hook).  A plain
 * index scan rechecks only the index conditions, and the planner drops the
 * conditions that the index predicate implies, trusting that every row the
 * index returns satisfies it; pagebloom's candidate rows (the line pointers
 * of a lossy page, a row map slot last written by a row since replaced with
 * one outside the predicate) need not.  Bitmap scans recheck the predicate
 * on lossy pages, and are the only scans such an index gets.
 */
static void
PbRestrictIndexes(RelOptInfo *rel)
{
	ListCell   *lc;

	foreach(lc, rel->indexlist)
	{
		IndexOptInfo *info = (IndexOptInfo *) lfirst(lc);

		if (info->amcostestimate == pbcostestimate && info->indpred != NIL)
			info->amhasgettuple = false;
	}
}

/*
 * The hook that calls it: get_relation_info_hook until 18, which 19 replaced
 * by build_simple_rel_hook (called once the relation's indexes are listed)
 */
#if PG_VERSION_NUM >= 190000
static void
PbBuildSimpleRel(PlannerInfo *root, RelOptInfo *rel, RangeTblEntry *rte)
{
	if (pb_prev_build_simple_rel)
		pb_prev_build_simple_rel(root, rel, rte);
	PbRestrictIndexes(rel);
}
#else
static void
PbGetRelationInfo(PlannerInfo *root, Oid relationObjectId, bool inhparent,
				  RelOptInfo *rel)
{
	if (pb_prev_get_relation_info)
		pb_prev_get_relation_info(root, relationObjectId, inhparent, rel);
	PbRestrictIndexes(rel);
}
#endif

/* Check a column_fpr list when it is set */
static void
PbValidateColumnFpr(const char *value)
{
	double		fprs[INDEX_MAX_KEYS];

	if (value != NULL)
		(void) PbParseColumnFpr(value, fprs, true);
}

/*
 * Register the reloptions kind, the planner hook and the insert hooks and
 * callbacks; called once from _PG_init
 */
void
PageBloomInit(void)
{
	pb_relopt_kind = add_reloption_kind();

	add_int_reloption(pb_relopt_kind, "pages_per_range",
					  "Number of heap pages summarized by one signature; 0 chooses it (as many as one row map page covers)",
					  0, 0, PB_MAX_PAGES_PER_RANGE,
					  ShareUpdateExclusiveLock);
	pb_relopt_tab[0].optname = "pages_per_range";
	pb_relopt_tab[0].opttype = RELOPT_TYPE_INT;
	pb_relopt_tab[0].offset = offsetof(PageBloomOptions, pagesPerRange);

	add_real_reloption(pb_relopt_kind, "fpr",
					   "Target false-positive rate of an equality probe on one column, per range; 0 derives it from the table",
					   0, -INFINITY, INFINITY,
					   ShareUpdateExclusiveLock);
	pb_relopt_tab[1].optname = "fpr";
	pb_relopt_tab[1].opttype = RELOPT_TYPE_REAL;
	pb_relopt_tab[1].offset = offsetof(PageBloomOptions, fpr);

	add_int_reloption(pb_relopt_kind, "signature_bits",
					  "Bits per range signature; 0 derives it from the table and fpr",
					  0, 0, 4000000,
					  ShareUpdateExclusiveLock);
	pb_relopt_tab[2].optname = "signature_bits";
	pb_relopt_tab[2].opttype = RELOPT_TYPE_INT;
	pb_relopt_tab[2].offset = offsetof(PageBloomOptions, signatureBits);

	add_string_reloption(pb_relopt_kind, "column_fpr",
						 "Target false-positive rate of each column, comma-separated; an empty entry takes fpr",
						 NULL, PbValidateColumnFpr, ShareUpdateExclusiveLock);
	pb_relopt_tab[3].optname = "column_fpr";
	pb_relopt_tab[3].opttype = RELOPT_TYPE_STRING;
	pb_relopt_tab[3].offset = offsetof(PageBloomOptions, columnFprOffset);

	add_int_reloption(pb_relopt_kind, "block_bits",
					  "Bits per signature block: 63, 127, 255, 510 or 1020; 0 chooses from the table's size",
					  0, 0, PB_MAX_BLOCK_BITS,
					  ShareUpdateExclusiveLock);
	pb_relopt_tab[4].optname = "block_bits";
	pb_relopt_tab[4].opttype = RELOPT_TYPE_INT;
	pb_relopt_tab[4].offset = offsetof(PageBloomOptions, blockBits);

	add_bool_reloption(pb_relopt_kind, "row_map",
					   "Keep a fingerprint of every row, so that a probe rechecks only matching rows",
					   true, ShareUpdateExclusiveLock);
	pb_relopt_tab[5].optname = "row_map";
	pb_relopt_tab[5].opttype = RELOPT_TYPE_BOOL;
	pb_relopt_tab[5].offset = offsetof(PageBloomOptions, rowMap);

#ifdef USE_ASSERT_CHECKING
	/* test builds only: invalidations inside hashers (PbDebugDiscardState) */
	DefineCustomIntVariable("bloomfilter.debug_discard_state",
							"Test builds: every Nth pagebloom key hashed, invalidate the caches and zero the freed index state (0: off)",
							NULL, &pb_debug_discard_state, 0, 0, INT_MAX,
							PGC_SUSET, 0, NULL, NULL, NULL);
#endif

#if PG_VERSION_NUM >= 190000
	pb_prev_build_simple_rel = build_simple_rel_hook;
	build_simple_rel_hook = PbBuildSimpleRel;
#else
	pb_prev_get_relation_info = get_relation_info_hook;
	get_relation_info_hook = PbGetRelationInfo;
#endif

	/* a statement's inserts set their keys in batches (pagebloominsert.c) */
	PbInsertInit();
}

/* Parse and validate reloptions */
bytea *
pboptions(Datum reloptions, bool validate)
{
	PageBloomOptions *opts;

	opts = (PageBloomOptions *) build_reloptions(reloptions, validate, pb_relopt_kind,
												 sizeof(PageBloomOptions),
												 pb_relopt_tab, lengthof(pb_relopt_tab));
	/*
	 * the range is checked here, not by core (its range is all floats, also
	 * infinite ones), for one message naming both parts
	 */
	if (validate && opts && opts->fpr != 0 &&
		!(opts->fpr >= PB_MIN_FPR && opts->fpr <= PB_MAX_FPR))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("value %g out of bounds for option \"fpr\"", opts->fpr),
				 errdetail("Valid values are 0 (derived from the table) and %g to %g.",
						   PB_MIN_FPR, PB_MAX_FPR),
				 errhint("Leave fpr at 0, or give the false-positive rate of a one-column probe, such as 0.01.")));
	if (validate && opts && opts->blockBits != 0 &&
		PbRowWordsForBlockBits(opts->blockBits) == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid value %d for option \"block_bits\"", opts->blockBits),
				 errdetail("Valid values are 0 (chosen from the table's size), 63, 127, 255, 510 and 1020."),
				 errhint("Leave block_bits at 0 unless a benchmark of your queries favours another size.")));
	/* checked again by the build, but refused here, not at a later rebuild */
	if (validate && opts && opts->blockBits != 0 && opts->signatureBits > 0 &&
		(int64) opts->signatureBits > (int64) PB_MAX_NBLOCKS * opts->blockBits)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("signature_bits %d is over the limit of %d bits for block_bits %d",
						opts->signatureBits, PB_MAX_NBLOCKS * opts->blockBits, opts->blockBits),
				 errdetail("A signature has at most %d blocks.", PB_MAX_NBLOCKS),
				 errhint("Set a smaller signature_bits, larger block_bits, or block_bits = 0 to choose a size that holds the signature.")));
	return (bytea *) opts;
}

/*
 * The handler: what the access method can do and its entry points.
 */
Datum
pagebloom_handler(PG_FUNCTION_ARGS)
{
	IndexAmRoutine *amroutine = makeNode(IndexAmRoutine);

	amroutine->amstrategies = 1;
	amroutine->amsupport = 0;
	amroutine->amoptsprocnum = 0;
	amroutine->amcanorder = false;
	amroutine->amcanorderbyop = false;
#if PG_VERSION_NUM >= 180000
	/* no hashing, and no equality/ordering semantics other AMs may rely on */
	amroutine->amcanhash = false;
	amroutine->amconsistentequality = false;
	amroutine->amconsistentordering = false;
#endif
	amroutine->amcanbackward = false;
	amroutine->amcanunique = false;
	amroutine->amcanmulticol = true;
	amroutine->amoptionalkey = true;
	amroutine->amsearcharray = true;
	amroutine->amsearchnulls = true;
	amroutine->amstorage = false;
	amroutine->amclusterable = false;
	amroutine->ampredlocks = false;
	amroutine->amcanparallel = false;
	amroutine->amcaninclude = false;
	amroutine->amusemaintenanceworkmem = false;
#if PG_VERSION_NUM >= 160000
	/*
	 * Not declared summarizing (as BRIN is): an update of an indexed column
	 * is not HOT, as on 15, so every version of a row reaches aminsert the
	 * same way on every release (design.md, "PostgreSQL versions")
	 */
	amroutine->amsummarizing = false;
#endif
#if PG_VERSION_NUM >= 170000
	/* index_build asks the planner for workers (ii_ParallelWorkers) */
	amroutine->amcanbuildparallel = true;
#endif
	amroutine->amparallelvacuumoptions = VACUUM_OPTION_NO_PARALLEL;
	amroutine->amkeytype = InvalidOid;

	amroutine->ambuild = pbbuild;
	amroutine->ambuildempty = pbbuildempty;
	amroutine->aminsert = pbinsert;
#if PG_VERSION_NUM >= 170000
	amroutine->aminsertcleanup = NULL;
#endif
	amroutine->ambulkdelete = pbbulkdelete;
	amroutine->amvacuumcleanup = pbvacuumcleanup;
	amroutine->amcanreturn = NULL;
	amroutine->amcostestimate = pbcostestimate;
#if PG_VERSION_NUM >= 180000
	amroutine->amgettreeheight = NULL;
#endif
	amroutine->amoptions = pboptions;
	amroutine->amproperty = NULL;
	amroutine->ambuildphasename = pbbuildphasename;
	amroutine->amvalidate = pbvalidate;
	amroutine->amadjustmembers = NULL;
	amroutine->ambeginscan = pbbeginscan;
	amroutine->amrescan = pbrescan;
	amroutine->amgettuple = pbgettuple;
	amroutine->amgetbitmap = pbgetbitmap;
	amroutine->amendscan = pbendscan;
	amroutine->ammarkpos = NULL;
	amroutine->amrestrpos = NULL;
	amroutine->amestimateparallelscan = NULL;
	amroutine->aminitparallelscan = NULL;
	amroutine->amparallelrescan = NULL;
#if PG_VERSION_NUM >= 180000
	/* strategies are our own: no translation to compare types */
	amroutine->amtranslatestrategy = NULL;
	amroutine->amtranslatecmptype = NULL;
#endif

	PG_RETURN_POINTER(amroutine);
}

/*
 * Validate an operator class and its family: only strategy 1, a hashable
 * boolean equality; no support functions; the class's own type has its
 * operator; and a family of several types has every cross-type pair.
 */
bool
pbvalidate(Oid opclassoid)
{
	bool		result = true;
	HeapTuple	classtup;
	Form_pg_opclass classform;
	Oid			opfamilyoid;
	Oid			opcintype;
	char	   *opclassname;
	HeapTuple	familytup;
	Form_pg_opfamily familyform;
	char	   *opfamilyname;
	CatCList   *proclist,
			   *oprlist;
	List	   *grouplist;
	List	   *types = NIL;
	bool		ownfound = false;
	ListCell   *lc;
	ListCell   *lc2;
	int			i;

	classtup = SearchSysCache1(CLAOID, ObjectIdGetDatum(opclassoid));
	if (!HeapTupleIsValid(classtup))
		elog(ERROR, "cache lookup failed for operator class %u", opclassoid);
	classform = (Form_pg_opclass) GETSTRUCT(classtup);
	opfamilyoid = classform->opcfamily;
	opcintype = classform->opcintype;
	opclassname = NameStr(classform->opcname);

	familytup = SearchSysCache1(OPFAMILYOID, ObjectIdGetDatum(opfamilyoid));
	if (!HeapTupleIsValid(familytup))
		elog(ERROR, "cache lookup failed for operator family %u", opfamilyoid);
	familyform = (Form_pg_opfamily) GETSTRUCT(familytup);
	opfamilyname = NameStr(familyform->opfname);

	oprlist = SearchSysCacheList1(AMOPSTRATEGY, ObjectIdGetDatum(opfamilyoid));
	proclist = SearchSysCacheList1(AMPROCNUM, ObjectIdGetDatum(opfamilyoid));

	for (i = 0; i < proclist->n_members; i++)
	{
		Form_pg_amproc procform = (Form_pg_amproc) GETSTRUCT(&proclist->members[i]->tuple);

		ereport(INFO,
				(errcode(ERRCODE_INVALID_OBJECT_DEFINITION),
				 errmsg("operator family \"%s\" of access method %s contains support function %s, but the access method uses none",
						opfamilyname, "pagebloom", format_procedure(procform->amproc))));
		result = false;
	}

	for (i = 0; i < oprlist->n_members; i++)
	{
		Form_pg_amop oprform = (Form_pg_amop) GETSTRUCT(&oprlist->members[i]->tuple);

		if (oprform->amopstrategy != 1)
		{
			ereport(INFO,
					(errcode(ERRCODE_INVALID_OBJECT_DEFINITION),
					 errmsg("operator family \"%s\" of access method %s contains operator %s with invalid strategy number %d",
							opfamilyname, "pagebloom",
							format_operator(oprform->amopopr), oprform->amopstrategy)));
			result = false;
		}
		if (oprform->amoppurpose != AMOP_SEARCH || OidIsValid(oprform->amopsortfamily))
		{
			ereport(INFO,
					(errcode(ERRCODE_INVALID_OBJECT_DEFINITION),
					 errmsg("operator family \"%s\" of access method %s contains invalid ORDER BY specification for operator %s",
							opfamilyname, "pagebloom", format_operator(oprform->amopopr))));
			result = false;
		}
		if (!check_amop_signature(oprform->amopopr, BOOLOID,
								  oprform->amoplefttype, oprform->amoprighttype))
		{
			ereport(INFO,
					(errcode(ERRCODE_INVALID_OBJECT_DEFINITION),
					 errmsg("operator family \"%s\" of access method %s contains operator %s with wrong signature",
							opfamilyname, "pagebloom", format_operator(oprform->amopopr))));
			result = false;
		}
		if (!op_hashjoinable(oprform->amopopr, oprform->amoplefttype))
		{
			ereport(INFO,
					(errcode(ERRCODE_INVALID_OBJECT_DEFINITION),
					 errmsg("operator family \"%s\" of access method %s contains operator %s, which is not a hashable equality",
							opfamilyname, "pagebloom", format_operator(oprform->amopopr))));
			result = false;
		}
		if (!list_member_oid(types, oprform->amoplefttype))
			types = lappend_oid(types, oprform->amoplefttype);
		if (!list_member_oid(types, oprform->amoprighttype))
			types = lappend_oid(types, oprform->amoprighttype);
	}

	grouplist = identify_opfamily_groups(oprlist, proclist);
	foreach(lc, grouplist)
	{
		OpFamilyOpFuncGroup *group = (OpFamilyOpFuncGroup *) lfirst(lc);

		if (group->lefttype == opcintype && group->righttype == opcintype &&
			(group->operatorset & (UINT64CONST(1) << 1)))
			ownfound = true;
	}
	if (!ownfound)
	{
		ereport(INFO,
				(errcode(ERRCODE_INVALID_OBJECT_DEFINITION),
				 errmsg("operator class \"%s\" of access method %s is missing operator 1 for type %s",
						opclassname, "pagebloom", format_type_be(opcintype))));
		result = false;
	}

	/* every pair of the family's types needs its equality */
	foreach(lc, types)
	{
		foreach(lc2, types)
		{
			Oid			lt = lfirst_oid(lc);
			Oid			rt = lfirst_oid(lc2);
			bool		found = false;
			ListCell   *lc3;

			foreach(lc3, grouplist)
			{
				OpFamilyOpFuncGroup *group = (OpFamilyOpFuncGroup *) lfirst(lc3);

				if (group->lefttype == lt && group->righttype == rt &&
					(group->operatorset & (UINT64CONST(1) << 1)))
					found = true;
			}
			if (!found)
			{
				ereport(INFO,
						(errcode(ERRCODE_INVALID_OBJECT_DEFINITION),
						 errmsg("operator family \"%s\" of access method %s is missing cross-type operator for types %s and %s",
								opfamilyname, "pagebloom",
								format_type_be(lt), format_type_be(rt))));
				result = false;
			}
		}
	}

	ReleaseCatCacheList(proclist);
	ReleaseCatCacheList(oprlist);
	ReleaseSysCache(familytup);
	ReleaseSysCache(classtup);

	return result;
}
