-- pagebloom re-summarization with deleted rows that are removable but not yet pruned:
-- it must neither read them (their TOAST chunks may be gone; an index expression may
-- fail on them) nor drop their ranges' bits before pruning (standbys)
CREATE SCHEMA pagebloom_dead_rows_test;
SET search_path = pagebloom_dead_rows_test, public;

-- out-of-line values whose TOAST chunks are vacuumed away before the heap is
CREATE TABLE tt (id int, t text);
ALTER TABLE tt ALTER t SET STORAGE EXTERNAL;
ALTER TABLE tt SET (autovacuum_enabled = off);
INSERT INTO tt SELECT g, g || repeat(md5(g::text), 200) FROM generate_series(1, 2000) g;
CREATE INDEX tt_pb ON tt USING pagebloom (t);
DELETE FROM tt WHERE id % 2 = 0;
SELECT reltoastrelid::regclass AS toast FROM pg_class WHERE oid = 'tt'::regclass \gset
VACUUM :toast;
SELECT pagebloom_resummarize('tt_pb', 0.0) >= 0 AS resummarized;
SELECT pagebloom_verify('tt_pb') AS verified;
SET enable_seqscan = off;
SELECT count(*) AS found_by_index FROM tt WHERE t = '1' || repeat(md5('1'), 200);
RESET enable_seqscan;
-- after VACUUM prunes them, the ranges may be re-summarized
VACUUM tt;
SELECT pagebloom_resummarize('tt_pb', 0.0) > 0 AS rewritten_after_vacuum;
SELECT pagebloom_verify('tt_pb') AS verified;

-- an index expression that fails on rows the index never held (deleted before CREATE INDEX)
CREATE TABLE tz (x int) WITH (autovacuum_enabled = off);
INSERT INTO tz SELECT g % 10 FROM generate_series(1, 1000) g;
DELETE FROM tz WHERE x = 0;
-- the deleted rows are dead (not evaluated by the build) only once no other backend's snapshot
-- (an autovacuum worker's, say) is older than the DELETE: wait for that, as a B-tree build would need too
DO $$
BEGIN
	FOR i IN 1..600 LOOP
		EXIT WHEN NOT EXISTS (SELECT FROM pg_stat_activity WHERE backend_xmin IS NOT NULL AND pid <> pg_backend_pid());
		PERFORM pg_sleep(0.05);
		PERFORM pg_stat_clear_snapshot();
	END LOOP;
END $$;
CREATE INDEX tz_pb ON tz USING pagebloom ((100 / x));
SELECT pagebloom_resummarize('tz_pb', 0.0) >= 0 AS resummarized;
SET enable_seqscan = off;
SELECT count(*) AS found_by_index FROM tz WHERE 100 / x = 50;
RESET enable_seqscan;
SELECT count(*) AS found_by_seqscan FROM tz WHERE 100 / x = 50;

-- an older HOT chain member that CREATE INDEX did not evaluate (the update and the build in one
-- transaction): re-summarization must not evaluate an index expression or predicate on it either
CREATE TABLE th (id int, a int) WITH (autovacuum_enabled = off);
INSERT INTO th SELECT g, CASE WHEN g = 5 THEN 0 ELSE g END FROM generate_series(1, 100) g;
BEGIN;
UPDATE th SET a = 7 WHERE id = 5;
CREATE INDEX th_e ON th USING pagebloom ((100 / a));
CREATE INDEX th_p ON th USING pagebloom (id) WHERE 100 / a > 0;
SELECT pagebloom_resummarize('th_e', 0.0) >= 0 AS resummarized;
SELECT pagebloom_resummarize('th_p', 0.0) >= 0 AS resummarized;
COMMIT;
VACUUM th;
SELECT pagebloom_verify('th_e') AS verified_e, pagebloom_verify('th_p') AS verified_p;
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT id FROM th WHERE id = 5 AND 100 / a > 0;
SELECT id FROM th WHERE id = 5 AND 100 / a > 0;
DROP INDEX th_p;
EXPLAIN (COSTS OFF) SELECT id FROM th WHERE 100 / a = 14;
SELECT id FROM th WHERE 100 / a = 14 ORDER BY id;
RESET enable_seqscan;

-- an invalid index (as a failed CREATE INDEX CONCURRENTLY leaves one) may lack rows inserted while
-- it was not ready, on which its expression was never evaluated: VACUUM and the function leave it
CREATE TABLE ti (x int) WITH (autovacuum_enabled = off);
INSERT INTO ti SELECT g FROM generate_series(1, 1000) g;
CREATE INDEX ti_e ON ti USING pagebloom ((100 / x));
UPDATE pg_index SET indisready = false WHERE indexrelid = 'ti_e'::regclass;
INSERT INTO ti VALUES (0);
UPDATE pg_index SET indisready = true, indisvalid = false WHERE indexrelid = 'ti_e'::regclass;
DELETE FROM ti WHERE x > 10;
VACUUM ti;
SELECT pagebloom_resummarize('ti_e', 0.0) AS rewritten_invalid;
DROP TABLE ti;
