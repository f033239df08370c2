-- Golden datums of release 1.1 (storage format 2): small filters of every type built from
-- fixed inputs, pinned by their text form (base64 of every byte).  Every later release must
-- read these literals and find the same elements: a format change that breaks stored 1.1
-- values fails here (README, "Upgrading").
SELECT bloom_add(bloom_empty(20, 0.1, 7), ARRAY[1, 2, 3]) AS bloom_v2;
SELECT countingbloom_add(countingbloom_empty(20, 0.1, 7), ARRAY[1, 2, 2, 3]) AS countingbloom_v2;
SELECT quotientfilter_add(quotientfilter_create(4, 6, 7), ARRAY[1, 2, 2, 3]) AS quotientfilter_v2;
SELECT cuckoofilter_add(cuckoofilter_create(4, 8, 7), ARRAY[1, 2, 2, 3]) AS cuckoofilter_v2;
-- the same values as stored by 1.1 (literals, not recomputed), read back, compared and probed
CREATE TEMP TABLE golden (b text, cb text, qf text, cf text);
INSERT INTO golden VALUES (
	'bloom v2 hash=xxh3 seed=7 inserts=3 m=96 k=3 data=EAgCgAAAAECAEAIIAAAAAA==',
	'countingbloom v2 hash=xxh3 seed=7 inserts=4 m=96 k=3 data=AAACAAAQAAAgAAAAAAAAIAAAAAAAAAAAAAAAAAAAAAEAAAAQAAABABAAAAAAEAAA',
	'quotientfilter v2 hash=xxh3 seed=7 inserts=4 q=4 r=6 entries=4 data=AHIDAAAglSsAAABEAwAAAAAAAAAAAAAA',
	'cuckoofilter v2 hash=xxh3 seed=7 inserts=4 f=8 b=4 layout=semisorted buckets=4 count=4 data=AAAAAAAAAAAEAAAAAAAAAAQAAAAAAAAAAAAAAD9QFQAAAPAAAOAAAAAAAAAAAAAA');
SELECT b::bloom = bloom_add(bloom_empty(20, 0.1, 7), ARRAY[1, 2, 3]) AND b::bloom @> 1 AND b::bloom @> 2
		AND b::bloom @> 3 AS bloom_reads,
	cb::countingbloom = countingbloom_add(countingbloom_empty(20, 0.1, 7), ARRAY[1, 2, 2, 3])
		AND countingbloom_count(cb::countingbloom, 2) >= 2 AND cb::countingbloom @> 3 AS countingbloom_reads,
	qf::quotientfilter = quotientfilter_add(quotientfilter_create(4, 6, 7), ARRAY[1, 2, 2, 3])
		AND quotientfilter_cardinality(qf::quotientfilter) = 4 AND qf::quotientfilter @> 2 AS quotientfilter_reads,
	cf::cuckoofilter = cuckoofilter_add(cuckoofilter_create(4, 8, 7), ARRAY[1, 2, 2, 3])
		AND cuckoofilter_count(cf::cuckoofilter, 2) = 2 AND cf::cuckoofilter @> 1 AS cuckoofilter_reads,
	md5(bloom_send(b::bloom)) AS bloom_send_md5, md5(cuckoofilter_send(cf::cuckoofilter)) AS cuckoo_send_md5
FROM golden;
-- self-sized bloom (flag bit 0): an aggregate's result (one member), a chain grown by
-- bloom_add before fingerprint members (two Bloom members, as stored by the first 1.1 builds:
-- no longer built, still read), an aggregate's transition state (a hash list member), and
-- what bloom_add grows now (a fingerprint member)
SELECT bloom_agg(x) AS bloom_self_sized_v2 FROM unnest(ARRAY[1, 2, 3]) x;
SELECT bloom_agg_auto_trans(bloom_agg_auto_trans(NULL, 1), 2) AS bloom_state_v2;
SELECT bloom_add(bloom_empty_self_sized(0.1, 7), ARRAY(SELECT generate_series(1, 20))) AS bloom_fingerprints_v2;
CREATE TEMP TABLE golden_ss (agg text, chain text, state text, fingerprints text);
INSERT INTO golden_ss VALUES (
	'bloom v2 hash=xxh3 seed=0 inserts=3 fpr=0.01 members=1 bytes=40 data=QAAAAAAAAAAIAAAAAQAAAAMAAAAAAAAAAwAAAAAAAACyaxgHpACGAQ==',
	'bloom v2 hash=xxh3 seed=7 inserts=20 fpr=0.1 members=2 bytes=128 data=gAAAAAAAAAAEAAAAAQAAABAAAAAAAAAAEAAAAAAAAACD4pHDgkYgiBogHcFtuRSPgAEAAAAAAAAIAAAAAQAAAAQAAAAAAAAAIAAAAAAAAAACAAAEIiACAAAAABgBAAAQgDIAAAAEAIAAAEABIAAABgAAQgIAAEAEEECAQgAEAAA=',
	'bloom v2 hash=xxh3 seed=0 inserts=2 fpr=0.01 members=1 bytes=96 data=AAAAAAAAAAAAAAAAAgAAAAIAAAAAAAAACAAAAAAAAAAuedtkNVm8L0Pi7pFcxoYgAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
	'bloom v2 hash=xxh3 seed=7 inserts=20 fpr=0.1 members=1 bytes=64 data=0QAAAAAAAAAHAAAAAwAAABQAAAAAAAAAAAAAAAAAAABrR7XpbnQmqesP8uQl6gZ3cvPbbH5q7E9GdQAAAAAAAA==');
SELECT agg::bloom = (SELECT bloom_agg(x) FROM unnest(ARRAY[1, 2, 3]) x)
		AND agg::bloom @> 1 AND agg::bloom @> 2 AND agg::bloom @> 3 AS self_sized_reads,
	chain::bloom::text = chain AND (bloom_info(chain::bloom)).members = 2
		AND (SELECT bool_and(chain::bloom @> i) FROM generate_series(1, 20) i) AS chain_reads,
	state::bloom @> 1 AND state::bloom @> 2
		AND bloom_agg_auto_final(state::bloom) = (SELECT bloom_agg(x) FROM generate_series(1, 2) x) AS state_reads,
	fingerprints::bloom = bloom_add(bloom_empty_self_sized(0.1, 7), ARRAY(SELECT generate_series(1, 20)))
		AND (SELECT bool_and(fingerprints::bloom @> i) FROM generate_series(1, 20) i) AS fingerprints_reads,
	md5(bloom_send(chain::bloom)) AS chain_send_md5, md5(bloom_send(fingerprints::bloom)) AS fingerprints_send_md5
FROM golden_ss;
-- bloom_add to the old chain keeps its members and grows a fingerprint member after them
SELECT (bloom_info(f)).members, (SELECT bool_and(f @> i) FROM generate_series(1, 25) i) AS all_found
FROM (SELECT bloom_add(chain::bloom, ARRAY[21, 22, 23, 24, 25]) AS f FROM golden_ss) s;
