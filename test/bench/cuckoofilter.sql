-- cuckoofilter benchmarks (issue 5, doc/performance.md "cuckoofilter").
--
-- 1. Space in bits per element at 1% and 0.1% against bloom at capacities of
--    300k, 600k and 1M keys (x scale; tables of any bucket count are 95% full
--    at capacity) and at the capacity that filled a power-of-two table before
--    (issue 11.3); targets: <= 1.1 at 1%, <= 0.95 at 0.1%.  Each filter's
--    measured FPR on non-members and its load are printed alongside.
-- 2. cuckoofilter_agg against bloom_agg over the same 5M x scale rows, sized for
--    them (target <= 1.5), and without a capacity (the cuckoo filter chains
--    sub-filters; bloom_agg(x) sizes itself), with the rate each achieved.
-- 3. Probes of 5M x scale rows against the filters of 1M x scale keys, each given
--    as a scalar subquery (target <= 1.0).
-- 4. Union rollups of day filters of 20000 x scale keys: (a) 30 days, each
--    sized for the month (the way to roll cuckoo filters up: the union inserts
--    each day into one table), against bloom_union_agg of Bloom filters sized
--    the same; (b) 120 days, each sized for its day: the union chains a
--    sub-filter every few days (a fingerprint cannot move to a larger table),
--    so the rates add up, against bloom_union_agg of self-sized days; and 120
--    days against 30 (linear in the days: about 4; before the union's state
--    grew in place and its inserts skipped full sub-filters, about 9, twelfth
--    session).  The rate of every union beside it.
--
-- Every time is the median of alternating runs of the query and its baseline
-- (bench.compare), so load on the machine hits both alike.
\set ECHO none
SET client_min_messages = warning;
SET search_path = public, bench;

SELECT greatest(1000, (5000000 * :scale)::int) AS n_rows,
	   greatest(1000, (1000000 * :scale)::int) AS n_keys,
	   greatest(1000, (5000000 * :scale)::int) AS n_probes,
	   CASE WHEN :scale >= 0.5 THEN 3 ELSE 5 END AS runs \gset
-- the capacities at which the power-of-two table nearest n_keys (n_rows) is 95% full
-- (the comparison point before tables of any size; now every capacity fills its table)
SELECT floor(0.95 * 4 * 2 ^ round(log(2, :n_keys / 3.8)))::bigint AS n_full,
	   floor(0.95 * 4 * 2 ^ round(log(2, :n_rows / 3.8)))::bigint AS n_rows_full,
	   round(100 * :n_rows / (4 * ceil(:n_rows / 3.8)))::int AS agg_load_pct \gset

DROP TABLE IF EXISTS cf_bench_agg, cf_bench_agg_full, cf_bench_keys, cf_bench_probes, cf_bench_nonmembers, cf_bench_filters CASCADE;
CREATE TABLE cf_bench_agg AS
	SELECT (random() * 9.2e18)::bigint AS x FROM generate_series(1, :n_rows);
CREATE TABLE cf_bench_agg_full AS
	SELECT (random() * 9.2e18)::bigint AS x FROM generate_series(1, :n_rows_full);
CREATE TABLE cf_bench_keys AS
	SELECT DISTINCT (random() * 9.2e18)::bigint AS k FROM generate_series(1, greatest(:n_keys, :n_full) + 1000);
-- probes: 10% members, 90% random, shuffled
CREATE TABLE cf_bench_probes AS
	SELECT x FROM (
		(SELECT k AS x FROM cf_bench_keys ORDER BY random() LIMIT (:n_probes * 0.1)::int)
		UNION ALL
		SELECT (random() * 9.2e18)::bigint FROM generate_series(1, :n_probes - (:n_probes * 0.1)::int)
	) s ORDER BY random();
CREATE TABLE cf_bench_nonmembers AS
	SELECT -1 - (random() * 9.2e18)::bigint AS x FROM generate_series(1, 1000000);
VACUUM ANALYZE cf_bench_agg, cf_bench_agg_full, cf_bench_keys, cf_bench_probes, cf_bench_nonmembers;
SELECT count(*) FROM cf_bench_agg \g /dev/null
SELECT count(*) FROM cf_bench_agg_full \g /dev/null
SELECT count(*) FROM cf_bench_probes \g /dev/null

-- ---------------------------------------------------------------------
-- 1. Space
-- ---------------------------------------------------------------------
\echo 1. space in bits per element
CREATE TABLE cf_bench_filters (name text PRIMARY KEY, n bigint, fpr float8, kind text, f_cuckoo cuckoofilter, f_bloom bloom);
INSERT INTO cf_bench_filters
SELECT format('%s keys, %s', n, fpr), n, fpr, kind,
	(SELECT cuckoofilter_agg(k, n, fpr) FROM (SELECT k FROM cf_bench_keys LIMIT n) s),
	(SELECT bloom_agg(k, n, fpr) FROM (SELECT k FROM cf_bench_keys LIMIT n) s)
FROM (VALUES (greatest(1000, 300000 * :scale)::bigint, 'capacity'), (greatest(1000, 600000 * :scale)::bigint, 'capacity'),
			 (:n_keys::bigint, 'capacity'), (:n_full, 'former full table')) c(n, kind),
	 (VALUES (0.01::float8), (0.001)) p(fpr);
SELECT name, kind, (cuckoofilter_info(f_cuckoo)).buckets, round((cuckoofilter_info(f_cuckoo)).load_factor::numeric, 3) AS load,
	(cuckoofilter_info(f_cuckoo)).fingerprint_bits AS f,
	round(pg_column_size(f_cuckoo) * 8.0 / n, 2) AS cuckoo_bits_per_elem,
	round(pg_column_size(f_bloom) * 8.0 / n, 2) AS bloom_bits_per_elem,
	(SELECT round(avg((f_cuckoo @> x)::int), 5) FROM cf_bench_nonmembers) AS cuckoo_measured_fpr,
	(SELECT round(avg((f_bloom @> x)::int), 5) FROM cf_bench_nonmembers) AS bloom_measured_fpr
FROM cf_bench_filters ORDER BY fpr DESC, n;
SELECT bench.report('cuckoofilter', format('bits/element, %s (%s)', name, kind), pg_column_size(f_cuckoo) * 8.0 / n,
					'bloom', pg_column_size(f_bloom) * 8.0 / n,
					CASE WHEN fpr = 0.01 THEN '<= 1.1' ELSE '<= 0.95' END, 'bits')
FROM cf_bench_filters ORDER BY fpr DESC, n \g /dev/null

-- ---------------------------------------------------------------------
-- 2. Aggregation
-- ---------------------------------------------------------------------
\echo 2. aggregation
SELECT a_ms AS cuckoo_ms, b_ms AS bloom_ms FROM bench.compare(
	format('SELECT cuckoofilter_agg(x, %s, 0.01) FROM cf_bench_agg', :n_rows),
	format('SELECT bloom_agg(x, %s, 0.01) FROM cf_bench_agg', :n_rows), :runs) \gset a1_
SELECT a_ms AS cuckoo_ms, b_ms AS bloom_ms FROM bench.compare(
	format('SELECT cuckoofilter_agg(x, %s, 0.01) FROM cf_bench_agg_full', :n_rows_full),
	format('SELECT bloom_agg(x, %s, 0.01) FROM cf_bench_agg_full', :n_rows_full), :runs) \gset a3_
SELECT a_ms AS cuckoo_ms, b_ms AS bloom_ms FROM bench.compare(
	'SELECT cuckoofilter_agg(x) FROM cf_bench_agg',
	'SELECT bloom_agg(x) FROM cf_bench_agg', :runs) \gset a2_
SELECT (cuckoofilter_info(cuckoofilter_agg(x))).subfilters AS default_capacity_subfilters FROM cf_bench_agg;
SELECT bench.report('cuckoofilter', format('cuckoofilter_agg(x, %s, 0.01) [table %s%% full]', :n_rows, :agg_load_pct), :a1_cuckoo_ms,
					format('bloom_agg(x, %s, 0.01)', :n_rows), :a1_bloom_ms, '<= 1.5') \g /dev/null
SELECT bench.report('cuckoofilter', format('cuckoofilter_agg(x, %s, 0.01) [table 95%% full]', :n_rows_full), :a3_cuckoo_ms,
					format('bloom_agg(x, %s, 0.01)', :n_rows_full), :a3_bloom_ms, '<= 1.5') \g /dev/null
SELECT bench.report('cuckoofilter', 'cuckoofilter_agg(x) [default 100k: chains]', :a2_cuckoo_ms,
					'bloom_agg(x) [self-sized]', :a2_bloom_ms, 'report') \g /dev/null
-- the rate each achieved without a capacity (the rows are non-negative, the probes negative)
SELECT (SELECT count(*) FILTER (WHERE c @> -y) FROM generate_series(1, 1000000) y) / 1e6 AS cuckoo_fpr,
	   (SELECT count(*) FILTER (WHERE b @> -y) FROM generate_series(1, 1000000) y) / 1e6 AS bloom_fpr
FROM (SELECT cuckoofilter_agg(x) AS c, bloom_agg(x) AS b FROM cf_bench_agg) s \gset nocap_
SELECT bench.report('cuckoofilter', 'cuckoofilter_agg(x) [default 100k: chains] measured fpr', :nocap_cuckoo_fpr,
					'target 0.01', 0.01, '<= 1.25', 'fpr') \g /dev/null
SELECT bench.report('cuckoofilter', 'bloom_agg(x) [self-sized] measured fpr', :nocap_bloom_fpr,
					'target 0.01', 0.01, '<= 1.25', 'fpr') \g /dev/null

-- ---------------------------------------------------------------------
-- 3. Probing
-- ---------------------------------------------------------------------
\echo 3. probing
SELECT count(*) FILTER (WHERE NOT f_cuckoo @> k) AS cuckoo_false_negatives,
	   count(*) FILTER (WHERE NOT f_bloom @> k) AS bloom_false_negatives
FROM cf_bench_filters, (SELECT k FROM cf_bench_keys LIMIT :n_keys) s
WHERE name = format('%s keys, %s', :n_keys, 0.01);
SELECT a_ms AS cuckoo_ms, b_ms AS bloom_ms FROM bench.compare(
	format('SELECT count(*) FROM cf_bench_probes WHERE (SELECT f_cuckoo FROM cf_bench_filters WHERE name = %L) @> x',
		   format('%s keys, %s', :n_keys, 0.01)),
	format('SELECT count(*) FROM cf_bench_probes WHERE (SELECT f_bloom FROM cf_bench_filters WHERE name = %L) @> x',
		   format('%s keys, %s', :n_keys, 0.01)), :runs) \gset p1_
SELECT a_ms AS cuckoo_ms, b_ms AS bloom_ms FROM bench.compare(
	format('SELECT count(*) FROM cf_bench_probes WHERE (SELECT f_cuckoo FROM cf_bench_filters WHERE name = %L) @> x',
		   format('%s keys, %s', :n_keys, 0.001)),
	format('SELECT count(*) FROM cf_bench_probes WHERE (SELECT f_bloom FROM cf_bench_filters WHERE name = %L) @> x',
		   format('%s keys, %s', :n_keys, 0.001)), :runs) \gset p2_
SELECT a_ms AS cuckoo_ms, b_ms AS bloom_ms FROM bench.compare(
	format('SELECT count(*) FROM cf_bench_probes WHERE (SELECT f_cuckoo FROM cf_bench_filters WHERE name = %L) @> x',
		   format('%s keys, %s', :n_full, 0.01)),
	format('SELECT count(*) FROM cf_bench_probes WHERE (SELECT f_bloom FROM cf_bench_filters WHERE name = %L) @> x',
		   format('%s keys, %s', :n_full, 0.01)), :runs) \gset p5_
SELECT a_ms AS count_ms, b_ms AS cuckoo_ms FROM bench.compare(
	'SELECT count(*) FROM cf_bench_probes WHERE x IS NOT NULL',
	format('SELECT count(*) FROM cf_bench_probes WHERE (SELECT f_cuckoo FROM cf_bench_filters WHERE name = %L) @> x',
		   format('%s keys, %s', :n_keys, 0.01)), :runs) \gset p3_
SELECT bench.report('cuckoofilter', format('probe: WHERE (SELECT f ...) @> x, 1%%, %s keys', :n_keys), :p1_cuckoo_ms,
					'bloom, same keys and query', :p1_bloom_ms, '<= 1.0') \g /dev/null
SELECT bench.report('cuckoofilter', format('probe: WHERE (SELECT f ...) @> x, 0.1%%, %s keys', :n_keys), :p2_cuckoo_ms,
					'bloom, same keys and query', :p2_bloom_ms, '<= 1.0') \g /dev/null
SELECT bench.report('cuckoofilter', format('probe: WHERE (SELECT f ...) @> x, 1%%, %s keys (table 95%% full)', :n_full), :p5_cuckoo_ms,
					'bloom, same keys and query', :p5_bloom_ms, '<= 1.0') \g /dev/null
SELECT bench.report('cuckoofilter', 'probe: WHERE (SELECT f ...) @> x, 1%', :p3_cuckoo_ms,
					'WHERE x IS NOT NULL (scan floor)', :p3_count_ms, 'report') \g /dev/null

-- ---------------------------------------------------------------------
-- 4. Union rollups
-- ---------------------------------------------------------------------
\echo 4. union rollups
SELECT greatest(2000, (20000 * :scale)::int) AS n_day \gset
DROP TABLE IF EXISTS cf_bench_days, cf_bench_month;
CREATE TABLE cf_bench_month AS
	SELECT d, cuckoofilter_agg(x, 30 * :n_day, 0.01) AS cf, bloom_agg(x, 30 * :n_day, 0.01) AS b
	FROM (SELECT d, (random() * 9.2e18)::bigint AS x
		  FROM generate_series(1, 30) d, generate_series(1, :n_day)) s
	GROUP BY d;
CREATE TABLE cf_bench_days AS
	SELECT d, cuckoofilter_agg(x, :n_day, 0.01) AS cf, bloom_agg(x) AS b
	FROM (SELECT d, (random() * 9.2e18)::bigint AS x
		  FROM generate_series(1, 120) d, generate_series(1, :n_day)) s
	GROUP BY d;
VACUUM ANALYZE cf_bench_month, cf_bench_days;
SELECT a_ms AS cf_ms, b_ms AS bloom_ms FROM bench.compare(
	'SELECT cuckoofilter_union_agg(cf ORDER BY d) FROM cf_bench_month',
	'SELECT bloom_union_agg(b ORDER BY d) FROM cf_bench_month', :runs) \gset u1_
SELECT a_ms AS cf_ms, b_ms AS bloom_ms FROM bench.compare(
	'SELECT cuckoofilter_union_agg(cf ORDER BY d) FROM cf_bench_days',
	'SELECT bloom_union_agg(b ORDER BY d) FROM cf_bench_days', :runs) \gset u2_
SELECT a_ms AS cf120_ms, b_ms AS cf30_ms FROM bench.compare(
	'SELECT cuckoofilter_union_agg(cf ORDER BY d) FROM cf_bench_days',
	'SELECT cuckoofilter_union_agg(cf ORDER BY d) FROM cf_bench_days WHERE d <= 30', :runs) \gset u3_
SELECT (SELECT avg((u.cf @> x)::int) FROM cf_bench_nonmembers)::float8 AS cf_fpr,
	   (SELECT avg((u.b @> x)::int) FROM cf_bench_nonmembers)::float8 AS bloom_fpr,
	   pg_column_size(u.cf) AS cf_bytes, pg_column_size(u.b) AS bloom_bytes,
	   (cuckoofilter_info(u.cf)).subfilters AS cf_subfilters
FROM (SELECT cuckoofilter_union_agg(cf ORDER BY d) AS cf, bloom_union_agg(b ORDER BY d) AS b FROM cf_bench_month) u \gset m_
SELECT (SELECT avg((u.cf @> x)::int) FROM cf_bench_nonmembers)::float8 AS cf_fpr,
	   (SELECT avg((u.b @> x)::int) FROM cf_bench_nonmembers)::float8 AS bloom_fpr,
	   pg_column_size(u.cf) AS cf_bytes, pg_column_size(u.b) AS bloom_bytes,
	   (cuckoofilter_info(u.cf)).subfilters AS cf_subfilters
FROM (SELECT cuckoofilter_union_agg(cf ORDER BY d) AS cf, bloom_union_agg(b ORDER BY d) AS b FROM cf_bench_days) u \gset d_
SELECT 'month-sized' AS days, :m_cf_bytes AS union_cf_bytes, :m_cf_subfilters AS union_cf_subfilters,
	   round(:m_cf_fpr::numeric, 5) AS union_cf_fpr, :m_bloom_bytes AS union_bloom_bytes,
	   round(:m_bloom_fpr::numeric, 5) AS union_bloom_fpr
UNION ALL
SELECT 'day-sized', :d_cf_bytes, :d_cf_subfilters, round(:d_cf_fpr::numeric, 5), :d_bloom_bytes,
	   round(:d_bloom_fpr::numeric, 5);
SELECT bench.report('cuckoofilter', format('cuckoofilter_union_agg of 30 days of %s keys, each sized for 30 x', :n_day),
	:u1_cf_ms, 'bloom_union_agg, same sizing', :u1_bloom_ms, 'info') \g /dev/null
SELECT bench.report('cuckoofilter', format('cuckoofilter_union_agg of 30 days of %s keys measured fpr', :n_day),
	100 * :m_cf_fpr, 'bloom_union_agg measured fpr', 100 * :m_bloom_fpr, 'info', '%') \g /dev/null
SELECT bench.report('cuckoofilter', format('cuckoofilter_union_agg of 120 days of %s keys, each sized for its day', :n_day),
	:u2_cf_ms, 'bloom_union_agg of self-sized days', :u2_bloom_ms, 'info') \g /dev/null
SELECT bench.report('cuckoofilter', 'cuckoofilter_union_agg of 120 days against 30 days',
	:u3_cf120_ms, 'the same over 30 days', :u3_cf30_ms, 'info') \g /dev/null
SELECT bench.report('cuckoofilter', format('cuckoofilter_union_agg of 120 days of %s keys measured fpr (day-sized: rates add up)', :n_day),
	100 * :d_cf_fpr, 'bloom_union_agg measured fpr', 100 * :d_bloom_fpr, 'info', '%') \g /dev/null
DROP TABLE cf_bench_days, cf_bench_month;
