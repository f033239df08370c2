-- pagebloom against the indexes a DBA would otherwise build (issue 13).
--
-- Workload: N rows of six int4 columns (random() * 1000000)::int, at two
-- sizes in one run: N = 1M x scale and 10M x scale (BENCH_SCALE=1: 1M and
-- 10M rows; BENCH_SCALE=0.1: 100k and 1M).  The same rows are loaded once
-- and copied (CREATE TABLE AS) into four tables:
--   pbb_bt   six single-column B-trees (the baseline of every figure)
--   pbb_gin  one btree_gin index on the six columns (contrib btree_gin)
--   pbb_bl   one contrib/bloom index on the six columns (defaults)
--   pbb_pb   one pagebloom index on the six columns, dropped and built again
--            for each setting: the default (no WITH clause: whatever the
--            build chooses; pagebloom now derives its default fpr from the
--            table, printed as target_fpr), then WITH (fpr = 0.01), 0.002,
--            0.0005, 0.0001
-- Every index is built with maintenance_work_mem = 256MB (as a DBA would
-- set it for a build; the server default 64MB makes the B-tree sorts and the
-- GIN build spill).
--
-- Figures, each as a ratio to the six B-trees measured side by side in the
-- same run (targets apply to pagebloom's default at both sizes; every other
-- row is 'info'):
--   query time, i4 = v, mean over 20000 present keys               <= 5
--   query time, i3 = ANY(10 present values), mean over 2000 lists   <= 20
--   query time, i2 = a AND i5 = b (a, b from one row), mean of 20000 <= 1.5
--   index size, one index against the sum of the six B-trees        <= 0.2
--   build time, one CREATE INDEX against the six (each build after a
--   CHECKPOINT, so that none pays for writing another's dirty pages)  <= 0.25
--   insert of 200k x scale rows (one run each, after a CHECKPOINT)  <= 0.5
-- plus, for every index, the heap pages visited and the rows removed by
-- recheck per one-column query (means from EXPLAIN (ANALYZE, FORMAT JSON)),
-- which explain the query times: pagebloom visits every heap page of each
-- range whose signature lets the key through (fpr of all the ranges) and
-- rechecks every row there.
--
-- Queries run through cached plans: each query shape is static SQL in a
-- plpgsql function per table, looping over the keys (plan_cache_mode =
-- force_generic_plan), so no index pays planning, and the loop overhead is the
-- same for all.  The query constants come from 20000 random rows (a fifth of
-- the rows for tables under 100k): a timed run probes each key once (20000
-- keys, 2000 lists of 10, 20000 pairs), so that, as for an application's
-- lookups in a large table, no query finds the pages of the one before it in
-- the CPU caches (all of them are in shared buffers).  Runs alternate with the
-- B-trees' (bench.compare), medians of 7 runs (5 at 5M rows and more).
-- Until 2026-11-26 the runs repeated the first 200 keys (20 lists, 200
-- pairs) as often as it took to last 50 ms: the B-trees' one-column probe
-- then re-read the same ~3000 pages, which stayed in the CPU caches (on the
-- 2-core AMD machine 6 - 8 us against 15 us for keys not probed just before),
-- while pagebloom's larger footprint did not fit them.  That figure is still
-- printed for pagebloom's default ('info', "200 keys repeated").
-- Every function but the B-tree table's runs with enable_seqscan = off (each
-- of those tables has one index, so that is the plan); the B-tree table gets
-- the planner's own plan.  pbb_check_plans()
-- EXPLAINs the generic plan of each query shape on each table, prints it and
-- stops the benchmark unless it scans an index of that table (no Seq Scan).
-- The functions also return the rows found, which must equal the B-trees'.
-- contrib/bloom reads its whole index for every key, so its figures are means
-- over the first 10 keys, 2 lists and 20 pairs (its B-tree baseline over the
-- same: one pass of well under a millisecond a run, so that baseline is noisy;
-- its rows are 'info', and the chart's B-tree point leaves it out).
--
-- Caching: shared_buffers is 4GB (run.sh); a 10M-row heap is ~500 MB and the
-- six B-trees ~530 MB, so the measured table and the B-tree table fit
-- together.  Before the queries of a table, its heap and index and the
-- B-tree table's heap and six indexes are all loaded (pg_prewarm), so that
-- both sides run with every page of theirs cached and spread over shared
-- buffers alike, as on a server that has them cached (with 1GB, only the
-- measured table was loaded whole and the B-trees' pages by the untimed run:
-- the B-trees' one-column probe then took 6.5 us beside btree_gin and 17.9 us
-- beside pagebloom in one run).  Then every timed query runs once untimed on
-- both.  The statistics pass comes last and prints the blocks it had to read
-- (0 when all was cached).
--
-- Chart: the file writes doc/pagebloom-vs-btree.dat (psql's \o, relative to
-- the working directory, which run.sh sets to the repository root) and runs
-- gnuplot test/bench/pagebloom_btree.gp, which draws
-- doc/pagebloom-vs-btree.svg: index size against one-column query time.
-- Without gnuplot (test/deps.sh installs gnuplot-nox as root) the chart is
-- skipped with a message.
--
-- The file runs itself once per table size (\ir with pbb_rows set).
\set ECHO none
SET client_min_messages = warning;
SET search_path = public, bench;

\if :{?pbb_rows}
-- =====================================================================
-- One table size: :pbb_rows rows
-- =====================================================================
SELECT CASE WHEN :pbb_rows >= 1000000 THEN round(:pbb_rows / 1000000.0, 1)::float8 || 'M'
			ELSE round(:pbb_rows / 1000.0)::float8 || 'k' END || ' rows' AS pbb_label,
	   CASE WHEN :pbb_rows >= 5000000 THEN 5 ELSE 7 END AS pbb_runs \gset
\echo
\echo == :pbb_label
SELECT clock_timestamp() AS pbb_t0 \gset

DROP TABLE IF EXISTS pbb_bt, pbb_gin, pbb_bl, pbb_pb, pbb_new CASCADE;
CREATE TABLE pbb_bt AS
	SELECT (random() * 1000000)::int AS i1, (random() * 1000000)::int AS i2,
		   (random() * 1000000)::int AS i3, (random() * 1000000)::int AS i4,
		   (random() * 1000000)::int AS i5, (random() * 1000000)::int AS i6
	FROM generate_series(1, :pbb_rows);
CREATE TABLE pbb_gin AS SELECT * FROM pbb_bt;
CREATE TABLE pbb_bl AS SELECT * FROM pbb_bt;
CREATE TABLE pbb_pb AS SELECT * FROM pbb_bt;
CREATE TABLE pbb_new AS
	SELECT (random() * 1000000)::int AS i1, (random() * 1000000)::int AS i2,
		   (random() * 1000000)::int AS i3, (random() * 1000000)::int AS i4,
		   (random() * 1000000)::int AS i5, (random() * 1000000)::int AS i6
	FROM generate_series(1, :pbb_ins);
VACUUM (FREEZE, ANALYZE) pbb_bt, pbb_gin, pbb_bl, pbb_pb, pbb_new;

-- query constants from 20000 random rows (a fifth of a smaller table): i4
-- of each (one-column keys), i3 of each in lists of 10, (i2, i5) of each
-- (two-column pairs, 1 match each)
TRUNCATE pbb_const;
INSERT INTO pbb_const
	WITH s AS (SELECT *, row_number() OVER () AS n
			   FROM (SELECT * FROM pbb_bt ORDER BY random() LIMIT least(20000, :pbb_rows / 50 * 10)) r)
	SELECT (SELECT array_agg(i4 ORDER BY n) FROM s),
		   (SELECT array_agg(l ORDER BY g) FROM
				(SELECT (n - 1) / 10, array_agg(i3 ORDER BY n) FROM s GROUP BY 1) y(g, l)),
		   (SELECT array_agg(ARRAY[i2, i5] ORDER BY n) FROM s);
\echo query constants (first key, first list, first pair):
SELECT keys[1] AS key1, lists[1:1] AS list1, pairs[1:1] AS pair1, cardinality(keys) AS keys,
	array_length(lists, 1) AS lists, array_length(pairs, 1) AS pairs FROM pbb_const;

-- ---------------------------------------------------------------------
-- Builds (one run each) and sizes
-- ---------------------------------------------------------------------
SET maintenance_work_mem = '256MB';
CHECKPOINT;
SELECT bench.timeit('CREATE INDEX pbb_bt_i1 ON pbb_bt (i1); CREATE INDEX pbb_bt_i2 ON pbb_bt (i2);
	CREATE INDEX pbb_bt_i3 ON pbb_bt (i3); CREATE INDEX pbb_bt_i4 ON pbb_bt (i4);
	CREATE INDEX pbb_bt_i5 ON pbb_bt (i5); CREATE INDEX pbb_bt_i6 ON pbb_bt (i6)', 1) AS bt_ms \gset b_
INSERT INTO pbb_idx VALUES (:'pbb_label', :pbb_rows, 'six B-trees', NULL, :b_bt_ms, pg_indexes_size('pbb_bt'));
CHECKPOINT;
SELECT bench.timeit('CREATE INDEX pbb_gin_idx ON pbb_gin USING gin (i1, i2, i3, i4, i5, i6)', 1) AS gin_ms \gset b_
INSERT INTO pbb_idx VALUES (:'pbb_label', :pbb_rows, 'btree_gin', NULL, :b_gin_ms, pg_relation_size('pbb_gin_idx'));
CHECKPOINT;
SELECT bench.timeit('CREATE INDEX pbb_bl_idx ON pbb_bl USING bloom (i1, i2, i3, i4, i5, i6)', 1) AS bl_ms \gset b_
INSERT INTO pbb_idx VALUES (:'pbb_label', :pbb_rows, 'contrib/bloom', NULL, :b_bl_ms, pg_relation_size('pbb_bl_idx'));
ANALYZE pbb_bt, pbb_gin, pbb_bl;

-- ---------------------------------------------------------------------
-- Queries: pagebloom at each fpr (index dropped and built again on pbb_pb),
-- then btree_gin and contrib/bloom, each against the six B-trees
-- ---------------------------------------------------------------------
\echo plans (generic, as the timed functions run them):
SELECT * FROM pbb_check_plans('pbb_bt');
SELECT * FROM pbb_check_plans('pbb_gin');
SELECT * FROM pbb_check_plans('pbb_bl');
SELECT pbb_pagebloom(:'pbb_label', :pbb_rows, fpr, :pbb_runs)
FROM unnest(ARRAY[NULL, 0.01, 0.002, 0.0005, 0.0001]::float8[]) WITH ORDINALITY AS u(fpr, n) ORDER BY n
\g /dev/null
SELECT * FROM pbb_check_plans('pbb_pb');
SELECT pbb_measure(:'pbb_label', 'btree_gin', 'pbb_gin', :pbb_runs, cardinality(keys), cardinality(keys) / 10,
	cardinality(keys)) FROM pbb_const \g /dev/null
SELECT pbb_measure(:'pbb_label', 'contrib/bloom', 'pbb_bl', :pbb_runs, 10, 2, 20) \g /dev/null
SELECT pbb_stats(:'pbb_label', 'six B-trees', 'pbb_bt', 200) \g /dev/null
\echo pagebloom indexes:
SELECT setting, round(size / 1048576.0, 1) AS size_mb, round(build_ms::numeric) AS build_ms, info
FROM pbb_idx WHERE label = :'pbb_label' AND setting LIKE 'pagebloom%'
ORDER BY setting NOT LIKE 'pagebloom default%', fpr DESC;
\echo per one-column query (i4 = v), means from EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) (heap pages: of the
\echo bitmap heap scan; an index scan does not count them, but visits at most one a row):
SELECT setting, nkeys AS keys, round(rows::numeric, 1) AS rows, round(heap_blocks::numeric, 1) AS heap_pages,
	round(lossy_blocks::numeric, 1) AS lossy_pages, round(removed::numeric, 1) AS rows_removed_by_recheck,
	round(hit::numeric, 1) AS buffers_hit, round(read::numeric, 1) AS buffers_read
FROM pbb_stat WHERE label = :'pbb_label' ORDER BY ord;

-- ---------------------------------------------------------------------
-- Inserts: pagebloom with its defaults again, then 200k x scale rows into
-- each table, one run each, each after a CHECKPOINT (so every index pays its
-- full-page images)
-- ---------------------------------------------------------------------
DROP INDEX pbb_pb_idx;
CREATE INDEX pbb_pb_idx ON pbb_pb USING pagebloom (i1, i2, i3, i4, i5, i6);
CHECKPOINT;
SELECT bench.timeit('INSERT INTO pbb_bt SELECT * FROM pbb_new', 1) AS bt_ms \gset i_
CHECKPOINT;
SELECT bench.timeit('INSERT INTO pbb_pb SELECT * FROM pbb_new', 1) AS pb_ms \gset i_
CHECKPOINT;
SELECT bench.timeit('INSERT INTO pbb_gin SELECT * FROM pbb_new', 1) AS gin_ms \gset i_
CHECKPOINT;
SELECT bench.timeit('INSERT INTO pbb_bl SELECT * FROM pbb_new', 1) AS bl_ms \gset i_
INSERT INTO pbb_ins VALUES (:'pbb_label', :pbb_rows, :pbb_ins, :i_bt_ms, :i_pb_ms, :i_gin_ms, :i_bl_ms);
SELECT pagebloom_verify('pbb_pb_idx') = (SELECT count(*) FROM pbb_pb) AS pagebloom_verified;

DROP TABLE pbb_bt, pbb_gin, pbb_bl, pbb_pb, pbb_new;
SELECT round(extract(epoch FROM clock_timestamp() - :'pbb_t0'::timestamptz)::numeric) AS seconds \gset
\echo :pbb_label done in :seconds s

\else
-- =====================================================================
-- Driver: helpers, both table sizes, report, chart
-- =====================================================================
CREATE EXTENSION IF NOT EXISTS bloom;
CREATE EXTENSION IF NOT EXISTS btree_gin;
CREATE EXTENSION IF NOT EXISTS pg_prewarm;

SELECT greatest(10000, (1000000 * :scale)::int) AS rows_small,
	   greatest(20000, (10000000 * :scale)::int) AS rows_large,
	   greatest(1000, (200000 * :scale)::int) AS pbb_ins \gset

CREATE TEMP TABLE pbb_const (keys int[], lists int[], pairs int[]);
-- per index: build time and size
CREATE TEMP TABLE pbb_idx (label text, nrows bigint, setting text, fpr float8, build_ms float8, size bigint,
	info text);
-- per index: mean ms per query of each shape, and of the B-trees beside it
CREATE TEMP TABLE pbb_res (label text, setting text, mode text, fpr float8,
	q1 float8, q2 float8, q3 float8, bt_q1 float8, bt_q2 float8, bt_q3 float8, n1 int, n2 int, n3 int);
-- per index: means over one-column queries from EXPLAIN ANALYZE
CREATE TEMP TABLE pbb_stat (label text, setting text, ord serial, nkeys int, rows float8, heap_blocks float8,
	lossy_blocks float8, removed float8, hit float8, read float8);
CREATE TEMP TABLE pbb_ins (label text, nrows bigint, ninsert int, bt_ms float8, pb_ms float8, gin_ms float8,
	bl_ms float8);

-- The three query shapes as static SQL, one function each per table: n keys
-- (lists, pairs) from the arrays, each query's rows fetched and counted
DO $do$
DECLARE
	t text;
	opts text;
	q record;
BEGIN
	FOREACH t IN ARRAY ARRAY['pbb_bt', 'pbb_gin', 'pbb_bl', 'pbb_pb'] LOOP
		opts := 'SET plan_cache_mode = force_generic_plan' ||
			CASE WHEN t = 'pbb_bt' THEN '' ELSE ' SET enable_seqscan = off' END;
		-- suffix, argument, loop variable type, FOREACH slice, predicate
		FOR q IN SELECT * FROM (VALUES
				('q1', 'keys', 'int', '', 'i4 = v'),
				('q2', 'lists', 'int[]', 'SLICE 1', 'i3 = ANY(v)'),
				('q3', 'pairs', 'int[]', 'SLICE 1', 'i2 = v[1] AND i5 = v[2]')) v(sfx, arg, vtype, slice, pred) LOOP
			EXECUTE format($f$
				CREATE OR REPLACE FUNCTION %1$s_%3$s(%4$s int[], n int) RETURNS bigint LANGUAGE plpgsql %2$s AS $b$
				DECLARE v %5$s; c bigint; tot bigint := 0;
				BEGIN
					FOREACH v %6$s IN ARRAY %4$s[1:n] LOOP
						PERFORM * FROM %1$I WHERE %7$s;
						GET DIAGNOSTICS c = ROW_COUNT;
						tot := tot + c;
					END LOOP;
					RETURN tot;
				END $b$$f$, t, opts, q.sfx, q.arg, q.vtype, q.slice, q.pred);
		END LOOP;
	END LOOP;
END $do$;

-- The generic plan of each query shape on a table, as the functions above
-- get it; raises unless it scans an index of that table and no Seq Scan
CREATE FUNCTION pbb_check_plans(tab text) RETURNS TABLE (tab_name text, query text, plan text)
LANGUAGE plpgsql AS $$
DECLARE
	q text;
	j jsonb;
BEGIN
	PERFORM set_config('plan_cache_mode', 'force_generic_plan', true);
	IF tab <> 'pbb_bt' THEN
		PERFORM set_config('enable_seqscan', 'off', true);
	END IF;
	FOREACH q IN ARRAY ARRAY['i4 = $1', 'i3 = ANY($2)', 'i2 = $1 AND i5 = $3'] LOOP
		EXECUTE format('PREPARE pbb_p(int, int[], int) AS SELECT * FROM %I WHERE %s', tab, q);
		EXECUTE 'EXPLAIN (FORMAT JSON, COSTS OFF) EXECUTE pbb_p(1, ''{1,2}'', 2)' INTO j;
		EXECUTE 'DEALLOCATE pbb_p';
		SELECT string_agg(n->>'Node Type' || coalesce(' ' || (n->>'Index Name'), ''), ' / ')
		INTO plan
		FROM jsonb_path_query(j, 'strict $.** ? (exists(@."Node Type"))') n;
		IF plan LIKE '%Seq Scan%' OR NOT EXISTS (
				SELECT FROM jsonb_path_query(j, 'strict $.**."Index Name"') x
				WHERE x #>> '{}' LIKE tab || '\_%') THEN
			RAISE EXCEPTION 'plan of % on % uses no index of it: %', q, tab, plan;
		END IF;
		tab_name := tab;
		query := replace(replace(replace(q, '$1', 'v'), '$2', 'list'), '$3', 'w');
		RETURN NEXT;
	END LOOP;
END $$;

-- Means per one-column query (i4 = key, first n keys) from EXPLAIN ANALYZE.
-- The tables with one index are explained as bitmap scans (plain index scans
-- off), whose EXPLAIN counts the heap pages; pagebloom's plain index scan,
-- which the timed queries may use, visits the same pages (its TIDs in heap
-- order).
CREATE FUNCTION pbb_stats(label text, setting text, tab text, n int) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
	v int;
	j jsonb;
	s float8[] := '{0,0,0,0,0,0}';
	bitmap bool;
	indexscan text := current_setting('enable_indexscan');
BEGIN
	IF tab <> 'pbb_bt' THEN
		PERFORM set_config('enable_seqscan', 'off', true);
		PERFORM set_config('enable_indexscan', 'off', true);
	END IF;
	FOREACH v IN ARRAY (SELECT keys[1:n] FROM pbb_const) LOOP
		EXECUTE format('EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) SELECT * FROM %I WHERE i4 = %s', tab, v) INTO j;
		s[1] := s[1] + (j #>> '{0,Plan,Actual Rows}')::float8;
		s[2] := s[2] + coalesce((SELECT sum((x #>> '{}')::float8) FROM jsonb_path_query(j,
			'strict $.** ? (exists(@."Exact Heap Blocks"))."Exact Heap Blocks"') x), 0);
		s[3] := s[3] + coalesce((SELECT sum((x #>> '{}')::float8) FROM jsonb_path_query(j,
			'strict $.** ? (exists(@."Lossy Heap Blocks"))."Lossy Heap Blocks"') x), 0);
		s[4] := s[4] + coalesce((SELECT sum((x #>> '{}')::float8) FROM jsonb_path_query(j,
			'strict $.** ? (exists(@."Rows Removed by Index Recheck"))."Rows Removed by Index Recheck"') x), 0);
		bitmap := jsonb_path_exists(j, 'strict $.** ? (exists(@."Lossy Heap Blocks"))');
		s[5] := s[5] + (j #>> '{0,Plan,Shared Hit Blocks}')::float8;
		s[6] := s[6] + (j #>> '{0,Plan,Shared Read Blocks}')::float8;
	END LOOP;
	INSERT INTO pbb_stat (label, setting, nkeys, rows, heap_blocks, lossy_blocks, removed, hit, read)
	VALUES (label, setting, n, s[1] / n, CASE WHEN bitmap THEN (s[2] + s[3]) / n END,
		CASE WHEN bitmap THEN s[3] / n END, s[4] / n, s[5] / n, s[6] / n);
	-- the timed queries that follow in this transaction plan with the setting as it was
	PERFORM set_config('enable_indexscan', indexscan, true);
END $$;

-- Time the three query shapes on a table against the six B-trees (n1 keys,
-- n2 lists, n3 pairs), after warming it; then its one-column statistics.
-- mode 'fresh': a timed run is one pass over the keys; 'repeated': the pass
-- is repeated as often as it takes to last 50 ms (the first 200 keys)
CREATE FUNCTION pbb_measure(label text, setting text, tab text, runs int, n1 int, n2 int, n3 int,
	fpr float8 DEFAULT NULL, mode text DEFAULT 'fresh') RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
	a bigint[];
	b bigint[];
	q text[];
	bq text[];
	x bigint;
	t0 timestamptz;
	ra int[];
	rb int[];
	c1 record;
	c2 record;
	c3 record;
BEGIN
	PERFORM pg_prewarm(t::regclass) FROM unnest(ARRAY[tab, 'pbb_bt']) t;
	PERFORM pg_prewarm(indexrelid) FROM pg_index WHERE indrelid IN (tab::regclass, 'pbb_bt'::regclass);
	-- %%s: repetitions of the whole loop in one run
	q := ARRAY[format('SELECT sum(%s_q1(keys, %s)) FROM pbb_const, generate_series(1, %%s)', tab, n1),
			   format('SELECT sum(%s_q2(lists, %s)) FROM pbb_const, generate_series(1, %%s)', tab, n2),
			   format('SELECT sum(%s_q3(pairs, %s)) FROM pbb_const, generate_series(1, %%s)', tab, n3)];
	bq := ARRAY[format('SELECT sum(pbb_bt_q1(keys, %s)) FROM pbb_const, generate_series(1, %%s)', n1),
				format('SELECT sum(pbb_bt_q2(lists, %s)) FROM pbb_const, generate_series(1, %%s)', n2),
				format('SELECT sum(pbb_bt_q3(pairs, %s)) FROM pbb_const, generate_series(1, %%s)', n3)];
	-- untimed run of each: warms both tables, both must find the same rows,
	-- and its time sets the repetitions per timed run (at least 50 ms a run,
	-- so that the fast B-tree loops are not lost in timer and scheduler noise)
	FOR i IN 1..3 LOOP
		t0 := clock_timestamp();
		EXECUTE format(q[i], 1) INTO x;
		ra[i] := CASE WHEN mode = 'fresh' THEN 1
			ELSE least(200, greatest(1, ceil(50 / (extract(epoch FROM clock_timestamp() - t0) * 1000 + 0.001)))) END;
		a[i] := x;
		t0 := clock_timestamp();
		EXECUTE format(bq[i], 1) INTO x;
		rb[i] := CASE WHEN mode = 'fresh' THEN 1
			ELSE least(200, greatest(1, ceil(50 / (extract(epoch FROM clock_timestamp() - t0) * 1000 + 0.001)))) END;
		b[i] := x;
	END LOOP;
	IF a IS DISTINCT FROM b THEN
		RAISE EXCEPTION '% on % found % rows, the B-trees %', setting, label, a, b;
	END IF;
	SELECT * INTO c1 FROM bench.compare(format(q[1], ra[1]), format(bq[1], rb[1]), runs);
	SELECT * INTO c2 FROM bench.compare(format(q[2], ra[2]), format(bq[2], rb[2]), runs);
	SELECT * INTO c3 FROM bench.compare(format(q[3], ra[3]), format(bq[3], rb[3]), runs);
	INSERT INTO pbb_res VALUES (label, setting, mode, fpr,
		c1.a_ms / (n1 * ra[1]), c2.a_ms / (n2 * ra[2]), c3.a_ms / (n3 * ra[3]),
		c1.b_ms / (n1 * rb[1]), c2.b_ms / (n2 * rb[2]), c3.b_ms / (n3 * rb[3]), n1, n2, n3);
	IF mode = 'fresh' THEN
		PERFORM pbb_stats(label, setting, tab, least(n1, 200));
	END IF;
END $$;

-- pagebloom at one fpr: build (timed), size, plans, queries
CREATE FUNCTION pbb_pagebloom(label text, nrows bigint, fpr float8, runs int) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
	t0 timestamptz;
	ms float8;
	setting text;
	i record;
	n int;
BEGIN
	DROP INDEX IF EXISTS pbb_pb_idx;
	CHECKPOINT;
	t0 := clock_timestamp();
	-- the default is built without a WITH clause, so that it is whatever
	-- pagebloom's default is (fpr NULL here)
	IF fpr IS NULL THEN
		CREATE INDEX pbb_pb_idx ON pbb_pb USING pagebloom (i1, i2, i3, i4, i5, i6);
	ELSE
		EXECUTE format('CREATE INDEX pbb_pb_idx ON pbb_pb USING pagebloom (i1, i2, i3, i4, i5, i6) WITH (fpr = %s)',
			fpr);
	END IF;
	ms := extract(epoch FROM clock_timestamp() - t0) * 1000;
	SELECT * INTO i FROM pagebloom_info('pbb_pb_idx');
	setting := CASE WHEN fpr IS NULL THEN format('pagebloom default (fpr %s)', round(i.target_fpr::numeric, 6))
					ELSE 'pagebloom fpr=' || fpr END;
	INSERT INTO pbb_idx VALUES (label, nrows, setting, i.target_fpr, ms, pg_relation_size('pbb_pb_idx'),
		format('signature_bits %s, block_bits %s, k %s, design_fpr %s', i.signature_bits, i.block_bits, i.k,
			round(i.design_fpr::numeric, 6)));
	PERFORM pbb_check_plans('pbb_pb');	-- raises unless the plans scan pbb_pb_idx
	SELECT cardinality(keys) INTO n FROM pbb_const;
	PERFORM pbb_measure(label, setting, 'pbb_pb', runs, n, n / 10, n, i.target_fpr);
	IF fpr IS NULL THEN
		PERFORM pbb_measure(label, setting, 'pbb_pb', runs, 200, 20, 200, i.target_fpr, 'repeated');
	END IF;
END $$;

-- ---------------------------------------------------------------------
-- Both table sizes
-- ---------------------------------------------------------------------
\set pbb_rows :rows_small
\ir pagebloom_btree.sql
\set pbb_rows :rows_large
\ir pagebloom_btree.sql

-- ---------------------------------------------------------------------
-- Report: every figure against the six B-trees of the same size
-- ---------------------------------------------------------------------
CREATE TEMP VIEW pbb_all AS
	SELECT i.label, i.nrows, i.setting, i.fpr, i.build_ms, i.size, r.q1, r.q2, r.q3, r.bt_q1, r.bt_q2, r.bt_q3,
		   r.n1, r.n2, r.n3, b.build_ms AS bt_build_ms, b.size AS bt_size,
		   i.setting LIKE 'pagebloom default%' AS dflt,
		   CASE WHEN i.setting LIKE 'pagebloom%' THEN 1 WHEN i.setting = 'btree_gin' THEN 2 ELSE 3 END AS o
	FROM pbb_idx i JOIN pbb_res r USING (label, setting) JOIN pbb_idx b ON b.label = i.label AND b.setting = 'six B-trees'
	WHERE r.mode = 'fresh';

SELECT bench.report('pagebloom vs B-tree', format('%s, %s: %s', a.label, a.setting, f.name),
	f.v, f.bname, f.bv, CASE WHEN a.dflt THEN f.target ELSE 'info' END, f.unit)
FROM pbb_all a, LATERAL (VALUES
	(1, format('i4 = v, mean of %s present keys', a.n1), a.q1 * 1000, 'six B-trees', a.bt_q1 * 1000, '<= 5', 'us'),
	(2, format('i3 = ANY(10 present values), mean of %s lists', a.n2), a.q2 * 1000, 'six B-trees', a.bt_q2 * 1000,
		'<= 20', 'us'),
	(3, format('i2 = a AND i5 = b (1 match), mean of %s', a.n3), a.q3 * 1000, 'six B-trees', a.bt_q3 * 1000,
		'<= 1.5', 'us'),
	(4, 'index size', a.size / 1048576.0, 'six B-trees', a.bt_size / 1048576.0, '<= 0.2', 'MB'),
	(5, 'build time', a.build_ms, 'six B-trees', a.bt_build_ms, '<= 0.25', 'ms')
) f(ord, name, v, bname, bv, target, unit)
ORDER BY a.nrows, f.ord, a.o, NOT a.dflt, a.fpr DESC \g /dev/null

-- the same default index on the first 200 keys (20 lists, 200 pairs), each
-- pass repeated for 50 ms: the figure of the runs before 2026-11-26 (CPU
-- caches warm with the B-trees' few pages), for comparison
SELECT bench.report('pagebloom vs B-tree', format('%s, %s: %s, 200 keys repeated', r.label, r.setting, f.name),
	f.v, 'six B-trees', f.bv, 'info', 'us')
FROM pbb_res r JOIN pbb_idx i USING (label, setting), LATERAL (VALUES (1, 'i4 = v', r.q1 * 1000, r.bt_q1 * 1000),
	(2, 'i3 = ANY(10 present values)', r.q2 * 1000, r.bt_q2 * 1000),
	(3, 'i2 = a AND i5 = b', r.q3 * 1000, r.bt_q3 * 1000)) f(o, name, v, bv)
WHERE r.mode = 'repeated'
ORDER BY i.nrows, f.o \g /dev/null

SELECT bench.report('pagebloom vs B-tree', format('%s, %s: insert %s rows', label, s.setting, ninsert),
	s.ms, 'six B-trees', bt_ms, CASE WHEN s.setting LIKE 'pagebloom%' THEN '<= 0.5' ELSE 'info' END)
FROM pbb_ins, LATERAL (VALUES (1, 'pagebloom default', pb_ms), (2, 'btree_gin', gin_ms),
	(3, 'contrib/bloom', bl_ms)) s(o, setting, ms)
ORDER BY nrows, s.o \g /dev/null

-- why: heap pages visited and rows rechecked per one-column query, against
-- the rows it returns (the B-trees visit about one heap page per row)
SELECT bench.report('pagebloom vs B-tree', format('%s, %s: %s per i4 = v', s.label, s.setting, f.name),
	f.v, 'matching rows', s.rows, 'info', f.unit)
FROM pbb_stat s, LATERAL (VALUES (1, 'heap pages visited', s.heap_blocks, 'pages'),
	(2, 'rows removed by recheck', s.removed, 'rows')) f(o, name, v, unit)
WHERE s.setting LIKE 'pagebloom%'
ORDER BY s.ord, f.o \g /dev/null

-- ---------------------------------------------------------------------
-- Chart data (gnuplot blocks separated by two blank lines, each headed by
-- its title): pagebloom at each fpr, one line per table size; then six
-- B-trees, btree_gin, contrib/bloom, one point per size
-- ---------------------------------------------------------------------
\pset format unaligned
\pset tuples_only on
\o doc/pagebloom-vs-btree.dat
SELECT format(E'# test/bench/pagebloom_btree.sql, BENCH_SCALE=%s, %s, PostgreSQL %s\n', :'scale', current_date,
		current_setting('server_version')) || string_agg(block, E'\n\n\n' ORDER BY o, nrows)
FROM (SELECT o, min(nrows) AS nrows,
		format(E'# size_mb  ms_per_query  label\n"%s"  ms  label\n', title) ||
		string_agg(format('%s  %s  "%s"', round(size / 1048576.0, 2), round(q1::numeric, 5), point), E'\n'
			ORDER BY nrows, fpr DESC) AS block
	  FROM (SELECT a.*, CASE WHEN o = 1 THEN 'pagebloom, ' || label ELSE setting END AS title,
				CASE WHEN setting LIKE 'pagebloom default%' THEN 'default, fpr ' || round(fpr::numeric, 6)
					 WHEN o = 1 THEN 'fpr ' || fpr ELSE split_part(label, ' ', 1) END AS point,
				CASE WHEN o = 1 THEN nrows ELSE 0 END AS grp
			FROM (SELECT label, nrows, setting, fpr, size, q1, o FROM pbb_all
				  UNION ALL
				  -- the B-trees' mean beside every index but contrib/bloom (whose
				  -- baseline is its 10 keys, one pass of a fraction of a ms)
				  SELECT label, nrows, 'six B-trees', NULL, bt_size, avg(bt_q1), 0 FROM pbb_all
				  WHERE setting <> 'contrib/bloom'
				  GROUP BY label, nrows, bt_size) a) a
	  GROUP BY o, grp, title) b;
\o
\pset tuples_only off
\pset format aligned
\! if command -v gnuplot >/dev/null 2>&1; then gnuplot test/bench/pagebloom_btree.gp && echo "chart: doc/pagebloom-vs-btree.svg"; else echo "chart skipped: gnuplot is not installed (Debian: apt-get install gnuplot-nox; make deps installs it as root)"; fi

DROP VIEW pbb_all;
DROP FUNCTION pbb_check_plans(text), pbb_stats(text, text, text, int),
	pbb_measure(text, text, text, int, int, int, int, float8, text), pbb_pagebloom(text, bigint, float8, int);
DO $$
DECLARE
	f regprocedure;
BEGIN
	FOR f IN SELECT oid FROM pg_proc WHERE proname ~ '^pbb_(bt|gin|bl|pb)_q[123]$' LOOP
		EXECUTE format('DROP FUNCTION %s', f);
	END LOOP;
END $$;
\endif
