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
	f quotientfilter := quotientfilter_empty(20000, 0.0001, 77);
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
			-- fingerprint length (capacity / fpr equal to the main filter's), merged in
			batch := array(SELECT generate_series(next_key, next_key + 14999));
			g := quotientfilter_add(quotientfilter_empty(5000, 0.0001 / 4, 77), batch);
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
	SELECT '100k in a filter for 25k at 1% (grown twice)', quotientfilter_agg(i, 25000, 0.01), NULL FROM generate_series(1, 100000) i
) t;
SELECT label, (quotientfilter_info(f)).q, (quotientfilter_info(f)).r,
	round(predicted::numeric, 5) AS predicted,
	predicted <= coalesce(target, 1) AS meets_target,
	(SELECT count(*) FROM generate_series(1, 100000) i WHERE NOT f @> i) AS false_negatives,
	measured / predicted BETWEEN 0.8 AND 1.25 AS measured_within_1_25x
FROM fpr, LATERAL (SELECT count(*)::float8 / 1000000 AS measured
	FROM generate_series(100000001, 101000000) x WHERE f @> x) m
ORDER BY label;
