-- Default btree and hash operator classes of the four filter types: a total order
-- (filters with different parameters are unequal, not an error), consistent with =,
-- so that GROUP BY, DISTINCT, UNION, ORDER BY, hash and merge joins work on filter columns
CREATE SCHEMA opclass_test;
SET search_path = opclass_test, public;

-- 30 groups of ids; every filter built twice (equal values), and with other parameters
CREATE TABLE f AS
SELECT g, bloom_agg(i, 1000, 0.01) AS b, countingbloom_agg(i, 1000, 0.01) AS cb,
	quotientfilter_agg(i, 1000, 0.01) AS qf, cuckoofilter_agg(i, 1000, 0.01) AS cf
FROM (SELECT i % 30 AS g, i FROM generate_series(1, 6000) i) s GROUP BY g;
INSERT INTO f SELECT g + 100, b, cb, qf, cf FROM f;					-- the same values again
INSERT INTO f SELECT g + 200, bloom_empty(1000, 0.001), countingbloom_empty(1000, 0.001),
	quotientfilter_empty(1000, 0.001), cuckoofilter_empty(1000, 0.001)
FROM generate_series(1, 3) g;											-- other parameters, equal to each other
ANALYZE f;

-- which classes exist
SELECT opcname, amname, opcdefault FROM pg_opclass c JOIN pg_am a ON a.oid = c.opcmethod
WHERE opcname ~ '^(bloom|countingbloom|quotientfilter|cuckoofilter)_(btree|hash)_ops$' ORDER BY 1;

-- distinct values: 30 groups + 1 empty filter of other parameters, by sorting and by hashing
SET enable_hashagg = off;
SELECT count(DISTINCT b) AS b, count(DISTINCT cb) AS cb, count(DISTINCT qf) AS qf, count(DISTINCT cf) AS cf FROM f;
SELECT (SELECT count(*) FROM (SELECT b FROM f GROUP BY b) s) AS b_sorted_groups,
	(SELECT count(*) FROM (SELECT qf FROM f GROUP BY qf) s) AS qf_sorted_groups;
RESET enable_hashagg;
SET enable_sort = off;
EXPLAIN (COSTS OFF) SELECT cf, count(*) FROM f GROUP BY cf;
SELECT count(*) AS groups, min(n) AS min_rows, max(n) AS max_rows
FROM (SELECT cf, count(*) AS n FROM f GROUP BY cf) s;
SELECT count(*) AS cb_groups FROM (SELECT DISTINCT cb FROM f) s;
RESET enable_sort;
SELECT count(*) AS union_rows FROM (SELECT b, qf FROM f UNION SELECT b, qf FROM f) s;

-- joins on filter columns: hash join and merge join give each row its one twin (and the
-- three equal empty filters of other parameters each other)
SET enable_mergejoin = off;
SET enable_nestloop = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM f x JOIN f y ON x.qf = y.qf;
SELECT count(*) AS hash_join_rows, count(*) FILTER (WHERE x.g % 100 = y.g % 100) AS same_group
FROM f x JOIN f y ON x.qf = y.qf AND x.b = y.b AND x.cb = y.cb AND x.cf = y.cf;
RESET enable_mergejoin;
SET enable_hashjoin = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM f x JOIN f y ON x.b = y.b;
SELECT count(*) AS merge_join_rows FROM f x JOIN f y ON x.b = y.b;
RESET enable_hashjoin;
RESET enable_nestloop;

-- ORDER BY is a total order: antisymmetric, and consistent with = and the hashes
SELECT count(*) FILTER (WHERE (x.b < y.b) = (y.b > x.b) AND (x.b <= y.b) = NOT (x.b > y.b)
		AND ((x.b = y.b) = (bloom_cmp(x.b, y.b) = 0)) AND bloom_cmp(x.b, y.b) = -bloom_cmp(y.b, x.b)) AS bloom_ok,
	count(*) FILTER (WHERE (x.qf < y.qf) = (quotientfilter_cmp(x.qf, y.qf) < 0)
		AND (x.qf >= y.qf) = (quotientfilter_cmp(x.qf, y.qf) >= 0)) AS qf_ok,
	count(*) FILTER (WHERE x.cf = y.cf AND cuckoofilter_hash(x.cf) <> cuckoofilter_hash(y.cf)) AS cf_hash_mismatch,
	count(*) FILTER (WHERE x.cb = y.cb AND countingbloom_hash_extended(x.cb, 7) <> countingbloom_hash_extended(y.cb, 7)) AS cb_hash_mismatch,
	count(*) AS pairs
FROM f x, f y;
-- sorting by filters, then comparing neighbours, finds the same groups as hashing
SELECT count(*) FILTER (WHERE prev IS DISTINCT FROM qf) AS qf_runs
FROM (SELECT qf, lag(qf) OVER (ORDER BY qf) AS prev FROM f) s;

-- quotientfilter: equal fingerprint sets are equal, sort and hash alike whatever the q/r split
SELECT q.f = quotientfilter_resize(q.f, 12) AS equal_after_resize,
	quotientfilter_cmp(q.f, quotientfilter_resize(q.f, 13)) AS cmp_after_resize,
	quotientfilter_hash(q.f) = quotientfilter_hash(quotientfilter_resize(q.f, 12)) AS hash_after_resize,
	quotientfilter_hash_extended(q.f, 42) = quotientfilter_hash_extended(quotientfilter_resize(q.f, 13), 42) AS hash_ext_after_resize,
	quotientfilter_hash_extended(q.f, 42) <> quotientfilter_hash_extended(q.f, 43) AS seed_matters,
	(SELECT count(DISTINCT x) FROM (VALUES (q.f), (quotientfilter_resize(q.f, 12)), (quotientfilter_resize(q.f, 13))) v(x)) AS distinct_splits
FROM (SELECT qf AS f FROM f WHERE g = 1) q;
-- the insert counter is not part of the value: adding and removing an element gives an equal filter
SELECT cuckoofilter_remove(cuckoofilter_add(cf, 99999), 99999) = cf AS cf_add_remove,
	countingbloom_remove(countingbloom_add(cb, 99999), 99999) = cb AS cb_add_remove,
	quotientfilter_remove(quotientfilter_add(qf, 99999), 99999) = qf AS qf_add_remove
FROM f WHERE g = 2;

-- a hash index on a filter column (any size: it stores hashes) finds the equal rows
CREATE INDEX f_b_hash ON f USING hash (b);
SET enable_seqscan = off;
SET enable_bitmapscan = off;
PREPARE by_filter(bloom) AS SELECT g FROM f WHERE b = $1;
SET plan_cache_mode = force_generic_plan;
EXPLAIN (COSTS OFF) EXECUTE by_filter(NULL);
RESET plan_cache_mode;
SELECT array_agg(g ORDER BY g) AS equal_rows FROM f WHERE b = (SELECT b FROM f WHERE g = 3);
RESET enable_seqscan;
RESET enable_bitmapscan;

DROP SCHEMA opclass_test CASCADE;
