/*
 * pagebloomutils.c
 *		pagebloom helpers: cached per-index state, signature sizing, key
 *		hashing, page initialization, setting bits under generic WAL, the
 *		cost estimate, and the SQL-callable verification and inspection
 *		functions.
 *
 * Keys.  Column c (0-based) of value v hashes to h = BfHashDatum(v, seed + c)
 * with the canonical hashing of hash.c, so equal values of cross-type
 * equality (int2/int4/int8, float4/float8, text/varchar/name) give equal
 * keys.  A NULL of column c is the key PbNullHash(seed, c), so IS NULL is a
 * probe like any other.  The key's signature block is the high part of
 * h * nblocks (fast range) and its k distinct rows inside the block are drawn
 * from a splitmix64 sequence seeded by h (PbKeyMask).
 *
 * Setting bits.  An insert (one row, or a statement's batch of rows:
 * pagebloominsert.c) sets the k bits of each of its keys in the slice page
 * of its block for its range's segment.  Bits only go from 0 to 1 here,
 * so concurrent inserters commute; pages are locked exclusively in block
 * order, at most MAX_GENERIC_XLOG_PAGES per generic WAL record, and a page
 * whose bits are all set already is not written at all.
 */
#include "pagebloom.h"

#include <math.h>

#include "access/generic_xlog.h"
#include "access/htup_details.h"
#include "access/relation.h"
#include "access/rmgr.h"
#include "access/xloginsert.h"
#include "access/table.h"
#include "access/tableam.h"
#include "catalog/index.h"
#include "catalog/pg_type.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "optimizer/cost.h"
#include "optimizer/optimizer.h"
#include "optimizer/plancat.h"
#include "pgstat.h"
#include "port/pg_bitutils.h"
#include "storage/lmgr.h"
#include "storage/smgr.h"
#include "utils/acl.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/selfuncs.h"
#include "utils/snapmgr.h"
#include "utils/spccache.h"

PG_FUNCTION_INFO_V1(pagebloom_verify);
PG_FUNCTION_INFO_V1(pagebloom_info);


/* ---------------------------------------------------------------------
 * Signature sizing
 * ---------------------------------------------------------------------
 */

/*
 * The false-positive rates, for k = 1 .. PB_MAX_K, of a probe with k bits of a
 * blocked Bloom filter of nvalues keys in nblocks blocks of blockbits bits:
 * the probed block holds j other keys (Poisson, mean nvalues / nblocks), each
 * bit of it is set with probability 1 - (1 - 1/B)^(s j) when keys set s bits.
 * With kbar > 0 the keys set kbar bits each on average, whatever k; with
 * kbar = 0 they set k bits, as the probe (the rate of an index whose keys
 * all have k bits).  One pass over j: the Poisson weight and (1 - 1/B)^j once
 * per j, the powers for each k by multiplication (evaluating each k on its
 * own made the parameter search about 45 ms of a 1M-row build, until
 * 2026-11-27).  f[k] receives the rate for k (f[0] unused).
 */
static void
PbBlockedFprAll(double nvalues, uint32 nblocks, int blockbits, double kbar,
				double *f)
{
	double		lambda = nvalues / (double) nblocks;
	double		q = 1.0 - 1.0 / blockbits;
	double		loglambda;
	int			jmax;
	int			j;
	int			k;

	for (k = 0; k <= PB_MAX_K; k++)
		f[k] = 0.0;
	if (lambda <= 0)
		return;
	if (lambda > 20000)
	{
		double		a = 1.0 - pow(q, kbar * lambda);

		for (k = 1; k <= PB_MAX_K; k++)
			f[k] = kbar > 0 ? pow(a, k) : pow(1.0 - pow(q, k * lambda), k);
		return;
	}
	loglambda = log(lambda);
	jmax = (int) (lambda + 12 * sqrt(lambda) + 30);
	for (j = 0; j <= jmax; j++)
	{
		double		p = exp(-lambda + j * loglambda - lgamma(j + 1.0));

		if (kbar > 0)
		{
			double		a = 1.0 - pow(q, kbar * j);
			double		t = a;

			for (k = 1; k <= PB_MAX_K; k++)
			{
				f[k] += p * t;
				t *= a;
			}
		}
		else
		{
			double		qj = pow(q, (double) j);
			double		qk = 1.0;

			for (k = 1; k <= PB_MAX_K; k++)
			{
				double		a;
				double		ak;
				int			i;

				qk *= qj;		/* q^(k j) */
				a = 1.0 - qk;
				ak = a;
				for (i = 1; i < k; i++)
					ak *= a;
				f[k] += p * ak;
			}
		}
	}
	for (k = 1; k <= PB_MAX_K; k++)
		f[k] = Min(f[k], 1.0);
}

/* The rate of a k-bit probe when keys set kbar bits on average */
double
PbBlockedFprMixed(double nvalues, uint32 nblocks, int blockbits, double kbar, int k)
{
	double		f[PB_MAX_K + 1];

	PbBlockedFprAll(nvalues, nblocks, blockbits, kbar, f);
	return f[Max(Min(k, PB_MAX_K), 1)];
}

/* The best k for a load, all keys with k bits, and its false-positive rate */
static int
PbBestK(double nvalues, uint32 nblocks, int blockbits, double *fpr)
{
	double		f[PB_MAX_K + 1];
	int			bestk = 1;
	double		best = 2.0;
	int			k;

	PbBlockedFprAll(nvalues, nblocks, blockbits, 0, f);
	for (k = 1; k <= PB_MAX_K; k++)
	{
		if (f[k] < best)
		{
			best = f[k];
			bestk = k;
		}
	}
	*fpr = best;
	return bestk;
}

/* Signature blocks of blockbits bits for nvalues keys of bits bits each */
static uint32
PbBlocksForBits(double nvalues, int blockbits, double bits)
{
	double		n = ceil(nvalues * bits / blockbits);

	return (uint32) Max(Min(n, (double) PB_MAX_NBLOCKS), 1.0);
}

/*
 * The false-positive rates, for k = 1 .. PB_MAX_K, of a k-bit probe of a
 * blocked filter whose keys come from columns with different bits per key
 * (kcol[0 .. ncols-1], equally many keys each).  The closed form above
 * assumes every key sets kbar bits, which underestimates the rate when the
 * bits per key vary; here the number s of set bits of the probed block is
 * followed exactly as keys arrive (a key of k distinct random rows turns d
 * more bits on with hypergeometric probability), weighted by the Poisson
 * number of keys, and a probe of k distinct rows hits s set bits with
 * probability C(s, k) / C(B, k).
 */
static void
PbMixedFprAll(double nvalues, uint32 nblocks, int blockbits, const uint8 *kcol,
			  int ncols, double *f)
{
	/* tables for the block size of the last call */
	static int	tables_b = 0;
	static double hyper[PB_MAX_K + 1][PB_MAX_BLOCK_BITS + 1][PB_MAX_K + 1];
	static double hitp[PB_MAX_BLOCK_BITS + 1][PB_MAX_K + 1];
	double		lambda = nvalues / (double) nblocks;
	double		weight[PB_MAX_K + 1];
	double		prob[PB_MAX_BLOCK_BITS + 1];
	double		next[PB_MAX_BLOCK_BITS + 1];
	const int	B = blockbits;
	int			jmax;
	int			j;
	int			k;
	int			sbits;
	int			c;

	Assert(B >= 2 && B <= PB_MAX_BLOCK_BITS);
	if (tables_b != B)
	{
		for (k = 0; k <= PB_MAX_K; k++)
			for (sbits = 0; sbits <= B; sbits++)
			{
				int			d;

				for (d = 0; d <= PB_MAX_K; d++)
				{
					/* d of the key's k rows among the B - s unset ones */
					if (d > k || d > B - sbits || k - d > sbits)
						hyper[k][sbits][d] = 0;
					else
						hyper[k][sbits][d] = exp(lgamma(B - sbits + 1.0) - lgamma(d + 1.0) - lgamma(B - sbits - d + 1.0)
												 + lgamma(sbits + 1.0) - lgamma(k - d + 1.0) - lgamma(sbits - k + d + 1.0)
												 - (lgamma(B + 1.0) - lgamma(k + 1.0) - lgamma(B - k + 1.0)));
				}
				hitp[sbits][k] = (k > sbits) ? 0 :
					exp(lgamma(sbits + 1.0) - lgamma(sbits - k + 1.0) - lgamma(B + 1.0) + lgamma(B - k + 1.0));
			}
		tables_b = B;
	}

	for (k = 0; k <= PB_MAX_K; k++)
	{
		f[k] = 0;
		weight[k] = 0;
	}
	if (lambda <= 0)
		return;
	if (lambda > 200)
	{
		/* a saturated block: the closed form is as good */
		double		kbar = 0;

		for (c = 0; c < ncols; c++)
			kbar += kcol[c];
		PbBlockedFprAll(nvalues, nblocks, B, kbar / ncols, f);
		return;
	}
	for (c = 0; c < ncols; c++)
		weight[kcol[c]] += 1.0 / ncols;

	memset(prob, 0, sizeof(double) * (B + 1));
	prob[0] = 1.0;
	jmax = (int) (lambda + 12 * sqrt(lambda) + 30);
	for (j = 0; j <= jmax; j++)
	{
		double		w = exp(-lambda + j * log(lambda) - lgamma(j + 1.0));

		for (sbits = 0; sbits <= B; sbits++)
			if (prob[sbits] > 0)
				for (k = 1; k <= PB_MAX_K; k++)
					f[k] += w * prob[sbits] * hitp[sbits][k];
		/* one more key */
		memset(next, 0, sizeof(double) * (B + 1));
		for (sbits = 0; sbits <= B; sbits++)
		{
			if (prob[sbits] <= 0)
				continue;
			for (k = 1; k <= PB_MAX_K; k++)
			{
				int			d;

				if (weight[k] <= 0)
					continue;
				for (d = 0; d <= k && sbits + d <= B; d++)
					next[sbits + d] += prob[sbits] * weight[k] * hyper[k][sbits][d];
			}
		}
		memcpy(prob, next, sizeof(double) * (B + 1));
	}
	for (k = 1; k <= PB_MAX_K; k++)
		f[k] = Min(f[k], 1.0);
}

/*
 * Bits per key for columns with different targets, for nblocks blocks: each
 * column takes the fewest bits that meet its target given the average bits
 * per key of all columns (which sets the fill), repeated until stable.
 * Returns whether every target is met; kcol and fprs get the choice.
 */
static bool
PbMixedKs(double nvalues, uint32 nblocks, int blockbits, int ncols,
		  const double *targets, uint8 *kcol, double *fprs)
{
	double		f[PB_MAX_K + 1];
	bool		ok = true;
	int			iter;
	int			c;

	for (c = 0; c < ncols; c++)
		kcol[c] = (uint8) Max(Min((int) ceil(-log2(targets[c])), PB_MAX_K), 1);
	for (iter = 0; iter < 30; iter++)
	{
		bool		changed = false;

		PbMixedFprAll(nvalues, nblocks, blockbits, kcol, ncols, f);
		for (c = 0; c < ncols; c++)
		{
			int			chosen = 0;
			int			bestk = 1;
			int			kk;

			for (kk = 1; kk <= PB_MAX_K; kk++)
			{
				if (f[kk] < f[bestk])
					bestk = kk;
				if (chosen == 0 && f[kk] <= targets[c])
					chosen = kk;
			}
			if (chosen == 0)
				chosen = bestk;
			if (chosen != kcol[c])
				changed = true;
			kcol[c] = (uint8) chosen;
		}
		if (!changed)
			break;
	}
	PbMixedFprAll(nvalues, nblocks, blockbits, kcol, ncols, f);
	for (c = 0; c < ncols; c++)
	{
		fprs[c] = f[kcol[c]];
		if (fprs[c] > targets[c])
			ok = false;
	}
	return ok;
}

/*
 * The modelled cost, in microseconds, of a one-column probe that reads
 * nsegs slice pages and whose false-positive ranges each cost falseCost
 * (measured on a 1M-row, 6-column table: doc/design.md, "Block size and the
 * default rate").
 */
static double PbDerivedFpr(double nranges, double nvalues, int blockbits, bool rowmap);

static double
PbProbeCost(double nsegs, double falseRanges, double falseCost)
{
	return nsegs * PB_COST_SLICE_READ + falseRanges * falseCost;
}

/*
 * What a false-positive range costs a probe: with a row map, reading and
 * scanning one row map page; without, its heap pages of rows rows in all,
 * every row rechecked.
 */
double
PbFalseRangeCost(bool rowmap, double ppr, double rows)
{
	if (rowmap)
		return PB_COST_SLICE_READ + PB_COST_MAP_SCAN;
	return ppr * PB_COST_HEAP_PAGE + rows * PB_COST_HEAP_ROW;
}

/*
 * The row width (1 .. 16 words: blocks of 1020 .. 63 bits) of a new index
 * over nranges ranges of nvalues keys each, whose false ranges cost
 * falseCost each, for a target rate (0: the derived default): the one with
 * the lowest modelled one-column probe cost plus PB_COST_BIT_PER_KEY per bit
 * per key of index size, the signature sized for the target and the last
 * segment counted whole.  Wider blocks give a lower rate for the same bits;
 * narrower ones put more ranges on a page, so a probe reads fewer pages, but
 * a table smaller than a segment then leaves most of it empty.  A table
 * without pages yet is costed as one segment.
 */
uint32
PbChooseRowWords(double nranges, double nvalues, double falseCost,
				 double target, bool rowmap, uint32 maxRowWords, double *costp)
{
	uint32		best = Min(PB_DEFAULT_ROW_WORDS, maxRowWords);
	double		bestCost = -1;
	uint32		rw;

	for (rw = PB_MIN_ROW_WORDS; rw <= maxRowWords; rw *= 2)
	{
		int			bb = PB_BLOCK_BITS_FOR(rw);
		double		n = Max(nranges, 1.0);
		double		t = target > 0 ? target : PbDerivedFpr(n, nvalues, bb, rowmap);
		double		nsegs = ceil(n / (rw * 64.0));
		double		bits;
		uint32		nblocks = 1;
		double		f = 1;
		double		cost;

		/* the fewest bits per key that meet the rate, to 1/4 bit (bisection) */
		{
			double		lo = 0,
						hi = 64;

			while (hi - lo > 0.25)
			{
				bits = (lo + hi) / 2;
				nblocks = PbBlocksForBits(nvalues, bb, bits);
				(void) PbBestK(nvalues, nblocks, bb, &f);
				if (f <= t || nblocks == PB_MAX_NBLOCKS)
					hi = bits;
				else
					lo = bits;
			}
			nblocks = PbBlocksForBits(nvalues, bb, hi);
			(void) PbBestK(nvalues, nblocks, bb, &f);
		}
		cost = PbProbeCost(nsegs, f * n, falseCost) +
			PB_COST_BIT_PER_KEY * nsegs * rw * 64.0 * nblocks * bb / (n * Max(nvalues, 1.0));
		/* a block size whose largest signature misses the rate comes last */
		if (f > t * 1.01)
			cost += 1e6 * f;
		if (bestCost < 0 || cost < bestCost)
		{
			bestCost = cost;
			best = rw;
		}
	}
	if (costp)
		*costp = bestCost;
	return best;
}

/*
 * The default false-positive rate of a table's index: about one false range
 * per one-column probe (1 / nranges; PB_MAP_FALSE_RANGES with a row map,
 * where a false range costs one row map page, not a heap page), but never
 * more than PB_DEFAULT_FPR (small tables) and never below what
 * PB_DEFAULT_BITS_PER_KEY bits per key give (large tables: the size stays
 * near a fixed fraction of a B-tree's).
 */
static double
PbDerivedFpr(double nranges, double nvalues, int blockbits, bool rowmap)
{
	uint32		nblocks = PbBlocksForBits(nvalues, blockbits, PB_DEFAULT_BITS_PER_KEY);
	double		floor;
	double		f;
	double		falseRanges = rowmap ? PB_MAP_FALSE_RANGES : 1.0;

	(void) PbBestK(nvalues, nblocks, blockbits, &floor);
	f = nranges >= 1 ? falseRanges / nranges : 0;
	f = Max(f, floor);
	f = Min(f, PB_DEFAULT_FPR);
	/* what the reloption accepts */
	return Max(f, PB_MIN_FPR);
}

/*
 * Parse a column_fpr list: comma-separated rates, an empty entry meaning the
 * index's fpr (stored as -1).  Returns the number of entries; with report,
 * a malformed list raises 22023, else -1 is returned.
 */
int
PbParseColumnFpr(const char *str, double *fprs, bool report)
{
	const char *p = str;
	int			n = 0;

	for (;;)
	{
		char	   *end;
		double		v;

		while (*p == ' ' || *p == '\t')
			p++;
		if (n >= INDEX_MAX_KEYS)
		{
			if (!report)
				return -1;
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("invalid value for option \"column_fpr\": more than %d entries", INDEX_MAX_KEYS),
					 errhint("Give one false-positive rate per index column, separated by commas.")));
		}
		if (*p == ',' || *p == '\0')
			v = -1;				/* the index's fpr */
		else
		{
			errno = 0;
			v = strtod(p, &end);
			if (end == p || errno != 0 || !(v >= PB_MIN_FPR && v <= PB_MAX_FPR))
			{
				if (!report)
					return -1;
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						 errmsg("invalid value for option \"column_fpr\": \"%s\"", str),
						 errdetail("Entry %d is not a number between 0.000001 and 0.5.", n + 1),
						 errhint("Give one false-positive rate per index column, separated by commas; leave an entry empty for the index's fpr.")));
			}
			p = end;
			while (*p == ' ' || *p == '\t')
				p++;
		}
		fprs[n++] = v;
		if (*p == '\0')
			break;
		if (*p != ',')
		{
			if (!report)
				return -1;
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("invalid value for option \"column_fpr\": \"%s\"", str),
					 errhint("Give one false-positive rate per index column, separated by commas.")));
		}
		p++;
	}
	return n;
}

/* heap pages whose rows are counted to measure the table's density */
#define PB_DENSITY_SAMPLE	300

/*
 * Line pointers in use (rows, dead or alive, not yet pruned) on heap page
 * blk; *maxoff gets the page's highest line pointer number
 */
static int
PbPageRows(Relation heap, BlockNumber blk, BufferAccessStrategy strategy,
		   int *maxoffp)
{
	Buffer		buf = ReadBufferExtended(heap, MAIN_FORKNUM, blk, RBM_NORMAL, strategy);
	Page		page;
	int			count = 0;

	LockBuffer(buf, BUFFER_LOCK_SHARE);
	page = BufferGetPage(buf);
	*maxoffp = 0;
	if (!PageIsNew(page))
	{
		OffsetNumber maxoff = PageGetMaxOffsetNumber(page);
		OffsetNumber off;

		*maxoffp = maxoff;
		for (off = FirstOffsetNumber; off <= maxoff; off = OffsetNumberNext(off))
			if (ItemIdIsNormal(PageGetItemId(page, off)))
				count++;
	}
	UnlockReleaseBuffer(buf);
	return count;
}

/*
 * Rows per heap page, measured on the heap itself: the rows on up to
 * PB_DENSITY_SAMPLE pages spread evenly up to the last page that holds any
 * (empty pages at the end, which newer servers add in bulk, do not move the
 * sample), averaged over the sampled pages that hold rows (0 for a table
 * without rows); *usedPages gets the number of pages up to that last page.
 * Not from the planner statistics: an index built right after
 * pg_restore (no ANALYZE yet) gets the same design as the original, and
 * ANALYZE or VACUUM do not change what a REINDEX of the same heap builds
 * (design.md, "Defaults, from measurements").
 */
static double
PbMeasureDensity(Relation heap, BlockNumber *usedPages, int *maxOffset)
{
	int			maxoff;
	BlockNumber nblocks = RelationGetNumberOfBlocks(heap);
	BufferAccessStrategy strategy;
	double		rows = 0;
	double		used = 0;
	BlockNumber n,
				i;

	*usedPages = nblocks;
	*maxOffset = 0;
	if (nblocks == 0)
		return 0;
	strategy = GetAccessStrategy(BAS_BULKREAD);
	/* the last page with rows, looking back at most PB_DENSITY_SAMPLE pages */
	for (i = 0; i < Min(nblocks, PB_DENSITY_SAMPLE); i++)
	{
		if (PbPageRows(heap, nblocks - 1 - i, strategy, &maxoff) > 0)
			break;
		CHECK_FOR_INTERRUPTS();
	}
	if (i < Min(nblocks, PB_DENSITY_SAMPLE))
		nblocks -= i;
	*usedPages = nblocks;
	n = Min(nblocks, PB_DENSITY_SAMPLE);
	for (i = 0; i < n; i++)
	{
		int			count = PbPageRows(heap, (BlockNumber) (((uint64) i * nblocks) / n),
									   strategy, &maxoff);

		if (count > 0)
		{
			rows += count;
			used += 1;
			*maxOffset = Max(*maxOffset, maxoff);
		}
		CHECK_FOR_INTERRUPTS();
	}
	FreeAccessStrategy(strategy);
	return used > 0 ? rows / used : 0;
}

/*
 * The widest row (most ranges per segment) whose row map pages of ncols
 * columns, with ranges of ppr heap pages (0: not chosen yet, one range per
 * row map page) of slots rows, stay within PB_MAX_NBLOCKS pages per segment:
 * a build holds a segment's row map in memory
 */
static uint32
PbMaxRowWordsForMap(int ncols, int ppr, int slots)
{
	uint32		rpm = 1;
	uint32		rw;

	if (slots <= 0)
		return PB_MAX_ROW_WORDS;
	if (ppr > 0)
		rpm = Max(1, Min(PB_MAP_SLOTS / (ppr * slots), PB_MAP_MAX_HEAP_PAGES / ppr));
	for (rw = PB_MAX_ROW_WORDS; rw > PB_MIN_ROW_WORDS; rw /= 2)
		if ((uint64) ((rw * 64 + rpm - 1) / rpm) * ncols <= PB_MAX_NBLOCKS)
			break;
	return rw;
}

/*
 * The hint of an option error raised by a build: with the ALTER INDEX that
 * mends the option when the index outlives the error (a REINDEX, TRUNCATE,
 * VACUUM FULL or CLUSTER, or the invalid index a CREATE INDEX CONCURRENTLY
 * leaves), without it for the index of a CREATE INDEX, which the error takes
 * away (the index was created in this transaction: its creating statement
 * is being rolled back, or one of its own transaction's statements is)
 */
static int
PbOptionHint(Relation index, const char *what, const char *alter)
{
	if (index->rd_createSubid != InvalidSubTransactionId)
		return errhint("%s.", what);
	return errhint("%s: ALTER INDEX %s %s.", what,
				   quote_qualified_identifier(get_namespace_name(RelationGetNamespace(index)),
											  RelationGetRelationName(index)),
				   alter);
}

/*
 * Choose the parameters of a new index from its reloptions and the table:
 * rows per range from the table's density (measured on its pages:
 * PbMeasureDensity; for an empty table the planner's estimate from the tuple
 * width), then the fewest signature blocks whose blocked
 * one-column probe false-positive rate meets the target of every column
 * (fpr, or column_fpr), unless signature_bits fixes the size.  With one
 * target all columns share the best k; with different targets each column
 * gets the fewest bits per key that meet its own (PbMixedKs).  When not even
 * the largest signature meets them, that one is taken, with a WARNING if
 * warn (the init fork of an unlogged index asks again, silently).
 */
void
PbComputeParams(Relation heap, Relation index, PageBloomMetaPageData *meta, bool warn)
{
	/*
	 * a copy: the size estimates below look up catalogs, and an invalidation
	 * processed there re-reads the index's options into new memory
	 */
	PageBloomOptions *opts = index->rd_options ?
		(PageBloomOptions *) pg_detoast_datum_copy((struct varlena *) index->rd_options) : NULL;
	int			ppr = opts ? opts->pagesPerRange : 0;
	bool		rowmap = opts ? opts->rowMap : true;
	double		target = opts ? opts->fpr : 0;
	int			sigbits = opts ? opts->signatureBits : 0;
	int			ncols = IndexRelationGetNumberOfKeyAttributes(index);
	double		targets[INDEX_MAX_KEYS];
	uint8		kcol[INDEX_MAX_KEYS];
	double		fprs[INDEX_MAX_KEYS];
	bool		mixed = false;
	double		density = 0;
	int			maxOffset = 0;
	int			slots = 0;
	BlockNumber pages = 0;
	BlockNumber usedPages = 0;
	double		tuples = 0;
	double		allvis;
	double		nvalues;
	uint32		nblocks;
	double		nranges;
	uint32		rowwords;
	uint32		maxrw;
	int			blockbits;
	bool		capped = false;
	int			c;

	if (heap->rd_rel->relkind == RELKIND_RELATION ||
		heap->rd_rel->relkind == RELKIND_MATVIEW)
		density = PbMeasureDensity(heap, &usedPages, &maxOffset);
	if (density <= 0)
	{
		/*
		 * No rows to measure (an empty table, or the rebuild of TRUNCATE):
		 * the planner's estimate, from the tuple width
		 */
		if (heap->rd_rel->relkind == RELKIND_RELATION ||
			heap->rd_rel->relkind == RELKIND_MATVIEW)
			estimate_rel_size(heap, NULL, &pages, &tuples, &allvis);
		density = (pages > 0 && tuples > 0) ? tuples / pages : MaxHeapTuplesPerPage / 4.0;
	}
	density = Max(density, 1.0);
	density = Min(density, (double) MaxHeapTuplesPerPage);

	/*
	 * The row map covers line pointers 1 .. slots of every heap page: the
	 * highest one seen on the sampled pages and 1/32 more (for an empty
	 * table, a quarter more than the estimated rows per page); rows past it
	 * make their heap page lossy.  Unless pages_per_range is set, a range is
	 * as many heap pages as fill one row map page, so that a candidate range
	 * costs one page read.
	 */
	if (rowmap)
	{
		/*
		 * A table of fewer pages than the density sample may grow into pages
		 * fuller than any it has now: at least a quarter more rows than its
		 * tuple width fits on a page; so does a table whose sampled pages
		 * hold no rows
		 */
		slots = maxOffset > 0 ? maxOffset + maxOffset / 64 + 1 : 0;
		if (usedPages < PB_DENSITY_SAMPLE || maxOffset == 0)
		{
			int32		width = get_rel_data_width(heap, NULL);
			double		fit = (BLCKSZ - SizeOfPageHeaderData) /
				(double) (MAXALIGN(SizeofHeapTupleHeader) + MAXALIGN(width) + sizeof(ItemIdData));

			slots = Max(slots, (int) ceil(fit * 1.25) + 1);
		}
		slots = Min(slots, MaxHeapTuplesPerPage);
		/*
		 * An explicit pages_per_range caps the slots at what fits on a row
		 * map page; ranges too large for even half the rows leave no row map
		 * (every heap page would be lossy anyway)
		 */
		if (ppr > PB_MAP_MAX_HEAP_PAGES ||
			(ppr > 0 && PB_MAP_SLOTS / ppr < slots / 2))
			slots = 0;
		else if (ppr > 0)
			slots = Min(slots, PB_MAP_SLOTS / ppr);
	}
	if (slots == 0 && ppr == 0)
		ppr = PB_DEFAULT_PAGES_PER_RANGE;

	/*
	 * The table's size for the design: its pages up to the last one with
	 * rows (as the density), so that trailing empty pages, which newer
	 * servers add in bulk while loading, do not change the design of a
	 * restored copy.
	 *
	 * With a row map and no pages_per_range, a range is at most as many heap
	 * pages as fill one row map page (a candidate range costs one page
	 * read), and at least three quarters of that: of those, and of the block
	 * sizes, the pair of the lowest modelled cost (PbChooseRowWords) plus
	 * the row map's bits per key (fewer pages per range leave part of each
	 * row map page empty); a table a little over a segment gets ranges a
	 * little larger and fits.
	 */
	maxrw = PbMaxRowWordsForMap(ncols, ppr, slots);
	if (slots > 0 && ppr == 0)
	{
		int			pprmax = Max(1, Min(PB_MAP_SLOTS / slots, PB_MAP_MAX_HEAP_PAGES));
		double		bestCost = -1;
		uint32		rw;

		/*
		 * Candidates: the largest ranges, and for each row width the
		 * smallest ranges that fill as few segments (when at least three
		 * quarters of the largest)
		 */
		for (rw = 0; rw <= PB_MAX_ROW_WORDS; rw = rw == 0 ? PB_MIN_ROW_WORDS : rw * 2)
		{
			int			p = pprmax;
			double		nr;
			double		cost;

			if (rw > 0)
			{
				double		cap = (double) pprmax * rw * 64;
				double		segs = Max(ceil((double) usedPages / cap), 1.0);

				p = (int) ceil((double) usedPages / (segs * rw * 64));
				if (p >= pprmax || p < Max(1, pprmax * 3 / 4))
					continue;
			}
			nr = ceil((double) usedPages / p);
			(void) PbChooseRowWords(nr, density * p * ncols,
									PbFalseRangeCost(true, p, density * p),
									target, true, maxrw, &cost);
			cost += PB_COST_BIT_PER_KEY * 16.0 * PB_MAP_SLOTS / (p * density);
			if (bestCost < 0 || cost < bestCost)
			{
				bestCost = cost;
				ppr = p;
			}
		}
		if (ppr == 0)
			ppr = pprmax;
	}
	maxrw = PbMaxRowWordsForMap(ncols, ppr, slots);
	nvalues = density * ppr * ncols;
	nranges = ceil((double) usedPages / ppr);
	if (opts && opts->blockBits != 0 && PbRowWordsForBlockBits(opts->blockBits) != 0)
		rowwords = PbRowWordsForBlockBits(opts->blockBits);
	else
	{
		uint32		choicerw = maxrw;

		/* a chosen block size holds signature_bits (narrower rows, larger blocks) */
		while (sigbits > 0 && choicerw > PB_MIN_ROW_WORDS &&
			   (int64) sigbits > (int64) PB_MAX_NBLOCKS * PB_BLOCK_BITS_FOR(choicerw))
			choicerw /= 2;
		rowwords = PbChooseRowWords(nranges, nvalues,
									PbFalseRangeCost(slots > 0, ppr, density * ppr),
									target, slots > 0, choicerw, NULL);
	}
	if (slots > 0 && rowwords > maxrw)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("block_bits %d of index \"%s\" needs too much memory for the row map of %d columns",
						(int) PB_BLOCK_BITS_FOR(rowwords), RelationGetRelationName(index), ncols),
				 errdetail("A segment of %d ranges would keep more than %d row map pages (%d MB) in memory while the index is built.",
						   (int) rowwords * 64, PB_MAX_NBLOCKS,
						   (int) ((Size) PB_MAX_NBLOCKS * BLCKSZ / (1024 * 1024))),
				 PbOptionHint(index, "Use larger block_bits (fewer ranges per segment), or row_map = off",
							  "SET (block_bits = ...)")));
	blockbits = PB_BLOCK_BITS_FOR(rowwords);

	/* fpr 0 (the default): derived from the table (PbDerivedFpr) */
	if (target <= 0)
		target = PbDerivedFpr(nranges, nvalues, blockbits, slots > 0);
	for (c = 0; c < ncols; c++)
		targets[c] = target;
	if (opts && opts->columnFprOffset != 0)
	{
		double		list[INDEX_MAX_KEYS];
		int			n = PbParseColumnFpr((char *) opts + opts->columnFprOffset, list, true);

		if (n > ncols)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("option \"column_fpr\" lists more rates (%d) than index \"%s\" has columns (%d)",
							n, RelationGetRelationName(index), ncols),
					 PbOptionHint(index, "Give at most one false-positive rate per index column",
								  "SET (column_fpr = '...'), or RESET (column_fpr)")));
		for (c = 0; c < n; c++)
			if (list[c] > 0)
				targets[c] = list[c];
	}
	for (c = 1; c < ncols; c++)
		if (targets[c] != targets[0])
			mixed = true;


	if (sigbits > 0)
	{
		if ((uint64) sigbits > (uint64) PB_MAX_NBLOCKS * blockbits)
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("signature_bits %d of index \"%s\" is over the limit of %d bits",
							sigbits, RelationGetRelationName(index),
							PB_MAX_NBLOCKS * blockbits),
					 errdetail("A segment of %d ranges keeps the signature in %d pages (%d MB), in the index and in memory while it is built.",
							   (int) rowwords * 64, PB_MAX_NBLOCKS,
							   (int) ((Size) PB_MAX_NBLOCKS * BLCKSZ / (1024 * 1024))),
					 PbOptionHint(index, "Set a smaller signature_bits, or 0 to derive it from fpr",
								  "SET (signature_bits = ...)")));
		nblocks = (uint32) ((sigbits + blockbits - 1) / blockbits);
		nblocks = Max(nblocks, 1);
	}
	else
	{
		uint32		lo = 0,
					hi = 1;

		/* double until the targets are met, then bisect */
		while (hi < PB_MAX_NBLOCKS)
		{
			double		f;

			if (mixed ? PbMixedKs(nvalues, hi, blockbits, ncols, targets, kcol, fprs) :
				(PbBestK(nvalues, hi, blockbits, &f), f <= target))
				break;
			lo = hi;
			hi = Min(hi * 2, PB_MAX_NBLOCKS);
		}
		/*
		 * Not even the largest signature meets the target: take it and say
		 * so (below) rather than fail.  A REINDEX, VACUUM FULL or CLUSTER
		 * sizes the index again from the table's density, so an index that
		 * was built fine must not make them fail once the table is denser.
		 */
		if (hi == PB_MAX_NBLOCKS)
		{
			double		f = 0;

			if (!(mixed ? PbMixedKs(nvalues, hi, blockbits, ncols, targets, kcol, fprs) :
				  (PbBestK(nvalues, hi, blockbits, &f), f <= target)))
			{
				capped = true;
				lo = hi - 1;	/* no bisection: hi it is */
			}
		}
		while (hi - lo > 1)
		{
			uint32		mid = lo + (hi - lo) / 2;
			double		f;

			if (mixed ? PbMixedKs(nvalues, mid, blockbits, ncols, targets, kcol, fprs) :
				(PbBestK(nvalues, mid, blockbits, &f), f <= target))
				hi = mid;
			else
				lo = mid;
		}
		nblocks = hi;
	}
	/*
	 * A capped signature meets no target, and there PbMixedKs drifts to
	 * PB_MAX_K for every column (in a nearly full block each column alone
	 * gains from more bits, which fill it further): all columns take the k
	 * that is best for the block instead.
	 */
	if (mixed && !capped)
		PbMixedKs(nvalues, nblocks, blockbits, ncols, targets, kcol, fprs);
	else
	{
		double		f;
		int			k = PbBestK(nvalues, nblocks, blockbits, &f);

		for (c = 0; c < ncols; c++)
		{
			kcol[c] = (uint8) k;
			fprs[c] = f;
		}
	}

	if (capped && warn)
	{
		double		worst = 0,
					strictest = 1;

		for (c = 0; c < ncols; c++)
		{
			worst = Max(worst, fprs[c]);
			strictest = Min(strictest, targets[c]);
		}
		ereport(WARNING,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("index \"%s\" cannot meet its false-positive rate with pages_per_range %d",
						RelationGetRelationName(index), ppr),
				 errdetail("A range holds about %.0f values; the largest signature, %d bits (%d MB per segment of %d ranges), gives a rate of about %.3g per column instead of %.3g.",
						   nvalues, PB_MAX_NBLOCKS * blockbits,
						   (int) ((Size) PB_MAX_NBLOCKS * BLCKSZ / (1024 * 1024)),
						   (int) rowwords * 64, worst, strictest),
				 errhint("Lower pages_per_range, or raise fpr (and column_fpr), and rebuild the index.")));
	}

	memset(meta, 0, sizeof(*meta));
	meta->magic = PB_MAGIC;
	meta->version = PB_VERSION;
	meta->pagesPerRange = ppr;
	meta->nblocks = nblocks;
	meta->blockBits = blockbits;
	meta->rowWords = rowwords;
	meta->ncols = ncols;
	meta->seed = 0;
	meta->targetFpr = target;
	meta->rowsPerRange = density * ppr;
	meta->signatureBitsOption = sigbits;
	meta->rowSlots = (uint32) slots;
	meta->extentBlocks = 1;		/* the metapage; raised by the build */
	meta->k = 0;
	meta->designFpr = 0;
	for (c = 0; c < ncols; c++)
	{
		meta->kcol[c] = kcol[c];
		meta->designFprCol[c] = (float4) fprs[c];
		meta->k = Max(meta->k, kcol[c]);
		meta->designFpr = Max(meta->designFpr, fprs[c]);
	}
	if (opts)
		pfree(opts);
}

/* ---------------------------------------------------------------------
 * Pages
 * ---------------------------------------------------------------------
 */

/* Initialize the metapage */
void
PbInitMetaPage(Page page, const PageBloomMetaPageData *meta)
{
	PageBloomPageOpaque opaque;

	PageInit(page, BLCKSZ, sizeof(PageBloomPageOpaqueData));
	opaque = PageBloomPageGetOpaque(page);
	opaque->flags = PB_META;
	memcpy(PageBloomPageGetMeta(page), meta, sizeof(PageBloomMetaPageData));
	((PageHeader) page)->pd_lower += sizeof(PageBloomMetaPageData);
}

/* Initialize an all-zero data page (slice or row map) of a segment */
static void
PbInitDataPage(Page page, uint16 flags, uint32 segment, uint32 block)
{
	PageBloomPageOpaque opaque;

	PageInit(page, BLCKSZ, sizeof(PageBloomPageOpaqueData));
	opaque = PageBloomPageGetOpaque(page);
	opaque->flags = flags;
	opaque->block = (uint16) block;
	opaque->segment = segment;
	/* the data fills the page up to the special space */
	((PageHeader) page)->pd_lower = ((PageHeader) page)->pd_upper;
	memset(PageBloomPageGetWords(page), 0, PB_PAGE_WORDS * sizeof(uint64));
}

/* Initialize an all-zero slice page */
void
PbInitSlicePage(Page page, uint32 segment, uint32 block)
{
	PbInitDataPage(page, PB_SLICE, segment, block);
}

/*
 * Initialize block blkno (>= 1) of an index as the empty page it is in the
 * segment layout: a slice page or a row map page
 */
void
PbInitSegmentPage(Page page, const PageBloomMetaPageData *meta, BlockNumber blkno)
{
	uint32		segpages = PbSegmentPages(meta);
	uint32		segment = (blkno - 1) / segpages;
	uint32		pos = (blkno - 1) % segpages;

	Assert(blkno >= 1);
	if (pos < meta->nblocks)
		PbInitSlicePage(page, segment, pos);
	else
		PbInitDataPage(page, PB_MAP, segment, pos - meta->nblocks);
}

/* Are the per-column bits per key all in 1 .. PB_MAX_K? */
static bool
PbKcolValid(const PageBloomMetaPageData *meta)
{
	uint32		c;

	for (c = 0; c < meta->ncols && c < INDEX_MAX_KEYS; c++)
		if (meta->kcol[c] < 1 || meta->kcol[c] > PB_MAX_K)
			return false;
	return true;
}

/* Check that a metapage is ours and of a layout this code reads */
void
PbCheckMetaPage(Relation index, Page page)
{
	PageBloomMetaPageData *meta = PageBloomPageGetMeta(page);

	if (PageIsNew(page) ||
		!(PageBloomPageGetOpaque(page)->flags & PB_META) ||
		meta->magic != PB_MAGIC)
		ereport(ERROR,
				(errcode(ERRCODE_INDEX_CORRUPTED),
				 errmsg("index \"%s\" is not a valid pagebloom index",
						RelationGetRelationName(index)),
				 errhint("REINDEX the index.")));
	if (meta->version != PB_VERSION || meta->extentBlocks < 1 ||
		meta->rowSlots > MaxHeapTuplesPerPage ||
		(meta->rowSlots > 0 &&
		 ((uint64) meta->pagesPerRange * meta->rowSlots > PB_MAP_SLOTS ||
		  meta->pagesPerRange > PB_MAP_MAX_HEAP_PAGES)) ||
		PbRowWordsForBlockBits(meta->blockBits) != meta->rowWords ||
		meta->blockBits != (uint32) PB_BLOCK_BITS_FOR(meta->rowWords) ||
		meta->nblocks < 1 || meta->nblocks > PB_MAX_NBLOCKS ||
		meta->k < 1 || meta->k > PB_MAX_K ||
		meta->pagesPerRange < 1 || meta->pagesPerRange > PB_MAX_PAGES_PER_RANGE ||
		meta->ncols != (uint32) IndexRelationGetNumberOfKeyAttributes(index) ||
		!PbKcolValid(meta))
		ereport(ERROR,
				(errcode(ERRCODE_INDEX_CORRUPTED),
				 errmsg("pagebloom index \"%s\" has an unsupported layout",
						RelationGetRelationName(index)),
				 errdetail("Version %u, %u bits per block, %u words per row.",
						   meta->version, meta->blockBits, meta->rowWords),
				 errhint("REINDEX the index.")));
}

/*
 * The type whose canonical hashing keys column i (0-based): the operator
 * class's input type, whose equality the index answers, not the column's
 * type, which may only be binary-coercible to it and hash differently (a
 * citext column under text_ops: citext hashes lower-cased, text = text
 * compares bytes; text or varchar under bpchar_ops; int4 under oid_ops).
 * A polymorphic operator class (a user's, FOR TYPE anyenum, say) has no
 * such type: the column's is the one then.
 */
Oid
PbKeyType(Relation index, int i)
{
	Oid			opcintype = index->rd_opcintype[i];

	if (!OidIsValid(opcintype) || IsPolymorphicType(opcintype) ||
		get_typtype(opcintype) == TYPTYPE_PSEUDO)
		return TupleDescAttr(index->rd_att, i)->atttypid;
	return opcintype;
}

/*
 * The hashers of the index states this backend built are in a memory context
 * each ("pagebloom hashers", a child of the index's rd_indexcxt), apart from
 * the state, which the relcache frees at an invalidation while a caller may
 * still be hashing with them.  pbHashersPinned counts the calls hashing now
 * and the state copies of this transaction (PbGetStateCopy); when it is 0,
 * nothing uses hashers but through a state, and building a state frees those
 * of the index's earlier states.  The transaction's end sets it to 0: a call
 * that failed while hashing leaves it raised until then.
 */
#define PB_HASHERS_CXT_NAME "pagebloom hashers"
int			pbHashersPinned = 0;

/* Free the hashers of earlier states of an index (none is in use) */
static void
PbFreeOldHashers(MemoryContext indexcxt)
{
	MemoryContext c = indexcxt->firstchild;

	while (c != NULL)
	{
		MemoryContext next = c->nextchild;

		if (strcmp(c->name, PB_HASHERS_CXT_NAME) == 0)
			MemoryContextDelete(c);
		c = next;
	}
}

/* Transaction end: no hashing and no state copy is left */
void
PbHashersUnpinAll(void)
{
	pbHashersPinned = 0;
}

/*
 * The state cached in rd_amcache: metapage parameters, column hashers and
 * the buffer hints of PbReadIndexBuffer
 */
PageBloomState *
PbGetState(Relation index)
{
	if (index->rd_amcache == NULL)
	{
		PageBloomState *state;
		PageBloomMetaPageData meta;
		BlockNumber nblocks;
		uint32		nrecent;
		Size		size;
		Buffer		buf;
		Page		page;
		MemoryContext hcxt;
		int			i;

		nblocks = RelationGetNumberOfBlocks(index);
		if (nblocks == 0)
			ereport(ERROR,
					(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
					 errmsg("pagebloom index \"%s\" has not been built",
							RelationGetRelationName(index)),
					 errdetail("It has no metapage, as a CREATE INDEX CONCURRENTLY that failed leaves it."),
					 errhint("REINDEX the index, or drop it.")));

		buf = ReadBuffer(index, PB_METAPAGE_BLKNO);
		LockBuffer(buf, BUFFER_LOCK_SHARE);
		page = BufferGetPage(buf);
		PG_TRY();
		{
			PbCheckMetaPage(index, page);
		}
		PG_CATCH();
		{
			UnlockReleaseBuffer(buf);
			PG_RE_THROW();
		}
		PG_END_TRY();
		memcpy(&meta, PageBloomPageGetMeta(page), sizeof(PageBloomMetaPageData));
		UnlockReleaseBuffer(buf);

		/*
		 * Allocated once the metapage passed its checks (a refused index
		 * would otherwise leave the hints behind in rd_indexcxt); no hints
		 * for local buffers: ReadRecentBuffer is for shared ones
		 */
		nrecent = RelationUsesLocalBuffers(index) ? 0 :
			pg_nextpower2_32(Min(nblocks, PB_RECENT_MAX));
		size = offsetof(PageBloomState, recentBuffers) + nrecent * sizeof(Buffer);
		state = MemoryContextAllocZero(index->rd_indexcxt, size);
		state->nrecent = nrecent;
		state->meta = meta;
		state->cxt = index->rd_indexcxt;
		state->allocSize = size;

		state->natts = IndexRelationGetNumberOfKeyAttributes(index);
		/* not part of the state's chunk: see the comment above */
		if (pbHashersPinned == 0)
			PbFreeOldHashers(index->rd_indexcxt);
		hcxt = AllocSetContextCreate(index->rd_indexcxt, PB_HASHERS_CXT_NAME,
									 ALLOCSET_SMALL_SIZES);
		state->hashers = MemoryContextAllocZero(hcxt, sizeof(BfHasher) * state->natts);
		for (i = 0; i < state->natts; i++)
			BfHasherInit(&state->hashers[i], PbKeyType(index, i),
						 index->rd_indcollation[i], hcxt);
		index->rd_amcache = state;
	}
	return (PageBloomState *) index->rd_amcache;
}

/*
 * A copy of the index's state in the current memory context, for work that
 * keeps it across heap reads and hashing (build, re-summarization,
 * verification).  The copy shares the hashers and has no buffer hints
 * (PbReadIndexBuffer takes them from the cached state).
 */
PageBloomState *
PbGetStateCopy(Relation index)
{
	PageBloomState *state = PbGetState(index);
	PageBloomState *copy = palloc(offsetof(PageBloomState, recentBuffers));

	memcpy(copy, state, offsetof(PageBloomState, recentBuffers));
	copy->nrecent = 0;
	/* its hashers stay until the transaction ends (PbHashersUnpinAll) */
	pbHashersPinned++;
	return copy;
}

/*
 * Pin index block blkno, as ReadBuffer does, but first try the shared buffer
 * this backend last read it into: ReadRecentBuffer checks that the buffer
 * still holds the block and pins it without a lookup in the shared buffer
 * mapping table.  A probe reads ten to thirty index pages, and those lookups,
 * each a cache miss in a table the size of shared_buffers, were a fifth of
 * its time on 10M rows.  The hints are per backend and never trusted: a
 * buffer since given to another page (or a hint of an entry shared with
 * another block) fails the check and the block is read the usual way.
 *
 * ReadRecentBuffer does not raise the buffer's usage count (on 15 - 18), so
 * pages read only through hints would look cold to the clock sweep: one read
 * in PB_RECENT_BUMP takes the usual path, which does.  It counts the hit for
 * EXPLAIN (BUFFERS); the relation's pg_statio counters are kept here, as
 * ReadBuffer keeps them (a read, and a hit), and on 16+ pg_stat_io's hit.
 */
Buffer
PbReadIndexBuffer(Relation index, BlockNumber blkno)
{
	static uint32 tick = 0;
	PageBloomState *state = PbGetState(index);
	Buffer	   *hint;
	Buffer		buf;

	if (state->nrecent == 0)
		return ReadBuffer(index, blkno);
	hint = &state->recentBuffers[blkno & (state->nrecent - 1)];
	if (BufferIsValid(*hint) && (++tick % PB_RECENT_BUMP) != 0 &&
		ReadRecentBuffer(*BfSmgrFileLocator(RelationGetSmgr(index)), MAIN_FORKNUM, blkno, *hint))
	{
		pgstat_count_buffer_read(index);
		pgstat_count_buffer_hit(index);
		/* and pg_stat_io's hit, as ReadBuffer counts it (16+) */
#if PG_VERSION_NUM >= 180000
		pgstat_count_io_op(IOOBJECT_RELATION, IOCONTEXT_NORMAL, IOOP_HIT, 1, 0);
#elif PG_VERSION_NUM >= 160000
		pgstat_count_io_op(IOOBJECT_RELATION, IOCONTEXT_NORMAL, IOOP_HIT);
#endif
		return *hint;
	}
	buf = ReadBuffer(index, blkno);
	*hint = buf;
	return buf;
}

/* ---------------------------------------------------------------------
 * Keys
 * ---------------------------------------------------------------------
 */

/*
 * The keys of an index tuple, one per column.  Takes what it needs from the
 * state before any hasher runs (see PbKeyHash): a caller of the cached state
 * gets it again after this.
 */
void
PbHashTuple(PageBloomState *state, Datum *values, bool *isnull, uint64 *hashes)
{
	PbKeyHasher kh = PbKeyHasherOf(state);
	int			natts = state->natts;
	int			i;

	pbHashersPinned++;
	for (i = 0; i < natts; i++)
		hashes[i] = PbKeyHashWith(&kh, i, values[i], isnull[i]);
	pbHashersPinned--;
}

#ifdef USE_ASSERT_CHECKING
/* bloomfilter.debug_discard_state (test builds): see PbDebugDiscardState */
int			pb_debug_discard_state = 0;

/*
 * Test builds, every bloomfilter.debug_discard_state-th key hashed: what a
 * relcache invalidation processed inside a hasher does (a detoast or a
 * catalog lookup takes a lock, which processes pending invalidations; after
 * a sinval queue overflow every entry is invalidated).  The index's cached
 * state is freed with the rest; its memory (cxt and size, which the caller
 * read while the state was valid) is then allocated again, zeroed and freed,
 * as later allocations may reuse it: a caller that still reads the old state
 * divides by a range size of 0 and fails at once (a garbage pattern made
 * it extend the index to tens of gigabytes before it failed).  Given the
 * index (where no buffer is locked), the state is built again while that
 * memory is held, so that the new state has another address and a pointer
 * kept from before reads zeros, not the new state.
 */
void
PbDebugDiscardState(MemoryContext cxt, Size size, Relation index)
{
	static uint64 calls = 0;
	void	   *junk;

	if (++calls % (uint64) pb_debug_discard_state != 0)
		return;
	InvalidateSystemCaches();
	junk = MemoryContextAlloc(cxt, size);
	memset(junk, 0, size);
	if (index != NULL)
		(void) PbGetState(index);
	pfree(junk);
}
#endif

/* The rows of a key of column attno, ascending; returns their number */
int
PbKeyRows(const PageBloomMetaPageData *meta, int attno, uint64 h, uint16 *rows)
{
	uint64		mask[PB_MASK_WORDS];
	int			i = 0;
	int			q;

	PbKeyMask(meta, attno, h, mask);
	for (q = 0; q < (int) (meta->blockBits + 63) / 64; q++)
		while (mask[q])
		{
			rows[i++] = (uint16) (q * 64 + pg_rightmost_one_pos64(mask[q]));
			mask[q] &= mask[q] - 1;
		}
	Assert(i == (int) meta->kcol[attno]);
	return i;
}

/* ---------------------------------------------------------------------
 * Writing
 * ---------------------------------------------------------------------
 */

/*
 * The number of index blocks a range needs: the metapage, every page of the
 * segments before the range's, the slice pages of its own segment and, with
 * a row map, its segment's row map pages up to the range's group (the row
 * map pages of a segment's later ranges are added when the heap reaches
 * them, so a table smaller than a segment does not carry a segment's row map)
 */
BlockNumber
PbBlocksForRange(const PageBloomMetaPageData *meta, uint64 range)
{
	uint64		segment = range / PbRangesPerSegment(meta);
	uint64		rangebit = range % PbRangesPerSegment(meta);
	uint64		need;

	if (meta->rowSlots == 0)
		need = 1 + (segment + 1) * PbSegmentPages(meta);
	else
		need = 1 + segment * PbSegmentPages(meta) + meta->nblocks +
			(rangebit / PbMapRangesPerPage(meta)) * meta->ncols + meta->ncols;
	/* block numbers are computed as 32 bits: never let them wrap */
	if (need > MaxBlockNumber)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("pagebloom index would need more than %u blocks", MaxBlockNumber),
				 errdetail("Range " UINT64_FORMAT " of the table needs index block " UINT64_FORMAT ".",
						   range, need - 1),
				 errhint("Use larger pages_per_range, or row_map = off.")));
	return (BlockNumber) need;
}

/*
 * Make sure every page a range needs exists (PbBlocksForRange).  Pages are
 * appended in order under the relation extension lock and WAL-logged as
 * full images, and only then covered by the metapage's extent.
 *
 * A crash between an extension and its WAL (or before that WAL was flushed)
 * leaves all-zero pages past the extent in the primary's file, which neither
 * its WAL nor a standby has.  They are not taken into the extent as they
 * are: a standby, which reads the blocks below the extent, would fail to read
 * the ones past its copy of the file ("could not read block"), while the
 * primary reads them as empty.  Each page past the extent that is still new
 * is initialized and logged like an appended one; one that is not (its WAL
 * reached the disk before the page did) is kept.
 */
void
PbEnsureRange(Relation index, PageBloomState *state, uint64 range)
{
	const PageBloomMetaPageData *meta = &state->meta;
	BlockNumber need = PbBlocksForRange(meta, range);
	BlockNumber extent;
	BlockNumber nrel;
	BlockNumber blkno;

	if (need <= state->knownBlocks)
		return;

	LockRelationForExtension(index, ExclusiveLock);
	extent = PbReadExtent(index);
	if (extent >= need)
	{
		UnlockRelationForExtension(index, ExclusiveLock);
		state->knownBlocks = extent;
		return;
	}
	nrel = RelationGetNumberOfBlocks(index);
	for (blkno = Max(extent, 1); blkno < need; blkno++)
	{
		Buffer		buf;
		Page		page;

		if (blkno < nrel)
			buf = ReadBuffer(index, blkno);
		else
			buf = ReadBufferExtended(index, MAIN_FORKNUM, P_NEW, RBM_NORMAL, NULL);
		LockBuffer(buf, BUFFER_LOCK_EXCLUSIVE);
		Assert(BufferGetBlockNumber(buf) == blkno);
		if (PageIsNew(BufferGetPage(buf)))
		{
			GenericXLogState *gx = GenericXLogStart(index);

			page = GenericXLogRegisterBuffer(gx, buf, GENERIC_XLOG_FULL_IMAGE);
			PbInitSegmentPage(page, meta, blkno);
			GenericXLogFinish(gx);
		}
		UnlockReleaseBuffer(buf);
	}

	/*
	 * Scans take the index's size from the metapage: raise it before any bit
	 * is set on the new pages, and only over pages whose WAL precedes it
	 */
	PbRaiseExtent(index, need);
	UnlockRelationForExtension(index, ExclusiveLock);
	state->knownBlocks = need;
}

/*
 * Raise the metapage's extent to nblocks, WAL-logged.  The caller holds the
 * relation extension lock (or builds the index), so the extent only grows
 * and always names existing pages.
 */
void
PbRaiseExtent(Relation index, BlockNumber nblocks)
{
	Buffer		buf = ReadBuffer(index, PB_METAPAGE_BLKNO);

	LockBuffer(buf, BUFFER_LOCK_EXCLUSIVE);
	if (PageBloomPageGetMeta(BufferGetPage(buf))->extentBlocks < nblocks)
	{
		GenericXLogState *gx = GenericXLogStart(index);
		Page		page = GenericXLogRegisterBuffer(gx, buf, 0);

		PageBloomPageGetMeta(page)->extentBlocks = nblocks;
		GenericXLogFinish(gx);
	}
	UnlockReleaseBuffer(buf);
}

/*
 * The metapage's extent: every index block below it exists, and
 * every row a scan's snapshot sees has its bits below it, since its insert
 * raised the extent before setting them.  One share-locked read of the
 * metapage instead of a size lookup (a system call) per scan.
 */
BlockNumber
PbReadExtent(Relation index)
{
	Buffer		buf = PbReadIndexBuffer(index, PB_METAPAGE_BLKNO);
	BlockNumber extent;

	LockBuffer(buf, BUFFER_LOCK_SHARE);
	extent = PageBloomPageGetMeta(BufferGetPage(buf))->extentBlocks;
	UnlockReleaseBuffer(buf);
	return extent;
}

/* Are all the bits of a key set for a range? */
static inline bool
PbKeyBitsSet(const uint64 *words, uint32 rowwords, const uint16 *rows, int k,
			 uint32 word, uint64 mask)
{
	int			i;

	for (i = 0; i < k; i++)
		if (!(words[rows[i] * rowwords + word] & mask))
			return false;
	return true;
}

/*
 * One key of a row to set: k rows of its block's slice page for the row's
 * range, or the row's entry in its column's row map page
 */
typedef struct PbKeyOp
{
	BlockNumber blkno;
	int16		nrows;			/* slice page: rows of the key; -1: row map */
	uint16		word;			/* slice page: the range's word in a row */
	uint64		mask;			/* slice page: the range's bit in that word */
	uint32		hidx;			/* row map: the heap page's index in the page */
	OffsetNumber heapoff;		/* row map: the tuple's line pointer */
	uint16		fp;				/* row map: the fingerprint */
	uint16		rows[PB_MAX_K];
} PbKeyOp;

/*
 * The new words of one locked page: the words the keys change, copied from
 * the page when first touched (nv), and which (touched, in list)
 */
typedef struct PbPageWork
{
	uint64		touched[(PB_PAGE_WORDS + 63) / 64];
	uint16		list[PB_PAGE_WORDS];
	int			nlist;
	uint64		nv[PB_PAGE_WORDS];
} PbPageWork;

/* PbSetRows' work areas: one per page of a WAL record, and their deltas */
static PbPageWork *pbSetWork = NULL;
static char *pbSetDelta = NULL;

/* The new value of word idx of a page being changed, taken from it at first */
static inline uint64 *
PbWorkWord(PbPageWork *pw, const uint64 *words, uint32 idx)
{
	if (!(pw->touched[idx / 64] & (UINT64CONST(1) << (idx % 64))))
	{
		pw->touched[idx / 64] |= UINT64CONST(1) << (idx % 64);
		pw->list[pw->nlist++] = (uint16) idx;
		pw->nv[idx] = words[idx];
	}
	return &pw->nv[idx];
}

/*
 * Apply one key to the new words of its page: its rows' bit for the range,
 * or the row map entry: the slot's high and low bytes set to fp's, or, past
 * the slots, the overflow bit of its heap page
 */
static inline void
PbApplyKeyOp(const PageBloomMetaPageData *meta, PbPageWork *pw,
			 const uint64 *words, const PbKeyOp *op)
{
	int			r;

	if (op->nrows < 0)
	{
		uint32		slot;
		int			h;

		if (op->heapoff > meta->rowSlots)
		{
			*PbWorkWord(pw, words, op->hidx / 64) |= UINT64CONST(1) << (op->hidx % 64);
			return;
		}
		slot = op->hidx * meta->rowSlots + (op->heapoff - 1);
		for (h = 0; h < 2; h++)
		{
			/* byte offset in the words after the overflow words */
			uint32		b = (h == 0 ? 0 : PB_MAP_SLOTS) + slot;
			uint8		v = (uint8) (h == 0 ? op->fp >> 8 : op->fp);
			uint64	   *w = PbWorkWord(pw, words, PB_MAP_OVERFLOW_WORDS + b / 8);

			memcpy((char *) w + b % 8, &v, 1);
		}
		return;
	}
	for (r = 0; r < op->nrows; r++)
	{
		uint32		idx = op->rows[r] * meta->rowWords + op->word;

		if (!(words[idx] & op->mask))
			*PbWorkWord(pw, words, idx) |= op->mask;
	}
}

/*
 * Order keys by block number, keeping the order of the keys of one block
 * (a later row's entry in a row map slot must win): an insertion sort for
 * one row's keys (at most two per column, the row map keys already in order
 * after the slice keys; qsort's comparator calls took 6% of a one-row
 * insert), else a stable radix sort of the block numbers' offsets from the
 * least, a byte at a time
 */
static void
PbSortKeyOps(const PbKeyOp *ops, int n, uint32 *order)
{
	BlockNumber minblk = InvalidBlockNumber;
	BlockNumber maxblk = 0;
	uint32	   *tmp;
	int			i;
	int			shift;

	for (i = 0; i < n; i++)
		order[i] = i;
	if (n <= 2 * INDEX_MAX_KEYS)
	{
		for (i = 1; i < n; i++)
		{
			uint32		k = order[i];
			int			j = i;

			while (j > 0 && ops[order[j - 1]].blkno > ops[k].blkno)
			{
				order[j] = order[j - 1];
				j--;
			}
			order[j] = k;
		}
		return;
	}
	for (i = 0; i < n; i++)
	{
		minblk = Min(minblk, ops[i].blkno);
		maxblk = Max(maxblk, ops[i].blkno);
	}
	tmp = palloc(sizeof(uint32) * n);
	for (shift = 0; shift < 32 && ((maxblk - minblk) >> shift) != 0; shift += 8)
	{
		int			count[257] = {0};

		for (i = 0; i < n; i++)
			count[(((ops[order[i]].blkno - minblk) >> shift) & 0xFF) + 1]++;
		for (i = 1; i < 257; i++)
			count[i] += count[i - 1];
		for (i = 0; i < n; i++)
			tmp[count[((ops[order[i]].blkno - minblk) >> shift) & 0xFF]++] = order[i];
		memcpy(order, tmp, sizeof(uint32) * n);
	}
	pfree(tmp);
}

/*
 * Set the keys of nrows heap tuples of segment 'segment': for row i, the
 * nhashes keys hashes[i * nhashes ..] for its range (bit rangebits[i] of the
 * segment) and, given tids and a row map, the row's row map entries.  Every
 * page is changed once, under its exclusive lock, however many keys it gets:
 * pages are locked in block order, up to four at a time (a generic WAL
 * record's limit).  The pages must exist (PbEnsureRange).
 *
 * The WAL record is a generic WAL record (RM_GENERIC_ID, replayed by
 * PostgreSQL's generic_redo) written directly: since we know exactly which
 * words change, the delta is one fragment (offset, length, new bytes) per
 * changed word, of its changed bytes (usually one), instead of the page copy
 * and byte-wise page comparison of GenericXLogRegisterBuffer/
 * GenericXLogFinish; a page with more changes than half a page of delta
 * is logged as a full image.  A never-initialized page is initialized and
 * logged as a full image, as GENERIC_XLOG_FULL_IMAGE does.  A page whose
 * words all have the bits already is only read.
 */
void
PbSetRows(Relation index, PageBloomState *state, uint32 segment, int nrows,
		  const uint32 *rangebits, const uint64 *hashes, int nhashes,
		  const ItemPointerData *tids)
{
	const PageBloomMetaPageData *meta = &state->meta;
	bool		rowmap = tids != NULL && meta->rowSlots > 0;
	int			nops = nrows * nhashes * (rowmap ? 2 : 1);
	PbKeyOp		oneops[2 * INDEX_MAX_KEYS];
	uint32		oneorder[2 * INDEX_MAX_KEYS];
	PbKeyOp    *ops;
	uint32	   *order;
	PbPageWork *work;
	char	   *delta;
	bool		needwal = RelationNeedsWAL(index);
	int			row;
	int			n = 0;
	int			i;

	Assert(nhashes <= INDEX_MAX_KEYS);
	if (nops <= 2 * INDEX_MAX_KEYS)
	{
		ops = oneops;
		order = oneorder;
	}
	else
	{
		ops = palloc(sizeof(PbKeyOp) * nops);
		order = palloc(sizeof(uint32) * nops);
	}
	/* the page work areas (73 kB), kept for the backend's life */
	if (pbSetWork == NULL)
	{
		pbSetWork = MemoryContextAlloc(TopMemoryContext,
									   sizeof(PbPageWork) * MAX_GENERIC_XLOG_PAGES);
		pbSetDelta = MemoryContextAlloc(TopMemoryContext,
										(Size) MAX_GENERIC_XLOG_PAGES * BLCKSZ);
	}
	work = pbSetWork;
	delta = pbSetDelta;

	for (row = 0; row < nrows; row++)
	{
		uint32		rangebit = rangebits[row];
		const uint64 *h = hashes + (Size) row * nhashes;

		for (i = 0; i < nhashes; i++)
		{
			ops[n].blkno = PbSliceBlkno(meta, segment, PbKeyBlock(meta, h[i]));
			ops[n].nrows = (int16) PbKeyRows(meta, i, h[i], ops[n].rows);
			ops[n].word = (uint16) (rangebit / 64);
			ops[n].mask = UINT64CONST(1) << (rangebit % 64);
			n++;
		}
		/* the row map entries of the tuple: one page per column */
		if (rowmap)
			for (i = 0; i < nhashes; i++)
			{
				ops[n].blkno = PbMapBlkno(meta, segment, rangebit, i);
				ops[n].nrows = -1;
				ops[n].hidx = PbMapHeapIndex(meta, ItemPointerGetBlockNumber(&tids[row]));
				ops[n].heapoff = ItemPointerGetOffsetNumber(&tids[row]);
				ops[n].fp = PbRowFingerprint(h[i]);
				n++;
			}
	}
	Assert(n == nops);
	PbSortKeyOps(ops, nops, order);

	i = 0;
	while (i < nops)
	{
		Buffer		bufs[MAX_GENERIC_XLOG_PAGES];
		int			first[MAX_GENERIC_XLOG_PAGES + 1];
		bool		isnew[MAX_GENERIC_XLOG_PAGES];
		bool		fullimage[MAX_GENERIC_XLOG_PAGES];
		int			nchanged[MAX_GENERIC_XLOG_PAGES];
		int			deltalen[MAX_GENERIC_XLOG_PAGES];
		int			nbufs = 0;
		bool		anydirty = false;
		int			b;
		int			j;

		/* pin the next pages (up to MAX_GENERIC_XLOG_PAGES), ask for their words */
		while (i < nops && nbufs < MAX_GENERIC_XLOG_PAGES)
		{
			const uint64 *words;

			first[nbufs] = i;
			bufs[nbufs] = PbReadIndexBuffer(index, ops[order[i]].blkno);
			words = PageBloomPageGetWords(BufferGetPage(bufs[nbufs]));
			do
			{
				const PbKeyOp *op = &ops[order[i]];
				int			r;

				for (r = 0; r < op->nrows; r++)
					__builtin_prefetch(&words[op->rows[r] * meta->rowWords + op->word]);
				i++;
			} while (i < nops && ops[order[i]].blkno == ops[order[i - 1]].blkno);
			nbufs++;
		}
		first[nbufs] = i;

		/* lock them in block order, work out each page's new words */
		for (b = 0; b < nbufs; b++)
		{
			Page		page;
			const uint64 *words;
			PbPageWork *pw = &work[b];

			LockBuffer(bufs[b], BUFFER_LOCK_EXCLUSIVE);
			page = BufferGetPage(bufs[b]);
			isnew[b] = PageIsNew(page);
			nchanged[b] = 0;
			deltalen[b] = 0;
			fullimage[b] = isnew[b];
			if (isnew[b])
			{
				anydirty = true;
				continue;
			}
			words = PageBloomPageGetWords(page);
			memset(pw->touched, 0, sizeof(pw->touched));
			pw->nlist = 0;
			for (j = first[b]; j < first[b + 1]; j++)
				PbApplyKeyOp(meta, pw, words, &ops[order[j]]);

			/*
			 * the delta, built before the critical section (the page still
			 * holds the old words): one fragment per changed word, of the
			 * bytes from its first to its last changed one (one byte for a
			 * bit or a row map byte: 5 bytes of WAL instead of 12)
			 */
			{
				char	   *ptr = delta + (Size) b * BLCKSZ;
				int			c;

				for (c = 0; c < pw->nlist; c++)
				{
					uint16		w = pw->list[c];
					const char *o = (const char *) &words[w];
					const char *nw = (const char *) &pw->nv[w];
					int			lo = 0;
					int			hi = (int) sizeof(uint64) - 1;
					OffsetNumber off;
					OffsetNumber len;

					if (pw->nv[w] == words[w])
						continue;
					nchanged[b]++;
					if (fullimage[b])
						continue;
					while (lo < hi && o[lo] == nw[lo])
						lo++;
					while (hi > lo && o[hi] == nw[hi])
						hi--;
					if (ptr - (delta + (Size) b * BLCKSZ) + 2 * sizeof(OffsetNumber) + (hi - lo + 1) >
						BLCKSZ / 2)
					{
						/* more than half a page of delta: log the page */
						fullimage[b] = true;
						continue;
					}
					off = (OffsetNumber) (MAXALIGN(SizeOfPageHeaderData) + w * sizeof(uint64) + lo);
					len = (OffsetNumber) (hi - lo + 1);
					memcpy(ptr, &off, sizeof(off));
					ptr += sizeof(off);
					memcpy(ptr, &len, sizeof(len));
					ptr += sizeof(len);
					memcpy(ptr, nw + lo, len);
					ptr += len;
				}
				deltalen[b] = ptr - (delta + (Size) b * BLCKSZ);
			}
			anydirty |= nchanged[b] > 0;
		}

		if (anydirty)
		{
			XLogRecPtr	lsn;

			if (needwal)
				XLogBeginInsert();
			START_CRIT_SECTION();
			for (b = 0; b < nbufs; b++)
			{
				Page		page = BufferGetPage(bufs[b]);
				uint64	   *words = PageBloomPageGetWords(page);

				if (isnew[b])
				{
					PbPageWork *pw = &work[b];

					PbInitSegmentPage(page, meta, BufferGetBlockNumber(bufs[b]));
					memset(pw->touched, 0, sizeof(pw->touched));
					pw->nlist = 0;
					for (j = first[b]; j < first[b + 1]; j++)
						PbApplyKeyOp(meta, pw, words, &ops[order[j]]);
					for (j = 0; j < pw->nlist; j++)
						words[pw->list[j]] = pw->nv[pw->list[j]];
				}
				else if (nchanged[b] > 0)
				{
					const PbPageWork *pw = &work[b];

					for (j = 0; j < pw->nlist; j++)
						words[pw->list[j]] = pw->nv[pw->list[j]];
				}
				else
					continue;
				MarkBufferDirty(bufs[b]);
				if (!needwal)
					continue;
				if (fullimage[b])
					XLogRegisterBuffer(b, bufs[b], REGBUF_FORCE_IMAGE | REGBUF_STANDARD);
				else
				{
					XLogRegisterBuffer(b, bufs[b], REGBUF_STANDARD);
					XLogRegisterBufData(b, delta + (Size) b * BLCKSZ, deltalen[b]);
				}
			}
			if (needwal)
			{
				lsn = XLogInsert(RM_GENERIC_ID, 0);
				for (b = 0; b < nbufs; b++)
					if (isnew[b] || nchanged[b] > 0)
						PageSetLSN(BufferGetPage(bufs[b]), lsn);
			}
			END_CRIT_SECTION();
		}
		for (b = 0; b < nbufs; b++)
			UnlockReleaseBuffer(bufs[b]);
	}

	if (ops != oneops)
	{
		pfree(ops);
		pfree(order);
	}
}

/* Set the keys of one heap tuple (tid, or NULL: no row map entries) */
void
PbSetKeys(Relation index, PageBloomState *state, uint32 segment,
		  uint32 rangebit, const uint64 *hashes, int nhashes, ItemPointer tid)
{
	PbSetRows(index, state, segment, 1, &rangebit, hashes, nhashes, tid);
}

/* ---------------------------------------------------------------------
 * Cost estimate
 * ---------------------------------------------------------------------
 */

/*
 * The cost of a bitmap scan of the index and the selectivity to hand to the
 * bitmap heap scan.
 *
 * Index pages read: one slice page per probed key and segment.  Heap pages:
 * the ranges that hold true matches (matches placed at random) plus the
 * false-positive ranges (the one-column probe FPR of the metapage, combined
 * over the probes of each clause and multiplied over the clauses), times
 * pages_per_range.  Those pages are read whole (lossy bitmap), so every tuple
 * on them is rechecked.  The bitmap heap scan derives its page count from a
 * tuple count (Mackert-Lohman), so the selectivity returned is the one whose
 * page count matches our estimate; the recheck of the remaining tuples on
 * those pages is charged here.
 */
void
pbcostestimate(PlannerInfo *root, IndexPath *path, double loop_count,
			   Cost *indexStartupCost, Cost *indexTotalCost,
			   Selectivity *indexSelectivity, double *indexCorrelation,
			   double *indexPages)
{
	IndexOptInfo *index = path->indexinfo;
	RelOptInfo *baserel = index->rel;
	Relation	indexRel;
	PageBloomMetaPageData meta;
	double		heapPages = Max((double) baserel->pages, 1.0);
	double		heapTuples = Max(baserel->tuples, 1.0);
	double		ppr;
	double		nranges;
	double		nsegs;
	double		probes = 0;
	double		minvals = -1;
	double		matches = 0;
	double		pass = 1.0;
	bool		restricted = false;
	List	   *quals = NIL;
	ListCell   *lc;
	double		candRanges;
	double		candPages;
	double		frac;
	double		pagesRead;
	double		sel;
	double		spc_random_page_cost;
	double		spc_seq_page_cost;
	Cost		cost;

	indexRel = index_open(index->indexoid, NoLock);
	meta = PbGetState(indexRel)->meta;
	index_close(indexRel, NoLock);

	ppr = meta.pagesPerRange;
	nranges = ceil(heapPages / ppr);
	nsegs = ceil(nranges / PbRangesPerSegment(&meta));

	foreach(lc, path->indexclauses)
	{
		IndexClause *iclause = lfirst_node(IndexClause, lc);
		ListCell   *lc2;

		foreach(lc2, iclause->indexquals)
		{
			RestrictInfo *rinfo = lfirst_node(RestrictInfo, lc2);
			Expr	   *clause = rinfo->clause;
			double		nvals = 1;

			quals = lappend(quals, rinfo);
			if (IsA(clause, NullTest) &&
				((NullTest *) clause)->nulltesttype == IS_NOT_NULL)
				continue;		/* filters nothing */
			if (IsA(clause, ScalarArrayOpExpr))
				nvals = Max(BfEstimateArrayLength(root, lsecond(((ScalarArrayOpExpr *) clause)->args)), 1);
			restricted = true;
			probes += nvals;
			minvals = minvals < 0 ? nvals : Min(minvals, nvals);
			pass *= 1.0 - pow(1.0 - meta.designFprCol[iclause->indexcol], nvals);
		}
	}

	if (restricted)
	{
		double		keySel = clauselist_selectivity(root, quals, baserel->relid,
													JOIN_INNER, NULL);

		double		trueRanges;

		matches = keySel * heapTuples;
		trueRanges = nranges * (1.0 - pow(1.0 - 1.0 / nranges, matches));
		candRanges = trueRanges + pass * (nranges - trueRanges);
	}
	else
		candRanges = nranges;
	get_tablespace_page_costs(index->reltablespace, &spc_random_page_cost,
							  &spc_seq_page_cost);

	if (restricted && meta.rowSlots > 0)
	{
		/*
		 * Row map: one row map page per candidate range, whose slots are
		 * compared with the first key's fingerprints; the heap scan fetches
		 * the matching rows and the rows whose fingerprint collides, as
		 * exact TIDs (it charges their recheck itself).
		 */
		double		falseRows = candRanges * meta.rowsPerRange * Max(minvals, 1.0) / 65535.0;

		candPages = Min(candRanges * ppr, heapPages);
		pagesRead = 1 + Min(probes * nsegs, nsegs * meta.nblocks) + candRanges;
		sel = Min((matches + falseRows) / heapTuples, 1.0);
		cost = pagesRead * spc_random_page_cost;
		cost += probes * nsegs * meta.k * meta.rowWords * cpu_operator_cost / 16;
		cost += candRanges * meta.rowsPerRange * cpu_operator_cost / 8;
		/* each TID added, as a B-tree charges each index tuple */
		cost += (matches + falseRows) * (cpu_index_tuple_cost + cpu_operator_cost);
	}
	else
	{
		candPages = Min(candRanges * ppr, heapPages);
		frac = candPages / heapPages;

		/* the selectivity whose Mackert-Lohman page count is candPages */
		pagesRead = 1 + Min(probes * nsegs, nsegs * meta.nblocks);
		if (frac >= 1.0)
			sel = 1.0;
		else
		{
			double		lo = 0,
						hi = frac;
			int			i;

			for (i = 0; i < 40; i++)
			{
				double		mid = (lo + hi) / 2;

				if (index_pages_fetched(mid * heapTuples, baserel->pages, pagesRead, root) < candPages)
					lo = mid;
				else
					hi = mid;
			}
			sel = hi;
		}

		cost = pagesRead * spc_random_page_cost;
		/* AND the rows of each probe, add the candidate pages to the bitmap */
		cost += probes * nsegs * meta.k * meta.rowWords * cpu_operator_cost / 16;
		cost += candPages * cpu_operator_cost;
		/* recheck of the tuples on candidate pages the heap scan does not count */
		cost += Max(frac - sel, 0) * heapTuples *
			(cpu_tuple_cost + cpu_operator_cost * Max(list_length(quals), 1));
	}

	/*
	 * No index-only scans: the index returns no column values, and the rows
	 * it names (every line pointer of a lossy page, a row map slot of a row
	 * since removed) need the heap to tell whether they exist, which an
	 * index-only scan skips on all-visible pages.  The planner offers one
	 * only when a query needs no column at all (count(*) without a WHERE
	 * clause); it is priced out, and disabled on 18 (where a disabled
	 * sequential scan would otherwise lose to any enabled path).  Only where
	 * plain index scans are offered: on a partial index (bitmap scans only)
	 * a path of this type is also the one its bitmap scans are built from.
	 */
	if (path->path.pathtype == T_IndexOnlyScan && index->amhasgettuple)
	{
		cost += PB_NO_INDEX_ONLY_COST;
#if PG_VERSION_NUM >= 180000
		path->path.disabled_nodes++;
#endif
	}

	*indexStartupCost = cost;
	*indexTotalCost = cost;
	*indexSelectivity = sel;

	/*
	 * With the row map a plain index scan visits the heap about as a bitmap
	 * heap scan does (range by range in heap order, each page once) and
	 * spares the bitmap and its prefetch lookups, but cost_index charges it
	 * random_page_cost for every page where cost_bitmap_heap_scan lowers the
	 * cost per page toward seq_page_cost as the pages grow denser.  The
	 * planner's one lever for heap order is the correlation c; a full 1.0
	 * would also mean the matching rows lie together, which they do not.
	 * With c^2 = PB_PLAIN_SCAN_SQRT_FRACTION * (random - seq) / random, the
	 * plain scan is the cheaper of the two up to PB_PLAIN_SCAN_SQRT_FRACTION
	 * squared (1.44%) of the heap's pages, whatever the page costs (c = 0.3
	 * at 4 and 1), and the bitmap scan beyond; none where random pages cost
	 * no more than sequential ones.
	 */
	*indexCorrelation = 0;
	if (restricted && meta.rowSlots > 0)
	{
		double		heap_random_cost;
		double		heap_seq_cost;

		get_tablespace_page_costs(baserel->reltablespace, &heap_random_cost, &heap_seq_cost);
		if (heap_random_cost > heap_seq_cost)
			*indexCorrelation = sqrt(PB_PLAIN_SCAN_SQRT_FRACTION *
									 (heap_random_cost - heap_seq_cost) / heap_random_cost);
	}
	*indexPages = pagesRead;
}

/* ---------------------------------------------------------------------
 * Verification and inspection
 * ---------------------------------------------------------------------
 */

/*
 * The table of index indexoid (an argument of the pagebloom functions):
 * 42P01 when no relation has that OID, 22023 when it is not an index
 */
Oid
PbIndexTable(Oid indexoid)
{
	Oid			heapoid = IndexGetRelation(indexoid, true);
	char	   *name;

	if (OidIsValid(heapoid))
		return heapoid;
	name = get_rel_name(indexoid);
	if (name == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_TABLE),
				 errmsg("relation with OID %u does not exist", indexoid),
				 errhint("Pass a pagebloom index, e.g. 'my_index'::regclass.")));
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("\"%s\" is not an index", name),
			 errhint("Pass a pagebloom index.")));
	return InvalidOid;
}

/* Open an index by OID and check that it is a pagebloom index */
static Relation
PbOpenIndex(Oid indexoid, LOCKMODE lockmode, Relation *heap)
{
	Oid			heapoid = PbIndexTable(indexoid);
	Relation	index;

	/*
	 * Reading the signatures reveals something of the table's contents.
	 * Checked before locking the table (a user without the privilege cannot
	 * queue behind other lockers); checked again after, in case of a
	 * concurrent REVOKE.
	 */
	if (pg_class_aclcheck(heapoid, GetUserId(), ACL_SELECT) != ACLCHECK_OK)
		aclcheck_error(ACLCHECK_NO_PRIV, get_relkind_objtype(get_rel_relkind(heapoid)),
					   get_rel_name(heapoid));
	*heap = table_open(heapoid, lockmode);
	if (pg_class_aclcheck(heapoid, GetUserId(), ACL_SELECT) != ACLCHECK_OK)
		aclcheck_error(ACLCHECK_NO_PRIV, get_relkind_objtype((*heap)->rd_rel->relkind),
					   RelationGetRelationName(*heap));
	index = index_open(indexoid, lockmode);
	if (index->rd_rel->relkind != RELKIND_INDEX ||
		index->rd_indam->ambuild != pbbuild)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("\"%s\" is not a pagebloom index", RelationGetRelationName(index)),
				 errhint("Pass a pagebloom index (a partitioned index has one per partition).")));
	/* the rows this transaction inserted have their keys before it reads */
	PbFlushPending();
	return index;
}

typedef struct PbVerifyState
{
	PageBloomState *state;
	BlockNumber indexBlocks;
	int64		checked;
	int64		missing;
} PbVerifyState;

/* Check that every key of one heap tuple is in its range's signature */
static void
PbVerifyCallback(Relation index, ItemPointer tid, Datum *values,
				 bool *isnull, bool tupleIsAlive, void *arg)
{
	PbVerifyState *vs = (PbVerifyState *) arg;
	PageBloomState *state = vs->state;
	const PageBloomMetaPageData *meta = &state->meta;
	uint32		range = ItemPointerGetBlockNumber(tid) / meta->pagesPerRange;
	uint32		segment = range / PbRangesPerSegment(meta);
	uint32		rangebit = range % PbRangesPerSegment(meta);
	int			i;

	CHECK_FOR_INTERRUPTS();
	for (i = 0; i < state->natts; i++)
	{
		uint64		h = PbKeyHash(state, i, values[i], isnull[i]);
		BlockNumber blkno = PbSliceBlkno(meta, segment, PbKeyBlock(meta, h));
		BlockNumber mapblk = meta->rowSlots > 0 ? PbMapBlkno(meta, segment, rangebit, i) : 0;
		uint16		rows[PB_MAX_K];
		int			nrows = PbKeyRows(meta, i, h, rows);
		bool		ok = false;

		if (blkno < vs->indexBlocks)
		{
			Buffer		buf = ReadBuffer(index, blkno);
			Page		page;

			LockBuffer(buf, BUFFER_LOCK_SHARE);
			page = BufferGetPage(buf);
			ok = !PageIsNew(page) &&
				PbKeyBitsSet(PageBloomPageGetWords(page), meta->rowWords, rows, nrows,
							 rangebit / 64, UINT64CONST(1) << (rangebit % 64));
			UnlockReleaseBuffer(buf);
		}
		/* the row map must hold the fingerprint, or the page overflow */
		if (ok && meta->rowSlots > 0)
		{
			ok = false;
			if (mapblk < vs->indexBlocks)
			{
				Buffer		buf = ReadBuffer(index, mapblk);
				Page		page;
				uint32		hidx = PbMapHeapIndex(meta, ItemPointerGetBlockNumber(tid));
				OffsetNumber off = ItemPointerGetOffsetNumber(tid);

				LockBuffer(buf, BUFFER_LOCK_SHARE);
				page = BufferGetPage(buf);
				if (!PageIsNew(page))
				{
					if (PbMapGetOverflow(page)[hidx / 64] & (UINT64CONST(1) << (hidx % 64)))
						ok = true;
					else if (off <= meta->rowSlots)
						ok = PbMapSlot(PbMapGetHi(page), hidx * meta->rowSlots + off - 1) ==
							PbRowFingerprint(h);
				}
				UnlockReleaseBuffer(buf);
			}
		}
		if (!ok)
		{
			vs->missing++;
			if (vs->missing <= 10)
				ereport(WARNING,
						(errcode(ERRCODE_INDEX_CORRUPTED),
						 errmsg("pagebloom index \"%s\" lacks the key of column %d of heap tuple (%u,%u)",
								RelationGetRelationName(index), i + 1,
								ItemPointerGetBlockNumber(tid),
								ItemPointerGetOffsetNumber(tid))));
		}
	}
	vs->checked++;
}

/*
 * pagebloom_verify(index regclass) RETURNS bigint
 *		Check that every heap tuple visible to a fresh snapshot has all its
 *		keys in its range's signature; return the number of tuples checked,
 *		or raise XX002 naming the first missing keys.
 */
Datum
pagebloom_verify(PG_FUNCTION_ARGS)
{
	Oid			indexoid = PG_GETARG_OID(0);
	Relation	heap;
	Relation	index;
	IndexInfo  *indexInfo;
	Snapshot	snapshot;
	TableScanDesc scan;
	PbVerifyState vs;

	index = PbOpenIndex(indexoid, AccessShareLock, &heap);
	/* an invalid index lacks keys by design: not corruption */
	if (!index->rd_index->indisvalid)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("pagebloom index \"%s\" is not valid", RelationGetRelationName(index)),
				 errdetail("An index that a CREATE INDEX CONCURRENTLY or REINDEX CONCURRENTLY failed to finish (or is still building) lacks keys, and no query uses it."),
				 errhint("REINDEX or drop the index, or wait for its concurrent build to end.")));
	memset(&vs, 0, sizeof(vs));
	vs.state = PbGetStateCopy(index);
	indexInfo = BuildIndexInfo(index);
	indexInfo->ii_Concurrent = true;

	snapshot = RegisterSnapshot(GetTransactionSnapshot());
	/* tuples visible to the snapshot were indexed before it was taken */
	vs.indexBlocks = RelationGetNumberOfBlocks(index);
	scan = table_beginscan_strat(heap, snapshot, 0, NULL, true, false);
	table_index_build_scan(heap, index, indexInfo, true, false,
						   PbVerifyCallback, &vs, scan);
	UnregisterSnapshot(snapshot);

	if (vs.missing > 0)
		ereport(ERROR,
				(errcode(ERRCODE_INDEX_CORRUPTED),
				 errmsg("pagebloom index \"%s\" lacks " INT64_FORMAT " keys of " INT64_FORMAT " heap tuples",
						RelationGetRelationName(index), vs.missing, vs.checked),
				 errhint("REINDEX the index.")));

	index_close(index, AccessShareLock);
	table_close(heap, AccessShareLock);
	PG_RETURN_INT64(vs.checked);
}

/*
 * pagebloom_info(index regclass) RETURNS record
 *		The metapage parameters and the fill of the signatures.
 */
Datum
pagebloom_info(PG_FUNCTION_ARGS)
{
	Oid			indexoid = PG_GETARG_OID(0);
	Relation	heap;
	Relation	index;
	PageBloomState *state;
	const PageBloomMetaPageData *meta;
	BlockNumber indexBlocks;
	BlockNumber heapBlocks;
	BlockNumber blkno;
	uint64		nranges;
	uint64		bitsSet = 0;
	double		ranges;
	double		fill;
	int64		mapPages = 0;
	Datum		values[18];
	bool		nulls[18];

	index = PbOpenIndex(indexoid, AccessShareLock, &heap);
	state = PbGetState(index);
	meta = &state->meta;
	indexBlocks = RelationGetNumberOfBlocks(index);
	heapBlocks = RelationGetNumberOfBlocks(heap);
	nranges = ((uint64) heapBlocks + meta->pagesPerRange - 1) / meta->pagesPerRange;

	for (blkno = 1; blkno < indexBlocks; blkno++)
	{
		Buffer		buf = ReadBuffer(index, blkno);
		Page		page;

		CHECK_FOR_INTERRUPTS();
		LockBuffer(buf, BUFFER_LOCK_SHARE);
		page = BufferGetPage(buf);
		if (!PageIsNew(page) && (PageBloomPageGetOpaque(page)->flags & PB_MAP))
			mapPages++;
		if (!PageIsNew(page) && (PageBloomPageGetOpaque(page)->flags & PB_SLICE))
		{
			const uint64 *words = PageBloomPageGetWords(page);
			uint64		first = (uint64) ((blkno - 1) / PbSegmentPages(meta)) * PbRangesPerSegment(meta);
			uint64		valid[PB_MAX_ROW_WORDS];
			int			w;
			int			j;

			/* only the ranges of the table as it is now (it may have shrunk) */
			for (w = 0; w < (int) meta->rowWords; w++)
			{
				uint64		lo = first + (uint64) w * 64;

				if (lo + 64 <= nranges)
					valid[w] = ~UINT64CONST(0);
				else if (lo >= nranges)
					valid[w] = 0;
				else
					valid[w] = (UINT64CONST(1) << (nranges - lo)) - 1;
			}
			for (j = 0; j < (int) meta->blockBits; j++)
				for (w = 0; w < (int) meta->rowWords; w++)
					bitsSet += pg_popcount64(words[j * meta->rowWords + w] & valid[w]);
		}
		UnlockReleaseBuffer(buf);
	}
	ranges = (double) nranges;
	fill = ranges > 0 ? (double) bitsSet / (ranges * meta->nblocks * meta->blockBits) : 0;

	memset(nulls, 0, sizeof(nulls));
	values[0] = Int32GetDatum(meta->pagesPerRange);
	values[1] = Int64GetDatum((int64) meta->nblocks * meta->blockBits);
	values[2] = Int32GetDatum(meta->nblocks);
	values[3] = Int32GetDatum(meta->blockBits);
	values[4] = Int32GetDatum(meta->k);
	values[5] = Int32GetDatum(PbRangesPerSegment(meta));
	values[6] = Int64GetDatum(indexBlocks >= 1 + meta->nblocks ?
							  (indexBlocks - 1 - meta->nblocks) / PbSegmentPages(meta) + 1 : 0);
	values[7] = Int64GetDatum(indexBlocks);
	values[8] = Float8GetDatum(meta->targetFpr);
	values[9] = Float8GetDatum(meta->designFpr);
	values[10] = Float8GetDatum(meta->rowsPerRange);
	values[11] = Int64GetDatum((int64) ranges);
	values[12] = Float8GetDatum(fill);
	/*
	 * one-column probe FPR for the key count that explains the fill, for the
	 * column with the fewest bits per key
	 */
	{
		double		kbar = 0;
		int			kmin = PB_MAX_K;
		Datum		kd[INDEX_MAX_KEYS];
		Datum		fd[INDEX_MAX_KEYS];
		uint32		c;

		for (c = 0; c < meta->ncols; c++)
		{
			kbar += meta->kcol[c];
			kmin = Min(kmin, meta->kcol[c]);
			kd[c] = Int32GetDatum(meta->kcol[c]);
			fd[c] = Float8GetDatum((double) meta->designFprCol[c]);
		}
		kbar /= meta->ncols;
		if (fill <= 0)
			values[13] = Float8GetDatum(0.0);
		else if (fill >= 1)
			values[13] = Float8GetDatum(1.0);
		else
		{
			double		m = (double) meta->nblocks * meta->blockBits;
			double		nkeys = -m * log(1.0 - fill) / kbar;

			values[13] = Float8GetDatum(PbBlockedFprMixed(nkeys, meta->nblocks,
														  meta->blockBits, kbar, kmin));
		}
		values[14] = PointerGetDatum(construct_array(kd, meta->ncols, INT4OID, 4, true, TYPALIGN_INT));
		values[15] = PointerGetDatum(construct_array(fd, meta->ncols, FLOAT8OID, 8,
													 FLOAT8PASSBYVAL, TYPALIGN_DOUBLE));
	}

	values[16] = Int32GetDatum((int32) meta->rowSlots);
	values[17] = Int64GetDatum(mapPages);

	index_close(index, AccessShareLock);
	table_close(heap, AccessShareLock);
	return BfInfoTuple(fcinfo, values, nulls, 18);
}

/*
 * The index hashes bytes: refuse a column under a nondeterministic collation
 * (equal strings could have different bytes), in the index's own words
 * (BfHasherInit refuses it too, for filter elements)
 */
void
PbCheckCollations(Relation index)
{
	int			i;

	for (i = 0; i < IndexRelationGetNumberOfKeyAttributes(index); i++)
	{
		Oid			coll = index->rd_indcollation[i];

		if (OidIsValid(coll) && type_is_collatable(TupleDescAttr(index->rd_att, i)->atttypid) &&
			!get_collation_isdeterministic(coll))
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("pagebloom indexes do not support nondeterministic collations"),
					 errdetail("Column %d of index \"%s\" has collation \"%s\", under which equal strings can have different bytes; the index hashes bytes.",
							   i + 1, RelationGetRelationName(index), get_collation_name(coll)),
					 errhint("Index the column under COLLATE \"C\" (or another deterministic collation), as in (col COLLATE \"C\"), and compare it under the same collation in queries.")));
	}
}

/*
 * pagebloom reads heap pages itself (re-summarization): refuse tables of
 * another table access method.
 */
void
PbCheckHeapAm(Relation heap)
{
	if (heap->rd_tableam != GetHeapamTableAmRoutine())
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("pagebloom indexes are supported only on heap tables"),
				 errdetail("Table \"%s\" uses another table access method.",
						   RelationGetRelationName(heap)),
				 errhint("Use another index access method for this table.")));
}
