-- bloomfilter 1.0 -> 1.1 (ALTER EXTENSION bloomfilter UPDATE TO '1.1')
--
-- The catalog changes of 1.1, one section per part.  Values stored by 1.0 are
-- not readable by 1.1 (storage format 2; 1.0 was never released): README,
-- "Upgrading".
\echo Use "ALTER EXTENSION bloomfilter UPDATE TO '1.1'" to load this file. \quit

-- ---------------------------------------------------------------------
-- common: no settings any more, aggregate support functions are IMMUTABLE
-- ---------------------------------------------------------------------
ALTER FUNCTION @extschema@.bloom_agg_trans(bloom, anynonarray, bigint, float8) IMMUTABLE;
ALTER FUNCTION @extschema@.bloom_agg_final(bloom, anynonarray, bigint, float8) IMMUTABLE;
ALTER FUNCTION @extschema@.countingbloom_agg_trans(countingbloom, anynonarray) IMMUTABLE;
ALTER FUNCTION @extschema@.countingbloom_agg_trans(countingbloom, anynonarray, bigint, float8) IMMUTABLE;
ALTER FUNCTION @extschema@.countingbloom_agg_final(countingbloom) IMMUTABLE;
ALTER FUNCTION @extschema@.countingbloom_agg_final(countingbloom, anynonarray, bigint, float8) IMMUTABLE;
ALTER FUNCTION @extschema@.quotientfilter_agg_trans(quotientfilter, anynonarray) IMMUTABLE;
ALTER FUNCTION @extschema@.quotientfilter_agg_trans(quotientfilter, anynonarray, bigint, float8) IMMUTABLE;
ALTER FUNCTION @extschema@.quotientfilter_agg_final(quotientfilter) IMMUTABLE;
ALTER FUNCTION @extschema@.quotientfilter_agg_final(quotientfilter, anynonarray, bigint, float8) IMMUTABLE;
ALTER FUNCTION @extschema@.cuckoofilter_agg_trans(cuckoofilter, anynonarray) IMMUTABLE;
ALTER FUNCTION @extschema@.cuckoofilter_agg_trans(cuckoofilter, anynonarray, bigint, float8) IMMUTABLE;
ALTER FUNCTION @extschema@.cuckoofilter_agg_final(cuckoofilter) IMMUTABLE;
ALTER FUNCTION @extschema@.cuckoofilter_agg_final(cuckoofilter, anynonarray, bigint, float8) IMMUTABLE;

-- ---------------------------------------------------------------------
-- bloom
-- ---------------------------------------------------------------------
-- bloom_info gains the columns overfilled, self_sized, members and target_fpr
-- (a new result type: drop and create)
DROP FUNCTION @extschema@.pagebloom_info(regclass);
CREATE FUNCTION pagebloom_info(index regclass,
	OUT pages_per_range integer, OUT signature_bits bigint, OUT signature_blocks integer,
	OUT block_bits integer, OUT k integer, OUT ranges_per_segment integer,
	OUT segments bigint, OUT index_pages bigint, OUT target_fpr float8,
	OUT design_fpr float8, OUT design_rows_per_range float8, OUT ranges bigint,
	OUT fill_ratio float8, OUT estimated_fpr float8,
	OUT column_k integer[], OUT column_design_fpr float8[],
	OUT row_slots integer, OUT row_map_pages bigint)
	AS 'MODULE_PATHNAME' LANGUAGE C STRICT PARALLEL RESTRICTED;
DROP FUNCTION @extschema@.bloom_info(@extschema@.bloom);
CREATE FUNCTION bloom_info(bloom,
	OUT format_version integer, OUT hash text, OUT seed bigint,
	OUT m bigint, OUT k integer, OUT inserts bigint, OUT bits_set bigint,
	OUT fill_ratio float8, OUT size_bytes bigint,
	OUT estimated_cardinality bigint, OUT estimated_fpr float8, OUT overfilled boolean,
	OUT self_sized boolean, OUT members integer, OUT target_fpr float8)
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
-- Self-sized filters: bloom_empty(), bloom_empty_self_sized(fpr, seed), and bloom_agg(x) and
-- bloom_agg(x, fpr) size themselves to their data instead of using a default capacity
CREATE FUNCTION bloom_empty() RETURNS bloom
	AS 'MODULE_PATHNAME', 'bloom_empty_self_sized' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION bloom_empty_self_sized(fpr float8 DEFAULT 0.01, seed bigint DEFAULT 0) RETURNS bloom
	AS 'MODULE_PATHNAME', 'bloom_empty_self_sized' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
DROP AGGREGATE @extschema@.bloom_agg(anynonarray);
DROP FUNCTION @extschema@.bloom_agg_trans(@extschema@.bloom, anynonarray);
DROP FUNCTION @extschema@.bloom_agg_final(@extschema@.bloom);
CREATE FUNCTION bloom_agg_auto_trans(bloom, anynonarray) RETURNS bloom
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE CALLED ON NULL INPUT PARALLEL SAFE;
CREATE FUNCTION bloom_agg_auto_trans(bloom, anynonarray, float8) RETURNS bloom
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE CALLED ON NULL INPUT PARALLEL SAFE;
CREATE FUNCTION bloom_agg_auto_final(bloom) RETURNS bloom
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE CALLED ON NULL INPUT PARALLEL SAFE;
CREATE FUNCTION bloom_agg_auto_final(bloom, anynonarray, float8) RETURNS bloom
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE CALLED ON NULL INPUT PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(anynonarray) (
	SFUNC = @extschema@.bloom_agg_auto_trans,
	STYPE = @extschema@.bloom,
	FINALFUNC = @extschema@.bloom_agg_auto_final,
	COMBINEFUNC = @extschema@.bloom_union_trans,
	PARALLEL = SAFE
);
CREATE AGGREGATE bloom_agg(anynonarray, fpr float8) (
	SFUNC = @extschema@.bloom_agg_auto_trans,
	STYPE = @extschema@.bloom,
	FINALFUNC = @extschema@.bloom_agg_auto_final,
	FINALFUNC_EXTRA,
	COMBINEFUNC = @extschema@.bloom_union_trans,
	PARALLEL = SAFE
);
-- Ordering and hashing: a total order over all values (not containment; filters with different
-- parameters are unequal) for the default btree and hash operator classes, so that GROUP BY,
-- DISTINCT, UNION, hash and merge joins and logical replication with REPLICA IDENTITY FULL work
CREATE FUNCTION bloom_lt(bloom, bloom) RETURNS bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION bloom_le(bloom, bloom) RETURNS bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION bloom_gt(bloom, bloom) RETURNS bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION bloom_ge(bloom, bloom) RETURNS bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION bloom_cmp(bloom, bloom) RETURNS integer
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION bloom_hash(bloom) RETURNS integer
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION bloom_hash_extended(bloom, bigint) RETURNS bigint
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OPERATOR < (
	LEFTARG = bloom, RIGHTARG = bloom, FUNCTION = @extschema@.bloom_lt,
	COMMUTATOR = >, NEGATOR = >=, RESTRICT = scalarltsel, JOIN = scalarltjoinsel
);
CREATE OPERATOR <= (
	LEFTARG = bloom, RIGHTARG = bloom, FUNCTION = @extschema@.bloom_le,
	COMMUTATOR = >=, NEGATOR = >, RESTRICT = scalarlesel, JOIN = scalarlejoinsel
);
CREATE OPERATOR > (
	LEFTARG = bloom, RIGHTARG = bloom, FUNCTION = @extschema@.bloom_gt,
	COMMUTATOR = <, NEGATOR = <=, RESTRICT = scalargtsel, JOIN = scalargtjoinsel
);
CREATE OPERATOR >= (
	LEFTARG = bloom, RIGHTARG = bloom, FUNCTION = @extschema@.bloom_ge,
	COMMUTATOR = <=, NEGATOR = <, RESTRICT = scalargesel, JOIN = scalargejoinsel
);
-- = hashes and merges now (ALTER OPERATOR cannot set these before PostgreSQL 17)
UPDATE pg_catalog.pg_operator SET oprcanhash = true, oprcanmerge = true
WHERE oid = '@extschema@.=(@extschema@.bloom, @extschema@.bloom)'::pg_catalog.regoperator;
CREATE OPERATOR CLASS bloom_btree_ops DEFAULT FOR TYPE bloom USING btree AS
	OPERATOR 1 @extschema@.<, OPERATOR 2 @extschema@.<=, OPERATOR 3 @extschema@.=,
	OPERATOR 4 @extschema@.>=, OPERATOR 5 @extschema@.>,
	FUNCTION 1 @extschema@.bloom_cmp(bloom, bloom);
CREATE OPERATOR CLASS bloom_hash_ops DEFAULT FOR TYPE bloom USING hash AS
	OPERATOR 1 @extschema@.=,
	FUNCTION 1 @extschema@.bloom_hash(bloom),
	FUNCTION 2 @extschema@.bloom_hash_extended(bloom, bigint);

-- ---------------------------------------------------------------------
-- countingbloom
-- ---------------------------------------------------------------------
-- Ordering and hashing: a total order over all values (not containment; filters with different
-- parameters are unequal) for the default btree and hash operator classes, so that GROUP BY,
-- DISTINCT, UNION, hash and merge joins and logical replication with REPLICA IDENTITY FULL work
CREATE FUNCTION countingbloom_lt(countingbloom, countingbloom) RETURNS bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION countingbloom_le(countingbloom, countingbloom) RETURNS bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION countingbloom_gt(countingbloom, countingbloom) RETURNS bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION countingbloom_ge(countingbloom, countingbloom) RETURNS bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION countingbloom_cmp(countingbloom, countingbloom) RETURNS integer
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION countingbloom_hash(countingbloom) RETURNS integer
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION countingbloom_hash_extended(countingbloom, bigint) RETURNS bigint
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OPERATOR < (
	LEFTARG = countingbloom, RIGHTARG = countingbloom, FUNCTION = @extschema@.countingbloom_lt,
	COMMUTATOR = >, NEGATOR = >=, RESTRICT = scalarltsel, JOIN = scalarltjoinsel
);
CREATE OPERATOR <= (
	LEFTARG = countingbloom, RIGHTARG = countingbloom, FUNCTION = @extschema@.countingbloom_le,
	COMMUTATOR = >=, NEGATOR = >, RESTRICT = scalarlesel, JOIN = scalarlejoinsel
);
CREATE OPERATOR > (
	LEFTARG = countingbloom, RIGHTARG = countingbloom, FUNCTION = @extschema@.countingbloom_gt,
	COMMUTATOR = <, NEGATOR = <=, RESTRICT = scalargtsel, JOIN = scalargtjoinsel
);
CREATE OPERATOR >= (
	LEFTARG = countingbloom, RIGHTARG = countingbloom, FUNCTION = @extschema@.countingbloom_ge,
	COMMUTATOR = <=, NEGATOR = <, RESTRICT = scalargesel, JOIN = scalargejoinsel
);
-- = hashes and merges now (ALTER OPERATOR cannot set these before PostgreSQL 17)
UPDATE pg_catalog.pg_operator SET oprcanhash = true, oprcanmerge = true
WHERE oid = '@extschema@.=(@extschema@.countingbloom, @extschema@.countingbloom)'::pg_catalog.regoperator;
CREATE OPERATOR CLASS countingbloom_btree_ops DEFAULT FOR TYPE countingbloom USING btree AS
	OPERATOR 1 @extschema@.<, OPERATOR 2 @extschema@.<=, OPERATOR 3 @extschema@.=,
	OPERATOR 4 @extschema@.>=, OPERATOR 5 @extschema@.>,
	FUNCTION 1 @extschema@.countingbloom_cmp(countingbloom, countingbloom);
CREATE OPERATOR CLASS countingbloom_hash_ops DEFAULT FOR TYPE countingbloom USING hash AS
	OPERATOR 1 @extschema@.=,
	FUNCTION 1 @extschema@.countingbloom_hash(countingbloom),
	FUNCTION 2 @extschema@.countingbloom_hash_extended(countingbloom, bigint);

-- ---------------------------------------------------------------------
-- quotientfilter
-- ---------------------------------------------------------------------
-- Ordering and hashing: a total order over all values (not containment; filters with different
-- parameters are unequal) for the default btree and hash operator classes, so that GROUP BY,
-- DISTINCT, UNION, hash and merge joins and logical replication with REPLICA IDENTITY FULL work
CREATE FUNCTION quotientfilter_lt(quotientfilter, quotientfilter) RETURNS bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION quotientfilter_le(quotientfilter, quotientfilter) RETURNS bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION quotientfilter_gt(quotientfilter, quotientfilter) RETURNS bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION quotientfilter_ge(quotientfilter, quotientfilter) RETURNS bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION quotientfilter_cmp(quotientfilter, quotientfilter) RETURNS integer
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION quotientfilter_hash(quotientfilter) RETURNS integer
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION quotientfilter_hash_extended(quotientfilter, bigint) RETURNS bigint
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OPERATOR < (
	LEFTARG = quotientfilter, RIGHTARG = quotientfilter, FUNCTION = @extschema@.quotientfilter_lt,
	COMMUTATOR = >, NEGATOR = >=, RESTRICT = scalarltsel, JOIN = scalarltjoinsel
);
CREATE OPERATOR <= (
	LEFTARG = quotientfilter, RIGHTARG = quotientfilter, FUNCTION = @extschema@.quotientfilter_le,
	COMMUTATOR = >=, NEGATOR = >, RESTRICT = scalarlesel, JOIN = scalarlejoinsel
);
CREATE OPERATOR > (
	LEFTARG = quotientfilter, RIGHTARG = quotientfilter, FUNCTION = @extschema@.quotientfilter_gt,
	COMMUTATOR = <, NEGATOR = <=, RESTRICT = scalargtsel, JOIN = scalargtjoinsel
);
CREATE OPERATOR >= (
	LEFTARG = quotientfilter, RIGHTARG = quotientfilter, FUNCTION = @extschema@.quotientfilter_ge,
	COMMUTATOR = <=, NEGATOR = <, RESTRICT = scalargesel, JOIN = scalargejoinsel
);
-- = hashes and merges now (ALTER OPERATOR cannot set these before PostgreSQL 17)
UPDATE pg_catalog.pg_operator SET oprcanhash = true, oprcanmerge = true
WHERE oid = '@extschema@.=(@extschema@.quotientfilter, @extschema@.quotientfilter)'::pg_catalog.regoperator;
CREATE OPERATOR CLASS quotientfilter_btree_ops DEFAULT FOR TYPE quotientfilter USING btree AS
	OPERATOR 1 @extschema@.<, OPERATOR 2 @extschema@.<=, OPERATOR 3 @extschema@.=,
	OPERATOR 4 @extschema@.>=, OPERATOR 5 @extschema@.>,
	FUNCTION 1 @extschema@.quotientfilter_cmp(quotientfilter, quotientfilter);
CREATE OPERATOR CLASS quotientfilter_hash_ops DEFAULT FOR TYPE quotientfilter USING hash AS
	OPERATOR 1 @extschema@.=,
	FUNCTION 1 @extschema@.quotientfilter_hash(quotientfilter),
	FUNCTION 2 @extschema@.quotientfilter_hash_extended(quotientfilter, bigint);

-- ---------------------------------------------------------------------
-- cuckoofilter
-- ---------------------------------------------------------------------
-- Ordering and hashing: a total order over all values (not containment; filters with different
-- parameters are unequal) for the default btree and hash operator classes, so that GROUP BY,
-- DISTINCT, UNION, hash and merge joins and logical replication with REPLICA IDENTITY FULL work
CREATE FUNCTION cuckoofilter_lt(cuckoofilter, cuckoofilter) RETURNS bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION cuckoofilter_le(cuckoofilter, cuckoofilter) RETURNS bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION cuckoofilter_gt(cuckoofilter, cuckoofilter) RETURNS bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION cuckoofilter_ge(cuckoofilter, cuckoofilter) RETURNS bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION cuckoofilter_cmp(cuckoofilter, cuckoofilter) RETURNS integer
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION cuckoofilter_hash(cuckoofilter) RETURNS integer
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION cuckoofilter_hash_extended(cuckoofilter, bigint) RETURNS bigint
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OPERATOR < (
	LEFTARG = cuckoofilter, RIGHTARG = cuckoofilter, FUNCTION = @extschema@.cuckoofilter_lt,
	COMMUTATOR = >, NEGATOR = >=, RESTRICT = scalarltsel, JOIN = scalarltjoinsel
);
CREATE OPERATOR <= (
	LEFTARG = cuckoofilter, RIGHTARG = cuckoofilter, FUNCTION = @extschema@.cuckoofilter_le,
	COMMUTATOR = >=, NEGATOR = >, RESTRICT = scalarlesel, JOIN = scalarlejoinsel
);
CREATE OPERATOR > (
	LEFTARG = cuckoofilter, RIGHTARG = cuckoofilter, FUNCTION = @extschema@.cuckoofilter_gt,
	COMMUTATOR = <, NEGATOR = <=, RESTRICT = scalargtsel, JOIN = scalargtjoinsel
);
CREATE OPERATOR >= (
	LEFTARG = cuckoofilter, RIGHTARG = cuckoofilter, FUNCTION = @extschema@.cuckoofilter_ge,
	COMMUTATOR = <=, NEGATOR = <, RESTRICT = scalargesel, JOIN = scalargejoinsel
);
-- = hashes and merges now (ALTER OPERATOR cannot set these before PostgreSQL 17)
UPDATE pg_catalog.pg_operator SET oprcanhash = true, oprcanmerge = true
WHERE oid = '@extschema@.=(@extschema@.cuckoofilter, @extschema@.cuckoofilter)'::pg_catalog.regoperator;
CREATE OPERATOR CLASS cuckoofilter_btree_ops DEFAULT FOR TYPE cuckoofilter USING btree AS
	OPERATOR 1 @extschema@.<, OPERATOR 2 @extschema@.<=, OPERATOR 3 @extschema@.=,
	OPERATOR 4 @extschema@.>=, OPERATOR 5 @extschema@.>,
	FUNCTION 1 @extschema@.cuckoofilter_cmp(cuckoofilter, cuckoofilter);
CREATE OPERATOR CLASS cuckoofilter_hash_ops DEFAULT FOR TYPE cuckoofilter USING hash AS
	OPERATOR 1 @extschema@.=,
	FUNCTION 1 @extschema@.cuckoofilter_hash(cuckoofilter),
	FUNCTION 2 @extschema@.cuckoofilter_hash_extended(cuckoofilter, bigint);

-- ---------------------------------------------------------------------
-- pagebloom
-- ---------------------------------------------------------------------

-- ---------------------------------------------------------------------
-- comments on every object (as sql/src/90_comments.sql)
-- ---------------------------------------------------------------------
COMMENT ON TYPE @extschema@.bloom IS 'Bloom filter: a set of elements with no false negatives and a tunable false-positive rate (bloomfilter)';
COMMENT ON TYPE @extschema@.countingbloom IS 'counting Bloom filter: a Bloom filter of 4-bit counters that supports removal and multiplicity bounds (bloomfilter)';
COMMENT ON TYPE @extschema@.quotientfilter IS 'quotient filter: a compact table of hash fingerprints that supports removal, merging and resizing (bloomfilter)';
COMMENT ON TYPE @extschema@.cuckoofilter IS 'cuckoo filter: fingerprints in buckets of 4 that supports removal, compact at low false-positive rates (bloomfilter)';
COMMENT ON ACCESS METHOD pagebloom IS 'index of Bloom signatures per range of heap pages: equality on any combination of the indexed columns';
COMMENT ON FUNCTION @extschema@.bloom_add(@extschema@.bloom, anyarray) IS 'a copy with the element added';
COMMENT ON FUNCTION @extschema@.bloom_add(@extschema@.bloom, anynonarray) IS 'a copy with the element added';
COMMENT ON AGGREGATE @extschema@.bloom_agg(anynonarray) IS 'self-sized filter of the non-null inputs: sized for their number, false-positive rate under 0.01';
COMMENT ON AGGREGATE @extschema@.bloom_agg(anynonarray, fpr double precision) IS 'self-sized filter of the non-null inputs, false-positive rate under fpr';
COMMENT ON AGGREGATE @extschema@.bloom_agg(anynonarray, capacity bigint, fpr double precision) IS 'filter of the non-null inputs with one fixed bit array sized for capacity elements at fpr';
COMMENT ON FUNCTION @extschema@.bloom_agg_auto_final(@extschema@.bloom) IS 'aggregate support: seals the hashes of self-sized bloom_agg into a filter sized for them';
COMMENT ON FUNCTION @extschema@.bloom_agg_auto_final(@extschema@.bloom, anynonarray, double precision) IS 'aggregate support: seals the hashes of self-sized bloom_agg into a filter sized for them';
COMMENT ON FUNCTION @extschema@.bloom_agg_final(@extschema@.bloom, anynonarray, bigint, double precision) IS 'aggregate support: the Bloom filter of bloom_agg (an empty filter over no rows)';
COMMENT ON FUNCTION @extschema@.bloom_agg_auto_trans(@extschema@.bloom, anynonarray) IS 'aggregate support: adds a row''s hash to the state of self-sized bloom_agg';
COMMENT ON FUNCTION @extschema@.bloom_agg_auto_trans(@extschema@.bloom, anynonarray, double precision) IS 'aggregate support: adds a row''s hash to the state of self-sized bloom_agg';
COMMENT ON FUNCTION @extschema@.bloom_agg_trans(@extschema@.bloom, anynonarray, bigint, double precision) IS 'aggregate support: adds a row to the Bloom filter state of bloom_agg';
COMMENT ON FUNCTION @extschema@.bloom_cardinality(@extschema@.bloom) IS 'estimated distinct elements (Swamidass-Baldi)';
COMMENT ON FUNCTION @extschema@.bloom_cmp(@extschema@.bloom, @extschema@.bloom) IS 'btree support: -1, 0 or 1 in the total order of Bloom filters (consistent with =)';
COMMENT ON FUNCTION @extschema@.bloom_contained(anynonarray, @extschema@.bloom) IS 'element <@ filter: may the element be in the filter? (false: certainly not)';
COMMENT ON FUNCTION @extschema@.bloom_contained_bloom(@extschema@.bloom, @extschema@.bloom) IS 'every element of the left filter may be in the right one (every bit of the left is set in the right)';
COMMENT ON FUNCTION @extschema@.bloom_contains(@extschema@.bloom, anynonarray) IS 'may the element be in the filter? (false: certainly not)';
COMMENT ON FUNCTION @extschema@.bloom_contains_bloom(@extschema@.bloom, @extschema@.bloom) IS 'every bit of the right is set in the left (every element of the right may be in the left)';
COMMENT ON FUNCTION @extschema@.bloom_create(m bigint, k integer, seed bigint) IS 'empty filter with explicit m (1 .. 6442444416, about 768 MB) and k (1 .. 64)';
COMMENT ON FUNCTION @extschema@.bloom_empty(capacity bigint, fpr double precision, seed bigint) IS 'empty filter sized for capacity distinct elements at false-positive rate fpr: m = ceil(-n ln p / ln²2), k = round(m/n ln 2) (1..64)';
COMMENT ON FUNCTION @extschema@.bloom_empty() IS 'empty self-sized filter: grows as elements are added, false-positive rate under 0.01';
COMMENT ON FUNCTION @extschema@.bloom_empty_self_sized(fpr double precision, seed bigint) IS 'empty self-sized filter: grows as elements are added, false-positive rate under fpr';
COMMENT ON FUNCTION @extschema@.bloom_eq(@extschema@.bloom, @extschema@.bloom) IS 'equal Bloom filters: same parameters and same contents (the insert counter is ignored); false for different parameters';
COMMENT ON FUNCTION @extschema@.bloom_fpr(@extschema@.bloom) IS 'estimated false-positive rate now: (bits set / m)^k';
COMMENT ON FUNCTION @extschema@.bloom_ge(@extschema@.bloom, @extschema@.bloom) IS 'Bloom filter sorts after or equal (an arbitrary total order for btree, not containment)';
COMMENT ON FUNCTION @extschema@.bloom_gt(@extschema@.bloom, @extschema@.bloom) IS 'Bloom filter sorts after (an arbitrary total order for btree, not containment)';
COMMENT ON FUNCTION @extschema@.bloom_hash(@extschema@.bloom) IS 'hash support: 32-bit hash of a Bloom filter, equal for equal filters';
COMMENT ON FUNCTION @extschema@.bloom_hash_extended(@extschema@.bloom, bigint) IS 'hash support: seeded 64-bit hash of a Bloom filter, equal for equal filters';
COMMENT ON FUNCTION @extschema@.bloom_in(cstring) IS 'text input of a Bloom filter (bloomfilter)';
COMMENT ON FUNCTION @extschema@.bloom_info(@extschema@.bloom, OUT format_version integer, OUT hash text, OUT seed bigint, OUT m bigint, OUT k integer, OUT inserts bigint, OUT bits_set bigint, OUT fill_ratio double precision, OUT size_bytes bigint, OUT estimated_cardinality bigint, OUT estimated_fpr double precision) IS 'every parameter, the fill and the estimates of a filter (a self-sized one: totals over its members), as one record';
COMMENT ON FUNCTION @extschema@.bloom_intersect(@extschema@.bloom, @extschema@.bloom) IS 'intersection: bitwise AND (a superset of the filter of the intersection)';
COMMENT ON AGGREGATE @extschema@.bloom_intersect_agg(@extschema@.bloom) IS 'intersection of the non-null filters';
COMMENT ON FUNCTION @extschema@.bloom_intersect_trans(@extschema@.bloom, @extschema@.bloom) IS 'aggregate support: intersects a Bloom filter into the state of bloom_intersect_agg';
COMMENT ON FUNCTION @extschema@.bloom_le(@extschema@.bloom, @extschema@.bloom) IS 'Bloom filter sorts before or equal (an arbitrary total order for btree, not containment)';
COMMENT ON FUNCTION @extschema@.bloom_lt(@extschema@.bloom, @extschema@.bloom) IS 'Bloom filter sorts before (an arbitrary total order for btree, not containment)';
COMMENT ON FUNCTION @extschema@.bloom_ne(@extschema@.bloom, @extschema@.bloom) IS 'not equal Bloom filters (different parameters or contents)';
COMMENT ON FUNCTION @extschema@.bloom_out(@extschema@.bloom) IS 'text output of a Bloom filter (bloomfilter)';
COMMENT ON FUNCTION @extschema@.bloom_recv(internal) IS 'binary input of a Bloom filter (bloomfilter)';
COMMENT ON FUNCTION @extschema@.bloom_send(@extschema@.bloom) IS 'binary output of a Bloom filter (bloomfilter)';
COMMENT ON FUNCTION @extschema@.bloom_union(@extschema@.bloom, @extschema@.bloom) IS 'union: bitwise OR';
COMMENT ON AGGREGATE @extschema@.bloom_union_agg(@extschema@.bloom) IS 'union of the non-null filters';
COMMENT ON FUNCTION @extschema@.bloom_union_trans(@extschema@.bloom, @extschema@.bloom) IS 'aggregate support: unions a Bloom filter into the state of bloom_union_agg';
COMMENT ON FUNCTION @extschema@.bloomfilter_hash(anyelement, seed bigint) IS 'the canonical 64-bit XXH3 hash of a value (doc/design.md, "Hashing")';
COMMENT ON FUNCTION @extschema@.bloomfilter_positions(anyelement, m bigint, k integer, seed bigint) IS 'the k bit positions of a value in a Bloom-family filter of m bits, in probe order';
COMMENT ON FUNCTION @extschema@.countingbloom_add(@extschema@.countingbloom, anyarray) IS 'a copy with the element''s k counters incremented (saturating at 15)';
COMMENT ON FUNCTION @extschema@.countingbloom_add(@extschema@.countingbloom, anynonarray) IS 'a copy with the element''s k counters incremented (saturating at 15)';
COMMENT ON AGGREGATE @extschema@.countingbloom_agg(anynonarray) IS 'filter of the non-null inputs (with multiplicity), sized by the defaults (100000, 0.01)';
COMMENT ON AGGREGATE @extschema@.countingbloom_agg(anynonarray, capacity bigint, fpr double precision) IS 'same, sized by the arguments';
COMMENT ON FUNCTION @extschema@.countingbloom_agg_final(@extschema@.countingbloom) IS 'aggregate support: the counting Bloom filter of countingbloom_agg (an empty filter over no rows)';
COMMENT ON FUNCTION @extschema@.countingbloom_agg_final(@extschema@.countingbloom, anynonarray, bigint, double precision) IS 'aggregate support: the counting Bloom filter of countingbloom_agg (an empty filter over no rows)';
COMMENT ON FUNCTION @extschema@.countingbloom_agg_inv(@extschema@.countingbloom, anynonarray) IS 'aggregate support: removes a row leaving the window frame of countingbloom_agg';
COMMENT ON FUNCTION @extschema@.countingbloom_agg_inv(@extschema@.countingbloom, anynonarray, bigint, double precision) IS 'aggregate support: removes a row leaving the window frame of countingbloom_agg';
COMMENT ON FUNCTION @extschema@.countingbloom_agg_trans(@extschema@.countingbloom, anynonarray) IS 'aggregate support: adds a row to the counting Bloom filter state of countingbloom_agg';
COMMENT ON FUNCTION @extschema@.countingbloom_agg_trans(@extschema@.countingbloom, anynonarray, bigint, double precision) IS 'aggregate support: adds a row to the counting Bloom filter state of countingbloom_agg';
COMMENT ON FUNCTION @extschema@.countingbloom_cardinality(@extschema@.countingbloom) IS 'estimated distinct elements present, from the non-zero counters (Swamidass-Baldi, as bloom_cardinality)';
COMMENT ON FUNCTION @extschema@.countingbloom_cmp(@extschema@.countingbloom, @extschema@.countingbloom) IS 'btree support: -1, 0 or 1 in the total order of counting Bloom filters (consistent with =)';
COMMENT ON FUNCTION @extschema@.countingbloom_contained(anynonarray, @extschema@.countingbloom) IS 'element <@ filter: may the element be in the filter? (false: certainly not)';
COMMENT ON FUNCTION @extschema@.countingbloom_contains(@extschema@.countingbloom, anynonarray) IS 'may the element be in the filter (all k counters non-zero)? false: certainly not';
COMMENT ON FUNCTION @extschema@.countingbloom_count(@extschema@.countingbloom, anynonarray) IS 'the smallest of the element''s k counters: an upper bound of how many times it was added and not removed (0: certainly absent';
COMMENT ON FUNCTION @extschema@.countingbloom_create(m bigint, k integer, seed bigint) IS 'empty filter with explicit m (1 .. 1610611104, about 768 MB of counters) and k (1 .. 64)';
COMMENT ON FUNCTION @extschema@.countingbloom_difference(@extschema@.countingbloom, @extschema@.countingbloom) IS 'counter-wise difference, never below 0';
COMMENT ON FUNCTION @extschema@.countingbloom_empty(capacity bigint, fpr double precision, seed bigint) IS 'empty filter sized exactly like bloom_empty(capacity, fpr): m = ceil(-n ln p / ln²2), k = round(m/n ln 2) (1..64)';
COMMENT ON FUNCTION @extschema@.countingbloom_eq(@extschema@.countingbloom, @extschema@.countingbloom) IS 'equal counting Bloom filters: same parameters and same contents (the insert counter is ignored); false for different parameters';
COMMENT ON FUNCTION @extschema@.countingbloom_fpr(@extschema@.countingbloom) IS 'estimated false-positive rate now: (non-zero counters / m)^k';
COMMENT ON FUNCTION @extschema@.countingbloom_ge(@extschema@.countingbloom, @extschema@.countingbloom) IS 'counting Bloom filter sorts after or equal (an arbitrary total order for btree, not containment)';
COMMENT ON FUNCTION @extschema@.countingbloom_gt(@extschema@.countingbloom, @extschema@.countingbloom) IS 'counting Bloom filter sorts after (an arbitrary total order for btree, not containment)';
COMMENT ON FUNCTION @extschema@.countingbloom_hash(@extschema@.countingbloom) IS 'hash support: 32-bit hash of a counting Bloom filter, equal for equal filters';
COMMENT ON FUNCTION @extschema@.countingbloom_hash_extended(@extschema@.countingbloom, bigint) IS 'hash support: seeded 64-bit hash of a counting Bloom filter, equal for equal filters';
COMMENT ON FUNCTION @extschema@.countingbloom_in(cstring) IS 'text input of a counting Bloom filter (bloomfilter)';
COMMENT ON FUNCTION @extschema@.countingbloom_info(@extschema@.countingbloom, OUT format_version integer, OUT hash text, OUT seed bigint, OUT m bigint, OUT k integer, OUT inserts bigint, OUT counters_nonzero bigint, OUT counters_saturated bigint, OUT fill_ratio double precision, OUT size_bytes bigint, OUT estimated_cardinality bigint, OUT estimated_fpr double precision) IS 'every parameter, the fill and the estimates of a filter, as one record';
COMMENT ON FUNCTION @extschema@.countingbloom_le(@extschema@.countingbloom, @extschema@.countingbloom) IS 'counting Bloom filter sorts before or equal (an arbitrary total order for btree, not containment)';
COMMENT ON FUNCTION @extschema@.countingbloom_lt(@extschema@.countingbloom, @extschema@.countingbloom) IS 'counting Bloom filter sorts before (an arbitrary total order for btree, not containment)';
COMMENT ON FUNCTION @extschema@.countingbloom_ne(@extschema@.countingbloom, @extschema@.countingbloom) IS 'not equal counting Bloom filters (different parameters or contents)';
COMMENT ON FUNCTION @extschema@.countingbloom_out(@extschema@.countingbloom) IS 'text output of a counting Bloom filter (bloomfilter)';
COMMENT ON FUNCTION @extschema@.countingbloom_recv(internal) IS 'binary input of a counting Bloom filter (bloomfilter)';
COMMENT ON FUNCTION @extschema@.countingbloom_remove(@extschema@.countingbloom, anyarray) IS 'a copy with one occurrence removed: if all k counters are non-zero, each one below 15 is decremented (saturated counters stay at 15)';
COMMENT ON FUNCTION @extschema@.countingbloom_remove(@extschema@.countingbloom, anynonarray) IS 'a copy with one occurrence removed: if all k counters are non-zero, each one below 15 is decremented (saturated counters stay at 15)';
COMMENT ON FUNCTION @extschema@.countingbloom_send(@extschema@.countingbloom) IS 'binary output of a counting Bloom filter (bloomfilter)';
COMMENT ON FUNCTION @extschema@.countingbloom_to_bloom(@extschema@.countingbloom) IS 'the bloom of the same m, k and seed with bit i set exactly when counter i is non-zero: equal to bloom_agg of the same elements, and usable with bloom filters (cbf::bloom | b,...';
COMMENT ON FUNCTION @extschema@.countingbloom_union(@extschema@.countingbloom, @extschema@.countingbloom) IS 'counter-wise sum, saturating at 15: the filter of the multiset union';
COMMENT ON AGGREGATE @extschema@.countingbloom_union_agg(@extschema@.countingbloom) IS 'saturating sum of the non-null filters';
COMMENT ON FUNCTION @extschema@.countingbloom_union_trans(@extschema@.countingbloom, @extschema@.countingbloom) IS 'aggregate support: unions a counting Bloom filter into the state of countingbloom_union_agg';
COMMENT ON FUNCTION @extschema@.cuckoofilter_add(@extschema@.cuckoofilter, anyarray) IS 'a copy with one more copy of the element''s fingerprint';
COMMENT ON FUNCTION @extschema@.cuckoofilter_add(@extschema@.cuckoofilter, anynonarray) IS 'a copy with one more copy of the element''s fingerprint';
COMMENT ON AGGREGATE @extschema@.cuckoofilter_agg(anynonarray) IS 'filter of the non-null inputs (one copy per row, up to the 2b limit), sized as cuckoofilter_empty(100000, 0.01 / 16): chained sub-filters stay within 1%';
COMMENT ON AGGREGATE @extschema@.cuckoofilter_agg(anynonarray, capacity bigint, fpr double precision) IS 'same, sized by the arguments';
COMMENT ON FUNCTION @extschema@.cuckoofilter_agg_final(@extschema@.cuckoofilter) IS 'aggregate support: the cuckoo filter of cuckoofilter_agg (an empty filter over no rows)';
COMMENT ON FUNCTION @extschema@.cuckoofilter_agg_final(@extschema@.cuckoofilter, anynonarray, bigint, double precision) IS 'aggregate support: the cuckoo filter of cuckoofilter_agg (an empty filter over no rows)';
COMMENT ON FUNCTION @extschema@.cuckoofilter_agg_trans(@extschema@.cuckoofilter, anynonarray) IS 'aggregate support: adds a row to the cuckoo filter state of cuckoofilter_agg';
COMMENT ON FUNCTION @extschema@.cuckoofilter_agg_trans(@extschema@.cuckoofilter, anynonarray, bigint, double precision) IS 'aggregate support: adds a row to the cuckoo filter state of cuckoofilter_agg';
COMMENT ON FUNCTION @extschema@.cuckoofilter_cardinality(@extschema@.cuckoofilter) IS 'exact number of stored fingerprints (copies counted, victims included)';
COMMENT ON FUNCTION @extschema@.cuckoofilter_cmp(@extschema@.cuckoofilter, @extschema@.cuckoofilter) IS 'btree support: -1, 0 or 1 in the total order of cuckoo filters (consistent with =)';
COMMENT ON FUNCTION @extschema@.cuckoofilter_contained(anynonarray, @extschema@.cuckoofilter) IS 'element <@ filter: may the element be in the filter? (false: certainly not)';
COMMENT ON FUNCTION @extschema@.cuckoofilter_contains(@extschema@.cuckoofilter, anynonarray) IS 'may the element be in the filter? (false: certainly not)';
COMMENT ON FUNCTION @extschema@.cuckoofilter_count(@extschema@.cuckoofilter, anynonarray) IS 'copies of the element''s fingerprint in its two buckets and the victim slot, summed over the sub-filters: an upper bound of its multiplicity (at most 2b per sub-filter)';
COMMENT ON FUNCTION @extschema@.cuckoofilter_create(buckets bigint, fingerprint_bits integer, seed bigint) IS 'empty filter with explicit buckets (a power of two, 1 .. 2^32) and fingerprint_bits (4 .. 32)';
COMMENT ON FUNCTION @extschema@.cuckoofilter_empty(capacity bigint, fpr double precision, seed bigint) IS 'empty filter for capacity elements at false-positive rate fpr: f = ceil(log2(2b / fpr)) clamped to 4 .. 32 (so targets below about 2e-9 get 32 bits), N the smallest power of...';
COMMENT ON FUNCTION @extschema@.cuckoofilter_eq(@extschema@.cuckoofilter, @extschema@.cuckoofilter) IS 'equal cuckoo filters: same parameters and same contents (the insert counter is ignored); false for different parameters';
COMMENT ON FUNCTION @extschema@.cuckoofilter_fpr(@extschema@.cuckoofilter) IS 'estimated false-positive rate now, over all sub-filters: 1 - Π_s (1 - 1/(2^f - 1))^(2 n_s / N_s)';
COMMENT ON FUNCTION @extschema@.cuckoofilter_ge(@extschema@.cuckoofilter, @extschema@.cuckoofilter) IS 'cuckoo filter sorts after or equal (an arbitrary total order for btree, not containment)';
COMMENT ON FUNCTION @extschema@.cuckoofilter_gt(@extschema@.cuckoofilter, @extschema@.cuckoofilter) IS 'cuckoo filter sorts after (an arbitrary total order for btree, not containment)';
COMMENT ON FUNCTION @extschema@.cuckoofilter_hash(@extschema@.cuckoofilter) IS 'hash support: 32-bit hash of a cuckoo filter, equal for equal filters';
COMMENT ON FUNCTION @extschema@.cuckoofilter_hash_extended(@extschema@.cuckoofilter, bigint) IS 'hash support: seeded 64-bit hash of a cuckoo filter, equal for equal filters';
COMMENT ON FUNCTION @extschema@.cuckoofilter_in(cstring) IS 'text input of a cuckoo filter (bloomfilter)';
COMMENT ON FUNCTION @extschema@.cuckoofilter_info(@extschema@.cuckoofilter, OUT format_version integer, OUT hash text, OUT seed bigint, OUT fingerprint_bits integer, OUT bucket_size integer, OUT buckets bigint, OUT subfilters integer, OUT total_buckets bigint, OUT slots bigint, OUT fingerprints bigint, OUT inserts bigint, OUT load_factor double precision, OUT victims_in_use integer, OUT size_bytes bigint, OUT estimated_fpr double precision) IS 'every parameter, the fill and the estimates of a filter, as one record';
COMMENT ON FUNCTION @extschema@.cuckoofilter_le(@extschema@.cuckoofilter, @extschema@.cuckoofilter) IS 'cuckoo filter sorts before or equal (an arbitrary total order for btree, not containment)';
COMMENT ON FUNCTION @extschema@.cuckoofilter_lt(@extschema@.cuckoofilter, @extschema@.cuckoofilter) IS 'cuckoo filter sorts before (an arbitrary total order for btree, not containment)';
COMMENT ON FUNCTION @extschema@.cuckoofilter_ne(@extschema@.cuckoofilter, @extschema@.cuckoofilter) IS 'not equal cuckoo filters (different parameters or contents)';
COMMENT ON FUNCTION @extschema@.cuckoofilter_out(@extschema@.cuckoofilter) IS 'text output of a cuckoo filter (bloomfilter)';
COMMENT ON FUNCTION @extschema@.cuckoofilter_positions(@extschema@.cuckoofilter, anynonarray, OUT hash bigint, OUT fingerprint bigint, OUT bucket1 bigint, OUT bucket2 bigint) IS 'hash bigint, fingerprint bigint, bucket1 bigint, bucket2 bigint: where the element goes in the first sub-filter (for clients that build filters themselves)';
COMMENT ON FUNCTION @extschema@.cuckoofilter_recv(internal) IS 'binary input of a cuckoo filter (bloomfilter)';
COMMENT ON FUNCTION @extschema@.cuckoofilter_remove(@extschema@.cuckoofilter, anyarray) IS 'a copy with one copy of the element''s fingerprint removed (unchanged if absent or saturated)';
COMMENT ON FUNCTION @extschema@.cuckoofilter_remove(@extschema@.cuckoofilter, anynonarray) IS 'a copy with one copy of the element''s fingerprint removed (unchanged if absent or saturated)';
COMMENT ON FUNCTION @extschema@.cuckoofilter_send(@extschema@.cuckoofilter) IS 'binary output of a cuckoo filter (bloomfilter)';
COMMENT ON FUNCTION @extschema@.cuckoofilter_subfilters(@extschema@.cuckoofilter, OUT subfilter integer, OUT buckets bigint, OUT fingerprints bigint, OUT load_factor double precision, OUT victim_in_use boolean, OUT size_bytes bigint) IS 'one row per sub-filter of the chain';
COMMENT ON FUNCTION @extschema@.cuckoofilter_union(@extschema@.cuckoofilter, @extschema@.cuckoofilter) IS 'the left filter with every fingerprint of the right one reinserted (multiset sum)';
COMMENT ON AGGREGATE @extschema@.cuckoofilter_union_agg(@extschema@.cuckoofilter) IS 'all fingerprints of the non-null filters reinserted into the first';
COMMENT ON FUNCTION @extschema@.cuckoofilter_union_trans(@extschema@.cuckoofilter, @extschema@.cuckoofilter) IS 'aggregate support: unions a cuckoo filter into the state of cuckoofilter_union_agg';
COMMENT ON FUNCTION @extschema@.pagebloom_handler(internal) IS 'index access method handler of pagebloom';
COMMENT ON FUNCTION @extschema@.pagebloom_info(index regclass, OUT pages_per_range integer, OUT signature_bits bigint, OUT signature_blocks integer, OUT block_bits integer, OUT k integer, OUT ranges_per_segment integer, OUT segments bigint, OUT index_pages bigint, OUT target_fpr double precision, OUT design_fpr double precision, OUT design_rows_per_range double precision, OUT ranges bigint, OUT fill_ratio double precision, OUT estimated_fpr double precision, OUT column_k integer[], OUT column_design_fpr double precision[], OUT row_slots integer, OUT row_map_pages bigint) IS 'the metapage parameters, signature fill and row map of a pagebloom index: ranges, blocks, bits per key, target, design and estimated rates, row slots per heap page and row map pages';
COMMENT ON FUNCTION @extschema@.pagebloom_resummarize(index regclass, min_stale double precision) IS 'rebuilds the signatures of the ranges of which at least min_stale of the set bits belong to no tuple any more (rows deleted or updated away, then vacuumed: a dead row''s bits go...';
COMMENT ON FUNCTION @extschema@.pagebloom_verify(index regclass) IS 'checks, like amcheck, that every heap tuple visible to a fresh snapshot has each of its keys (values and NULLs) in its range''s signature';
COMMENT ON FUNCTION @extschema@.quotientfilter_add(@extschema@.quotientfilter, anyarray) IS 'a copy with the element''s fingerprint added (grown first if the load would pass 0.9)';
COMMENT ON FUNCTION @extschema@.quotientfilter_add(@extschema@.quotientfilter, anynonarray) IS 'a copy with the element''s fingerprint added (grown first if the load would pass 0.9)';
COMMENT ON FUNCTION @extschema@.quotientfilter_add_fingerprint(@extschema@.quotientfilter, fingerprint bigint) IS 'a copy with a raw p-bit fingerprint (0 .. 2^p - 1) added';
COMMENT ON AGGREGATE @extschema@.quotientfilter_agg(anynonarray) IS 'filter of the non-null inputs (one entry per row), sized by the defaults (100000, 0.01), growing past load 0.9';
COMMENT ON AGGREGATE @extschema@.quotientfilter_agg(anynonarray, capacity bigint, fpr double precision) IS 'same, sized by the arguments';
COMMENT ON FUNCTION @extschema@.quotientfilter_agg_final(@extschema@.quotientfilter) IS 'aggregate support: the quotient filter of quotientfilter_agg (an empty filter over no rows)';
COMMENT ON FUNCTION @extschema@.quotientfilter_agg_final(@extschema@.quotientfilter, anynonarray, bigint, double precision) IS 'aggregate support: the quotient filter of quotientfilter_agg (an empty filter over no rows)';
COMMENT ON FUNCTION @extschema@.quotientfilter_agg_trans(@extschema@.quotientfilter, anynonarray) IS 'aggregate support: adds a row to the quotient filter state of quotientfilter_agg';
COMMENT ON FUNCTION @extschema@.quotientfilter_agg_trans(@extschema@.quotientfilter, anynonarray, bigint, double precision) IS 'aggregate support: adds a row to the quotient filter state of quotientfilter_agg';
COMMENT ON FUNCTION @extschema@.quotientfilter_cardinality(@extschema@.quotientfilter) IS 'exact number of stored fingerprints (entries, duplicates counted), summed over the members';
COMMENT ON FUNCTION @extschema@.quotientfilter_cmp(@extschema@.quotientfilter, @extschema@.quotientfilter) IS 'btree support: -1, 0 or 1 in the total order of quotient filters (consistent with =)';
COMMENT ON FUNCTION @extschema@.quotientfilter_contained(anynonarray, @extschema@.quotientfilter) IS 'element <@ filter: may the element be in the filter? (false: certainly not)';
COMMENT ON FUNCTION @extschema@.quotientfilter_contains(@extschema@.quotientfilter, anynonarray) IS 'may the element be in the filter? (false: certainly not)';
COMMENT ON FUNCTION @extschema@.quotientfilter_contains_fingerprint(@extschema@.quotientfilter, fingerprint bigint) IS 'is the raw fingerprint stored?';
COMMENT ON FUNCTION @extschema@.quotientfilter_create(q integer, r integer, seed bigint) IS 'empty filter with explicit q (1 .. 48) and r (1 .. 61), q + r <= 64';
COMMENT ON FUNCTION @extschema@.quotientfilter_empty(capacity bigint, fpr double precision, seed bigint) IS 'empty filter for capacity entries at false-positive rate fpr: smallest q with capacity <= 0.9 · 2^q, smallest p with capacity / 2^p <= fpr, r = p - q (at least 1, at most 61)';
COMMENT ON FUNCTION @extschema@.quotientfilter_eq(@extschema@.quotientfilter, @extschema@.quotientfilter) IS 'equal quotient filters: same parameters and same contents (the insert counter is ignored); false for different parameters';
COMMENT ON FUNCTION @extschema@.quotientfilter_fingerprints(@extschema@.quotientfilter) IS 'the stored fingerprints in ascending (unsigned) order, duplicates repeated';
COMMENT ON FUNCTION @extschema@.quotientfilter_fpr(@extschema@.quotientfilter) IS 'false-positive rate now: distinct fingerprints / 2^p (exact for a random non-member)';
COMMENT ON FUNCTION @extschema@.quotientfilter_ge(@extschema@.quotientfilter, @extschema@.quotientfilter) IS 'quotient filter sorts after or equal (an arbitrary total order for btree, not containment)';
COMMENT ON FUNCTION @extschema@.quotientfilter_gt(@extschema@.quotientfilter, @extschema@.quotientfilter) IS 'quotient filter sorts after (an arbitrary total order for btree, not containment)';
COMMENT ON FUNCTION @extschema@.quotientfilter_hash(@extschema@.quotientfilter) IS 'hash support: 32-bit hash of a quotient filter, equal for equal filters';
COMMENT ON FUNCTION @extschema@.quotientfilter_hash_extended(@extschema@.quotientfilter, bigint) IS 'hash support: seeded 64-bit hash of a quotient filter, equal for equal filters';
COMMENT ON FUNCTION @extschema@.quotientfilter_in(cstring) IS 'text input of a quotient filter (bloomfilter)';
COMMENT ON FUNCTION @extschema@.quotientfilter_info(@extschema@.quotientfilter, OUT format_version integer, OUT hash text, OUT seed bigint, OUT q integer, OUT r integer, OUT fingerprint_bits integer, OUT slots bigint, OUT entries bigint, OUT distinct_fingerprints bigint, OUT inserts bigint, OUT load_factor double precision, OUT max_load_factor double precision, OUT runs bigint, OUT clusters bigint, OUT longest_cluster bigint, OUT size_bytes bigint, OUT bits_per_entry double precision, OUT estimated_fpr double precision, OUT fpr_at_max_load double precision) IS 'every parameter, the fill and the estimates of a filter, as one record';
COMMENT ON FUNCTION @extschema@.quotientfilter_le(@extschema@.quotientfilter, @extschema@.quotientfilter) IS 'quotient filter sorts before or equal (an arbitrary total order for btree, not containment)';
COMMENT ON FUNCTION @extschema@.quotientfilter_lt(@extschema@.quotientfilter, @extschema@.quotientfilter) IS 'quotient filter sorts before (an arbitrary total order for btree, not containment)';
COMMENT ON FUNCTION @extschema@.quotientfilter_ne(@extschema@.quotientfilter, @extschema@.quotientfilter) IS 'not equal quotient filters (different parameters or contents)';
COMMENT ON FUNCTION @extschema@.quotientfilter_out(@extschema@.quotientfilter) IS 'text output of a quotient filter (bloomfilter)';
COMMENT ON FUNCTION @extschema@.quotientfilter_recv(internal) IS 'binary input of a quotient filter (bloomfilter)';
COMMENT ON FUNCTION @extschema@.quotientfilter_remove(@extschema@.quotientfilter, anyarray) IS 'a copy with one copy of the element''s fingerprint removed (unchanged if absent)';
COMMENT ON FUNCTION @extschema@.quotientfilter_remove(@extschema@.quotientfilter, anynonarray) IS 'a copy with one copy of the element''s fingerprint removed (unchanged if absent)';
COMMENT ON FUNCTION @extschema@.quotientfilter_remove_fingerprint(@extschema@.quotientfilter, fingerprint bigint) IS 'a copy with one copy of a raw fingerprint removed';
COMMENT ON FUNCTION @extschema@.quotientfilter_resize(@extschema@.quotientfilter, q integer) IS 'the same fingerprints in 2^q slots: bits move between quotient and remainder, no rehashing; a filter of several members is folded into one table of its shortest fingerprints';
COMMENT ON FUNCTION @extschema@.quotientfilter_send(@extschema@.quotientfilter) IS 'binary output of a quotient filter (bloomfilter)';
COMMENT ON FUNCTION @extschema@.quotientfilter_slots(@extschema@.quotientfilter) IS 'every slot with a metadata bit set, remainder most significant bit first';
COMMENT ON FUNCTION @extschema@.quotientfilter_union(@extschema@.quotientfilter, @extschema@.quotientfilter) IS 'merge of the two sorted fingerprint streams (multiset sum) in linear time';
COMMENT ON AGGREGATE @extschema@.quotientfilter_union_agg(@extschema@.quotientfilter) IS 'merge of the non-null filters';
COMMENT ON FUNCTION @extschema@.quotientfilter_union_trans(@extschema@.quotientfilter, @extschema@.quotientfilter) IS 'aggregate support: unions a quotient filter into the state of quotientfilter_union_agg';
COMMENT ON OPERATOR @extschema@.& (@extschema@.bloom, @extschema@.bloom) IS 'intersection: bitwise AND (a superset of the filter of the intersection)';
COMMENT ON OPERATOR @extschema@.- (@extschema@.countingbloom, @extschema@.countingbloom) IS 'counter-wise difference, never below 0';
COMMENT ON OPERATOR @extschema@.< (@extschema@.bloom, @extschema@.bloom) IS 'Bloom filter sorts before (an arbitrary total order for btree, not containment)';
COMMENT ON OPERATOR @extschema@.< (@extschema@.countingbloom, @extschema@.countingbloom) IS 'counting Bloom filter sorts before (an arbitrary total order for btree, not containment)';
COMMENT ON OPERATOR @extschema@.< (@extschema@.cuckoofilter, @extschema@.cuckoofilter) IS 'cuckoo filter sorts before (an arbitrary total order for btree, not containment)';
COMMENT ON OPERATOR @extschema@.< (@extschema@.quotientfilter, @extschema@.quotientfilter) IS 'quotient filter sorts before (an arbitrary total order for btree, not containment)';
COMMENT ON OPERATOR @extschema@.<= (@extschema@.bloom, @extschema@.bloom) IS 'Bloom filter sorts before or equal (an arbitrary total order for btree, not containment)';
COMMENT ON OPERATOR @extschema@.<= (@extschema@.countingbloom, @extschema@.countingbloom) IS 'counting Bloom filter sorts before or equal (an arbitrary total order for btree, not containment)';
COMMENT ON OPERATOR @extschema@.<= (@extschema@.cuckoofilter, @extschema@.cuckoofilter) IS 'cuckoo filter sorts before or equal (an arbitrary total order for btree, not containment)';
COMMENT ON OPERATOR @extschema@.<= (@extschema@.quotientfilter, @extschema@.quotientfilter) IS 'quotient filter sorts before or equal (an arbitrary total order for btree, not containment)';
COMMENT ON OPERATOR @extschema@.<> (@extschema@.bloom, @extschema@.bloom) IS 'not equal Bloom filters (different parameters or contents)';
COMMENT ON OPERATOR @extschema@.<> (@extschema@.countingbloom, @extschema@.countingbloom) IS 'not equal counting Bloom filters (different parameters or contents)';
COMMENT ON OPERATOR @extschema@.<> (@extschema@.cuckoofilter, @extschema@.cuckoofilter) IS 'not equal cuckoo filters (different parameters or contents)';
COMMENT ON OPERATOR @extschema@.<> (@extschema@.quotientfilter, @extschema@.quotientfilter) IS 'not equal quotient filters (different parameters or contents)';
COMMENT ON OPERATOR @extschema@.<@ (anynonarray, @extschema@.bloom) IS 'element <@ filter: may the element be in the filter? (false: certainly not)';
COMMENT ON OPERATOR @extschema@.<@ (anynonarray, @extschema@.countingbloom) IS 'element <@ filter: may the element be in the filter? (false: certainly not)';
COMMENT ON OPERATOR @extschema@.<@ (anynonarray, @extschema@.cuckoofilter) IS 'element <@ filter: may the element be in the filter? (false: certainly not)';
COMMENT ON OPERATOR @extschema@.<@ (anynonarray, @extschema@.quotientfilter) IS 'element <@ filter: may the element be in the filter? (false: certainly not)';
COMMENT ON OPERATOR @extschema@.<@ (@extschema@.bloom, @extschema@.bloom) IS 'every element of the left filter may be in the right one (every bit of the left is set in the right)';
COMMENT ON OPERATOR @extschema@.= (@extschema@.bloom, @extschema@.bloom) IS 'equal Bloom filters: same parameters and same contents (the insert counter is ignored); false for different parameters';
COMMENT ON OPERATOR @extschema@.= (@extschema@.countingbloom, @extschema@.countingbloom) IS 'equal counting Bloom filters: same parameters and same contents (the insert counter is ignored); false for different parameters';
COMMENT ON OPERATOR @extschema@.= (@extschema@.cuckoofilter, @extschema@.cuckoofilter) IS 'equal cuckoo filters: same parameters and same contents (the insert counter is ignored); false for different parameters';
COMMENT ON OPERATOR @extschema@.= (@extschema@.quotientfilter, @extschema@.quotientfilter) IS 'equal quotient filters: same parameters and same contents (the insert counter is ignored); false for different parameters';
COMMENT ON OPERATOR @extschema@.> (@extschema@.bloom, @extschema@.bloom) IS 'Bloom filter sorts after (an arbitrary total order for btree, not containment)';
COMMENT ON OPERATOR @extschema@.> (@extschema@.countingbloom, @extschema@.countingbloom) IS 'counting Bloom filter sorts after (an arbitrary total order for btree, not containment)';
COMMENT ON OPERATOR @extschema@.> (@extschema@.cuckoofilter, @extschema@.cuckoofilter) IS 'cuckoo filter sorts after (an arbitrary total order for btree, not containment)';
COMMENT ON OPERATOR @extschema@.> (@extschema@.quotientfilter, @extschema@.quotientfilter) IS 'quotient filter sorts after (an arbitrary total order for btree, not containment)';
COMMENT ON OPERATOR @extschema@.>= (@extschema@.bloom, @extschema@.bloom) IS 'Bloom filter sorts after or equal (an arbitrary total order for btree, not containment)';
COMMENT ON OPERATOR @extschema@.>= (@extschema@.countingbloom, @extschema@.countingbloom) IS 'counting Bloom filter sorts after or equal (an arbitrary total order for btree, not containment)';
COMMENT ON OPERATOR @extschema@.>= (@extschema@.cuckoofilter, @extschema@.cuckoofilter) IS 'cuckoo filter sorts after or equal (an arbitrary total order for btree, not containment)';
COMMENT ON OPERATOR @extschema@.>= (@extschema@.quotientfilter, @extschema@.quotientfilter) IS 'quotient filter sorts after or equal (an arbitrary total order for btree, not containment)';
COMMENT ON OPERATOR @extschema@.@> (@extschema@.bloom, anynonarray) IS 'may the element be in the filter? (false: certainly not)';
COMMENT ON OPERATOR @extschema@.@> (@extschema@.bloom, @extschema@.bloom) IS 'every bit of the right is set in the left (every element of the right may be in the left)';
COMMENT ON OPERATOR @extschema@.@> (@extschema@.countingbloom, anynonarray) IS 'may the element be in the filter (all k counters non-zero)? false: certainly not';
COMMENT ON OPERATOR @extschema@.@> (@extschema@.cuckoofilter, anynonarray) IS 'may the element be in the filter? (false: certainly not)';
COMMENT ON OPERATOR @extschema@.@> (@extschema@.quotientfilter, anynonarray) IS 'may the element be in the filter? (false: certainly not)';
COMMENT ON OPERATOR @extschema@.| (@extschema@.bloom, @extschema@.bloom) IS 'union: bitwise OR';
COMMENT ON OPERATOR @extschema@.| (@extschema@.countingbloom, @extschema@.countingbloom) IS 'counter-wise sum, saturating at 15: the filter of the multiset union';
COMMENT ON OPERATOR @extschema@.| (@extschema@.cuckoofilter, @extschema@.cuckoofilter) IS 'the left filter with every fingerprint of the right one reinserted (multiset sum)';
COMMENT ON OPERATOR @extschema@.| (@extschema@.quotientfilter, @extschema@.quotientfilter) IS 'merge of the two sorted fingerprint streams (multiset sum) in linear time';
