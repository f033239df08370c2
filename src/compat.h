/*
 * compat.h
 *		The few server API differences between the PostgreSQL releases the
 *		extension builds on (15, 16, 17, 18 and 19), in one place.
 *
 * Each guard sits at the release whose headers changed the API (the release
 * notes and the server headers say which); doc/design.md, "PostgreSQL
 * versions", lists them.
 */
#ifndef BLOOMFILTER_COMPAT_H
#define BLOOMFILTER_COMPAT_H

#include "postgres.h"

/*
 * 18 replaced the postfix pg_attribute_noreturn() by the prefix pg_noreturn
 * (C11 _Noreturn); before 18 the GCC attribute in prefix position does the same
 */
#ifndef pg_noreturn
#define pg_noreturn pg_attribute_noreturn()
#endif

/* 18 declared the binary side of common/base64.h as uint8 (was char) */
#if PG_VERSION_NUM >= 180000
typedef uint8 BfB64Byte;
#else
typedef char BfB64Byte;
#endif

/* 16 moved the varlena macros (VARSIZE, VARATT_IS_EXTENDED, ...) to varatt.h */
#if PG_VERSION_NUM >= 160000
#include "varatt.h"
#endif

/*
 * 16 renamed relation file nodes to relation file locators: the physical
 * identity of a relation's storage, as log_newpage() wants it
 */
#if PG_VERSION_NUM >= 160000
#define BfSmgrFileLocator(smgr)	(&(smgr)->smgr_rlocator.locator)
#else
#define BfSmgrFileLocator(smgr)	(&(smgr)->smgr_rnode.node)
#endif

/* 16 replaced the per-catalog ownership checks by object_ownercheck() */
#if PG_VERSION_NUM >= 160000
#define BfRelationOwnerCheck(relid, roleid) \
	object_ownercheck(RelationRelationId, (relid), (roleid))
#else
#define BfRelationOwnerCheck(relid, roleid) pg_class_ownercheck((relid), (roleid))
#endif

/* 17 gave estimate_array_length() the PlannerInfo as first argument */
#if PG_VERSION_NUM >= 170000
#define BfEstimateArrayLength(root, arrayexpr) estimate_array_length((root), (arrayexpr))
#else
#define BfEstimateArrayLength(root, arrayexpr) estimate_array_length(arrayexpr)
#endif

/*
 * 19 added allow_update to GlobalVisTestIsRemovableXid(); true is what it
 * did before (recompute the horizon when the cached one cannot tell)
 */
#if PG_VERSION_NUM >= 190000
#define BfGlobalVisTestIsRemovableXid(state, xid) \
	GlobalVisTestIsRemovableXid((state), (xid), true)
#else
#define BfGlobalVisTestIsRemovableXid(state, xid) \
	GlobalVisTestIsRemovableXid((state), (xid))
#endif

/* 19 renamed PageSetChecksumInplace() to PageSetChecksum() */
#if PG_VERSION_NUM >= 190000
#define BfPageSetChecksum(page, blkno) PageSetChecksum((page), (blkno))
#else
#define BfPageSetChecksum(page, blkno) PageSetChecksumInplace((page), (blkno))
#endif

#endif							/* BLOOMFILTER_COMPAT_H */
