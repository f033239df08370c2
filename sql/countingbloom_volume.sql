-- countingbloom on real volumes: no false negatives after random interleavings
-- of adds and removes (also heavily saturated), measured FPR with 1M probes,
-- count bounds multiplicity, exactness against the multiset, unions and
-- differences of halves, probes of a large out-of-line filter
SET max_parallel_workers_per_gather = 0;

CREATE TABLE cb_keys AS SELECT i AS id, 'key-' || md5(i::text) AS k FROM generate_series(1, 150000) i;
CREATE TABLE cb_nonkeys AS SELECT 'other-' || md5(i::text) AS k FROM generate_series(1, 1000000) i;
SELECT count(DISTINCT k) AS distinct_keys FROM cb_keys;

-- 1. design capacity: no false negatives, FPR within 1.25x of the target with 1M non-members
CREATE TABLE cb_filters (name text PRIMARY KEY, target float8, f countingbloom);
INSERT INTO cb_filters
SELECT 'text_1pct', 0.01, countingbloom_agg(k, 150000, 0.01) FROM cb_keys UNION ALL
SELECT 'text_01pct', 0.001, countingbloom_agg(k, 150000, 0.001) FROM cb_keys;
-- stored out of line and uncompressed (STORAGE external): probes read TOAST slices
SELECT name, pg_column_size(f) = (countingbloom_info(f)).size_bytes AS uncompressed,
	(countingbloom_info(f)).size_bytes > 256 * 1024 AS big_enough_for_slices
FROM cb_filters ORDER BY name;
SELECT name, count(*) FILTER (WHERE NOT f @> k) AS false_negatives,
	count(*) FILTER (WHERE countingbloom_count(f, k) < 1) AS count_below_1
FROM cb_filters, cb_keys GROUP BY name ORDER BY name;
CREATE TABLE cb_fpr AS
SELECT name, target, (SELECT avg((f @> k)::int) FROM cb_nonkeys) AS measured FROM cb_filters;
SELECT name, target, measured <= target * 1.25 AS within_125pct, measured >= target * 0.75 AS not_suspiciously_low,
	abs(countingbloom_fpr(f) - target) < target * 0.25 AS estimate_near_target,
	abs(countingbloom_cardinality(f) - 150000) <= 150000 * 0.05 AS cardinality_within_5pct,
	(countingbloom_info(f)).counters_saturated AS saturated
FROM cb_fpr JOIN cb_filters USING (name, target) ORDER BY name;
-- first probes of a statement use the slice path: spot checks
SELECT f @> 'key-' || md5('4242') AS member, f @> 'nope' AS nonmember,
	countingbloom_count(f, 'key-' || md5('4242')) AS member_count FROM cb_filters WHERE name = 'text_01pct';
-- the counting filter probes exactly like the bloom filter it casts to
SELECT name, f::bloom = (SELECT bloom_agg(k, 150000, target) FROM cb_keys) AS cast_equals_bloom_agg,
	(SELECT count(*) FROM cb_nonkeys WHERE (f @> k) <> (f::bloom @> k)) AS probe_disagreements
FROM cb_filters ORDER BY name;

-- 2. random interleavings of adds and removes of added elements, with the
-- true multiset kept alongside; the big filter is sized for the keys, the
-- small one is overloaded so that many counters saturate
SELECT setseed(0.4242);
CREATE TABLE cb_truth (id int PRIMARY KEY, mult int NOT NULL);
CREATE TABLE cb_ops_state (big countingbloom, small countingbloom, adds bigint, removes bigint);
INSERT INTO cb_ops_state VALUES (countingbloom_empty(150000, 0.01), countingbloom_create(20000, 4), 0, 0);
DO $$
DECLARE
	step int;
	batch int[];
	st cb_ops_state;
BEGIN
	SELECT * INTO st FROM cb_ops_state;
	FOR step IN 1..300 LOOP
		IF random() < 0.6 THEN
			-- add 1000..3000 random keys, drawn with replacement (repeats count twice)
			SELECT array_agg((1 + floor(random() * 150000))::int) INTO batch
			FROM generate_series(1, 1000 + floor(random() * 2000)::int);
			st.big := countingbloom_add(st.big, batch);
			st.small := countingbloom_add(st.small, batch);
			INSERT INTO cb_truth SELECT x, count(*) FROM unnest(batch) x GROUP BY x
			ON CONFLICT (id) DO UPDATE SET mult = cb_truth.mult + excluded.mult;
			st.adds := st.adds + cardinality(batch);
		ELSE
			-- remove up to 3000 present elements (some several times, never more than present)
			SELECT array_agg(id ORDER BY r) INTO batch FROM (
				SELECT t.id, random() AS r
				FROM (SELECT DISTINCT (1 + floor(random() * 150000))::int AS id FROM generate_series(1, 3000)) c
				JOIN cb_truth t USING (id), generate_series(1, t.mult) g
				WHERE g <= 1 + floor(random() * 2)) s;
			CONTINUE WHEN batch IS NULL;
			st.big := countingbloom_remove(st.big, batch);
			st.small := countingbloom_remove(st.small, batch);
			UPDATE cb_truth t SET mult = t.mult - d.n
			FROM (SELECT x, count(*) AS n FROM unnest(batch) x GROUP BY x) d WHERE t.id = d.x;
			st.removes := st.removes + cardinality(batch);
		END IF;
	END LOOP;
	UPDATE cb_ops_state SET big = st.big, small = st.small, adds = st.adds, removes = st.removes;
END $$;
SELECT adds > 200000 AS many_adds, removes > 100000 AS many_removes,
	(SELECT count(*) FROM cb_truth WHERE mult > 0) > 50000 AS many_present,
	(SELECT count(*) FROM cb_truth WHERE mult = 0) > 10000 AS many_fully_removed,
	(SELECT max(mult) FROM cb_truth) >= 4 AS some_repeated,
	(SELECT sum(mult) FROM cb_truth) = adds - removes AS truth_consistent
FROM cb_ops_state;
-- every element still present is found, in both filters; count never below the truth
SELECT count(*) AS present,
	count(*) FILTER (WHERE NOT big @> id) AS big_false_negatives,
	count(*) FILTER (WHERE NOT small @> id) AS small_false_negatives,
	count(*) FILTER (WHERE countingbloom_count(big, id) < mult) AS big_count_below_truth,
	count(*) FILTER (WHERE countingbloom_count(small, id) < least(mult, 15)) AS small_count_below_truth,
	count(*) FILTER (WHERE countingbloom_count(big, id) = mult) * 100 / count(*) >= 95 AS big_count_mostly_exact
FROM cb_truth, cb_ops_state WHERE mult > 0;
-- the overloaded filter really saturated, the big one never did
SELECT (countingbloom_info(small)).counters_saturated > 1000 AS small_saturated,
	(countingbloom_info(big)).counters_saturated AS big_saturated,
	(countingbloom_info(big)).inserts = adds - removes AS big_inserts_net
FROM cb_ops_state;
-- without saturation the result is exact: the filter of the remaining multiset,
-- and its bloom cast is the bloom filter of the remaining set
SELECT big = (SELECT countingbloom_agg(id, 150000, 0.01) FROM cb_truth, generate_series(1, mult)) AS big_equals_multiset,
	big::bloom = (SELECT bloom_agg(id, 150000, 0.01) FROM cb_truth WHERE mult > 0) AS big_cast_equals_set
FROM cb_ops_state;
-- the overloaded one can only hold more: each of its counters is at least the
-- exact one (e - small keeps only e's own saturated counters, like e - e)
CREATE TABLE cb_exact_small AS
SELECT countingbloom_add(countingbloom_create(20000, 4), array_agg(id)) AS e FROM cb_truth, generate_series(1, mult);
SELECT e - small = e - e AS small_dominates_exact, e <> small AS small_differs_from_exact,
	(countingbloom_info(e)).counters_saturated > 0 AS exact_also_saturated
FROM cb_exact_small, cb_ops_state;
-- fully removed elements behave like non-members of the big filter
SELECT count(*) FILTER (WHERE big @> id)::float8 / count(*) <= 2 * countingbloom_fpr(big) + 0.001 AS removed_look_absent
FROM cb_truth, cb_ops_state WHERE mult = 0;

-- 3. unions and differences of halves equal the whole, counter for counter
CREATE TABLE cb_halves AS
SELECT (SELECT countingbloom_agg(k, 150000, 0.01) FROM cb_keys WHERE id % 2 = 0) AS even,
	(SELECT countingbloom_agg(k, 150000, 0.01) FROM cb_keys WHERE id % 2 = 1) AS odd,
	(SELECT f FROM cb_filters WHERE name = 'text_1pct') AS whole;
SELECT even | odd = whole AS union_of_halves, whole - even = odd AS difference_gives_other_half,
	(whole - even)::bloom = odd::bloom AS difference_cast, (countingbloom_info(whole - even)).inserts AS inserts,
	(SELECT countingbloom_union_agg(f) FROM (SELECT countingbloom_agg(k, 150000, 0.01) f FROM cb_keys GROUP BY id % 13) s) = whole AS union_agg_of_groups
FROM cb_halves;
-- the union of a filter with itself doubles every count; subtracting it again restores it
SELECT count(*) FILTER (WHERE countingbloom_count(whole | whole, k) < 2) AS doubled_below_2,
	count(*) FILTER (WHERE NOT (whole | whole) - whole @> k) AS lost_after_subtract
FROM cb_halves, cb_keys;

DROP TABLE cb_keys, cb_nonkeys, cb_filters, cb_fpr, cb_truth, cb_ops_state, cb_exact_small, cb_halves;
