-- countingbloom on real volumes: no false negatives after random interleavings
-- of adds and removes (also heavily saturated), measured FPR with 1M probes,
-- count bounds multiplicity, exactness against the multiset, unions and
-- differences of halves, probes of a large out-of-line filter
SET max_parallel_workers_per_gather = 0;

CREATE TABLE cb_keys AS SELECT i AS id, 'key-' || md5(i::text) AS k FROM generate_series(1, 150000) i;
CREATE TABLE cb_nonkeys AS SELECT 'other-' || i AS k FROM generate_series(1, 1000000) i;
SELECT count(DISTINCT k) AS distinct_keys FROM cb_keys;

-- 1. design capacity: no false negatives, FPR within 1.25x of the target with 1M non-members
CREATE TABLE cb_filters (name text PRIMARY KEY, target float8, f countingbloom);
INSERT INTO cb_filters
SELECT 'text_1pct', 0.01, countingbloom_agg(k, 150000, 0.01) FROM cb_keys UNION ALL
SELECT 'text_01pct', 0.001, countingbloom_agg(k, 150000, 0.001) FROM cb_keys;
-- stored out of line and uncompressed (STORAGE external): probes read TOAST slices
SELECT name, pg_column_size(f) >= (countingbloom_info(f)).size_bytes - 4 AS uncompressed,
	(countingbloom_info(f)).size_bytes > 256 * 1024 AS big_enough_for_slices
FROM cb_filters ORDER BY name;
SELECT name, (SELECT count(*) FILTER (WHERE NOT f @> k) FROM cb_keys) AS false_negatives,
	(SELECT count(*) FILTER (WHERE countingbloom_count(f, k) < 1) FROM cb_keys) AS count_below_1
FROM cb_filters ORDER BY name;
CREATE TABLE cb_fpr AS
SELECT name, target, (SELECT avg((f @> k)::int) FROM cb_nonkeys) AS measured FROM cb_filters;
SELECT name, target, measured <= target * 1.25 AS within_125pct, measured >= target * 0.75 AS not_suspiciously_low,
	abs(countingbloom_fpr(f) - target) < target * 0.25 AS estimate_near_target,
	abs(countingbloom_cardinality(f) - 150000) <= 150000 * 0.05 AS cardinality_within_5pct,
	(countingbloom_info(f)).counters_saturated AS saturated
FROM cb_fpr JOIN cb_filters USING (name, target) ORDER BY name;
-- first probes of a statement use the slice path: spot checks
SELECT f @> ('key-' || md5('4242')) AS member, f @> 'nope'::text AS nonmember,
	countingbloom_count(f, 'key-' || md5('4242')) AS member_count FROM cb_filters WHERE name = 'text_01pct';
-- the counting filter probes exactly like the bloom filter it casts to
SELECT name, b = (SELECT bloom_agg(k, 150000, target) FROM cb_keys) AS cast_equals_bloom_agg,
	(SELECT count(*) FROM cb_nonkeys WHERE (f @> k) <> (b @> k)) AS probe_disagreements
FROM cb_filters, LATERAL (SELECT f::bloom AS b OFFSET 0) c ORDER BY name;

-- 2. random interleavings of adds and removes of added elements.  Each key is
-- added 1..4 times and removed 0..(adds) times, every remove at a random time
-- after the add it undoes; all events sorted by time are applied in 400 time
-- slots (adds of a slot, then its removes, so a remove never precedes its add).
-- The big filter is sized for the keys, the small one is overloaded so that
-- many counters saturate.  The truth is the multiset of the remaining events.
SELECT setseed(0.4242);
CREATE TABLE cb_ev AS
WITH per_key AS (
	SELECT id, 1 + floor(random() * 4)::int AS adds FROM generate_series(1, 100000) id
), add_ev AS (
	SELECT id, j, random() AS t, floor(random() * (adds + 1))::int AS removes FROM per_key, generate_series(1, adds) j
)
SELECT id, 'a' AS op, t FROM add_ev
UNION ALL
SELECT id, 'r', t + random() * (1 - t) FROM add_ev WHERE j <= removes;
CREATE TABLE cb_batches AS
SELECT least(floor(t * 400)::int, 399) AS slot, op, array_agg(id ORDER BY t) AS ids FROM cb_ev GROUP BY 1, 2;
CREATE TABLE cb_truth AS
SELECT id, count(*) FILTER (WHERE op = 'a') - count(*) FILTER (WHERE op = 'r') AS mult FROM cb_ev GROUP BY id;
CREATE TABLE cb_ops_state (big countingbloom, small countingbloom, adds bigint, removes bigint);
DO $$
DECLARE
	b record;
	big countingbloom := countingbloom_empty(100000, 0.01);
	small countingbloom := countingbloom_create(20000, 4);
BEGIN
	FOR b IN SELECT * FROM cb_batches ORDER BY slot, op LOOP
		IF b.op = 'a' THEN
			big := countingbloom_add(big, b.ids);
			small := countingbloom_add(small, b.ids);
		ELSE
			big := countingbloom_remove(big, b.ids);
			small := countingbloom_remove(small, b.ids);
		END IF;
	END LOOP;
	INSERT INTO cb_ops_state SELECT big, small, count(*) FILTER (WHERE op = 'a'), count(*) FILTER (WHERE op = 'r') FROM cb_ev;
END $$;
SELECT adds > 200000 AS many_adds, removes > 100000 AS many_removes,
	(SELECT count(*) FROM cb_batches) AS batches,
	(SELECT count(*) FROM cb_truth WHERE mult > 0) > 50000 AS many_present,
	(SELECT count(*) FROM cb_truth WHERE mult = 0) > 10000 AS many_fully_removed,
	(SELECT max(mult) FROM cb_truth) AS max_mult,
	(SELECT min(mult) FROM cb_truth) AS min_mult
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
-- exact wherever not saturated: each counter is 15 or equals the counter of the
-- filter built from the remaining multiset (e); checked with differences, which
-- keep saturated counters:
--   big - e = big - big   every unsaturated counter of big is <= e's
--   e - big = e - e       every unsaturated counter of e is <= big's
--   (e - e) | (big - big) = big - big   e saturated only where big is
CREATE TABLE cb_exact AS
SELECT (SELECT countingbloom_agg(id, 100000, 0.01) FROM cb_truth, generate_series(1, mult)) AS e,
	(SELECT countingbloom_add(countingbloom_create(20000, 4), array_agg(id)) FROM cb_truth, generate_series(1, mult)) AS e_small;
SELECT big - e = big - big AND e - big = e - e AND (e - e) | (big - big) = big - big AS big_exact_but_saturated,
	small - e_small = small - small AND e_small - small = e_small - e_small
		AND (e_small - e_small) | (small - small) = small - small AS small_exact_but_saturated,
	big <> e AS big_saturation_shows, small <> e_small AS small_saturation_shows,
	(countingbloom_info(e_small)).counters_saturated < (countingbloom_info(small)).counters_saturated AS small_more_saturated_than_truth
FROM cb_exact, cb_ops_state;
-- the bloom cast of the big filter is the bloom filter of the remaining set
-- wherever no counter of an absent element stuck at 15
SELECT big::bloom @> (SELECT bloom_agg(id, 100000, 0.01) FROM cb_truth WHERE mult > 0) AS big_cast_covers_set,
	(bloom_info(big::bloom)).bits_set - (bloom_info((SELECT bloom_agg(id, 100000, 0.01) FROM cb_truth WHERE mult > 0))).bits_set
		<= (countingbloom_info(big)).counters_saturated AS extra_bits_only_saturated
FROM cb_ops_state;
-- fully removed elements behave like non-members of the big filter
SELECT (SELECT count(*) FILTER (WHERE big @> id)::float8 / count(*) FROM cb_truth WHERE mult = 0)
	<= 2 * countingbloom_fpr(big) + 0.001 AS removed_look_absent
FROM cb_ops_state;

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
SELECT count(*) FILTER (WHERE countingbloom_count(doubled, k) < 2) AS doubled_below_2,
	count(*) FILTER (WHERE NOT restored @> k) AS lost_after_subtract
FROM (SELECT whole | whole AS doubled, (whole | whole) - whole AS restored
	  FROM cb_halves OFFSET 0) h, cb_keys;

-- 4. probe views: a call site that probes one stored filter again and again
-- switches from its counters to its bits (after size / 64 probes) and must
-- answer exactly as the counters do, also when the filter it sees changes
-- from one outer row to the next (each change drops the view).  Three
-- filters of three key sets, stored out of line (the type's default) and
-- compressed inline (STORAGE main, a sparse filter), each probed by 50k
-- members and 111k non-members through the same call site.
CREATE TABLE cb_view_filters (id int PRIMARY KEY, f countingbloom);
CREATE TABLE cb_view_inline (id int PRIMARY KEY, f countingbloom);
ALTER TABLE cb_view_inline ALTER f SET STORAGE main;
INSERT INTO cb_view_filters
SELECT id % 3, countingbloom_agg(k, 40000 + 10000 * (id % 3), 0.01) FROM cb_keys WHERE id <= 90000 GROUP BY id % 3;
INSERT INTO cb_view_inline
SELECT id % 3, countingbloom_agg(k, 100000, 0.01) FROM cb_keys WHERE id <= 300 GROUP BY id % 3;
SELECT 'out of line' AS storage, count(*) FILTER (WHERE pg_column_size(f) >= (countingbloom_info(f)).size_bytes - 4) AS uncompressed
FROM cb_view_filters
UNION ALL
SELECT 'inline', count(*) FILTER (WHERE pg_column_size(f) < 8000 AND (countingbloom_info(f)).size_bytes > 8000)
FROM cb_view_inline;
CREATE TABLE cb_view_probes AS
SELECT id, k FROM cb_keys WHERE id <= 50000 UNION ALL SELECT NULL, k FROM cb_nonkeys WHERE k < 'other-2';
SELECT f.storage, f.id, p.*
FROM (SELECT 'out of line' AS storage, id, f, 90000 AS last_key FROM cb_view_filters
	  UNION ALL SELECT 'inline', id, f, 300 FROM cb_view_inline) f,
	 LATERAL (SELECT count(*) AS probes,
				count(*) FILTER (WHERE (f.f @> k) IS DISTINCT FROM (countingbloom_count(f.f, k) > 0)) AS disagreements,
				count(*) FILTER (WHERE id % 3 = f.id AND id <= f.last_key AND NOT f.f @> k) AS false_negatives,
				count(*) FILTER (WHERE id IS NULL AND f.f @> k) < 1500 AS few_false_positives
			  FROM cb_view_probes) p
ORDER BY 1, 2;
-- the filter changing on every probe: no view is kept, answers stay exact
SELECT count(*) AS probes,
	count(*) FILTER (WHERE (f.f @> p.k) IS DISTINCT FROM (countingbloom_count(f.f, p.k) > 0)) AS disagreements,
	count(*) FILTER (WHERE p.id % 3 = f.id AND p.id <= 90000 AND NOT f.f @> p.k) AS false_negatives
FROM (SELECT * FROM cb_view_probes WHERE id <= 20000 OR id IS NULL LIMIT 30000) p,
	 LATERAL (SELECT * FROM cb_view_filters f WHERE f.id = (hashtext(p.k) & 3) % 3 OFFSET 0) f;

DROP TABLE cb_keys, cb_nonkeys, cb_filters, cb_fpr, cb_ev, cb_batches, cb_truth, cb_ops_state, cb_exact, cb_halves,
	cb_view_filters, cb_view_inline, cb_view_probes;
