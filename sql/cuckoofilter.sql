-- cuckoofilter: construction, elements, copies, removal, operators, I/O, golden vectors, errors
CREATE SCHEMA cuckoofilter_test;
SET search_path = cuckoofilter_test, public;
SET max_parallel_workers_per_gather = 0;

-- sizing: f = ceil(log2(2b / fpr)), N0 = ceil(capacity / 3.8) buckets (load <= 0.95) of 4f - 4 bits
SELECT capacity, fpr, fingerprint_bits, bucket_size, buckets, subfilters, slots, fingerprints,
	size_bytes, estimated_fpr
FROM (VALUES (1::bigint, 0.01::float8), (100, 0.01), (3800, 0.01), (3801, 0.01), (1000000, 0.001),
	(1000, 0.5), (1000, 1e-12)) v(capacity, fpr),
	LATERAL cuckoofilter_info(cuckoofilter_empty(capacity, fpr)) ORDER BY 1, 2;
SELECT (cuckoofilter_info(cuckoofilter_empty(1000))).fingerprint_bits AS default_fpr_bits,
	(cuckoofilter_info(cuckoofilter_empty(1000, seed => 7))).seed AS seed;
-- expert constructor
SELECT buckets, fingerprint_bits, size_bytes FROM cuckoofilter_info(cuckoofilter_create(1, 4));
SELECT buckets, fingerprint_bits, size_bytes FROM cuckoofilter_info(cuckoofilter_create(1024, 32, -5));

-- text form: parameters readable, exact round trip
SELECT cuckoofilter_add(cuckoofilter_create(2, 12, 3), 'x'::text)::text AS text_form;
SELECT f::text::cuckoofilter = f AS round_trip, f::text = f::text::cuckoofilter::text AS same_text
FROM (SELECT cuckoofilter_agg(i, 5000, 0.001) f FROM generate_series(1, 4000) i) s;
SELECT length(f::text)::float8 / pg_column_size(f) < 1.4 AS compact
FROM (SELECT cuckoofilter_agg(i, 100000, 0.01) f FROM generate_series(1, 90000) i) s;

-- golden vectors: hash, fingerprint and buckets for a 1024-bucket, 10-bit filter
SELECT v, p.* FROM (VALUES (0::bigint), (1), (42), (-1)) t(v),
	LATERAL cuckoofilter_positions(cuckoofilter_create(1024, 10), v) p ORDER BY v;
SELECT p.* FROM cuckoofilter_positions(cuckoofilter_create(1024, 10, 1), 42) p;
SELECT p.* FROM cuckoofilter_positions(cuckoofilter_create(1024, 10), 'abc'::text) p;
SELECT p.* FROM cuckoofilter_positions(cuckoofilter_create(65536, 16), 'abc'::text) p;
-- any bucket count
SELECT p.* FROM cuckoofilter_positions(cuckoofilter_create(1000, 10), 42) p;
SELECT p.* FROM cuckoofilter_positions(cuckoofilter_create(3, 10), 42) p;
-- the same formulas in SQL: fp = bits 32.. of the hash (0 -> 1), i1 = ((low 32 bits) * N) >> 32
SELECT p.fingerprint = (((p.hash >> 32) & 1023) + CASE WHEN ((p.hash >> 32) & 1023) = 0 THEN 1 ELSE 0 END)
	AS fp_formula, p.bucket1 = ((p.hash & 4294967295) * 1000) >> 32 AS i1_formula,
	p.hash = bloomfilter_hash(42) AS canonical_hash
FROM cuckoofilter_positions(cuckoofilter_create(1000, 10), 42) p;
-- the storage layout (semi-sorted buckets): bucket i at table bit i * (4f - 4), little-endian bit
-- order (PostgreSQL's get_bit numbers bits the same way); the table follows a 24-byte sub-filter
-- header.  A bucket's entries e0 <= e1 <= e2 <= e3 (0 = empty) are stored as the 12-bit code of
-- their top 4 bits n0 <= n1 <= n2 <= n3, C(n0, 1) + C(n1 + 1, 2) + C(n2 + 2, 3) + C(n3 + 3, 4),
-- then the low f - 4 bits of e0, e1, e2, e3
CREATE FUNCTION cf_bits(d bytea, start bigint, len int) RETURNS bigint LANGUAGE sql AS $$
	SELECT coalesce(sum(get_bit(d, (start + t)::int)::bigint << t), 0)::bigint FROM generate_series(0, len - 1) t
$$;
CREATE TABLE cf_codes AS
SELECT n0, n1, n2, n3, n0 + (n1 + 1) * n1 / 2 + (n2 + 2) * (n2 + 1) * n2 / 6 + (n3 + 3) * (n3 + 2) * (n3 + 1) * n3 / 24 AS code
FROM generate_series(0, 15) n0, generate_series(n0, 15) n1, generate_series(n1, 15) n2, generate_series(n2, 15) n3;
-- every multiset of 4 nibbles has its own code, 0 .. 3875
SELECT count(*) AS multisets, count(DISTINCT code) AS codes, min(code), max(code) FROM cf_codes;
CREATE FUNCTION cf_entry(f cuckoofilter, bucket bigint, slot int) RETURNS bigint LANGUAGE sql AS $$
	SELECT (CASE slot WHEN 0 THEN c.n0 WHEN 1 THEN c.n1 WHEN 2 THEN c.n2 ELSE c.n3 END::bigint << (i.fingerprint_bits - 4))
		| cf_bits(d, 24 * 8 + bucket * (4 * i.fingerprint_bits - 4) + 12 + slot * (i.fingerprint_bits - 4), i.fingerprint_bits - 4)
	FROM (SELECT decode(substring(f::text FROM 'data=(\S+)'), 'base64') d) s, cuckoofilter_info(f) i, cf_codes c
	WHERE c.code = cf_bits(d, 24 * 8 + bucket * (4 * i.fingerprint_bits - 4), 12)
$$;
-- one fingerprint in an empty bucket is its largest entry
SELECT cf_entry(f, p.bucket1, 3) = p.fingerprint AS stored_in_bucket1_entry3,
	cf_entry(f, p.bucket1, 2) = 0 AS entry2_empty
FROM (SELECT cuckoofilter_add(cuckoofilter_create(1024, 10), 42) f) s,
	LATERAL cuckoofilter_positions(f, 42) p;
-- 13-bit fingerprints (44-bit buckets straddle bytes), 20 elements in 64 buckets: each is one of the
-- entries of its two buckets, entries ascend, and the non-empty entries are exactly the 20
SELECT bool_and(EXISTS (SELECT 1 FROM generate_series(0, 3) j
	WHERE cf_entry(f, p.bucket1, j) = p.fingerprint OR cf_entry(f, p.bucket2, j) = p.fingerprint)) AS all_found
FROM (SELECT cuckoofilter_add(cuckoofilter_create(64, 13), ARRAY(SELECT generate_series(1, 20))) f) s,
	generate_series(1, 20) v, LATERAL cuckoofilter_positions(f, v) p;
SELECT bool_and(e0 <= e1 AND e1 <= e2 AND e2 <= e3) AS ascending,
	sum((e0 > 0)::int + (e1 > 0)::int + (e2 > 0)::int + (e3 > 0)::int) AS entries
FROM (SELECT cf_entry(f, b, 0) e0, cf_entry(f, b, 1) e1, cf_entry(f, b, 2) e2, cf_entry(f, b, 3) e3
	  FROM (SELECT cuckoofilter_add(cuckoofilter_create(64, 13), ARRAY(SELECT generate_series(1, 20))) f) s,
		   generate_series(0, 63) b) t;
-- 20-bit fingerprints (76-bit buckets, read field by field)
SELECT bool_and(EXISTS (SELECT 1 FROM generate_series(0, 3) j
	WHERE cf_entry(f, p.bucket1, j) = p.fingerprint OR cf_entry(f, p.bucket2, j) = p.fingerprint)) AS all_found_f20
FROM (SELECT cuckoofilter_add(cuckoofilter_create(16, 20), ARRAY(SELECT generate_series(1, 30))) f) s,
	generate_series(1, 30) v, LATERAL cuckoofilter_positions(f, v) p;
-- the same inserts in the same order give the same bytes
SELECT (SELECT cuckoofilter_agg(i, 1000, 0.01) FROM generate_series(1, 3000) i)
	 = (SELECT cuckoofilter_agg(i, 1000, 0.01) FROM generate_series(1, 3000) i) AS deterministic;
SELECT md5(cuckoofilter_send(cuckoofilter_agg(i, 1000, 0.01))) AS pinned_bytes FROM generate_series(1, 3000) i;

-- elements: add, contains, count of copies, remove one copy
CREATE TABLE cf (f cuckoofilter);
INSERT INTO cf VALUES (cuckoofilter_empty(1000));
UPDATE cf SET f = cuckoofilter_add(f, 'apple'::text);
UPDATE cf SET f = cuckoofilter_add(f, 'apple'::text);
UPDATE cf SET f = cuckoofilter_add(f, ARRAY['pear', 'plum', NULL]::text[]);
UPDATE cf SET f = cuckoofilter_add(f, NULL::text);
SELECT f @> 'apple'::text AS apple, 'pear'::text <@ f AS pear, f @> 'kiwi'::text AS kiwi,
	cuckoofilter_contains(f, 'plum'::text) AS plum, f @> NULL::text AS null_probe,
	cuckoofilter_count(f, 'apple'::text) AS apples, cuckoofilter_count(f, 'kiwi'::text) AS kiwis,
	cuckoofilter_cardinality(f) AS fingerprints, (cuckoofilter_info(f)).inserts
FROM cf;
UPDATE cf SET f = cuckoofilter_remove(f, 'apple'::text);
SELECT f @> 'apple'::text AS apple, cuckoofilter_count(f, 'apple'::text) AS apples,
	cuckoofilter_cardinality(f) AS fingerprints FROM cf;
UPDATE cf SET f = cuckoofilter_remove(f, ARRAY['apple', 'pear', NULL]);
UPDATE cf SET f = cuckoofilter_remove(f, NULL::text);
SELECT f @> 'apple'::text AS apple, f @> 'pear'::text AS pear, f @> 'plum'::text AS plum,
	cuckoofilter_cardinality(f) AS fingerprints FROM cf;
-- removing what is not there changes nothing
SELECT cuckoofilter_remove(f, 'kiwi'::text) = f AS unchanged FROM cf;
-- NULL filters stay NULL
SELECT cuckoofilter_add(NULL::cuckoofilter, 1) IS NULL AS add_null,
	cuckoofilter_remove(NULL::cuckoofilter, 1) IS NULL AS remove_null,
	cuckoofilter_count(NULL::cuckoofilter, 1) IS NULL AS count_null;
-- the input value is never modified
SELECT f = cuckoofilter_empty(10) AS still_empty, cuckoofilter_add(f, 1) <> f AS copy_differs
FROM (SELECT cuckoofilter_empty(10) f) s;
-- equal SQL values across types
SELECT f @> 7::int2 AS int2, f @> 7::int8 AS int8, f @> 7.0::numeric AS numeric_int
FROM (SELECT cuckoofilter_add(cuckoofilter_empty(100), 7::int4) f) s;

-- copies: up to 2b = 8 per bucket pair; more adds saturate and are never removed
SELECT n, cuckoofilter_count(f, 'dup'::text) AS copies, cuckoofilter_cardinality(f) AS fingerprints,
	(cuckoofilter_info(f)).subfilters
FROM unnest(ARRAY[1, 7, 8, 9, 100]) n,
	LATERAL (SELECT cuckoofilter_agg('dup'::text, 1000, 0.01) f FROM generate_series(1, n)) s ORDER BY n;
SELECT cuckoofilter_count(cuckoofilter_remove(f, 'dup'::text), 'dup'::text) AS saturated_stays,
	cuckoofilter_count(cuckoofilter_remove(cuckoofilter_remove(g, 'dup'::text), 'dup'::text), 'dup'::text) AS below
FROM (SELECT cuckoofilter_agg('dup'::text, 1000, 0.01) f FROM generate_series(1, 20)) a,
	(SELECT cuckoofilter_agg('dup'::text, 1000, 0.01) g FROM generate_series(1, 5)) b;

-- in a chain, a pair saturates per sub-filter: heavy duplicates cost at most 2b slots per sub-filter
SELECT (cuckoofilter_info(f)).subfilters, cuckoofilter_count(f, 100000) AS dup_copies,
	cuckoofilter_count(f, 100000) <= 8 * (cuckoofilter_info(f)).subfilters AS at_most_2b_per_subfilter,
	(SELECT bool_and(f @> i) FROM generate_series(1, 300) i) AS all_found
FROM (SELECT cuckoofilter_agg(x, 20, 0.01 ORDER BY o) f
	  FROM (SELECT i AS x, i * 10 AS o FROM generate_series(1, 300) i
			UNION ALL SELECT 100000, j FROM generate_series(1, 3000) j) s) t;

-- union reinserts the right side's fingerprints; = compares the stored bytes
SELECT cuckoofilter_cardinality(u) AS fingerprints, (SELECT bool_and(u @> i) FROM generate_series(1, 5000) i) AS all_found,
	cuckoofilter_count(u, 2500) AS copies_2500, cuckoofilter_count(u, 100) AS copies_100,
	u = a | b AS eq, u <> a AS ne
FROM (SELECT a, b, a | b AS u
	  FROM (SELECT cuckoofilter_agg(i, 10000, 0.01) a FROM generate_series(1, 3000) i) x,
		   (SELECT cuckoofilter_agg(i, 10000, 0.01) b FROM generate_series(2001, 5000) i) y) s;
SELECT cuckoofilter_count(a | a, 17) AS copies FROM (SELECT cuckoofilter_agg(i, 100, 0.01) a FROM generate_series(1, 50) i) s;

-- a full filter: cuckoofilter_add fails with 54000 and leaves the filter as it was
CREATE TABLE full_filter (ff cuckoofilter, n int);
DO $$
DECLARE
	f cuckoofilter := cuckoofilter_create(16, 8);
	i int := 1;
BEGIN
	LOOP
		f := cuckoofilter_add(f, i);
		i := i + 1;
	END LOOP;
EXCEPTION WHEN program_limit_exceeded THEN
	INSERT INTO full_filter VALUES (f, i - 1);
END $$;
SELECT n AS added_before_failure, cuckoofilter_cardinality(ff) AS fingerprints,
	(cuckoofilter_info(ff)).load_factor, (cuckoofilter_info(ff)).victims_in_use,
	(SELECT bool_and(ff @> v) FROM generate_series(1, n) v) AS all_kept
FROM full_filter;
SELECT cuckoofilter_add(ff, 1000) FROM full_filter;
\echo :LAST_ERROR_SQLSTATE
SELECT cuckoofilter_add(ff, ARRAY[1000, 1001]) FROM full_filter;
\echo :LAST_ERROR_SQLSTATE
-- removing one element makes room again (the victim moves back into the table)
SELECT (cuckoofilter_info(g)).victims_in_use, cuckoofilter_cardinality(cuckoofilter_add(g, 1000)) AS fingerprints
FROM (SELECT cuckoofilter_remove(ff, 1) g FROM full_filter) s;
CREATE TABLE small AS SELECT ff AS f FROM full_filter;
-- the aggregate and | chain a sub-filter instead
SELECT * FROM cuckoofilter_subfilters((SELECT cuckoofilter_agg(i, 20, 0.01) FROM generate_series(1, 200) i));
SELECT (SELECT bool_and(f @> i) FROM generate_series(1, 200) i) AS no_false_negative,
	cuckoofilter_cardinality(f) AS fingerprints, round(cuckoofilter_fpr(f)::numeric, 4) AS chained_fpr,
	(SELECT round(cuckoofilter_fpr(cuckoofilter_agg(i, 200, 0.01))::numeric, 4) FROM generate_series(1, 200) i) AS unchained_fpr
FROM (SELECT cuckoofilter_agg(i, 20, 0.01) f FROM generate_series(1, 200) i) s;
SELECT subfilter, buckets, fingerprints FROM cuckoofilter_subfilters((SELECT f | f FROM small));
SELECT cuckoofilter_cardinality(f | f) = 2 * cuckoofilter_cardinality(f) AS doubled,
	cuckoofilter_count(f | f, 1) = 2 * cuckoofilter_count(f, 1) AS copies_doubled FROM small;
-- an element added to a chained filter goes to the first sub-filter with room; removal keeps all others
SELECT (SELECT bool_and(g @> i) FROM generate_series(1, 200) i WHERE i <> 7) AS others_kept,
	cuckoofilter_count(g, 7) AS copies_of_7, cuckoofilter_cardinality(g) AS fingerprints
FROM (SELECT cuckoofilter_remove(f, 7) g FROM (SELECT cuckoofilter_agg(i, 20, 0.01) f FROM generate_series(1, 200) i) s) t;

-- aggregates over no rows give an empty filter with the requested parameters
SELECT buckets, fingerprint_bits, fingerprints FROM cuckoofilter_info((SELECT cuckoofilter_agg(i, 5000, 0.001) FROM generate_series(1, 0) i));
SELECT buckets, fingerprint_bits FROM cuckoofilter_info((SELECT cuckoofilter_agg(i) FROM generate_series(1, 0) i));
SELECT buckets, fingerprint_bits, fingerprints FROM cuckoofilter_info((SELECT cuckoofilter_agg(i) FROM generate_series(1, 10) i));
SELECT cuckoofilter_union_agg(f) IS NULL AS union_of_nothing FROM cf WHERE false;
SELECT cuckoofilter_cardinality(cuckoofilter_union_agg(f)) AS fingerprints, cuckoofilter_count(cuckoofilter_union_agg(f), 1) AS ones
FROM (SELECT cuckoofilter_agg(i % 50, 1000, 0.01) f FROM generate_series(1, 300) i GROUP BY i % 3
	  UNION ALL SELECT NULL) s;
SELECT cuckoofilter_agg(x) IS NOT NULL AS skips_nulls, cuckoofilter_cardinality(cuckoofilter_agg(x)) AS fingerprints
FROM (VALUES (1), (NULL), (2)) v(x);
-- a NULL capacity is no capacity: the aggregate reserves 4 fingerprint bits below its rate, as without the
-- arguments (byte for byte the same filter), also over no rows and with a per-row NULL; a NULL fpr is the default
SELECT (SELECT cuckoofilter_agg(i, NULL, NULL) FROM generate_series(1, 1000) i) =
	(SELECT cuckoofilter_agg(i) FROM generate_series(1, 1000) i) AS null_args_same_as_none,
	(SELECT cuckoofilter_agg(i, NULL, NULL) FROM generate_series(1, 0) i) =
	(SELECT cuckoofilter_agg(i) FROM generate_series(1, 0) i) AS same_over_no_rows,
	(SELECT cuckoofilter_agg(i, c, NULL) FROM generate_series(1, 1000) i, (VALUES (NULL::bigint)) v(c)) =
	(SELECT cuckoofilter_agg(i) FROM generate_series(1, 1000) i) AS per_row_null_same,
	(SELECT fingerprint_bits FROM cuckoofilter_info((SELECT cuckoofilter_agg(i, NULL, 0.001) FROM generate_series(1, 10) i))) AS bits_null_capacity_001,
	(SELECT fingerprint_bits FROM cuckoofilter_info((SELECT cuckoofilter_agg(i, 100000, 0.001) FROM generate_series(1, 10) i))) AS bits_sized_001,
	(SELECT fingerprint_bits FROM cuckoofilter_info((SELECT cuckoofilter_agg(i, 5000, NULL) FROM generate_series(1, 10) i))) AS bits_null_fpr;

-- the support functions called directly work on copies
SELECT cuckoofilter_cardinality(cuckoofilter_agg_trans(f, 5)) AS after_trans, cuckoofilter_cardinality(f) AS input_kept,
	cuckoofilter_cardinality(cuckoofilter_union_trans(f, cuckoofilter_add(f, 6))) AS after_union
FROM (SELECT cuckoofilter_add(cuckoofilter_empty(10), 1) f) s;

-- errors, with their SQLSTATEs
SELECT cuckoofilter_empty(0);
\echo :LAST_ERROR_SQLSTATE
-- = and <> refuse filters with other parameters, like every binary operation
SELECT cuckoofilter_empty(100) = cuckoofilter_empty(100000);
\echo :LAST_ERROR_SQLSTATE
SELECT cuckoofilter_empty(100, 0.01, 1) <> cuckoofilter_empty(100, 0.01, 2);
\echo :LAST_ERROR_SQLSTATE
SELECT cuckoofilter_empty(100, 0);
\echo :LAST_ERROR_SQLSTATE
SELECT cuckoofilter_empty(100, 1.5);
\echo :LAST_ERROR_SQLSTATE
SELECT cuckoofilter_empty(100, 'NaN');
\echo :LAST_ERROR_SQLSTATE
-- (the limit in the message is the extension's datum size limit)
\set VERBOSITY sqlstate
SELECT cuckoofilter_empty(9223372036854775807);
\set VERBOSITY default
\echo :LAST_ERROR_SQLSTATE
-- (the limit in the message is the extension's datum size limit)
\set VERBOSITY sqlstate
SELECT cuckoofilter_empty(1000000000000, 1e-9);
\set VERBOSITY default
\echo :LAST_ERROR_SQLSTATE
SELECT buckets, slots, size_bytes FROM cuckoofilter_info(cuckoofilter_create(1000, 10));
SELECT cuckoofilter_create(0, 10);
\echo :LAST_ERROR_SQLSTATE
SELECT cuckoofilter_create(8589934592, 10);
\echo :LAST_ERROR_SQLSTATE
SELECT cuckoofilter_create(1024, 3);
\echo :LAST_ERROR_SQLSTATE
SELECT cuckoofilter_create(1024, 33);
\echo :LAST_ERROR_SQLSTATE
-- (the limit in the message is the extension's datum size limit)
\set VERBOSITY sqlstate
SELECT cuckoofilter_create(4294967295, 32);
\set VERBOSITY default
\echo :LAST_ERROR_SQLSTATE
SELECT cuckoofilter_agg(i, 0, 0.01) FROM generate_series(1, 3) i;
\echo :LAST_ERROR_SQLSTATE
SELECT cuckoofilter_agg(i, 10, 2) FROM generate_series(1, 3) i;
\echo :LAST_ERROR_SQLSTATE
-- mismatched parameters: seed, fingerprint bits, buckets
SELECT cuckoofilter_empty(100, 0.01, 1) | cuckoofilter_empty(100, 0.01, 2);
\echo :LAST_ERROR_SQLSTATE
SELECT cuckoofilter_empty(100, 0.01) | cuckoofilter_empty(100, 0.001);
\echo :LAST_ERROR_SQLSTATE
SELECT cuckoofilter_empty(100) | cuckoofilter_empty(1000);
\echo :LAST_ERROR_SQLSTATE
SELECT cuckoofilter_union_agg(f) FROM (VALUES (cuckoofilter_empty(10)), (cuckoofilter_empty(10, 0.01, 9))) v(f);
\echo :LAST_ERROR_SQLSTATE
SELECT cuckoofilter_union_agg(f) FROM (VALUES (cuckoofilter_empty(10)), (cuckoofilter_create(4, 12))) v(f);
\echo :LAST_ERROR_SQLSTATE
-- nondeterministic collations are refused by the canonical hashing
CREATE COLLATION IF NOT EXISTS cf_ci (provider = icu, locale = 'und-u-ks-level2', deterministic = false);
SELECT cuckoofilter_add(cuckoofilter_empty(10), 'a'::text COLLATE cf_ci);
\echo :LAST_ERROR_SQLSTATE

-- malformed text input: 22P02 with a detail saying what is wrong
\set VERBOSITY default
SELECT 'cuckoofilter'::cuckoofilter;
\echo :LAST_ERROR_SQLSTATE
SELECT 'bloom v2 hash=xxh3 seed=0 inserts=0 f=10 b=4 buckets=1 count=0 data=AAAA'::cuckoofilter;
\echo :LAST_ERROR_SQLSTATE
SELECT 'cuckoofilter v3 hash=xxh3 seed=0 inserts=0 f=10 b=4 buckets=1 count=0 data=AAAA'::cuckoofilter;
\echo :LAST_ERROR_SQLSTATE
SELECT 'cuckoofilter v2 hash=xxh3 seed=0 inserts=0 f=3 b=4 layout=semisorted buckets=1 count=0 data=AAAA'::cuckoofilter;
\echo :LAST_ERROR_SQLSTATE
-- a sub-filter level of 64 in the payload (over the maximum of 31): refused before it is used as a shift
SELECT 'cuckoofilter v2 hash=xxh3 seed=0 inserts=0 f=4 b=4 layout=semisorted buckets=1 count=0 data=QAAAAAAAAAABAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=='::cuckoofilter;
\echo :LAST_ERROR_SQLSTATE
SELECT 'cuckoofilter v2 hash=xxh3 seed=0 inserts=0 f=10 b=8 buckets=1 count=0 data=AAAA'::cuckoofilter;
\echo :LAST_ERROR_SQLSTATE
-- a bucket count with a leading zero is not as output writes it
SELECT 'cuckoofilter v2 hash=xxh3 seed=0 inserts=0 f=4 b=4 layout=semisorted buckets=01 count=0 data=QAAAAAAAAAABAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=='::cuckoofilter;
\echo :LAST_ERROR_SQLSTATE
SELECT 'cuckoofilter v2 hash=xxh3 seed=0 inserts=0 f=10 b=4 layout=semisorted buckets=2,3 count=0 data=AAAA'::cuckoofilter;
\echo :LAST_ERROR_SQLSTATE
SELECT 'cuckoofilter v2 hash=xxh3 seed=0 inserts=0 f=10 b=4 layout=semisorted buckets=1,,2 count=0 data=AAAA'::cuckoofilter;
\echo :LAST_ERROR_SQLSTATE
SELECT 'cuckoofilter v2 hash=xxh3 seed=0 inserts=0 f=10 b=4 layout=semisorted count=0 data=AAAA'::cuckoofilter;
\echo :LAST_ERROR_SQLSTATE
SELECT 'cuckoofilter v2 hash=xxh3 seed=0 inserts=0 f=10 b=4 layout=semisorted buckets=1 count=0 data=AAAA'::cuckoofilter;
\echo :LAST_ERROR_SQLSTATE
-- (the limit in the message is the extension's datum size limit)
\set VERBOSITY sqlstate
SELECT 'cuckoofilter v2 hash=xxh3 seed=0 inserts=0 f=32 b=4 layout=semisorted buckets=4294967295,4294967295 count=0 data=AAAA'::cuckoofilter;
\set VERBOSITY default
\echo :LAST_ERROR_SQLSTATE
SELECT (cuckoofilter_create(1, 4)::text || ' extra=1')::cuckoofilter;
\echo :LAST_ERROR_SQLSTATE
-- well-formed text whose contents are inconsistent: build them from a valid value
CREATE FUNCTION cf_patch(f cuckoofilter, offs int[], vals int[], fix_count bigint DEFAULT NULL)
RETURNS cuckoofilter LANGUAGE plpgsql AS $$
DECLARE
	d bytea := decode(substring(f::text FROM 'data=(\S+)'), 'base64');
BEGIN
	FOR i IN 1..array_length(offs, 1) LOOP
		d := set_byte(d, offs[i], vals[i]);
	END LOOP;
	RETURN regexp_replace(regexp_replace(f::text, 'data=\S+', 'data=' || translate(encode(d, 'base64'), E'\n', '')),
		'count=\d+', 'count=' || coalesce(fix_count, cuckoofilter_cardinality(f)))::cuckoofilter;
END $$;
CREATE TABLE one AS SELECT cuckoofilter_add(cuckoofilter_create(2, 8), 'x'::text) f;
SELECT f::text FROM one;
SELECT cf_patch(f, '{0}', '{0}') = f AS patch_identity FROM one;
-- count in the header differs from the contents
SELECT cf_patch(f, '{0}', '{0}', 2) FROM one;
\echo :LAST_ERROR_SQLSTATE
-- sub-filter count differs from its entries
SELECT cf_patch(f, '{16}', '{2}', 2) FROM one;
\echo :LAST_ERROR_SQLSTATE
-- a fingerprint appears without being counted (low bits of entry 3 of the empty bucket 0)
SELECT cf_patch(f, '{27}', '{225}') FROM one;
\echo :LAST_ERROR_SQLSTATE
-- entries not in ascending order (low bits of entry 0 of bucket 0); a code past the last multiset
SELECT cf_patch(f, '{25}', '{16}') FROM one;
\echo :LAST_ERROR_SQLSTATE
SELECT cf_patch(f, '{24,25}', '{255,15}') FROM one;
\echo :LAST_ERROR_SQLSTATE
-- another bucket layout, or none
SELECT replace(f::text, 'layout=semisorted', 'layout=plain')::cuckoofilter FROM one;
\echo :LAST_ERROR_SQLSTATE
SELECT replace(f::text, ' layout=semisorted', '')::cuckoofilter FROM one;
\echo :LAST_ERROR_SQLSTATE
-- sub-filter header says 4 buckets, the list says 2
SELECT cf_patch(f, '{8}', '{4}') FROM one;
\echo :LAST_ERROR_SQLSTATE
-- sub-filter header says level 40; the first sub-filter at level 1
SELECT cf_patch(f, '{0}', '{40}') FROM one;
\echo :LAST_ERROR_SQLSTATE
SELECT cf_patch(f, '{0}', '{1}') FROM one;
\echo :LAST_ERROR_SQLSTATE
-- victim flag 2; victim in use without a fingerprint; unused victim with a bucket
SELECT cf_patch(f, '{1}', '{2}') FROM one;
\echo :LAST_ERROR_SQLSTATE
SELECT cf_patch(f, '{1,16}', '{1,2}', 2) FROM one;
\echo :LAST_ERROR_SQLSTATE
SELECT cf_patch(f, '{12}', '{1}') FROM one;
\echo :LAST_ERROR_SQLSTATE
-- a victim past the last bucket, a victim fingerprint wider than f
SELECT cf_patch(f, '{1,4,12,16}', '{1,5,7,2}', 2) FROM one;
\echo :LAST_ERROR_SQLSTATE
SELECT cf_patch(f, '{1,4,5,12,16}', '{1,5,1,1,2}', 2) FROM one;
\echo :LAST_ERROR_SQLSTATE
-- a sub-filter count larger than its slots
SELECT cf_patch(f, '{16}', '{9}', 9) FROM one;
\echo :LAST_ERROR_SQLSTATE
-- reserved field, padding byte
SELECT cf_patch(f, '{2}', '{1}') FROM one;
\echo :LAST_ERROR_SQLSTATE
SELECT cf_patch(f, '{32}', '{1}') FROM one;
\echo :LAST_ERROR_SQLSTATE
-- a valid victim is accepted, probed and removed
SELECT (cuckoofilter_info(v)).victims_in_use, cuckoofilter_cardinality(v) AS fingerprints,
	cuckoofilter_count(v, 'x'::text) AS x_copies
FROM (SELECT cf_patch(f, '{1,4,12,16}', '{1,5,1,2}', 2) v FROM one) s;

-- an aggregate state of 1 MB or more defers its adds (the hashes of the last
-- 16 rows wait in a ring, doc/design.md "Deferred adds"), in the rows' order:
-- the same bytes as the add functions' (in that order), below, at and past the
-- ring's 16 rows, group by group
SELECT n, cuckoofilter_agg(i, 1000000, 0.01 ORDER BY i) =
		cuckoofilter_add(cuckoofilter_empty(1000000, 0.01), array_agg(i ORDER BY i)) AS same_as_adds,
	(cuckoofilter_info(cuckoofilter_agg(i, 1000000, 0.01 ORDER BY i))).inserts = n AS inserts_counted
FROM unnest(ARRAY[1, 15, 16, 17, 33, 5000]) n, generate_series(1, n) i GROUP BY n ORDER BY n;
-- and past its capacity, where a full filter chains a sub-filter while rows
-- wait: the same bytes as the window aggregate over the whole frame (which
-- adds each row at once)
SELECT a = w AS same_as_window, (cuckoofilter_info(a)).subfilters AS subfilters,
	(SELECT count(*) FROM generate_series(1, 1100000) i WHERE NOT a @> i) AS false_negatives
FROM (SELECT cuckoofilter_agg(i, 1000000, 0.01 ORDER BY i) AS a FROM generate_series(1, 1100000) i) s,
	(SELECT cuckoofilter_agg(i, 1000000, 0.01) OVER (ORDER BY i ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS w
	 FROM generate_series(1, 1100000) i LIMIT 1) t;
