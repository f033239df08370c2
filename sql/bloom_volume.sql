-- bloom on real volumes: ground truth for no false negatives, measured FPR,
CREATE SCHEMA bloom_volume_test;
SET search_path = bloom_volume_test, public;
-- union of halves, cross-width probes, row-by-row equals aggregate, cardinality
SET max_parallel_workers_per_gather = 0;

CREATE TABLE text_keys AS SELECT 'user-' || md5(i::text) AS k FROM generate_series(1, 200000) i;
CREATE TABLE int_keys AS SELECT (i::bigint * 2654435761) % 1000000007 AS k FROM generate_series(1, 200000) i;
SELECT count(DISTINCT k) AS distinct_text FROM text_keys;
SELECT count(DISTINCT k) AS distinct_int FROM int_keys;
-- 1M non-members of each
CREATE TABLE text_probes AS SELECT 'other-' || md5(i::text) AS k FROM generate_series(1, 1000000) i;
CREATE TABLE int_probes AS SELECT k FROM (SELECT 1000000007 + i::bigint AS k FROM generate_series(1, 1000000) i) s;

CREATE TABLE filters (name text PRIMARY KEY, f bloom);
INSERT INTO filters
SELECT 'text_1pct', bloom_agg(k, 200000, 0.01) FROM text_keys UNION ALL
SELECT 'text_01pct', bloom_agg(k, 200000, 0.001) FROM text_keys UNION ALL
SELECT 'int_1pct', bloom_agg(k, 200000, 0.01) FROM int_keys UNION ALL
SELECT 'int_01pct', bloom_agg(k, 200000, 0.001) FROM int_keys;

-- no false negatives, ever
SELECT name, count(*) FILTER (WHERE NOT f @> k) AS false_negatives
FROM filters, text_keys WHERE name LIKE 'text%' GROUP BY name ORDER BY name;
SELECT name, count(*) FILTER (WHERE NOT f @> k) AS false_negatives
FROM filters, int_keys WHERE name LIKE 'int%' GROUP BY name ORDER BY name;

-- measured false-positive rate at design capacity within 1.25x of the target
CREATE TABLE fpr AS
SELECT name, target, measured FROM (
	SELECT name, 0.01 AS target, (SELECT avg((f @> k)::int) FROM text_probes) AS measured FROM filters WHERE name = 'text_1pct'
	UNION ALL
	SELECT name, 0.001, (SELECT avg((f @> k)::int) FROM text_probes) FROM filters WHERE name = 'text_01pct'
	UNION ALL
	SELECT name, 0.01, (SELECT avg((f @> k)::int) FROM int_probes) FROM filters WHERE name = 'int_1pct'
	UNION ALL
	SELECT name, 0.001, (SELECT avg((f @> k)::int) FROM int_probes) FROM filters WHERE name = 'int_01pct'
) s;
SELECT name, target, measured <= target * 1.25 AS within_125pct, measured >= target * 0.75 AS not_suspiciously_low
FROM fpr ORDER BY name;
-- bloom_fpr estimates the same rate from the fill
SELECT name, abs(bloom_fpr(f) - target) < target * 0.25 AS estimate_near_target FROM filters JOIN fpr USING (name) ORDER BY name;

-- cardinality within 5% of the true distinct count below design capacity
SELECT n, abs(bloom_cardinality(f) - n) <= n * 0.05 AS within_5pct
FROM (SELECT n, (SELECT bloom_agg(k, 200000, 0.01) FROM (SELECT k FROM int_keys LIMIT n) s) AS f
	  FROM unnest(ARRAY[1000, 50000, 150000, 200000]) n) t ORDER BY n;
SELECT abs(bloom_cardinality(f) - 200000) <= 200000 * 0.05 AS text_within_5pct FROM filters WHERE name = 'text_1pct';

-- the union of the filters of two halves equals the filter of the whole, bit for bit
SELECT (SELECT bloom_agg(k, 200000, 0.01) FROM int_keys WHERE k % 2 = 0)
	 | (SELECT bloom_agg(k, 200000, 0.01) FROM int_keys WHERE k % 2 = 1)
	 = (SELECT f FROM filters WHERE name = 'int_1pct') AS union_of_halves;
SELECT (SELECT bloom_union_agg(f) FROM (SELECT bloom_agg(k, 200000, 0.01) f FROM text_keys GROUP BY length(k) % 7, substr(k, 6, 1)) s)
	 = (SELECT f FROM filters WHERE name = 'text_1pct') AS union_agg_of_groups;

-- bloom_agg over int4 finds the same values probed as int8 and int2 (and the reverse)
CREATE TABLE small_ints AS SELECT (i * 7)::int4 AS k FROM generate_series(1, 100000) i;
SELECT count(*) FILTER (WHERE NOT f @> k::int8) AS missed_as_int8,
	count(*) FILTER (WHERE NOT f @> k::numeric::int8) AS missed_via_numeric_cast,
	count(*) FILTER (WHERE k < 32767 AND NOT f @> k::int2) AS missed_as_int2
FROM (SELECT bloom_agg(k, 100000, 0.01) f FROM small_ints) s, small_ints;
SELECT (SELECT bloom_agg(k, 100000, 0.01) FROM small_ints) = (SELECT bloom_agg(k::int8, 100000, 0.01) FROM small_ints) AS int4_agg_equals_int8_agg;

-- a filter built with bloom_add row by row equals the one bloom_agg builds
CREATE FUNCTION add_one_by_one(n int) RETURNS bloom LANGUAGE plpgsql AS $$
DECLARE
	f bloom := bloom_empty(20000, 0.01);
	r record;
BEGIN
	FOR r IN SELECT k FROM text_keys LIMIT n LOOP
		f := bloom_add(f, r.k);
	END LOOP;
	RETURN f;
END $$;
SELECT add_one_by_one(5000) = (SELECT bloom_agg(k, 20000, 0.01) FROM (SELECT k FROM text_keys LIMIT 5000) s) AS add_equals_agg;
SELECT (bloom_info(add_one_by_one(5000))).inserts AS inserts;
-- and a batch add of an array equals both
SELECT bloom_add(bloom_empty(20000, 0.01), (SELECT array_agg(k) FROM (SELECT k FROM text_keys LIMIT 5000) s))
	= add_one_by_one(5000) AS array_add_equals;

-- a filter stored in a table and probed per row against a constant (scalar subquery) filter
SELECT count(*) AS found FROM int_keys WHERE (SELECT f FROM filters WHERE name = 'int_1pct') @> k;
-- dump format is stable: text round trip of a big filter
SELECT f::text::bloom = f AS big_roundtrip FROM filters WHERE name = 'text_01pct';

-- a large filter stored out of line: the first probes read TOAST slices, later ones a cached
-- whole copy; every answer must equal the answer of an in-memory copy of the same filter
CREATE TABLE big_filters (id int PRIMARY KEY, f bloom);
INSERT INTO big_filters SELECT 1, bloom_agg(k, 2000000, 0.01) FROM int_keys;
SELECT pg_column_size(f) > 2000000 AS stored_big, (bloom_info(f)).m IS NOT NULL AS ok FROM big_filters;
SELECT count(*) FILTER (WHERE (SELECT f FROM big_filters WHERE id = 1) @> k) AS stored_found,
	count(*) FILTER (WHERE (SELECT f | f FROM big_filters WHERE id = 1) @> k) AS in_memory_found
FROM ((SELECT k FROM int_keys LIMIT 3000) UNION ALL (SELECT k FROM int_probes LIMIT 3000)) s;
SELECT (SELECT f FROM big_filters WHERE id = 1) @> k AS stored, (SELECT f | f FROM big_filters WHERE id = 1) @> k AS in_memory
FROM (SELECT k FROM int_keys LIMIT 2) s;

-- the cache of a call site holds up to 8 out-of-line filters (their copies
-- within work_mem): a join that alternates between 3 large filters detoasts
-- each once instead of reading TOAST slices for every probe (buffers per
-- probe), and answers stay exact when it alternates between more filters
-- than that or when work_mem holds only one copy
CREATE TABLE cache_filters (id int PRIMARY KEY, f bloom);
INSERT INTO cache_filters
SELECT g, bloom_agg('key-' || g || '-' || i, 300000, 0.01) FROM generate_series(1, 12) g, generate_series(1, 2000) i GROUP BY g;
SELECT count(*) AS filters, min(pg_column_size(f)) > 256 * 1024 AS big_enough_for_slices FROM cache_filters;
CREATE TABLE cache_probes AS
SELECT i, (i % 3) + 1 AS f3, (i % 12) + 1 AS f12,
	CASE WHEN i % 2 = 0 THEN 'key-' ELSE 'nokey-' END AS prefix, i / 12 % 2000 + 1 AS n
FROM generate_series(0, 5999) i;
CREATE FUNCTION cache_probe_stats(nfilters int, OUT probes bigint, OUT false_negatives bigint, OUT positives bigint)
LANGUAGE sql AS $$
	SELECT count(*), count(*) FILTER (WHERE prefix = 'key-' AND NOT found), count(*) FILTER (WHERE found)
	FROM cache_probes p,
		 LATERAL (SELECT f @> (p.prefix || CASE nfilters WHEN 3 THEN p.f3 ELSE p.f12 END || '-' || p.n) AS found
				  FROM cache_filters WHERE id = CASE nfilters WHEN 3 THEN p.f3 ELSE p.f12 END OFFSET 0) x
$$;
CREATE FUNCTION cache_probe_buffers() RETURNS numeric LANGUAGE plpgsql AS $$
DECLARE
	plan json;
BEGIN
	EXECUTE 'EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) SELECT count(*) FROM cache_probes p,
		LATERAL (SELECT f @> (p.prefix || p.f3 || ''-'' || p.n) AS found FROM cache_filters WHERE id = p.f3 OFFSET 0) x
		WHERE found' INTO plan;
	RETURN ((plan -> 0 -> 'Plan' ->> 'Shared Hit Blocks')::bigint
		  + (plan -> 0 -> 'Plan' ->> 'Shared Read Blocks')::bigint) / 6000.0;
END $$;
SELECT cache_probe_buffers() < 5 AS few_buffers_per_probe;
SELECT 3 AS filters, * FROM cache_probe_stats(3)
UNION ALL
SELECT 12, * FROM cache_probe_stats(12);
SET work_mem = '64kB';
SELECT 3 AS filters_small_work_mem, * FROM cache_probe_stats(3);
SELECT cache_probe_buffers() > 5 AS slices_again_when_copies_do_not_fit;
RESET work_mem;
DROP TABLE cache_filters, cache_probes;
DROP FUNCTION cache_probe_stats(int), cache_probe_buffers();
