-- pagebloom on columns whose type borrows another type's operator class
-- (regclass uses oid_ops, cidr uses inet_ops): index scans agree with sequential scans
CREATE SCHEMA pagebloom_coerced_test;
SET search_path = pagebloom_coerced_test, public;

CREATE TABLE r AS SELECT c.oid::regclass AS c FROM pg_class c ORDER BY c.oid LIMIT 300;
CREATE INDEX r_pb ON r USING pagebloom (c);
CREATE TABLE ci AS SELECT ('10.' || (g % 200) || '.0.0/16')::cidr AS c FROM generate_series(1, 3000) g;
CREATE INDEX ci_pb ON ci USING pagebloom (c);
ANALYZE r, ci;

-- the same counts through bitmap scans, index scans (amgettuple), sequential
-- scans (STABLE: inlined, so planned under each caller's settings)
CREATE FUNCTION coerced_counts() RETURNS TABLE (regclass_eq bigint, regclass_any bigint, cidr_eq bigint,
	cidr_inet bigint) LANGUAGE sql STABLE AS $$
	SELECT (SELECT count(*) FROM r WHERE c = 'pg_class'::regclass),
		(SELECT count(*) FROM r WHERE c = ANY (ARRAY['pg_class', 'pg_type']::regclass[])),
		(SELECT count(*) FROM ci WHERE c = '10.5.0.0/16'),
		(SELECT count(*) FROM ci WHERE c = '10.5.0.0/16'::inet)
$$;
SET enable_seqscan = off;
SET enable_indexscan = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM r WHERE c = 'pg_class'::regclass;
CREATE TABLE idx AS SELECT * FROM coerced_counts();
RESET enable_indexscan;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM ci WHERE c = '10.5.0.0/16'::inet;
CREATE TABLE idxs AS SELECT * FROM coerced_counts();
RESET enable_seqscan;
SET enable_indexscan = off;
CREATE TABLE seq AS SELECT * FROM coerced_counts();
RESET enable_bitmapscan;
RESET enable_indexscan;
SELECT i.*, (i.*) = (s.*) AS index_equals_seqscan, (x.*) = (s.*) AS index_scan_equals_seqscan
FROM idx i, idxs x, seq s;
SELECT pagebloom_verify('r_pb') > 0 AS r_verified, pagebloom_verify('ci_pb') > 0 AS ci_verified;
