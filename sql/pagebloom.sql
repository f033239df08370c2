-- pagebloom index access method: operator classes, scans against sequential
-- scans, reloptions, amvalidate, verification, unlogged and partitioned
-- tables, CREATE INDEX CONCURRENTLY, REINDEX
SET client_min_messages = warning;
SET extra_float_digits = 0;

-- Run a query with the pagebloom bitmap scan, with a pagebloom index scan
-- (amgettuple) and with a sequential scan; report the row count if all give
-- the same rows, else the difference
CREATE FUNCTION pb_compare(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	plan text := '';
	iplan text := '';
	r record;
	a text;
	b text;
	c text;
	n bigint;
BEGIN
	PERFORM set_config('enable_seqscan', 'off', false);
	PERFORM set_config('enable_bitmapscan', 'off', false);
	FOR r IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
		iplan := iplan || r."QUERY PLAN" || ' ';
	END LOOP;
	EXECUTE format('SELECT string_agg(x::text, %L ORDER BY x::text) FROM (%s) x', '|', q) INTO c;
	PERFORM set_config('enable_seqscan', 'off', false);
	PERFORM set_config('enable_indexscan', 'off', false);
	PERFORM set_config('enable_bitmapscan', 'on', false);
	FOR r IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
		plan := plan || r."QUERY PLAN" || ' ';
	END LOOP;
	EXECUTE format('SELECT string_agg(x::text, %L ORDER BY x::text), count(*) FROM (%s) x', '|', q) INTO a, n;
	PERFORM set_config('enable_seqscan', 'on', false);
	PERFORM set_config('enable_bitmapscan', 'off', false);
	EXECUTE format('SELECT string_agg(x::text, %L ORDER BY x::text) FROM (%s) x', '|', q) INTO b;
	PERFORM set_config('enable_indexscan', 'on', false);
	PERFORM set_config('enable_bitmapscan', 'on', false);
	IF plan NOT LIKE '%Bitmap Index Scan%' THEN
		RETURN 'index not used: ' || plan;
	ELSIF a IS DISTINCT FROM b THEN
		RETURN 'MISMATCH: index ' || coalesce(a, '-') || ' seqscan ' || coalesce(b, '-');
	ELSIF c IS DISTINCT FROM b THEN
		RETURN 'MISMATCH: index scan ' || coalesce(c, '-') || ' seqscan ' || coalesce(b, '-');
	ELSIF iplan NOT LIKE '%Index Scan using%' AND iplan NOT LIKE '%One-Time Filter: false%' THEN
		-- partial indexes get no plain index scans (see PbGetRelationInfo)
		RETURN 'ok, ' || n || ' rows (bitmap scan only)';
	END IF;
	RETURN 'ok, ' || n || ' rows';
END $$;

-- One column of every type with a default operator class, and rows of NULLs
CREATE TABLE pbt (
	id int, i2 int2, i4 int4, i8 int8, o oid, t text, vc varchar(20), bp char(8),
	nm name, ba bytea, u uuid, b bool, ch "char", d date, tm time, ts timestamp,
	tstz timestamptz, iv interval, n numeric, f4 float4, f8 float8, ip inet, mac macaddr);
INSERT INTO pbt
SELECT i, (i % 3000)::int2, i % 5000, (i % 7000)::int8 * 1000003, (i % 4000)::oid,
	'k' || i % 6000, 'v' || i % 6000, 'b' || i % 6000, 'n' || i % 6000,
	convert_to('x' || i % 6000, 'UTF8'), md5((i % 6000)::text)::uuid, i % 2 = 0,
	chr(65 + i % 26)::"char", date '2000-01-01' + i % 3000,
	time '00:00' + (i % 3000) * interval '1 second',
	timestamp '2000-01-01' + (i % 3000) * interval '1 minute',
	timestamptz '2000-01-01 00:00+00' + (i % 3000) * interval '1 minute',
	(i % 3000) * interval '1 hour', (i % 3000)::numeric / 10,
	(i % 3000)::float4 / 4, (i % 3000)::float8 / 8,
	('10.' || i % 7 || '.' || i % 250 || '.' || i % 200)::inet,
	('08:00:2b:01:' || lpad(to_hex(i % 256), 2, '0') || ':' || lpad(to_hex(i % 97), 2, '0'))::macaddr
FROM generate_series(1, 30000) i;
INSERT INTO pbt (id) SELECT generate_series(30001, 30040);
CREATE INDEX pbt_all ON pbt USING pagebloom
	(i2, i4, i8, o, t, vc, bp, nm, ba, u, b, ch, d, tm, ts, tstz, iv, n, f4, f8, ip, mac);
ANALYZE pbt;

-- the index was built with one default operator class per column
SELECT a.attname, opc.opcname, opf.opfname
FROM pg_index i, unnest(i.indclass) WITH ORDINALITY AS c(opc, ord)
	JOIN pg_opclass opc ON opc.oid = c.opc
	JOIN pg_opfamily opf ON opf.oid = opc.opcfamily
	JOIN pg_attribute a ON a.attrelid = 'pbt_all'::regclass AND a.attnum = c.ord
WHERE i.indexrelid = 'pbt_all'::regclass ORDER BY c.ord;

-- equality, absent values, arrays (with NULL and absent elements), IS NULL,
-- IS NOT NULL, = NULL, cross-type equality, per column
SELECT q, pb_compare(q) FROM (VALUES
	('SELECT id FROM pbt WHERE i2 = 17'),
	('SELECT id FROM pbt WHERE i2 = 17::int4'),
	('SELECT id FROM pbt WHERE i2 = 17::int8'),
	('SELECT id FROM pbt WHERE i2 = 100000'),
	('SELECT id FROM pbt WHERE i2 = ANY(''{17,18,NULL,30000}''::int8[])'),
	('SELECT id FROM pbt WHERE i2 IS NULL'),
	('SELECT id FROM pbt WHERE i4 = 4321'),
	('SELECT id FROM pbt WHERE i4 = 4321::int2'),
	('SELECT id FROM pbt WHERE i4 = 4321::int8'),
	('SELECT id FROM pbt WHERE i4 = ANY(ARRAY[1, 2, 3, -5]::int2[])'),
	('SELECT id FROM pbt WHERE i4 = 5001'),
	('SELECT id FROM pbt WHERE i8 = 5000015'),
	('SELECT id FROM pbt WHERE i8 = 5000015::int4'),
	('SELECT id FROM pbt WHERE i8 = 3::int2'),
	('SELECT id FROM pbt WHERE i8 = ANY(ARRAY[1000003, 2000006, 7]::int4[])'),
	('SELECT id FROM pbt WHERE o = 3999'),
	('SELECT id FROM pbt WHERE o = ANY(''{1,2,4001}''::oid[])'),
	('SELECT id FROM pbt WHERE t = ''k42'''),
	('SELECT id FROM pbt WHERE t = ANY(''{k1,k2,zz,NULL}'')'),
	('SELECT id FROM pbt WHERE t = ''K42'''),
	('SELECT id FROM pbt WHERE vc = ''v42'''),
	('SELECT id FROM pbt WHERE vc = ''v42''::varchar'),
	('SELECT id FROM pbt WHERE vc = ANY(ARRAY[''v1'', ''v7'']::varchar[])'),
	('SELECT id FROM pbt WHERE bp = ''b42'''),
	('SELECT id FROM pbt WHERE bp = ''b42     '''),
	('SELECT id FROM pbt WHERE bp = ANY(''{b1,b2}''::bpchar[])'),
	('SELECT id FROM pbt WHERE nm = ''n42'''),
	('SELECT id FROM pbt WHERE nm = ''n42''::text'),
	('SELECT id FROM pbt WHERE ba = ''\x783432'''),
	('SELECT id FROM pbt WHERE u = md5(''42'')::uuid'),
	('SELECT id FROM pbt WHERE u = ''00000000-0000-0000-0000-000000000000'''),
	('SELECT id FROM pbt WHERE b = true AND i4 = 4320'),
	('SELECT id FROM pbt WHERE b = false AND i4 = 4320'),
	('SELECT id FROM pbt WHERE ch = ''Q'' AND i2 = 16'),
	('SELECT id FROM pbt WHERE d = date ''2000-01-01'' + 10'),
	('SELECT id FROM pbt WHERE tm = time ''00:01:40'''),
	('SELECT id FROM pbt WHERE ts = timestamp ''2000-01-01 01:40'''),
	('SELECT id FROM pbt WHERE tstz = timestamptz ''2000-01-01 01:40+00'''),
	('SELECT id FROM pbt WHERE tstz = timestamptz ''2000-01-01 02:40+01'''),
	('SELECT id FROM pbt WHERE iv = interval ''1 day'''),
	('SELECT id FROM pbt WHERE iv = interval ''24 hours'''),
	('SELECT id FROM pbt WHERE iv = interval ''1 mon 6 days'''),
	('SELECT id FROM pbt WHERE n = 4.5'),
	('SELECT id FROM pbt WHERE n = 4.50000'),
	('SELECT id FROM pbt WHERE n = ANY(''{0.1,0.20,7}''::numeric[])'),
	('SELECT id FROM pbt WHERE f4 = 2.25'),
	('SELECT id FROM pbt WHERE f4 = 2.25::float8'),
	('SELECT id FROM pbt WHERE f8 = 0.125::float4'),
	('SELECT id FROM pbt WHERE f8 = ANY(''{0.125,0.25,-0}''::float8[])'),
	('SELECT id FROM pbt WHERE f8 = 0.1'),
	('SELECT id FROM pbt WHERE ip = ''10.3.10.10'''),
	('SELECT id FROM pbt WHERE ip = ''10.3.10.10/24'''),
	('SELECT id FROM pbt WHERE mac = ''08:00:2b:01:0a:0a'''),
	('SELECT id FROM pbt WHERE t IS NULL AND i4 IS NULL'),
	('SELECT id FROM pbt WHERE t IS NULL AND i4 = 7'),
	('SELECT id FROM pbt WHERE t IS NOT NULL AND i4 = 7'),
	('SELECT id FROM pbt WHERE i4 = 7 AND i8 = 7000021 AND t = ''k7'''),
	('SELECT id FROM pbt WHERE i4 = 7 AND i8 = 8'),
	('SELECT id FROM pbt WHERE i4 = ANY(''{7,8,9}'') AND i4 = ANY(''{9,10}'')'),
	('SELECT id FROM pbt WHERE i4 = ANY(''{}'')'),
	('SELECT id FROM pbt WHERE i4 = ANY(''{NULL}'')'),
	('SELECT id FROM pbt WHERE mac = ''08:00:2b:01:0a:0a'' AND ip = ''10.3.10.10'' AND f8 = 1.25')
) v(q);

-- many probes through parameterized rescans: index against seqscan counts
CREATE TABLE pbprobe AS SELECT g AS v FROM generate_series(-200, 5200, 3) g;
SET enable_seqscan = off;
SET enable_indexscan = off;
-- (the plan without the "Disabled" marks, which PostgreSQL 18 adds to the disabled seq scan)
CREATE FUNCTION pb_plan_text(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	r record;
	p text := '';
BEGIN
	FOR r IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
		CONTINUE WHEN r."QUERY PLAN" ~ '^\s*Disabled: true$';
		p := p || r."QUERY PLAN" || E'\n';
	END LOOP;
	RETURN p;
END $$;
SELECT pb_plan_text('SELECT sum(c) FROM pbprobe p, LATERAL (SELECT count(*) AS c FROM pbt WHERE pbt.i4 = p.v) s');
CREATE TEMP TABLE via_index AS
SELECT p.v, s.c FROM pbprobe p, LATERAL (SELECT count(*) AS c FROM pbt WHERE pbt.i4 = p.v) s;
-- the same through a parameterized plain index scan (amgettuple, rescanned per probe)
RESET enable_indexscan;
SET enable_bitmapscan = off;
SELECT pb_plan_text('SELECT sum(c) FROM pbprobe p, LATERAL (SELECT count(*) AS c FROM pbt WHERE pbt.i4 = p.v) s');
CREATE TEMP TABLE via_index_scan AS
SELECT p.v, s.c FROM pbprobe p, LATERAL (SELECT count(*) AS c FROM pbt WHERE pbt.i4 = p.v) s;
RESET enable_seqscan;
SET enable_indexscan = off;
SELECT count(*) AS probes, sum(b.c) AS matches,
	count(*) FILTER (WHERE b.c IS DISTINCT FROM (SELECT count(*) FROM pbt WHERE pbt.i4 = b.v)) AS mismatches,
	count(*) FILTER (WHERE x.c IS DISTINCT FROM b.c) AS index_scan_mismatches
FROM via_index b JOIN via_index_scan x USING (v);
RESET enable_bitmapscan;
RESET enable_indexscan;

-- verification and inspection
SELECT pagebloom_verify('pbt_all');
-- the default fpr (0) is derived: with the row map, two false ranges per
-- probe, at most 0.01, so 0.01 on this small table (ranges counted up to the
-- last page with rows: newer servers may add empty pages at the end); the
-- default ranges fill one row map page each
SELECT pages_per_range, signature_bits = signature_blocks * block_bits AS bits_ok, k,
	block_bits, ranges_per_segment, segments,
	abs(target_fpr / least(0.01, 2.0 / ceil((SELECT max((ctid::text::point)[0]) + 1 FROM pbt) / pages_per_range)) - 1) < 0.01 AS target_derived,
	design_fpr <= target_fpr AS design_ok,
	fill_ratio > 0 AND fill_ratio < 1 AS fill_ok
FROM pagebloom_info('pbt_all');
SELECT pagebloom_verify('pbprobe');
\echo :LAST_ERROR_SQLSTATE
CREATE INDEX pbt_btree ON pbt (id);
SELECT pagebloom_verify('pbt_btree');
\echo :LAST_ERROR_SQLSTATE
SELECT * FROM pagebloom_info('pbt_btree');
\echo :LAST_ERROR_SQLSTATE
DROP INDEX pbt_btree;
-- an OID of no relation: 42P01, by each function
SELECT pagebloom_verify(0);
\echo :LAST_ERROR_SQLSTATE
SELECT * FROM pagebloom_info(4000000000::oid::regclass);
\echo :LAST_ERROR_SQLSTATE
SELECT pagebloom_resummarize(0);
\echo :LAST_ERROR_SQLSTATE

-- amvalidate over every operator class, then a broken one
SELECT opc.opcname, opf.opfname, opc.opcdefault, amvalidate(opc.oid)
FROM pg_opclass opc JOIN pg_opfamily opf ON opf.oid = opc.opcfamily
WHERE opc.opcmethod = (SELECT oid FROM pg_am WHERE amname = 'pagebloom')
ORDER BY 2, 1;
SET client_min_messages = info;
CREATE OPERATOR CLASS pb_bad_ops FOR TYPE int4 USING pagebloom AS OPERATOR 1 < (int4, int4);
SELECT amvalidate(oid) FROM pg_opclass WHERE opcname = 'pb_bad_ops';
CREATE OPERATOR FAMILY pb_half_ops USING pagebloom;
CREATE OPERATOR CLASS pb_half2_ops FOR TYPE int2 USING pagebloom FAMILY pb_half_ops AS OPERATOR 1 = (int2, int2);
CREATE OPERATOR CLASS pb_half4_ops FOR TYPE int4 USING pagebloom FAMILY pb_half_ops AS OPERATOR 1 = (int4, int4);
SELECT amvalidate(oid) FROM pg_opclass WHERE opcname = 'pb_half2_ops';
SET client_min_messages = warning;
DROP OPERATOR CLASS pb_bad_ops USING pagebloom;
DROP OPERATOR FAMILY pb_half_ops USING pagebloom;

-- reloptions
CREATE INDEX pbt_bad ON pbt USING pagebloom (i4) WITH (pages_per_range = -1);
\echo :LAST_ERROR_SQLSTATE
CREATE INDEX pbt_bad ON pbt USING pagebloom (i4) WITH (fpr = 0.9);
\echo :LAST_ERROR_SQLSTATE
CREATE INDEX pbt_bad ON pbt USING pagebloom (i4) WITH (fpr = 0.0000001);
\echo :LAST_ERROR_SQLSTATE
CREATE INDEX pbt_bad ON pbt USING pagebloom (i4) WITH (fpr = -1);
\echo :LAST_ERROR_SQLSTATE
CREATE INDEX pbt_bad ON pbt USING pagebloom (i4) WITH (fpr = 2);
\echo :LAST_ERROR_SQLSTATE
ALTER INDEX pbt_all SET (fpr = 0.6);
\echo :LAST_ERROR_SQLSTATE
CREATE INDEX pbt_bad ON pbt USING pagebloom (i4) WITH (fpr = 'inf');
\echo :LAST_ERROR_SQLSTATE
CREATE INDEX pbt_bad ON pbt USING pagebloom (i4) WITH (fpr = '-Infinity');
\echo :LAST_ERROR_SQLSTATE
CREATE INDEX pbt_bad ON pbt USING pagebloom (i4) WITH (block_bits = 100);
\echo :LAST_ERROR_SQLSTATE
CREATE INDEX pbt_bad ON pbt USING pagebloom (i4) WITH (block_bits = 256);
\echo :LAST_ERROR_SQLSTATE
CREATE INDEX pbt_bad ON pbt USING pagebloom (i4) WITH (signature_bits = -1);
\echo :LAST_ERROR_SQLSTATE
CREATE INDEX pbt_bad ON pbt USING pagebloom (i4) WITH (length = 80);
\echo :LAST_ERROR_SQLSTATE
CREATE INDEX pbt_bad ON pbt USING pagebloom (i4) WITH (column_fpr = '0.01,x');
\echo :LAST_ERROR_SQLSTATE
CREATE INDEX pbt_bad ON pbt USING pagebloom (i4) WITH (column_fpr = '0.7');
\echo :LAST_ERROR_SQLSTATE
CREATE INDEX pbt_bad ON pbt USING pagebloom (i4) WITH (column_fpr = '0.01,0.01');
\echo :LAST_ERROR_SQLSTATE
CREATE INDEX pbt_bad ON pbt USING pagebloom (i4) WITH (row_map = maybe);
\echo :LAST_ERROR_SQLSTATE
-- size limit, checked before anything is allocated: 8192 signature blocks
-- (64 MB a segment: 2088960 bits with 255-bit blocks, 1040384 with 127-bit
-- ones, 516096 with 63-bit ones)
CREATE INDEX pbt_bad ON pbt USING pagebloom (i4) WITH (signature_bits = 2100000, block_bits = 127, row_map = off);
\echo :LAST_ERROR_SQLSTATE
CREATE INDEX pbt_bad ON pbt USING pagebloom (i4) WITH (signature_bits = 1040384, block_bits = 127, row_map = off);
SELECT signature_blocks, index_pages FROM pagebloom_info('pbt_bad');
-- ALTER INDEX refuses the pair too, rather than leave it to the next rebuild
ALTER INDEX pbt_bad SET (block_bits = 63);
\echo :LAST_ERROR_SQLSTATE
DROP INDEX pbt_bad;
-- a column_fpr list longer than the index's columns is known only at a
-- build: ALTER INDEX takes it, a rebuild refuses it with the way back
CREATE TABLE pbalter AS SELECT g AS a FROM generate_series(1, 1000) g;
CREATE INDEX pbalter_idx ON pbalter USING pagebloom (a);
ALTER INDEX pbalter_idx SET (column_fpr = '0.1,0.1');
TRUNCATE pbalter;
\echo :LAST_ERROR_SQLSTATE
ALTER INDEX pbalter_idx RESET (column_fpr);
TRUNCATE pbalter;
DROP TABLE pbalter;
-- a target that not even the largest signature meets for the rows of a
-- range: a warning, and the largest signature (so that a REINDEX, VACUUM FULL
-- or CLUSTER of a table that got denser never fails); still no false negatives
CREATE TABLE pbempty (a int, b text);
INSERT INTO pbempty SELECT i, 'b' || i FROM generate_series(1, 2000) i;
CREATE INDEX pbempty_idx ON pbempty USING pagebloom (a, b)
	WITH (pages_per_range = 131072, fpr = 0.000001);
SELECT signature_blocks, k FROM pagebloom_info('pbempty_idx');
SET enable_seqscan = off;
SELECT count(*) FROM pbempty WHERE a = 1234 AND b = 'b1234';
RESET enable_seqscan;
REINDEX INDEX pbempty_idx;
VACUUM FULL pbempty;
DROP INDEX pbempty_idx;
-- per-column targets that the largest signature cannot meet: every column
-- takes the k best for the block (not the largest k, which fills it further)
CREATE INDEX pbempty_mixed ON pbempty USING pagebloom (a, b)
	WITH (pages_per_range = 1200, fpr = 0.01, column_fpr = '0.02,0.005');
SELECT signature_blocks, column_k, design_fpr < 0.5 AS still_selective FROM pagebloom_info('pbempty_mixed');
DROP INDEX pbempty_mixed;
-- an unlogged index sizes its init fork too, without a second warning
CREATE UNLOGGED TABLE pbunlogged AS SELECT * FROM pbempty;
CREATE INDEX pbunlogged_idx ON pbunlogged USING pagebloom (a)
	WITH (pages_per_range = 131072, fpr = 0.000001);
DROP TABLE pbunlogged;
-- a CREATE INDEX CONCURRENTLY that fails before its build writes anything
-- leaves an invalid index with no pages
CREATE INDEX CONCURRENTLY pbempty_idx ON pbempty USING pagebloom (a, b)
	WITH (column_fpr = '0.01,0.01,0.01');
\echo :LAST_ERROR_SQLSTATE
SELECT pg_relation_size('pbempty_idx') AS size, indisvalid FROM pg_index WHERE indexrelid = 'pbempty_idx'::regclass;
SELECT k FROM pagebloom_info('pbempty_idx');
\echo :LAST_ERROR_SQLSTATE
SELECT pagebloom_verify('pbempty_idx');
\echo :LAST_ERROR_SQLSTATE
SELECT pagebloom_resummarize('pbempty_idx');
\echo :LAST_ERROR_SQLSTATE
DROP TABLE pbempty;
-- one that fails in its build (an index expression divides by zero) keeps its metapage:
-- pagebloom_verify refuses it as invalid (its keys are incomplete by design, not corrupted)
CREATE TABLE pbinv (a int);
INSERT INTO pbinv SELECT g FROM generate_series(0, 999) g;
CREATE INDEX CONCURRENTLY pbinv_idx ON pbinv USING pagebloom ((100 / a));
\echo :LAST_ERROR_SQLSTATE
SELECT pg_relation_size('pbinv_idx') > 0 AS has_pages, indisvalid FROM pg_index WHERE indexrelid = 'pbinv_idx'::regclass;
SELECT pagebloom_verify('pbinv_idx');
\echo :LAST_ERROR_SQLSTATE
DROP INDEX pbinv_idx;
CREATE INDEX pbinv_idx ON pbinv USING pagebloom ((100 / nullif(a, 0)));
SELECT pagebloom_verify('pbinv_idx') AS valid_index_verified;
DROP TABLE pbinv;
-- per-column targets: more bits per key where the target is lower
CREATE INDEX pbt_cf ON pbt USING pagebloom (i4, t, i8) WITH (fpr = 0.01, column_fpr = '0.001,,0.05');
SELECT column_k[1] > column_k[2] AND column_k[2] > column_k[3] AS k_ordered,
	column_design_fpr[1] <= 0.001 AND column_design_fpr[2] <= 0.01 AND column_design_fpr[3] <= 0.05 AS targets_met,
	k = column_k[1] AS k_is_max
FROM pagebloom_info('pbt_cf');
SELECT q, pb_compare(q) FROM (VALUES
	('SELECT id FROM pbt WHERE i4 = 4321'),
	('SELECT id FROM pbt WHERE t = ''k4321'' AND i8 = 4321::int8 * 1000003'),
	('SELECT id FROM pbt WHERE i8 = ANY(''{0,1000003,5}'')')
) v(q);
SELECT pagebloom_verify('pbt_cf');
DROP INDEX pbt_cf;
CREATE INDEX pbt_i4 ON pbt USING pagebloom (i4, t) WITH (pages_per_range = 4, fpr = 0.001);
SELECT pages_per_range, k, design_fpr <= 0.001 AS design_ok, target_fpr FROM pagebloom_info('pbt_i4');
ALTER INDEX pbt_i4 SET (signature_bits = 5000, pages_per_range = 2);
-- takes effect at REINDEX
SELECT pages_per_range, signature_bits FROM pagebloom_info('pbt_i4');
REINDEX INDEX pbt_i4;
SELECT pages_per_range, signature_bits, signature_blocks FROM pagebloom_info('pbt_i4');
SELECT pb_compare('SELECT id FROM pbt WHERE i4 = 4321 AND t = ''k4321''');
REINDEX INDEX CONCURRENTLY pbt_i4;
SELECT pagebloom_verify('pbt_i4');
DROP INDEX pbt_i4;
-- ranges of 16 pages (the last one partly past the end of the table)
CREATE INDEX pbt_r16 ON pbt USING pagebloom (i4, nm) WITH (pages_per_range = 16);
SELECT pages_per_range, ranges FROM pagebloom_info('pbt_r16');
SELECT q, pb_compare(q) FROM (VALUES
	('SELECT id FROM pbt WHERE i4 = 4999'),
	('SELECT id FROM pbt WHERE nm = ''n5999'' AND i4 = 4999'),
	('SELECT id FROM pbt WHERE i4 IS NULL'),
	('SELECT id FROM pbt WHERE i4 = ANY(''{0,1,2}'') AND nm IS NOT NULL')
) v(q);
SELECT pagebloom_verify('pbt_r16');
DROP INDEX pbt_r16;

-- expression and partial indexes
CREATE INDEX pbt_expr ON pbt USING pagebloom (lower(t), (i4 % 100)) WHERE id % 2 = 0;
SELECT q, pb_compare(q) FROM (VALUES
	('SELECT id FROM pbt WHERE lower(t) = ''k42'' AND id % 2 = 0'),
	('SELECT id FROM pbt WHERE i4 % 100 = 6 AND lower(t) = ''k106'' AND id % 2 = 0'),
	('SELECT id FROM pbt WHERE lower(t) IS NULL AND id % 2 = 0')
) v(q);
SELECT pagebloom_verify('pbt_expr');
DROP INDEX pbt_expr;

-- re-summarization of TOASTed values and of expression and partial indexes:
-- it detoasts and evaluates expressions under the segment lock, taking the
-- TOAST table's lock (a server built with --enable-cassert asserts if the
-- segment lock is a heavyweight page lock; the packaged server does not)
CREATE TABLE pbtoast (id int, t text) WITH (autovacuum_enabled = off);
ALTER TABLE pbtoast ALTER COLUMN t SET STORAGE EXTERNAL;
INSERT INTO pbtoast SELECT i, repeat(md5(i::text), 100) FROM generate_series(1, 400) i;
CREATE INDEX pbtoast_idx ON pbtoast USING pagebloom (t, id);
CREATE INDEX pbtoast_expr ON pbtoast USING pagebloom (lower(t), (id % 7)) WHERE id % 3 <> 0;
SELECT pg_relation_size(reltoastrelid) > 400 * 3000 AS toasted FROM pg_class WHERE relname = 'pbtoast';
SELECT fill_ratio AS toast_fill0 FROM pagebloom_info('pbtoast_idx') \gset
DELETE FROM pbtoast WHERE id % 4 <> 0;
-- dead rows that still have storage keep their bits (standby snapshots)
SELECT pagebloom_resummarize('pbtoast_idx', 0) AS before_vacuum;
VACUUM (INDEX_CLEANUP off) pbtoast;
SELECT pagebloom_resummarize('pbtoast_idx', 0) > 0 AS rewritten,
	pagebloom_resummarize('pbtoast_expr', 0) > 0 AS expr_rewritten;
SELECT fill_ratio < :toast_fill0 * 0.6 AS fill_dropped FROM pagebloom_info('pbtoast_idx');
SELECT pagebloom_verify('pbtoast_idx'), pagebloom_verify('pbtoast_expr');
SELECT q, pb_compare(q) FROM (VALUES
	('SELECT id FROM pbtoast WHERE t = repeat(md5(''8''), 100)'),
	('SELECT id FROM pbtoast WHERE t = repeat(md5(''7''), 100)'),
	('SELECT id FROM pbtoast WHERE lower(t) = repeat(md5(''16''), 100) AND id % 3 <> 0'),
	('SELECT id FROM pbtoast WHERE lower(t) = repeat(md5(''12''), 100) AND id % 3 <> 0')
) v(q);
DROP TABLE pbtoast;

-- privileges: reading signatures needs SELECT, re-summarizing ownership
CREATE ROLE regress_pb_nobody;
SET ROLE regress_pb_nobody;
SELECT pagebloom_verify('pbt_all');
\echo :LAST_ERROR_SQLSTATE
SELECT k FROM pagebloom_info('pbt_all');
\echo :LAST_ERROR_SQLSTATE
SELECT pagebloom_resummarize('pbt_all');
\echo :LAST_ERROR_SQLSTATE
RESET ROLE;
GRANT SELECT ON pbt TO regress_pb_nobody;
SET ROLE regress_pb_nobody;
SELECT k > 0 AS readable FROM pagebloom_info('pbt_all');
SELECT pagebloom_resummarize('pbt_all');
\echo :LAST_ERROR_SQLSTATE
RESET ROLE;
REVOKE SELECT ON pbt FROM regress_pb_nobody;
DROP ROLE regress_pb_nobody;

-- nondeterministic collations are refused
CREATE COLLATION pb_ci (provider = icu, locale = 'und-u-ks-level2', deterministic = false);
CREATE INDEX pbt_ci ON pbt USING pagebloom ((t COLLATE pb_ci));
\echo :LAST_ERROR_SQLSTATE
DROP COLLATION pb_ci;

-- an index on an empty table, filled afterwards, and CREATE INDEX CONCURRENTLY
CREATE TABLE pbe (a int, b text);
CREATE INDEX pbe_ab ON pbe USING pagebloom (a, b);
INSERT INTO pbe SELECT i % 1000, 'e' || i FROM generate_series(1, 20000) i;
UPDATE pbe SET b = b || '!' WHERE a = 5;
UPDATE pbe SET a = -a WHERE a = 6;
DELETE FROM pbe WHERE a = 7;
SELECT pagebloom_verify('pbe_ab');
SELECT q, pb_compare(q) FROM (VALUES
	('SELECT * FROM pbe WHERE a = 5'),
	('SELECT * FROM pbe WHERE b = ''e5005!'''),
	('SELECT * FROM pbe WHERE a = -6'),
	('SELECT * FROM pbe WHERE a = 6'),
	('SELECT * FROM pbe WHERE a = 7'),
	('SELECT * FROM pbe WHERE a = ANY(''{5,-6,7,8}'')')
) v(q);
DROP INDEX pbe_ab;
CREATE INDEX CONCURRENTLY pbe_ab ON pbe USING pagebloom (a, b);
SELECT pagebloom_verify('pbe_ab');
SELECT pb_compare('SELECT * FROM pbe WHERE a = ANY(''{5,-6,7,8}'') AND b IS NOT NULL');

-- unlogged table
CREATE UNLOGGED TABLE pbu (a int, b text);
INSERT INTO pbu SELECT i % 500, 'u' || i FROM generate_series(1, 10000) i;
CREATE INDEX pbu_ab ON pbu USING pagebloom (a, b);
INSERT INTO pbu SELECT i % 500, 'u' || i FROM generate_series(10001, 15000) i;
SELECT pagebloom_verify('pbu_ab');
SELECT pb_compare('SELECT * FROM pbu WHERE a = 42');
SELECT pb_compare('SELECT * FROM pbu WHERE b = ''u14999''');

-- partitioned table: one index per partition
CREATE TABLE pbp (a int, b text) PARTITION BY RANGE (a);
CREATE TABLE pbp1 PARTITION OF pbp FOR VALUES FROM (0) TO (500);
CREATE TABLE pbp2 PARTITION OF pbp FOR VALUES FROM (500) TO (1000);
INSERT INTO pbp SELECT i % 1000, 'p' || i FROM generate_series(1, 20000) i;
CREATE INDEX pbp_ab ON pbp USING pagebloom (a, b);
CREATE TABLE pbp3 PARTITION OF pbp FOR VALUES FROM (1000) TO (2000);
INSERT INTO pbp SELECT 1000 + i % 1000, 'p' || i FROM generate_series(1, 5000) i;
SELECT c.relname, pagebloom_verify(c.oid)
FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
WHERE i.inhparent = 'pbp_ab'::regclass ORDER BY 1;
SELECT pb_compare('SELECT * FROM pbp WHERE b = ''p777''');
SELECT pb_compare('SELECT * FROM pbp WHERE a = ANY(''{1,501,1001}'')');
SELECT pagebloom_info('pbp_ab');
\echo :LAST_ERROR_SQLSTATE

-- the row map: a fingerprint per row and column, for the line pointers up to
-- its slots; a heap page with rows past them is added whole (pages_per_range
-- 24 leaves 168 slots per heap page: these pages hold about 226 rows, so every
-- page of a candidate range is lossy), and the answers stay right; 64 would
-- leave 63, under half the rows (285 expected from the width of this small
-- table): no row map then
CREATE TABLE pbrow (a int, b int);
INSERT INTO pbrow SELECT i, i % 1000 FROM generate_series(1, 20000) i;
CREATE INDEX pbrow_idx ON pbrow USING pagebloom (a, b) WITH (pages_per_range = 64);
SELECT pages_per_range, row_slots, row_map_pages FROM pagebloom_info('pbrow_idx');
DROP INDEX pbrow_idx;
CREATE INDEX pbrow_idx ON pbrow USING pagebloom (a, b) WITH (pages_per_range = 24);
SELECT pages_per_range, row_slots, row_map_pages, pagebloom_verify('pbrow_idx') FROM pagebloom_info('pbrow_idx');
SELECT q, pb_compare(q) FROM (VALUES
	('SELECT * FROM pbrow WHERE a = 5'),
	('SELECT * FROM pbrow WHERE a = 19999'),
	('SELECT * FROM pbrow WHERE b = 999'),
	('SELECT * FROM pbrow WHERE a = ANY(''{1,100,150,20000,777777}'')')
) v(q);
CREATE FUNCTION pb_heap_blocks(q text) RETURNS text LANGUAGE plpgsql
SET enable_seqscan = off SET enable_indexscan = off AS $$
DECLARE
	plan json;
BEGIN
	EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, FORMAT JSON) ' || q INTO plan;
	RETURN 'exact ' || coalesce(plan -> 0 -> 'Plan' ->> 'Exact Heap Blocks', '0') ||
		', lossy ' || coalesce(plan -> 0 -> 'Plan' ->> 'Lossy Heap Blocks', '0') ||
		', rows removed ' || coalesce(plan -> 0 -> 'Plan' ->> 'Rows Removed by Index Recheck', '0');
END $$;
-- every heap page of the candidate range (24) whole; in the last range, all
-- but the last heap page, partly filled, whose rows are within the slots
SELECT pb_heap_blocks('SELECT * FROM pbrow WHERE a = 5') AS within_slots,
	pb_heap_blocks('SELECT * FROM pbrow WHERE a = 19999') AS past_slots;
DROP INDEX pbrow_idx;
-- the default: every row within the slots, exact rows only
CREATE INDEX pbrow_idx ON pbrow USING pagebloom (a, b);
SELECT pages_per_range, row_slots >= 226 AS all_rows_have_slots, row_map_pages FROM pagebloom_info('pbrow_idx');
SELECT pb_heap_blocks('SELECT * FROM pbrow WHERE a = 19999') AS default_slots,
	pb_heap_blocks('SELECT * FROM pbrow WHERE b = 999') AS twenty_rows;
-- HOT updates keep the index entry of the chain's root; pruning turns the
-- root into a redirect; a non-HOT update adds the new version's row
UPDATE pbrow SET b = b WHERE a <= 100;
VACUUM pbrow;
UPDATE pbrow SET a = a + 1000000 WHERE a BETWEEN 50 AND 60;
SELECT q, pb_compare(q) FROM (VALUES
	('SELECT * FROM pbrow WHERE a = 10'),
	('SELECT * FROM pbrow WHERE a = 55'),
	('SELECT * FROM pbrow WHERE a = 1000055'),
	('SELECT * FROM pbrow WHERE b = 10')
) v(q);
SELECT pagebloom_verify('pbrow_idx');
-- two keys of which the first (fewest values, ties in index order) matches
-- half the rows: the second key's row map keeps only the rows matching both
CREATE TABLE pbhalf (k int, id int);
INSERT INTO pbhalf SELECT g % 2, g FROM generate_series(1, 50000) g;
CREATE INDEX pbhalf_idx ON pbhalf USING pagebloom (k, id);
SELECT pb_compare('SELECT * FROM pbhalf WHERE k = 0 AND id = 5000') AS both_keys,
	pb_heap_blocks('SELECT * FROM pbhalf WHERE k = 0 AND id = 5000') AS rows_of_both;
-- a table of 300 pages or more whose sampled pages hold no row (all deleted,
-- not truncated): the row map's slots come from the tuple width
CREATE TABLE pbgone (a int, b int) WITH (vacuum_truncate = false);
INSERT INTO pbgone SELECT g, g FROM generate_series(1, 80000) g;
DELETE FROM pbgone;
VACUUM pbgone;
CREATE INDEX pbgone_idx ON pbgone USING pagebloom (a, b);
INSERT INTO pbgone VALUES (7, 8);
SELECT pages_per_range > 1 AS row_map_ranges, pagebloom_verify('pbgone_idx') AS verified,
	pb_compare('SELECT * FROM pbgone WHERE a = 7') AS found
FROM pagebloom_info('pbgone_idx');
DROP TABLE pbhalf, pbgone;
-- a build holds a segment's row map in memory: at most 8192 pages (64 MB),
-- so 32 columns take at most 256 ranges per segment (255-bit blocks or larger)
CREATE TABLE pbwide32 AS SELECT g AS c1, g AS c2, g AS c3, g AS c4, g AS c5, g AS c6, g AS c7, g AS c8,
	g AS c9, g AS c10, g AS c11, g AS c12, g AS c13, g AS c14, g AS c15, g AS c16, g AS c17, g AS c18,
	g AS c19, g AS c20, g AS c21, g AS c22, g AS c23, g AS c24, g AS c25, g AS c26, g AS c27, g AS c28,
	g AS c29, g AS c30, g AS c31, g AS c32 FROM generate_series(1, 1000) g;
CREATE INDEX pbwide32_idx ON pbwide32 USING pagebloom (c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11, c12,
	c13, c14, c15, c16, c17, c18, c19, c20, c21, c22, c23, c24, c25, c26, c27, c28, c29, c30, c31, c32)
	WITH (block_bits = 63);
\echo :LAST_ERROR_SQLSTATE
CREATE INDEX pbwide32_idx ON pbwide32 USING pagebloom (c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11, c12,
	c13, c14, c15, c16, c17, c18, c19, c20, c21, c22, c23, c24, c25, c26, c27, c28, c29, c30, c31, c32);
SELECT ranges_per_segment <= 256 AS bounded, pagebloom_verify('pbwide32_idx') FROM pagebloom_info('pbwide32_idx');
-- a build-time option error names ALTER INDEX only for an index that outlives
-- it: not above (the failed CREATE INDEX leaves no index), but for a REINDEX
ALTER INDEX pbwide32_idx SET (block_bits = 63);
REINDEX INDEX pbwide32_idx;
\echo :LAST_ERROR_SQLSTATE
ALTER INDEX pbwide32_idx RESET (block_bits);
-- inserts of rows whose 32 values differ set 64 pages each (32 slice and 32
-- row map pages, sorted by block before locking): each value is found again
INSERT INTO pbwide32 SELECT g * 32 + 1, g * 32 + 2, g * 32 + 3, g * 32 + 4, g * 32 + 5, g * 32 + 6, g * 32 + 7,
	g * 32 + 8, g * 32 + 9, g * 32 + 10, g * 32 + 11, g * 32 + 12, g * 32 + 13, g * 32 + 14, g * 32 + 15,
	g * 32 + 16, g * 32 + 17, g * 32 + 18, g * 32 + 19, g * 32 + 20, g * 32 + 21, g * 32 + 22, g * 32 + 23,
	g * 32 + 24, g * 32 + 25, g * 32 + 26, g * 32 + 27, g * 32 + 28, g * 32 + 29, g * 32 + 30, g * 32 + 31,
	g * 32 + 32 FROM generate_series(1001, 1300) g;
SET enable_seqscan = off;
SELECT pagebloom_verify('pbwide32_idx') AS verified,
	(SELECT count(*) FROM pbwide32 WHERE c1 = 1001 * 32 + 1) AS c1_found,
	(SELECT count(*) FROM pbwide32 WHERE c17 = 1150 * 32 + 17) AS c17_found,
	(SELECT count(*) FROM pbwide32 WHERE c32 = 1300 * 32 + 32) AS c32_found,
	(SELECT count(*) FROM pbwide32 WHERE c9 = 1200 * 32 + 10) AS c9_absent;
RESET enable_seqscan;
DROP TABLE pbwide32;
-- row_map = off: whole heap pages, one heap page per range
CREATE INDEX pbrow_lossy ON pbrow USING pagebloom (a, b) WITH (row_map = off);
DROP INDEX pbrow_idx;
SELECT pages_per_range FROM pagebloom_info('pbrow_lossy');
SELECT pb_heap_blocks('SELECT * FROM pbrow WHERE a = 19999') AS without_row_map;
DROP TABLE pbrow;
DROP FUNCTION pb_heap_blocks(text);

-- the storage format: the slice and row map pages of a fixed index (page
-- headers, which hold the LSN, left out) must not change for a given format
-- version; first without a row map (the version 2 layout), then with one
CREATE EXTENSION pageinspect;
CREATE TABLE pbfmt (a int, t text, f float8);
INSERT INTO pbfmt SELECT i, 'v' || i, CASE WHEN i % 10 = 0 THEN NULL ELSE i / 4.0 END
FROM generate_series(1, 3000) i;
CREATE INDEX pbfmt_idx ON pbfmt USING pagebloom (a, t, f)
	WITH (signature_bits = 6300, pages_per_range = 1, block_bits = 63, row_map = off);
SELECT signature_blocks, k, segments, index_pages FROM pagebloom_info('pbfmt_idx');
SELECT md5(string_agg(substring(get_raw_page('pbfmt_idx', b) FROM 25), ''::bytea ORDER BY b))
FROM generate_series(1, (pg_relation_size('pbfmt_idx') / 8192)::int - 1) b;
DROP INDEX pbfmt_idx;
CREATE INDEX pbfmt_idx ON pbfmt USING pagebloom (a, t, f)
	WITH (signature_bits = 6300, pages_per_range = 4, block_bits = 255);
SELECT signature_blocks, k, segments, index_pages FROM pagebloom_info('pbfmt_idx');
SELECT md5(string_agg(substring(get_raw_page('pbfmt_idx', b) FROM 25), ''::bytea ORDER BY b))
FROM generate_series(1, (pg_relation_size('pbfmt_idx') / 8192)::int - 1) b;
-- TRUNCATE rebuilds the index with no rows to measure (its design then comes from the
-- column widths); inserts after it give pages of their own, equally pinned, holding every key
TRUNCATE pbfmt;
INSERT INTO pbfmt SELECT i, 'v' || i, CASE WHEN i % 10 = 0 THEN NULL ELSE i / 4.0 END
FROM generate_series(1, 3000) i;
SELECT md5(string_agg(substring(get_raw_page('pbfmt_idx', b) FROM 25), ''::bytea ORDER BY b))
FROM generate_series(1, (pg_relation_size('pbfmt_idx') / 8192)::int - 1) b;
SELECT signature_blocks, k, pagebloom_verify('pbfmt_idx') AS keys_verified FROM pagebloom_info('pbfmt_idx');
-- the build measures the rows per page itself, so the same rows give the same design with or
-- without statistics (an index rebuilt right after pg_restore gets the original's design)
REINDEX INDEX pbfmt_idx;
SELECT signature_blocks, k FROM pagebloom_info('pbfmt_idx');
ANALYZE pbfmt;
REINDEX INDEX pbfmt_idx;
SELECT signature_blocks, k FROM pagebloom_info('pbfmt_idx');
DROP TABLE pbfmt;
DROP EXTENSION pageinspect;

-- no index-only scans: count(*) with no WHERE clause needs no column, so the
-- planner could offer one; pagebloom prices it out (its candidate rows need
-- the heap), also with sequential and bitmap scans disabled (where, on 18,
-- the index-only scan would be the one path not disabled unless pagebloom
-- disables it; on 15 - 17 its cost exceeds a disabled sequential scan's)
CREATE TABLE pbios (a int, b int);
INSERT INTO pbios SELECT g, g FROM generate_series(1, 50000) g;
CREATE INDEX pbios_pb ON pbios USING pagebloom (a);
DELETE FROM pbios WHERE a % 10 = 0;
VACUUM ANALYZE pbios;
SELECT pb_plan_text('SELECT count(*) FROM pbios');
SELECT count(*) FROM pbios;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SELECT pb_plan_text('SELECT count(*) FROM pbios');
SELECT count(*) FROM pbios;
RESET enable_bitmapscan;
SELECT pb_plan_text('SELECT count(*) FROM pbios WHERE a = 5');
SELECT count(*) FROM pbios WHERE a = 5;
-- a partial index whose predicate implies the query needs no column either:
-- its bitmap scan keeps its cost (only plain index scans are priced out)
CREATE INDEX pbios_part ON pbios USING pagebloom (a) WHERE b % 100 = 7;
SELECT pb_plan_text('SELECT count(*) FROM pbios WHERE b % 100 = 7');
SELECT count(*) FROM pbios WHERE b % 100 = 7;
RESET enable_seqscan;
DROP TABLE pbios;

-- index scans (amgettuple) make exclusion constraints possible: equality on
-- any column combination enforced without a B-tree.  Every duplicate of 20k
-- distinct rows is refused, no distinct row is, including rows whose line
-- pointers reuse vacuumed ones and keys equal to a deleted row's
CREATE TABLE pbx (a int, b text, EXCLUDE USING pagebloom (a WITH =, b WITH =));
-- one statement checks 20000 rows, each through a scan begun and ended: the
-- backend's peak memory must not grow with them (it did by 40 kB a row)
CREATE FUNCTION pb_peak_kb() RETURNS bigint LANGUAGE sql AS $$
	SELECT (regexp_match(pg_read_file('/proc/' || pg_backend_pid() || '/status'), 'VmHWM:\s+(\d+)'))[1]::bigint
$$;
SELECT pb_peak_kb() AS peak_before \gset
INSERT INTO pbx SELECT g, 'b' || (g % 7) FROM generate_series(1, 20000) g;
SELECT pb_peak_kb() - :peak_before < 65536 AS peak_memory_grew_less_than_64mb;
INSERT INTO pbx VALUES (5, 'b5');
INSERT INTO pbx VALUES (5, 'b6'), (20001, 'b5');
CREATE FUNCTION pbx_refused(lo int, hi int) RETURNS int LANGUAGE plpgsql AS $$
DECLARE
	n int := 0;
BEGIN
	FOR g IN lo..hi LOOP
		BEGIN
			INSERT INTO pbx VALUES (g, 'b' || (g % 7));
		EXCEPTION WHEN exclusion_violation THEN
			n := n + 1;
		END;
	END LOOP;
	RETURN n;
END $$;
SELECT pbx_refused(1, 20000) AS refused_of_20000;
DELETE FROM pbx WHERE a % 3 = 0;
VACUUM pbx;
SELECT pbx_refused(1, 20000) AS refused_after_deleting_a_third;
SELECT count(*) AS rows, count(DISTINCT (a, b)) AS distinct_rows FROM pbx;
DROP TABLE pbx;
DROP FUNCTION pbx_refused(int, int), pb_peak_kb();
-- partial exclusion constraints are refused: the check would not recheck the
-- predicate on the rows outside it that the index may name
CREATE TABLE pbxp (a int, active bool, EXCLUDE USING pagebloom (a WITH =) WHERE (active));
CREATE TABLE pbxp (a int, active bool);
ALTER TABLE pbxp ADD EXCLUDE USING pagebloom (a WITH =) WHERE (active);
DROP TABLE pbxp;

-- buffer hints (PbReadIndexBuffer): a scan pins the buffer this session last
-- read an index block into without a lookup, after checking that the buffer
-- still holds that block of that relation.  Hints taken before the relation
-- got new files (TRUNCATE, REINDEX) or before its buffers were reused must
-- not be trusted: probes for the new rows find every one of them.  (A buffer
-- reused for another page fails the same check.)
CREATE TABLE pbh (a int, b int);
INSERT INTO pbh SELECT g, g % 1000 FROM generate_series(1, 50000) g;
CREATE INDEX pbh_idx ON pbh USING pagebloom (a, b);
SET enable_seqscan = off;
SELECT count(*) AS found_before FROM pbh WHERE a IN (7, 777, 7777, 49999);
TRUNCATE pbh;
INSERT INTO pbh SELECT g + 100000, g % 1000 FROM generate_series(1, 50000) g;
SELECT count(*) AS old_keys_after_truncate FROM pbh WHERE a IN (7, 777, 7777, 49999);
SELECT count(*) AS new_keys_found, count(*) FILTER (WHERE b = a % 100000 % 1000) AS right_rows
FROM pbh WHERE a IN (SELECT g + 100000 FROM generate_series(1, 50000, 97) g);
REINDEX INDEX pbh_idx;
SELECT count(*) AS found_after_reindex FROM pbh WHERE a IN (SELECT g + 100000 FROM generate_series(1, 50000, 97) g);
-- every key, one probe each (a hint per index block read)
SELECT count(*) FILTER (WHERE (SELECT count(*) FROM pbh WHERE a = k) <> 1) AS keys_not_found_once
FROM generate_series(100001, 150000, 13) k;
-- hinted pins count in pg_statio as ReadBuffer's do (a fetch and a hit), so
-- the reads (fetches less hits) never go negative
SELECT pg_stat_force_next_flush();
SELECT idx_blks_read >= 0 AS reads_not_negative, idx_blks_hit >= 3800 AS hits_counted
FROM pg_statio_user_indexes WHERE indexrelname = 'pbh_idx';
-- and as hits in pg_stat_io (16+; 0 on 15): probes of absent keys read index
-- pages only, so this backend's relation hits grow by at least the index's
-- (7 of 8 of them hinted pins, which ReadBuffer would have counted there)
CREATE FUNCTION pbh_io_hits() RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
	n bigint;
BEGIN
	IF current_setting('server_version_num')::int < 160000 THEN
		RETURN 0;
	END IF;
	EXECUTE $q$SELECT sum(hits) FROM pg_stat_io
		WHERE backend_type = 'client backend' AND object = 'relation' AND context = 'normal'$q$ INTO n;
	RETURN n;
END $$;
CREATE TEMP TABLE pbh_before AS SELECT pbh_io_hits() AS io,
	(SELECT idx_blks_hit FROM pg_statio_user_indexes WHERE indexrelname = 'pbh_idx') AS idx;
SELECT count(*) AS absent_found FROM generate_series(1, 3000) k WHERE EXISTS (SELECT 1 FROM pbh WHERE a = -k);
SELECT pg_stat_force_next_flush();
SELECT (SELECT idx_blks_hit FROM pg_statio_user_indexes WHERE indexrelname = 'pbh_idx') - idx >= 3000 AS index_hits,
	pbh_io_hits() = 0 OR pbh_io_hits() - io >=
	(SELECT idx_blks_hit FROM pg_statio_user_indexes WHERE indexrelname = 'pbh_idx') - idx AS io_hits_include_them
FROM pbh_before;
DROP FUNCTION pbh_io_hits();
RESET enable_seqscan;
-- a temporary index (local buffers) takes no hints
CREATE TEMP TABLE pbht AS SELECT * FROM pbh;
CREATE INDEX ON pbht USING pagebloom (a, b);
SET enable_seqscan = off;
SELECT count(*) FILTER (WHERE (SELECT count(*) FROM pbht WHERE a = k) <> 1) AS temp_keys_not_found_once
FROM generate_series(100001, 150000, 13) k;
RESET enable_seqscan;
DROP TABLE pbh, pbht;

DROP TABLE pbt, pbprobe, pbe, pbu, pbp;
DROP FUNCTION pb_compare(text);
DROP FUNCTION pb_plan_text(text);
