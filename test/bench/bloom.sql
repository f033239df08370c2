-- bloom benchmarks (issue 2, doc/performance.md "bloom").
--
-- 1. bloom_agg over 5M x scale bigints against hll_add_agg(hll_hash_bigint(x))
--    over the same rows: the self-sized bloom_agg(x) (target <= 1.5) and
--    bloom_agg(x, n, 0.01) sized for the rows; the self-sized against the
--    sized one (time, size), the false-positive rate each achieved (1M
--    probes of values not in the rows), and count(x), the floor of what the
--    executor needs to feed any aggregate.
-- 2. 5M x scale probe rows against one filter of 1M x scale keys, the filter
--    given as a scalar subquery, a parameter and a joined one-row table,
--    against the exact alternative x IN (SELECT k FROM keys), a hash
--    semi-join (target <= 0.5).
-- 3. One probe of a 64 MB filter stored in a table row: shared buffers
--    touched (EXPLAIN (ANALYZE, BUFFERS)) against reading the whole value
--    once (bloom_fpr must look at every bit); then 10 and 100 probes of it
--    in one statement.
-- 4. Union rollups: 30 day filters of 300k x scale elements each, built by
--    the self-sized bloom_agg(x), unioned by bloom_union_agg, against
--    hll_union_agg of the days' HLL sketches; the rate of the union
--    beside it.
--
-- Every time is the median of alternating runs of the query and its baseline
-- (bench.compare), so load on the machine hits both alike.
\set ECHO none
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS hll;
SET search_path = public, bench;

SELECT greatest(1000, (5000000 * :scale)::int) AS n_rows,
	   greatest(1000, (1000000 * :scale)::int) AS n_keys,
	   greatest(1000, (5000000 * :scale)::int) AS n_probes,
	   5 AS runs \gset

-- ---------------------------------------------------------------------
-- Data.  Random bigints: the hashes do not care, but the hash join's
-- memory access pattern should be that of real keys.
-- ---------------------------------------------------------------------
DROP TABLE IF EXISTS bloom_bench_agg, bloom_bench_keys, bloom_bench_probes,
	bloom_bench_filters, bloom_bench_big, bloom_bench_days CASCADE;
DROP FUNCTION IF EXISTS bloom_bench_filter(), bloom_bench_buffers(text);

CREATE TABLE bloom_bench_agg AS
	SELECT (random() * 9.2e18)::bigint AS x FROM generate_series(1, :n_rows);

-- keys: distinct; probes: 10% members, 90% drawn from the whole range, shuffled
CREATE TABLE bloom_bench_keys AS
	SELECT DISTINCT (random() * 9.2e18)::bigint AS k FROM generate_series(1, :n_keys);
CREATE TABLE bloom_bench_probes AS
	SELECT x FROM (
		(SELECT k AS x FROM bloom_bench_keys ORDER BY random() LIMIT (:n_probes * 0.1)::int)
		UNION ALL
		SELECT (random() * 9.2e18)::bigint FROM generate_series(1, :n_probes - (:n_probes * 0.1)::int)
	) s ORDER BY random();

-- the filter of the keys, sized for them at 1%, stored in a table row
-- (column storage external: uncompressed, out of line)
CREATE TABLE bloom_bench_filters (id int PRIMARY KEY, f bloom);
INSERT INTO bloom_bench_filters
	SELECT 1, bloom_agg(k, :n_keys, 0.01) FROM bloom_bench_keys;

VACUUM ANALYZE bloom_bench_agg, bloom_bench_keys, bloom_bench_probes, bloom_bench_filters;
-- write the loaded data out now rather than during the timed runs
CHECKPOINT;

-- warm shared buffers so that the first timed run reads no more than the others
SELECT count(*) FROM bloom_bench_agg \g /dev/null
SELECT count(*) FROM bloom_bench_keys \g /dev/null
SELECT count(*) FROM bloom_bench_probes \g /dev/null

\echo
\echo rows, keys, probes, filter:
SELECT :n_rows AS agg_rows, (SELECT count(*) FROM bloom_bench_keys) AS keys,
	   (SELECT count(*) FROM bloom_bench_probes) AS probes,
	   (SELECT m FROM bloom_info((SELECT f FROM bloom_bench_filters))) AS filter_m,
	   (SELECT k FROM bloom_info((SELECT f FROM bloom_bench_filters))) AS filter_k,
	   (SELECT pg_column_size(f) FROM bloom_bench_filters) AS filter_stored_bytes;

-- ---------------------------------------------------------------------
-- 1. Aggregation
-- ---------------------------------------------------------------------
\echo 1. aggregation
SELECT a_ms AS bloom_ms, b_ms AS hll_ms FROM bench.compare(
	'SELECT bloom_agg(x) FROM bloom_bench_agg',
	'SELECT hll_add_agg(hll_hash_bigint(x)) FROM bloom_bench_agg', :runs) \gset a1_
SELECT a_ms AS bloom_ms, b_ms AS hll_ms FROM bench.compare(
	format('SELECT bloom_agg(x, %s, 0.01) FROM bloom_bench_agg', :n_rows),
	'SELECT hll_add_agg(hll_hash_bigint(x)) FROM bloom_bench_agg', :runs) \gset a2_
SELECT a_ms AS count_ms, b_ms AS bloom_ms FROM bench.compare(
	'SELECT count(x) FROM bloom_bench_agg',
	'SELECT bloom_agg(x) FROM bloom_bench_agg', :runs) \gset a3_
SELECT a_ms AS self_ms, b_ms AS sized_ms FROM bench.compare(
	'SELECT bloom_agg(x) FROM bloom_bench_agg',
	format('SELECT bloom_agg(x, %s, 0.01) FROM bloom_bench_agg', :n_rows), :runs) \gset a4_

-- what each built: size and the false-positive rate measured on 1M values not in the rows
-- (the rows are non-negative, the probes negative)
CREATE TEMP TABLE bloom_bench_built AS
	SELECT 'self' AS kind, bloom_agg(x) AS f FROM bloom_bench_agg
	UNION ALL
	SELECT 'sized', bloom_agg(x, :n_rows, 0.01) FROM bloom_bench_agg;
SELECT kind, pg_column_size(f) AS bytes, (bloom_info(f)).members,
	   (SELECT count(*) FILTER (WHERE f @> -y) FROM generate_series(1, 1000000) y) / 1e6 AS measured_fpr,
	   (SELECT count(*) FILTER (WHERE NOT f @> x) FROM bloom_bench_agg) AS false_negatives
	FROM bloom_bench_built ORDER BY kind;
SELECT max(pg_column_size(f)) FILTER (WHERE kind = 'self') AS self_bytes,
	   max(pg_column_size(f)) FILTER (WHERE kind = 'sized') AS sized_bytes,
	   max((SELECT count(*) FILTER (WHERE f @> -y) FROM generate_series(1, 1000000) y) / 1e6)
		   FILTER (WHERE kind = 'self') AS self_fpr,
	   max((SELECT count(*) FILTER (WHERE f @> -y) FROM generate_series(1, 1000000) y) / 1e6)
		   FILTER (WHERE kind = 'sized') AS sized_fpr
	FROM bloom_bench_built \gset

SELECT bench.report('bloom', 'bloom_agg(x) [self-sized]', :a1_bloom_ms,
					'hll_add_agg(hll_hash_bigint(x))', :a1_hll_ms, '<= 1.5') \g /dev/null
SELECT bench.report('bloom', format('bloom_agg(x, %s, 0.01)', :n_rows), :a2_bloom_ms,
					'hll_add_agg(hll_hash_bigint(x))', :a2_hll_ms, 'report') \g /dev/null
SELECT bench.report('bloom', 'bloom_agg(x) [self-sized]', :a4_self_ms,
					format('bloom_agg(x, %s, 0.01)', :n_rows), :a4_sized_ms, 'report') \g /dev/null
SELECT bench.report('bloom', 'bloom_agg(x) [self-sized] size', :self_bytes,
					format('bloom_agg(x, %s, 0.01) size', :n_rows), :sized_bytes, '<= 2.0', 'bytes') \g /dev/null
SELECT bench.report('bloom', 'bloom_agg(x) [self-sized] measured fpr', :self_fpr,
					'target 0.01', 0.01, '<= 1.25', 'fpr') \g /dev/null
SELECT bench.report('bloom', format('bloom_agg(x, %s, 0.01) measured fpr', :n_rows), :sized_fpr,
					'target 0.01', 0.01, '<= 1.25', 'fpr') \g /dev/null
SELECT bench.report('bloom', 'bloom_agg(x) [self-sized]', :a3_bloom_ms,
					'count(x)', :a3_count_ms, 'report') \g /dev/null

-- ---------------------------------------------------------------------
-- 2. Probing with a filter that is constant for the query
-- ---------------------------------------------------------------------
\echo 2. probing
-- the exact answer, and no false negatives from any form of the probe
SELECT count(*) AS exact FROM bloom_bench_probes
	WHERE x IN (SELECT k FROM bloom_bench_keys) \gset
SELECT count(*) AS subq FROM bloom_bench_probes
	WHERE (SELECT f FROM bloom_bench_filters WHERE id = 1) @> x \gset
SELECT count(*) AS joined FROM bloom_bench_filters f JOIN bloom_bench_probes p ON f.f @> p.x
	WHERE f.id = 1 \gset
SELECT :subq = :joined AS same_answer, :subq >= :exact AS no_false_negatives,
	   round((:subq - :exact)::numeric / (:n_probes - :exact), 4) AS measured_fpr;

-- the plans being compared
EXPLAIN (COSTS OFF) SELECT count(*) FROM bloom_bench_probes
	WHERE (SELECT f FROM bloom_bench_filters WHERE id = 1) @> x;
EXPLAIN (COSTS OFF) SELECT count(*) FROM bloom_bench_filters f JOIN bloom_bench_probes p ON f.f @> p.x
	WHERE f.id = 1;
EXPLAIN (COSTS OFF) SELECT count(*) FROM bloom_bench_probes
	WHERE x IN (SELECT k FROM bloom_bench_keys);

-- the filter as a parameter: a prepared statement with a generic plan (the
-- filter stays a Param, evaluated per row), called with the stored value
CREATE FUNCTION bloom_bench_filter() RETURNS bloom
LANGUAGE sql STABLE AS $$ SELECT f FROM bloom_bench_filters WHERE id = 1 $$;
SET plan_cache_mode = force_generic_plan;
PREPARE bloom_bench_probe(bloom) AS SELECT count(*) FROM bloom_bench_probes WHERE $1 @> x;
EXPLAIN (COSTS OFF) EXECUTE bloom_bench_probe(bloom_bench_filter());
EXECUTE bloom_bench_probe(bloom_bench_filter()) \gset prep_
SELECT :prep_count = :subq AS same_answer;

SELECT a_ms AS bloom_ms, b_ms AS join_ms FROM bench.compare(
	'SELECT count(*) FROM bloom_bench_probes WHERE (SELECT f FROM bloom_bench_filters WHERE id = 1) @> x',
	'SELECT count(*) FROM bloom_bench_probes WHERE x IN (SELECT k FROM bloom_bench_keys)', :runs) \gset p1_
SELECT a_ms AS bloom_ms, b_ms AS join_ms FROM bench.compare(
	'EXECUTE bloom_bench_probe(bloom_bench_filter())',
	'SELECT count(*) FROM bloom_bench_probes WHERE x IN (SELECT k FROM bloom_bench_keys)', :runs) \gset p2_
SELECT a_ms AS bloom_ms, b_ms AS join_ms FROM bench.compare(
	'SELECT count(*) FROM bloom_bench_filters f JOIN bloom_bench_probes p ON f.f @> p.x WHERE f.id = 1',
	'SELECT count(*) FROM bloom_bench_probes WHERE x IN (SELECT k FROM bloom_bench_keys)', :runs) \gset p3_
SELECT a_ms AS count_ms, b_ms AS bloom_ms FROM bench.compare(
	'SELECT count(*) FROM bloom_bench_probes WHERE x IS NOT NULL',
	'SELECT count(*) FROM bloom_bench_probes WHERE (SELECT f FROM bloom_bench_filters WHERE id = 1) @> x', :runs) \gset p4_

SELECT bench.report('bloom', 'probe: WHERE (SELECT f ...) @> x', :p1_bloom_ms,
					'x IN (SELECT k FROM keys)', :p1_join_ms, '<= 0.5') \g /dev/null
SELECT bench.report('bloom', 'probe: WHERE $1 @> x (prepared, generic plan)', :p2_bloom_ms,
					'x IN (SELECT k FROM keys)', :p2_join_ms, '<= 0.5') \g /dev/null
SELECT bench.report('bloom', 'probe: JOIN one-row table ON f @> x', :p3_bloom_ms,
					'x IN (SELECT k FROM keys)', :p3_join_ms, '<= 0.5') \g /dev/null
SELECT bench.report('bloom', 'probe: WHERE (SELECT f ...) @> x', :p4_bloom_ms,
					'WHERE x IS NOT NULL (scan floor)', :p4_count_ms, 'report') \g /dev/null

-- ---------------------------------------------------------------------
-- 3. One probe of a 64 MB filter stored in a table row
-- ---------------------------------------------------------------------
\echo 3. probing a 64 MB stored filter
CREATE TABLE bloom_bench_big (id int PRIMARY KEY, f bloom);
INSERT INTO bloom_bench_big
	SELECT 1, bloom_add(bloom_create(64 * 1024 * 1024 * 8, 7),
						ARRAY(SELECT 'k' || i FROM generate_series(1, 100000) i));
VACUUM ANALYZE bloom_bench_big;
CHECKPOINT;
SELECT pg_column_size(f) AS stored_bytes, pg_size_pretty(pg_column_size(f)::bigint) AS stored,
	   (SELECT size_bytes FROM bloom_info(f)) AS size_bytes,
	   pg_size_pretty(pg_total_relation_size('bloom_bench_big')) AS table_with_toast
	FROM bloom_bench_big;

-- Shared buffers (hit + read) a statement touches, from EXPLAIN's top node
CREATE FUNCTION bloom_bench_buffers(query text) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
	plan json;
BEGIN
	EXECUTE 'EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ' || query INTO plan;
	RETURN (plan -> 0 -> 'Plan' ->> 'Shared Hit Blocks')::bigint
		 + (plan -> 0 -> 'Plan' ->> 'Shared Read Blocks')::bigint;
END $$;

EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, TIMING OFF, SUMMARY OFF)
	SELECT f @> 'k1'::text FROM bloom_bench_big WHERE id = 1;
EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, TIMING OFF, SUMMARY OFF)
	SELECT bloom_fpr(f) FROM bloom_bench_big WHERE id = 1;
SELECT f @> 'k1'::text AS member, f @> 'not a key'::text AS non_member FROM bloom_bench_big WHERE id = 1;

SELECT bloom_bench_buffers('SELECT f @> ''k1''::text FROM bloom_bench_big WHERE id = 1') AS probe_buffers,
	   bloom_bench_buffers('SELECT bloom_fpr(f) FROM bloom_bench_big WHERE id = 1') AS full_buffers \gset
SELECT a_ms AS probe_ms, b_ms AS full_ms FROM bench.compare(
	'SELECT f @> ''k1''::text FROM bloom_bench_big WHERE id = 1',
	'SELECT bloom_fpr(f) FROM bloom_bench_big WHERE id = 1', 5) \gset b_

SELECT bench.report('bloom', '64 MB stored filter: one probe', :probe_buffers,
					'bloom_fpr(f) (reads it all)', :full_buffers, 'kilobytes', '8 kB buffers') \g /dev/null
SELECT bench.report('bloom', '64 MB stored filter: one probe', :b_probe_ms,
					'bloom_fpr(f) (reads it all)', :b_full_ms, 'report') \g /dev/null

-- 10 and 100 probes of the same stored value in one statement: sliced probes
-- until they would have cost about one full read (one per 256 kB of the value,
-- here 256), then one detoast for the rest of the statement
SELECT bloom_bench_buffers('SELECT count(*) FILTER (WHERE f @> (''k'' || i)) FROM bloom_bench_big, generate_series(1, 10) i WHERE id = 1') AS probe10_buffers \gset
SELECT a_ms AS probe_ms, b_ms AS full_ms FROM bench.compare(
	'SELECT count(*) FILTER (WHERE f @> (''k'' || i)) FROM bloom_bench_big, generate_series(1, 10) i WHERE id = 1',
	'SELECT bloom_fpr(f) FROM bloom_bench_big WHERE id = 1', 5) \gset b10_
SELECT a_ms AS probe_ms, b_ms AS full_ms FROM bench.compare(
	'SELECT count(*) FILTER (WHERE f @> (''k'' || i)) FROM bloom_bench_big, generate_series(1, 100) i WHERE id = 1',
	'SELECT bloom_fpr(f) FROM bloom_bench_big WHERE id = 1', 5) \gset b100_
SELECT count(*) FILTER (WHERE f @> ('k' || i)) AS members_found_of_1000,
	   count(*) FILTER (WHERE f @> ('not a key ' || i)) AS false_positives_of_1000
	FROM bloom_bench_big, generate_series(1, 1000) i WHERE id = 1;

SELECT bench.report('bloom', '64 MB stored filter: 10 probes, one statement', :probe10_buffers,
					'bloom_fpr(f) (reads it all)', :full_buffers, 'report', '8 kB buffers') \g /dev/null
SELECT bench.report('bloom', '64 MB stored filter: 10 probes, one statement', :b10_probe_ms,
					'bloom_fpr(f) (reads it all)', :b10_full_ms, 'report') \g /dev/null
SELECT bench.report('bloom', '64 MB stored filter: 100 probes, one statement', :b100_probe_ms,
					'bloom_fpr(f) (reads it all)', :b100_full_ms, 'report') \g /dev/null

-- ---------------------------------------------------------------------
-- 4. Union rollups of self-sized day filters
-- ---------------------------------------------------------------------
\echo 4. union rollups
SELECT greatest(2000, (300000 * :scale)::int) AS n_day \gset
CREATE TABLE bloom_bench_days AS
	SELECT d, bloom_agg(x) AS f, hll_add_agg(hll_hash_bigint(x)) AS h
	FROM (SELECT d, (random() * 9.2e18)::bigint AS x
		  FROM generate_series(1, 30) d, generate_series(1, :n_day)) s
	GROUP BY d;
VACUUM ANALYZE bloom_bench_days;
SELECT a_ms AS bloom_ms, b_ms AS hll_ms FROM bench.compare(
	'SELECT pg_column_size(bloom_union_agg(f)) FROM bloom_bench_days',
	'SELECT pg_column_size(hll_union_agg(h)) FROM bloom_bench_days', :runs) \gset u1_
SELECT count(*) FILTER (WHERE u @> x)::float8 / count(*) AS union_fpr, max(pg_column_size(u)) AS union_bytes
FROM (SELECT bloom_union_agg(f) AS u FROM bloom_bench_days) s,
	(SELECT -y::bigint AS x FROM generate_series(1, 200000) y) a \gset
SELECT :union_bytes AS union_bytes, round(:union_fpr::numeric, 5) AS union_fpr;
SELECT bench.report('bloom', format('bloom_union_agg of 30 self-sized days of %s elements', :n_day),
	:u1_bloom_ms, 'hll_union_agg of the days', :u1_hll_ms, 'info') \g /dev/null
SELECT bench.report('bloom', format('bloom_union_agg of 30 self-sized days of %s elements measured fpr', :n_day),
	100 * :union_fpr, 'target 1%', 1.0, 'info', '%') \g /dev/null
DROP TABLE bloom_bench_days;
