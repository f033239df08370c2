-- bloom aggregates under a forced parallel plan give the same filter as the serial plan
CREATE SCHEMA bloom_parallel_test;
SET search_path = bloom_parallel_test, public;
CREATE TABLE events AS SELECT i AS id, (i % 97) AS day, 'item-' || (i * 31 % 150000) AS item
FROM generate_series(1, 300000) i;
ANALYZE events;

SET max_parallel_workers_per_gather = 0;
CREATE TABLE serial AS
SELECT bloom_agg(item, 200000, 0.01) AS a, bloom_agg(id) AS b, bloom_agg(id, 1000000, 0.01) AS c FROM events;
CREATE TABLE serial_days AS SELECT day, bloom_agg(item, 5000, 0.01) AS f FROM events GROUP BY day;

SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
SET parallel_leader_participation = off;
EXPLAIN (COSTS OFF) SELECT bloom_agg(item, 200000, 0.01), bloom_agg(id) FROM events;
-- (c: distinct elements, so that each partial state's pending positions,
-- doc/design.md "Deferred adds", set bits no other row sets)
SELECT (SELECT a FROM serial) = p.a AS same_3arg, (SELECT b FROM serial) = p.b AS same_1arg,
	(SELECT c FROM serial) = p.c AS same_distinct
FROM (SELECT bloom_agg(item, 200000, 0.01) AS a, bloom_agg(id) AS b, bloom_agg(id, 1000000, 0.01) AS c FROM events) p;
-- the self-sized result of the parallel plan (the partial states' hash lists merged by the combine
-- function, then sealed once) against the truth: every element, and the rate of one aggregate
-- over all of them (about 1/20 of the target, with the union reserve), not a union's sum
SELECT (SELECT count(*) FROM events e WHERE NOT p.b @> e.id) AS false_negatives,
	(SELECT count(*) FROM generate_series(1, 300000) i WHERE p.b @> (-i)) / 3e5 <= 0.01 / 5 AS fpr_within_fifth_of_target,
	(bloom_info(p.b)).members
FROM (SELECT bloom_agg(id) AS b FROM events) p;
-- partial states that saw the same elements: their merged hash lists repeat them (1.2M hashes
-- of a 300k set); the final function counts the set, as the serial plan does
CREATE TABLE repeats AS SELECT (i % 300000)::int8 AS x FROM generate_series(1, 1200000) i;
ANALYZE repeats;
EXPLAIN (COSTS OFF) SELECT bloom_agg(x) FROM repeats;
CREATE TABLE repeats_par AS SELECT bloom_agg(x) AS f FROM repeats;
SET max_parallel_workers_per_gather = 0;
SELECT p.f = (SELECT bloom_agg(x) FROM repeats) AS repeats_same,
	p.f = (SELECT bloom_agg(x) FROM generate_series(0, 299999) x) AS repeats_same_as_the_set
FROM repeats_par p;
SET max_parallel_workers_per_gather = 2;
DROP TABLE repeats, repeats_par;

-- the leader's own partial states: with no worker launched (the plan is
-- still Partial/Finalize), the leader aggregates every row and its combine
-- function gets the partial state in the same process, a state of 64 kB or
-- more as an expanded object (doc/design.md "Aggregates"), flattened there
SET parallel_leader_participation = on;
SET max_parallel_workers = 0;
EXPLAIN (COSTS OFF) SELECT bloom_agg(id) FROM events;
SELECT (SELECT b FROM serial) = p.b AS same_leader_only, (SELECT a FROM serial) = p.a AS same_3arg_leader_only
FROM (SELECT bloom_agg(item, 200000, 0.01) AS a, bloom_agg(id) AS b FROM events) p;
RESET max_parallel_workers;
SET parallel_leader_participation = off;

-- union and intersection aggregates in parallel
CREATE TABLE day_filters AS SELECT s.day, s.f, repeat('x', 1000) AS pad FROM serial_days s, generate_series(1, 20);
ANALYZE day_filters;
EXPLAIN (COSTS OFF) SELECT bloom_union_agg(f) FROM day_filters;
SELECT bloom_union_agg(f) = (SELECT bloom_agg(item, 5000, 0.01) FROM events) AS union_same FROM day_filters;
-- self-sized inputs: a union state of 64 kB or more is kept in parts (an expanded object);
-- in parallel, and with the leader alone (its own partial state reaches the combine in the
-- same process), the serial union byte for byte (members in a canonical order, repeats once)
SET max_parallel_workers_per_gather = 0;
CREATE TABLE ss_days AS SELECT d, bloom_agg(d * 1000000 + i) AS f FROM generate_series(1, 8) d, generate_series(1, 50000) i GROUP BY d;
CREATE TABLE ss_days_many AS SELECT s.d, s.f, repeat('x', 1000) AS pad FROM ss_days s, generate_series(1, 5);
ANALYZE ss_days_many;
CREATE TABLE ss_serial AS SELECT bloom_union_agg(f) AS u FROM ss_days_many;
SET max_parallel_workers_per_gather = 2;
EXPLAIN (COSTS OFF) SELECT bloom_union_agg(f) FROM ss_days_many;
SELECT (SELECT u FROM ss_serial)::text = bloom_union_agg(f)::text AS parallel_same,
	(bloom_info(bloom_union_agg(f))).members, pg_column_size((SELECT u FROM ss_serial)) > 65536 AS large
FROM ss_days_many;
SET parallel_leader_participation = on;
SET max_parallel_workers = 0;
SELECT (SELECT u FROM ss_serial)::text = bloom_union_agg(f)::text AS leader_only_same FROM ss_days_many;
RESET max_parallel_workers;
SET parallel_leader_participation = off;
DROP TABLE ss_days, ss_days_many, ss_serial;
EXPLAIN (COSTS OFF) SELECT bloom_intersect_agg(f) FROM day_filters;
SELECT bloom_intersect_agg(f) = (SELECT bloom_intersect_agg(f) FROM serial_days) AS intersect_same FROM day_filters;

-- grouped parallel aggregate
EXPLAIN (COSTS OFF) SELECT day, bloom_agg(item, 5000, 0.01) FROM events GROUP BY day;
SELECT count(*) AS days, bool_and(s.f = p.f) AS all_same
FROM serial_days s JOIN (SELECT day, bloom_agg(item, 5000, 0.01) AS f FROM events GROUP BY day) p USING (day);
-- grouped self-sized: each group's filter as the serial plan's
SET max_parallel_workers_per_gather = 0;
CREATE TABLE serial_days_ss AS SELECT day, bloom_agg(id) AS f FROM events GROUP BY day;
SET max_parallel_workers_per_gather = 2;
EXPLAIN (COSTS OFF) SELECT day, bloom_agg(id) FROM events GROUP BY day;
SELECT count(*) AS days, bool_and(s.f = p.f) AS all_same
FROM serial_days_ss s JOIN (SELECT day, bloom_agg(id) AS f FROM events GROUP BY day) p USING (day);

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
SELECT plan_of('SELECT count(*) FROM events WHERE (SELECT a FROM serial) @> item')
	~ 'Gather\s+Workers Planned: 2\s+(Params Evaluated: \$1\s+)?->  Partial Aggregate\s+->  Parallel Seq Scan on events' AS probes_in_parallel_scan;
SELECT count(*) AS found FROM events WHERE (SELECT a FROM serial) @> item;

-- over no rows, the requested parameters survive a parallel plan, a generic plan and expressions
EXPLAIN (COSTS OFF) SELECT bloom_agg(id, 1000, 0.001) FROM events WHERE id < 0;
SELECT bloom_agg(id, 1000, 0.001) = bloom_empty(1000, 0.001) AS parallel_empty FROM events WHERE id < 0;
SELECT bloom_agg(id, 1000 + 0, 0.001 * 1) = bloom_empty(1000, 0.001) AS parallel_empty_expr FROM events WHERE id < 0;
SET max_parallel_workers_per_gather = 0;
SET plan_cache_mode = force_generic_plan;
PREPARE empty_agg(bigint, float8) AS SELECT bloom_agg(id, $1, $2) AS f FROM events WHERE id < 0;
EXECUTE empty_agg(1000, 0.001) \gset
SELECT :'f'::bloom = bloom_empty(1000, 0.001) AS generic_plan_empty;
RESET plan_cache_mode;
