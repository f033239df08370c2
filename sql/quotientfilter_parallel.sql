-- quotientfilter aggregates under a forced parallel plan give the same filters as serial ones
CREATE SCHEMA quotientfilter_parallel_test;
SET search_path = quotientfilter_parallel_test, public;
CREATE TABLE qf_rows AS SELECT i AS k, 'key ' || (i % 5000) AS t FROM generate_series(1, 300000) i;
-- the groups have the fingerprint length of quotientfilter_agg(k, 50000, 0.001): capacity / fpr = 5e7
CREATE TABLE qf_groups AS SELECT g, quotientfilter_agg(k, 2000, 0.00004) AS f
	FROM (SELECT k % 400 AS g, k FROM qf_rows) s GROUP BY g;
ANALYZE qf_rows, qf_groups;

SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
EXPLAIN (COSTS OFF) SELECT quotientfilter_agg(k) FROM qf_rows;
EXPLAIN (COSTS OFF) SELECT quotientfilter_agg(k, 50000, 0.001) FROM qf_rows;
EXPLAIN (COSTS OFF) SELECT quotientfilter_union_agg(f) FROM qf_groups;
CREATE TEMP TABLE par AS SELECT
	(SELECT quotientfilter_agg(k) FROM qf_rows) AS plain,
	(SELECT quotientfilter_agg(k, 50000, 0.001) FROM qf_rows) AS grown,
	(SELECT quotientfilter_agg(t, 400000, 0.01) FROM qf_rows) AS duplicates,
	(SELECT quotientfilter_union_agg(f) FROM qf_groups) AS unioned;

SET max_parallel_workers_per_gather = 0;
EXPLAIN (COSTS OFF) SELECT quotientfilter_agg(k) FROM qf_rows;
CREATE TEMP TABLE ser AS SELECT
	(SELECT quotientfilter_agg(k) FROM qf_rows) AS plain,
	(SELECT quotientfilter_agg(k, 50000, 0.001) FROM qf_rows) AS grown,
	(SELECT quotientfilter_agg(t, 400000, 0.01) FROM qf_rows) AS duplicates,
	(SELECT quotientfilter_union_agg(f) FROM qf_groups) AS unioned;
RESET max_parallel_workers_per_gather;

-- over no rows, the requested parameters survive a parallel plan (Finalize
-- Aggregate), an expression of constants and a generic plan; = would not
-- see a different q, so q, r and the text form are compared
SET max_parallel_workers_per_gather = 2;
EXPLAIN (COSTS OFF) SELECT quotientfilter_agg(k, 50000, 0.001) FROM qf_rows WHERE k < 0;
SELECT i.q, i.r, i.entries, f::text = quotientfilter_empty(50000, 0.001)::text AS parallel_empty
FROM (SELECT quotientfilter_agg(k, 50000, 0.001) AS f FROM qf_rows WHERE k < 0) s, quotientfilter_info(s.f) i;
SELECT quotientfilter_agg(k, 50000 + 0, 0.001 * 1)::text = quotientfilter_empty(50000, 0.001)::text AS parallel_empty_expr
FROM qf_rows WHERE k < 0;
SELECT quotientfilter_agg(t, 3000, 0.05)::text = quotientfilter_empty(3000, 0.05)::text AS parallel_empty_text
FROM qf_rows WHERE k < 0;
SELECT quotientfilter_agg(k)::text = quotientfilter_empty(100000, 0.01)::text AS parallel_empty_defaults
FROM qf_rows WHERE k < 0;
SET max_parallel_workers_per_gather = 0;
SET plan_cache_mode = force_generic_plan;
PREPARE qf_empty_agg(bigint, float8) AS SELECT quotientfilter_agg(k, $1, $2) AS f FROM qf_rows WHERE k < 0;
EXECUTE qf_empty_agg(50000, 0.001) \gset
SELECT :'f'::quotientfilter::text = quotientfilter_empty(50000, 0.001)::text AS generic_plan_empty;
DEALLOCATE qf_empty_agg;
RESET plan_cache_mode;
RESET max_parallel_workers_per_gather;

-- filters past their capacity grow by members, and which elements land in
-- which member depends on the order the rows arrive in: a parallel chain
-- holds the same entries with no false negatives and within the rate, but
-- its members are not the serial ones.  Partial states keep 4 more
-- fingerprint bits than a serial aggregate (their merge, member by member,
-- would otherwise add up their rates: about 2.4x the target with two
-- workers and the leader, before the tenth session), so the parallel chain's
-- rate is below the serial one's; where the serial result is one table
-- (duplicates: the rows fit its capacity) the final function cuts the merged
-- table back to it, byte for byte; unioned (equal p merges into one table)
-- is byte-identical too.
SELECT quotientfilter_cardinality(p.plain) = quotientfilter_cardinality(s.plain) AS plain_same_entries,
	quotientfilter_cardinality(p.grown) = quotientfilter_cardinality(s.grown) AS grown_same_entries,
	quotientfilter_fpr(s.plain) <= 2 * 0.01 AND quotientfilter_fpr(s.grown) <= 2 * 0.001 AS serial_within_2x_target,
	quotientfilter_fpr(p.plain) <= quotientfilter_fpr(s.plain) AND quotientfilter_fpr(p.grown) <= quotientfilter_fpr(s.grown) AS parallel_within_serial_rate,
	p.duplicates = s.duplicates AS duplicates_equal, p.unioned = s.unioned AS unioned_equal,
	quotientfilter_cardinality(p.unioned) = quotientfilter_cardinality(p.grown) AS union_of_groups_same_entries
FROM par p, ser s;
SELECT quotientfilter_send(p.duplicates) = quotientfilter_send(s.duplicates) AND
	quotientfilter_send(p.unioned) = quotientfilter_send(s.unioned) AS identical_bytes
FROM par p, ser s;
SELECT label, i.entries, i.distinct_fingerprints, substring(v.f::text from 'members=\d+') AS members
FROM par p, LATERAL (VALUES ('duplicates', p.duplicates), ('unioned', p.unioned)) v(label, f), LATERAL quotientfilter_info(v.f) i;
-- the rate measured on absent keys agrees
SELECT avg((p.plain @> -g)::int) <= 2 * 0.01 AS parallel_plain_measured_within_2x,
	avg((p.grown @> -g)::int) <= 2 * 0.001 AS parallel_grown_measured_within_2x
FROM par p, generate_series(1, 100000) g;
SELECT count(*) FILTER (WHERE NOT p.grown @> k) AS false_negatives_grown,
	count(*) FILTER (WHERE NOT p.plain @> k) AS false_negatives_plain,
	count(*) FILTER (WHERE NOT p.unioned @> k) AS false_negatives_unioned,
	count(*) FILTER (WHERE NOT p.duplicates @> t) AS false_negatives_text
FROM par p, qf_rows;

-- a capacity and fpr that vary by group: the final function cannot evaluate them, so it
-- reads the serial length off the combined state (never the defaults standing in, 100000
-- and 0.01: p = 24, which these groups' partial states, p = 28 for capacity 10 at 0.000001,
-- would fit: a 160 kB table a group).  12 rows a group: within the first table of the
-- groups of capacity 10 and more, whose parallel result is the serial one byte for byte
-- where the 12 rows fill at most half of it (capacity 15 and 16: 32 slots; 257 groups),
-- else keeps the longer fingerprints (the combine may have grown the table); past it for
-- capacity 3, whose chain keeps the partial states' longer fingerprints
CREATE TABLE qf_small AS SELECT i % 1000 AS g,
	CASE WHEN i % 1000 % 10 = 0 THEN 3 ELSE 10 + i % 1000 % 7 END::bigint AS cap,
	0.000001::float8 * (1 + i % 1000 % 3) AS fpr, i AS x
FROM generate_series(1, 12000) i;
ANALYZE qf_small;
SET max_parallel_workers_per_gather = 0;
CREATE TABLE qf_small_serial AS SELECT g, quotientfilter_agg(x, cap, fpr) AS f FROM qf_small GROUP BY g;
SET max_parallel_workers_per_gather = 2;
EXPLAIN (COSTS OFF) SELECT g, quotientfilter_agg(x, cap, fpr) FROM qf_small GROUP BY g;
CREATE TABLE qf_small_par AS SELECT g, quotientfilter_agg(x, cap, fpr) AS f FROM qf_small GROUP BY g;
SELECT count(*) AS groups,
	count(*) FILTER (WHERE g % 10 <> 0 AND p.f = s.f) AS within_capacity_same_as_serial,
	count(*) FILTER (WHERE g % 10 = 0 AND p.f <> s.f) AS past_capacity_longer,
	max(pg_column_size(p.f)) < 2000 AS small_groups_stay_small,
	bool_and(quotientfilter_cardinality(p.f) = 12) AS every_row
FROM qf_small_par p JOIN qf_small_serial s USING (g);
SELECT count(*) FILTER (WHERE NOT p.f @> x) AS false_negatives
FROM qf_small JOIN qf_small_par p USING (g);
-- groups that fit each partial state's first table but not the serial one (17 rows, capacity 10:
-- the serial result chains a second member): the combine grows the merged table, and the final
-- function must not cut it to the serial length (a table past its capacity at the serial
-- fingerprints: a rate above the fpr asked for); it keeps the longer fingerprints
CREATE TABLE qf_over AS SELECT i % 20000 AS g, 10::bigint AS cap, 0.001::float8 AS fpr, i AS x
FROM generate_series(1, 340000) i;
ANALYZE qf_over;
SELECT count(*) AS groups, max(quotientfilter_fpr(f)) <= 0.001 AS every_rate_within_fpr,
	bool_and(quotientfilter_cardinality(f) = 17) AS every_row
FROM (SELECT g, quotientfilter_agg(x, cap, fpr) AS f FROM qf_over GROUP BY g) s;
RESET max_parallel_workers_per_gather;
DROP TABLE qf_small, qf_small_serial, qf_small_par, qf_over;

-- every row is an entry (a multiset); DISTINCT stores each element once
SELECT quotientfilter_cardinality(quotientfilter_agg(DISTINCT t)) AS distinct_entries,
	quotientfilter_agg(DISTINCT t) = quotientfilter_add(quotientfilter_empty(100000), array(SELECT DISTINCT t FROM qf_rows)) AS same_as_array
FROM qf_rows;

DROP TABLE qf_rows, qf_groups;
