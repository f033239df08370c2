-- countingbloom benchmarks (issue 4, doc/performance.md "countingbloom").
--
-- 1. countingbloom_agg against bloom_agg on the same 5M x scale bigints, with
--    the same m and k (target ratio <= 2.0), sized for the rows (a filter
--    sized for fewer rows would be saturated: fast and useless), and the
--    false-positive rate each achieved on 1M values not in the rows.
-- 2. Probe throughput: 5M x scale probes (10% members) of a counting filter of
--    1M x scale keys against the same probes of the bloom filter of the same
--    keys (target <= 1.5), the filter given as a scalar subquery; and
--    countingbloom_count against the same baseline.
-- 3. The sliding window: countingbloom_agg OVER (ROWS BETWEEN w PRECEDING AND
--    CURRENT ROW) with w = 699 against w = 6 over the same rows: with the
--    moving-aggregate inverse each row costs O(1), so the ratio stays near 1
--    (it would be about 100 if every frame were recomputed).
--
-- Every time is the median of alternating runs of the query and its baseline
-- (bench.compare), so load on the machine hits both alike.
\set ECHO none
SET client_min_messages = warning;
SET search_path = public, bench;

SELECT greatest(1000, (5000000 * :scale)::int) AS n_rows,
	   greatest(1000, (1000000 * :scale)::int) AS n_keys,
	   greatest(1000, (5000000 * :scale)::int) AS n_probes,
	   greatest(1000, (200000 * :scale)::int) AS n_window,
	   CASE WHEN :scale >= 0.5 THEN 3 ELSE 5 END AS runs \gset

DROP TABLE IF EXISTS cb_bench_agg, cb_bench_keys, cb_bench_probes, cb_bench_filters, cb_bench_window CASCADE;

CREATE TABLE cb_bench_agg AS
	SELECT (random() * 9.2e18)::bigint AS x FROM generate_series(1, :n_rows);
CREATE TABLE cb_bench_keys AS
	SELECT DISTINCT (random() * 9.2e18)::bigint AS k FROM generate_series(1, :n_keys);
CREATE TABLE cb_bench_probes AS
	SELECT x FROM (
		(SELECT k AS x FROM cb_bench_keys ORDER BY random() LIMIT (:n_probes * 0.1)::int)
		UNION ALL
		SELECT (random() * 9.2e18)::bigint FROM generate_series(1, :n_probes - (:n_probes * 0.1)::int)
	) s ORDER BY random();
-- both filters of the keys, sized for them at 1%, stored in table rows
CREATE TABLE cb_bench_filters (id int PRIMARY KEY, c countingbloom, b bloom);
INSERT INTO cb_bench_filters
	SELECT 1, countingbloom_agg(k, :n_keys, 0.01), bloom_agg(k, :n_keys, 0.01) FROM cb_bench_keys;
CREATE TABLE cb_bench_window AS
	SELECT i AS id, (random() * 1e6)::int AS x FROM generate_series(1, :n_window) i;
CREATE INDEX ON cb_bench_window (id);

VACUUM ANALYZE cb_bench_agg, cb_bench_keys, cb_bench_probes, cb_bench_filters, cb_bench_window;
SELECT count(*) FROM cb_bench_agg \g /dev/null
SELECT count(*) FROM cb_bench_probes \g /dev/null

\echo
\echo rows, keys, probes, filters:
SELECT :n_rows AS agg_rows, (SELECT count(*) FROM cb_bench_keys) AS keys, :n_probes AS probes,
	   (countingbloom_info(c)).m, (countingbloom_info(c)).k, pg_column_size(c) AS countingbloom_bytes,
	   pg_column_size(b) AS bloom_bytes, c::bloom = b AS same_bits
FROM cb_bench_filters;

-- ---------------------------------------------------------------------
-- 1. Aggregation
-- ---------------------------------------------------------------------
\echo 1. aggregation
SELECT a_ms AS cb_ms, b_ms AS bloom_ms FROM bench.compare(
	format('SELECT countingbloom_agg(x, %s, 0.01) FROM cb_bench_agg', :n_rows),
	format('SELECT bloom_agg(x, %s, 0.01) FROM cb_bench_agg', :n_rows), :runs) \gset a2_
SELECT bench.report('countingbloom', format('countingbloom_agg(x, %s, 0.01)', :n_rows), :a2_cb_ms,
					format('bloom_agg(x, %s, 0.01)', :n_rows), :a2_bloom_ms, '<= 2.0');
-- the rate each achieved (the rows are non-negative, the probes negative)
SELECT (SELECT count(*) FILTER (WHERE c @> -y) FROM generate_series(1, 1000000) y) / 1e6 AS cb_fpr,
	   (SELECT count(*) FILTER (WHERE b @> -y) FROM generate_series(1, 1000000) y) / 1e6 AS bloom_fpr
FROM (SELECT countingbloom_agg(x, :n_rows, 0.01) AS c, bloom_agg(x, :n_rows, 0.01) AS b FROM cb_bench_agg) s \gset agg_
SELECT bench.report('countingbloom', format('countingbloom_agg(x, %s, 0.01) measured fpr', :n_rows), :agg_cb_fpr,
					'target 0.01', 0.01, '<= 1.25', 'fpr');
SELECT bench.report('countingbloom', format('bloom_agg(x, %s, 0.01) measured fpr', :n_rows), :agg_bloom_fpr,
					'target 0.01', 0.01, '<= 1.25', 'fpr');

-- ---------------------------------------------------------------------
-- 2. Probing
-- ---------------------------------------------------------------------
\echo 2. probing
SELECT count(*) AS cb_found FROM cb_bench_probes WHERE (SELECT c FROM cb_bench_filters WHERE id = 1) @> x \gset
SELECT count(*) AS bloom_found FROM cb_bench_probes WHERE (SELECT b FROM cb_bench_filters WHERE id = 1) @> x \gset
SELECT :cb_found = :bloom_found AS same_answer, :cb_found >= (:n_probes * 0.1)::int AS no_false_negatives;
SELECT a_ms AS cb_ms, b_ms AS bloom_ms FROM bench.compare(
	'SELECT count(*) FROM cb_bench_probes WHERE (SELECT c FROM cb_bench_filters WHERE id = 1) @> x',
	'SELECT count(*) FROM cb_bench_probes WHERE (SELECT b FROM cb_bench_filters WHERE id = 1) @> x', :runs) \gset p1_
SELECT a_ms AS cb_ms, b_ms AS bloom_ms FROM bench.compare(
	'SELECT sum(countingbloom_count((SELECT c FROM cb_bench_filters WHERE id = 1), x)) FROM cb_bench_probes',
	'SELECT count(*) FROM cb_bench_probes WHERE (SELECT b FROM cb_bench_filters WHERE id = 1) @> x', :runs) \gset p2_
SELECT bench.report('countingbloom', format('%s probes: countingbloom @> x', :n_probes), :p1_cb_ms,
					'bloom @> x', :p1_bloom_ms, '<= 1.5');
SELECT bench.report('countingbloom', format('%s probes: countingbloom_count(c, x)', :n_probes), :p2_cb_ms,
					'bloom @> x', :p2_bloom_ms, 'report');

-- ---------------------------------------------------------------------
-- 3. Sliding window: O(1) per row
-- ---------------------------------------------------------------------
\echo 3. sliding window
SELECT a_ms AS wide_ms, b_ms AS narrow_ms FROM bench.compare(
	'SELECT count(w) FROM (SELECT countingbloom_agg(x, 1000, 0.01) OVER (ORDER BY id ROWS BETWEEN 699 PRECEDING AND CURRENT ROW) AS w FROM cb_bench_window) s',
	'SELECT count(w) FROM (SELECT countingbloom_agg(x, 1000, 0.01) OVER (ORDER BY id ROWS BETWEEN 6 PRECEDING AND CURRENT ROW) AS w FROM cb_bench_window) s',
	:runs) \gset w1_
SELECT bench.report('countingbloom', format('%s rows, 700-row frames', :n_window), :w1_wide_ms,
					'7-row frames', :w1_narrow_ms, '<= 1.5');

DROP TABLE cb_bench_agg, cb_bench_keys, cb_bench_probes, cb_bench_filters, cb_bench_window;
