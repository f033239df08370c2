-- quotientfilter: worked example, functions, I/O, resize, merge, aggregates, every error path
CREATE SCHEMA quotientfilter_test;
SET search_path = quotientfilter_test, public;
\pset null '(null)'

-- ---------------------------------------------------------------------
-- The worked example of spec/quotient-example.md: q = 5, r = 6
-- ---------------------------------------------------------------------
CREATE TEMP TABLE ex (f quotientfilter);
INSERT INTO ex VALUES (quotientfilter_create(5, 6));
CREATE TEMP VIEW ex_slots AS
	SELECT slot, remainder,
		format('(%s,%s,%s)', is_occupied::int, is_continuation::int, is_shifted::int) AS meta
	FROM ex, quotientfilter_slots(ex.f) ORDER BY slot;

-- v = 10001 001010
UPDATE ex SET f = quotientfilter_add_fingerprint(f, B'10001001010'::int);
SELECT * FROM ex_slots;
-- w = 10011 100111
UPDATE ex SET f = quotientfilter_add_fingerprint(f, B'10011100111'::int);
SELECT * FROM ex_slots;
-- x = 10011 111111
UPDATE ex SET f = quotientfilter_add_fingerprint(f, B'10011111111'::int);
SELECT * FROM ex_slots;
-- y = 10100 101101
UPDATE ex SET f = quotientfilter_add_fingerprint(f, B'10100101101'::int);
SELECT * FROM ex_slots;
-- z = 10100 111110
UPDATE ex SET f = quotientfilter_add_fingerprint(f, B'10100111110'::int);
SELECT * FROM ex_slots;
-- a = 10100 000000
UPDATE ex SET f = quotientfilter_add_fingerprint(f, B'10100000000'::int);
SELECT * FROM ex_slots;

-- lookups: the six are found, 10100 000001 and 10101 000000 are not
SELECT b AS fingerprint, quotientfilter_contains_fingerprint(f, b::int) AS found
FROM ex, (VALUES (B'10001001010'), (B'10011100111'), (B'10011111111'), (B'10100101101'),
	(B'10100111110'), (B'10100000000'), (B'10100000001'), (B'10101000000')) AS t(b);
SELECT (quotientfilter_fingerprints(f)::bit(11)) AS stored_fingerprints FROM ex;
SELECT entries, distinct_fingerprints, runs, clusters, longest_cluster FROM ex, quotientfilter_info(f);

-- keep the full example for the corruption tests below
CREATE TEMP TABLE ex_full AS SELECT f FROM ex;

-- delete x: the run of 20 moves one slot left, a lands in its canonical slot
UPDATE ex SET f = quotientfilter_remove_fingerprint(f, B'10011111111'::int);
SELECT * FROM ex_slots;
-- delete w: the run of 19 is gone, slot 19's is_occupied is cleared
UPDATE ex SET f = quotientfilter_remove_fingerprint(f, B'10011100111'::int);
SELECT * FROM ex_slots;
-- removing an absent fingerprint changes nothing
SELECT quotientfilter_remove_fingerprint(f, B'10011100111'::int) = f AS unchanged FROM ex;
SELECT quotientfilter_cardinality(f) FROM ex;

-- wrap-around: a cluster at the end of the table continues at slot 0
SELECT s.* FROM (SELECT quotientfilter_add_fingerprint(quotientfilter_add_fingerprint(
	quotientfilter_add_fingerprint(quotientfilter_add_fingerprint(quotientfilter_create(3, 4),
	B'1110001'::int), B'1110010'::int), B'1111111'::int), B'0000011'::int) AS f) t,
	quotientfilter_slots(t.f) s;
SELECT quotientfilter_fingerprints(f)::bit(7) AS sorted_fingerprints
FROM (SELECT quotientfilter_add_fingerprint(quotientfilter_add_fingerprint(
	quotientfilter_add_fingerprint(quotientfilter_add_fingerprint(quotientfilter_create(3, 4),
	B'1110001'::int), B'1110010'::int), B'1111111'::int), B'0000011'::int) AS f) t;
-- remove from the wrapped run: everything moves back
SELECT s.* FROM (SELECT quotientfilter_remove_fingerprint(quotientfilter_add_fingerprint(
	quotientfilter_add_fingerprint(quotientfilter_add_fingerprint(quotientfilter_add_fingerprint(
	quotientfilter_create(3, 4), B'1110001'::int), B'1110010'::int), B'1111111'::int),
	B'0000011'::int), B'1110001'::int) AS f) t, quotientfilter_slots(t.f) s;

-- ---------------------------------------------------------------------
-- Sizing: q from capacity at load <= 0.9, p from capacity / 2^p <= fpr
-- ---------------------------------------------------------------------
SELECT capacity, fpr, i.q, i.r, i.fingerprint_bits, i.slots, i.size_bytes,
	capacity <= 0.9 * i.slots AS fits, capacity / 2 ^ i.fingerprint_bits <= fpr AS meets_fpr
FROM (VALUES (1::bigint, 0.5::float8), (100, 0.01), (100000, 0.01), (100000, 0.001), (1000000, 0.0001),
	(10, 1e-15)) AS t(capacity, fpr), quotientfilter_info(quotientfilter_empty(capacity, fpr)) i;
SELECT (quotientfilter_info(quotientfilter_empty(1000, 0.01, -7))).seed;

-- ---------------------------------------------------------------------
-- Elements
-- ---------------------------------------------------------------------
CREATE TEMP TABLE f AS
	SELECT quotientfilter_add(quotientfilter_add(quotientfilter_empty(1000), 'hello'::text), 42) AS f;
SELECT f @> 'hello'::text AS hello, f @> 42 AS i4, f @> 42::int2 AS i2, f @> 42::bigint AS i8,
	'hello'::varchar <@ f AS varchar_contained, f @> 'absent'::text AS absent,
	quotientfilter_contains(f, NULL::int) AS null_probe FROM f;
SELECT quotientfilter_add(f, NULL::int) = f AS null_add_unchanged,
	quotientfilter_remove(f, NULL::int) = f AS null_remove_unchanged,
	quotientfilter_add(NULL::quotientfilter, 1) IS NULL AS null_filter FROM f;
SELECT quotientfilter_cardinality(quotientfilter_add(f, ARRAY[1, 2, NULL, 3])) AS after_array,
	quotientfilter_cardinality(quotientfilter_remove(quotientfilter_add(f, ARRAY[1, 2, 3]), ARRAY[2, 3, NULL])) AS after_remove
FROM f;
-- inputs are never modified in place
SELECT quotientfilter_cardinality(f) AS still_two FROM f;
-- a fingerprint added twice is stored twice and needs two removes (multiset)
SELECT quotientfilter_cardinality(g) AS twice, (quotientfilter_info(g)).distinct_fingerprints,
	quotientfilter_remove(g, 7) @> 7 AS after_one_remove,
	quotientfilter_remove(quotientfilter_remove(g, 7), 7) @> 7 AS after_two_removes
FROM (SELECT quotientfilter_add(quotientfilter_add(quotientfilter_empty(100), 7), 7) AS g) t;
-- remove of the same fingerprint added through two element types
SELECT quotientfilter_remove(quotientfilter_add(quotientfilter_empty(100), 5::int2), 5::bigint) =
	quotientfilter_empty(100) AS cross_type_remove;
-- the fingerprint is the top p bits of the canonical hash
SELECT quotientfilter_fingerprints(quotientfilter_add(quotientfilter_empty(100, 0.01, 3), 'abc'::text)) =
	((bloomfilter_hash('abc'::text, 3) >> (64 - p)) & ((1::bigint << p) - 1)) AS top_bits
FROM (SELECT (quotientfilter_info(quotientfilter_empty(100, 0.01, 3))).fingerprint_bits AS p) t;

-- ---------------------------------------------------------------------
-- Text I/O, equality
-- ---------------------------------------------------------------------
SELECT f::text FROM ex;
SELECT f::text::quotientfilter = f AS text_round_trip FROM ex_full;
SELECT quotientfilter_empty(100)::text;
-- = compares the fingerprint multisets of filters with the same p and seed,
-- whatever their q (resize moves bits between quotient and remainder)
SELECT quotientfilter_empty(100) = quotientfilter_empty(100) AS eq,
	quotientfilter_empty(100) <> quotientfilter_empty(100) AS ne,
	quotientfilter_empty(100) = quotientfilter_resize(quotientfilter_empty(100), 8) AS different_q_empty,
	f = quotientfilter_resize(f, 6) AS different_q, f <> quotientfilter_resize(f, 6) AS different_q_ne,
	quotientfilter_resize(f, 4) = quotientfilter_resize(f, 7) AS both_resized,
	f = quotientfilter_add_fingerprint(f, 5) AS one_more,
	quotientfilter_add_fingerprint(f, 5) = quotientfilter_add_fingerprint(quotientfilter_resize(f, 6), 6) AS same_count_other_fingerprint,
	quotientfilter_add_fingerprint(f, 5) = quotientfilter_add_fingerprint(quotientfilter_resize(f, 6), 5) AS same_added,
	quotientfilter_add_fingerprint(f, 5) = quotientfilter_add_fingerprint(f, 6) AS same_q_other_fingerprint,
	quotientfilter_add_fingerprint(f, 5) = quotientfilter_add_fingerprint(quotientfilter_add_fingerprint(f, 5), 5) AS duplicate_counts
FROM ex_full;
-- filters of different p or seed cannot be compared: 22023, naming both
SELECT quotientfilter_empty(100) = quotientfilter_empty(100, 0.01, 1);
\echo :LAST_ERROR_SQLSTATE
SELECT quotientfilter_empty(100) <> quotientfilter_empty(100, 0.01, 1);
\echo :LAST_ERROR_SQLSTATE
SELECT quotientfilter_empty(100, 0.01) = quotientfilter_empty(100, 0.0001);
\echo :LAST_ERROR_SQLSTATE
SELECT quotientfilter_create(5, 6) <> quotientfilter_create(6, 6);
\echo :LAST_ERROR_SQLSTATE
SELECT length(quotientfilter_send(f)) AS send_bytes, pg_column_size(f) AS datum_bytes FROM ex_full;

-- ---------------------------------------------------------------------
-- Resize: bits move between quotient and remainder, no rehashing
-- ---------------------------------------------------------------------
CREATE TEMP TABLE big AS SELECT quotientfilter_agg(i, 1000, 0.001) AS f FROM generate_series(1, 900) i;
SELECT q, r, entries, round(load_factor::numeric, 3) AS load FROM big, quotientfilter_info(f);
SELECT newq, i.q, i.r, i.entries,
	array(SELECT quotientfilter_fingerprints(g)) = array(SELECT quotientfilter_fingerprints(f)) AS same_fingerprints,
	(SELECT count(*) FROM generate_series(1, 900) x WHERE NOT g @> x) AS false_negatives,
	quotientfilter_resize(g, (SELECT q FROM quotientfilter_info(f))) = f AS back_to_original
FROM big, generate_series(10, 16) newq, LATERAL (SELECT quotientfilter_resize(f, newq) AS g) t,
	LATERAL quotientfilter_info(g) i ORDER BY newq;
SELECT quotientfilter_resize(f, 9) FROM big;
\echo :LAST_ERROR_SQLSTATE
SELECT quotientfilter_resize(f, 0) FROM big;
\echo :LAST_ERROR_SQLSTATE
SELECT quotientfilter_resize(f, 21) FROM big;
\echo :LAST_ERROR_SQLSTATE
-- a q that the fingerprints allow but no table can hold: the size limit
-- (54000), not quotientfilter_create's q range
SELECT quotientfilter_resize(quotientfilter_create(3, 61), 50);
\echo :LAST_ERROR_SQLSTATE
-- below p - 61 the remainders would not fit a slot: resize's own 22023,
-- not quotientfilter_create's r range and its hint
SELECT quotientfilter_resize(quotientfilter_create(3, 61), 2);
\echo :LAST_ERROR_SQLSTATE
SELECT q, r FROM quotientfilter_info(quotientfilter_resize(quotientfilter_create(5, 59), 3));
-- a filter that has grown into several members is folded into one table of
-- the shortest member's fingerprint length p: each longer fingerprint is cut
-- to its top p bits, so the result holds the top p bits of every element's
-- hash (compared with fingerprints computed in SQL) and grows by members again
CREATE TEMP TABLE chain AS
	SELECT quotientfilter_agg(i, 100, 0.01) AS f FROM generate_series(1, 1000) i;
SELECT substring(f::text from 'members=\d+') AS members, (quotientfilter_info(f)).fingerprint_bits AS newest_p,
	substring(g::text from 'members=\d+') AS folded, i.q, i.r, i.fingerprint_bits AS p, i.entries,
	array(SELECT quotientfilter_fingerprints(g))
		= array(SELECT (bloomfilter_hash(x, 0) >> (64 - i.fingerprint_bits)) & ((1::bigint << i.fingerprint_bits) - 1)
			FROM generate_series(1, 1000) x ORDER BY 1) AS fingerprints_are_top_p_bits,
	(SELECT count(*) FROM generate_series(1, 1000) x WHERE NOT g @> x) AS false_negatives,
	g = quotientfilter_resize(f, 13) AS equals_other_q, g::text::quotientfilter = g AS text_round_trip,
	quotientfilter_contains_fingerprint(g, (bloomfilter_hash(7, 0) >> (64 - i.fingerprint_bits)) & ((1::bigint << i.fingerprint_bits) - 1)) AS raw_functions_work,
	substring(quotientfilter_add(g, array(SELECT generate_series(1001, 4000)))::text from 'members=\d+') AS grows_again
FROM chain, LATERAL (SELECT quotientfilter_resize(f, 12) AS g OFFSET 0) t, LATERAL quotientfilter_info(g) i;
-- the shortest member need not be the first: b | a starts with b's members
SELECT (quotientfilter_info(g)).fingerprint_bits AS p, quotientfilter_cardinality(g) AS n,
	array(SELECT quotientfilter_fingerprints(g))
		= array(SELECT (bloomfilter_hash(x, 0) >> 50) & 16383 FROM generate_series(1, 300) x ORDER BY 1) AS fingerprints_are_top_p_bits
FROM (SELECT quotientfilter_resize(quotientfilter_add(quotientfilter_empty(100, 0.0001), array(SELECT generate_series(151, 300)))
	| quotientfilter_add(quotientfilter_empty(100, 0.01), array(SELECT generate_series(1, 150))), 9) AS g) t;
-- q beyond the shortest fingerprints' remainder bits, or too few slots: 22023
SELECT quotientfilter_resize(f, 14) FROM chain;
\echo :LAST_ERROR_SQLSTATE
SELECT quotientfilter_resize(f, 9) FROM chain;
\echo :LAST_ERROR_SQLSTATE
-- more entries than the shortest fingerprints leave slots for: no q works (54000)
SELECT quotientfilter_resize(quotientfilter_agg(i, 100, 0.01), 13) FROM generate_series(1, 20000) i;
\echo :LAST_ERROR_SQLSTATE

-- ---------------------------------------------------------------------
-- Automatic growth past the maximum load (0.9)
-- ---------------------------------------------------------------------
SELECT n, i.q, i.r, i.entries, i.load_factor <= 0.9 AS within_bound, i.estimated_fpr, i.fpr_at_max_load
FROM generate_series(0, 40, 8) n,
	LATERAL quotientfilter_info(quotientfilter_add(quotientfilter_create(3, 8), array(SELECT generate_series(1, n)))) i;
-- at r = 1 the table cannot grow: it fills up, then refuses with 54000
SELECT quotientfilter_cardinality(quotientfilter_add_fingerprint(quotientfilter_add_fingerprint(
	quotientfilter_add_fingerprint(quotientfilter_add_fingerprint(quotientfilter_create(2, 1), 0), 1), 2), 3)) AS full;
SELECT quotientfilter_add_fingerprint(quotientfilter_add_fingerprint(quotientfilter_add_fingerprint(
	quotientfilter_add_fingerprint(quotientfilter_add_fingerprint(quotientfilter_create(2, 1), 0), 1), 2), 3), 7);
\echo :LAST_ERROR_SQLSTATE

-- ---------------------------------------------------------------------
-- Merge: equal p and seed, q may differ
-- ---------------------------------------------------------------------
CREATE TEMP TABLE halves AS SELECT
	quotientfilter_agg(i, 500, 0.001) FILTER (WHERE i % 2 = 0) AS a,
	quotientfilter_agg(i, 2000, 0.004) FILTER (WHERE i % 2 = 1) AS b,
	quotientfilter_agg(i, 2000, 0.004) AS whole
FROM generate_series(1, 1000) i;
SELECT (quotientfilter_info(a)).q AS qa, (quotientfilter_info(b)).q AS qb,
	(quotientfilter_info(a)).fingerprint_bits AS pa, (quotientfilter_info(b)).fingerprint_bits AS pb,
	(quotientfilter_info(a | b)).q AS q_union, quotientfilter_cardinality(a | b) AS n_union,
	a | b = b | a AS commutative, a | b = whole AS union_equals_whole,
	array(SELECT quotientfilter_fingerprints(a | b)) = array(SELECT quotientfilter_fingerprints(whole)) AS same_fingerprints
FROM halves;
SELECT quotientfilter_union_agg(f) = (SELECT whole FROM halves) AS union_agg
FROM (SELECT a AS f FROM halves UNION ALL SELECT b FROM halves UNION ALL SELECT NULL) t;
SELECT quotientfilter_union_agg(f) IS NULL AS union_agg_no_rows FROM (SELECT NULL::quotientfilter AS f WHERE false) t;
-- equality looks past layout: a union keeps its left side's empty members and orders members by table
-- size, so a | b and b | a can differ in bytes; they are equal, hash alike and group together
CREATE TEMP TABLE qf_sides AS SELECT
	quotientfilter_empty(100, 0.001) AS empty_other,
	quotientfilter_add(quotientfilter_add(quotientfilter_empty(1000, 0.01), 1), 2) AS two,
	quotientfilter_add(quotientfilter_empty(1000, 0.001), 7) AS seven_long,
	quotientfilter_add(quotientfilter_empty(1000, 0.01), 8) AS eight_short;
CREATE TEMP TABLE qf_pairs AS
SELECT 1 AS pair, empty_other | two AS ab, two | empty_other AS ba FROM qf_sides
UNION ALL SELECT 2, seven_long | eight_short, eight_short | seven_long FROM qf_sides;
SELECT pair, ab::text <> ba::text AS bytes_differ, ab = ba AS equal,
	quotientfilter_cmp(ab, ba) AS cmp, quotientfilter_hash(ab) = quotientfilter_hash(ba) AS same_hash,
	quotientfilter_hash_extended(ab, 7) = quotientfilter_hash_extended(ba, 7) AS same_hash_extended,
	quotientfilter_cardinality(ab) AS n
FROM qf_pairs ORDER BY pair;
SET enable_hashagg = on;
SELECT count(DISTINCT f) AS groups_hashed FROM (SELECT ab AS f FROM qf_pairs UNION SELECT ba FROM qf_pairs) t;
SET enable_hashagg = off;
SELECT count(*) AS groups_sorted FROM (SELECT f FROM (SELECT ab AS f FROM qf_pairs UNION ALL SELECT ba FROM qf_pairs) t GROUP BY f) g;
RESET enable_hashagg;
-- an empty member still counts when nothing else holds entries: empty filters of other p differ
SELECT quotientfilter_empty(100, 0.001) = quotientfilter_empty(100, 0.01) AS empty_other_p_equal,
	quotientfilter_empty(100, 0.01) = quotientfilter_empty(100, 0.01, 1) AS empty_other_seed_equal,
	quotientfilter_empty(100, 0.01) = quotientfilter_empty(100, 0.01) AS empty_same_equal;
-- the union aggregate inserts each input into its state where the tables keep their sizes (growing
-- filters sized for the total, fixed ones, and a chain that outgrows its capacity partway, rebuilt
-- then): byte for byte the left fold of |, which builds every union anew
CREATE TEMP TABLE qf_days AS
SELECT d, quotientfilter_agg(d * 100000 + i, 40000, 0.001) AS sized,
	quotientfilter_agg(d * 100000 + i, 8000, 0.001) AS small,
	quotientfilter_add(quotientfilter_empty(40000, 0.001), array_agg(d * 100000 + i)) AS fixed,
	quotientfilter_agg(d * 100000 + i % 700, 40000, 0.001) AS repeats,
	quotientfilter_agg(d * 100000 + i, 500, 0.001) AS chained,
	quotientfilter_add(quotientfilter_create(16, 10), array_agg(d * 100000 + i)) AS created,
	quotientfilter_add(quotientfilter_create(15, 11), array_agg(d * 100000 + i)) AS created_grows
FROM generate_series(1, 12) d, generate_series(1, 2000 + d * 100) i GROUP BY d;
WITH RECURSIVE fold(d, sized, small, fixed, repeats, chained, created, created_grows) AS (
	SELECT d, sized, small, fixed, repeats, chained, created, created_grows FROM qf_days WHERE d = 1
	UNION ALL
	SELECT q.d, f.sized | q.sized, f.small | q.small, f.fixed | q.fixed, f.repeats | q.repeats, f.chained | q.chained,
		f.created | q.created, f.created_grows | q.created_grows
	FROM fold f JOIN qf_days q ON q.d = f.d + 1)
SELECT (SELECT quotientfilter_union_agg(sized ORDER BY d) FROM qf_days)::text = sized::text AS sized_same,
	(SELECT quotientfilter_union_agg(small ORDER BY d) FROM qf_days)::text = small::text AS small_same,
	(SELECT quotientfilter_union_agg(fixed ORDER BY d) FROM qf_days)::text = fixed::text AS fixed_same,
	(SELECT quotientfilter_union_agg(repeats ORDER BY d) FROM qf_days)::text = repeats::text AS repeats_same,
	(SELECT quotientfilter_union_agg(chained ORDER BY d) FROM qf_days)::text = chained::text AS chained_same,
	(SELECT quotientfilter_union_agg(created ORDER BY d) FROM qf_days)::text = created::text AS created_same,
	(SELECT quotientfilter_union_agg(created_grows ORDER BY d) FROM qf_days)::text = created_grows::text AS created_grows_same,
	(quotientfilter_info(created_grows)).q AS created_grows_q,
	substring(small::text from 'members=\d+') AS small_members, substring(chained::text from 'members=\d+') AS chained_members,
	(SELECT max(substring(chained::text from 'members=(\d+)')::int) FROM qf_days) AS chained_members_a_day,
	quotientfilter_cardinality(sized) AS entries
FROM fold WHERE d = 12;
SELECT count(*) FILTER (WHERE NOT u.sized @> (d * 100000 + i)) AS fn_sized,
	count(*) FILTER (WHERE NOT u.small @> (d * 100000 + i)) AS fn_small,
	count(*) FILTER (WHERE NOT u.fixed @> (d * 100000 + i)) AS fn_fixed,
	count(*) FILTER (WHERE NOT u.chained @> (d * 100000 + i)) AS fn_chained
FROM (SELECT quotientfilter_union_agg(sized) AS sized, quotientfilter_union_agg(small) AS small,
		quotientfilter_union_agg(fixed) AS fixed, quotientfilter_union_agg(chained) AS chained FROM qf_days) u,
	generate_series(1, 12) d, generate_series(1, 2000 + d * 100) i;
DROP TABLE qf_days;
-- two fixed filters need the same p
SELECT quotientfilter_create(7, 7) | quotientfilter_create(7, 13);
\echo :LAST_ERROR_SQLSTATE
-- growing filters of different p are chained: every element is kept
SELECT quotientfilter_cardinality(f) AS n, substring(f::text from 'members=\d+') AS members,
	(SELECT count(*) FROM generate_series(1, 300) x WHERE NOT f @> x) AS false_negatives
FROM (SELECT quotientfilter_add(quotientfilter_empty(100, 0.01), array(SELECT generate_series(1, 150)))
	| quotientfilter_add(quotientfilter_empty(100, 0.0001), array(SELECT generate_series(151, 300))) AS f) t;
SELECT quotientfilter_empty(100) | quotientfilter_empty(100, 0.01, 1);
\echo :LAST_ERROR_SQLSTATE
SELECT quotientfilter_union_agg(f) FROM (VALUES (quotientfilter_create(7, 7)), (quotientfilter_create(11, 6))) t(f);
\echo :LAST_ERROR_SQLSTATE

-- ---------------------------------------------------------------------
-- Aggregates
-- ---------------------------------------------------------------------
SELECT (quotientfilter_info(quotientfilter_agg(x))).q AS default_q, quotientfilter_cardinality(quotientfilter_agg(x)) AS n
FROM (SELECT NULL::int AS x WHERE false) t;
SELECT i.q, i.r, i.entries FROM (SELECT quotientfilter_agg(x, 5000, 0.001) AS f FROM (SELECT 1 AS x WHERE false) t) s,
	quotientfilter_info(s.f) i;
SELECT quotientfilter_agg(x, 100, 0.01) = quotientfilter_add(quotientfilter_empty(100, 0.01), ARRAY[1, 2, 3]) AS agg_equals_add
FROM unnest(ARRAY[1, NULL, 2, 3]) x;
-- an aggregate grows past its capacity by members of 16 times the slots
-- and one more remainder bit each: q = 7, 11, 15 (info shows the newest)
SELECT i.q, i.r, i.entries, i.load_factor, round(i.estimated_fpr::numeric, 4) AS estimated_fpr,
	substring(f::text from 'members=\d+') AS members,
	(SELECT count(*) FROM generate_series(1, 5000) x WHERE NOT f @> x) AS false_negatives
FROM (SELECT quotientfilter_agg(x, 100, 0.01) AS f FROM generate_series(1, 5000) x) s, quotientfilter_info(s.f) i;
-- where a fixed filter of the same p would be full (54000), it keeps growing
SELECT quotientfilter_cardinality(quotientfilter_agg(x, 100, 0.01)) FROM generate_series(1, 20000) x;
-- functions of one table refuse a chain (0A000)
SELECT quotientfilter_fingerprints(quotientfilter_agg(x, 100, 0.01)) FROM generate_series(1, 1000) x LIMIT 1;
\echo :LAST_ERROR_SQLSTATE
SELECT count(*) FROM (SELECT quotientfilter_agg(x, 100, 0.01) AS f FROM generate_series(1, 1000) x) s, quotientfilter_slots(s.f);
\echo :LAST_ERROR_SQLSTATE
SELECT quotientfilter_add_fingerprint(quotientfilter_agg(x, 100, 0.01), 1) FROM generate_series(1, 1000) x;
\echo :LAST_ERROR_SQLSTATE
SELECT (quotientfilter_info(quotientfilter_agg(x))).q = (quotientfilter_info(quotientfilter_empty(100000, 0.01))).q AS default_q
FROM generate_series(1, 10) x;

-- ---------------------------------------------------------------------
-- Errors
-- ---------------------------------------------------------------------
SELECT quotientfilter_create(0, 8);
\echo :LAST_ERROR_SQLSTATE
SELECT quotientfilter_create(8, 0);
\echo :LAST_ERROR_SQLSTATE
SELECT quotientfilter_create(8, 62);
\echo :LAST_ERROR_SQLSTATE
SELECT quotientfilter_create(40, 30);
\echo :LAST_ERROR_SQLSTATE
SELECT quotientfilter_create(40, 10);
\echo :LAST_ERROR_SQLSTATE
SELECT quotientfilter_empty(0);
\echo :LAST_ERROR_SQLSTATE
SELECT quotientfilter_empty(100, 1.5);
\echo :LAST_ERROR_SQLSTATE
SELECT quotientfilter_empty(100, 'NaN');
\echo :LAST_ERROR_SQLSTATE
SELECT quotientfilter_empty(1000000, 1e-20);
\echo :LAST_ERROR_SQLSTATE
-- a capacity whose first table is near the size limit: the rate the hint
-- gives is that of the longest fingerprints within the limit, not of 64-bit
-- ones (1.31e-11 here, which then failed with 54000)
SELECT quotientfilter_empty(159673935, 1e-25);
\echo :LAST_ERROR_SQLSTATE
SELECT quotientfilter_empty(9000000000000000000);
\echo :LAST_ERROR_SQLSTATE
SELECT quotientfilter_agg(x, 0, 0.01) FROM generate_series(1, 3) x;
\echo :LAST_ERROR_SQLSTATE
SELECT quotientfilter_add_fingerprint(quotientfilter_create(5, 6), 2048);
\echo :LAST_ERROR_SQLSTATE
SELECT quotientfilter_contains_fingerprint(quotientfilter_create(5, 6), -1);
\echo :LAST_ERROR_SQLSTATE

-- malformed text
SELECT 'quotientfilter v2 hash=xxh3 seed=0 inserts=0 q=5 r=6 entries=0'::quotientfilter;
\echo :LAST_ERROR_SQLSTATE
SELECT 'bloom v2 hash=xxh3 seed=0 inserts=0 q=5 r=6 entries=0 data=AAAA'::quotientfilter;
\echo :LAST_ERROR_SQLSTATE
SELECT 'quotientfilter v2 hash=xxh3 seed=0 inserts=0 q=0 r=6 entries=0 data=AAAA'::quotientfilter;
\echo :LAST_ERROR_SQLSTATE
SELECT 'quotientfilter v2 hash=xxh3 seed=0 inserts=0 q=30 r=40 entries=0 data=AAAA'::quotientfilter;
\echo :LAST_ERROR_SQLSTATE
SELECT 'quotientfilter v2 hash=xxh3 seed=0 inserts=0 q=5 r=6 entries=0 data=AAAA'::quotientfilter;
\echo :LAST_ERROR_SQLSTATE
SELECT (f::text || ' extra=1')::quotientfilter FROM ex_full;
\echo :LAST_ERROR_SQLSTATE
SELECT regexp_replace(f::text, 'entries=6', 'entries=33')::quotientfilter FROM ex_full;
\echo :LAST_ERROR_SQLSTATE
SELECT regexp_replace(f::text, 'r=6', 'r=7')::quotientfilter FROM ex_full;
\echo :LAST_ERROR_SQLSTATE
SELECT 'quotientfilter v3 hash=xxh3 seed=0 inserts=0 q=5 r=6 entries=0 data=AAAA'::quotientfilter;
\echo :LAST_ERROR_SQLSTATE
SELECT 'quotientfilter v2 hash=xxh3 seed=0 inserts=0 q=48 r=16 entries=0 data=AAAA'::quotientfilter;
\echo :LAST_ERROR_SQLSTATE
SELECT 'quotientfilter v2 hash=xxh3 seed=0 inserts=0 q=5 r=6 entries=0 members=2 bytes=999999999999 data=AAAA'::quotientfilter;
\echo :LAST_ERROR_SQLSTATE

-- corrupted slot metadata is refused (22P02), never misread.  Payload bit
-- b is set_bit(payload, b); slot i starts at bit 9 * i: +0 is_occupied,
-- +1 is_continuation, +2 is_shifted, +3 .. +8 the remainder.
CREATE FUNCTION pg_temp.flip(f quotientfilter, bits int[], entries int DEFAULT NULL) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
	t text := f::text;
	payload bytea := decode(substring(t FROM 'data=(.*)$'), 'base64');
	b int;
BEGIN
	FOREACH b IN ARRAY bits LOOP
		payload := set_bit(payload, b, 1 - get_bit(payload, b));
	END LOOP;
	t := regexp_replace(t, 'data=.*$', 'data=' || translate(encode(payload, 'base64'), E'\n', ''));
	IF entries IS NOT NULL THEN
		t := regexp_replace(t, 'entries=[0-9]+', 'entries=' || entries);
	END IF;
	RETURN t;
END $$;
-- unchanged: accepted
SELECT pg_temp.flip(f, '{}')::quotientfilter = f AS untouched_ok FROM ex_full;
-- is_occupied of slot 20 cleared: the run in slot 21 has no quotient
SELECT pg_temp.flip(f, ARRAY[9 * 20])::quotientfilter FROM ex_full;
\echo :LAST_ERROR_SQLSTATE
-- is_occupied of slot 22 set: quotient 22 waits for a run that never comes
SELECT pg_temp.flip(f, ARRAY[9 * 22])::quotientfilter FROM ex_full;
\echo :LAST_ERROR_SQLSTATE
-- is_shifted of slot 21 cleared: slot 21 reads as empty while quotient 20 waits for its run
SELECT pg_temp.flip(f, ARRAY[9 * 21 + 2])::quotientfilter FROM ex_full;
\echo :LAST_ERROR_SQLSTATE
-- a shifted run head (quotient 18 in slot 19) with is_shifted cleared
SELECT s.* FROM quotientfilter_slots(quotientfilter_add_fingerprint(quotientfilter_add_fingerprint(
	quotientfilter_add_fingerprint(quotientfilter_create(5, 6), 17 * 64 + 5), 17 * 64 + 9), 18 * 64 + 3)) s;
SELECT pg_temp.flip(quotientfilter_add_fingerprint(quotientfilter_add_fingerprint(
	quotientfilter_add_fingerprint(quotientfilter_create(5, 6), 17 * 64 + 5), 17 * 64 + 9), 18 * 64 + 3),
	ARRAY[9 * 19 + 2])::quotientfilter;
\echo :LAST_ERROR_SQLSTATE
-- is_shifted of slot 17 set: a run head in its own slot marked shifted
SELECT pg_temp.flip(f, ARRAY[9 * 17 + 2])::quotientfilter FROM ex_full;
\echo :LAST_ERROR_SQLSTATE
-- is_continuation of slot 19 set: slot 18 is empty, nothing to continue
SELECT pg_temp.flip(f, ARRAY[9 * 19 + 1])::quotientfilter FROM ex_full;
\echo :LAST_ERROR_SQLSTATE
-- is_shifted of slot 23 cleared: a continuation must be shifted
SELECT pg_temp.flip(f, ARRAY[9 * 23 + 2])::quotientfilter FROM ex_full;
\echo :LAST_ERROR_SQLSTATE
-- top remainder bit of slot 23 cleared: the run 000000, 101101, 011110 is not sorted
SELECT pg_temp.flip(f, ARRAY[9 * 23 + 8])::quotientfilter FROM ex_full;
\echo :LAST_ERROR_SQLSTATE
-- a remainder bit in empty slot 3
SELECT pg_temp.flip(f, ARRAY[9 * 3 + 5])::quotientfilter FROM ex_full;
\echo :LAST_ERROR_SQLSTATE
-- is_occupied of empty slot 25: a consistent seventh element, but the header says 6
SELECT pg_temp.flip(f, ARRAY[9 * 25])::quotientfilter FROM ex_full;
\echo :LAST_ERROR_SQLSTATE
-- the same with the count fixed is a valid filter holding 25 << 6
SELECT quotientfilter_contains_fingerprint(pg_temp.flip(f, ARRAY[9 * 25], 7)::quotientfilter, 25 << 6) AS seventh FROM ex_full;
-- wrong entry count
SELECT pg_temp.flip(f, '{}', 5)::quotientfilter FROM ex_full;
\echo :LAST_ERROR_SQLSTATE
-- a bit in the padding after the 32 slots (288 bits of 320)
SELECT pg_temp.flip(f, ARRAY[300])::quotientfilter FROM ex_full;
\echo :LAST_ERROR_SQLSTATE
-- every slot marked shifted
SELECT pg_temp.flip(f, ARRAY(SELECT 9 * i + 2 FROM generate_series(0, 31) i WHERE i NOT IN (20, 21, 22, 23)))::quotientfilter
FROM ex_full;
\echo :LAST_ERROR_SQLSTATE

-- every single-bit corruption of the example's payload and of a larger filter (with
-- the entry count as it was, one more or one less) is either refused with 22P02 or a
-- consistent filter that every function handles and whose results validate again
CREATE FUNCTION pg_temp.fuzz(f quotientfilter, nbits int) RETURNS TABLE (refused int, accepted int, accepted_ok int)
LANGUAGE plpgsql AS $$
DECLARE
	g quotientfilter;
	b int;
	d int;
	n bigint;
BEGIN
	refused := 0; accepted := 0; accepted_ok := 0;
	FOR b IN 0 .. nbits - 1 LOOP
		g := NULL;
		FOR d IN -1 .. 1 LOOP
			BEGIN
				g := pg_temp.flip(f, ARRAY[b], (quotientfilter_info(f)).entries::int + d)::quotientfilter;
			EXCEPTION WHEN invalid_text_representation THEN
				NULL;
			END;
		END LOOP;
		IF g IS NULL THEN
			refused := refused + 1;
			CONTINUE;
		END IF;
		accepted := accepted + 1;
		SELECT count(*) INTO n FROM quotientfilter_fingerprints(g);
		IF n = quotientfilter_cardinality(g)
			AND quotientfilter_add_fingerprint(g, 1234)::text::quotientfilter @> 0 IS NOT NULL
			AND quotientfilter_remove_fingerprint(g, (SELECT min(x) FROM quotientfilter_fingerprints(g) x))::text::quotientfilter IS NOT NULL
			AND quotientfilter_resize(g, (quotientfilter_info(g)).q + 1)::text::quotientfilter IS NOT NULL
			AND (g | g)::text::quotientfilter IS NOT NULL
		THEN
			accepted_ok := accepted_ok + 1;
		END IF;
	END LOOP;
	RETURN NEXT;
END $$;
SELECT * FROM pg_temp.fuzz((SELECT f FROM ex_full), 320);
SELECT * FROM pg_temp.fuzz(quotientfilter_add(quotientfilter_create(6, 10), array(SELECT generate_series(1, 50))), 832);

-- an aggregate state of 1 MB or more defers its adds (the hashes of the last
-- 16 rows wait in a ring, doc/design.md "Deferred adds"), in the rows' order:
-- the same bytes as the add functions' (in that order), below, at and past the
-- ring's 16 rows, group by group
SELECT n, quotientfilter_agg(i, 1000000, 0.01 ORDER BY i) =
		quotientfilter_add(quotientfilter_empty(1000000, 0.01), array_agg(i ORDER BY i)) AS same_as_adds,
	(quotientfilter_info(quotientfilter_agg(i, 1000000, 0.01 ORDER BY i))).inserts = n AS inserts_counted
FROM unnest(ARRAY[1, 15, 16, 17, 33, 5000]) n, generate_series(1, n) i GROUP BY n ORDER BY n;
-- and past its capacity (500000: 2^20 slots, 1.3 MB), where the filter grows
-- while rows wait: the same bytes as the window aggregate over the whole frame
-- (which adds each row at once)
SELECT a = w AS same_as_window,
	(quotientfilter_info(a)).size_bytes > (quotientfilter_info(quotientfilter_empty(500000, 0.01))).size_bytes AS grew,
	(SELECT count(*) FROM generate_series(1, 1000000) i WHERE NOT a @> i) AS false_negatives
FROM (SELECT quotientfilter_agg(i, 500000, 0.01 ORDER BY i) AS a FROM generate_series(1, 1000000) i) s,
	(SELECT quotientfilter_agg(i, 500000, 0.01) OVER (ORDER BY i ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS w
	 FROM generate_series(1, 1000000) i LIMIT 1) t;
-- an aggregate whose first state is under 1 MB (250000: 650 kB) gets its ring
-- when a growth makes it larger: the same bytes as the window aggregate
SELECT a = w AS same_as_window, (quotientfilter_info(a)).size_bytes > 1048576 AS past_1mb,
	(SELECT count(*) FROM generate_series(1, 1000000) i WHERE NOT a @> i) AS false_negatives
FROM (SELECT quotientfilter_agg(i, 250000, 0.01 ORDER BY i) AS a FROM generate_series(1, 1000000) i) s,
	(SELECT quotientfilter_agg(i, 250000, 0.01) OVER (ORDER BY i ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS w
	 FROM generate_series(1, 1000000) i LIMIT 1) t;
