-- A column whose type is only binary-coercible to its operator class's type is
-- keyed by the operator class's type, whose = the index answers: a citext
-- column takes text_ops by default (citext hashes lower-cased, text = text
-- compares bytes), text and varchar columns accept bpchar_ops (bpchar = ignores
-- trailing spaces), int4 columns oid_ops (negative numbers are large oids)
CREATE SCHEMA pagebloom_keytype_test;
SET search_path = pagebloom_keytype_test, public;
CREATE EXTENSION citext SCHEMA pagebloom_keytype_test;
CREATE TABLE kt (c citext, t text, v varchar, i int4);
INSERT INTO kt SELECT CASE WHEN (g / 100) % 2 = 0 THEN 'Abc' ELSE 'abc' END || (g % 100),
	'x' || (g % 50) || repeat(' ', g % 3), 'x' || (g % 50) || repeat(' ', g % 3), (g % 50) - 25
FROM generate_series(1, 5000) g;
CREATE INDEX kt_c ON kt USING pagebloom (c);
CREATE INDEX kt_t ON kt USING pagebloom (t bpchar_ops);
CREATE INDEX kt_v ON kt USING pagebloom (v bpchar_ops);
CREATE INDEX kt_i ON kt USING pagebloom (i oid_ops);
SELECT opcname FROM pg_index i JOIN pg_opclass o ON o.oid = i.indclass[0] WHERE indexrelid = 'kt_c'::regclass;
ANALYZE kt;
CREATE FUNCTION kt_counts() RETURNS TABLE (c_text bigint, c_any bigint, t_bpchar bigint, v_bpchar bigint,
	i_oid bigint) LANGUAGE sql STABLE AS $$
	SELECT (SELECT count(*) FROM kt WHERE c = 'Abc5'::text),
		(SELECT count(*) FROM kt WHERE c = ANY (ARRAY['Abc5', 'abc6']::text[])),
		(SELECT count(*) FROM kt WHERE t::bpchar = 'x5'::bpchar),
		(SELECT count(*) FROM kt WHERE v::bpchar = 'x5 '::bpchar),
		(SELECT count(*) FROM kt WHERE i::oid = 4294967290::oid)
$$;
SET enable_seqscan = off;
SET enable_indexscan = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM kt WHERE c = 'Abc5'::text;
EXPLAIN (COSTS OFF) SELECT count(*) FROM kt WHERE t::bpchar = 'x5'::bpchar;
EXPLAIN (COSTS OFF) SELECT count(*) FROM kt WHERE i::oid = 4294967290::oid;
CREATE TABLE bitmap AS SELECT * FROM kt_counts();
RESET enable_indexscan;
SET enable_bitmapscan = off;
CREATE TABLE idx AS SELECT * FROM kt_counts();
RESET enable_seqscan;
SET enable_indexscan = off;
CREATE TABLE seq AS SELECT * FROM kt_counts();
RESET enable_bitmapscan;
RESET enable_indexscan;
SELECT s.*, (b.*) = (s.*) AS bitmap_equals_seqscan, (x.*) = (s.*) AS index_scan_equals_seqscan
FROM bitmap b, idx x, seq s;
SELECT pagebloom_verify('kt_c') AS c_rows, pagebloom_verify('kt_t') AS t_rows, pagebloom_verify('kt_i') AS i_rows;
-- text -> citext changes no stored value: the index is kept (the same file)
-- and must go on hashing as text_ops does
CREATE TABLE kt2 (c text);
INSERT INTO kt2 SELECT CASE WHEN (g / 100) % 2 = 0 THEN 'Abc' ELSE 'abc' END || (g % 100) FROM generate_series(1, 5000) g;
CREATE INDEX kt2_c ON kt2 USING pagebloom (c);
CREATE TABLE kt2_file AS SELECT relfilenode FROM pg_class WHERE relname = 'kt2_c';
ALTER TABLE kt2 ALTER COLUMN c TYPE citext;
SELECT relfilenode = (SELECT relfilenode FROM kt2_file) AS index_kept FROM pg_class WHERE relname = 'kt2_c';
INSERT INTO kt2 VALUES ('ABC5');
SET enable_seqscan = off;
SELECT count(*) AS abc5_bitmap FROM kt2 WHERE c = 'Abc5'::text;
SET enable_bitmapscan = off;
SELECT count(*) AS abc5_index FROM kt2 WHERE c = ANY (ARRAY['Abc5', 'ABC5']::text[]);
RESET enable_seqscan;
RESET enable_bitmapscan;
SELECT pagebloom_verify('kt2_c') AS kt2_rows;
DROP SCHEMA pagebloom_keytype_test CASCADE;
