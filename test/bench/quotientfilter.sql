-- quotientfilter benchmarks (issue 6, doc/performance.md "quotientfilter").
--
-- 1. quotientfilter_agg over 2M x scale bigints against bloom_agg over the
--    same rows, both sized for the rows at 1% (target <= 2.0); also a
--    quotientfilter_agg that starts at an eighth of the rows and grows three
--    times (no target: what automatic growth costs).
-- 2. 4M x scale probe rows against one filter of 1M x scale keys stored in a
--    table row and given as a scalar subquery, quotientfilter against bloom
--    (target <= 1.5).
-- 3. Space in bits per element at 1% and 0.1%, at design capacity, against
--    bloom (no target: the quotient filter pays r + 3 bits per slot and
--    keeps its load at most 0.9; see doc/design.md), and the measured
--    false-positive rates of both on the probes.
--
-- Every time is the median of alternating runs of the query and its
-- baseline (bench.compare), so load on the machine hits both alike.
\set ECHO none
SET client_min_messages = warning;
SET search_path = public, bench;

SELECT greatest(1000, (2000000 * :scale)::int) AS n_rows,
	   greatest(1000, (1000000 * :scale)::int) AS n_keys,
	   greatest(1000, (4000000 * :scale)::int) AS n_probes,
	   CASE WHEN :scale >= 0.5 THEN 3 ELSE 5 END AS runs \gset

DROP TABLE IF EXISTS qf_bench_agg, qf_bench_keys, qf_bench_probes, qf_bench_filters CASCADE;

CREATE TABLE qf_bench_agg AS
	SELECT (random() * 9.2e18)::bigint AS x FROM generate_series(1, :n_rows);
CREATE TABLE qf_bench_keys AS
	SELECT DISTINCT (random() * 9.2e18)::bigint AS k FROM generate_series(1, :n_keys);
-- probes: 10% members, 90% drawn from the whole range, shuffled
CREATE TABLE qf_bench_probes AS
	SELECT x FROM (
		(SELECT k AS x FROM qf_bench_keys ORDER BY random() LIMIT (:n_probes * 0.1)::int)
		UNION ALL
		SELECT (random() * 9.2e18)::bigint FROM generate_series(1, :n_probes - (:n_probes * 0.1)::int)
	) s ORDER BY random();
CREATE TABLE qf_bench_filters (id int PRIMARY KEY, qf quotientfilter, b bloom);
INSERT INTO qf_bench_filters
	SELECT 1, quotientfilter_agg(k, :n_keys, 0.01), bloom_agg(k, :n_keys, 0.01) FROM qf_bench_keys;
VACUUM ANALYZE qf_bench_agg, qf_bench_keys, qf_bench_probes, qf_bench_filters;
SELECT count(*) FROM qf_bench_agg \g /dev/null
SELECT count(*) FROM qf_bench_probes \g /dev/null

\echo
\echo rows, keys, probes, filters:
SELECT :n_rows AS agg_rows, (SELECT count(*) FROM qf_bench_keys) AS keys, :n_probes AS probes,
	i.q, i.r, round(i.load_factor::numeric, 3) AS load, i.longest_cluster,
	(SELECT pg_column_size(qf) FROM qf_bench_filters) AS qf_bytes,
	(SELECT pg_column_size(b) FROM qf_bench_filters) AS bloom_bytes
FROM quotientfilter_info((SELECT qf FROM qf_bench_filters)) i;

-- ---------------------------------------------------------------------
-- 1. Aggregation
-- ---------------------------------------------------------------------
\echo 1. aggregation
SELECT a_ms AS qf_ms, b_ms AS bloom_ms FROM bench.compare(
	format('SELECT quotientfilter_agg(x, %s, 0.01) FROM qf_bench_agg', :n_rows),
	format('SELECT bloom_agg(x, %s, 0.01) FROM qf_bench_agg', :n_rows), :runs) \gset a1_
SELECT bench.report('quotientfilter', 'quotientfilter_agg(x, n, 0.01), ' || :n_rows || ' rows',
	:a1_qf_ms, 'bloom_agg(x, n, 0.01)', :a1_bloom_ms, '<= 2.0');
SELECT a_ms AS qf_ms, b_ms AS bloom_ms FROM bench.compare(
	format('SELECT quotientfilter_agg(x, %s, 0.01) FROM qf_bench_agg', :n_rows / 8),
	format('SELECT bloom_agg(x, %s, 0.01) FROM qf_bench_agg', :n_rows), :runs) \gset a2_
SELECT bench.report('quotientfilter', 'quotientfilter_agg(x, n / 8, 0.01): grows 3 times',
	:a2_qf_ms, 'bloom_agg(x, n, 0.01)', :a2_bloom_ms, '(no target)');

-- ---------------------------------------------------------------------
-- 2. Probing
-- ---------------------------------------------------------------------
\echo 2. probing
SELECT a_ms AS qf_ms, b_ms AS bloom_ms FROM bench.compare(
	'SELECT count(*) FROM qf_bench_probes WHERE (SELECT qf FROM qf_bench_filters WHERE id = 1) @> x',
	'SELECT count(*) FROM qf_bench_probes WHERE (SELECT b FROM qf_bench_filters WHERE id = 1) @> x', :runs) \gset p1_
SELECT bench.report('quotientfilter', 'probe ' || :n_probes || ' rows, filter of ' || :n_keys || ' keys at 1%',
	:p1_qf_ms, 'bloom @> x', :p1_bloom_ms, '<= 1.5');

-- ---------------------------------------------------------------------
-- 3. Space and accuracy
-- ---------------------------------------------------------------------
\echo 3. space
SELECT bench.report('quotientfilter', 'bits per element at capacity ' || :n_keys || ', fpr ' || fpr,
	pg_column_size(quotientfilter_empty(:n_keys, fpr)) * 8.0 / :n_keys, 'bloom',
	pg_column_size(bloom_empty(:n_keys, fpr)) * 8.0 / :n_keys, '(no target)', 'bits')
FROM (VALUES (0.01::float8), (0.001)) v(fpr);
SELECT bench.report('quotientfilter', 'measured false-positive rate, ' || :n_keys || ' keys at 1%',
	100.0 * count(*) FILTER (WHERE (SELECT qf FROM qf_bench_filters) @> x) / count(*), 'bloom',
	100.0 * count(*) FILTER (WHERE (SELECT b FROM qf_bench_filters) @> x) / count(*), '(no target)', '%')
FROM qf_bench_probes WHERE x NOT IN (SELECT k FROM qf_bench_keys);

DROP TABLE qf_bench_agg, qf_bench_keys, qf_bench_probes, qf_bench_filters;
