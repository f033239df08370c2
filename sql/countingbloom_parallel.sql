-- countingbloom aggregates under a forced parallel plan give the same filters
-- (counters and insert counts) as the serial plan
CREATE TABLE cb_par AS
SELECT i AS id, (i % 97) AS day, 'item-' || (i * 31 % 150000) AS item, i % 7 AS hot
FROM generate_series(1, 300000) i;
ANALYZE cb_par;

SET max_parallel_workers_per_gather = 0;
CREATE TABLE cb_par_serial AS
SELECT countingbloom_agg(item, 250000, 0.01) AS a, countingbloom_agg(id) AS b,
	countingbloom_agg(hot, 1000, 0.01) AS saturated FROM cb_par;
CREATE TABLE cb_par_serial_days AS SELECT day, countingbloom_agg(item, 5000, 0.01) AS f FROM cb_par GROUP BY day;

SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
SET parallel_leader_participation = off;
EXPLAIN (COSTS OFF)
SELECT countingbloom_agg(item, 250000, 0.01), countingbloom_agg(id), countingbloom_agg(hot, 1000, 0.01) FROM cb_par;
SELECT s.a::text = p.a::text AS same_3arg, s.b::text = p.b::text AS same_1arg,
	s.saturated::text = p.saturated::text AS same_saturated,
	(countingbloom_info(p.saturated)).counters_saturated > 0 AS really_saturated,
	(countingbloom_info(p.a)).inserts AS inserts
FROM cb_par_serial s,
	(SELECT countingbloom_agg(item, 250000, 0.01) AS a, countingbloom_agg(id) AS b,
			countingbloom_agg(hot, 1000, 0.01) AS saturated FROM cb_par) p;
-- the workers really ran: each saw a part of the rows
-- (PostgreSQL 18 prints fractional row counts and buffers: compare the loops only)
DO $$
DECLARE
	r record;
	p text := '';
BEGIN
	FOR r IN EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF)
		SELECT countingbloom_agg(item, 250000, 0.01) FROM cb_par LOOP
		p := p || r."QUERY PLAN" || E'\n';
	END LOOP;
	RAISE NOTICE 'partial aggregates in 2 workers: %, each scanned a part: %',
		p ~ 'Partial Aggregate \(actual rows=1(\.00)? loops=2\)',
		p ~ 'Parallel Seq Scan on cb_par \(actual rows=\d+(\.\d+)? loops=2\)';
END $$;

-- over no rows the parallel plan keeps the requested parameters, also as
-- parameters of a prepared statement's generic plan
EXPLAIN (COSTS OFF) SELECT countingbloom_agg(item, 5000, 0.02) FROM cb_par WHERE id < 0;
SELECT countingbloom_agg(item, 5000, 0.02) = countingbloom_empty(5000, 0.02) AS empty_parallel FROM cb_par WHERE id < 0;
PREPARE cb_par_q(bigint, float8) AS SELECT countingbloom_agg(item, $1, $2) FROM cb_par WHERE id < 0;
SET plan_cache_mode = force_generic_plan;
CREATE TEMP TABLE cb_par_generic AS EXECUTE cb_par_q(777, 0.03);
SELECT countingbloom_agg = countingbloom_empty(777, 0.03) AS generic_plan_params FROM cb_par_generic;
RESET plan_cache_mode;
DEALLOCATE cb_par_q;

-- union aggregate in parallel
CREATE TABLE cb_par_day_filters AS
SELECT s.day, s.f, repeat('x', 1000) AS pad FROM cb_par_serial_days s, generate_series(1, 3);
ANALYZE cb_par_day_filters;
EXPLAIN (COSTS OFF) SELECT countingbloom_union_agg(f) FROM cb_par_day_filters;
SELECT countingbloom_union_agg(f)::text = (SELECT countingbloom_union_agg(f) | countingbloom_union_agg(f) | countingbloom_union_agg(f)
										   FROM cb_par_serial_days)::text AS union_same
FROM cb_par_day_filters;

-- grouped parallel aggregate
EXPLAIN (COSTS OFF) SELECT day, countingbloom_agg(item, 5000, 0.01) FROM cb_par GROUP BY day;
SELECT count(*) AS days, bool_and(s.f::text = p.f::text) AS all_same
FROM cb_par_serial_days s JOIN (SELECT day, countingbloom_agg(item, 5000, 0.01) AS f FROM cb_par GROUP BY day) p USING (day);

-- probes in a parallel scan
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
SELECT plan_of('SELECT count(*) FROM cb_par WHERE (SELECT a FROM cb_par_serial) @> item')
	~ 'Gather\s+Workers Planned: 2\s+(Params Evaluated: \$1\s+)?->  Partial Aggregate\s+->  Parallel Seq Scan on cb_par' AS probes_in_parallel_scan;
SELECT count(*) AS found FROM cb_par WHERE (SELECT a FROM cb_par_serial) @> item;
SELECT count(*) AS counted_twice FROM cb_par WHERE countingbloom_count((SELECT a FROM cb_par_serial), item) >= 2;

RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
RESET max_parallel_workers_per_gather;
RESET parallel_leader_participation;
DROP TABLE cb_par, cb_par_serial, cb_par_serial_days, cb_par_day_filters, cb_par_generic;
