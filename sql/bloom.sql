-- bloom: constructors, elements, operators, statistics, text round trip
CREATE SCHEMA bloom_test;
SET search_path = bloom_test, public;
SELECT bloom_empty(10, 0.1);
SELECT m, k, seed, inserts, bits_set, size_bytes FROM bloom_info(bloom_empty(1000, 0.01));
-- m = ceil(-n ln p / ln2^2), k = round(m/n ln 2)
SELECT m = ceil(-1000 * ln(0.01) / ln(2)^2) AS m_formula, k = round(m / 1000.0 * ln(2)) AS k_formula
FROM bloom_info(bloom_empty(1000, 0.01));
SELECT m, k, seed FROM bloom_info(bloom_empty(1000000, 0.001, 42));
SELECT m, k FROM bloom_info(bloom_create(100, 3));
SELECT bloom_create(100, 3, -5);

-- add and probe
CREATE TABLE f AS SELECT bloom_add(bloom_add(bloom_empty(100, 0.01), 'apple'::text), 'pear'::text) AS f;
SELECT f @> 'apple'::text AS apple, f @> 'pear'::text AS pear, 'apple'::text <@ f AS apple_rev,
	bloom_contains(f, 'apple'::text) AS fn, f @> 'plum'::text AS plum FROM f;
-- varchar and name probes agree with text
SELECT f @> 'apple'::varchar AS varchar, f @> 'apple'::name AS name FROM f;
-- a NULL probe answers NULL, adding NULL leaves the filter unchanged
SELECT f @> NULL::text IS NULL AS null_probe, bloom_add(f, NULL::text) = f AS add_null_same,
	bloom_add(NULL::bloom, 1) IS NULL AS null_filter FROM f;
-- inputs are never modified in place
SELECT f = bloom_add(f, 'plum'::text) AS same_after_add, bloom_add(f, 'plum'::text) @> 'plum'::text AS added,
	f @> 'plum'::text AS original_unchanged FROM f;

-- batch add from an array (NULL elements skipped); ints probed across widths
SELECT bloom_add(bloom_empty(100), ARRAY[1, 2, NULL, 3]) @> 2::int8 AS int8_probe,
	bloom_add(bloom_empty(100), ARRAY[1, 2, NULL, 3]) @> 3::int2 AS int2_probe,
	(bloom_info(bloom_add(bloom_empty(100), ARRAY[1, 2, NULL, 3]))).inserts AS inserts;
SELECT bloom_add(bloom_empty(100), ARRAY[1, 2, 3]) = bloom_add(bloom_add(bloom_add(bloom_empty(100), 1), 2), 3) AS batch_equals_single;
SELECT bloom_add(bloom_empty(100), ARRAY[[1, 2], [3, 4]]) @> 4 AS multidim;
SELECT bloom_add(bloom_empty(100), '{}'::int[]) = bloom_empty(100) AS empty_array;

-- union, intersection, superset
WITH a AS (SELECT bloom_agg(i, 1000, 0.01) f FROM generate_series(1, 300) i),
	 b AS (SELECT bloom_agg(i, 1000, 0.01) f FROM generate_series(201, 500) i),
	 w AS (SELECT bloom_agg(i, 1000, 0.01) f FROM generate_series(1, 500) i),
	 x AS (SELECT bloom_agg(i, 1000, 0.01) f FROM generate_series(201, 300) i)
SELECT (a.f | b.f) = w.f AS union_is_whole,
	(a.f | b.f) @> a.f AS superset, a.f <@ (a.f | b.f) AS subset, a.f @> b.f AS not_superset,
	(a.f & b.f) @> x.f AS intersection_covers_common,
	(SELECT count(*) FROM generate_series(201, 300) i WHERE (a.f & b.f) @> i) AS common_found,
	(a.f | b.f) <> a.f AS ne
FROM a, b, w, x;

-- statistics
SELECT bloom_cardinality(bloom_empty(1000)) AS empty_card, bloom_fpr(bloom_empty(1000)) AS empty_fpr;
SELECT bloom_cardinality(bloom_add(bloom_empty(1000), 1)) AS one;
SELECT abs(bloom_cardinality(f) - 5000) < 5000 * 0.05 AS card_within_5pct,
	bloom_fpr(f) BETWEEN 0.005 AND 0.015 AS fpr_near_target
FROM (SELECT bloom_agg(i, 5000, 0.01) f FROM generate_series(1, 5000) i) s;
-- a saturated filter: every bit set, estimate is finite
SELECT bits_set = m AS saturated, estimated_cardinality > 0 AS finite, estimated_fpr = 1 AS fpr_one
FROM bloom_info((SELECT bloom_agg(i, 10, 0.1) FROM generate_series(1, 1000) i));

-- text round trip, seeds
SELECT f::text::bloom = f AS roundtrip, (f::text::bloom)::text = f::text AS text_stable
FROM (SELECT bloom_agg(i, 1000, 0.001) f FROM generate_series(1, 700) i) s;
SELECT bloomfilter_positions(1, 959, 7, 7) <> bloomfilter_positions(1, 959, 7, 8) AS seed_changes_bits,
	bloom_add(bloom_empty(100, 0.01, 7), 1) @> 1 AS found_with_seed;
SELECT bloom_add(bloom_empty(100, 0.01, -9223372036854775808), 'x'::text)::text::bloom @> 'x'::text AS min_seed_roundtrip;

-- the same bytes on every run: pinned output of a small filter
SELECT bloom_add(bloom_add(bloom_create(64, 3), 'a'::text), 42)::text;

-- aggregates over no rows: an empty filter with the requested parameters
SELECT (bloom_info(bloom_agg(i, 5000, 0.001))).m = (bloom_info(bloom_empty(5000, 0.001))).m AS agg_empty_params,
	bloom_agg(i, 5000, 0.001) = bloom_empty(5000, 0.001) AS agg_empty
FROM generate_series(1, 0) i;
-- no settings: the defaults are constants, and the removed 1.0 settings are refused
-- (bloom_agg(x) without a capacity is self-sized: over no rows, the empty self-sized filter)
SELECT bloom_agg(i) = bloom_empty() AS agg_empty_defaults,
	bloom_agg(i, 0.001) = bloom_empty_self_sized(0.001) AS agg_empty_fpr
FROM generate_series(1, 0) i;
SET bloomfilter.default_capacity = 1234;
\echo :LAST_ERROR_SQLSTATE
-- no settings but the test builds' bloomfilter.debug_discard_state (pagebloom_inval.sql)
SELECT count(*) AS bloomfilter_settings FROM pg_settings
WHERE name LIKE 'bloomfilter.%' AND name <> 'bloomfilter.debug_discard_state';
SELECT bloom_union_agg(f) IS NULL AS union_empty_is_null FROM (SELECT bloom_empty(10) f WHERE false) s;

-- union and intersection aggregates, NULLs skipped
CREATE TABLE days AS
SELECT d, bloom_agg(u, 10000, 0.01) AS users
FROM (SELECT d, (d * 100 + g) % 3000 AS u FROM generate_series(1, 7) d, generate_series(1, 1000) g) s
GROUP BY d;
INSERT INTO days VALUES (8, NULL);
SELECT bloom_union_agg(users) = (SELECT bloom_agg((d * 100 + g) % 3000, 10000, 0.01)
	FROM generate_series(1, 7) d, generate_series(1, 1000) g) AS union_agg_is_agg_of_all
FROM days;
SELECT bloom_intersect_agg(users) = (SELECT bloom_intersect(a.users, b.users) FROM days a, days b WHERE a.d = 1 AND b.d = 2)
	AS intersect_two
FROM days WHERE d IN (1, 2);
SELECT count(*) FILTER (WHERE f @> u) AS common_present
FROM (SELECT bloom_intersect_agg(users) f FROM days) s,
	 generate_series(701, 1100) u;  -- the 400 users present on every day

-- aggregate in a GROUP BY with many groups (state per group)
SELECT count(*) AS groups, bool_and(f @> g * 10 AND f @> g * 10 + 9) AS all_found
FROM (SELECT g, bloom_agg(g * 10 + i, 100, 0.01) f FROM generate_series(1, 200) g, generate_series(0, 9) i GROUP BY g) s;

-- element types
SELECT bloom_add(bloom_empty(10), 1.50::numeric) @> 1.5::numeric AS numeric_scale,
	bloom_add(bloom_empty(10), 2.5::float4) @> 2.5::float8 AS float_widths,
	bloom_add(bloom_empty(10), 'abc '::char(6)) @> 'abc'::text AS bpchar,
	bloom_add(bloom_empty(10), '2024-02-29'::date) @> '2024-02-29'::date AS date,
	bloom_add(bloom_empty(10), 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid) @> 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid AS uuid,
	bloom_add(bloom_empty(10), '10.0.0.1'::inet) @> '10.0.0.1'::inet AS inet,
	bloom_add(bloom_empty(10), (1, 'x')::record) IS NOT NULL AS record;
CREATE DOMAIN posint AS int CHECK (VALUE > 0);
SELECT bloom_add(bloom_empty(10), 5::posint) @> 5 AS domain;

-- UPDATE ... SET f = bloom_add(f, x) keeps a filter per row
CREATE TABLE seen (customer int PRIMARY KEY, items bloom);
INSERT INTO seen SELECT c, bloom_empty(1000, 0.01) FROM generate_series(1, 3) c;
UPDATE seen SET items = bloom_add(items, customer * 1000 + 1);
UPDATE seen SET items = bloom_add(items, NULL::int);
UPDATE seen SET items = bloom_add(items, ARRAY[customer * 1000 + 2, customer * 1000 + 3]);
SELECT customer, items @> customer * 1000 + 1 AS first, items @> customer * 1000 + 3 AS third,
	(bloom_info(items)).inserts FROM seen ORDER BY customer;

-- as a window aggregate: a running filter per row, and a sliding frame
SELECT i, bloom_cardinality(bloom_agg(i, 100, 0.01) OVER (ORDER BY i)) AS running,
	bloom_cardinality(bloom_agg(i, 100, 0.01) OVER (ORDER BY i ROWS BETWEEN 1 PRECEDING AND CURRENT ROW)) AS sliding,
	bloom_agg(i, 100, 0.01) OVER (ORDER BY i) @> 1 AS has_first
FROM generate_series(1, 5) i;

-- a fixed filter filled past twice its design false-positive rate: bloom_info says so, and the
-- aggregate warns once per result (not per row, not for a filter within its capacity)
SELECT (bloom_info(f)).overfilled, (bloom_info(f)).estimated_fpr > 2 * 0.5 ^ (bloom_info(f)).k AS past_twice_design
FROM (SELECT bloom_agg(i, 1000, 0.01) AS f FROM generate_series(1, 1000) i) s;
SELECT (bloom_info(f)).overfilled FROM (SELECT bloom_agg(i, 1000, 0.01) AS f FROM generate_series(1, 1500) i) s;
SELECT (bloom_info(f)).overfilled FROM (SELECT bloom_agg(i, 1000, 0.01) AS f FROM generate_series(1, 20000) i) s;
SELECT g, (bloom_info(bloom_agg(i, 100, 0.01))).overfilled FROM generate_series(1, 600) i, generate_series(1, 3) g
WHERE i <= 100 * g * g GROUP BY g ORDER BY g;
-- the rule over many fills and k: overfilled exactly when more than 0.5 * 2^(1/k) of the bits are set
SELECT count(*) AS filters, count(*) FILTER (WHERE overfilled = (bits_set::float8 / m > 0.5 * 2 ^ (1.0 / k))) AS rule_holds,
	count(*) FILTER (WHERE overfilled) AS overfilled
FROM (SELECT (bloom_info(bloom_add(bloom_create(1000, k), ARRAY(SELECT generate_series(1, n))))).*
	  FROM generate_series(1, 10) k, generate_series(10, 1500, 10) n) s;

-- an aggregate state of 1 MB or more defers its adds (the positions of the
-- last 16 rows wait in a ring, doc/design.md "Deferred adds"): the result is
-- the filter of every row, below, at and past the ring's 16 rows, group by
-- group
SELECT n, bloom_agg(i, 1000000, 0.01) = bloom_add(bloom_empty(1000000, 0.01), array_agg(i)) AS same_as_adds,
	(bloom_info(bloom_agg(i, 1000000, 0.01))).inserts = n AS inserts_counted,
	pg_column_size(bloom_agg(i, 1000000, 0.01)) = pg_column_size(bloom_empty(1000000, 0.01)) AS plain_size
FROM unnest(ARRAY[1, 15, 16, 17, 33, 5000]) n, generate_series(1, n) i GROUP BY n ORDER BY n;
-- a user's aggregate over bloom_agg_trans without a final function shares
-- bloom_agg's transition state (same transition and combine functions and
-- arguments): a shared state never gets the ring, so both results are plain
-- filters of every row
CREATE AGGREGATE my_bloom_agg(anynonarray, bigint, float8) (SFUNC = bloom_agg_trans, STYPE = bloom,
	COMBINEFUNC = bloom_union_trans);
SELECT a = b AS same, b = bloom_add(bloom_empty(1000000, 0.01), (SELECT array_agg(i) FROM generate_series(1, 5000) i)) AS all_rows,
	bloom_out(b)::text LIKE 'bloom v2 %' AS prints
FROM (SELECT bloom_agg(i, 1000000, 0.01) AS a, my_bloom_agg(i, 1000000, 0.01) AS b FROM generate_series(1, 5000) i) s;
DROP AGGREGATE my_bloom_agg(anynonarray, bigint, float8);
-- a user's aggregate with bloom_agg's functions and a self-sized initial
-- value hands bloom_agg_trans a self-sized filter, which grows past 1 MB
-- here: such a filter keeps no pending rows (they are a fixed filter's
-- positions), and the result has every row, as bloom_add gives it
CREATE AGGREGATE my_selfsized_agg(anynonarray, bigint, float8) (SFUNC = bloom_agg_trans, STYPE = bloom,
	FINALFUNC = bloom_agg_final, FINALFUNC_EXTRA, COMBINEFUNC = bloom_union_trans,
	INITCOND = 'bloom v2 hash=xxh3 seed=0 inserts=0 fpr=0.01 members=0 bytes=0 data=');
SELECT pg_column_size(a) > 1048576 AS past_1mb, a = bloom_add(bloom_empty(), (SELECT array_agg(i) FROM generate_series(1, 600000) i)) AS same_as_adds,
	(bloom_info(a)).inserts AS inserts, bloom_contains(a, 1) AND bloom_contains(a, 600000) AS has_ends
FROM (SELECT my_selfsized_agg(i, 1000000, 0.01) AS a FROM generate_series(1, 600000) i) s;
DROP AGGREGATE my_selfsized_agg(anynonarray, bigint, float8);
