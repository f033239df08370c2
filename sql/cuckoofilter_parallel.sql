-- cuckoofilter aggregates under a forced parallel plan give the same answers as the serial plan
CREATE SCHEMA cuckoofilter_parallel_test;
SET search_path = cuckoofilter_parallel_test, public;
CREATE TABLE events AS SELECT i AS id, (i % 97) AS day, 'item-' || (i * 31 % 150000) AS item
FROM generate_series(1, 300000) i;
CREATE TABLE nonmembers AS SELECT 'nothing-' || i AS k FROM generate_series(1, 300000) i;
ANALYZE events;

SET max_parallel_workers_per_gather = 0;
CREATE TABLE serial AS
SELECT cuckoofilter_agg(item, 400000, 0.01) AS a, cuckoofilter_agg(id) AS b,
	cuckoofilter_agg(id, 50000, 0.001) AS c FROM events;
CREATE TABLE serial_days AS SELECT day, cuckoofilter_agg(item, 5000, 0.01) AS f FROM events GROUP BY day;

SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
SET parallel_leader_participation = off;
EXPLAIN (COSTS OFF) CREATE TABLE parallel AS
SELECT cuckoofilter_agg(item, 400000, 0.01) AS a, cuckoofilter_agg(id) AS b,
	cuckoofilter_agg(id, 50000, 0.001) AS c FROM events;
CREATE TABLE parallel AS
SELECT cuckoofilter_agg(item, 400000, 0.01) AS a, cuckoofilter_agg(id) AS b,
	cuckoofilter_agg(id, 50000, 0.001) AS c FROM events;
RESET max_parallel_workers_per_gather;
SET max_parallel_workers_per_gather = 0;
-- the same fingerprints: every key is found, the same exact cardinality, and (without chaining)
-- exactly the same false positives, since a probe's answer depends only on (fingerprint, bucket pair)
SELECT cuckoofilter_cardinality(s.a) = cuckoofilter_cardinality(p.a) AS a_card,
	cuckoofilter_cardinality(s.b) = cuckoofilter_cardinality(p.b) AS b_card,
	cuckoofilter_cardinality(s.c) = cuckoofilter_cardinality(p.c) AS c_card,
	(cuckoofilter_info(s.a)).subfilters AS a_subs, (cuckoofilter_info(s.c)).subfilters AS c_serial_subs,
	(cuckoofilter_info(p.c)).subfilters >= 2 AS c_parallel_chained,
	p.a <> s.a AS a_placed_differently
FROM serial s, parallel p;
SELECT count(*) FILTER (WHERE NOT p.a @> item) AS a_false_neg, count(*) FILTER (WHERE NOT p.b @> id) AS b_false_neg,
	count(*) FILTER (WHERE NOT p.c @> id) AS c_false_neg,
	count(*) FILTER (WHERE cuckoofilter_count(s.a, item) <> cuckoofilter_count(p.a, item)) AS a_count_differs
FROM events, serial s, parallel p;
SELECT a_answers_differ, some_false_positives,
	-- b is over its default capacity and chains sub-filters differently (the parallel
	-- combine cannot move fingerprints into larger sub-filters); each FPR is what _fpr says
	abs(sb_measured - cuckoofilter_fpr(s.b)) < 0.15 * cuckoofilter_fpr(s.b) AS b_serial_fpr_as_estimated,
	abs(pb_measured - cuckoofilter_fpr(p.b)) < 0.15 * cuckoofilter_fpr(p.b) AS b_parallel_fpr_as_estimated
FROM (SELECT count(*) FILTER (WHERE (s.a @> k) <> (p.a @> k)) AS a_answers_differ,
		count(*) FILTER (WHERE s.a @> k) > 0 AS some_false_positives,
		avg((s.b @> k)::int) AS sb_measured, avg((p.b @> k)::int) AS pb_measured
	  FROM nonmembers, serial s, parallel p) m, serial s, parallel p;

-- over no rows, the requested parameters survive a parallel plan (Finalize Aggregate),
-- an expression of constants, the settings and a generic plan
SET max_parallel_workers_per_gather = 2;
EXPLAIN (COSTS OFF) SELECT cuckoofilter_agg(id, 5000, 0.001) FROM events WHERE id < 0;
SELECT cuckoofilter_agg(id, 5000, 0.001) = cuckoofilter_empty(5000, 0.001) AS parallel_empty,
	cuckoofilter_agg(id, 5000 + 0, 0.001 * 1) = cuckoofilter_empty(5000, 0.001) AS parallel_empty_expr,
	cuckoofilter_agg(item, 3000, 0.05) = cuckoofilter_empty(3000, 0.05) AS parallel_empty_text
FROM events WHERE id < 0;
SELECT cuckoofilter_agg(id) = cuckoofilter_empty(100000, 0.01 / 16) AS parallel_empty_defaults,
	(cuckoofilter_info(cuckoofilter_agg(id))).fingerprint_bits AS bits
FROM events WHERE id < 0;
SET plan_cache_mode = force_generic_plan;
PREPARE cf_empty_agg(bigint, float8) AS SELECT cuckoofilter_agg(id, $1, $2) AS f FROM events WHERE id < 0;
EXECUTE cf_empty_agg(50000, 0.001) \gset
SELECT :'f'::cuckoofilter = cuckoofilter_empty(50000, 0.001) AS generic_plan_empty;
DEALLOCATE cf_empty_agg;
RESET plan_cache_mode;
SET max_parallel_workers_per_gather = 0;

-- union aggregate in parallel
SET max_parallel_workers_per_gather = 2;
CREATE TABLE day_filters AS SELECT s.day, s.f, repeat('x', 1000) AS pad FROM serial_days s, generate_series(1, 3);
ANALYZE day_filters;
EXPLAIN (COSTS OFF) SELECT cuckoofilter_union_agg(f) FROM day_filters;
CREATE TABLE union_parallel AS SELECT cuckoofilter_union_agg(f) AS u FROM day_filters;
SET max_parallel_workers_per_gather = 0;
CREATE TABLE union_serial AS SELECT cuckoofilter_union_agg(f) AS u FROM day_filters;
SELECT cuckoofilter_cardinality(p.u) = cuckoofilter_cardinality(s.u) AS same_card,
	cuckoofilter_cardinality(p.u) = 3 * 300000 AS all_copies,
	(SELECT count(*) FROM events WHERE NOT p.u @> item) AS false_neg
FROM union_parallel p, union_serial s;

-- grouped parallel aggregate
SET max_parallel_workers_per_gather = 2;
EXPLAIN (COSTS OFF) SELECT day, cuckoofilter_agg(item, 5000, 0.01) FROM events GROUP BY day;
CREATE TABLE parallel_days AS SELECT day, cuckoofilter_agg(item, 5000, 0.01) AS f FROM events GROUP BY day;
SET max_parallel_workers_per_gather = 0;
SELECT count(*) AS days, bool_and(cuckoofilter_cardinality(s.f) = cuckoofilter_cardinality(p.f)) AS same_card,
	bool_and((cuckoofilter_info(s.f)).subfilters = 1) AS unchained
FROM serial_days s JOIN parallel_days p USING (day);
SELECT count(*) FILTER (WHERE NOT p.f @> e.item) AS false_neg
FROM events e JOIN parallel_days p USING (day);

-- probes in a parallel scan
SET max_parallel_workers_per_gather = 2;
-- the plan's shape (EXPLAIN prints initplans differently from PostgreSQL 17 on)
CREATE FUNCTION plan_of(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	r record;
	p text := '';
BEGIN
	FOR r IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
		p := p || r."QUERY PLAN" || E'\n';
	END LOOP;
	RETURN p;
END $$;
SELECT plan_of('SELECT count(*) FROM events WHERE (SELECT a FROM serial) @> item')
	~ 'Gather\s+Workers Planned: 2\s+(Params Evaluated: \$1\s+)?->  Partial Aggregate\s+->  Parallel Seq Scan on events' AS probes_in_parallel_scan;
SELECT count(*) AS found FROM events WHERE (SELECT a FROM serial) @> item;
