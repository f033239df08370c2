-- countingbloom: every error path, with its SQLSTATE
-- bad parameters: 22023
SELECT countingbloom_empty(0, 0.01);
\echo :LAST_ERROR_SQLSTATE
SELECT countingbloom_empty(-5);
\echo :LAST_ERROR_SQLSTATE
SELECT countingbloom_empty(100, 0);
\echo :LAST_ERROR_SQLSTATE
SELECT countingbloom_empty(100, 1);
\echo :LAST_ERROR_SQLSTATE
SELECT countingbloom_empty(100, -0.5);
\echo :LAST_ERROR_SQLSTATE
SELECT countingbloom_empty(100, 'NaN');
\echo :LAST_ERROR_SQLSTATE
-- (messages naming the size limit are shown by SQLSTATE only: the limit is a build constant)
\set VERBOSITY sqlstate
SELECT countingbloom_create(0, 3);
SELECT countingbloom_create(-1, 3);
\set VERBOSITY default
SELECT countingbloom_create(100, 0);
\echo :LAST_ERROR_SQLSTATE
SELECT countingbloom_create(100, 65);
\echo :LAST_ERROR_SQLSTATE
SELECT countingbloom_agg(i, 0, 0.01) FROM generate_series(1, 3) i;
\echo :LAST_ERROR_SQLSTATE
SELECT countingbloom_agg(i, 10, 2) FROM generate_series(1, 3) i;
\echo :LAST_ERROR_SQLSTATE
-- also over no rows (the final function checks the constant arguments)
SELECT countingbloom_agg(i, 10, 1.5) FROM generate_series(1, 0) i;
\echo :LAST_ERROR_SQLSTATE

-- sizes past the datum size limit: 54000, raised before allocating
\set VERBOSITY sqlstate
SELECT countingbloom_empty(1000000000000, 0.01);
-- 360 MB as a bloom filter, 1.4 GB with four bits per position
SELECT countingbloom_empty(300000000, 0.01);
SELECT countingbloom_empty(9223372036854775807, 0.5);
SELECT countingbloom_create(9223372036854775807, 3);
SELECT countingbloom_create(2147483648, 1);
SELECT countingbloom_agg(i, 300000000, 0.01) FROM generate_series(1, 3) i;
\set VERBOSITY default
-- the message names this type (not bloom) and the bytes it would need
DO $$
BEGIN
	PERFORM countingbloom_empty(300000000, 0.01);
EXCEPTION WHEN program_limit_exceeded THEN
	RAISE NOTICE '%', substring(SQLERRM FROM '^countingbloom would need [0-9]+ bytes');
END $$;

-- filters with different parameters: 22023 naming both sides
SELECT countingbloom_empty(100, 0.01) | countingbloom_empty(1000, 0.01);
\echo :LAST_ERROR_SQLSTATE
SELECT countingbloom_empty(100, 0.01, 1) - countingbloom_empty(100, 0.01, 2);
\echo :LAST_ERROR_SQLSTATE
SELECT countingbloom_create(100, 3) | countingbloom_create(100, 4);
\echo :LAST_ERROR_SQLSTATE
SELECT countingbloom_union_agg(f) FROM (VALUES (countingbloom_empty(100)), (countingbloom_empty(200))) v(f);
\echo :LAST_ERROR_SQLSTATE
-- after the cast, bloom's own check applies
SELECT countingbloom_empty(100)::bloom | bloom_empty(200);
\echo :LAST_ERROR_SQLSTATE
-- = and <> refuse them too
SELECT countingbloom_empty(100, 0.01, 1) = countingbloom_empty(100, 0.01, 2);
\echo :LAST_ERROR_SQLSTATE
SELECT countingbloom_empty(100) <> countingbloom_empty(200);
\echo :LAST_ERROR_SQLSTATE
-- the combine function called directly
SELECT countingbloom_union_trans(countingbloom_empty(100), countingbloom_empty(200));
\echo :LAST_ERROR_SQLSTATE

-- text input: 22P02 with a detail saying what is wrong
SELECT 'bloom v2 hash=xxh3 seed=0 inserts=0 m=3 k=1 data=AAAAAAAAAAA='::countingbloom;
\echo :LAST_ERROR_SQLSTATE
SELECT ''::countingbloom;
\echo :LAST_ERROR_SQLSTATE
SELECT 'countingbloom'::countingbloom;
\echo :LAST_ERROR_SQLSTATE
SELECT 'countingbloom v3 hash=xxh3 seed=0 inserts=0 m=3 k=1 data=AAAAAAAAAAA='::countingbloom;
\echo :LAST_ERROR_SQLSTATE
SELECT 'countingbloom 1 hash=xxh3 seed=0 inserts=0 m=3 k=1 data=AAAAAAAAAAA='::countingbloom;
\echo :LAST_ERROR_SQLSTATE
SELECT 'countingbloom v2 hash=md5 seed=0 inserts=0 m=3 k=1 data=AAAAAAAAAAA='::countingbloom;
\echo :LAST_ERROR_SQLSTATE
SELECT 'countingbloom v2 seed=0 inserts=0 m=3 k=1 data=AAAAAAAAAAA='::countingbloom;
\echo :LAST_ERROR_SQLSTATE
SELECT 'countingbloom v2 hash=xxh3 seed=x inserts=0 m=3 k=1 data=AAAAAAAAAAA='::countingbloom;
\echo :LAST_ERROR_SQLSTATE
SELECT 'countingbloom v2 hash=xxh3 seed=0 inserts=-1 m=3 k=1 data=AAAAAAAAAAA='::countingbloom;
\echo :LAST_ERROR_SQLSTATE
SELECT 'countingbloom v2 hash=xxh3 seed=0 inserts=0 k=1 data=AAAAAAAAAAA='::countingbloom;
\echo :LAST_ERROR_SQLSTATE
\set VERBOSITY sqlstate
SELECT 'countingbloom v2 hash=xxh3 seed=0 inserts=0 m=0 k=1 data=AAAAAAAAAAA='::countingbloom;
\set VERBOSITY default
SELECT 'countingbloom v2 hash=xxh3 seed=0 inserts=0 m=3 k=0 data=AAAAAAAAAAA='::countingbloom;
\echo :LAST_ERROR_SQLSTATE
SELECT 'countingbloom v2 hash=xxh3 seed=0 inserts=0 m=3 k=65 data=AAAAAAAAAAA='::countingbloom;
\echo :LAST_ERROR_SQLSTATE
\set VERBOSITY sqlstate
SELECT 'countingbloom v2 hash=xxh3 seed=0 inserts=0 m=99999999999999 k=1 data=AAAAAAAAAAA='::countingbloom;
\set VERBOSITY default
SELECT 'countingbloom v2 hash=xxh3 seed=0 inserts=0 m=3 k=1'::countingbloom;
\echo :LAST_ERROR_SQLSTATE
-- payload: not base64, wrong length, stray padding bits
SELECT 'countingbloom v2 hash=xxh3 seed=0 inserts=0 m=3 k=1 data=AAAA*AAAAAA='::countingbloom;
\echo :LAST_ERROR_SQLSTATE
SELECT 'countingbloom v2 hash=xxh3 seed=0 inserts=0 m=3 k=1 data=AAAAAAAAAAAAAAAA'::countingbloom;
\echo :LAST_ERROR_SQLSTATE
SELECT 'countingbloom v2 hash=xxh3 seed=0 inserts=0 m=17 k=1 data=AAAAAAAAAAA='::countingbloom;
\echo :LAST_ERROR_SQLSTATE
SELECT 'countingbloom v2 hash=xxh3 seed=0 inserts=0 m=3 k=1 data=AAAAAAAAAAB='::countingbloom;
\echo :LAST_ERROR_SQLSTATE
-- counters beyond m must be zero: the high nibble of the last byte (odd m), then later bytes
SELECT 'countingbloom v2 hash=xxh3 seed=0 inserts=0 m=3 k=1 data=IRMAAAAAAAA='::countingbloom;
\echo :LAST_ERROR_SQLSTATE
SELECT 'countingbloom v2 hash=xxh3 seed=0 inserts=0 m=3 k=1 data=IQMBAAAAAAA='::countingbloom;
\echo :LAST_ERROR_SQLSTATE
SELECT 'countingbloom v2 hash=xxh3 seed=0 inserts=0 m=4 k=1 data=AAAAAAAAAAE='::countingbloom;
\echo :LAST_ERROR_SQLSTATE
-- the same counters with m covering them are fine
SELECT 'countingbloom v2 hash=xxh3 seed=0 inserts=0 m=4 k=1 data=IRMAAAAAAAA='::countingbloom;
-- unknown and duplicate keys, garbage tokens
SELECT 'countingbloom v2 hash=xxh3 seed=0 inserts=0 m=3 k=1 data=AAAAAAAAAAA= extra=1'::countingbloom;
\echo :LAST_ERROR_SQLSTATE
SELECT 'countingbloom v2 hash=xxh3 seed=0 inserts=0 m=3 m=3 k=1 data=AAAAAAAAAAA='::countingbloom;
\echo :LAST_ERROR_SQLSTATE
SELECT 'countingbloom v2 hash=xxh3 seed=0 inserts=0 m=3 k=1 data=AAAAAAAAAAA= junk'::countingbloom;
\echo :LAST_ERROR_SQLSTATE
-- a bloom's text is not a countingbloom's
SELECT bloom_empty(10)::text::countingbloom;
\echo :LAST_ERROR_SQLSTATE

-- elements: an untyped literal has no type to hash by (42804, from the parser)
SELECT countingbloom_add(countingbloom_empty(10), 'abc');
\echo :LAST_ERROR_SQLSTATE
SELECT countingbloom_empty(10) @> 'abc';
\echo :LAST_ERROR_SQLSTATE
-- text under a nondeterministic collation cannot be hashed by bytes: 0A000
CREATE COLLATION IF NOT EXISTS cb_ci (provider = icu, locale = 'und-u-ks-level2', deterministic = false);
SELECT countingbloom_add(countingbloom_empty(10), 'abc'::text COLLATE cb_ci);
\echo :LAST_ERROR_SQLSTATE
SELECT countingbloom_remove(countingbloom_empty(10), 'abc'::text COLLATE cb_ci);
\echo :LAST_ERROR_SQLSTATE
SELECT countingbloom_count(countingbloom_empty(10), 'abc'::text COLLATE cb_ci);
\echo :LAST_ERROR_SQLSTATE
SELECT countingbloom_agg(x COLLATE cb_ci) FROM (VALUES ('a'::text)) v(x);
\echo :LAST_ERROR_SQLSTATE
SELECT countingbloom_add(countingbloom_empty(10), 'abc'::text COLLATE "C") @> 'abc'::text AS c_collation_ok;
DROP COLLATION cb_ci;
