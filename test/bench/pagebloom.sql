-- pagebloom benchmarks (issue 3, doc/performance.md "pagebloom").
--
-- The contrib/bloom documentation workload: N = 10M x scale rows of six int4
-- columns (random() * 1000000)::int.  The same rows are loaded into five
-- tables: one with a pagebloom index (defaults), one with a contrib/bloom
-- index (defaults), one with a BRIN int4_bloom_ops index (pages_per_range 16:
-- with the default 128, six bloom summaries do not fit in a BRIN tuple), one with six
-- single-column B-trees, and one without index (sequential scan).  Every
-- figure is printed as a ratio to contrib/bloom, measured in the same run:
--
--   build time, index size, query time (two absent keys, one absent key, a
--   present key, an IN-list of 100 values), index pages read per query,
--   heap pages visited for an absent key, time to insert 1M x scale rows, and
--   pagebloom's IN-list of 100 against its single value.
--
-- Queries run with enable_seqscan off (each table has one kind of index, so
-- the planner picks it) except on the table without index.
\set ECHO none
SET client_min_messages = warning;
SET stats_fetch_consistency = none;
CREATE EXTENSION IF NOT EXISTS bloom;
SET search_path = public, bench;

SELECT greatest(10000, (10000000 * :scale)::int) AS n_rows,
	   greatest(1000, (1000000 * :scale)::int) AS n_insert,
	   CASE WHEN :scale >= 0.5 THEN 3 ELSE 7 END AS runs \gset

DROP TABLE IF EXISTS pb_src, pb_new, pb_t_pb, pb_t_bl, pb_t_brin, pb_t_bt, pb_t_seq CASCADE;

CREATE TABLE pb_src AS
	SELECT (random() * 1000000)::int AS i1, (random() * 1000000)::int AS i2,
		   (random() * 1000000)::int AS i3, (random() * 1000000)::int AS i4,
		   (random() * 1000000)::int AS i5, (random() * 1000000)::int AS i6
	FROM generate_series(1, :n_rows);
CREATE TABLE pb_new AS SELECT * FROM pb_src LIMIT 0;
INSERT INTO pb_new
	SELECT (random() * 1000000)::int, (random() * 1000000)::int, (random() * 1000000)::int,
		   (random() * 1000000)::int, (random() * 1000000)::int, (random() * 1000000)::int
	FROM generate_series(1, :n_insert);
CREATE TABLE pb_t_pb AS SELECT * FROM pb_src;
CREATE TABLE pb_t_bl AS SELECT * FROM pb_src;
CREATE TABLE pb_t_brin AS SELECT * FROM pb_src;
CREATE TABLE pb_t_bt AS SELECT * FROM pb_src;
CREATE TABLE pb_t_seq AS SELECT * FROM pb_src;
VACUUM ANALYZE pb_src, pb_new, pb_t_pb, pb_t_bl, pb_t_brin, pb_t_bt, pb_t_seq;

-- query constants: absent keys (checked), a present key, 100 random values
-- (at 10M rows nearly every value of 0..1M occurs in a column: search them
-- all, else take one outside the range; hashed indexes treat both alike)
SELECT coalesce((SELECT min(g) FROM generate_series(500000, 1000000) g
				 WHERE NOT EXISTS (SELECT 1 FROM pb_src WHERE i3 = g)), 1000001) AS absent1 \gset
SELECT i4 AS present FROM pb_src OFFSET (:n_rows / 2) LIMIT 1 \gset
SELECT array_agg((random() * 1000000)::int)::text AS inlist FROM generate_series(1, 100) \gset
SELECT count(*) AS absent2_matches FROM pb_src WHERE i2 = 898732 AND i5 = 123451 \gset

\echo
\echo rows, constants:
SELECT :n_rows AS n_rows, :n_insert AS n_insert, :absent1 AS absent_key, :present AS present_key,
	:absent2_matches AS doc_query_matches;

-- ---------------------------------------------------------------------
-- 1. Build time (two alternating builds each) and size
-- ---------------------------------------------------------------------
\echo 1. build
SELECT a_ms AS pb_ms, b_ms AS bl_ms FROM bench.compare(
	'DROP INDEX IF EXISTS pb_t_pb_idx; CREATE INDEX pb_t_pb_idx ON pb_t_pb USING pagebloom (i1, i2, i3, i4, i5, i6)',
	'DROP INDEX IF EXISTS pb_t_bl_idx; CREATE INDEX pb_t_bl_idx ON pb_t_bl USING bloom (i1, i2, i3, i4, i5, i6)',
	2) \gset b_
SELECT bench.timeit('CREATE INDEX pb_t_brin_idx ON pb_t_brin USING brin (i1 int4_bloom_ops, i2 int4_bloom_ops,
	i3 int4_bloom_ops, i4 int4_bloom_ops, i5 int4_bloom_ops, i6 int4_bloom_ops) WITH (pages_per_range = 16)', 1) AS brin_ms \gset b_
SELECT bench.timeit('CREATE INDEX ON pb_t_bt (i1); CREATE INDEX ON pb_t_bt (i2); CREATE INDEX ON pb_t_bt (i3);
	CREATE INDEX ON pb_t_bt (i4); CREATE INDEX ON pb_t_bt (i5); CREATE INDEX ON pb_t_bt (i6)', 1) AS bt_ms \gset b_
VACUUM ANALYZE pb_t_pb, pb_t_bl, pb_t_brin, pb_t_bt;

SELECT bench.report('pagebloom', 'build time', :b_pb_ms, 'contrib/bloom', :b_bl_ms, '<= 1.0');
SELECT bench.report('pagebloom', 'build time: BRIN int4_bloom_ops', :b_brin_ms, 'contrib/bloom', :b_bl_ms, 'info');
SELECT bench.report('pagebloom', 'build time: six B-trees', :b_bt_ms, 'contrib/bloom', :b_bl_ms, 'info');
SELECT bench.report('pagebloom', 'index size', pg_relation_size('pb_t_pb_idx'), 'contrib/bloom',
	pg_relation_size('pb_t_bl_idx'), '<= 1.0', 'bytes');
SELECT bench.report('pagebloom', 'index size: BRIN int4_bloom_ops', pg_relation_size('pb_t_brin_idx'), 'contrib/bloom',
	pg_relation_size('pb_t_bl_idx'), 'info', 'bytes');
SELECT bench.report('pagebloom', 'index size: six B-trees', pg_indexes_size('pb_t_bt'), 'contrib/bloom',
	pg_relation_size('pb_t_bl_idx'), 'info', 'bytes');
\echo pagebloom parameters:
SELECT pages_per_range, signature_bits, k, segments, index_pages, round(design_fpr::numeric, 4) AS design_fpr,
	round(design_rows_per_range::numeric, 1) AS design_rows_per_range, round(fill_ratio::numeric, 3) AS fill,
	round(estimated_fpr::numeric, 4) AS estimated_fpr
FROM pagebloom_info('pb_t_pb_idx');

-- ---------------------------------------------------------------------
-- 2. Queries.  Warm every table and index once, then time alternating runs.
-- ---------------------------------------------------------------------
\echo 2. queries
SET enable_seqscan = off;
SELECT count(*) FROM pb_t_pb WHERE i1 = -1 \g /dev/null
SELECT count(*) FROM pb_t_bl WHERE i1 = -1 \g /dev/null
SELECT count(*) FROM pb_t_brin WHERE i1 = -1 \g /dev/null
SELECT count(*) FROM pb_t_bt WHERE i1 = -1 \g /dev/null
SELECT count(*) FROM pb_t_seq \g /dev/null
SELECT count(*) FROM pb_t_pb \g /dev/null
SELECT count(*) FROM pb_t_bl \g /dev/null
SELECT count(*) FROM pb_t_brin \g /dev/null
SELECT count(*) FROM pb_t_bt \g /dev/null

-- query texts, table name as %I
CREATE TEMP TABLE pb_queries (id int, name text, q text);
INSERT INTO pb_queries VALUES
	(1, 'i2 AND i5, absent (documentation query)', 'SELECT * FROM %I WHERE i2 = 898732 AND i5 = 123451'),
	(2, 'one column, absent key', format('SELECT * FROM %%I WHERE i3 = %s', :absent1)),
	(3, 'one column, present key', format('SELECT * FROM %%I WHERE i4 = %s', :present)),
	(4, 'IN-list of 100 values', format('SELECT * FROM %%I WHERE i1 = ANY(%L::int[])', :'inlist'));

-- time of each query on pagebloom, BRIN, B-trees, seqscan, each against bloom
SELECT set_config('bench.runs', :'runs', false) \g /dev/null
CREATE TEMP TABLE pb_times (id int, target text, ms float8, bl_ms float8);
DO $$
DECLARE
	r record;
	t record;
	c record;
BEGIN
	FOR r IN SELECT * FROM pb_queries ORDER BY id LOOP
		FOR t IN SELECT * FROM (VALUES ('pb_t_pb', 'pagebloom'), ('pb_t_brin', 'BRIN int4_bloom_ops'),
				('pb_t_bt', 'six B-trees'), ('pb_t_seq', 'sequential scan')) v(tab, label) LOOP
			SELECT * INTO c FROM bench.compare(format(r.q, t.tab), format(r.q, 'pb_t_bl'),
				current_setting('bench.runs')::int);
			INSERT INTO pb_times VALUES (r.id, t.label, c.a_ms, c.b_ms);
		END LOOP;
	END LOOP;
END $$;
-- the floor of the IN-list ratio for any index: the same rows fetched by
-- their TIDs (a Tid Scan: the heap pages, and planning the constants, with no
-- index at all), each timed against contrib/bloom's run of the same query as
-- above, so that the caches are in the same state
-- ('{}' when no row matches, possible at small scales)
SELECT coalesce(array_agg(ctid)::text, '{}') AS present_tids FROM pb_t_pb WHERE i4 = :present \gset
SELECT coalesce(array_agg(ctid)::text, '{}') AS inlist_tids FROM pb_t_pb WHERE i1 = ANY(:'inlist'::int[]) \gset
SELECT set_config('bench.tids3', :'present_tids', false), set_config('bench.tids4', :'inlist_tids', false) \g /dev/null
DO $$
DECLARE
	r record;
	c record;
BEGIN
	FOR r IN SELECT * FROM pb_queries WHERE id IN (3, 4) ORDER BY id LOOP
		SELECT * INTO c FROM bench.compare(
			format('SELECT * FROM pb_t_pb WHERE ctid = ANY(%L::tid[])', current_setting('bench.tids' || r.id)),
			format(r.q, 'pb_t_bl'), current_setting('bench.runs')::int);
		INSERT INTO pb_times VALUES (r.id, 'rows by TID', c.a_ms, c.b_ms);
	END LOOP;
END $$;
SELECT bench.report('pagebloom', 'query time: ' || q.name || CASE WHEN t.target = 'pagebloom' THEN '' ELSE ', ' || t.target END,
	t.ms, 'contrib/bloom', t.bl_ms, CASE WHEN t.target = 'pagebloom' THEN '<= 0.1' ELSE 'info' END)
FROM pb_times t JOIN pb_queries q USING (id) ORDER BY q.id, t.target <> 'pagebloom', t.target;

-- ---------------------------------------------------------------------
-- 3. Pages read by one run of each query: index blocks and heap blocks
--    touched (pg_statio, flushed before and after)
-- ---------------------------------------------------------------------
\echo 3. pages read
CREATE TEMP TABLE pb_pages (id int, tab text, idx_pages float8, heap_pages float8);
CREATE TEMP TABLE pb_stat0 (id int, tab text, idx float8, heap float8);
CREATE VIEW pb_stat AS
	SELECT t.relname::text AS tab, t.heap_blks_hit + coalesce(t.heap_blks_read, 0) AS heap,
		coalesce((SELECT sum(i.idx_blks_hit + coalesce(i.idx_blks_read, 0))
				  FROM pg_statio_user_indexes i WHERE i.relid = t.relid), 0) AS idx
	FROM pg_statio_user_tables t;
-- for each query and table, as separate top-level statements (statistics are
-- flushed when the backend goes idle): flush, note the counters, run the
-- query once, flush, take the difference
SELECT s FROM pb_queries q,
	(VALUES (1, 'pb_t_pb'), (2, 'pb_t_bl'), (3, 'pb_t_brin')) v(o, tab),
	LATERAL unnest(ARRAY[
		'SELECT pg_stat_force_next_flush()',
		format('INSERT INTO pb_stat0 SELECT %s, tab, idx, heap FROM pb_stat WHERE tab = %L', q.id, v.tab),
		format('SELECT count(*) FROM (%s) s', format(q.q, v.tab)),
		'SELECT pg_stat_force_next_flush()',
		format('INSERT INTO pb_pages SELECT %s, s.tab, s.idx - b.idx, s.heap - b.heap FROM pb_stat s '
			   'JOIN pb_stat0 b USING (tab) WHERE b.id = %s AND s.tab = %L', q.id, q.id, v.tab)
	]) WITH ORDINALITY AS u(s, n)
ORDER BY q.id, v.o, u.n \gexec

SELECT bench.report('pagebloom', 'index pages read: ' || q.name, p.idx_pages, 'contrib/bloom', b.idx_pages,
	'<= 0.01', 'pages')
FROM pb_pages p JOIN pb_pages b USING (id) JOIN pb_queries q USING (id)
WHERE p.tab = 'pb_t_pb' AND b.tab = 'pb_t_bl' ORDER BY id;
SELECT bench.report('pagebloom', 'heap pages visited: ' || q.name, p.heap_pages, 'contrib/bloom', b.heap_pages,
	CASE WHEN id IN (1, 2) THEN '<= 0.05' ELSE 'info' END, 'pages')
FROM pb_pages p JOIN pb_pages b USING (id) JOIN pb_queries q USING (id)
WHERE p.tab = 'pb_t_pb' AND b.tab = 'pb_t_bl' ORDER BY id;
SELECT bench.report('pagebloom', 'index pages read: ' || q.name || ', BRIN int4_bloom_ops', p.idx_pages,
	'contrib/bloom', b.idx_pages, 'info', 'pages')
FROM pb_pages p JOIN pb_pages b USING (id) JOIN pb_queries q USING (id)
WHERE p.tab = 'pb_t_brin' AND b.tab = 'pb_t_bl' ORDER BY id;
SELECT bench.report('pagebloom', 'heap pages visited: ' || q.name || ', BRIN int4_bloom_ops', p.heap_pages,
	'contrib/bloom', b.heap_pages, 'info', 'pages')
FROM pb_pages p JOIN pb_pages b USING (id) JOIN pb_queries q USING (id)
WHERE p.tab = 'pb_t_brin' AND b.tab = 'pb_t_bl' ORDER BY id;

-- ---------------------------------------------------------------------
-- 4. IN-list of 100 against a single value, same index
-- ---------------------------------------------------------------------
SELECT bench.report('pagebloom', 'IN-list of 100 against one present value, same index',
	(SELECT ms FROM pb_times WHERE id = 4 AND target = 'pagebloom'), 'pagebloom, one value',
	(SELECT ms FROM pb_times WHERE id = 3 AND target = 'pagebloom'), '<= 3');
SELECT bench.report('pagebloom', 'IN-list of 100 against one present value, contrib/bloom',
	(SELECT bl_ms FROM pb_times WHERE id = 4 AND target = 'pagebloom'), 'contrib/bloom, one value',
	(SELECT bl_ms FROM pb_times WHERE id = 3 AND target = 'pagebloom'), 'info');
SELECT bench.report('pagebloom', 'IN-list of 100 against one present value, six B-trees',
	(SELECT ms FROM pb_times WHERE id = 4 AND target = 'six B-trees'), 'six B-trees, one value',
	(SELECT ms FROM pb_times WHERE id = 3 AND target = 'six B-trees'), 'info');
-- the same rows by TID: what the ratio would be with an index that cost nothing
SELECT bench.report('pagebloom', 'IN-list of 100 against one present value, their rows by TID (no index)',
	(SELECT ms FROM pb_times WHERE id = 4 AND target = 'rows by TID'), 'one value''s rows by TID',
	(SELECT ms FROM pb_times WHERE id = 3 AND target = 'rows by TID'), 'info');

-- ---------------------------------------------------------------------
-- 5. Insert 1M x scale rows into the indexed tables (one run each, each
--    after a checkpoint, so both pay their full-page images)
-- ---------------------------------------------------------------------
\echo 5. inserts
RESET enable_seqscan;
CHECKPOINT;
SELECT bench.timeit('INSERT INTO pb_t_pb SELECT * FROM pb_new', 1) AS pb_ms \gset i_
CHECKPOINT;
SELECT bench.timeit('INSERT INTO pb_t_bl SELECT * FROM pb_new', 1) AS bl_ms \gset i_
CHECKPOINT;
SELECT bench.timeit('INSERT INTO pb_t_seq SELECT * FROM pb_new', 1) AS seq_ms \gset i_
SELECT bench.report('pagebloom', 'insert time, ' || :n_insert || ' rows', :i_pb_ms, 'contrib/bloom', :i_bl_ms, '<= 1.5');
SELECT bench.report('pagebloom', 'insert time, ' || :n_insert || ' rows, no index', :i_seq_ms, 'contrib/bloom', :i_bl_ms, 'info');
SELECT pagebloom_verify('pb_t_pb_idx') = (SELECT count(*) FROM pb_t_pb) AS pagebloom_verified;

DROP VIEW pb_stat;
DROP TABLE pb_src, pb_new, pb_t_pb, pb_t_bl, pb_t_brin, pb_t_bt, pb_t_seq;
