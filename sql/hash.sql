-- Canonical hashing: golden vectors (also in doc/design.md) and cross-type agreement
CREATE SCHEMA hash_test;
SET search_path = hash_test, public;
SELECT v, seed, bloomfilter_hash(v, seed) FROM (VALUES
	('0'::bigint, 0::bigint), (1, 0), (-1, 0), (42, 0), (42, 1), (9223372036854775807, 0)) AS t(v, seed)
ORDER BY 1, 2;

SELECT 'text' AS type, bloomfilter_hash(''::text) AS empty, bloomfilter_hash('abc'::text) AS abc,
	bloomfilter_hash('abc'::text, 7) AS abc_seed7;
SELECT bloomfilter_hash(true) AS t, bloomfilter_hash(false) AS f;
SELECT bloomfilter_hash(1.5::float8) AS f8, bloomfilter_hash('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid) AS uuid,
	bloomfilter_hash('\x0102ff'::bytea) AS bytea, bloomfilter_hash(3.25::numeric) AS numeric;
SELECT bloomfilter_hash('2024-01-01'::date) AS date, bloomfilter_hash('2024-01-01 00:00:00'::timestamp) AS ts;

-- equal SQL values hash equally across types
SELECT bloomfilter_hash(42::int2) = bloomfilter_hash(42::int4) AS i2_i4,
	bloomfilter_hash(42::int4) = bloomfilter_hash(42::int8) AS i4_i8,
	bloomfilter_hash(-7::int2) = bloomfilter_hash(-7::int8) AS negative,
	bloomfilter_hash('abc'::text) = bloomfilter_hash('abc'::varchar) AS text_varchar,
	bloomfilter_hash('abc'::text) = bloomfilter_hash('abc'::name) AS text_name,
	bloomfilter_hash('ab '::char(5)) = bloomfilter_hash('ab'::text) AS bpchar_trailing,
	bloomfilter_hash(1.5::float4) = bloomfilter_hash(1.5::float8) AS f4_f8,
	bloomfilter_hash('-0'::float8) = bloomfilter_hash('0'::float8) AS neg_zero,
	bloomfilter_hash('NaN'::float4) = bloomfilter_hash('NaN'::float8) AS nan,
	bloomfilter_hash(1.0::numeric) = bloomfilter_hash(1.00::numeric) AS num_scale,
	bloomfilter_hash(100::numeric) = bloomfilter_hash(100.000::numeric) AS num_int,
	bloomfilter_hash('-0.0'::numeric) = bloomfilter_hash(0::numeric) AS num_zero,
	bloomfilter_hash('1 day'::interval) = bloomfilter_hash('24 hours'::interval) AS interval_day,
	bloomfilter_hash('1 mon'::interval) = bloomfilter_hash('30 days'::interval) AS interval_month;

-- numbers hash by value across int, numeric and float: an integer within int64 as that
-- integer whatever its type, NaN and the infinities alike; a date as its midnight's timestamp
SELECT bloomfilter_hash(42) = bloomfilter_hash(42::numeric) AS int_numeric,
	bloomfilter_hash(42) = bloomfilter_hash(42.000::numeric) AS int_numeric_scale,
	bloomfilter_hash(42) = bloomfilter_hash(42.0::float8) AS int_float8,
	bloomfilter_hash(-42::int2) = bloomfilter_hash('-42'::float4) AS int2_float4,
	bloomfilter_hash(0) = bloomfilter_hash('-0'::float8) AND bloomfilter_hash(0) = bloomfilter_hash('-0.00'::numeric) AS zeros,
	bloomfilter_hash(-9223372036854775807 - 1) = bloomfilter_hash(-9223372036854775808::numeric) AS int64_min_numeric,
	bloomfilter_hash(-9223372036854775807 - 1) = bloomfilter_hash(-9223372036854775808::float8) AS int64_min_float8,
	bloomfilter_hash(9223372036854775807) = bloomfilter_hash(9223372036854775807::numeric) AS int64_max_numeric,
	bloomfilter_hash(9223372036854775808::numeric) = bloomfilter_hash(9223372036854775808::float8) AS past_int64_float8,
	bloomfilter_hash(1267650600228229401496703205376::numeric) = bloomfilter_hash(power(2::float8, 100)) AND
		bloomfilter_hash(-1267650600228229401496703205376::numeric) = bloomfilter_hash(-power(2::float8, 100)) AS two_to_100,
	bloomfilter_hash('NaN'::numeric) = bloomfilter_hash('NaN'::float8) AS nan_numeric_float8,
	bloomfilter_hash('Infinity'::numeric) = bloomfilter_hash('Infinity'::float8) AS inf,
	bloomfilter_hash('-Infinity'::numeric) = bloomfilter_hash('-Infinity'::float4) AS minus_inf,
	bloomfilter_hash('2024-01-01'::date) = bloomfilter_hash('2024-01-01 00:00'::timestamp) AS date_timestamp,
	bloomfilter_hash('infinity'::date) = bloomfilter_hash('infinity'::timestamp) AS date_inf,
	bloomfilter_hash('-infinity'::date) = bloomfilter_hash('-infinity'::timestamp) AS date_minus_inf;
-- values that no = of these types calls equal stay apart: the next integer, a fraction,
-- a date and the timestamp one second after its midnight, beyond-int64 integers and floats
SELECT bloomfilter_hash(42) <> bloomfilter_hash(42.5::numeric) AS fraction,
	bloomfilter_hash(42) <> bloomfilter_hash(42.000001::float8) AS float_fraction,
	bloomfilter_hash(9223372036854775807) <> bloomfilter_hash(9223372036854775808::numeric) AS past_int64,
	bloomfilter_hash(9223372036854775808::numeric) <> bloomfilter_hash(9223372036854775809::numeric) AS past_int64_distinct,
	bloomfilter_hash(-9223372036854775807 - 1) <> bloomfilter_hash(-9223372036854775809::numeric) AS below_int64,
	bloomfilter_hash('2024-01-01'::date) <> bloomfilter_hash('2024-01-01 00:00:01'::timestamp) AS date_second,
	bloomfilter_hash('2024-01-01'::date) <> bloomfilter_hash('2024-01-02'::date) AS next_date,
	bloomfilter_hash('5874897-12-31'::date) <> bloomfilter_hash('5874897-12-30'::date) AS dates_past_timestamps,
	bloomfilter_hash('NaN'::numeric) <> bloomfilter_hash('Infinity'::numeric) AS nan_inf;
-- non-integral numerics and floats still hash apart (numeric = float8 compares through a
-- rounding cast to float8, which no hash can follow): probe with the filter's type
SELECT bloomfilter_hash(1.5::numeric) <> bloomfilter_hash(1.5::float8) AS numeric_float_fraction;

-- the four filter types built from one numeric family answer probes of the other, on 20000
-- values each (no false negative): integers, numerics, floats, dates and timestamps
CREATE TABLE xfam AS
SELECT i::int8 AS i, (i * 7)::numeric(20, 2) AS n, (i * 3)::float8 AS f,
	date '2000-01-01' + i AS d
FROM generate_series(-10000, 9999) i;
SELECT count(*) FILTER (WHERE NOT bloom_agg_n @> (n::int8)) AS bloom_numeric_by_int,
	count(*) FILTER (WHERE NOT cb_n @> (n::int4)) AS countingbloom_numeric_by_int,
	count(*) FILTER (WHERE NOT qf_f @> (f::int8)) AS quotient_float_by_int,
	count(*) FILTER (WHERE NOT qf_f @> (f::numeric)) AS quotient_float_by_numeric,
	count(*) FILTER (WHERE NOT cf_i @> (i::numeric)) AS cuckoo_int_by_numeric,
	count(*) FILTER (WHERE NOT cf_i @> (i::float8)) AS cuckoo_int_by_float,
	count(*) FILTER (WHERE NOT bloom_d @> (d::timestamp)) AS bloom_date_by_timestamp,
	count(*) FILTER (WHERE NOT cf_ts @> d) AS cuckoo_timestamp_by_date,
	count(*) AS probes
FROM xfam,
	(SELECT bloom_agg(n, 20000, 0.01) AS bloom_agg_n, countingbloom_agg(n, 20000, 0.01) AS cb_n,
		quotientfilter_agg(f, 20000, 0.01) AS qf_f, cuckoofilter_agg(i, 20000, 0.01) AS cf_i,
		bloom_agg(d, 20000, 0.01) AS bloom_d, cuckoofilter_agg(d::timestamp, 20000, 0.01) AS cf_ts FROM xfam) s;
-- and values of the other family that are not in the filter are rejected at the filter's rate
SELECT count(*) FILTER (WHERE bloom_agg_n @> (i * 7 + 3)) < 600 AS bloom_absent_ints_rejected,
	count(*) FILTER (WHERE cf_i @> (i + 0.5)::numeric) < 600 AS cuckoo_fractions_rejected,
	count(*) FILTER (WHERE bloom_d @> (d::timestamp + interval '1 hour')) < 600 AS bloom_off_midnight_rejected
FROM xfam,
	(SELECT bloom_agg(n, 20000, 0.01) AS bloom_agg_n, cuckoofilter_agg(i, 20000, 0.01) AS cf_i,
		bloom_agg(d, 20000, 0.01) AS bloom_d FROM xfam) s;
DROP TABLE xfam;

-- different values differ, seeds matter
SELECT bloomfilter_hash(1) <> bloomfilter_hash(2) AS distinct_values,
	bloomfilter_hash(1, 0) <> bloomfilter_hash(1, 1) AS distinct_seeds,
	bloomfilter_hash(10::numeric) <> bloomfilter_hash(1::numeric) AS num_10_1,
	bloomfilter_hash('1 day'::interval) <> bloomfilter_hash('1 day 1 second'::interval) AS interval_diff;

-- other types go through their send function: stable, and NULL gives NULL
SELECT bloomfilter_hash('192.168.0.1'::inet) = bloomfilter_hash('192.168.0.1'::inet) AS inet_stable,
	bloomfilter_hash(ARRAY[1,2]) = bloomfilter_hash(ARRAY[1,2]) AS array_stable,
	bloomfilter_hash(NULL::int) IS NULL AS null_in_null_out;

-- a type with no binary output function cannot be an element (0A000), also as an array's element
SELECT bloomfilter_hash('postgres=r/postgres'::aclitem);
\echo :LAST_ERROR_SQLSTATE
SELECT bloom_add(bloom_empty(10), ARRAY['postgres=r/postgres'::aclitem]);
\echo :LAST_ERROR_SQLSTATE
SELECT bloom_add(bloom_empty(10), ('postgres=r/postgres'::aclitem)::text) @> 'postgres=r/postgres'::text AS as_text;
-- an enum hashes by its label (stable across dump and restore): RENAME VALUE changes it
CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy');
SELECT bloomfilter_hash('happy'::mood) = bloomfilter_hash('happy'::text) AS enum_by_label;
DROP TYPE mood;

-- nondeterministic collations are refused
CREATE COLLATION IF NOT EXISTS bf_ci (provider = icu, locale = 'und-u-ks-level2', deterministic = false);
SELECT bloomfilter_hash('abc'::text COLLATE bf_ci);
\echo :LAST_ERROR_SQLSTATE
SELECT bloomfilter_hash('abc'::text COLLATE "C") = bloomfilter_hash('abc'::text) AS c_collation_ok;

-- positions: golden vectors (doc/design.md), and the filter bytes they imply
SELECT v, m, k, bloomfilter_positions(v, m, k) FROM (VALUES
	(42::bigint, 64::bigint, 3), (42, 1000, 7), (42, 9586, 7), (-1, 8589934208, 4)) AS t(v, m, k);
SELECT bloomfilter_positions('abc'::text, 1000, 7) AS abc, bloomfilter_positions('abc'::text, 1000, 7, 7) AS abc_seed7;
-- a filter built by hand from the positions (bit i = bit i % 8 of byte i / 8) equals bloom_add's
CREATE FUNCTION filter_from_positions(m bigint, k int, pos bigint[]) RETURNS bloom LANGUAGE sql AS $$
	SELECT format('bloom v2 hash=xxh3 seed=0 inserts=1 m=%s k=%s data=%s', m, k,
		replace(encode((SELECT string_agg(set_byte('\x00'::bytea, 0,
				(SELECT coalesce(sum(DISTINCT 1 << (p % 8)::int), 0) FROM unnest(pos) p WHERE p / 8 = b)::int), ''::bytea ORDER BY b)
			FROM generate_series(0, ((m + 63) / 64) * 8 - 1) b), 'base64'), E'\n', ''))::bloom
$$;
SELECT v, filter_from_positions(1000, 7, bloomfilter_positions(v, 1000, 7)) = bloom_add(bloom_create(1000, 7), v) AS same_bits
FROM unnest(ARRAY[0, 1, 42, -5, 1000000]) v;
SELECT bloomfilter_positions(1, 0, 3);
\echo :LAST_ERROR_SQLSTATE
SELECT bloomfilter_positions(1, 10, 0);
\echo :LAST_ERROR_SQLSTATE

-- composites hash column by column (no type OIDs, equal records agree), arrays by shape and elements
SELECT bloomfilter_hash(ROW(1, 'a'::text)) = bloomfilter_hash(ROW(1::int8, 'a'::varchar)) AS record_cross_type,
	bloomfilter_hash(ROW(1.0::numeric, '-0'::float8)) = bloomfilter_hash(ROW(1.00::numeric, '0'::float8)) AS record_equal_values,
	bloomfilter_hash(ROW(1, NULL::int)) <> bloomfilter_hash(ROW(1, 0)) AS record_null_differs,
	bloomfilter_hash(ROW(1, 2)) <> bloomfilter_hash(ROW(2, 1)) AS record_order_matters,
	bloomfilter_hash(ARRAY[1, 2]) = bloomfilter_hash(ARRAY[1::int8, 2::int8]) AS array_cross_type,
	bloomfilter_hash(ARRAY[1.0::numeric]) = bloomfilter_hash(ARRAY[1.00::numeric]) AS array_equal_values,
	bloomfilter_hash('[0:1]={1,2}'::int[]) <> bloomfilter_hash('{1,2}'::int[]) AS array_lower_bound_matters,
	bloomfilter_hash(ARRAY[[1, 2]]) <> bloomfilter_hash(ARRAY[1, 2]) AS array_shape_matters,
	bloomfilter_hash(ARRAY[1, NULL]) <> bloomfilter_hash(ARRAY[1]) AS array_null_element;
-- ranges hash by flags and bounds (each bound by its subtype's canonical hash),
-- multiranges by their ranges: equal values with differently written bounds agree
SELECT bloomfilter_hash(numrange(1.0, 2)) = bloomfilter_hash(numrange(1.00, 2.000)) AS numrange_scale,
	bloomfilter_hash('[1,3)'::int4range) = bloomfilter_hash('[1,2]'::int4range) AS int4range_canonical,
	bloomfilter_hash('empty'::numrange) = bloomfilter_hash(numrange(2, 2)) AS empty_ranges,
	bloomfilter_hash(numrange(1, 2, '[]')) <> bloomfilter_hash(numrange(1, 2, '[)')) AS inclusivity_matters,
	bloomfilter_hash(numrange(NULL, 2)) <> bloomfilter_hash(numrange(2, NULL)) AS infinite_side_matters,
	bloomfilter_hash(tstzrange('2024-01-01 00:00+00', '2024-01-02 00:00+00'))
		= bloomfilter_hash(tstzrange('2024-01-01 01:00+01', '2024-01-02 01:00+01')) AS tstzrange_zones,
	bloomfilter_hash(nummultirange(numrange(1.0, 2), numrange(3, 4.0)))
		= bloomfilter_hash(nummultirange(numrange(3.00, 4), numrange(1, 2.00))) AS multirange_equal,
	bloomfilter_hash(nummultirange(numrange(1, 2), numrange(2, 3)))
		= bloomfilter_hash(nummultirange(numrange(1, 3))) AS multirange_merged;
-- jsonb hashes by its tokens with numbers canonical: equal documents agree
SELECT bloomfilter_hash('{"a": 1.0, "b": [1, 2.50, {"c": null}]}'::jsonb)
		= bloomfilter_hash('{"b": [1.0, 2.5, {"c": null}], "a": 1.00}'::jsonb) AS jsonb_equal_documents,
	bloomfilter_hash('{"a": 1, "a": 2}'::jsonb) = bloomfilter_hash('{"a": 2}'::jsonb) AS jsonb_duplicate_keys,
	bloomfilter_hash('1.0'::jsonb) <> bloomfilter_hash('[1.0]'::jsonb) AS jsonb_scalar_not_array,
	bloomfilter_hash('{"a": 1}'::jsonb) <> bloomfilter_hash('{"a": "1"}'::jsonb) AS jsonb_number_not_string,
	bloomfilter_hash('[]'::jsonb) <> bloomfilter_hash('{}'::jsonb) AS jsonb_empty_containers,
	bloomfilter_hash('[1, [2]]'::jsonb) <> bloomfilter_hash('[[1], 2]'::jsonb) AS jsonb_nesting_matters;
SELECT bloom_agg(j) @> '{"id": 7.00, "tags": ["x"]}'::jsonb AS jsonb_probe_other_scale
FROM (SELECT jsonb_build_object('id', i::numeric / 1, 'tags', jsonb_build_array('x')) AS j FROM generate_series(1, 100) i) s;
-- citext (contrib) compares lower-cased strings: it hashes as its lower() text
CREATE EXTENSION citext SCHEMA hash_test;
SELECT bloomfilter_hash('Hello'::citext) = bloomfilter_hash('hELLO'::citext) AS citext_case,
	(bloomfilter_hash('Ab'::citext) = bloomfilter_hash('aB'::citext)) = ('Ab'::citext = 'aB'::citext) AS citext_like_equality,
	bloomfilter_hash('hello'::citext) = bloomfilter_hash('hello'::text) AS citext_lower_is_text;
SELECT count(*) FILTER (WHERE f @> upper(e)::citext) AS found_upper, count(*) AS emails
FROM (SELECT bloom_agg(e::citext, 1000, 0.01) AS f FROM (SELECT 'user' || i || '@Example.com' AS e FROM generate_series(1, 500) i) s) b,
	 (SELECT 'user' || i || '@Example.com' AS e FROM generate_series(1, 500) i) p;
DROP EXTENSION citext;
-- golden vectors of the range and jsonb forms (doc/design.md)
SELECT bloomfilter_hash('{"a": 1.0}'::jsonb) AS jsonb_obj, bloomfilter_hash('[true, null, "x"]'::jsonb) AS jsonb_arr;
-- a top-level scalar (raw-scalar flag 1) and jsonb's key order (shorter keys first), checked against libxxhash
SELECT bloomfilter_hash('5'::jsonb) AS jsonb_raw_scalar, bloomfilter_hash('{"bb": 1, "a": 2}'::jsonb) AS jsonb_key_order,
	bloomfilter_hash('{"bb": 1, "a": 2}'::jsonb) = bloomfilter_hash('{"a": 2, "bb": 1}'::jsonb) AS key_order_irrelevant;
SELECT bloomfilter_hash('[1,5)'::int4range) AS int4range_1_5, bloomfilter_hash('empty'::int4range) AS empty,
	bloomfilter_hash('(,5]'::numrange) AS numrange_inf_5, bloomfilter_hash(int4multirange('[1,5)'::int4range)) AS multi;
SELECT bloom_agg(r) @> numrange(0.50, 1.50) AS probe_with_other_scale
FROM (SELECT numrange(i / 2.0, i / 2.0 + 1) AS r FROM generate_series(0, 1000) i) s;
CREATE TYPE pair AS (a int, b text);
SELECT bloom_add(bloom_empty(100), ROW(1, 'x')::pair) @> ROW(1, 'x')::pair AS composite_probe,
	bloomfilter_hash(ROW(1, 'x')::pair) = bloomfilter_hash(ROW(1, 'x')) AS named_equals_anonymous;
-- a composite with a nondeterministic-collation column is refused like the column itself
CREATE TABLE ci_rows (a text COLLATE bf_ci);
INSERT INTO ci_rows VALUES ('A');
SELECT bloomfilter_hash(ci_rows) FROM ci_rows;
\echo :LAST_ERROR_SQLSTATE
-- hashes do not depend on the session's client_encoding (send functions convert to it)
SHOW server_encoding;
DO $$ BEGIN EXECUTE format('CREATE TYPE mood AS ENUM (%L, %L)', convert_from('\x636166c3a9', 'UTF8'), 'plain'); END $$;
CREATE TABLE enc AS SELECT bloomfilter_hash(convert_from('\x636166c3a9', 'UTF8')::mood) AS h_enum,
	bloomfilter_hash(('{"k": "' || convert_from('\x636166c3a9', 'UTF8') || '"}')::jsonb) AS h_json,
	bloomfilter_hash(ROW(convert_from('\x636166c3a9', 'UTF8'))) AS h_row;
SET client_encoding = 'LATIN1';
SELECT h_enum = bloomfilter_hash(convert_from('\x636166c3a9', 'UTF8')::mood) AS enum_same,
	h_json = bloomfilter_hash(('{"k": "' || convert_from('\x636166c3a9', 'UTF8') || '"}')::jsonb) AS jsonb_same,
	h_row = bloomfilter_hash(ROW(convert_from('\x636166c3a9', 'UTF8'))) AS row_same
FROM enc;
RESET client_encoding;

-- types that compare equal to another type's values hash as that type: reg* as oid, cidr as inet
SELECT bloomfilter_hash('pg_class'::regclass) = bloomfilter_hash('pg_class'::regclass::oid) AS regclass_oid,
	bloomfilter_hash('int4'::regtype) = bloomfilter_hash(23::oid) AS regtype_oid,
	bloomfilter_hash(1259::oid) = bloomfilter_hash(1259::int8) AS oid_int8,
	bloomfilter_hash('10.5.0.0/16'::cidr) = bloomfilter_hash('10.5.0.0/16'::inet) AS cidr_inet,
	bloomfilter_hash('10.5.0.0/16'::cidr) <> bloomfilter_hash('10.5.0.0/24'::cidr) AS cidr_bits_matter;
SELECT bloom_add(bloom_empty(100), '10.5.0.0/16'::cidr) @> '10.5.0.0/16'::inet AS cidr_added_inet_probe,
	bloom_add(bloom_empty(100), 'pg_class'::regclass) @> 1259::oid AS regclass_added_oid_probe;
