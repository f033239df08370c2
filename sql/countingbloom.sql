-- countingbloom: construction, add/remove/count, saturation, operators, cast
-- to bloom, text round trip, aggregates over few rows
SET max_parallel_workers_per_gather = 0;

-- sized exactly like bloom (same m and k for the same capacity and fpr)
SELECT c.m = b.m AS same_m, c.k = b.k AS same_k, c.m, c.k, c.size_bytes, b.size_bytes AS bloom_size_bytes
FROM countingbloom_info(countingbloom_empty(1000, 0.01)) c, bloom_info(bloom_empty(1000, 0.01)) b;
SELECT * FROM countingbloom_info(countingbloom_empty(1000));
SELECT * FROM countingbloom_info(countingbloom_create(101, 3, -5));
-- 40-byte header, then ceil(m / 16) 64-bit words of counters
SELECT n AS m, i.size_bytes FROM unnest(ARRAY[1, 15, 16, 17, 32, 33]) n, countingbloom_info(countingbloom_create(n, 1)) i ORDER BY n;

-- add, contains, count, remove on a few elements
CREATE TEMP TABLE cb_small AS
SELECT countingbloom_add(countingbloom_add(countingbloom_add(countingbloom_empty(100, 0.001), 'apple'::text), 'apple'::text), 'pear'::text) AS f;
SELECT f @> 'apple'::text AS apple, 'pear'::text <@ f AS pear, f @> 'plum'::text AS plum,
	countingbloom_count(f, 'apple'::text) AS apple_count, countingbloom_count(f, 'pear'::text) AS pear_count,
	countingbloom_count(f, 'plum'::text) AS plum_count, (countingbloom_info(f)).inserts
FROM cb_small;
-- removing apple once leaves one apple; twice removes it
SELECT countingbloom_count(countingbloom_remove(f, 'apple'::text), 'apple'::text) AS after_one,
	countingbloom_remove(countingbloom_remove(f, 'apple'::text), 'apple'::text) @> 'apple'::text AS after_two,
	countingbloom_remove(countingbloom_remove(f, 'apple'::text), 'apple'::text) @> 'pear'::text AS pear_kept,
	(countingbloom_info(countingbloom_remove(f, 'apple'::text))).inserts AS inserts_after_one
FROM cb_small;
-- removing apple twice gives the filter of pear alone
SELECT countingbloom_remove(countingbloom_remove(f, 'apple'::text), 'apple'::text)
	= countingbloom_add(countingbloom_empty(100, 0.001), 'pear'::text) AS equals_pear_only
FROM cb_small;
-- removing what is certainly absent changes nothing (silently), also the insert counter
SELECT countingbloom_remove(f, 'plum'::text)::text = f::text AS absent_remove_is_noop FROM cb_small;
-- the input is never modified in place
SELECT countingbloom_count(f, 'apple'::text) AS still_two FROM cb_small;
-- arrays: batches, duplicates count twice, NULL elements skipped
SELECT countingbloom_add(countingbloom_empty(100, 0.001), ARRAY['apple', 'apple', NULL, 'pear'])
	= (SELECT f FROM cb_small) AS array_add_same;
SELECT countingbloom_remove((SELECT f FROM cb_small), ARRAY['apple', NULL, 'apple', 'plum'])
	= countingbloom_add(countingbloom_empty(100, 0.001), 'pear'::text) AS array_remove_same;
-- cross-type agreement of the canonical hash
SELECT countingbloom_add(countingbloom_empty(100), 42::int2) @> 42::int8 AS int2_int8,
	countingbloom_count(countingbloom_add(countingbloom_add(countingbloom_empty(100), 42), 42::int8), 42::int2) AS int_count,
	countingbloom_add(countingbloom_empty(100), 1.0::numeric) @> 1.00::numeric AS numeric_scale;

-- NULLs: adding or removing NULL leaves the filter unchanged, a NULL probe gives NULL
SELECT countingbloom_add(f, NULL::text) = f AS add_null, countingbloom_remove(f, NULL::text) = f AS remove_null,
	countingbloom_add(f, NULL::text[]) = f AS add_null_array,
	countingbloom_add(NULL::countingbloom, 'x'::text) IS NULL AS null_filter,
	(f @> NULL::text) IS NULL AS probe_null, countingbloom_count(f, NULL::text) IS NULL AS count_null
FROM cb_small;

-- saturation: counters stop at 15 and are never decremented again
CREATE TEMP TABLE cb_sat AS
SELECT countingbloom_add(countingbloom_create(1000, 4), array_fill('hot'::text, ARRAY[20])) AS f;
SELECT countingbloom_count(f, 'hot'::text) AS count_20_adds, (countingbloom_info(f)).counters_saturated,
	(countingbloom_info(f)).counters_nonzero, (countingbloom_info(f)).inserts FROM cb_sat;
-- removing it 30 times: the saturated counters stay, so it is never lost
SELECT countingbloom_count(countingbloom_remove(f, array_fill('hot'::text, ARRAY[30])), 'hot'::text) AS count_after_30_removes,
	(countingbloom_info(countingbloom_remove(f, array_fill('hot'::text, ARRAY[30])))).inserts AS inserts_floor_0
FROM cb_sat;
-- 14 adds are not saturated: 14 removes empty the filter again
SELECT countingbloom_remove(countingbloom_add(countingbloom_create(1000, 4), array_fill('hot'::text, ARRAY[14])),
	array_fill('hot'::text, ARRAY[14])) = countingbloom_create(1000, 4) AS fourteen_round_trip;

-- count bounds multiplicity: elements added 1..15 times
CREATE TEMP TABLE cb_mult AS SELECT i AS x, (i % 15) + 1 AS mult FROM generate_series(1, 300) i;
CREATE TEMP TABLE cb_multf AS
SELECT countingbloom_agg(x, 300, 0.01) AS f FROM cb_mult, generate_series(1, 15) r WHERE r <= mult;
SELECT count(*) AS elements, count(*) FILTER (WHERE countingbloom_count(f, x) < mult) AS count_below_truth,
	count(*) FILTER (WHERE countingbloom_count(f, x) = mult) AS count_exact
FROM cb_mult, cb_multf;

-- | adds counters, - subtracts them; cast to bloom keeps the positions
CREATE TEMP TABLE cb_ab AS
SELECT (SELECT countingbloom_agg(i, 2000, 0.01) FROM generate_series(1, 1000) i) AS a,
	(SELECT countingbloom_agg(i, 2000, 0.01) FROM generate_series(501, 1500) i) AS b;
SELECT countingbloom_count(a | b, 700) AS both_count, countingbloom_count(a | b, 100) AS a_count,
	(a | b) = (SELECT countingbloom_agg(i, 2000, 0.01) FROM (SELECT generate_series(1, 1000) UNION ALL SELECT generate_series(501, 1500)) s(i)) AS union_is_multiset_sum,
	(a | b) - b = a AS difference_undoes_union, (countingbloom_info((a | b) - b)).inserts AS inserts_after_difference,
	(a - a) = countingbloom_empty(2000, 0.01) AS self_difference_empty,
	a | b = b | a AS commutative, a <> b AS different
FROM cb_ab;
-- saturating: a filter added to itself 20 times stays at 15
SELECT countingbloom_count(f | f | f | f, 'hot'::text) AS sat_union,
	countingbloom_count(f - f, 'hot'::text) AS sat_difference_kept
FROM cb_sat;
-- the cast: bloom bit i set exactly when counter i is non-zero
SELECT a::bloom = (SELECT bloom_agg(i, 2000, 0.01) FROM generate_series(1, 1000) i) AS cast_equals_bloom_agg,
	(a | b)::bloom = a::bloom | b::bloom AS cast_of_union,
	((a | b) - b)::bloom = a::bloom AS cast_after_difference,
	(bloom_info(a::bloom)).bits_set = (countingbloom_info(a)).counters_nonzero AS bits_match_counters,
	(bloom_info(a::bloom)).inserts = (countingbloom_info(a)).inserts AS inserts_carried,
	bloom_cardinality(a::bloom) = countingbloom_cardinality(a) AS same_cardinality,
	bloom_fpr(a::bloom) = countingbloom_fpr(a) AS same_fpr
FROM cb_ab;
-- a cast filter is an ordinary bloom: it combines with bloom filters of the same m, k, seed
SELECT a::bloom | (SELECT bloom_agg(i, 2000, 0.01) FROM generate_series(1001, 1500) i)
	= (SELECT bloom_agg(i, 2000, 0.01) FROM generate_series(1, 1500) i) AS mixed_union
FROM cb_ab;
SELECT countingbloom_create(100, 3, 7)::bloom = bloom_create(100, 3, 7) AS cast_keeps_seed;
-- odd m: the last counter maps to the last bit
SELECT bloom_agg(i, 5, 0.1) = countingbloom_agg(i, 5, 0.1)::bloom AS small_cast FROM generate_series(1, 5) i;
SELECT (countingbloom_add(countingbloom_create(m, 3), ARRAY[1, 2, 3, 4, 5]))::bloom
	= bloom_add(bloom_create(m, 3), ARRAY[1, 2, 3, 4, 5]) AS cast_m FROM unnest(ARRAY[1, 2, 7, 63, 64, 65, 129]) m;
-- assignment cast into a bloom column
CREATE TEMP TABLE cb_bloom_col (b bloom);
INSERT INTO cb_bloom_col SELECT a FROM cb_ab;
SELECT b = (SELECT a::bloom FROM cb_ab) AS assigned FROM cb_bloom_col;

-- statistics
SELECT countingbloom_cardinality(a) AS card_1000, round(countingbloom_fpr(a)::numeric, 3) AS fpr_half_full,
	countingbloom_cardinality(countingbloom_empty(2000, 0.01)) AS card_empty, countingbloom_fpr(countingbloom_empty(2000, 0.01)) AS fpr_empty
FROM cb_ab;
SELECT format_version, hash, seed, m, k, inserts, counters_nonzero, counters_saturated, round(fill_ratio::numeric, 4) AS fill_ratio,
	size_bytes, estimated_cardinality, round(estimated_fpr::numeric, 5) AS estimated_fpr
FROM cb_ab, countingbloom_info(a);

-- text form: readable parameters, base64 payload, exact round trip
SELECT countingbloom_add(countingbloom_create(20, 2, 3), ARRAY[1, 2, 2]);
-- the positions behind those counters (doc/design.md decodes the payload)
SELECT v, bloomfilter_positions(v, 20, 2, 3) FROM unnest(ARRAY[1, 2]) v;
SELECT countingbloom_add(countingbloom_create(20, 2, 3), ARRAY[1, 2, 2])::text::countingbloom::text
	= countingbloom_add(countingbloom_create(20, 2, 3), ARRAY[1, 2, 2])::text AS text_round_trip;
SELECT a::text::countingbloom = a AS big_round_trip, (a::text::countingbloom)::text = a::text AS same_text,
	length(a::text) AS text_len, length(countingbloom_send(a)) AS binary_len FROM cb_ab;
SELECT 'countingbloom v2 hash=xxh3 seed=-1 inserts=3 m=3 k=1 data=IQMAAAAAAAA='::countingbloom;
SELECT countingbloom_count('countingbloom v2 hash=xxh3 seed=0 inserts=0 m=16 k=2 data=//////////8='::countingbloom, 'x'::text) AS all_saturated;
-- binary form: the datum's bytes after the length word (little-endian fields)
SELECT countingbloom_send(countingbloom_add(countingbloom_create(16, 1, 1), 'a'::text));

-- aggregates over no rows return an empty filter with the requested parameters
SELECT countingbloom_agg(i) = countingbloom_empty(100000, 0.01) AS empty_default,
	countingbloom_agg(i, 500, 0.05) = countingbloom_empty(500, 0.05) AS empty_params
FROM generate_series(1, 0) i;
SELECT countingbloom_agg(i) = countingbloom_add(countingbloom_empty(100000, 0.01), ARRAY[1, 2, 3]) AS agg_defaults FROM generate_series(1, 3) i;
SELECT countingbloom_union_agg(f) IS NULL AS union_no_rows FROM (SELECT NULL::countingbloom f WHERE false) s;
SELECT countingbloom_union_agg(f) = (SELECT a | b FROM cb_ab) AS union_agg
FROM (SELECT a AS f FROM cb_ab UNION ALL SELECT NULL UNION ALL SELECT b FROM cb_ab) s;
-- agg with NULL elements skips them
SELECT countingbloom_agg(x, 100, 0.01) = countingbloom_add(countingbloom_empty(100, 0.01), ARRAY['a', 'b']) AS agg_skips_nulls
FROM unnest(ARRAY['a', NULL, 'b']) x;
-- the inverse transition function also works as a plain function on a copy
SELECT countingbloom_agg_inv(f, 'pear'::text) = countingbloom_add(countingbloom_empty(100, 0.001), ARRAY['apple', 'apple']) AS inv_removes,
	countingbloom_agg_inv(f, 'plum'::text) IS NULL AS inv_absent_null,
	countingbloom_count(f, 'pear'::text) AS pear_still_there
FROM cb_small;
SELECT countingbloom_agg_inv(f, 'hot'::text) IS NULL AS inv_saturated_null FROM cb_sat;

-- an aggregate whose result holds more than it was sized for says so: one
-- WARNING per overfilled group (bloom's rule over the non-zero counters), none
-- for a group within its capacity, none per row
SELECT g, count(*) AS rows, (countingbloom_info(countingbloom_agg(i))).estimated_fpr > 0.02 AS overfilled
FROM (SELECT CASE WHEN i <= 3000 THEN 0 ELSE 1 END AS g, i FROM generate_series(1, 303000) i) s
GROUP BY g ORDER BY g;
-- at the sizes it is made for, no warning
SELECT (countingbloom_info(countingbloom_agg(i, 450000, 0.01))).estimated_fpr < 0.012 AS sized_ok
FROM generate_series(1, 450000) i;

-- an aggregate state of 1 MB or more defers its adds (the positions of the
-- last 16 rows wait in a ring, doc/design.md "Deferred adds"): the result is
-- the filter of every row, with its multiplicity, below, at and past the ring's
-- 16 rows, group by group
SELECT n, countingbloom_agg(i % 300, 250000, 0.01) =
		countingbloom_add(countingbloom_empty(250000, 0.01), array_agg(i % 300)) AS same_as_adds,
	(countingbloom_info(countingbloom_agg(i % 300, 250000, 0.01))).inserts = n AS inserts_counted,
	pg_column_size(countingbloom_agg(i % 300, 250000, 0.01)) = pg_column_size(countingbloom_empty(250000, 0.01)) AS plain_size
FROM unnest(ARRAY[1, 15, 16, 17, 33, 5000]) n, generate_series(1, n) i GROUP BY n ORDER BY n;

DROP TABLE cb_small, cb_sat, cb_mult, cb_multf, cb_ab, cb_bloom_col;
