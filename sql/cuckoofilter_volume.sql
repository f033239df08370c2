-- cuckoofilter on real volumes: random interleavings of adds and removes against
-- ground truth, measured FPR with 1M non-member probes, load before the first failed insert
CREATE SCHEMA cuckoofilter_volume_test;
SET search_path = cuckoofilter_volume_test, public;
SET max_parallel_workers_per_gather = 0;

-- 1. ground truth: 400 random batches, each adding new keys (and repeating some) or removing
--    a random sample of the keys currently present (one copy each), applied in order
CREATE TABLE truth (k bigint PRIMARY KEY, n int NOT NULL);
CREATE TABLE state (f cuckoofilter, g cuckoofilter);
DO $$
DECLARE
	f cuckoofilter := cuckoofilter_empty(150000, 0.01);
	g cuckoofilter := cuckoofilter_empty(150000, 0.001, 99);
	next_key bigint := 1;
	arr bigint[];
	b int;
BEGIN
	PERFORM setseed(0.31);
	FOR b IN 1..400 LOOP
		IF b < 20 OR random() < 0.6 THEN
			-- 500 new keys, plus up to 100 repeats of keys seen before
			arr := ARRAY(SELECT (k * 2654435761) % 4294967291 FROM generate_series(next_key, next_key + 499) k
						 UNION ALL
						 (SELECT k FROM truth TABLESAMPLE BERNOULLI (0.1) REPEATABLE (b) LIMIT 100));
			next_key := next_key + 500;
			f := cuckoofilter_add(f, arr);
			g := cuckoofilter_add(g, arr);
			INSERT INTO truth SELECT k, 1 FROM unnest(arr) k
			ON CONFLICT (k) DO UPDATE SET n = truth.n + 1;
		ELSE
			arr := ARRAY(SELECT k FROM truth TABLESAMPLE BERNOULLI (0.5) REPEATABLE (b) WHERE n > 0 LIMIT 400);
			f := cuckoofilter_remove(f, arr);
			g := cuckoofilter_remove(g, arr);
			UPDATE truth SET n = n - 1 WHERE k = ANY (arr);
		END IF;
	END LOOP;
	INSERT INTO state VALUES (f, g);
END $$;
SELECT count(*) > 100000 AS keys_over_100k, count(*) FILTER (WHERE n > 0) > 50000 AS present_over_50k,
	count(*) FILTER (WHERE n = 0) > 10000 AS removed_over_10k, count(*) FILTER (WHERE n > 1) > 1000 AS repeated
FROM truth;
-- no false negatives: every key with copies left is found, with at least as many copies
SELECT count(*) FILTER (WHERE NOT f @> k) AS false_negatives_1pct,
	count(*) FILTER (WHERE NOT g @> k) AS false_negatives_01pct,
	count(*) FILTER (WHERE cuckoofilter_count(f, k) < n) AS undercounted_1pct,
	count(*) FILTER (WHERE cuckoofilter_count(g, k) < n) AS undercounted_01pct
FROM truth, state WHERE n > 0;
-- cardinality is the exact number of stored fingerprints: the sum of multiplicities
SELECT cuckoofilter_cardinality(f) = (SELECT sum(n) FROM truth) AS exact_1pct,
	cuckoofilter_cardinality(g) = (SELECT sum(n) FROM truth) AS exact_01pct,
	(cuckoofilter_info(f)).subfilters AS subfilters
FROM state;
-- removed keys are mostly gone (what is left are false positives)
SELECT avg((f @> k)::int) < 0.02 AS removed_mostly_gone FROM truth, state WHERE n = 0;
-- the same data reaches the same filter through text and binary round trips
SELECT f::text::cuckoofilter = f AS text_round_trip FROM state;

-- 2. measured false-positive rate with 1M non-members, at design capacity and at the
--    fullest table the sizing rule allows (capacity = 0.95 * 4 * buckets)
CREATE TABLE probes AS SELECT 'other-' || md5(i::text) AS k FROM generate_series(1, 1000000) i;
CREATE TABLE keys AS SELECT 'user-' || md5(i::text) AS k FROM generate_series(1, 200000) i;
CREATE TABLE filters AS
SELECT 'design_1pct' AS name, 0.01 AS target, cuckoofilter_agg(k, 200000, 0.01) AS f FROM keys
UNION ALL SELECT 'design_01pct', 0.001, cuckoofilter_agg(k, 200000, 0.001) FROM keys
UNION ALL SELECT 'full_1pct', 0.01, cuckoofilter_agg(k, 124518, 0.01) FROM (SELECT k FROM keys LIMIT 124518) s
UNION ALL SELECT 'full_01pct', 0.001, cuckoofilter_agg(k, 124518, 0.001) FROM (SELECT k FROM keys LIMIT 124518) s;
SELECT name, i.buckets, i.subfilters, round(i.load_factor::numeric, 3) AS load_factor, i.fingerprint_bits
FROM filters, LATERAL cuckoofilter_info(f) i ORDER BY name;
CREATE TABLE fpr AS
SELECT name, target, (SELECT avg((f @> k)::int) FROM probes) AS measured, cuckoofilter_fpr(f) AS estimated
FROM filters;
SELECT name, target, measured <= target * 1.25 AS within_125pct,
	abs(measured - estimated) <= estimated * 0.15 AS estimate_within_15pct
FROM fpr ORDER BY name;
SELECT name, count(*) FILTER (WHERE NOT f @> k) AS false_negatives
FROM filters, keys WHERE name LIKE 'design%' GROUP BY name ORDER BY name;

-- 3. load factor before the first failed insert (b = 4, 500 relocations): add keys in
--    batches until cuckoofilter_add fails, then one by one
CREATE TABLE first_failure (buckets bigint, f int, added int, load float8, kept bool);
DO $$
DECLARE
	cfg int[];
	f cuckoofilter;
	i int;
	j int;
BEGIN
	FOREACH cfg SLICE 1 IN ARRAY ARRAY[[4096, 10], [16384, 10], [16384, 16], [65536, 8]] LOOP
		f := cuckoofilter_create(cfg[1], cfg[2], cfg[1] + cfg[2]);
		i := 0;
		BEGIN
			LOOP
				f := cuckoofilter_add(f, ARRAY(SELECT generate_series(i + 1, i + 1000)));
				i := i + 1000;
			END LOOP;
		EXCEPTION WHEN program_limit_exceeded THEN
			NULL;
		END;
		BEGIN
			FOR j IN i + 1 .. i + 1000 LOOP
				f := cuckoofilter_add(f, j);
				i := j;
			END LOOP;
		EXCEPTION WHEN program_limit_exceeded THEN
			NULL;
		END;
		INSERT INTO first_failure
		SELECT cfg[1], cfg[2], i, (cuckoofilter_info(f)).load_factor,
			(SELECT bool_and(f @> v) FROM generate_series(1, i) v);
	END LOOP;
END $$;
SELECT buckets, f, added, round(load::numeric, 4) AS load, load >= 0.94 AS load_at_least_094, kept AS no_fingerprint_lost
FROM first_failure ORDER BY buckets, f;
-- in an aggregate the first sub-filter fills the same way before a second one is chained
SELECT subfilter, buckets, round(load_factor::numeric, 4) AS load, load_factor >= 0.94 AS load_at_least_094, victim_in_use
FROM cuckoofilter_subfilters((SELECT cuckoofilter_agg(k, 60000, 0.01) FROM keys)) ORDER BY subfilter;

-- 4. chains of sub-filters of different sizes (aggregates that grew, then a union of them),
--    then removals of added elements: the removal rule (largest sub-filter first) loses nothing
CREATE TABLE chain_truth AS SELECT k, 1 + (k % 3 = 0)::int AS n FROM generate_series(1, 120000) k;
CREATE TABLE chain_state AS
SELECT a | b | c AS f FROM
	(SELECT cuckoofilter_agg(k, 4000, 0.01) a FROM chain_truth, generate_series(1, n) r WHERE k <= 40000) x,
	(SELECT cuckoofilter_agg(k, 4000, 0.01) b FROM chain_truth, generate_series(1, n) r WHERE k > 40000 AND k <= 60000) y,
	(SELECT cuckoofilter_agg(k, 4000, 0.01) c FROM chain_truth, generate_series(1, n) r WHERE k > 60000) z;
SELECT buckets, count(*) AS subfilters, count(*) FILTER (WHERE victim_in_use) AS with_victim
FROM cuckoofilter_subfilters((SELECT f FROM chain_state)) GROUP BY buckets ORDER BY buckets;
UPDATE chain_state SET f = cuckoofilter_remove(f, ARRAY(SELECT k FROM chain_truth WHERE k % 5 = 0));
UPDATE chain_truth SET n = n - 1 WHERE k % 5 = 0;
UPDATE chain_state SET f = cuckoofilter_remove(f, ARRAY(SELECT k FROM chain_truth WHERE k % 7 = 0 AND n > 0));
UPDATE chain_truth SET n = n - 1 WHERE k % 7 = 0 AND n > 0;
SELECT count(*) FILTER (WHERE NOT f @> k) AS false_negatives,
	count(*) FILTER (WHERE cuckoofilter_count(f, k) < n) AS undercounted
FROM chain_truth, chain_state WHERE n > 0;
SELECT cuckoofilter_cardinality(f) = (SELECT sum(n) FROM chain_truth) AS exact_cardinality,
	-- a third of the keys have two copies in one bucket pair, which the estimate counts
	-- as two fingerprints: with repeated elements it is an upper bound
	(SELECT avg((f @> k)::int) FROM probes) BETWEEN 0.6 * cuckoofilter_fpr(f) AND 1.1 * cuckoofilter_fpr(f) AS fpr_below_estimate,
	cuckoofilter_fpr(f) > 5 * 0.01 * 0.7 AS chain_fpr_reported
FROM chain_state;

-- 5. tables of any size: filters for 123457, 300k, 600k and 1M distinct keys at 1% and 0.1% hold
--    them all at a load of at least 0.9, keep the measured FPR (1M non-members) within 1.25x of the
--    target, and cost at most 1.1x (1%) and 0.95x (0.1%) the bits per element of the Bloom filter
--    sized for the same keys (semi-sorted buckets: 4f - 4 bits per 4 entries at load 0.95, so
--    9/0.95 bits at 1% and 12/0.95 at 0.1%, against Bloom's 9.59 and 14.38)
CREATE TABLE many_keys AS SELECT i, 'user-' || md5(i::text) AS k FROM generate_series(1, 1000000) i;
CREATE TABLE sized (n int, fpr float8, f cuckoofilter);
INSERT INTO sized SELECT n, fpr, (SELECT cuckoofilter_agg(k, n, fpr) FROM many_keys WHERE i <= n)
FROM unnest(ARRAY[123457, 300000, 600000, 1000000]) n, unnest(ARRAY[0.01, 0.001]) fpr;
SELECT n, fpr, i.buckets, i.subfilters, i.fingerprint_bits,
	(SELECT count(*) FROM many_keys m WHERE m.i <= n AND NOT f @> m.k) = 0 AS no_false_negatives,
	i.load_factor >= 0.9 AS load_at_least_09,
	round(i.load_factor::numeric, 3) AS load,
	(SELECT round(avg((f @> k)::int), 5) FROM probes) AS measured_fpr,
	(SELECT avg((f @> k)::int) FROM probes) <= 1.25 * fpr AS fpr_within_125pct,
	round(pg_column_size(f)::numeric / pg_column_size(bloom_empty(n, fpr)), 3) AS bits_vs_bloom,
	pg_column_size(f) <= CASE WHEN fpr = 0.01 THEN 1.1 ELSE 0.95 END * pg_column_size(bloom_empty(n, fpr)) AS bits_goal_met
FROM sized, LATERAL cuckoofilter_info(f) i ORDER BY fpr DESC, n;

-- 6. cuckoofilter_agg(x) without a capacity: 1M distinct keys chain four sub-filters (100k .. 800k
--    of the default capacity); their fingerprints have 4 bits more than the default 1% needs, so
--    the rates of the chained sub-filters add up to less than 1% (with the default rate's 10 bits
--    each full one would add about 0.74%: 2.5% here), also after a union of two halves
CREATE TABLE grown AS
SELECT (SELECT cuckoofilter_agg(k) FROM many_keys) AS f,
	(SELECT cuckoofilter_agg(k) FROM many_keys WHERE i <= 500000) | (SELECT cuckoofilter_agg(k) FROM many_keys WHERE i > 500000) AS u;
SELECT i.subfilters, i.fingerprint_bits, i.fingerprints,
	(SELECT count(*) FROM many_keys m WHERE NOT f @> m.k) AS false_negatives,
	(SELECT count(*) FROM many_keys m WHERE NOT u @> m.k) AS union_false_negatives,
	(SELECT avg((f @> k)::int) FROM probes) <= 0.01 AS fpr_within_target,
	(SELECT avg((u @> k)::int) FROM probes) <= 0.01 AS union_fpr_within_target,
	abs((SELECT avg((f @> k)::int) FROM probes) - cuckoofilter_fpr(f)) <= 0.15 * cuckoofilter_fpr(f) AS estimate_within_15pct,
	cuckoofilter_fpr(u) <= 0.01 AS union_estimate_within_target
FROM grown, LATERAL cuckoofilter_info(f) i;

-- 7. union rollups (analysts' per-day filters unioned later): 60 day filters sized for a day
--    (3000 keys at 1%, one day of 12,000 keys whose chain grew), unioned in day order.  The
--    union chains a sub-filter every few days; past 64 kB its state is an expanded object that
--    grows in place.  The aggregate must equal the left fold of | byte for byte, and the running
--    union of a window aggregate (plain states) its last row; no key may be missed.
CREATE TABLE day_keys AS
SELECT d, d * 100000 + g AS x FROM generate_series(1, 60) d,
	generate_series(1, CASE WHEN d = 7 THEN 12000 ELSE 3000 END) g;
CREATE TABLE day_cf AS SELECT d, cuckoofilter_agg(x, 3000, 0.01) AS f FROM day_keys GROUP BY d;
CREATE TABLE rollup AS
WITH RECURSIVE fold AS (
	SELECT d, f FROM day_cf WHERE d = 1
	UNION ALL
	SELECT c.d, fold.f | c.f FROM fold JOIN day_cf c ON c.d = fold.d + 1
)
SELECT (SELECT cuckoofilter_union_agg(f ORDER BY d) FROM day_cf) AS agg,
	(SELECT f FROM fold WHERE d = 60) AS folded,
	(SELECT w FROM (SELECT d, cuckoofilter_union_agg(f) OVER (ORDER BY d ROWS UNBOUNDED PRECEDING) AS w
					FROM day_cf) r WHERE d = 60) AS windowed;
SELECT (cuckoofilter_info(agg)).subfilters > 10 AS chained, pg_column_size(agg) > 64 * 1024 AS past_64kb,
	(SELECT max((cuckoofilter_info(f)).subfilters) FROM day_cf) > 1 AS an_input_grew,
	cuckoofilter_send(agg) = cuckoofilter_send(folded) AS agg_equals_fold,
	cuckoofilter_send(windowed) = cuckoofilter_send(folded) AS window_equals_fold,
	cuckoofilter_cardinality(agg) = (SELECT count(*) FROM day_keys) AS every_key_stored,
	(SELECT count(*) FROM day_keys WHERE NOT agg @> x) AS false_negatives,
	-- the bytes this union had before its state grew in place and its inserts skipped full
	-- sub-filters without decoding them (both must place every fingerprint where it was)
	md5(cuckoofilter_send(agg)) = '9c5ec3e970098ff3f28682cfa41d9e56' AS same_bytes_as_before
FROM rollup;
-- reading the aggregate's result directly (on PostgreSQL 16 and later, a read-only pointer to the state)
SELECT cuckoofilter_contains(cuckoofilter_union_agg(f ORDER BY d), 7 * 100000 + 11999) AS grown_day_key,
	cuckoofilter_cardinality(cuckoofilter_union_agg(f ORDER BY d)) AS keys
FROM day_cf;
