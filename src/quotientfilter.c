/*
 * quotientfilter.c
 *		The quotientfilter type: a quotient filter (Bender et al. 2012) of
 *		2^q slots, each holding an r-bit remainder and the three metadata
 *		bits is_occupied, is_continuation and is_shifted.
 *
 * Layout (doc/design.md): the common 24-byte header, q (uint8), r (uint8),
 * the member count (uint16 LE: 0 for a fixed filter) and a reserved uint32
 * (0), the number of stored fingerprints (uint64 LE), then
 * ceil(2^q * (r + 3) / 64) * 8 bytes of slots.  Slot i
 * is the (r + 3)-bit field at bit offset i * (r + 3) of the payload, where
 * payload bit b is bit (b % 8) of byte b / 8 (little-endian bit order).
 * Within a slot, bit 0 is is_occupied, bit 1 is_continuation, bit 2
 * is_shifted and bits 3 .. r + 2 the remainder (least significant first).
 * Bits beyond the last slot are zero, and so are the remainder bits of an
 * empty slot.
 *
 * An element's fingerprint is the top p = q + r bits of its canonical
 * 64-bit hash; its quotient is the top q bits of the fingerprint and its
 * remainder the low r bits.  The filter stores a multiset of fingerprints:
 * a fingerprint added twice is stored twice and needs two removes (this is
 * what makes removing an added element always safe, doc/design.md).
 *
 * Fixed and growing filters.  quotientfilter_create(q, r) makes a fixed
 * filter (member count 0): one table that grows by moving a remainder bit
 * to the quotient (p fixed) and refuses with 54000 once r = 1.
 * quotientfilter_empty and the aggregates make growing filters (member
 * count >= 1): a chain of member tables, each a complete quotient filter
 * with its own q, r and entry count; member 0 is the table above and each
 * further member follows the previous one's slots as a 16-byte header (q,
 * r, reserved uint16 and uint32, entry count) and its slots.  Adds go to
 * the newest member; when it would pass load 0.9 a member of q + 4 and
 * r + 1 is appended, so member j's rate at its growth point is at most
 * fpr / 2^j and the sum stays below 2 fpr.  A probe looks in every member
 * (member j's fingerprint is the top q_j + r_j bits of the same hash), a
 * remove takes one copy from the newest member holding it, the cardinality
 * is the sum of the members' entries (the multiset's size, as for one
 * table).  Unions merge members of equal p and keep the others as members.
 * A resize folds a chain into one table of the shortest member's p, each
 * longer fingerprint cut to its top p bits.
 */
#include "bloomfilter.h"

#include <math.h>

#include "catalog/pg_type.h"
#include "port/pg_bitutils.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/tuplestore.h"
#include "utils/varbit.h"

PG_FUNCTION_INFO_V1(quotientfilter_in);
PG_FUNCTION_INFO_V1(quotientfilter_out);
PG_FUNCTION_INFO_V1(quotientfilter_recv);
PG_FUNCTION_INFO_V1(quotientfilter_send);
PG_FUNCTION_INFO_V1(quotientfilter_empty);
PG_FUNCTION_INFO_V1(quotientfilter_create);
PG_FUNCTION_INFO_V1(quotientfilter_add);
PG_FUNCTION_INFO_V1(quotientfilter_add_array);
PG_FUNCTION_INFO_V1(quotientfilter_remove);
PG_FUNCTION_INFO_V1(quotientfilter_remove_array);
PG_FUNCTION_INFO_V1(quotientfilter_contains);
PG_FUNCTION_INFO_V1(quotientfilter_contained);
PG_FUNCTION_INFO_V1(quotientfilter_add_fingerprint);
PG_FUNCTION_INFO_V1(quotientfilter_remove_fingerprint);
PG_FUNCTION_INFO_V1(quotientfilter_contains_fingerprint);
PG_FUNCTION_INFO_V1(quotientfilter_union);
PG_FUNCTION_INFO_V1(quotientfilter_resize);
PG_FUNCTION_INFO_V1(quotientfilter_eq);
PG_FUNCTION_INFO_V1(quotientfilter_ne);
PG_FUNCTION_INFO_V1(quotientfilter_lt);
PG_FUNCTION_INFO_V1(quotientfilter_le);
PG_FUNCTION_INFO_V1(quotientfilter_gt);
PG_FUNCTION_INFO_V1(quotientfilter_ge);
PG_FUNCTION_INFO_V1(quotientfilter_cmp);
PG_FUNCTION_INFO_V1(quotientfilter_hash);
PG_FUNCTION_INFO_V1(quotientfilter_hash_extended);
PG_FUNCTION_INFO_V1(quotientfilter_cardinality);
PG_FUNCTION_INFO_V1(quotientfilter_fpr);
PG_FUNCTION_INFO_V1(quotientfilter_info);
PG_FUNCTION_INFO_V1(quotientfilter_fingerprints);
PG_FUNCTION_INFO_V1(quotientfilter_slots);
PG_FUNCTION_INFO_V1(quotientfilter_agg_trans);
PG_FUNCTION_INFO_V1(quotientfilter_agg_final);
PG_FUNCTION_INFO_V1(quotientfilter_union_trans);

#define QF_TYPNAME			"quotientfilter"

/* Load factor past which adds grow the table (and at which _empty sizes it) */
#define QF_MAX_LOAD			0.9

/*
 * Extra remainder bits of a partial aggregate's states (QfNewPartial): the
 * merge of up to 2^4 of them keeps each member's rate within the serial one's
 */
#define QF_PARTIAL_EXTRA	4

#define QF_MIN_Q			1
#define QF_MAX_Q			48		/* beyond this the size limit always fails */
#define QF_MIN_R			1
#define QF_MAX_R			61		/* so that a slot fits in 64 bits */
#define QF_MAX_P			64

/* metadata bits of a slot */
#define QF_OCCUPIED			UINT64CONST(1)
#define QF_CONTINUATION		UINT64CONST(2)
#define QF_SHIFTED			UINT64CONST(4)
#define QF_META				UINT64CONST(7)

typedef struct QuotientFilter
{
	BfHeader	hdr;			/* common header, 24 bytes */
	uint8		q;				/* quotient bits: 2^q slots */
	uint8		r;				/* remainder bits */
	uint16		members;		/* LE: 0 fixed, else member tables (chain) */
	uint32		reserved2;		/* 0 */
	uint64		nentries;		/* LE: stored fingerprints */
	uint8		slots[FLEXIBLE_ARRAY_MEMBER];
} QuotientFilter;

#define QF_HDRSZ	offsetof(QuotientFilter, slots)

/*
 * A growing filter (members >= 1) is a chain of member tables.  Member 0
 * is described by the 40-byte header; each further member follows the
 * previous one's slots as a 16-byte header (q, r, reserved uint16 and
 * uint32, entry count) and its slots.  A member is handled through a
 * QuotientFilter pointer placed 24 bytes before its q, so that q, r,
 * nentries and slots line up (the common header fields of such a view are
 * not the member's and are never read).
 */
#define QF_MEMBER_HDRSZ		16
#define QF_VIEW_OFFSET		24
#define QF_MAX_MEMBERS		64

StaticAssertDecl(offsetof(QuotientFilter, slots) == 40, "quotientfilter header must be 40 bytes");

/* A filter's slot table opened for work */
typedef struct QfTable
{
	uint8	   *data;
	uint64		nslots;
	uint64		mask;			/* nslots - 1 */
	int			q;
	int			r;
	int			w;				/* bits per slot: r + 3 */
	uint64		rmask;			/* r low bits */
	uint64		wmask;			/* w low bits */
	uint64		nwords;			/* payload size in 64-bit words */
	uint64		nwin;			/* slots a 64-bit window holds whole: 64 / w */
	uint32		recip;			/* ceil(2^16 / w), for QfWindowSlot */
	uint64		ones;			/* bit 0 of each of the nwin slots of a window */
} QfTable;

/* Payload bytes of a table of 2^q slots of r-bit remainders */
static Size
QfPayloadSize(int q, int r)
{
	return (Size) ((((UINT64CONST(1) << q) * (uint64) (r + 3)) + 63) / 64) * 8;
}

/* Payload bytes as a double, for the size check before allocating */
static double
QfPayloadSizeD(int q, int r)
{
	return ceil(ldexp(1.0, q) * (double) (r + 3) / 64.0) * 8.0;
}

/* The datum size of a table of 2^q slots of r remainder bits, in floating point */
static double
QfTableBytes(int q, int r)
{
	return (double) QF_HDRSZ + QfPayloadSizeD(q, r);
}

/* Whether a table of 2^q slots of r remainder bits stays within the size limit */
static bool
QfTableFits(int q, int r)
{
	return QfTableBytes(q, r) <= (double) BF_MAX_DATUM_SIZE;
}

/*
 * Window constants per slot width w (QfTable.nwin and .ones), filled in on
 * first use so that opening a table for one probe does not loop.
 */
static uint64 QfWinOnes[QF_MAX_R + 4];
static uint8 QfWinSlots[QF_MAX_R + 4];
static uint32 QfWinRecip[QF_MAX_R + 4];	/* ceil(2^16 / w) */

/* Fill in the window constants of slot width w */
static pg_noinline void
QfInitWindow(int w)
{
	uint64		ones = 0;
	int			n = 0,
				b;

	for (b = 0; b + w <= 64; b += w)
	{
		ones |= UINT64CONST(1) << b;
		n++;
	}
	QfWinOnes[w] = ones;
	QfWinRecip[w] = (65536 + w - 1) / w;
	QfWinSlots[w] = (uint8) n;
}

/* Set up a table view of a filter */
static inline void
QfOpen(QfTable *t, const QuotientFilter *qf)
{
	t->data = (uint8 *) qf->slots;
	t->q = qf->q;
	t->r = qf->r;
	t->w = qf->r + 3;
	t->nslots = UINT64CONST(1) << qf->q;
	t->mask = t->nslots - 1;
	t->rmask = (UINT64CONST(1) << t->r) - 1;
	t->wmask = t->w == 64 ? PG_UINT64_MAX : (UINT64CONST(1) << t->w) - 1;
	t->nwords = QfPayloadSize(t->q, t->r) / 8;
	if (unlikely(QfWinSlots[t->w] == 0))
		QfInitWindow(t->w);
	t->nwin = QfWinSlots[t->w];
	t->ones = QfWinOnes[t->w];
	t->recip = QfWinRecip[t->w];
}

/* Read a little-endian 64-bit word */
static inline uint64
QfLoad(const uint8 *p)
{
	uint64		v;

	memcpy(&v, p, 8);
	return BfGet64(v);
}

/* Write a little-endian 64-bit word */
static inline void
QfStore(uint8 *p, uint64 v)
{
	v = BfPut64(v);
	memcpy(p, &v, 8);
}

/*
 * The 64 payload bits from the start of slot i: slots i .. i + nwin - 1
 * whole (and zeros past the end of the payload).  Except in the last
 * payload word, both words the bits may touch are read and combined without
 * a data-dependent branch ((hi << 1) << (63 - sh) is hi << (64 - sh), and
 * 0 for sh = 0).
 */
static inline uint64
QfWindow(const QfTable *t, uint64 i)
{
	uint64		bit = i * (uint64) t->w;
	uint64		wi = bit >> 6;
	const uint8 *p = t->data + wi * 8;
	int			sh = (int) (bit & 63);
	uint64		v = QfLoad(p) >> sh;

	if (likely(wi + 1 < t->nwords))
		v |= (QfLoad(p + 8) << 1) << (63 - sh);
	return v;
}

/* The w-bit field of slot i */
static inline uint64
QfGet(const QfTable *t, uint64 i)
{
	return QfWindow(t, i) & t->wmask;
}

/* Overwrite the w-bit field of slot i */
static inline void
QfSet(QfTable *t, uint64 i, uint64 v)
{
	uint64		bit = i * (uint64) t->w;
	uint8	   *p = t->data + (bit >> 6) * 8;
	int			sh = (int) (bit & 63);
	uint64		word = QfLoad(p);

	word = (word & ~(t->wmask << sh)) | (v << sh);
	QfStore(p, word);
	if (sh + t->w > 64)
	{
		int			done = 64 - sh;
		uint64		himask = t->wmask >> done;

		word = QfLoad(p + 8);
		word = (word & ~himask) | (v >> done);
		QfStore(p + 8, word);
	}
}

/* Next slot, wrapping around the end of the table */
static inline uint64
QfNext(const QfTable *t, uint64 i)
{
	return (i + 1) & t->mask;
}

/* Previous slot, wrapping around the start of the table */
static inline uint64
QfPrev(const QfTable *t, uint64 i)
{
	return (i - 1) & t->mask;
}

/* A walk that does not end means the metadata is inconsistent */
static void
QfLoopGuard(const QfTable *t, uint64 *steps)
{
	if (++(*steps) > 4 * t->nslots + 4)
		BfCorrupt(QF_TYPNAME, "The slot metadata is inconsistent (a walk over the table does not end).");
}

/* Check q and r given by a user, raising 22023 */
static void
QfCheckParams(int64 q, int64 r)
{
	if (q < QF_MIN_Q || q > QF_MAX_Q)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("number of quotient bits q must be between %d and %d", QF_MIN_Q, QF_MAX_Q),
				 errdetail("q = " INT64_FORMAT " was given.", q),
				 errhint("Use quotientfilter_empty(capacity, fpr) to have q and r computed.")));
	if (r < QF_MIN_R || r > QF_MAX_R)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("number of remainder bits r must be between %d and %d", QF_MIN_R, QF_MAX_R),
				 errdetail("r = " INT64_FORMAT " was given.", r),
				 errhint("Use quotientfilter_empty(capacity, fpr) to have q and r computed.")));
	if (q + r > QF_MAX_P)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("fingerprint length q + r must be at most %d bits", QF_MAX_P),
				 errdetail("q = " INT64_FORMAT " and r = " INT64_FORMAT " were given.", q, r),
				 errhint("Fingerprints are taken from a 64-bit hash.")));
}

/* A new empty filter, after the size check (54000) */
static QuotientFilter *
QfNew(int q, int r, uint64 seed)
{
	Size		size;
	QuotientFilter *qf;

	QfCheckParams(q, r);
	BfCheckSize(QF_TYPNAME, QfTableBytes(q, r));
	size = QF_HDRSZ + QfPayloadSize(q, r);
	qf = palloc0(size);
	BfInitHeader(&qf->hdr, size, BF_KIND_QUOTIENTFILTER, seed);
	qf->q = (uint8) q;
	qf->r = (uint8) r;
	return qf;
}

/* Number of stored fingerprints */
static inline uint64
QfEntries(const QuotientFilter *qf)
{
	return BfGet64(qf->nentries);
}

/* Store the number of fingerprints */
static inline void
QfSetEntries(QuotientFilter *qf, uint64 n)
{
	qf->nentries = BfPut64(n);
}

/* Most entries before an add grows the table: floor(QF_MAX_LOAD * 2^q), at least 1 */
static uint64
QfMaxEntries(int q)
{
	double		m = floor(QF_MAX_LOAD * ldexp(1.0, q));

	return m < 1.0 ? 1 : (uint64) m;
}

/*
 * q and r for capacity elements at false-positive rate fpr.  The smallest
 * q with capacity <= QF_MAX_LOAD * 2^q, and the smallest fingerprint length
 * p with capacity / 2^p <= fpr (the false-positive rate of n distinct
 * fingerprints is n / 2^p), r = p - q, at least 1.  With at_max_load,
 * p is chosen for the entries at the maximum load instead of capacity (the
 * first member of a growing filter, whose rate must stay within fpr until
 * the next member takes over).
 */
static void
QfSizeFor(int64 capacity, double fpr, bool at_max_load, int *q, int *r)
{
	int			qq = QF_MIN_Q,
				p = 1;
	double		n = (double) capacity;

	BfCheckCapacityFpr(capacity, fpr);
	while (qq < QF_MAX_Q && QF_MAX_LOAD * ldexp(1.0, qq) < (double) capacity)
		qq++;
	BfCheckSize(QF_TYPNAME, QfTableBytes(qq, QF_MIN_R));
	if (at_max_load)
		n = Max(n, (double) QfMaxEntries(qq));
	while (p < QF_MAX_P && n > fpr * ldexp(1.0, p))
		p++;
	if (n > fpr * ldexp(1.0, p))
	{
		/*
		 * the smallest rate that works, rounded up to 3 digits for the hint:
		 * that of the longest fingerprints whose table (2^qq slots) is within
		 * the size limit, not always QF_MAX_P bits (a rate that then fails
		 * with 54000 is no answer)
		 */
		int			pfit = QF_MAX_P;
		double		least;
		double		unit;

		while (pfit > qq + QF_MIN_R &&
			   !QfTableFits(qq, pfit - qq))
			pfit--;
		least = n / ldexp(1.0, pfit);
		unit = pow(10.0, floor(log10(least)) - 2);

		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("false-positive rate %g is too small for %d-bit fingerprints", fpr, QF_MAX_P),
				 pfit == QF_MAX_P ?
				 errdetail("The filter's first table takes %.0f entries before it grows, and %d-bit fingerprints give that many entries a false-positive rate of %g.",
						   n, QF_MAX_P, least) :
				 errdetail("The filter's first table takes %.0f entries before it grows, and its 2^%d slots stay within the size limit with fingerprints of at most %d bits, which give that many entries a false-positive rate of %g.",
						   n, qq, pfit, least),
				 errhint("Ask for a false-positive rate of at least %.3g, or a smaller capacity.",
						 ceil(least / unit) * unit)));
	}
	if (p - qq < QF_MIN_R)
		p = qq + QF_MIN_R;
	if (p > QF_MAX_P)
	{
		qq = QF_MAX_P - QF_MIN_R;
		p = QF_MAX_P;
	}
	if (p - qq > QF_MAX_R)
		qq = p - QF_MAX_R;
	*q = qq;
	*r = p - qq;
}

/* Describe a filter's parameters for error messages */
static char *
QfParamString(const QuotientFilter *qf)
{
	return psprintf("q=%d, r=%d (fingerprint bits p=%d), seed=" INT64_FORMAT,
					qf->q, qf->r, qf->q + qf->r, (int64) BfGet64(qf->hdr.seed));
}

/* The stored members field: 0 for a fixed filter, else the member count */
static inline int
QfMembersField(const QuotientFilter *qf)
{
	const uint8 *b = (const uint8 *) &qf->members;

	return b[0] | (b[1] << 8);
}

/* Store the members field (little-endian) */
static inline void
QfSetMembersField(QuotientFilter *qf, int n)
{
	uint8	   *b = (uint8 *) &qf->members;

	b[0] = (uint8) (n & 0xff);
	b[1] = (uint8) (n >> 8);
}

/* Whether a filter grows by members (made by _empty or an aggregate) */
static inline bool
QfGrows(const QuotientFilter *qf)
{
	return QfMembersField(qf) > 0;
}

/* Number of member tables: 1 for a fixed filter */
static inline int
QfNMembers(const QuotientFilter *qf)
{
	return Max(QfMembersField(qf), 1);
}

/* The view of the member following member view m */
static inline QuotientFilter *
QfNextMember(const QuotientFilter *m)
{
	return (QuotientFilter *) ((char *) m + QF_MEMBER_HDRSZ + QfPayloadSize(m->q, m->r));
}

/* The view of member j (0 is the filter itself); the value must be checked */
static QuotientFilter *
QfMember(const QuotientFilter *qf, int j)
{
	QuotientFilter *m = (QuotientFilter *) qf;

	while (j-- > 0)
		m = QfNextMember(m);
	return m;
}

/* Entries of all members */
static uint64
QfTotalEntries(const QuotientFilter *qf)
{
	int			n = QfNMembers(qf),
				j;
	const QuotientFilter *m = qf;
	uint64		total = 0;

	for (j = 0; j < n; j++)
	{
		if (j > 0)
			m = QfNextMember(m);
		total += QfEntries(m);
	}
	return total;
}

/* Check one member's parameters and entry count (22P02) */
static void
QfCheckMember(const QuotientFilter *m, int j)
{
	if (m->q < QF_MIN_Q || m->q > QF_MAX_Q)
		BfCorrupt(QF_TYPNAME, "q = %u of member %d is out of range.", m->q, j);
	if (m->r < QF_MIN_R || m->r > QF_MAX_R || m->q + m->r > QF_MAX_P)
		BfCorrupt(QF_TYPNAME, "r = %u of member %d is out of range for q = %u.", m->r, j, m->q);
	if ((j > 0 && m->members != 0) || m->reserved2 != 0)
		BfCorrupt(QF_TYPNAME, "The reserved fields of member %d are not zero.", j);
	if (QfEntries(m) > (UINT64CONST(1) << m->q))
		BfCorrupt(QF_TYPNAME, "The entry count " UINT64_FORMAT " of member %d exceeds its %llu slots.",
				  QfEntries(m), j, (unsigned long long) (UINT64CONST(1) << m->q));
}

/*
 * Cheap structural check run on every datum a function receives: header,
 * parameter ranges, a size that matches q and r, and a plausible entry
 * count; for a chain of several members, each member's header in turn and
 * a size that matches them all.  Input functions add the full check of the
 * slots (QfValidate).
 */
static void
QfCheck(const void *qf_arg, Size size)
{
	const QuotientFilter *qf = qf_arg;
	int			n,
				j;
	Size		off;

	BfValidateHeader(QF_TYPNAME, (const struct varlena *) qf, BF_KIND_QUOTIENTFILTER, QF_HDRSZ);
	n = QfMembersField(qf);
	if (n > QF_MAX_MEMBERS)
		BfCorrupt(QF_TYPNAME, "The member count %d is more than %d.", n, QF_MAX_MEMBERS);
	if (n <= 1)
	{
		if (qf->q < QF_MIN_Q || qf->q > QF_MAX_Q)
			BfCorrupt(QF_TYPNAME, "q = %u is out of range.", qf->q);
		if (qf->r < QF_MIN_R || qf->r > QF_MAX_R || qf->q + qf->r > QF_MAX_P)
			BfCorrupt(QF_TYPNAME, "r = %u is out of range for q = %u.", qf->r, qf->q);
		if (qf->reserved2 != 0)
			BfCorrupt(QF_TYPNAME, "The reserved header fields are not zero.");
		if (size != QF_HDRSZ + QfPayloadSize(qf->q, qf->r))
			BfCorrupt(QF_TYPNAME, "The value is %zu bytes long, but q = %u and r = %u need %zu.",
					  size, qf->q, qf->r, QF_HDRSZ + QfPayloadSize(qf->q, qf->r));
		if (QfEntries(qf) > (UINT64CONST(1) << qf->q))
			BfCorrupt(QF_TYPNAME, "The entry count " UINT64_FORMAT " exceeds the %llu slots.",
					  QfEntries(qf), (unsigned long long) (UINT64CONST(1) << qf->q));
		return;
	}
	off = QF_VIEW_OFFSET;		/* member j's header starts at off */
	for (j = 0; j < n; j++)
	{
		const QuotientFilter *m = (const QuotientFilter *) ((const char *) qf + off - QF_VIEW_OFFSET);

		if (off + QF_MEMBER_HDRSZ > size)
			BfCorrupt(QF_TYPNAME, "The value is %zu bytes long, too short for member %d.", size, j);
		QfCheckMember(m, j);
		off += QF_MEMBER_HDRSZ + QfPayloadSize(m->q, m->r);
		if (off > size)
			BfCorrupt(QF_TYPNAME, "The value is %zu bytes long, too short for the slots of member %d.", size, j);
	}
	if (off != size)
		BfCorrupt(QF_TYPNAME, "The value is %zu bytes long, but its %d members need %zu.", size, n, off);
}

/* The first slot that is empty or holds an element in its canonical slot */
static bool
QfWalkStart(const QfTable *t, uint64 *start)
{
	uint64		i;

	for (i = 0; i < t->nslots; i++)
		if ((QfGet(t, i) & QF_SHIFTED) == 0)
		{
			*start = i;
			return true;
		}
	return false;
}

/*
 * Full check of a value from outside: walk the whole table and verify the
 * run and cluster structure that every algorithm relies on.  Walking from
 * a slot that is empty or holds an unshifted element, each slot whose
 * is_occupied bit is set queues its quotient; each run head (an element
 * without is_continuation) takes the oldest queued quotient and must be
 * shifted exactly when it is not in that quotient's slot; continuations
 * follow an element, are shifted and keep the run sorted; an empty slot
 * has no remainder bits and no quotient waiting for a run; and the
 * elements counted match the header.  qf is one member's view.
 */
static void
QfValidateMember(const QuotientFilter *qf)
{
	QfTable		t;
	uint64		start,
				step,
				pending = 0,
				qcur,
				count = 0,
				lastrem = 0;
	bool		in_run = false;
	Size		used_bits,
				total_bits,
				b;

	QfOpen(&t, qf);

	/* padding bits beyond the last slot */
	used_bits = (Size) t.nslots * t.w;
	total_bits = QfPayloadSize(t.q, t.r) * 8;
	for (b = used_bits; b < total_bits; b++)
		if (t.data[b >> 3] & (1 << (b & 7)))
			BfCorrupt(QF_TYPNAME, "Bits beyond the last slot are set.");

	if (!QfWalkStart(&t, &start))
		BfCorrupt(QF_TYPNAME, "Every slot is marked is_shifted, so no cluster has a start.");
	qcur = QfPrev(&t, start);
	for (step = 0; step < t.nslots; step++)
	{
		uint64		i = (start + step) & t.mask;
		uint64		v = QfGet(&t, i);
		uint64		rem = v >> 3;

		if ((step & 0xFFFF) == 0xFFFF)
			CHECK_FOR_INTERRUPTS();
		if (v & QF_OCCUPIED)
			pending++;
		if ((v & QF_META) == 0)
		{
			if (rem != 0)
				BfCorrupt(QF_TYPNAME, "Slot " UINT64_FORMAT " is empty but has remainder bits set.", i);
			if (pending != 0)
				BfCorrupt(QF_TYPNAME, "Slot " UINT64_FORMAT " is empty while " UINT64_FORMAT " quotient(s) marked is_occupied have no run yet.",
						  i, pending);
			in_run = false;
			continue;
		}
		count++;
		if ((v & QF_CONTINUATION) == 0)
		{
			if (pending == 0)
				BfCorrupt(QF_TYPNAME, "Slot " UINT64_FORMAT " starts a run, but no quotient marked is_occupied is waiting for one.", i);
			do
				qcur = QfNext(&t, qcur);
			while ((QfGet(&t, qcur) & QF_OCCUPIED) == 0);
			pending--;
			if ((v & QF_SHIFTED) && qcur == i)
				BfCorrupt(QF_TYPNAME, "Slot " UINT64_FORMAT " holds the head of its own run but is marked is_shifted.", i);
			if (!(v & QF_SHIFTED) && qcur != i)
				BfCorrupt(QF_TYPNAME, "Slot " UINT64_FORMAT " holds the run of quotient " UINT64_FORMAT " but is not marked is_shifted.",
						  i, qcur);
			in_run = true;
		}
		else
		{
			if (!in_run)
				BfCorrupt(QF_TYPNAME, "Slot " UINT64_FORMAT " is marked is_continuation but no run precedes it.", i);
			if (!(v & QF_SHIFTED))
				BfCorrupt(QF_TYPNAME, "Slot " UINT64_FORMAT " continues a run but is not marked is_shifted.", i);
			if (rem < lastrem)
				BfCorrupt(QF_TYPNAME, "The run ending at slot " UINT64_FORMAT " is not sorted.", i);
		}
		lastrem = rem;
	}
	if (pending != 0)
		BfCorrupt(QF_TYPNAME, UINT64_FORMAT " quotient(s) are marked is_occupied but have no run.", pending);
	if (count != QfEntries(qf))
		BfCorrupt(QF_TYPNAME, "The header says " UINT64_FORMAT " entries, but the slots hold " UINT64_FORMAT ".",
				  QfEntries(qf), count);
}

/* Full check of a value from outside: the structure, then every member */
static void
QfValidate(const void *qf_arg)
{
	const QuotientFilter *qf = qf_arg;
	int			n,
				j;

	QfCheck(qf, VARSIZE(qf));
	n = QfNMembers(qf);
	for (j = 0; j < n; j++)
		QfValidateMember(QfMember(qf, j));
}

/* ---------------------------------------------------------------------
 * The table algorithms (Bender et al. 2012; doc/design.md)
 * ---------------------------------------------------------------------
 */

/* The mask of the first n slots' bit 0 in a window (n <= nwin) */
static inline uint64
QfWindowMask(const QfTable *t, uint64 n)
{
	uint64		nbits = n * (uint64) t->w;

	return nbits >= 64 ? t->ones : t->ones & ((UINT64CONST(1) << nbits) - 1);
}

/*
 * The slot (from the window's first) whose bit 0 is window bit bit, a
 * multiple of w below 64: bit / w without a division (exact, since
 * bit * (ceil(2^16 / w) - 2^16 / w) < 64 is far below 2^16 / w).
 */
static inline uint64
QfWindowSlot(const QfTable *t, int bit)
{
	return ((uint32) bit * t->recip) >> 16;
}

/*
 * The slot where the run of quotient fq starts (or would start, if fq's
 * is_occupied bit was just set): walk back to the start of the cluster,
 * counting the occupied quotients passed, then forward from the cluster's
 * first run, skipping that many runs.  Both walks go a window of nwin slots
 * at a time: one load gives the slots' metadata bits, a mask of bit 0 of
 * each slot picks them out, and a population count or a leftmost /
 * rightmost bit search replaces a slot-by-slot loop.
 */
static uint64
QfRunStart(const QfTable *t, uint64 fq)
{
	uint64		hi = fq,
				b,
				runs = 0,
				steps = 0,
				limit = 4 * t->nslots + 4;

	if ((QfGet(t, fq) & QF_SHIFTED) == 0)
		return fq;

	/* back to the cluster's start, the nearest slot before fq not shifted */
	for (;;)
	{
		uint64		lo,
					m,
					v,
					unshifted;

		if (hi == 0)
			hi = t->nslots;
		lo = hi >= t->nwin ? hi - t->nwin : 0;
		m = QfWindowMask(t, hi - lo);
		v = QfWindow(t, lo);
		unshifted = ~(v >> 2) & m;
		if (unshifted != 0)
		{
			int			top = pg_leftmost_one_pos64(unshifted);

			runs += pg_popcount64(v & m & (PG_UINT64_MAX << top));
			b = lo + QfWindowSlot(t, top);
			break;
		}
		runs += pg_popcount64(v & m);
		steps += hi - lo;
		if (steps > limit)
			BfCorrupt(QF_TYPNAME, "The slot metadata is inconsistent (a walk over the table does not end).");
		hi = lo;
	}

	/* forward from b past runs run heads (slots without is_continuation) */
	while (runs > 0)
	{
		uint64		pos = QfNext(t, b),
					n = Min(t->nwin, t->nslots - pos),
					m = QfWindowMask(t, n),
					heads = ~(QfWindow(t, pos) >> 1) & m,
					c = pg_popcount64(heads);

		if (c >= runs)
		{
			while (--runs > 0)
				heads &= heads - 1;
			return pos + QfWindowSlot(t, pg_rightmost_one_pos64(heads));
		}
		runs -= c;
		b = pos + n - 1;
		steps += n;
		if (steps > limit)
			BfCorrupt(QF_TYPNAME, "The slot metadata is inconsistent (a walk over the table does not end).");
	}
	return b;
}

/* Whether the fingerprint (fq, fr) is stored */
static bool
QfLookup(const QfTable *t, uint64 fq, uint64 fr)
{
	uint64		s,
				v,
				steps = 0;

	v = QfGet(t, fq);
	if ((v & QF_OCCUPIED) == 0)
		return false;
	if (v & QF_SHIFTED)
	{
		s = QfRunStart(t, fq);
		v = QfGet(t, s);
	}
	else
		s = fq;					/* the run starts in its own slot */
	for (;;)
	{
		uint64		rem = v >> 3;

		if (rem == fr)
			return true;
		if (rem > fr)
			return false;
		s = QfNext(t, s);
		v = QfGet(t, s);
		if ((v & QF_CONTINUATION) == 0)
			return false;
		QfLoopGuard(t, &steps);
	}
}

/*
 * Put element bits elem into slot pos and shift the following elements of
 * the cluster one slot right, up to the first empty slot.  Shifted elements
 * get is_shifted; is_occupied bits stay with their slots.  If
 * mark_continuation, the element displaced from pos (the old head of a
 * run that elem now heads) becomes a continuation.
 */
static void
QfShiftInsert(QfTable *t, uint64 pos, uint64 elem, bool mark_continuation)
{
	uint64		i = pos,
				steps = 0;

	for (;;)
	{
		uint64		v = QfGet(t, i);

		QfSet(t, i, elem | (v & QF_OCCUPIED));
		if ((v & QF_META) == 0)
			break;
		elem = (v & ~QF_OCCUPIED) | QF_SHIFTED;
		if (mark_continuation)
		{
			elem |= QF_CONTINUATION;
			mark_continuation = false;
		}
		i = QfNext(t, i);
		QfLoopGuard(t, &steps);
	}
}

/*
 * Insert the fingerprint (fq, fr).  The caller makes sure a slot is free.
 * The remainder goes to its sorted place in the run of fq (before equal
 * remainders), creating the run after the runs of the smaller quotients of
 * the cluster if fq had none.
 */
static void
QfInsert(QfTable *t, uint64 fq, uint64 fr)
{
	uint64		v = QfGet(t, fq);
	uint64		s,
				pos,
				steps = 0;
	bool		run_existed = (v & QF_OCCUPIED) != 0;
	bool		head = true;

	if ((v & QF_META) == 0)
	{
		QfSet(t, fq, (fr << 3) | QF_OCCUPIED);
		return;
	}
	QfSet(t, fq, v | QF_OCCUPIED);
	s = QfRunStart(t, fq);
	pos = s;
	if (run_existed)
	{
		do
		{
			if ((QfGet(t, pos) >> 3) >= fr)
				break;
			pos = QfNext(t, pos);
			head = false;
			QfLoopGuard(t, &steps);
		} while (QfGet(t, pos) & QF_CONTINUATION);
	}
	QfShiftInsert(t, pos,
				  (fr << 3) | (head ? 0 : QF_CONTINUATION) | (pos != fq ? QF_SHIFTED : 0),
				  head && run_existed);
}

/*
 * Remove one copy of the fingerprint (fq, fr); false if it is not stored.
 * The following elements of the cluster move one slot left: a run head
 * that reaches its quotient's slot loses is_shifted, the successor of a
 * removed run head becomes the head, and a run that becomes empty clears
 * its quotient's is_occupied.
 */
static bool
QfDelete(QfTable *t, uint64 fq, uint64 fr)
{
	uint64		s,
				pos,
				i,
				curq,
				steps = 0;
	bool		head;

	if ((QfGet(t, fq) & QF_OCCUPIED) == 0)
		return false;
	s = QfRunStart(t, fq);
	pos = s;
	for (;;)
	{
		uint64		rem = QfGet(t, pos) >> 3;

		if (rem == fr)
			break;
		if (rem > fr)
			return false;
		pos = QfNext(t, pos);
		QfLoopGuard(t, &steps);
		if ((QfGet(t, pos) & QF_CONTINUATION) == 0)
			return false;
	}

	head = (pos == s);
	if (head && (QfGet(t, QfNext(t, pos)) & QF_CONTINUATION) == 0)
		QfSet(t, fq, QfGet(t, fq) & ~QF_OCCUPIED);

	curq = fq;
	i = pos;
	for (;;)
	{
		uint64		j = QfNext(t, i);
		uint64		v = QfGet(t, j);
		uint64		elem;

		if ((v & QF_SHIFTED) == 0)
		{
			/* empty, or the start of the next cluster: i becomes empty */
			QfSet(t, i, QfGet(t, i) & QF_OCCUPIED);
			break;
		}
		if ((v & QF_CONTINUATION) == 0)
		{
			/* j heads the run of the next occupied quotient */
			do
			{
				curq = QfNext(t, curq);
				QfLoopGuard(t, &steps);
			} while ((QfGet(t, curq) & QF_OCCUPIED) == 0);
			elem = (v & ~QF_META) | (i != curq ? QF_SHIFTED : 0);
		}
		else if (head)
			elem = (v & ~QF_META) | (i != fq ? QF_SHIFTED : 0);
		else
			elem = v & ~QF_OCCUPIED;
		head = false;
		QfSet(t, i, elem | (QfGet(t, i) & QF_OCCUPIED));
		i = j;
		QfLoopGuard(t, &steps);
	}
	return true;
}

/*
 * Iterator over the stored fingerprints in ascending order (duplicates
 * repeated).  The walk starts at a slot that is empty or holds an unshifted
 * element, so quotients come in the order start .. 2^q - 1, 0 .. start - 1;
 * a first pass yields the wrapped quotients (< start), a second the rest.
 */
typedef struct QfIter
{
	const QfTable *t;
	uint64		start;
	int			phase;			/* 0: quotients < start, 1: the rest, 2: done */
	uint64		step;
	uint64		qcur;
	uint64		curq;
	uint16		tick;			/* CHECK_FOR_INTERRUPTS every 65536 slots */
} QfIter;

/* Begin iterating */
static void
QfIterInit(QfIter *it, const QfTable *t)
{
	it->t = t;
	if (!QfWalkStart(t, &it->start))
		BfCorrupt(QF_TYPNAME, "Every slot is marked is_shifted, so no cluster has a start.");
	it->phase = it->start == 0 ? 1 : 0;
	it->step = 0;
	it->qcur = QfPrev(t, it->start);
	it->curq = 0;
	it->tick = 0;
}

/* Next fingerprint, false at the end */
static bool
QfIterNext(QfIter *it, uint64 *fingerprint)
{
	const QfTable *t = it->t;

	while (it->phase < 2)
	{
		uint64		v,
					i;

		if (++it->tick == 0)
			CHECK_FOR_INTERRUPTS();
		if (it->step == t->nslots)
		{
			it->phase++;
			it->step = 0;
			it->qcur = QfPrev(t, it->start);
			continue;
		}
		i = (it->start + it->step) & t->mask;
		v = QfWindow(t, i);
		/* a window of empty slots (all bits clear) at once: sparse tables */
		if (v == 0 && it->step + t->nwin <= t->nslots && i + t->nwin <= t->nslots)
		{
			it->step += t->nwin;
			continue;
		}
		v &= t->wmask;
		it->step++;
		if ((v & QF_META) == 0)
			continue;
		if ((v & QF_CONTINUATION) == 0)
		{
			uint64		steps = 0;

			for (;;)
			{
				uint64		next = QfNext(t, it->qcur);
				uint64		win = QfWindow(t, next);

				QfLoopGuard(t, &steps);
				/* the next nwin slots empty: none of them is occupied */
				if (win == 0 && next + t->nwin <= t->nslots)
				{
					it->qcur = next + t->nwin - 1;
					continue;
				}
				it->qcur = next;
				if (win & QF_OCCUPIED)	/* slot next's own bit 0 */
					break;
			}
			it->curq = it->qcur;
		}
		if ((it->phase == 0) == (it->curq < it->start))
		{
			*fingerprint = (it->curq << t->r) | (v >> 3);
			return true;
		}
	}
	return false;
}

/*
 * Building a table from fingerprints given in ascending order, in linear
 * time: each run is written after the previous one or at its quotient's
 * slot, whichever is later.  Runs that would pass the end of the table are
 * inserted by QfInsert, which wraps them around.
 */
typedef struct QfBuilder
{
	QuotientFilter *qf;
	QfTable		t;
	uint64		w;				/* next free slot of the linear part */
	uint64		lastq;
	bool		has_last;
	bool		overflow;
	uint64		n;
} QfBuilder;

/* Start building into the empty filter qf */
static void
QfBuilderInit(QfBuilder *b, QuotientFilter *qf)
{
	b->qf = qf;
	QfOpen(&b->t, qf);
	b->w = 0;
	b->lastq = 0;
	b->has_last = false;
	b->overflow = false;
	b->n = 0;
}

/* Add the next fingerprint (not smaller than the previous one) */
static void
QfBuilderAdd(QfBuilder *b, uint64 f)
{
	QfTable    *t = &b->t;
	uint64		fq = f >> t->r,
				fr = f & t->rmask;

	/* only an input whose entry count understates its slots gets here */
	if (b->n >= t->nslots)
		BfCorrupt(QF_TYPNAME, "The slots hold more fingerprints than the entry count says.");
	if (!b->overflow)
	{
		bool		cont = b->has_last && fq == b->lastq;
		uint64		pos = cont ? b->w : Max(b->w, fq);

		if (pos < t->nslots)
		{
			if (!cont)
				QfSet(t, fq, QfGet(t, fq) | QF_OCCUPIED);
			QfSet(t, pos, (fr << 3) | (cont ? QF_CONTINUATION : 0) |
				  (pos != fq ? QF_SHIFTED : 0) | (QfGet(t, pos) & QF_OCCUPIED));
			b->w = pos + 1;
			b->lastq = fq;
			b->has_last = true;
			b->n++;
			return;
		}
		b->overflow = true;
	}
	QfInsert(t, fq, fr);
	b->n++;
}

/* Finish: store the entry count */
static void
QfBuilderFinish(QfBuilder *b)
{
	QfSetEntries(b->qf, b->n);
}

/* A copy of qf with 2^newq slots (same fingerprints, p unchanged) */
static QuotientFilter *
QfRebuild(const QuotientFilter *qf, int newq)
{
	int			p = qf->q + qf->r;
	QuotientFilter *res = QfNew(newq, p - newq, BfGet64(qf->hdr.seed));
	QfTable		t;
	QfIter		it;
	QfBuilder	b;
	uint64		f;

	res->hdr.ninserts = qf->hdr.ninserts;
	res->members = qf->members;
	QfOpen(&t, qf);
	QfIterInit(&it, &t);
	QfBuilderInit(&b, res);
	while (QfIterNext(&it, &f))
		QfBuilderAdd(&b, f);
	QfBuilderFinish(&b);
	return res;
}

/*
 * The quotient bits a filter of fingerprint length p needs for n entries:
 * at least minq, grown while n passes the maximum load and remainder bits
 * are left; 54000 if even then the table cannot hold them.
 */
static int
QfQuotientFor(uint64 n, int minq, int p)
{
	int			q = minq;

	while (n > QfMaxEntries(q) && p - q > QF_MIN_R)
		q++;
	if (n > (UINT64CONST(1) << q))
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("quotient filter is full"),
				 errdetail("A filter with %d-bit fingerprints and %d quotient bits has no remainder bits left to grow, and " UINT64_FORMAT " entries do not fit in its %llu slots.",
						   p, q, n, (unsigned long long) (UINT64CONST(1) << q)),
				 errhint("Build the filter with a larger capacity or a smaller false-positive rate.")));
	return q;
}

/*
 * Make room for one more entry: the filter itself, or a grown copy when the
 * entry would pass the maximum load.
 */
static QuotientFilter *
QfEnsureRoom(QuotientFilter *qf)
{
	int			q = QfQuotientFor(QfEntries(qf) + 1, qf->q, qf->q + qf->r);

	if (q == qf->q)
		return qf;
	return QfRebuild(qf, q);
}

/* The p-bit fingerprint of a 64-bit hash: its top p bits */
static inline uint64
QfFingerprint(uint64 h, int p)
{
	return p == 64 ? h : h >> (64 - p);
}

/* Add a fingerprint, growing first if needed; returns the (new) filter */
static QuotientFilter *
QfAddFingerprint(QuotientFilter *qf, uint64 f)
{
	QfTable		t;

	qf = QfEnsureRoom(qf);
	QfOpen(&t, qf);
	QfInsert(&t, f >> t.r, f & t.rmask);
	QfSetEntries(qf, QfEntries(qf) + 1);
	qf->hdr.ninserts = BfPut64(BfAddSat64(BfGet64(qf->hdr.ninserts), 1));
	return qf;
}

/*
 * A copy of chain qf with a new empty member of 2^q slots and r-bit
 * remainders appended; 54000 if the chain cannot take another member.
 */
static QuotientFilter *
QfAppendMember(const QuotientFilter *qf, int q, int r)
{
	Size		oldsize = VARSIZE(qf);
	int			n = QfNMembers(qf);
	QuotientFilter *res,
			   *m;
	double		newsize;

	if (r > QF_MAX_R)
		r = QF_MAX_R;
	if (q + r > QF_MAX_P)
		r = QF_MAX_P - q;
	newsize = (double) oldsize + QF_MEMBER_HDRSZ + (q <= QF_MAX_Q ? QfPayloadSizeD(q, Max(r, 1)) : 0.0);
	if (n >= QF_MAX_MEMBERS || q > QF_MAX_Q || r < QF_MIN_R ||
		!(newsize <= (double) BF_MAX_DATUM_SIZE))
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("quotient filter is full"),
				 errdetail("The filter has %d members holding " UINT64_FORMAT " entries; a new member of 2^%d slots would make it %.0f bytes, more than the maximum of %zu.",
						   n, QfTotalEntries(qf), q, newsize, BF_MAX_DATUM_SIZE),
				 errhint("Split the data over several filters, or build the filter with a larger capacity so that its members are larger.")));
	res = palloc0((Size) newsize);
	memcpy(res, qf, oldsize);
	SET_VARSIZE(res, (Size) newsize);
	m = (QuotientFilter *) ((char *) res + oldsize - QF_VIEW_OFFSET);
	m->q = (uint8) q;
	m->r = (uint8) r;
	QfSetMembersField(res, n + 1);
	return res;
}

/*
 * Add a 64-bit hash: a fixed filter takes its top p bits (growing by a
 * remainder bit when full); a chain adds to its newest member, first
 * appending a member of 16 times the slots and one more remainder bit when
 * the newest would pass the maximum load.  Returns the (new) filter.
 */
static QuotientFilter *
QfAddHash(QuotientFilter *qf, uint64 hash)
{
	QuotientFilter *m;
	QfTable		t;
	uint64		f;

	if (!QfGrows(qf))
		return QfAddFingerprint(qf, QfFingerprint(hash, qf->q + qf->r));
	m = QfMember(qf, QfNMembers(qf) - 1);
	if (QfEntries(m) + 1 > QfMaxEntries(m->q))
	{
		qf = QfAppendMember(qf, m->q + 4, m->r + 1);
		m = QfMember(qf, QfNMembers(qf) - 1);
	}
	f = QfFingerprint(hash, m->q + m->r);
	QfOpen(&t, m);
	QfInsert(&t, f >> t.r, f & t.rmask);
	QfSetEntries(m, QfEntries(m) + 1);
	qf->hdr.ninserts = BfPut64(BfAddSat64(BfGet64(qf->hdr.ninserts), 1));
	return qf;
}

/* Add one element datum (not null); returns the (new) filter */
static QuotientFilter *
QfAddDatum(QuotientFilter *qf, BfHasher *h, Datum value)
{
	return QfAddHash(qf, BfHashDatumFast(h, value, BfGet64(qf->hdr.seed)));
}

/* Remove one copy of a fingerprint; false if absent */
static bool
QfRemoveFingerprint(QuotientFilter *qf, uint64 f)
{
	QfTable		t;

	QfOpen(&t, qf);
	if (!QfDelete(&t, f >> t.r, f & t.rmask))
		return false;
	QfSetEntries(qf, QfEntries(qf) - 1);
	return true;
}

/*
 * Remove one copy of a hash's fingerprint from the newest member holding
 * it (each member's fingerprint is the top q + r bits of the hash)
 */
static bool
QfRemoveHash(QuotientFilter *qf, uint64 hash)
{
	int			j;

	for (j = QfNMembers(qf) - 1; j >= 0; j--)
	{
		QuotientFilter *m = QfMember(qf, j);

		if (QfRemoveFingerprint(m, QfFingerprint(hash, m->q + m->r)))
			return true;
	}
	return false;
}

/* Whether any member holds the hash's fingerprint */
static bool
QfLookupHash(const QuotientFilter *qf, uint64 hash)
{
	int			n = QfNMembers(qf),
				j;
	const QuotientFilter *m = qf;

	for (j = 0; j < n; j++)
	{
		QfTable		t;
		uint64		f;

		if (j > 0)
			m = QfNextMember(m);
		f = QfFingerprint(hash, m->q + m->r);
		QfOpen(&t, m);
		if (QfLookup(&t, f >> t.r, f & t.rmask))
			return true;
	}
	return false;
}

/*
 * Raise 0A000 for a function that works on one table (raw fingerprints,
 * slots) when given a chain of several members: a raw fingerprint has one
 * length, a chain's members each their own, so the hint points to the fold
 * (quotientfilter_resize), after which these functions work
 */
static void
QfRequireOneTable(const QuotientFilter *qf, const char *fname)
{
	if (QfNMembers(qf) > 1)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("%s does not support a quotientfilter of several members", fname),
				 errdetail("The filter has grown into %d member tables, each with its own fingerprint length.",
						   QfNMembers(qf)),
				 errhint("Fold it into one table with quotientfilter_resize(filter, q) first (its fingerprints are cut to the shortest member's length), or use quotientfilter_create(q, r) for a filter that keeps one table.")));
}

/* Check a raw fingerprint given by a user against the filter's length */
static uint64
QfCheckFingerprint(const QuotientFilter *qf, int64 value)
{
	int			p = qf->q + qf->r;

	if (p < 64 && (value < 0 || (uint64) value >= (UINT64CONST(1) << p)))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("fingerprint " INT64_FORMAT " does not fit in %d bits", value, p),
				 errdetail("The filter has q = %d and r = %d, so fingerprints are between 0 and 2^%d - 1.",
						   qf->q, qf->r, p),
				 errhint("Give a fingerprint of q + r bits.")));
	return (uint64) value;
}

/*
 * Raise 22023 unless a and b can be merged: same seed and hash, and for two
 * fixed filters the same p
 */
static void
QfCheckCompatible(const void *a_arg, const void *b_arg)
{
	const QuotientFilter *a = a_arg;
	const QuotientFilter *b = b_arg;
	bool		chain = QfGrows(a) || QfGrows(b);

	if ((!chain && a->q + a->r != b->q + b->r) || a->hdr.seed != b->hdr.seed ||
		a->hdr.hashalg != b->hdr.hashalg)
		BfParamMismatch(QF_TYPNAME, QfParamString(a), QfParamString(b));
}

/*
 * Merge two filters of equal fingerprint length and seed: the ascending
 * fingerprint streams of both are merged into a new table of at least the
 * larger q, grown so that the sum of the entries stays within the maximum
 * load.  Linear in the slots of the three tables.
 */
static QuotientFilter *
QfMerge(const QuotientFilter *a, const QuotientFilter *b)
{
	int			p = a->q + a->r;
	uint64		n = QfEntries(a) + QfEntries(b);
	int			q = QfQuotientFor(n, Max(a->q, b->q), p);
	QuotientFilter *res = QfNew(q, p - q, BfGet64(a->hdr.seed));
	QfTable		ta,
				tb;
	QfIter		ia,
				ib;
	QfBuilder	bld;
	uint64		fa = 0,
				fb = 0;
	bool		hasa,
				hasb;

	QfOpen(&ta, a);
	QfOpen(&tb, b);
	QfIterInit(&ia, &ta);
	QfIterInit(&ib, &tb);
	QfBuilderInit(&bld, res);
	hasa = QfIterNext(&ia, &fa);
	hasb = QfIterNext(&ib, &fb);
	while (hasa || hasb)
	{
		if (hasa && (!hasb || fa <= fb))
		{
			QfBuilderAdd(&bld, fa);
			hasa = QfIterNext(&ia, &fa);
		}
		else
		{
			QfBuilderAdd(&bld, fb);
			hasb = QfIterNext(&ib, &fb);
		}
	}
	QfBuilderFinish(&bld);
	res->hdr.ninserts = BfPut64(BfAddSat64(BfGet64(a->hdr.ninserts), BfGet64(b->hdr.ninserts)));
	return res;
}

/*
 * The shortest fingerprint length among a filter's members; *member is
 * set to the first member that has it
 */
static int
QfShortestP(const QuotientFilter *qf, int *member)
{
	int			n = QfNMembers(qf),
				j,
				best = QF_MAX_P + 1;
	const QuotientFilter *m = qf;

	*member = 0;
	for (j = 0; j < n; j++)
	{
		if (j > 0)
			m = QfNextMember(m);
		if (m->q + m->r < best)
		{
			best = m->q + m->r;
			*member = j;
		}
	}
	return best;
}

/* The smallest q (at least QF_MIN_Q) whose 2^q slots hold n entries */
static int
QfQuotientToHold(uint64 n)
{
	int			q = QF_MIN_Q;

	while (q < 64 && (UINT64CONST(1) << q) < n)
		q++;
	return q;
}

/*
 * Fold the members of a chain into one table of 2^q slots with p-bit
 * fingerprints, p at most every member's length: member j's fingerprints
 * are cut to their top p bits (the top p bits of the same hash, so every
 * element keeps an entry that matches it) and the ascending streams of all
 * members are merged into the linear build.  The result is a growing
 * filter of one member with qf's seed and insert count; the caller has
 * checked that q < p and that the entries fit in 2^q slots.
 */
static QuotientFilter *
QfFold(const QuotientFilter *qf, int q, int p)
{
	int			nm = QfNMembers(qf),
				j;
	QfTable    *t = palloc(sizeof(QfTable) * nm);
	QfIter	   *it = palloc(sizeof(QfIter) * nm);
	uint64	   *cur = palloc(sizeof(uint64) * nm);
	int		   *shift = palloc(sizeof(int) * nm);
	bool	   *has = palloc(sizeof(bool) * nm);
	QuotientFilter *res = QfNew(q, p - q, BfGet64(qf->hdr.seed));
	QfBuilder	b;

	res->hdr.ninserts = qf->hdr.ninserts;
	QfSetMembersField(res, 1);
	for (j = 0; j < nm; j++)
	{
		const QuotientFilter *m = QfMember(qf, j);

		Assert(m->q + m->r >= p);
		shift[j] = m->q + m->r - p;
		QfOpen(&t[j], m);
		QfIterInit(&it[j], &t[j]);
		has[j] = QfIterNext(&it[j], &cur[j]);
	}
	QfBuilderInit(&b, res);
	for (;;)
	{
		int			best = -1;
		uint64		bf = 0;

		/* the smallest cut fingerprint at the heads of the streams */
		for (j = 0; j < nm; j++)
			if (has[j] && (best < 0 || (cur[j] >> shift[j]) < bf))
			{
				best = j;
				bf = cur[j] >> shift[j];
			}
		if (best < 0)
			break;
		QfBuilderAdd(&b, bf);
		has[best] = QfIterNext(&it[best], &cur[best]);
	}
	QfBuilderFinish(&b);
	pfree(t);
	pfree(it);
	pfree(cur);
	pfree(shift);
	pfree(has);
	return res;
}

/* Statistics gathered by one walk over the table */
typedef struct QfStats
{
	uint64		distinct;		/* distinct fingerprints */
	uint64		runs;
	uint64		clusters;
	uint64		longest_cluster;
} QfStats;

/* One walk: distinct fingerprints, runs, clusters, longest cluster */
static void
QfGatherStats(const QuotientFilter *qf, QfStats *st)
{
	QfTable		t;
	uint64		start,
				step,
				cur = 0,
				lastrem = 0;
	bool		prev_elem = false;

	memset(st, 0, sizeof(*st));
	QfOpen(&t, qf);
	if (!QfWalkStart(&t, &start))
		BfCorrupt(QF_TYPNAME, "Every slot is marked is_shifted, so no cluster has a start.");
	for (step = 0; step < t.nslots; step++)
	{
		uint64		v = QfGet(&t, (start + step) & t.mask);
		uint64		rem = v >> 3;

		if ((step & 0xFFFF) == 0xFFFF)
			CHECK_FOR_INTERRUPTS();
		if (v & QF_OCCUPIED)
			st->runs++;
		if ((v & QF_META) == 0)
		{
			prev_elem = false;
			continue;
		}
		if ((v & QF_SHIFTED) == 0)
		{
			st->clusters++;
			cur = 0;
		}
		cur++;
		st->longest_cluster = Max(st->longest_cluster, cur);
		if (!((v & QF_CONTINUATION) && prev_elem && rem == lastrem))
			st->distinct++;
		lastrem = rem;
		prev_elem = true;
	}
}

/* False-positive rate of a filter: distinct fingerprints / 2^p */
static double
QfFprOf(const QuotientFilter *qf, uint64 distinct)
{
	return ldexp((double) distinct, -(qf->q + qf->r));
}

/* ---------------------------------------------------------------------
 * SQL functions
 * ---------------------------------------------------------------------
 */

static int	QfCompare(const void *a_arg, const void *b_arg);
static uint64 QfHash(const void *v, uint64 seed);

/* ---------------------------------------------------------------------
 * The type's operations (BfTypeOps) for the generic entry points
 * ---------------------------------------------------------------------
 */

/* new_sized op: an empty filter for capacity elements at fpr */
static struct varlena *
QfNewSized(int64 capacity, double fpr, uint64 seed)
{
	int			q,
				r;

	QuotientFilter *qf;

	QfSizeFor(capacity, fpr, true, &q, &r);
	qf = QfNew(q, r, seed);
	QfSetMembersField(qf, 1);
	return (struct varlena *) qf;
}

/*
 * The remainder bits a partial aggregate's state adds to a serial (q, r):
 * QF_PARTIAL_EXTRA, as far as r <= QF_MAX_R, p <= QF_MAX_P and the size
 * limit allow
 */
static int
QfPartialExtra(int q, int r)
{
	int			extra = Min(QF_PARTIAL_EXTRA, Min(QF_MAX_R - r, QF_MAX_P - q - r));

	if (extra > 0 && !QfTableFits(q, r + extra))
		extra = 0;
	return extra;
}

/*
 * new_partial op: the first state of a partial aggregate, QfPartialExtra
 * remainder bits longer than a serial aggregate's.  The combine merges the
 * partial states' members of equal fingerprint length, and a member's rate
 * is its entries / 2^p: with the serial length, k partial states past 1/k
 * of the capacity would merge into a first member k times as full as a
 * serial one, a rate no merge can take back (fingerprints cannot be
 * lengthened).  quotientfilter_agg_final cuts them back where the serial
 * result is one table (QfFinalPartial).
 */
static struct varlena *
QfNewPartial(int64 capacity, double fpr, uint64 seed)
{
	int			q,
				r;
	QuotientFilter *qf;

	QfSizeFor(capacity, fpr, true, &q, &r);
	qf = QfNew(q, r + QfPartialExtra(q, r), seed);
	QfSetMembersField(qf, 1);
	return (struct varlena *) qf;
}

/*
 * final_partial op: the combined partial states of a parallel aggregate.
 * When they hold no more entries than the serial aggregate's first table
 * takes (it would not have grown), their one member is cut to the serial
 * fingerprint length: the serial result, byte for byte (a table is a
 * function of its multiset).  The serial length comes from the aggregate's
 * capacity and fpr when known (constants, parameters); else (per-group or
 * per-row expressions) from the state itself, whose r is the serial one
 * plus QfPartialExtra, where only that one serial r explains it (not at
 * the limits, where the extra bits shrink), and whose q is the serial one
 * when it holds no more than QfMaxEntries(q - 1) (else the combine may have
 * grown it).  Past the capacity the chain
 * stays as merged, at the longer lengths: a lower rate than the serial
 * chain's, a larger size.
 */
static struct varlena *
QfFinalPartial(struct varlena *v, int64 capacity, double fpr, bool known)
{
	QuotientFilter *qf = (QuotientFilter *) v;
	int			q,
				r;

	if (!QfGrows(qf) || QfNMembers(qf) != 1)
		return v;
	if (known)
	{
		QfSizeFor(capacity, fpr, true, &q, &r);
		if (q != qf->q || qf->r <= r || qf->r != r + QfPartialExtra(q, r))
			return v;
	}
	else
	{
		q = qf->q;
		r = qf->r - QF_PARTIAL_EXTRA;
		if (r < QF_MIN_R || QfPartialExtra(q, r) != QF_PARTIAL_EXTRA)
			return v;

		/*
		 * q is the serial q only if no merge of the combine grew the table:
		 * a growth to q leaves more than QfMaxEntries(q - 1) entries, so a
		 * state that has no more is the serial table's size (a fuller one
		 * may be either, and keeps the longer fingerprints)
		 */
		if (q == 0 || QfEntries(qf) > QfMaxEntries(q - 1))
			return v;
		/* a serial r with fewer extra bits would give the same state */
		for (int e = 0; e < QF_PARTIAL_EXTRA; e++)
			if (qf->r - e >= QF_MIN_R && QfPartialExtra(q, qf->r - e) == e)
				return v;
	}
	if (QfEntries(qf) > QfMaxEntries(q))
		return v;
	return (struct varlena *) QfFold(qf, q, q + r);
}

/*
 * text_read op: q, r, the entry count, and for a growing filter the member
 * count (and with several, the payload length); the size limit is checked
 * here, before the payload is decoded.
 */
static Size
QfTextRead(BfTextFields *f, char *hdr, void **extra)
{
	QuotientFilter *qf = (QuotientFilter *) hdr;
	uint64		q,
				r,
				n;

	q = BfTextGetUInt64(f, "q", QF_MIN_Q, QF_MAX_Q);
	r = BfTextGetUInt64(f, "r", QF_MIN_R, QF_MAX_R);
	n = BfTextGetUInt64(f, "entries", 0, PG_UINT64_MAX);
	if (q + r > QF_MAX_P)
		BfCorrupt(QF_TYPNAME, "q = " UINT64_FORMAT " and r = " UINT64_FORMAT " make fingerprints longer than %d bits.",
				  q, r, QF_MAX_P);
	BfCheckInputSize(QF_TYPNAME, psprintf("q = " UINT64_FORMAT " and r = " UINT64_FORMAT, q, r),
					 QfTableBytes((int) q, (int) r));
	qf->q = (uint8) q;
	qf->r = (uint8) r;
	QfSetEntries(qf, n);
	if (BfTextHas(f, "members"))
	{
		uint64		members = BfTextGetUInt64(f, "members", 1, QF_MAX_MEMBERS);
		uint64		len;

		QfSetMembersField(qf, (int) members);
		if (members > 1)
		{
			len = BfTextGetUInt64(f, "bytes", QfPayloadSize((int) q, (int) r), PG_UINT64_MAX);
			BfCheckInputSize(QF_TYPNAME, psprintf("members = " UINT64_FORMAT " and bytes = " UINT64_FORMAT, members, len),
							 (double) QF_HDRSZ + (double) len);
			return (Size) len;
		}
	}
	return QfPayloadSize((int) q, (int) r);
}

/*
 * text_write op: q, r and the entry count (of the first member); for a
 * growing filter the member count, and with several members the payload
 * length (the further members' headers are in the payload)
 */
static void
QfTextWrite(StringInfo buf, const struct varlena *v)
{
	const QuotientFilter *qf = (const QuotientFilter *) v;

	appendStringInfo(buf, " q=%u r=%u entries=" UINT64_FORMAT, qf->q, qf->r, QfEntries(qf));
	if (QfGrows(qf))
		appendStringInfo(buf, " members=%d", QfNMembers(qf));
	if (QfNMembers(qf) > 1)
		appendStringInfo(buf, " bytes=%zu", (Size) (VARSIZE(qf) - QF_HDRSZ));
}

/* add and agg_add op: insert the element's fingerprint, growing past the maximum load */
static struct varlena *
QfAddOp(struct varlena *v, BfHasher *h, Datum value)
{
	return (struct varlena *) QfAddDatum((QuotientFilter *) v, h, value);
}

/* remove op: remove one copy of the element's fingerprint, if there */
static void
QfRemoveOp(struct varlena *v, BfHasher *h, Datum value)
{
	QuotientFilter *qf = (QuotientFilter *) v;

	QfRemoveHash(qf, BfHashDatumFast(h, value, BfGet64(qf->hdr.seed)));
}

/*
 * A new chain of the given member tables (views or single tables), in
 * order, with a's seed and the given insert count
 */
static QuotientFilter *
QfAssemble(const QuotientFilter *a, QuotientFilter **mem, int n, uint64 ninserts)
{
	double		sized = QF_VIEW_OFFSET;
	Size		size,
				off;
	QuotientFilter *res;
	int			j;

	for (j = 0; j < n; j++)
		sized += QF_MEMBER_HDRSZ + QfPayloadSizeD(mem[j]->q, mem[j]->r);
	if (n > QF_MAX_MEMBERS || !(sized <= (double) BF_MAX_DATUM_SIZE))
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("union of quotient filters would have %d members and %.0f bytes, more than the maximum of %d members and %zu bytes",
						n, sized, QF_MAX_MEMBERS, BF_MAX_DATUM_SIZE),
				 errhint("Split the data over several filters.")));
	size = (Size) sized;
	res = palloc0(size);
	BfInitHeader(&res->hdr, size, BF_KIND_QUOTIENTFILTER, BfGet64(a->hdr.seed));
	res->hdr.ninserts = BfPut64(ninserts);
	off = QF_VIEW_OFFSET;
	for (j = 0; j < n; j++)
	{
		QuotientFilter *m = (QuotientFilter *) ((char *) res + off - QF_VIEW_OFFSET);
		Size		psz = QfPayloadSize(mem[j]->q, mem[j]->r);

		m->q = mem[j]->q;
		m->r = mem[j]->r;
		QfSetEntries(m, QfEntries(mem[j]));
		memcpy(m->slots, mem[j]->slots, psz);
		off += QF_MEMBER_HDRSZ + psz;
	}
	QfSetMembersField(res, n);
	return res;
}

/*
 * Whether two tables of the same fingerprint length can be merged into one
 * (QfMerge): the entries fit a table with a remainder bit left
 */
static bool
QfFitsMerged(const QuotientFilter *a, const QuotientFilter *b)
{
	int			p = a->q + a->r;
	int			q = Max(a->q, b->q);
	uint64		n = QfEntries(a) + QfEntries(b);

	while (n > QfMaxEntries(q) && p - q > QF_MIN_R)
		q++;
	return n <= (UINT64CONST(1) << q);
}

/*
 * Union of two filters at least one of which grows: the members of a, and
 * each member of b merged into the first member of the same fingerprint
 * length that can take its entries (QfMerge: the table grows by moving
 * remainder bits to the quotient, which leaves the rate d / 2^p of the two
 * unchanged), else added; the
 * members are then ordered by q (stable), so that the newest, where adds
 * go, is the largest.  Every element of both sides is kept.
 */
static QuotientFilter *
QfChainUnion(const QuotientFilter *a, const QuotientFilter *b)
{
	int			na = QfNMembers(a),
				nb = QfNMembers(b),
				n = 0,
				i,
				j;
	QuotientFilter **mem = palloc(sizeof(QuotientFilter *) * (na + nb));

	for (j = 0; j < na; j++)
		mem[n++] = QfMember(a, j);
	for (j = 0; j < nb; j++)
	{
		QuotientFilter *mb = QfMember(b, j);

		if (QfEntries(mb) == 0)
			continue;
		for (i = 0; i < n; i++)
			if (mem[i]->q + mem[i]->r == mb->q + mb->r &&
				QfFitsMerged(mem[i], mb))
				break;
		if (i < n)
			mem[i] = QfMerge(mem[i], mb);
		else
			mem[n++] = mb;
	}
	/* stable insertion sort by q */
	for (i = 1; i < n; i++)
	{
		QuotientFilter *x = mem[i];

		for (j = i; j > 0 && mem[j - 1]->q > x->q; j--)
			mem[j] = mem[j - 1];
		mem[j] = x;
	}
	return QfAssemble(a, mem, n, BfAddSat64(BfGet64(a->hdr.ninserts), BfGet64(b->hdr.ninserts)));
}

/* merge op: QfMerge of two fixed filters, else QfChainUnion; a new datum */
static struct varlena *
QfMergeOp(struct varlena *state, const struct varlena *other)
{
	const QuotientFilter *a = (const QuotientFilter *) state;
	const QuotientFilter *b = (const QuotientFilter *) other;

	if (QfGrows(a) || QfGrows(b))
		return (struct varlena *) QfChainUnion(a, b);
	return (struct varlena *) QfMerge(a, b);
}

/*
 * Whether QfMerge of tables of ma's q and entries and of mb would keep ma's
 * table size: then inserting mb's fingerprints into ma gives the same table
 * (a table is a function of q and its multiset)
 */
static inline bool
QfMergeKeepsTable(int qa, uint64 entries_a, const QuotientFilter *mb)
{
	return mb->q <= qa && entries_a + QfEntries(mb) <= QfMaxEntries(qa);
}

/* Insert every fingerprint of mb into ma, in place (QfMergeKeepsTable holds) */
static void
QfInsertAll(QuotientFilter *ma, const QuotientFilter *mb)
{
	QfTable		ta,
				tb;
	QfIter		ib;
	uint64		f;

	QfOpen(&ta, ma);
	QfOpen(&tb, mb);
	QfIterInit(&ib, &tb);
	while (QfIterNext(&ib, &f))
		QfInsert(&ta, f >> ta.r, f & ta.rmask);
	QfSetEntries(ma, QfEntries(ma) + QfEntries(mb));
}

/*
 * The union of state a (the aggregate's own) and b in place, when it is
 * what QfMergeOp would build: every member of b that QfChainUnion (or, for
 * two fixed filters, QfMerge) would merge goes into a member whose table
 * keeps its size, none would be appended.  Each of b's fingerprints is then
 * inserted where it goes, instead of the merged tables being rebuilt: a
 * union aggregate of many filters sized for the total does work in
 * proportion to the inputs, not to the state each time.  Returns false,
 * with a unchanged, when it is not.
 */
static bool
QfUnionInPlace(QuotientFilter *a, const QuotientFilter *b)
{
	int			na = QfNMembers(a),
				nb = QfNMembers(b),
				i,
				j;
	QuotientFilter **mem;
	uint64	   *entries;
	int		   *into;

	if (!QfGrows(a) && !QfGrows(b))
	{
		if (!QfMergeKeepsTable(a->q, QfEntries(a), b))
			return false;
		QfInsertAll(a, b);
		return true;
	}
	if (!QfGrows(a))
		return false;			/* the union would be a chain: a new datum */
	mem = palloc(sizeof(QuotientFilter *) * na);
	entries = palloc(sizeof(uint64) * na);
	into = palloc(sizeof(int) * nb);
	for (i = 0; i < na; i++)
	{
		mem[i] = QfMember(a, i);
		entries[i] = QfEntries(mem[i]);
		/* QfChainUnion would put members out of q order in order */
		if (i > 0 && mem[i - 1]->q > mem[i]->q)
		{
			pfree(mem);
			pfree(entries);
			pfree(into);
			return false;
		}
	}
	/* the member QfChainUnion would merge each of b's into, by the entries then */
	for (j = 0; j < nb; j++)
	{
		QuotientFilter *mb = QfMember(b, j);
		int			p = mb->q + mb->r;

		into[j] = -1;
		if (QfEntries(mb) == 0)
			continue;
		for (i = 0; i < na; i++)
		{
			uint64		n = entries[i] + QfEntries(mb);
			int			q = Max(mem[i]->q, mb->q);

			if (mem[i]->q + mem[i]->r != p)
				continue;
			/* QfFitsMerged, with the entries merged so far */
			while (n > QfMaxEntries(q) && p - q > QF_MIN_R)
				q++;
			if (n <= (UINT64CONST(1) << q))
				break;
		}
		if (i == na || !QfMergeKeepsTable(mem[i]->q, entries[i], mb))
		{
			pfree(mem);
			pfree(entries);
			pfree(into);
			return false;
		}
		into[j] = i;
		entries[i] += QfEntries(mb);
	}
	for (j = 0; j < nb; j++)
		if (into[j] >= 0)
			QfInsertAll(mem[into[j]], QfMember(b, j));
	pfree(mem);
	pfree(entries);
	pfree(into);
	return true;
}

/*
 * Merge function of the union aggregates: as QfMergeOp, but into the
 * state itself where the union keeps its tables' sizes (QfUnionInPlace),
 * and an empty filter that does not need a larger table leaves the state
 * as it is.
 */
static struct varlena *
QfMergeStateOp(struct varlena *state, const struct varlena *other)
{
	QuotientFilter *a = (QuotientFilter *) state;
	const QuotientFilter *b = (const QuotientFilter *) other;

	if (QfGrows(a) || QfGrows(b))
	{
		if (QfTotalEntries(b) == 0 && QfGrows(a))
			return state;
	}
	else if (QfEntries(b) == 0 && b->q <= a->q)
		return state;
	if (QfUnionInPlace(a, b))
	{
		a->hdr.ninserts = BfPut64(BfAddSat64(BfGet64(a->hdr.ninserts), BfGet64(b->hdr.ninserts)));
		return state;
	}
	return QfMergeOp(state, other);
}

/*
 * ahead_prepare op: the hash, and the cache line of its home slot in the
 * table that takes it (a fixed filter's, or a chain's newest member's; an
 * insert that shifts a run goes on to the next lines)
 */
static void
QfAheadPrepare(const struct varlena *v, uint64 h, uint64 *row)
{
	const QuotientFilter *qf = (const QuotientFilter *) v;
	const QuotientFilter *m = QfGrows(qf) ? QfMember(qf, QfNMembers(qf) - 1) : qf;
	uint64		quotient = QfFingerprint(h, m->q + m->r) >> m->r;

	row[0] = h;
	BfPrefetchWrite((const uint8 *) m->slots + ((quotient * (uint64) (m->r + 3)) >> 3));
}

/* ahead_add op: add a row's hash as the aggregate does (growing when full) */
static struct varlena *
QfAheadAdd(struct varlena *v, const uint64 *row)
{
	return (struct varlena *) QfAddHash((QuotientFilter *) v, row[0]);
}

static const BfTypeOps QfOps = {
	.name = QF_TYPNAME,
	.kind = BF_KIND_QUOTIENTFILTER,
	.headsize = QF_HDRSZ,
	.check = QfCheck,
	.validate = QfValidate,
	.new_sized = QfNewSized,
	.new_partial = QfNewPartial,
	.final_partial = QfFinalPartial,
	.text_read = QfTextRead,
	.text_write = QfTextWrite,
	.add = QfAddOp,
	.agg_add = QfAddOp,
	.remove = QfRemoveOp,
	.check_compatible = QfCheckCompatible,
	.merge = QfMergeOp,
	.compare = QfCompare,
	.hash = QfHash,
	.ahead_words = BfAheadWordsHash,
	.ahead_prepare = QfAheadPrepare,
	.ahead_add = QfAheadAdd,
	.agg_final = quotientfilter_agg_final,
	.agg_combine = quotientfilter_union_trans,
};

/* The filter argument argno, detoasted and checked */
static inline QuotientFilter *
QfGetArg(FunctionCallInfo fcinfo, int argno)
{
	return (QuotientFilter *) BfGetFilterArg(fcinfo, argno, &QfOps);
}

/* quotientfilter_in(cstring) RETURNS quotientfilter */
Datum
quotientfilter_in(PG_FUNCTION_ARGS)
{
	return BfInGeneric(fcinfo, &QfOps);
}

/* quotientfilter_out(quotientfilter) RETURNS cstring */
Datum
quotientfilter_out(PG_FUNCTION_ARGS)
{
	return BfOutGeneric(fcinfo, &QfOps);
}

/* quotientfilter_recv(internal) RETURNS quotientfilter */
Datum
quotientfilter_recv(PG_FUNCTION_ARGS)
{
	return BfRecvGeneric(fcinfo, &QfOps);
}

/* quotientfilter_send(quotientfilter) RETURNS bytea */
Datum
quotientfilter_send(PG_FUNCTION_ARGS)
{
	return BfSendGeneric(fcinfo, &QfOps);
}

/*
 * quotientfilter_empty(capacity bigint, fpr float8, seed bigint)
 *		An empty filter sized for capacity elements at false-positive rate fpr.
 */
Datum
quotientfilter_empty(PG_FUNCTION_ARGS)
{
	return BfEmptyGeneric(fcinfo, &QfOps);
}

/*
 * quotientfilter_create(q integer, r integer, seed bigint)
 *		An empty filter with explicit quotient and remainder bits.
 */
Datum
quotientfilter_create(PG_FUNCTION_ARGS)
{
	int32		q = PG_GETARG_INT32(0);
	int32		r = PG_GETARG_INT32(1);

	QfCheckParams(q, r);
	PG_RETURN_POINTER(QfNew(q, r, (uint64) PG_GETARG_INT64(2)));
}

/*
 * quotientfilter_add(quotientfilter, anynonarray) RETURNS quotientfilter
 *		A copy of the filter with the element added (grown past the maximum
 *		load); a NULL element leaves the filter as it is.
 */
Datum
quotientfilter_add(PG_FUNCTION_ARGS)
{
	return BfAddGeneric(fcinfo, &QfOps);
}

/*
 * quotientfilter_add(quotientfilter, anyarray) RETURNS quotientfilter
 *		A copy of the filter with every non-null array element added.
 */
Datum
quotientfilter_add_array(PG_FUNCTION_ARGS)
{
	return BfAddArrayGeneric(fcinfo, &QfOps);
}

/*
 * quotientfilter_remove(quotientfilter, anynonarray) RETURNS quotientfilter
 *		A copy of the filter with one copy of the element's fingerprint
 *		removed (unchanged if it is not there).
 */
Datum
quotientfilter_remove(PG_FUNCTION_ARGS)
{
	return BfRemoveGeneric(fcinfo, &QfOps);
}

/*
 * quotientfilter_remove(quotientfilter, anyarray) RETURNS quotientfilter
 *		A copy of the filter with each non-null array element removed once.
 */
Datum
quotientfilter_remove_array(PG_FUNCTION_ARGS)
{
	return BfRemoveArrayGeneric(fcinfo, &QfOps);
}

/*
 * Reading slots of a large filter through TOAST slices: 4 kB blocks of the
 * payload, two kept (a walk may cross a block boundary back and forth).
 */
#define QF_SLICE_WORDS	512

typedef struct QfSlice
{
	BfFilterRef *ref;
	int			w;
	uint64		wmask;
	uint64		mask;
	uint64		nwords;
	uint64		block[2];		/* cached block numbers (PG_UINT64_MAX: none) */
	int			last;			/* the entry used last */
	uint8		bytes[2][QF_SLICE_WORDS * 8];
} QfSlice;

/* Payload word wi, fetching its block if it is not cached */
static uint64
QfSliceWord(QfSlice *sl, uint64 wi)
{
	uint64		blk = wi / QF_SLICE_WORDS;
	int			e;

	if (sl->block[0] == blk)
		e = 0;
	else if (sl->block[1] == blk)
		e = 1;
	else
	{
		uint64		first = blk * QF_SLICE_WORDS;
		uint64		n = Min((uint64) QF_SLICE_WORDS, sl->nwords - first);

		e = 1 - sl->last;
		BfRefReadBytes(sl->ref, QF_HDRSZ + first * 8, n * 8, sl->bytes[e]);
		sl->block[e] = blk;
	}
	sl->last = e;
	return QfLoad(sl->bytes[e] + (wi - blk * QF_SLICE_WORDS) * 8);
}

/* The w-bit field of slot i, through slices */
static uint64
QfSliceGet(QfSlice *sl, uint64 i)
{
	uint64		bit = i * (uint64) sl->w;
	uint64		wi = bit >> 6;
	int			sh = (int) (bit & 63);
	uint64		v = QfSliceWord(sl, wi) >> sh;

	if (sh + sl->w > 64)
		v |= QfSliceWord(sl, wi + 1) << (64 - sh);
	return v & sl->wmask;
}

/*
 * QfLookup through slices (same walk as QfRunStart and QfLookup): only the
 * blocks of the cluster around slot fq are fetched.
 */
static bool
QfSliceLookup(QfSlice *sl, uint64 fq, uint64 fr)
{
	uint64		b = fq,
				s,
				runs = 0,
				steps = 0,
				limit = 4 * (sl->mask + 1) + 4,
				v = QfSliceGet(sl, fq);

	if ((v & QF_OCCUPIED) == 0)
		return false;
	while (v & QF_SHIFTED)
	{
		b = (b - 1) & sl->mask;
		v = QfSliceGet(sl, b);
		if (v & QF_OCCUPIED)
			runs++;
		if (++steps > limit)
			BfCorrupt(QF_TYPNAME, "The slot metadata is inconsistent (a walk over the table does not end).");
	}
	s = b;
	while (runs > 0)
	{
		s = (s + 1) & sl->mask;
		if ((QfSliceGet(sl, s) & QF_CONTINUATION) == 0)
			runs--;
		if (++steps > limit)
			BfCorrupt(QF_TYPNAME, "The slot metadata is inconsistent (a walk over the table does not end).");
	}
	v = QfSliceGet(sl, s);
	for (;;)
	{
		if ((v >> 3) == fr)
			return true;
		if ((v >> 3) > fr)
			return false;
		s = (s + 1) & sl->mask;
		v = QfSliceGet(sl, s);
		if ((v & QF_CONTINUATION) == 0)
			return false;
		if (++steps > limit)
			BfCorrupt(QF_TYPNAME, "The slot metadata is inconsistent (a walk over the table does not end).");
	}
}

/*
 * Probe the filter argument fargno for the element argument eargno.  A
 * filter in memory (or detoasted once and cached for the query) is probed
 * directly; the first probe of a large uncompressed stored value reads only
 * the header and the blocks of one cluster through TOAST slices.
 */
static bool
QfProbe(FunctionCallInfo fcinfo, int fargno, int eargno)
{
	BfFilterRef ref;
	const QuotientFilter *qf;
	uint64		f;
	int			p;
	BfHasher   *h = BfGetHasher(fcinfo, eargno);

	BfOpenFilter(fcinfo, fargno, QF_HDRSZ, &ref);
	qf = (const QuotientFilter *) BfRefHead(&ref);
	if (QfMembersField(qf) > 1)
	{
		/* a chain: every member is probed, so read the whole value */
		if (!ref.full)
			qf = QfGetArg(fcinfo, fargno);
		else
			QfCheck(qf, ref.total);
		return QfLookupHash(qf, BfHashDatumFast(h, PG_GETARG_DATUM(eargno), BfGet64(qf->hdr.seed)));
	}
	QfCheck(qf, ref.total);
	p = qf->q + qf->r;
	f = QfFingerprint(BfHashDatumFast(h, PG_GETARG_DATUM(eargno), BfGet64(qf->hdr.seed)), p);
	if (ref.full)
	{
		QfTable		t;

		QfOpen(&t, qf);
		return QfLookup(&t, f >> t.r, f & t.rmask);
	}
	else
	{
		QfSlice    *sl = palloc(sizeof(QfSlice));
		bool		found;

		sl->ref = &ref;
		sl->w = qf->r + 3;
		sl->wmask = sl->w == 64 ? PG_UINT64_MAX : (UINT64CONST(1) << sl->w) - 1;
		sl->mask = (UINT64CONST(1) << qf->q) - 1;
		sl->nwords = QfPayloadSize(qf->q, qf->r) / 8;
		sl->block[0] = sl->block[1] = PG_UINT64_MAX;
		sl->last = 0;
		found = QfSliceLookup(sl, f >> qf->r, f & ((UINT64CONST(1) << qf->r) - 1));
		pfree(sl);
		return found;
	}
}

/*
 * quotientfilter_contains(quotientfilter, anynonarray) RETURNS bool	(@>)
 *		Whether the element may be in the filter (false means: certainly not).
 */
Datum
quotientfilter_contains(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(QfProbe(fcinfo, 0, 1));
}

/*
 * quotientfilter_contained(anynonarray, quotientfilter) RETURNS bool	(<@)
 */
Datum
quotientfilter_contained(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(QfProbe(fcinfo, 1, 0));
}

/*
 * quotientfilter_add_fingerprint(quotientfilter, bigint) RETURNS quotientfilter
 *		A copy with a raw p-bit fingerprint inserted (for worked examples and
 *		clients that hash themselves).
 */
Datum
quotientfilter_add_fingerprint(PG_FUNCTION_ARGS)
{
	QuotientFilter *qf = (QuotientFilter *) BfStateForUpdate(fcinfo, 0);
	uint64		f;

	QfCheck(qf, VARSIZE(qf));
	QfRequireOneTable(qf, "quotientfilter_add_fingerprint");
	f = QfCheckFingerprint(qf, PG_GETARG_INT64(1));
	if (QfGrows(qf) && QfEntries(qf) + 1 > QfMaxEntries(qf->q))
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("quotientfilter_add_fingerprint cannot grow a growing quotientfilter"),
				 errdetail("Its table is at the maximum load, and a new member would take longer fingerprints."),
				 errhint("Use quotientfilter_add for elements, or quotientfilter_create(q, r) for raw fingerprints.")));
	PG_RETURN_POINTER(QfAddFingerprint(qf, f));
}

/*
 * quotientfilter_remove_fingerprint(quotientfilter, bigint) RETURNS quotientfilter
 *		A copy with one copy of a raw fingerprint removed.
 */
Datum
quotientfilter_remove_fingerprint(PG_FUNCTION_ARGS)
{
	QuotientFilter *qf = (QuotientFilter *) BfStateForUpdate(fcinfo, 0);

	QfCheck(qf, VARSIZE(qf));
	QfRequireOneTable(qf, "quotientfilter_remove_fingerprint");
	QfRemoveFingerprint(qf, QfCheckFingerprint(qf, PG_GETARG_INT64(1)));
	PG_RETURN_POINTER(qf);
}

/*
 * quotientfilter_contains_fingerprint(quotientfilter, bigint) RETURNS bool
 *		Whether a raw fingerprint is stored.
 */
Datum
quotientfilter_contains_fingerprint(PG_FUNCTION_ARGS)
{
	QuotientFilter *qf = QfGetArg(fcinfo, 0);
	uint64		f;
	QfTable		t;

	QfRequireOneTable(qf, "quotientfilter_contains_fingerprint");
	f = QfCheckFingerprint(qf, PG_GETARG_INT64(1));

	QfOpen(&t, qf);
	PG_RETURN_BOOL(QfLookup(&t, f >> t.r, f & t.rmask));
}

/*
 * quotientfilter_union(quotientfilter, quotientfilter) RETURNS quotientfilter (|)
 *		Merge of two filters with the same fingerprint length and seed.
 */
Datum
quotientfilter_union(PG_FUNCTION_ARGS)
{
	return BfCombineGeneric(fcinfo, &QfOps, QfMergeOp, false);
}

/*
 * The largest q a resize to fingerprints of p bits can take: at least one
 * remainder bit, and a table within the size limit
 */
static int
QfMaxResizeQ(int p)
{
	int			q = p - QF_MIN_R;

	while (q > QF_MIN_Q && !QfTableFits(q, p - q))
		q--;
	return q;
}

/*
 * Raise 54000 if the table of a resize to q slots (fingerprints of p bits)
 * would pass the size limit, before QfNew would refuse a q over QF_MAX_Q with
 * quotientfilter_create's 22023: a q the fingerprints allow but no table can
 * hold is a size limit, as for every resize that is too large
 */
static void
QfCheckResizeSize(int q, int p)
{
	double		bytes = QfTableBytes(q, p - q);

	if (!(bytes <= (double) BF_MAX_DATUM_SIZE))
		BfCheckSizeHint(QF_TYPNAME, bytes,
						psprintf("A table of 2^%d slots of %d remainder bits was asked for.", q, p - q),
						psprintf("Choose q at most %d.", QfMaxResizeQ(p)));
}

/*
 * quotientfilter_resize(quotientfilter, q integer) RETURNS quotientfilter
 *		The same fingerprints in a table of 2^q slots: bits move between
 *		quotient and remainder, nothing is rehashed.  A chain of several
 *		members is folded into one table of the shortest member's fingerprint
 *		length (QfFold): every element is kept, the rate becomes that of the
 *		entries at that length, and the result grows by members again.
 */
Datum
quotientfilter_resize(PG_FUNCTION_ARGS)
{
	QuotientFilter *qf = QfGetArg(fcinfo, 0);
	int32		q = PG_GETARG_INT32(1);
	int			nm = QfNMembers(qf);
	int			shortest = 0;
	int			p = nm > 1 ? QfShortestP(qf, &shortest) : qf->q + qf->r;
	uint64		n = QfTotalEntries(qf);

	if (q < QF_MIN_Q)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("number of quotient bits q must be at least %d", QF_MIN_Q),
				 errdetail("q = %d was given.", q),
				 errhint("Give a q from %d to the fingerprint length minus %d; quotientfilter_info(f) shows q and r.",
						 QF_MIN_Q, QF_MIN_R)));
	/*
	 * a slot holds at most QF_MAX_R remainder bits: refused here in
	 * resize's words, not by QfNew with quotientfilter_create's r range
	 */
	if (q < p - QF_MAX_R)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("cannot resize quotientfilter to q = %d: the remainders would have %d bits", q, p - q),
				 errdetail("The fingerprints have %d bits and a remainder at most %d, so q must be at least %d.",
						   p, QF_MAX_R, p - QF_MAX_R),
				 errhint("Choose q between %d and %d.",
						 Max(p - QF_MAX_R, QfQuotientToHold(n)), QfMaxResizeQ(p))));
	if (nm > 1)
	{
		int			minq = QfQuotientToHold(n);

		if (minq > p - QF_MIN_R)
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("cannot fold a quotientfilter of %d members into one table", nm),
					 errdetail("One table keeps the shortest fingerprints, the %d bits of member %d, so it has at most 2^%d slots, and the " UINT64_FORMAT " entries need 2^%d.",
							   p, shortest, p - QF_MIN_R, n, minq),
					 errhint("Keep the chain as it is, or rebuild the filter from the data with quotientfilter_agg(x, capacity, fpr) and a capacity of at least " UINT64_FORMAT ".",
							 n)));
		if (q > p - QF_MIN_R)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("cannot resize quotientfilter to q = %d: no remainder bits left to move", q),
					 errdetail("Resizing folds the %d members into one table with the shortest fingerprints, the %d bits of member %d, so q can be at most %d (leaving %d remainder bit).",
							   nm, p, shortest, p - QF_MIN_R, QF_MIN_R),
					 errhint("Choose q between %d and %d.", minq, QfMaxResizeQ(p))));
		if (q < minq)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("cannot shrink quotientfilter to q = %d: " UINT64_FORMAT " entries do not fit in %llu slots",
							q, n, (unsigned long long) (UINT64CONST(1) << q)),
					 errdetail("The %d members hold " UINT64_FORMAT " entries in all.", nm, n),
					 errhint("Choose q between %d and %d.", minq, QfMaxResizeQ(p))));
		QfCheckResizeSize(q, p);
		PG_RETURN_POINTER(QfFold(qf, q, p));
	}
	if (q > p - QF_MIN_R)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("cannot resize quotientfilter to q = %d: no remainder bits left to move", q),
				 errdetail("The fingerprints have %d bits, so q can be at most %d (leaving %d remainder bit).",
						   p, p - QF_MIN_R, QF_MIN_R),
				 errhint("Build a new filter with a smaller false-positive rate to get longer fingerprints.")));
	if (q < 63 && n > (UINT64CONST(1) << q))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("cannot shrink quotientfilter to q = %d: " UINT64_FORMAT " entries do not fit in %llu slots",
						q, n, (unsigned long long) (UINT64CONST(1) << q)),
				 errhint("Choose q with 2^q at least the number of entries (quotientfilter_cardinality).")));
	if (q == qf->q)
		PG_RETURN_POINTER(BfCopyDatum((struct varlena *) qf));
	QfCheckResizeSize(q, p);
	PG_RETURN_POINTER(QfRebuild(qf, q));
}

/* The parameters = looks at: hash algorithm, seed and fingerprint length p */
static void
QfKey(const QuotientFilter *qf, uint8 *key)
{
	key[0] = qf->hdr.hashalg;
	memcpy(key + 1, &qf->hdr.seed, 8);	/* stored little-endian */
	key[9] = (uint8) (qf->q + qf->r);
}

/*
 * Compare two member tables: fingerprint length, then the ascending
 * fingerprint streams, then their lengths
 */
static int
QfCompareMembers(const QuotientFilter *a, const QuotientFilter *b)
{
	QfTable		ta,
				tb;
	QfIter		ia,
				ib;
	uint64		fa = 0,
				fb = 0;
	bool		hasa,
				hasb;

	if (a->q + a->r != b->q + b->r)
		return a->q + a->r < b->q + b->r ? -1 : 1;
	if (a->q == b->q && QfEntries(a) == QfEntries(b) &&
		memcmp(a->slots, b->slots, QfPayloadSize(a->q, a->r)) == 0)
		return 0;
	QfOpen(&ta, a);
	QfOpen(&tb, b);
	QfIterInit(&ia, &ta);
	QfIterInit(&ib, &tb);
	for (;;)
	{
		hasa = QfIterNext(&ia, &fa);
		hasb = QfIterNext(&ib, &fb);
		if (!hasa || !hasb)
			return hasa == hasb ? 0 : (hasa ? 1 : -1);
		if (fa != fb)
			return fa < fb ? -1 : 1;
	}
}

/*
 * The members a comparison looks at, into mem: those holding entries, or
 * all of them when none does, in the order of QfCompareMembers (fingerprint
 * length, then the fingerprint streams).  An empty member and the order of
 * the members are layout: a union keeps its left side's empty members and
 * orders members by table size, so a | b and b | a may differ in both.
 * Returns the number of members in mem.
 */
static int
QfCanonicalMembers(const QuotientFilter *qf, const QuotientFilter **mem)
{
	int			nm = QfNMembers(qf),
				n = 0,
				i,
				j;

	for (j = 0; j < nm; j++)
		if (QfEntries(QfMember(qf, j)) > 0)
			mem[n++] = QfMember(qf, j);
	if (n == 0)
		for (j = 0; j < nm; j++)
			mem[n++] = QfMember(qf, j);
	/* insertion sort: at most QF_MAX_MEMBERS, usually one */
	for (i = 1; i < n; i++)
	{
		const QuotientFilter *x = mem[i];

		for (j = i; j > 0 && QfCompareMembers(mem[j - 1], x) > 0; j--)
			mem[j] = mem[j - 1];
		mem[j] = x;
	}
	return n;
}

/*
 * compare op: the hash algorithm and seed, the number of member tables
 * that hold entries, then those members in the order of QfCompareMembers,
 * member by member: the fingerprint length and the ascending fingerprint
 * streams (a multiset: duplicates repeat), then their lengths; filters
 * with no entries at all compare all their members so.  For one table this
 * is the order of 1.1's first layout.  The number of quotient bits is a
 * matter of layout (quotientfilter_resize moves bits between quotient and
 * remainder without rehashing, and filters of different q can be merged),
 * so filters of different q holding the same fingerprints are equal; so
 * are chains that differ only in empty members or in the order of their
 * members (QfCanonicalMembers); the insert counter and whether a one-table
 * filter grows by members are not compared.  Equal tables of the same q
 * are recognized by their bytes.
 */
static int
QfCompare(const void *a_arg, const void *b_arg)
{
	const QuotientFilter *a = a_arg;
	const QuotientFilter *b = b_arg;
	uint8		ka[10],
				kb[10];
	const QuotientFilter *ma[QF_MAX_MEMBERS],
			   *mb[QF_MAX_MEMBERS];
	int			na,
				nb,
				j,
				c;

	QfKey(a, ka);
	QfKey(b, kb);
	c = memcmp(ka, kb, 9);
	if (c != 0)
		return c < 0 ? -1 : 1;
	na = QfCanonicalMembers(a, ma);
	nb = QfCanonicalMembers(b, mb);
	if (na != nb)
		return na < nb ? -1 : 1;
	for (j = 0; j < na; j++)
	{
		c = QfCompareMembers(ma[j], mb[j]);
		if (c != 0)
			return c;
	}
	return 0;
}

/*
 * hash op matching QfCompare: XXH3 of the hash algorithm and seed, then of
 * each compared member's fingerprint length and fingerprint stream, in
 * QfCanonicalMembers' order (for one table, the hash of 1.1's first layout)
 */
static uint64
QfHash(const void *v, uint64 seed)
{
	const QuotientFilter *qf = v;
	uint8		key[10];
	uint64		buf[256];
	const QuotientFilter *mem[QF_MAX_MEMBERS];
	int			n = 0,
				nm = QfCanonicalMembers(qf, mem),
				j;
	uint64		f = 0;
	XXH3_state_t st;

	QfKey(qf, key);
	XXH3_INITSTATE(&st);
	XXH3_64bits_reset_withSeed(&st, seed);
	XXH3_64bits_update(&st, key, 9);
	for (j = 0; j < nm; j++)
	{
		const QuotientFilter *m = mem[j];
		uint8		p = (uint8) (m->q + m->r);
		QfTable		t;
		QfIter		it;

		XXH3_64bits_update(&st, &p, 1);
		QfOpen(&t, m);
		QfIterInit(&it, &t);
		n = 0;
		while (QfIterNext(&it, &f))
		{
			buf[n++] = BfPut64(f);
			if (n == lengthof(buf))
			{
				XXH3_64bits_update(&st, buf, sizeof(buf));
				n = 0;
			}
		}
		XXH3_64bits_update(&st, buf, n * sizeof(uint64));
	}
	return XXH3_64bits_digest(&st);
}

/*
 * quotientfilter_eq, _ne, _lt, _le, _gt, _ge(quotientfilter, quotientfilter) RETURNS bool	(=, <>, <, <=, >, >=)
 *		A total order over all values (design.md, "Equality and ordering"):
 *		filters with different parameters are unequal, not an error.
 */
Datum
quotientfilter_eq(PG_FUNCTION_ARGS)
{
	return BfCompareGeneric(fcinfo, &QfOps, BF_CMP_EQ);
}

Datum
quotientfilter_ne(PG_FUNCTION_ARGS)
{
	return BfCompareGeneric(fcinfo, &QfOps, BF_CMP_NE);
}

Datum
quotientfilter_lt(PG_FUNCTION_ARGS)
{
	return BfCompareGeneric(fcinfo, &QfOps, BF_CMP_LT);
}

Datum
quotientfilter_le(PG_FUNCTION_ARGS)
{
	return BfCompareGeneric(fcinfo, &QfOps, BF_CMP_LE);
}

Datum
quotientfilter_gt(PG_FUNCTION_ARGS)
{
	return BfCompareGeneric(fcinfo, &QfOps, BF_CMP_GT);
}

Datum
quotientfilter_ge(PG_FUNCTION_ARGS)
{
	return BfCompareGeneric(fcinfo, &QfOps, BF_CMP_GE);
}

/* quotientfilter_cmp(quotientfilter, quotientfilter) RETURNS int4: the btree operator class's support function */
Datum
quotientfilter_cmp(PG_FUNCTION_ARGS)
{
	return BfCompareGeneric(fcinfo, &QfOps, BF_CMP);
}

/* quotientfilter_hash(quotientfilter) RETURNS int4: the hash operator class's support function */
Datum
quotientfilter_hash(PG_FUNCTION_ARGS)
{
	return BfHashGeneric(fcinfo, &QfOps, false);
}

/* quotientfilter_hash_extended(quotientfilter, bigint) RETURNS bigint: the seeded 64-bit hash support function */
Datum
quotientfilter_hash_extended(PG_FUNCTION_ARGS)
{
	return BfHashGeneric(fcinfo, &QfOps, true);
}

/*
 * quotientfilter_cardinality(quotientfilter) RETURNS bigint
 *		The exact number of stored fingerprints (entries), summed over the
 *		members: the size of the multiset, so an element added twice counts
 *		twice whether its two copies are in one member or in two, and the
 *		count is additive under | and unchanged by a resize or fold.
 */
Datum
quotientfilter_cardinality(PG_FUNCTION_ARGS)
{
	uint64		n = QfTotalEntries(QfGetArg(fcinfo, 0));

	PG_RETURN_INT64((int64) n);
}

/*
 * quotientfilter_fpr(quotientfilter) RETURNS float8
 *		False-positive rate now: distinct fingerprints / 2^(q + r), summed
 *		over the members (at most 1).
 */
Datum
quotientfilter_fpr(PG_FUNCTION_ARGS)
{
	QuotientFilter *qf = QfGetArg(fcinfo, 0);
	int			n = QfNMembers(qf),
				j;
	double		fpr = 0.0;

	for (j = 0; j < n; j++)
	{
		QuotientFilter *m = QfMember(qf, j);
		QfStats		st;

		QfGatherStats(m, &st);
		fpr += QfFprOf(m, st.distinct);
	}
	PG_RETURN_FLOAT8(Min(fpr, 1.0));
}

/*
 * quotientfilter_info(quotientfilter) RETURNS record
 *		Every parameter, the size, the load and the estimates.  For a chain
 *		q, r and p are the newest member's (where adds go); slots, entries,
 *		runs, clusters and the rates are summed over the members.
 */
Datum
quotientfilter_info(PG_FUNCTION_ARGS)
{
	QuotientFilter *qf = QfGetArg(fcinfo, 0);
	int			nm = QfNMembers(qf),
				j;
	QuotientFilter *last = QfMember(qf, nm - 1);
	uint64		nslots = 0;
	uint64		n = QfTotalEntries(qf);
	uint64		ins = BfGet64(qf->hdr.ninserts);
	QfStats		st;
	double		fpr = 0.0,
				fprmax = 0.0;
	Datum		values[19];
	bool		nulls[19] = {0};

	memset(&st, 0, sizeof(st));
	for (j = 0; j < nm; j++)
	{
		QuotientFilter *m = QfMember(qf, j);
		QfStats		ms;

		QfGatherStats(m, &ms);
		st.distinct += ms.distinct;
		st.runs += ms.runs;
		st.clusters += ms.clusters;
		st.longest_cluster = Max(st.longest_cluster, ms.longest_cluster);
		nslots += UINT64CONST(1) << m->q;
		fpr += QfFprOf(m, ms.distinct);
		fprmax += QF_MAX_LOAD * ldexp(1.0, -m->r);
	}
	values[0] = Int32GetDatum(qf->hdr.version);
	values[1] = CStringGetTextDatum("xxh3");
	values[2] = Int64GetDatum((int64) BfGet64(qf->hdr.seed));
	values[3] = Int32GetDatum(last->q);
	values[4] = Int32GetDatum(last->r);
	values[5] = Int32GetDatum(last->q + last->r);
	values[6] = Int64GetDatum((int64) nslots);
	values[7] = Int64GetDatum((int64) n);
	values[8] = Int64GetDatum((int64) st.distinct);
	values[9] = Int64GetDatum(ins > (uint64) PG_INT64_MAX ? PG_INT64_MAX : (int64) ins);
	values[10] = Float8GetDatum((double) n / (double) nslots);
	values[11] = Float8GetDatum(QF_MAX_LOAD);
	values[12] = Int64GetDatum((int64) st.runs);
	values[13] = Int64GetDatum((int64) st.clusters);
	values[14] = Int64GetDatum((int64) st.longest_cluster);
	values[15] = Int64GetDatum((int64) VARSIZE(qf));
	if (n > 0)
		values[16] = Float8GetDatum((double) VARSIZE(qf) * 8.0 / (double) n);
	else
		nulls[16] = true;
	values[17] = Float8GetDatum(Min(fpr, 1.0));
	values[18] = Float8GetDatum(Min(fprmax, 1.0));
	PG_RETURN_DATUM(BfInfoTuple(fcinfo, values, nulls, 19));
}

/* State of quotientfilter_fingerprints across calls */
typedef struct QfFingerprintsState
{
	QuotientFilter *qf;
	QfTable		t;
	QfIter		it;
} QfFingerprintsState;

/*
 * quotientfilter_fingerprints(quotientfilter) RETURNS SETOF bigint
 *		The stored fingerprints in ascending (unsigned) order, duplicates
 *		repeated.
 */
Datum
quotientfilter_fingerprints(PG_FUNCTION_ARGS)
{
	FuncCallContext *funcctx;
	QfFingerprintsState *st;
	uint64		f;

	if (SRF_IS_FIRSTCALL())
	{
		MemoryContext old;
		QuotientFilter *qf;

		funcctx = SRF_FIRSTCALL_INIT();
		old = MemoryContextSwitchTo(funcctx->multi_call_memory_ctx);
		qf = (QuotientFilter *) PG_DETOAST_DATUM_COPY(PG_GETARG_DATUM(0));
		QfCheck(qf, VARSIZE(qf));
		QfRequireOneTable(qf, "quotientfilter_fingerprints");
		st = palloc(sizeof(QfFingerprintsState));
		st->qf = qf;
		QfOpen(&st->t, qf);
		QfIterInit(&st->it, &st->t);
		funcctx->user_fctx = st;
		MemoryContextSwitchTo(old);
	}
	funcctx = SRF_PERCALL_SETUP();
	st = (QfFingerprintsState *) funcctx->user_fctx;
	if (QfIterNext(&st->it, &f))
		SRF_RETURN_NEXT(funcctx, Int64GetDatum((int64) f));
	SRF_RETURN_DONE(funcctx);
}

/*
 * quotientfilter_slots(quotientfilter) RETURNS TABLE(slot bigint,
 *		remainder varbit, is_occupied bool, is_continuation bool,
 *		is_shifted bool)
 *		Every slot with a metadata bit set, for inspection.
 */
Datum
quotientfilter_slots(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	QuotientFilter *qf = QfGetArg(fcinfo, 0);
	QfTable		t;
	uint64		i;
	char	   *bits;

	QfRequireOneTable(qf, "quotientfilter_slots");
	InitMaterializedSRF(fcinfo, 0);
	QfOpen(&t, qf);
	bits = palloc(t.r + 1);
	for (i = 0; i < t.nslots; i++)
	{
		uint64		v = QfGet(&t, i);
		Datum		values[5];
		bool		nulls[5] = {0};
		int			b;

		if ((i & 0xFFFF) == 0xFFFF)
			CHECK_FOR_INTERRUPTS();
		if ((v & QF_META) == 0)
			continue;
		for (b = 0; b < t.r; b++)
			bits[b] = ((v >> 3) >> (t.r - 1 - b)) & 1 ? '1' : '0';
		bits[t.r] = '\0';
		values[0] = Int64GetDatum((int64) i);
		values[1] = DirectFunctionCall3(varbit_in, CStringGetDatum(bits),
										ObjectIdGetDatum(InvalidOid), Int32GetDatum(-1));
		values[2] = BoolGetDatum((v & QF_OCCUPIED) != 0);
		values[3] = BoolGetDatum((v & QF_CONTINUATION) != 0);
		values[4] = BoolGetDatum((v & QF_SHIFTED) != 0);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}

/*
 * quotientfilter_agg_trans(quotientfilter, anynonarray [, capacity, fpr])
 *		Aggregate transition: add the element to the state, creating it on
 *		the first row and growing it past the maximum load (a new state, in
 *		the current context, which the executor copies into its own).  NULL
 *		elements are skipped.
 */
Datum
quotientfilter_agg_trans(PG_FUNCTION_ARGS)
{
	return BfAggTransGeneric(fcinfo, &QfOps);
}

/*
 * quotientfilter_agg_final(quotientfilter [, anynonarray, bigint, float8])
 *		The state, or over no rows an empty filter with the aggregate's
 *		parameters (its constant arguments, else the constant defaults).
 */
Datum
quotientfilter_agg_final(PG_FUNCTION_ARGS)
{
	return BfAggFinalGeneric(fcinfo, &QfOps);
}

/*
 * quotientfilter_union_trans(quotientfilter, quotientfilter)
 *		Transition and combine function of the union aggregates: merge the
 *		right filter into the state (a new datum each time).
 */
Datum
quotientfilter_union_trans(PG_FUNCTION_ARGS)
{
	return BfMergeTransGeneric(fcinfo, &QfOps, QfMergeStateOp);
}
