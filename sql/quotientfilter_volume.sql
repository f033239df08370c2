-- quotientfilter on real volumes: 100k+ keys, random interleavings of adds, removes,
-- duplicate adds, resizes and merges against a ground truth; measured false-positive rate
CREATE SCHEMA quotientfilter_volume_test;
SET search_path = quotientfilter_volume_test, public;
SELECT setseed(0.6);

-- ground truth: a multiset of keys (a key added twice is there twice)
CREATE TEMP TABLE truth (k bigint);
CREATE TEMP TABLE steps (step int, op text, q int, r int, entries bigint, truth_rows bigint,
	false_negatives bigint, fingerprints_equal bool, cardinality_equal bool);

-- fingerprint of a key computed in SQL from the canonical hash, independently of
-- the filter's C code: the top p bits of bloomfilter_hash(k, seed)
CREATE FUNCTION pg_temp.fp(k bigint, p int, seed bigint) RETURNS bigint
	LANGUAGE sql IMMUTABLE AS $$ SELECT (bloomfilter_hash(k, seed) >> (64 - p)) & ((1::bigint << p) - 1) $$;

DO $$
DECLARE
	-- one fixed table (quotientfilter_create) that grows by moving remainder
	-- bits to the quotient: q = 15, r = 13, what quotientfilter_empty(20000,
	-- 0.0001) gave before filters grew by members
	f quotientfilter := quotientfilter_create(15, 13, 77);
	g quotientfilter;
	info record;
	batch bigint[];
	op text;
	next_key bigint := 1;
	newq int;
	i int;
	fn bigint;
	fp_ok bool;
BEGIN
	FOR i IN 1 .. 22 LOOP
		op := CASE
			WHEN i <= 4 THEN 'add'
			WHEN i % 7 = 0 THEN 'merge'
			WHEN i % 5 = 0 THEN 'resize'
			WHEN i % 6 = 0 THEN 'add duplicates'
			WHEN random() < 0.55 THEN 'add'
			ELSE 'remove' END;
		IF op = 'add' THEN
			-- fresh keys in random order
			batch := array(SELECT k FROM generate_series(next_key, next_key + 24999) k ORDER BY random());
			next_key := next_key + 25000;
			f := quotientfilter_add(f, batch);
			INSERT INTO truth SELECT unnest(batch);
		ELSIF op = 'add duplicates' THEN
			-- keys already present, added once more
			batch := array(SELECT DISTINCT k FROM truth TABLESAMPLE BERNOULLI (5) REPEATABLE (7) ORDER BY k);
			f := quotientfilter_add(f, batch);
			INSERT INTO truth SELECT unnest(batch);
		ELSIF op = 'remove' THEN
			-- a random third of the distinct keys present, one copy each
			-- (distinct keys in key order first: the plan's DISTINCT order differs between releases)
			batch := array(SELECT k FROM (SELECT DISTINCT k FROM truth ORDER BY k) t WHERE random() < 0.33 ORDER BY random());
			f := quotientfilter_remove(f, batch);
			DELETE FROM truth WHERE ctid IN (SELECT DISTINCT ON (k) ctid FROM truth WHERE k = ANY (batch) ORDER BY k, ctid);
		ELSIF op = 'resize' THEN
			-- grow or shrink by one or two quotient bits, as far as entries and remainder allow
			info := quotientfilter_info(f);
			newq := info.q + (ARRAY[-2, -1, 1, 2])[1 + floor(random() * 4)::int];
			newq := greatest(newq, ceil(log(2, greatest(info.entries, 1)::numeric))::int);
			newq := least(newq, info.fingerprint_bits - 1);
			f := quotientfilter_resize(f, newq);
		ELSE
			-- a filter of 15000 new keys, grown from a smaller q, with the same
			-- fingerprint length (p = 28), merged in
			batch := array(SELECT generate_series(next_key, next_key + 14999));
			g := quotientfilter_add(quotientfilter_create(13, 15, 77), batch);
			next_key := next_key + 15000;
			f := f | g;
			INSERT INTO truth SELECT unnest(batch);
		END IF;

		info := quotientfilter_info(f);
		SELECT count(*) INTO fn FROM truth WHERE NOT f @> k;
		SELECT array(SELECT pg_temp.fp(k, info.fingerprint_bits, 77) FROM truth ORDER BY 1)
			= array(SELECT x FROM quotientfilter_fingerprints(f) x ORDER BY 1) INTO fp_ok;
		INSERT INTO steps SELECT i, op, info.q, info.r, info.entries, (SELECT count(*) FROM truth), fn, fp_ok,
			quotientfilter_cardinality(f) = (SELECT count(*) FROM truth);
	END LOOP;
	-- the final filter survives a text round trip with full validation
	IF f::text::quotientfilter <> f THEN
		RAISE EXCEPTION 'text round trip changed the filter';
	END IF;
END $$;

SELECT step, op, q, r, entries, truth_rows, false_negatives, fingerprints_equal, cardinality_equal
FROM steps ORDER BY step;
SELECT max(truth_rows) >= 100000 AS over_100k_keys, sum(false_negatives) AS total_false_negatives,
	bool_and(fingerprints_equal) AS fingerprints_always_equal, bool_and(cardinality_equal) AS cardinality_always_exact,
	count(DISTINCT op) AS kinds_of_steps
FROM steps;

-- measured false-positive rate over 1M non-members, against the prediction
-- distinct fingerprints / 2^p, at design capacity and after growing past it
CREATE TEMP TABLE fpr AS
SELECT label, f, quotientfilter_fpr(f) AS predicted, target
FROM (
	SELECT '100k at 1%' AS label, quotientfilter_agg(i, 100000, 0.01) AS f, 0.01 AS target FROM generate_series(1, 100000) i
	UNION ALL
	SELECT '100k at 0.1%', quotientfilter_agg(i, 100000, 0.001), 0.001 FROM generate_series(1, 100000) i
	UNION ALL
	SELECT '100k in a filter for 25k at 1% (grown by members)', quotientfilter_agg(i, 25000, 0.01), NULL FROM generate_series(1, 100000) i
) t;
SELECT label, (quotientfilter_info(f)).q, (quotientfilter_info(f)).r,
	round(predicted::numeric, 5) AS predicted,
	predicted <= coalesce(target, 1) AS meets_target,
	(SELECT count(*) FROM generate_series(1, 100000) i WHERE NOT f @> i) AS false_negatives,
	measured / predicted BETWEEN 0.8 AND 1.25 AS measured_within_1_25x
FROM fpr, LATERAL (SELECT count(*)::float8 / 1000000 AS measured
	FROM generate_series(100000001, 101000000) x WHERE f @> x) m
ORDER BY label;

-- ---------------------------------------------------------------------
-- Unbounded growth by members (issue 11): 1000x past the requested
-- capacity, the measured rate stays within 2x the target, no false negatives
-- ---------------------------------------------------------------------
CREATE TEMP TABLE grown AS SELECT quotientfilter_agg(i, 1000, 0.01) AS f FROM generate_series(1, 1000000) i;
SELECT substring(f::text from 'members=\d+') AS members, quotientfilter_cardinality(f) AS entries,
	quotientfilter_fpr(f) <= 0.02 AS predicted_within_2x
FROM grown;
SELECT (SELECT count(*) FROM generate_series(1, 1000000) i WHERE NOT f @> i) AS false_negatives,
	measured <= 2 * 0.01 AS measured_within_2x_target,
	measured / quotientfilter_fpr(f) BETWEEN 0.8 AND 1.25 AS measured_near_predicted
FROM grown, LATERAL (SELECT count(*)::float8 / 1000000 AS measured
	FROM generate_series(100000001, 101000000) x WHERE f @> x) m;
-- text and binary round trips of a chain (full validation)
SELECT f::text::quotientfilter = f AS text_round_trip,
	quotientfilter_send(f::text::quotientfilter) = quotientfilter_send(f) AS text_same_bytes
FROM grown;
CREATE TEMP TABLE grown_copy (f quotientfilter);
COPY grown TO '/tmp/quotientfilter_volume_chain.bin' (FORMAT binary);
COPY grown_copy FROM '/tmp/quotientfilter_volume_chain.bin' (FORMAT binary);
SELECT quotientfilter_send(c.f) = quotientfilter_send(g.f) AS binary_round_trip FROM grown g, grown_copy c;

-- the same through quotientfilter_add on quotientfilter_empty(1000, 0.01),
-- in arrays of 10k keys, up to 100k; then removes of every key
CREATE TEMP TABLE chain_steps (keys int, members text, entries bigint, false_negatives bigint);
DO $$
DECLARE
	f quotientfilter := quotientfilter_empty(1000, 0.01);
	n int;
BEGIN
	FOR n IN 1 .. 10 LOOP
		f := quotientfilter_add(f, array(SELECT generate_series((n - 1) * 10000 + 1, n * 10000)));
		INSERT INTO chain_steps SELECT n * 10000, substring(f::text from 'members=\d+'), quotientfilter_cardinality(f),
			(SELECT count(*) FROM generate_series(1, n * 10000) i WHERE NOT f @> i);
	END LOOP;
	CREATE TEMP TABLE added AS SELECT f;
	-- remove the odd keys: the even ones stay, the count follows
	f := quotientfilter_remove(f, array(SELECT generate_series(1, 100000, 2)));
	INSERT INTO chain_steps SELECT -50000, substring(f::text from 'members=\d+'), quotientfilter_cardinality(f),
		(SELECT count(*) FROM generate_series(2, 100000, 2) i WHERE NOT f @> i);
	f := quotientfilter_remove(f, array(SELECT generate_series(2, 100000, 2)));
	INSERT INTO chain_steps SELECT -100000, substring(f::text from 'members=\d+'), quotientfilter_cardinality(f), 0;
END $$;
SELECT * FROM chain_steps;
SELECT measured <= 2 * 0.01 AS add_loop_measured_within_2x_target
FROM added, LATERAL (SELECT count(*)::float8 / 1000000 AS measured
	FROM generate_series(100000001, 101000000) x WHERE f @> x) m;
-- the aggregate and the add loop grow alike
SELECT substring(a.f::text from 'members=\d+') = substring(g.f::text from 'members=\d+') AS same_members,
	(quotientfilter_info(a.f)).q = (quotientfilter_info(g.f)).q AS same_newest_q
FROM added a, (SELECT quotientfilter_agg(i, 1000, 0.01) AS f FROM generate_series(1, 100000) i) g;

-- a union of two chains holds every element of both; its rate is at most the
-- sum of the two sides' rates (a union of two full filters is not within 2x)
SELECT quotientfilter_cardinality(u) AS entries, substring(u::text from 'members=\d+') AS members,
	(SELECT count(*) FROM generate_series(1, 200000) i WHERE NOT u @> i) AS false_negatives,
	quotientfilter_fpr(u) <= quotientfilter_fpr(a) + quotientfilter_fpr(b) AS rate_at_most_sum_of_sides
FROM (SELECT a, b, a | b AS u FROM
	(SELECT quotientfilter_agg(i, 1000, 0.01) AS a FROM generate_series(1, 100000) i) x,
	(SELECT quotientfilter_agg(i, 1000, 0.01) AS b FROM generate_series(100001, 200000) i) y OFFSET 0) t;

-- ---------------------------------------------------------------------
-- A chain grown 1000x past its capacity (issue 11) under removes, re-adds,
-- | and quotientfilter_resize, against a ground truth (a multiset of keys).
-- The cardinality is the multiset's size, count(*) of the truth (an element
-- with two copies counts twice, whether they are in one member or in two);
-- for distinct keys that is count(DISTINCT k).  The resize folds the chain
-- into one table of the shortest member's fingerprint length p.
-- ---------------------------------------------------------------------
CREATE TEMP TABLE chain_truth (k bigint);
INSERT INTO chain_truth SELECT generate_series(1, 1000000);
CREATE TEMP TABLE chain_ops (step int, op text, members text, cardinality bigint, truth_rows bigint,
	truth_distinct bigint, false_negatives bigint);
DO $$
DECLARE
	f quotientfilter;
	batch bigint[];
	step int := 0;
	op text;
BEGIN
	SELECT quotientfilter_agg(k, 1000, 0.0001) INTO f FROM chain_truth;
	FOREACH op IN ARRAY ARRAY['agg', 'remove', 're-add', 'union', 'remove extra copies'] LOOP
		IF op = 'remove' THEN
			-- a third of the keys, one copy each
			batch := array(SELECT generate_series(3, 1000000, 3));
			f := quotientfilter_remove(f, batch);
			DELETE FROM chain_truth WHERE k % 3 = 0;
		ELSIF op = 're-add' THEN
			-- keys already present, added again: the copy goes to the newest member
			batch := array(SELECT k FROM chain_truth WHERE k % 10 = 1);
			f := quotientfilter_add(f, batch);
			INSERT INTO chain_truth SELECT unnest(batch);
		ELSIF op = 'union' THEN
			-- a chain of 200k keys, half of them also in f
			f := f | (SELECT quotientfilter_agg(k, 1000, 0.0001) FROM generate_series(900001, 1100000) k);
			INSERT INTO chain_truth SELECT generate_series(900001, 1100000);
		ELSIF op = 'remove extra copies' THEN
			-- every key with c > 1 copies loses c - 1: the count drops to the distinct keys
			batch := array(SELECT k FROM (SELECT k, count(*) AS c FROM chain_truth GROUP BY k) t, generate_series(2, c));
			f := quotientfilter_remove(f, batch);
			CREATE TEMP TABLE chain_distinct AS SELECT DISTINCT k FROM chain_truth;
			TRUNCATE chain_truth;
			INSERT INTO chain_truth SELECT k FROM chain_distinct;
		END IF;
		step := step + 1;
		INSERT INTO chain_ops SELECT step, op, substring(f::text from 'members=\d+'), quotientfilter_cardinality(f),
			count(*), count(DISTINCT k), count(*) FILTER (WHERE NOT f @> k) FROM chain_truth;
	END LOOP;
	CREATE TEMP TABLE chain AS SELECT f;
END $$;
SELECT step, op, members, cardinality = truth_rows AS cardinality_is_count, truth_rows > truth_distinct AS has_duplicates,
	cardinality = truth_distinct AS cardinality_is_count_distinct, false_negatives
FROM chain_ops ORDER BY step;
SELECT quotientfilter_cardinality(quotientfilter_agg(DISTINCT k, 1000, 0.0001)) = count(DISTINCT k) AS distinct_agg_cardinality
FROM (SELECT k FROM chain_truth UNION ALL SELECT k FROM chain_truth WHERE k % 7 = 0) t;

-- the fold: one table of the shortest p, the fingerprints exactly the top p
-- bits of every key's hash (computed in SQL), no false negatives, a rate of
-- distinct fingerprints / 2^p (at most entries / 2^p) measured on 1M absent keys
CREATE TEMP TABLE folded AS SELECT f, quotientfilter_resize(f, 20) AS g FROM chain;
SELECT substring(g::text from 'members=\d+') AS members, i.q, i.r, i.fingerprint_bits AS p,
	quotientfilter_cardinality(g) = quotientfilter_cardinality(f) AS same_cardinality,
	array(SELECT x FROM quotientfilter_fingerprints(g) x ORDER BY 1)
		= array(SELECT pg_temp.fp(k, i.fingerprint_bits, 0) FROM chain_truth ORDER BY 1) AS fingerprints_are_top_p_bits,
	(SELECT count(*) FROM chain_truth WHERE NOT g @> k) AS false_negatives,
	quotientfilter_fpr(g) <= i.entries / 2 ^ i.fingerprint_bits AS rate_within_entries_over_2p,
	measured / quotientfilter_fpr(g) BETWEEN 0.8 AND 1.25 AS measured_near_predicted,
	g::text::quotientfilter = g AS text_round_trip
FROM folded, LATERAL quotientfilter_info(g) i,
	LATERAL (SELECT count(*)::float8 / 1000000 AS measured FROM generate_series(100000001, 101000000) x WHERE g @> x) m;
-- the folded filter grows by members again, and stays within the sum of its rates
SELECT substring(h::text from 'members=\d+') AS members,
	(SELECT count(*) FROM (SELECT k FROM chain_truth UNION ALL SELECT generate_series(2000001, 2200000)) t
		WHERE NOT h @> k) AS false_negatives,
	quotientfilter_fpr(h) <= quotientfilter_fpr(g) + 0.9 * 2 ^ -((quotientfilter_info(h)).r) AS rate_within_bound
FROM (SELECT g, quotientfilter_add(g, array(SELECT generate_series(2000001, 2200000)::bigint)) AS h FROM folded OFFSET 0) t;
-- the 1%-filter grown 1000x above has 18-bit fingerprints in its first
-- member: 1M entries cannot fit one table of them (54000)
SELECT quotientfilter_resize(f, 20) FROM grown;
\echo :LAST_ERROR_SQLSTATE
