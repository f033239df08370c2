-- pagebloom with relcache invalidations inside its hashers: a detoast or a catalog
-- lookup takes a lock, which processes pending invalidations (all of them after a
-- sinval queue overflow), and that frees the index's cached state.  Test builds
-- simulate one every Nth key hashed and zero the freed state's memory
-- (bloomfilter.debug_discard_state); inserts, build, re-summarization and
-- verification must not read it afterwards.
CREATE SCHEMA pagebloom_inval_test;
SET search_path = pagebloom_inval_test, public;
-- the setting exists once the library is loaded, in test builds only: set through
-- pg_settings, so that a release build (make installcheck) runs the rest too; it
-- shows 0 settings there (expected/pagebloom_inval_1.out)
LOAD 'bloomfilter';
SELECT count(set_config(name, '37', false)) AS settings_set FROM pg_settings
WHERE name = 'bloomfilter.debug_discard_state';
CREATE TABLE ti (id int, t text, n numeric) WITH (autovacuum_enabled = off);
INSERT INTO ti SELECT g, md5(g::text), g % 97 FROM generate_series(1, 3000) g;
CREATE INDEX ti_pb ON ti USING pagebloom (id, t, n);
-- inserts: a multi-row statement (batched keys) and single rows
INSERT INTO ti SELECT g, md5(g::text), g % 97 FROM generate_series(3001, 5000) g;
INSERT INTO ti VALUES (5001, md5('5001'), 1);
INSERT INTO ti VALUES (5002, md5('5002'), NULL);
DELETE FROM ti WHERE id % 3 = 0;
VACUUM ti;
SELECT pagebloom_resummarize('ti_pb', 0) > 0 AS resummarized;
SELECT pagebloom_verify('ti_pb') AS verified;
REINDEX INDEX ti_pb;
SELECT pagebloom_verify('ti_pb') AS verified_after_reindex;
-- every key: several invalidations within one row of three columns
SELECT count(set_config(name, '1', false)) AS settings_every_key FROM pg_settings
WHERE name = 'bloomfilter.debug_discard_state';
INSERT INTO ti SELECT g, md5(g::text), g % 97 FROM generate_series(6001, 6040) g;
INSERT INTO ti VALUES (6041, md5('6041'), 5);
SELECT pagebloom_verify('ti_pb') AS verified_every_key;
-- each rebuilt state has new hashers; those of earlier states are freed once
-- nothing hashes with them (not kept until the index's relcache entry goes)
SELECT count(*) AS hasher_contexts FROM pg_backend_memory_contexts WHERE name = 'pagebloom hashers';
-- scans open the heap (its size; the last range's, when the table grew): the
-- simulated invalidation fires there too, in bitmap and plain index scans
SET enable_seqscan = off;
SET enable_indexscan = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM ti WHERE id = 6041;
SELECT count(*) AS bitmap_6041 FROM ti WHERE id = 6041;
SELECT count(*) AS bitmap_last_page FROM ti
WHERE id = (SELECT max(id) FROM ti t2 WHERE ctid >= format('(%s,0)', pg_relation_size('ti') / 8192 - 1)::tid);
SELECT count(*) AS bitmap_any FROM ti WHERE id = ANY (ARRAY[1, 2, 4, 5000, 6040]);
SET enable_bitmapscan = off;
SET enable_indexscan = on;
EXPLAIN (COSTS OFF) SELECT count(*) FROM ti WHERE t = md5('6041');
SELECT count(*) AS plain_any FROM ti WHERE id = ANY (ARRAY[1, 2, 4, 5000, 6040]);
SELECT count(*) AS plain_t FROM ti WHERE t = md5('6041');
RESET enable_bitmapscan;
RESET enable_seqscan;
SELECT count(set_config(name, '0', false)) AS settings_reset FROM pg_settings
WHERE name = 'bloomfilter.debug_discard_state';
-- every row is found through the index by each of its columns, no false negatives
SET enable_seqscan = off;
SET enable_indexscan = off;
EXPLAIN (COSTS OFF) SELECT * FROM ti WHERE id = 42;
SELECT count(*) FILTER (WHERE (SELECT count(*) FROM ti q WHERE q.id = p.id) <> 1) AS missed_by_id,
	count(*) FILTER (WHERE NOT EXISTS (SELECT 1 FROM ti q WHERE q.t = p.t AND q.id = p.id)) AS missed_by_t,
	count(*) AS rows_checked
FROM (SELECT id, t FROM ti WHERE id % 7 = 0 OR id > 4990) p;
SELECT count(*) AS rows_6001_6041 FROM ti WHERE id BETWEEN 6001 AND 6041;
SELECT count(*) AS n_is_1 FROM ti WHERE n = 1;
SELECT count(*) AS n_is_null FROM ti WHERE n IS NULL;
RESET enable_seqscan;
RESET enable_indexscan;
SELECT count(*) AS n_is_1_seq FROM ti WHERE n = 1;
DROP SCHEMA pagebloom_inval_test CASCADE;
