-- ---------------------------------------------------------------------
-- countingbloom: counting Bloom filter (4-bit counters, can delete and count)
-- ---------------------------------------------------------------------
CREATE TYPE countingbloom;

CREATE FUNCTION countingbloom_in(cstring) RETURNS countingbloom
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION countingbloom_out(countingbloom) RETURNS cstring
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION countingbloom_recv(internal) RETURNS countingbloom
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION countingbloom_send(countingbloom) RETURNS bytea
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE countingbloom (
	INPUT = countingbloom_in,
	OUTPUT = countingbloom_out,
	RECEIVE = countingbloom_recv,
	SEND = countingbloom_send,
	INTERNALLENGTH = VARIABLE,
	ALIGNMENT = double,
	STORAGE = external
);

CREATE FUNCTION countingbloom_empty(capacity bigint, fpr float8 DEFAULT 0.01, seed bigint DEFAULT 0)
	RETURNS countingbloom
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION countingbloom_create(m bigint, k integer, seed bigint DEFAULT 0) RETURNS countingbloom
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION countingbloom_add(countingbloom, anynonarray) RETURNS countingbloom
	AS 'MODULE_PATHNAME', 'countingbloom_add' LANGUAGE C IMMUTABLE CALLED ON NULL INPUT PARALLEL SAFE;
CREATE FUNCTION countingbloom_add(countingbloom, anyarray) RETURNS countingbloom
	AS 'MODULE_PATHNAME', 'countingbloom_add_array' LANGUAGE C IMMUTABLE CALLED ON NULL INPUT PARALLEL SAFE;
CREATE FUNCTION countingbloom_remove(countingbloom, anynonarray) RETURNS countingbloom
	AS 'MODULE_PATHNAME', 'countingbloom_remove' LANGUAGE C IMMUTABLE CALLED ON NULL INPUT PARALLEL SAFE;
CREATE FUNCTION countingbloom_remove(countingbloom, anyarray) RETURNS countingbloom
	AS 'MODULE_PATHNAME', 'countingbloom_remove_array' LANGUAGE C IMMUTABLE CALLED ON NULL INPUT PARALLEL SAFE;
CREATE FUNCTION countingbloom_contains(countingbloom, anynonarray) RETURNS bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION countingbloom_contained(anynonarray, countingbloom) RETURNS bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION countingbloom_count(countingbloom, anynonarray) RETURNS integer
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION countingbloom_union(countingbloom, countingbloom) RETURNS countingbloom
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION countingbloom_difference(countingbloom, countingbloom) RETURNS countingbloom
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION countingbloom_eq(countingbloom, countingbloom) RETURNS bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION countingbloom_ne(countingbloom, countingbloom) RETURNS bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION countingbloom_cardinality(countingbloom) RETURNS bigint
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION countingbloom_fpr(countingbloom) RETURNS float8
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION countingbloom_info(countingbloom,
	OUT format_version integer, OUT hash text, OUT seed bigint,
	OUT m bigint, OUT k integer, OUT inserts bigint, OUT counters_nonzero bigint,
	OUT counters_saturated bigint, OUT fill_ratio float8, OUT size_bytes bigint,
	OUT estimated_cardinality bigint, OUT estimated_fpr float8)
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION countingbloom_to_bloom(countingbloom) RETURNS bloom
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE CAST (countingbloom AS bloom)
	WITH FUNCTION @extschema@.countingbloom_to_bloom(countingbloom) AS ASSIGNMENT;

CREATE OPERATOR @> (
	LEFTARG = countingbloom, RIGHTARG = anynonarray, FUNCTION = @extschema@.countingbloom_contains,
	COMMUTATOR = <@, RESTRICT = contsel, JOIN = contjoinsel
);
CREATE OPERATOR <@ (
	LEFTARG = anynonarray, RIGHTARG = countingbloom, FUNCTION = @extschema@.countingbloom_contained,
	COMMUTATOR = @>, RESTRICT = contsel, JOIN = contjoinsel
);
CREATE OPERATOR | (
	LEFTARG = countingbloom, RIGHTARG = countingbloom, FUNCTION = @extschema@.countingbloom_union,
	COMMUTATOR = |
);
CREATE OPERATOR - (
	LEFTARG = countingbloom, RIGHTARG = countingbloom, FUNCTION = @extschema@.countingbloom_difference
);
CREATE OPERATOR = (
	LEFTARG = countingbloom, RIGHTARG = countingbloom, FUNCTION = @extschema@.countingbloom_eq,
	COMMUTATOR = =, NEGATOR = <>, RESTRICT = eqsel, JOIN = eqjoinsel,
	HASHES, MERGES
);
CREATE OPERATOR <> (
	LEFTARG = countingbloom, RIGHTARG = countingbloom, FUNCTION = @extschema@.countingbloom_ne,
	COMMUTATOR = <>, NEGATOR = =, RESTRICT = neqsel, JOIN = neqjoinsel
);

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
CREATE OPERATOR CLASS countingbloom_btree_ops DEFAULT FOR TYPE countingbloom USING btree AS
	OPERATOR 1 @extschema@.<, OPERATOR 2 @extschema@.<=, OPERATOR 3 @extschema@.=,
	OPERATOR 4 @extschema@.>=, OPERATOR 5 @extschema@.>,
	FUNCTION 1 @extschema@.countingbloom_cmp(countingbloom, countingbloom);
CREATE OPERATOR CLASS countingbloom_hash_ops DEFAULT FOR TYPE countingbloom USING hash AS
	OPERATOR 1 @extschema@.=,
	FUNCTION 1 @extschema@.countingbloom_hash(countingbloom),
	FUNCTION 2 @extschema@.countingbloom_hash_extended(countingbloom, bigint);

-- Aggregates: the state is the filter itself, updated in place.  The
-- moving-aggregate inverse returns NULL (forcing a recomputation of the
-- frame) when an element to remove hits a saturated counter.
-- (IMMUTABLE: over no rows, or without parameters, they use the constant defaults 100000 and 0.01)
CREATE FUNCTION countingbloom_agg_trans(countingbloom, anynonarray) RETURNS countingbloom
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE CALLED ON NULL INPUT PARALLEL SAFE;
CREATE FUNCTION countingbloom_agg_trans(countingbloom, anynonarray, bigint, float8) RETURNS countingbloom
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE CALLED ON NULL INPUT PARALLEL SAFE;
CREATE FUNCTION countingbloom_agg_inv(countingbloom, anynonarray) RETURNS countingbloom
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE CALLED ON NULL INPUT PARALLEL SAFE;
CREATE FUNCTION countingbloom_agg_inv(countingbloom, anynonarray, bigint, float8) RETURNS countingbloom
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE CALLED ON NULL INPUT PARALLEL SAFE;
CREATE FUNCTION countingbloom_agg_final(countingbloom) RETURNS countingbloom
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE CALLED ON NULL INPUT PARALLEL SAFE;
CREATE FUNCTION countingbloom_agg_final(countingbloom, anynonarray, bigint, float8) RETURNS countingbloom
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE CALLED ON NULL INPUT PARALLEL SAFE;
CREATE FUNCTION countingbloom_union_trans(countingbloom, countingbloom) RETURNS countingbloom
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE CALLED ON NULL INPUT PARALLEL SAFE;

CREATE AGGREGATE countingbloom_agg(anynonarray) (
	SFUNC = @extschema@.countingbloom_agg_trans,
	STYPE = @extschema@.countingbloom,
	FINALFUNC = @extschema@.countingbloom_agg_final,
	FINALFUNC_MODIFY = READ_ONLY,
	COMBINEFUNC = @extschema@.countingbloom_union_trans,
	MSFUNC = @extschema@.countingbloom_agg_trans,
	MINVFUNC = @extschema@.countingbloom_agg_inv,
	MSTYPE = @extschema@.countingbloom,
	MFINALFUNC = @extschema@.countingbloom_agg_final,
	MFINALFUNC_MODIFY = READ_ONLY,
	PARALLEL = SAFE
);
CREATE AGGREGATE countingbloom_agg(anynonarray, capacity bigint, fpr float8) (
	SFUNC = @extschema@.countingbloom_agg_trans,
	STYPE = @extschema@.countingbloom,
	FINALFUNC = @extschema@.countingbloom_agg_final,
	FINALFUNC_EXTRA,
	FINALFUNC_MODIFY = READ_ONLY,
	COMBINEFUNC = @extschema@.countingbloom_union_trans,
	MSFUNC = @extschema@.countingbloom_agg_trans,
	MINVFUNC = @extschema@.countingbloom_agg_inv,
	MSTYPE = @extschema@.countingbloom,
	MFINALFUNC = @extschema@.countingbloom_agg_final,
	MFINALFUNC_EXTRA,
	MFINALFUNC_MODIFY = READ_ONLY,
	PARALLEL = SAFE
);
CREATE AGGREGATE countingbloom_union_agg(countingbloom) (
	SFUNC = @extschema@.countingbloom_union_trans,
	STYPE = @extschema@.countingbloom,
	COMBINEFUNC = @extschema@.countingbloom_union_trans,
	PARALLEL = SAFE
);
