-- pagebloom at volume: the spec's six-int4 workload at 300k rows; ground
-- truth for thousands of probes, measured false-positive rate, planner
-- choices, and vacuum / re-summarize / insert cycles
SET client_min_messages = warning;
SET extra_float_digits = 0;
SET stats_fetch_consistency = none;
SET max_parallel_workers_per_gather = 0;
SELECT setseed(0.42);
CREATE TABLE pbv (id int, i1 int, i2 int, i3 int, i4 int, i5 int, i6 int);
INSERT INTO pbv SELECT i, (random() * 1000000)::int, (random() * 1000000)::int,
	(random() * 1000000)::int, (random() * 1000000)::int,
	(random() * 1000000)::int, (random() * 1000000)::int
FROM generate_series(1, 300000) i;
CREATE INDEX pbv_idx ON pbv USING pagebloom (i1, i2, i3, i4, i5, i6);
VACUUM ANALYZE pbv;

-- probes: 1000 present values and 1000 absent ones, on every column
CREATE TABLE pbv_probe (col int, v int);
INSERT INTO pbv_probe
SELECT 1 + g % 6, CASE g % 6 WHEN 0 THEN i1 WHEN 1 THEN i2 WHEN 2 THEN i3
	WHEN 3 THEN i4 WHEN 4 THEN i5 ELSE i6 END
FROM (SELECT row_number() OVER () AS g, * FROM pbv WHERE id % 300 = 0) s;
INSERT INTO pbv_probe SELECT 1 + g % 6, 1000001 + g FROM generate_series(1, 1000) g;

-- the matches of every probe (or only of the absent ones) through the index:
-- by bitmap scans (pbv_count_index) and by plain index scans
-- (pbv_count_index_scan, amgettuple), the same queries planned under other
-- settings
-- (STABLE, so that it is inlined and planned under the caller's settings,
-- never run as a function of its own whose plan PostgreSQL 18 may cache)
CREATE FUNCTION pbv_count_probes(only_absent bool, only_col int)
RETURNS TABLE (col int, v int, c bigint) LANGUAGE sql STABLE AS $$
	SELECT p.col, p.v, CASE p.col
		WHEN 1 THEN (SELECT count(*) FROM pbv WHERE i1 = p.v)
		WHEN 2 THEN (SELECT count(*) FROM pbv WHERE i2 = p.v)
		WHEN 3 THEN (SELECT count(*) FROM pbv WHERE i3 = p.v)
		WHEN 4 THEN (SELECT count(*) FROM pbv WHERE i4 = p.v)
		WHEN 5 THEN (SELECT count(*) FROM pbv WHERE i5 = p.v)
		ELSE (SELECT count(*) FROM pbv WHERE i6 = p.v) END
	FROM pbv_probe p WHERE (NOT only_absent OR p.v > 1000000) AND (only_col IS NULL OR p.col = only_col)
$$;
CREATE FUNCTION pbv_count_index(only_absent bool DEFAULT false, only_col int DEFAULT NULL)
RETURNS TABLE (col int, v int, c bigint)
LANGUAGE sql SET enable_seqscan = off SET enable_indexscan = off AS $$
	SELECT * FROM pbv_count_probes(only_absent, only_col)
$$;
CREATE FUNCTION pbv_count_index_scan(only_absent bool DEFAULT false, only_col int DEFAULT NULL)
RETURNS TABLE (col int, v int, c bigint)
LANGUAGE sql SET enable_seqscan = off SET enable_bitmapscan = off AS $$
	SELECT * FROM pbv_count_probes(only_absent, only_col)
$$;
-- the same by hash joins, one per column
CREATE FUNCTION pbv_count_truth() RETURNS TABLE (col int, v int, c bigint)
LANGUAGE sql SET enable_bitmapscan = off SET enable_indexscan = off AS $$
	SELECT p.col, p.v, count(t.id) FROM pbv_probe p LEFT JOIN pbv t ON t.i1 = p.v WHERE p.col = 1 GROUP BY 1, 2
	UNION ALL
	SELECT p.col, p.v, count(t.id) FROM pbv_probe p LEFT JOIN pbv t ON t.i2 = p.v WHERE p.col = 2 GROUP BY 1, 2
	UNION ALL
	SELECT p.col, p.v, count(t.id) FROM pbv_probe p LEFT JOIN pbv t ON t.i3 = p.v WHERE p.col = 3 GROUP BY 1, 2
	UNION ALL
	SELECT p.col, p.v, count(t.id) FROM pbv_probe p LEFT JOIN pbv t ON t.i4 = p.v WHERE p.col = 4 GROUP BY 1, 2
	UNION ALL
	SELECT p.col, p.v, count(t.id) FROM pbv_probe p LEFT JOIN pbv t ON t.i5 = p.v WHERE p.col = 5 GROUP BY 1, 2
	UNION ALL
	SELECT p.col, p.v, count(t.id) FROM pbv_probe p LEFT JOIN pbv t ON t.i6 = p.v WHERE p.col = 6 GROUP BY 1, 2
$$;
CREATE FUNCTION pbv_mismatches() RETURNS TABLE (probes bigint, matches numeric, mismatches bigint)
LANGUAGE sql AS $$
	SELECT count(*), sum(a.c), count(*) FILTER (WHERE a.c IS DISTINCT FROM b.c OR i.c IS DISTINCT FROM b.c)
	FROM pbv_count_index() a FULL JOIN pbv_count_truth() b USING (col, v)
		FULL JOIN pbv_count_index_scan() i USING (col, v)
$$;
-- the first line of a plan, without costs, or the first that names the
-- relation node (the node scanning it)
CREATE FUNCTION pb_plan(q text, node text DEFAULT NULL) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	r record;
BEGIN
	FOR r IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
		IF node IS NULL OR r."QUERY PLAN" LIKE '%' || node || '%' THEN
			RETURN split_part(regexp_replace(r."QUERY PLAN", '^ *(-> *)?', ''), ' on ', 1);
		END IF;
	END LOOP;
	RETURN NULL;
END $$;

SELECT * FROM pbv_mismatches();
SELECT pagebloom_verify('pbv_idx');

-- = ANY lists of thousands of values, whose values are read slice page by
-- slice page and whose rows are matched range by range: one list (5000
-- present values, some twice, 2000 absent ones and a NULL), two lists
-- ANDed, by bitmap and by index scans, against hash semi-joins
CREATE TABLE pbv_list AS SELECT
	(SELECT array_agg(v) FROM (SELECT i3 AS v FROM pbv WHERE id % 60 = 0 UNION ALL
		SELECT i3 FROM pbv WHERE id % 600 = 0 UNION ALL
		SELECT 1000001 + g FROM generate_series(1, 2000) g UNION ALL SELECT NULL) s) AS a,
	(SELECT array_agg(i4) FROM pbv WHERE id % 120 = 0) AS b;
CREATE FUNCTION pbv_list_counts() RETURNS TABLE (one bigint, two bigint) LANGUAGE sql STABLE AS $$
	SELECT (SELECT count(*) FROM pbv WHERE i3 = ANY ((SELECT a FROM pbv_list)::int[])),
		(SELECT count(*) FROM pbv WHERE i3 = ANY ((SELECT a FROM pbv_list)::int[])
			AND i4 = ANY ((SELECT b FROM pbv_list)::int[]))
$$;
-- the counts by bitmap scans and by plain index scans, each with the scan
-- node that used index idx
CREATE FUNCTION pbv_list_scans(idx text) RETURNS TABLE (scan text, plan text, one bigint, two bigint)
LANGUAGE plpgsql SET enable_seqscan = off SET enable_indexscan = on SET enable_bitmapscan = on AS $$
DECLARE
	q text := 'SELECT count(*) FROM pbv WHERE i3 = ANY ((SELECT a FROM pbv_list)::int[])';
BEGIN
	PERFORM set_config('enable_indexscan', 'off', true);
	RETURN QUERY SELECT 'bitmap', pb_plan(q, idx), c.one, c.two FROM pbv_list_counts() c;
	PERFORM set_config('enable_indexscan', 'on', true);
	PERFORM set_config('enable_bitmapscan', 'off', true);
	RETURN QUERY SELECT 'index', pb_plan(q, idx), c.one, c.two FROM pbv_list_counts() c;
END $$;
CREATE TEMP TABLE pbv_list_scan AS SELECT * FROM pbv_list_scans('pbv_idx');
SET enable_indexscan = off;
SET enable_bitmapscan = off;
CREATE TEMP TABLE pbv_list_truth AS
	SELECT (SELECT count(*) FROM pbv WHERE i3 IN (SELECT unnest(a) FROM pbv_list)) AS one,
		(SELECT count(*) FROM pbv WHERE i3 IN (SELECT unnest(a) FROM pbv_list)
			AND i4 IN (SELECT unnest(b) FROM pbv_list)) AS two;
RESET enable_indexscan;
RESET enable_bitmapscan;
SELECT s.scan, s.plan, t.one AS list_rows, t.two AS two_lists_rows, (s.one, s.two) = (t.one, t.two) AS matches_truth
FROM pbv_list_scan s, pbv_list_truth t ORDER BY s.scan;

-- absent keys through the default index, which keeps a row map: a candidate
-- range adds only the rows whose 16-bit fingerprint matches the key, so 1000
-- absent keys visit almost no heap page (about one row per 65536 of the
-- candidate ranges); the default fpr (0) is derived: two false ranges per
-- probe, at most 0.01 (ranges counted up to the last page with rows)
SELECT pg_stat_force_next_flush();
SELECT heap_blks_hit + coalesce(heap_blks_read, 0) AS blks0
FROM pg_statio_user_tables WHERE relname = 'pbv' \gset
SELECT sum(c) AS absent_matches FROM pbv_count_index(true);
SELECT pg_stat_force_next_flush();
SELECT (heap_blks_hit + coalesce(heap_blks_read, 0) - :blks0)::float8 / 1000 AS pages_per_absent_key
FROM pg_statio_user_tables WHERE relname = 'pbv' \gset
SELECT :pages_per_absent_key < 0.1 AS few_heap_pages_per_absent_key,
	pages_per_range > 10 AS ranges_fill_a_row_map_page,
	abs(target_fpr / least(0.01, 2.0 / ceil((SELECT max((ctid::text::point)[0]) + 1 FROM pbv) / pages_per_range)) - 1) < 0.01 AS target_derived
FROM pagebloom_info('pbv_idx');
SELECT pages_per_range AS ppr, target_fpr AS target FROM pagebloom_info('pbv_idx') \gset
-- the same signature without the row map: every heap page of a candidate
-- range is visited, so the heap pages read measure the rate per range
CREATE INDEX pbv_lossy ON pbv USING pagebloom (i1, i2, i3, i4, i5, i6)
	WITH (row_map = off, pages_per_range = :ppr, fpr = :target);
DROP INDEX pbv_idx;
SELECT pg_stat_force_next_flush();
SELECT heap_blks_hit + coalesce(heap_blks_read, 0) AS blks0
FROM pg_statio_user_tables WHERE relname = 'pbv' \gset
SELECT sum(c) AS absent_matches FROM pbv_count_index(true);
SELECT pg_stat_force_next_flush();
SELECT (heap_blks_hit + coalesce(heap_blks_read, 0) - :blks0)::float8 /
	(1000 * pg_relation_size('pbv') / 8192) AS measured_fpr
FROM pg_statio_user_tables WHERE relname = 'pbv' \gset
SELECT :measured_fpr BETWEEN 0.2 * target_fpr AND 2.5 * target_fpr AS fpr_near_target,
	:measured_fpr <= 2.5 * design_fpr AS fpr_near_design,
	:pages_per_absent_key < :measured_fpr * pg_relation_size('pbv') / 8192 / 10 AS row_map_visits_far_fewer
FROM pagebloom_info('pbv_lossy');
DROP INDEX pbv_lossy;

-- the same lists through an index at fpr 0.5, with work_mem at its least:
-- each value passes about half of the candidate ranges, so their values
-- (2 bytes each per range passed) fill work_mem several times over and the
-- ranges are gathered in rounds, each a pass over the values
CREATE INDEX pbv_half ON pbv USING pagebloom (i3, i4) WITH (fpr = 0.5);
SET work_mem = '64kB';
CREATE TEMP TABLE pbv_half_scan AS SELECT * FROM pbv_list_scans('pbv_half');
RESET work_mem;
SELECT (SELECT count(*) FROM unnest(a) v WHERE v IS NOT NULL) * 2 * (i.ranges / 2) > 64 * 1024 * 4 AS fills_work_mem_four_times
FROM pbv_list, pagebloom_info('pbv_half') i;
SELECT s.scan, s.plan, (s.one, s.two) = (t.one, t.two) AS matches_truth
FROM pbv_half_scan s, pbv_list_truth t ORDER BY s.scan;
DROP INDEX pbv_half;

-- per-column targets: measured rates of absent keys on a column with 0.1%
-- and one with 5%, against the design rates
CREATE INDEX pbv_cf ON pbv USING pagebloom (i1, i2, i3, i4, i5, i6) WITH (column_fpr = '0.001,,,,,0.05', row_map = off);
SELECT pg_stat_force_next_flush();
SELECT heap_blks_hit + coalesce(heap_blks_read, 0) AS blks0
FROM pg_statio_user_tables WHERE relname = 'pbv' \gset
SELECT sum(c) AS absent_matches FROM pbv_count_index(true, 1);
SELECT pg_stat_force_next_flush();
SELECT (heap_blks_hit + coalesce(heap_blks_read, 0) - :blks0)::float8 /
	((SELECT count(*) FROM pbv_probe WHERE col = 1 AND v > 1000000) * pg_relation_size('pbv') / 8192) AS fpr1,
	heap_blks_hit + coalesce(heap_blks_read, 0) AS blks1
FROM pg_statio_user_tables WHERE relname = 'pbv' \gset
SELECT sum(c) AS absent_matches FROM pbv_count_index(true, 6);
SELECT pg_stat_force_next_flush();
SELECT (heap_blks_hit + coalesce(heap_blks_read, 0) - :blks1)::float8 /
	((SELECT count(*) FROM pbv_probe WHERE col = 6 AND v > 1000000) * pg_relation_size('pbv') / 8192) AS fpr6
FROM pg_statio_user_tables WHERE relname = 'pbv' \gset
SELECT column_k[1] > column_k[6] AS more_bits_for_the_lower_target,
	:fpr1 <= 3 * column_design_fpr[1] AS col1_near_design,
	:fpr6 BETWEEN 0.5 * column_design_fpr[6] AND 1.5 * column_design_fpr[6] AS col6_near_design,
	:fpr1 < :fpr6 / 10 AS col1_much_lower
FROM pagebloom_info('pbv_cf');
DROP INDEX pbv_cf;

-- every block size (block_bits 63, 127, 255, 510, 1020; the default 0 lets
-- the table's size choose): the truth for every probe, and the measured rate
-- of absent keys (lossy heap pages per probe and range, without a row map)
-- near the design rate
CREATE FUNCTION pbv_lossy_pages() RETURNS bigint LANGUAGE plpgsql
SET enable_seqscan = off SET enable_indexscan = off AS $$
DECLARE
	p record;
	plan json;
	total bigint := 0;
BEGIN
	FOR p IN SELECT * FROM pbv_probe WHERE v > 1000000 LOOP
		EXECUTE format('EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, FORMAT JSON) SELECT * FROM pbv WHERE i%s = %s',
					   p.col, p.v) INTO plan;
		total := total + coalesce((plan -> 0 -> 'Plan' -> 'Plans' -> 0 ->> 'Lossy Heap Blocks')::bigint,
								  (plan -> 0 -> 'Plan' ->> 'Lossy Heap Blocks')::bigint, 0);
	END LOOP;
	RETURN total;
END $$;
CREATE TEMP TABLE pbv_bb (block_bits int, probes bigint, mismatches bigint, verified bigint,
	measured float8, design float8, bits bigint);
-- one index per block size, measured and dropped
CREATE FUNCTION pbv_bb_measure(bb int) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE format('CREATE INDEX pbv_bb_idx ON pbv USING pagebloom (i1, i2, i3, i4, i5, i6)
		WITH (block_bits = %s, fpr = 0.002, row_map = off)', bb);
	INSERT INTO pbv_bb SELECT bb, m.probes, m.mismatches, pagebloom_verify('pbv_bb_idx'),
		pbv_lossy_pages()::float8 / (1000 * i.ranges), i.design_fpr, i.signature_bits
	FROM pbv_mismatches() m, pagebloom_info('pbv_bb_idx') i;
	DROP INDEX pbv_bb_idx;
END $$;
SELECT pbv_bb_measure(bb) FROM unnest('{63,127,255,510,1020}'::int[]) bb;
SELECT block_bits, probes, mismatches, verified = (SELECT count(*) FROM pbv) AS all_keys_set,
	measured BETWEEN 0.4 * design AND 2.0 * design AS rate_near_design, design <= 0.002 AS design_meets_target
FROM pbv_bb ORDER BY block_bits;
-- the same target costs fewer bits with larger blocks (up to 255 bits; past
-- that, a block is a large part of a range's signature and whole blocks round
-- the size up: at most a tenth more)
SELECT bool_and(b.bits < a.bits) AS fewer_bits_with_larger_blocks
FROM pbv_bb a JOIN pbv_bb b ON b.block_bits = a.block_bits * 2 + 1;
SELECT bool_and(b.bits < a.bits * 1.1) AS about_as_many_bits_past_255
FROM pbv_bb a JOIN pbv_bb b ON b.block_bits = a.block_bits * 2
WHERE a.block_bits >= 255;
CREATE INDEX pbv_idx ON pbv USING pagebloom (i1, i2, i3, i4, i5, i6);
-- the default: ranges that fill a row map page, the block size and the
-- rate chosen from the table's size
SELECT pages_per_range, block_bits, abs(target_fpr / least(0.01, 2.0 / ceil((SELECT max((ctid::text::point)[0]) + 1 FROM pbv) / pages_per_range)) - 1) < 0.01 AS target_derived FROM pagebloom_info('pbv_idx');
-- probes add exact rows, not lossy pages
SELECT pbv_lossy_pages() AS lossy_pages_with_row_map;

-- the planner: the index for selective equality, and with the row map also
-- for 3000 keys (exact rows: measured 8 ms against 105 ms for a sequential
-- scan on 1M rows) and for a key that half the rows hold (about the time of a
-- sequential scan); a sequential scan for IS NOT NULL.  With the row map a
-- plain index scan (its TIDs come in heap order) up to ten keys, a bitmap
-- scan for 3000 (pbcostestimate's correlation)
SELECT array_agg(g)::text AS many FROM generate_series(1, 3000) g \gset
SELECT label, pb_plan(q) FROM (VALUES
	('two absent keys', 'SELECT * FROM pbv WHERE i2 = 898732 AND i5 = 123451'),
	('one key', 'SELECT * FROM pbv WHERE i3 = 4242'),
	('ten keys', 'SELECT * FROM pbv WHERE i3 = ANY(''{1,2,3,4,5,6,7,8,9,10}'')'),
	('3000 keys', 'SELECT * FROM pbv WHERE i1 = ANY(''' || :'many' || ''')'),
	('is not null', 'SELECT * FROM pbv WHERE i1 IS NOT NULL')
) v(label, q);
-- the same split where random pages cost little more than sequential ones
-- (the correlation follows the page costs)
SET random_page_cost = 1.1;
SELECT label, pb_plan(q) FROM (VALUES
	('ten keys', 'SELECT * FROM pbv WHERE i3 = ANY(''{1,2,3,4,5,6,7,8,9,10}'')'),
	('3000 keys', 'SELECT * FROM pbv WHERE i1 = ANY(''' || :'many' || ''')')
) v(label, q);
RESET random_page_cost;
CREATE TABLE pbl (g int, h int, pad text);
INSERT INTO pbl SELECT i % 2, i, repeat('x', 20) FROM generate_series(1, 100000) i;
CREATE INDEX pbl_gh ON pbl USING pagebloom (g, h);
ANALYZE pbl;
SELECT q, pb_plan(q) FROM (VALUES
	('SELECT * FROM pbl WHERE g = 1'),
	('SELECT * FROM pbl WHERE h = 4242'),
	('SELECT * FROM pbl WHERE g = 1 AND h = 4242')
) v(q);
EXPLAIN (COSTS OFF) SELECT * FROM pbv WHERE i2 = 898732 AND i5 = 123451;
EXPLAIN (COSTS OFF) SELECT * FROM pbl WHERE g = 1;

-- with B-trees beside the pagebloom index (what a DBA may have on the hot
-- columns): a B-tree wherever one covers a key (one heap page against the
-- pages of every candidate range), pagebloom for the columns without one and
-- for combinations of them (also for 3000 keys, with the row map), a
-- sequential scan for IS NOT NULL.  pb_plan_indexes: the top plan node and
-- the indexes it uses.
CREATE FUNCTION pb_plan_indexes(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	plan json;
BEGIN
	EXECUTE 'EXPLAIN (COSTS OFF, FORMAT JSON) ' || q INTO plan;
	RETURN (plan -> 0 -> 'Plan' ->> 'Node Type') || coalesce(' ' || (
		SELECT string_agg(DISTINCT m[1], ',' ORDER BY m[1])
		FROM regexp_matches(plan::text, '"Index Name": "([^"]+)"', 'g') m), '');
END $$;
CREATE INDEX pbv_i1_btree ON pbv (i1);
CREATE INDEX pbv_i2_btree ON pbv (i2);
ANALYZE pbv;
SELECT label, pb_plan_indexes(q) FROM (VALUES
	('i1 (B-tree)', 'SELECT * FROM pbv WHERE i1 = 4242'),
	('i1, 10 keys (B-tree)', 'SELECT * FROM pbv WHERE i1 = ANY(''{1,2,3,4,5,6,7,8,9,10}'')'),
	('i4 (no B-tree)', 'SELECT * FROM pbv WHERE i4 = 4242'),
	('i4, 10 keys (no B-tree)', 'SELECT * FROM pbv WHERE i4 = ANY(''{1,2,3,4,5,6,7,8,9,10}'')'),
	('i4 AND i6 (no B-tree)', 'SELECT * FROM pbv WHERE i4 = 4242 AND i6 = 77'),
	('i2 AND i5 (one B-tree)', 'SELECT * FROM pbv WHERE i2 = 898732 AND i5 = 123451'),
	('i4, 3000 keys', 'SELECT * FROM pbv WHERE i4 = ANY(''' || :'many' || ''')'),
	('i4 IS NOT NULL', 'SELECT * FROM pbv WHERE i4 IS NOT NULL')
) v(label, q);
DROP INDEX pbv_i1_btree, pbv_i2_btree;

-- delete 30%: stale bits hide nothing; VACUUM leaves these ranges alone (they
-- are not mostly free, only the last partly filled page is), pagebloom_resummarize
-- rewrites them
SELECT fill_ratio AS fill0 FROM pagebloom_info('pbv_idx') \gset
DELETE FROM pbv WHERE id % 10 IN (1, 2, 3);
SELECT * FROM pbv_mismatches();
VACUUM pbv;
SELECT fill_ratio > :fill0 * 0.98 AS vacuum_left_them FROM pagebloom_info('pbv_idx');
SELECT pagebloom_resummarize('pbv_idx', 0.2) AS resummarized \gset
SELECT :resummarized >= 0.95 * ranges AS most_ranges_rewritten,
	fill_ratio < :fill0 * 0.9 AS fill_dropped
FROM pagebloom_info('pbv_idx');
SELECT pagebloom_verify('pbv_idx');
SELECT * FROM pbv_mismatches();
SELECT pagebloom_resummarize('pbv_idx', 0.2) AS nothing_stale;
SELECT pagebloom_resummarize('pbv_idx', 1.5);
\echo :LAST_ERROR_SQLSTATE
-- delete most of the rest: VACUUM re-summarizes the emptied ranges itself
SELECT fill_ratio AS fill1 FROM pagebloom_info('pbv_idx') \gset
DELETE FROM pbv WHERE id % 10 <> 0;
SELECT * FROM pbv_mismatches();
VACUUM pbv;
SELECT fill_ratio < :fill1 / 3 AS vacuum_resummarized FROM pagebloom_info('pbv_idx');
SELECT pagebloom_verify('pbv_idx');
SELECT * FROM pbv_mismatches();
SELECT pagebloom_resummarize('pbv_idx', 0.5) AS nothing_left_stale;
-- new rows go into the freed space of old ranges
INSERT INTO pbv SELECT i, (random() * 1000000)::int, (random() * 1000000)::int,
	(random() * 1000000)::int, (random() * 1000000)::int,
	(random() * 1000000)::int, (random() * 1000000)::int
FROM generate_series(300001, 400000) i;
INSERT INTO pbv_probe SELECT 1 + id % 6, CASE id % 6 WHEN 0 THEN i1 WHEN 1 THEN i2
	WHEN 2 THEN i3 WHEN 3 THEN i4 WHEN 4 THEN i5 ELSE i6 END
FROM pbv WHERE id > 300000 AND id % 200 = 0;
SELECT pagebloom_verify('pbv_idx');
SELECT * FROM pbv_mismatches();
-- updates (non-HOT: indexed columns change) and a second cycle
UPDATE pbv SET i1 = i1 + 1 WHERE id % 7 = 0;
DELETE FROM pbv WHERE id % 3 = 0;
VACUUM pbv;
SELECT pagebloom_resummarize('pbv_idx', 0.2) > 0 AS resummarized;
SELECT pagebloom_verify('pbv_idx');
SELECT * FROM pbv_mismatches();

DROP TABLE pbv, pbv_probe, pbl, pbv_list;
DROP FUNCTION pbv_list_counts(), pbv_list_scans(text), pbv_mismatches(), pbv_count_index(bool, int), pbv_count_index_scan(bool, int),
	pbv_count_probes(bool, int), pbv_count_truth(), pb_plan(text, text), pbv_bb_measure(int);
