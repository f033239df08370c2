-- bloomfilter 1.0 -> 1.1 (ALTER EXTENSION bloomfilter UPDATE TO '1.1')
--
-- The catalog changes of 1.1, one section per part.  Values stored by 1.0 are
-- not readable by 1.1 (storage format 2; 1.0 was never released): README,
-- "Upgrading".
\echo Use "ALTER EXTENSION bloomfilter UPDATE TO '1.1'" to load this file. \quit

-- ---------------------------------------------------------------------
-- common: no settings any more, aggregate support functions are IMMUTABLE
-- ---------------------------------------------------------------------
ALTER FUNCTION @extschema@.bloom_agg_trans(bloom, anynonarray) IMMUTABLE;
ALTER FUNCTION @extschema@.bloom_agg_trans(bloom, anynonarray, bigint, float8) IMMUTABLE;
ALTER FUNCTION @extschema@.bloom_agg_final(bloom) IMMUTABLE;
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
