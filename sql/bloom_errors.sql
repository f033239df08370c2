-- bloom: every error path, with its SQLSTATE
CREATE SCHEMA bloom_errors_test;
SET search_path = bloom_errors_test, public;
-- bad parameters: 22023
SELECT bloom_empty(0, 0.01);
\echo :LAST_ERROR_SQLSTATE
SELECT bloom_empty(-5, 0.01);
\echo :LAST_ERROR_SQLSTATE
SELECT bloom_empty(100, 0);
\echo :LAST_ERROR_SQLSTATE
SELECT bloom_empty(100, 1);
\echo :LAST_ERROR_SQLSTATE
SELECT bloom_empty(100, -0.5);
\echo :LAST_ERROR_SQLSTATE
SELECT bloom_empty(100, 'NaN');
\echo :LAST_ERROR_SQLSTATE
SELECT bloom_create(0, 3);
\echo :LAST_ERROR_SQLSTATE
SELECT bloom_create(100, 0);
\echo :LAST_ERROR_SQLSTATE
SELECT bloom_create(100, 65);
\echo :LAST_ERROR_SQLSTATE
SELECT bloom_agg(i, 0, 0.01) FROM generate_series(1, 3) i;
\echo :LAST_ERROR_SQLSTATE
SELECT bloom_agg(i, 10, 2) FROM generate_series(1, 3) i;
\echo :LAST_ERROR_SQLSTATE

-- sizes past the varlena limit: 54000, raised before allocating
SELECT bloom_empty(1000000000000, 0.01);
\echo :LAST_ERROR_SQLSTATE
SELECT bloom_empty(9223372036854775807, 0.5);
\echo :LAST_ERROR_SQLSTATE
SELECT bloom_create(9223372036854775807, 3);
\echo :LAST_ERROR_SQLSTATE
SELECT bloom_create(8589934592, 3);
\echo :LAST_ERROR_SQLSTATE
-- the largest filter is one whose text form still fits a string (about 768 MB)
SELECT bloom_create(6442444417, 1);
\echo :LAST_ERROR_SQLSTATE
-- a short text asking for a huge filter is rejected before anything of that size is allocated
SELECT 'bloom v2 hash=xxh3 seed=0 inserts=0 m=6442444416 k=1 data=AA=='::bloom;
\echo :LAST_ERROR_SQLSTATE

-- filters with different parameters: 22023 naming both sides
SELECT bloom_empty(100, 0.01) | bloom_empty(1000, 0.01);
\echo :LAST_ERROR_SQLSTATE
SELECT bloom_empty(100, 0.01, 1) & bloom_empty(100, 0.01, 2);
\echo :LAST_ERROR_SQLSTATE
SELECT bloom_create(100, 3) @> bloom_create(100, 4);
\echo :LAST_ERROR_SQLSTATE
SELECT bloom_create(100, 3) <@ bloom_create(101, 3);
\echo :LAST_ERROR_SQLSTATE
SELECT bloom_union_agg(f) FROM (VALUES (bloom_empty(10)), (bloom_empty(20))) v(f);
\echo :LAST_ERROR_SQLSTATE
SELECT bloom_intersect_agg(f) FROM (VALUES (bloom_empty(10)), (bloom_empty(20))) v(f);
\echo :LAST_ERROR_SQLSTATE
SELECT bloom_empty(100) = bloom_empty(200);
\echo :LAST_ERROR_SQLSTATE
SELECT bloom_empty(100, 0.01, 1) <> bloom_empty(100, 0.01, 2);
\echo :LAST_ERROR_SQLSTATE

-- malformed text: 22P02
SELECT ''::bloom;
\echo :LAST_ERROR_SQLSTATE
SELECT 'bloom'::bloom;
\echo :LAST_ERROR_SQLSTATE
SELECT 'bloom v1'::bloom;
\echo :LAST_ERROR_SQLSTATE
SELECT 'cuckoo v2 hash=xxh3 seed=0 inserts=0 m=64 k=3 data=AAAAAAAAAAA='::bloom;
\echo :LAST_ERROR_SQLSTATE
-- the text form of another filter type: the hint says how to read it
SELECT countingbloom_empty(10)::text::bloom;
\echo :LAST_ERROR_SQLSTATE
SELECT 'bloom v1 hash=xxh3 seed=0 inserts=0 m=64 k=3 data=AAAAAAAAAAA='::bloom;
\echo :LAST_ERROR_SQLSTATE
SELECT 'bloom version1 hash=xxh3 seed=0 inserts=0 m=64 k=3 data=AAAAAAAAAAA='::bloom;
\echo :LAST_ERROR_SQLSTATE
SELECT 'bloom v2 hash=md5 seed=0 inserts=0 m=64 k=3 data=AAAAAAAAAAA='::bloom;
\echo :LAST_ERROR_SQLSTATE
SELECT 'bloom v2 hash=xxh3 seed=0 inserts=0 m=64 data=AAAAAAAAAAA='::bloom;
\echo :LAST_ERROR_SQLSTATE
SELECT 'bloom v2 hash=xxh3 seed=0 inserts=0 m=64 k=3 k=3 data=AAAAAAAAAAA='::bloom;
\echo :LAST_ERROR_SQLSTATE
SELECT 'bloom v2 hash=xxh3 seed=0 inserts=0 m=64 k=3 colour=blue data=AAAAAAAAAAA='::bloom;
\echo :LAST_ERROR_SQLSTATE
SELECT 'bloom v2 hash=xxh3 seed=0 inserts=0 m=64 k=3 data'::bloom;
\echo :LAST_ERROR_SQLSTATE
SELECT 'bloom v2 hash=xxh3 seed=zero inserts=0 m=64 k=3 data=AAAAAAAAAAA='::bloom;
\echo :LAST_ERROR_SQLSTATE
SELECT 'bloom v2 hash=xxh3 seed=0 inserts=-1 m=64 k=3 data=AAAAAAAAAAA='::bloom;
\echo :LAST_ERROR_SQLSTATE
SELECT 'bloom v2 hash=xxh3 seed=0 inserts=0 m=0 k=3 data='::bloom;
\echo :LAST_ERROR_SQLSTATE
SELECT 'bloom v2 hash=xxh3 seed=0 inserts=0 m=64 k=0 data=AAAAAAAAAAA='::bloom;
\echo :LAST_ERROR_SQLSTATE
SELECT 'bloom v2 hash=xxh3 seed=0 inserts=0 m=99999999999999999999 k=3 data=AAAAAAAAAAA='::bloom;
\echo :LAST_ERROR_SQLSTATE
-- wrong payload length for m (64 bits need 8 bytes), truncated payload, bad base64
SELECT 'bloom v2 hash=xxh3 seed=0 inserts=0 m=128 k=3 data=AAAAAAAAAAA='::bloom;
\echo :LAST_ERROR_SQLSTATE
SELECT 'bloom v2 hash=xxh3 seed=0 inserts=0 m=64 k=3 data=AAAAAAAA'::bloom;
\echo :LAST_ERROR_SQLSTATE
SELECT 'bloom v2 hash=xxh3 seed=0 inserts=0 m=64 k=3 data=AAAA*AAAAAA='::bloom;
\echo :LAST_ERROR_SQLSTATE
SELECT 'bloom v2 hash=xxh3 seed=0 inserts=0 m=64 k=3 data=AAAAAAAAAAB='::bloom;
\echo :LAST_ERROR_SQLSTATE
-- one encoding per payload: two '=' and no stray bits for 16 bytes, '=' only at the
-- end (PostgreSQL's base64 decoder reads each of these as the 16 zero bytes)
SELECT 'bloom v2 hash=xxh3 seed=0 inserts=0 m=128 k=3 data=AAAAAAAAAAAAAAAAAAAAAA=='::bloom IS NOT NULL AS canonical_ok;
SELECT 'bloom v2 hash=xxh3 seed=0 inserts=0 m=128 k=3 data=AAAAAAAAAAAAAAAAAAAAAB=='::bloom;
\echo :LAST_ERROR_SQLSTATE
SELECT 'bloom v2 hash=xxh3 seed=0 inserts=0 m=128 k=3 data=AAAAAAAAAAAAAAAAAAAAAA=A'::bloom;
\echo :LAST_ERROR_SQLSTATE
SELECT 'bloom v2 hash=xxh3 seed=0 inserts=0 m=128 k=3 data=AAAAAAAAAAAAAAAAAAA=AAAA'::bloom;
\echo :LAST_ERROR_SQLSTATE
-- bits beyond m: m = 60 leaves the top 4 bits of the last byte unused
SELECT 'bloom v2 hash=xxh3 seed=0 inserts=0 m=60 k=3 data=AAAAAAAAAPA='::bloom;
\echo :LAST_ERROR_SQLSTATE
SELECT 'bloom v2 hash=xxh3 seed=0 inserts=0 m=60 k=3 data=AAAAAAAAAA8='::bloom IS NOT NULL AS bits_below_m_ok;
SELECT 'bloom v2 hash=xxh3 seed=0 inserts=0 m=8 k=3 data=AAEAAAAAAAA='::bloom;
\echo :LAST_ERROR_SQLSTATE
-- numbers only as output writes them (one spelling per number): no '+', leading zeros
-- or other spellings of a float
SELECT 'bloom v2 hash=xxh3 seed=+7 inserts=0 m=64 k=3 data=AAAAAAAAAAA='::bloom;
\echo :LAST_ERROR_SQLSTATE
SELECT 'bloom v2 hash=xxh3 seed=-07 inserts=0 m=64 k=3 data=AAAAAAAAAAA='::bloom;
\echo :LAST_ERROR_SQLSTATE
SELECT 'bloom v2 hash=xxh3 seed=0 inserts=00 m=64 k=3 data=AAAAAAAAAAA='::bloom;
\echo :LAST_ERROR_SQLSTATE
SELECT 'bloom v2 hash=xxh3 seed=0 inserts=0 m=064 k=3 data=AAAAAAAAAAA='::bloom;
\echo :LAST_ERROR_SQLSTATE
SELECT 'bloom v2 hash=xxh3 seed=0 inserts=0 fpr=0x1.47ae147ae147bp-7 members=0 bytes=0 data='::bloom;
\echo :LAST_ERROR_SQLSTATE
SELECT 'bloom v2 hash=xxh3 seed=0 inserts=0 fpr=0.010 members=0 bytes=0 data='::bloom;
\echo :LAST_ERROR_SQLSTATE
SELECT 'bloom v2 hash=xxh3 seed=-7 inserts=0 fpr=0.01 members=0 bytes=0 data='::bloom::text AS canonical_reads;

-- binary input (recv): write bytes with COPY, read them back as bloom
CREATE TABLE raw (b bytea);
CREATE TABLE target (f bloom);
CREATE FUNCTION try_recv(bytes bytea) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	detail text;
BEGIN
	TRUNCATE raw;
	TRUNCATE target;
	INSERT INTO raw VALUES (bytes);
	EXECUTE format('COPY raw TO %L (FORMAT binary)', current_setting('data_directory') || '/bloom_recv.bin');
	EXECUTE format('COPY target FROM %L (FORMAT binary)', current_setting('data_directory') || '/bloom_recv.bin');
	RETURN 'accepted: ' || (SELECT f::text FROM target);
EXCEPTION WHEN OTHERS THEN
	GET STACKED DIAGNOSTICS detail = PG_EXCEPTION_DETAIL;
	RETURN SQLSTATE || ': ' || SQLERRM || ': ' || detail;
END $$;
-- a genuine value round-trips
SELECT try_recv(bloom_send(bloom_add(bloom_create(64, 3), 1)));
-- garbage, truncation, wrong version, wrong kind, wrong size, bits beyond m, reserved field
SELECT try_recv('\x'::bytea);
SELECT try_recv('\xdeadbeef'::bytea);
SELECT try_recv(substring(bloom_send(bloom_create(64, 3)) FROM 1 FOR 30));
SELECT try_recv(overlay(bloom_send(bloom_create(64, 3)) PLACING '\x03' FROM 1));
SELECT try_recv(overlay(bloom_send(bloom_create(64, 3)) PLACING '\x03' FROM 2));
SELECT try_recv(overlay(bloom_send(bloom_create(64, 3)) PLACING '\x07' FROM 3));
SELECT try_recv(overlay(bloom_send(bloom_create(64, 3)) PLACING '\x02' FROM 4));
-- flag 1 (self-sized) on a fixed filter's bytes: its fields do not describe members
SELECT try_recv(overlay(bloom_send(bloom_create(64, 3)) PLACING '\x01' FROM 4));
SELECT try_recv(bloom_send(bloom_create(64, 3)) || '\x00'::bytea);
SELECT try_recv(overlay(bloom_send(bloom_create(64, 3)) PLACING '\x00' FROM 21));
SELECT try_recv(overlay(bloom_send(bloom_create(64, 3)) PLACING '\x41' FROM 29));
SELECT try_recv(overlay(bloom_send(bloom_create(64, 3)) PLACING '\x01' FROM 33));
SELECT try_recv(overlay(bloom_send(bloom_create(60, 3)) PLACING '\xf0' FROM 44));
-- binary COPY of a whole table round-trips
CREATE TABLE filters AS SELECT g, bloom_agg(i, 1000, 0.01) f FROM generate_series(1, 5) g, generate_series(1, 500) i GROUP BY g;
CREATE TABLE filters2 (LIKE filters);
DO $$
BEGIN
	EXECUTE format('COPY filters TO %L (FORMAT binary)', current_setting('data_directory') || '/bloom_filters.bin');
	EXECUTE format('COPY filters2 FROM %L (FORMAT binary)', current_setting('data_directory') || '/bloom_filters.bin');
END $$;
SELECT count(*) AS rows, bool_and(a.f = b.f AND a.f::text = b.f::text) AS identical
FROM filters a JOIN filters2 b USING (g);

-- an untyped string literal next to a filter is read as a filter: the hint says to cast it
SELECT bloom_empty(10) @> 'abc';
\echo :LAST_ERROR_SQLSTATE
SELECT bloom_empty(10) @> 'abc'::text AS with_cast;
