-- ---------------------------------------------------------------------
-- bloom: classic Bloom filter
-- ---------------------------------------------------------------------
CREATE TYPE bloom;

CREATE FUNCTION bloom_in(cstring) RETURNS bloom
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION bloom_out(bloom) RETURNS cstring
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION bloom_recv(internal) RETURNS bloom
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION bloom_send(bloom) RETURNS bytea
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE bloom (
	INPUT = bloom_in,
	OUTPUT = bloom_out,
	RECEIVE = bloom_recv,
	SEND = bloom_send,
	INTERNALLENGTH = VARIABLE,
	ALIGNMENT = double,
	STORAGE = external
);

CREATE FUNCTION bloom_empty(capacity bigint, fpr float8 DEFAULT 0.01, seed bigint DEFAULT 0) RETURNS bloom
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
-- self-sized: grows as elements are added, its false-positive rate under fpr
CREATE FUNCTION bloom_empty() RETURNS bloom
	AS 'MODULE_PATHNAME', 'bloom_empty_self_sized' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION bloom_empty_self_sized(fpr float8 DEFAULT 0.01, seed bigint DEFAULT 0) RETURNS bloom
	AS 'MODULE_PATHNAME', 'bloom_empty_self_sized' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION bloom_create(m bigint, k integer, seed bigint DEFAULT 0) RETURNS bloom
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION bloom_add(bloom, anynonarray) RETURNS bloom
	AS 'MODULE_PATHNAME', 'bloom_add' LANGUAGE C IMMUTABLE CALLED ON NULL INPUT PARALLEL SAFE;
CREATE FUNCTION bloom_add(bloom, anyarray) RETURNS bloom
	AS 'MODULE_PATHNAME', 'bloom_add_array' LANGUAGE C IMMUTABLE CALLED ON NULL INPUT PARALLEL SAFE;
CREATE FUNCTION bloom_contains(bloom, anynonarray) RETURNS bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION bloom_contained(anynonarray, bloom) RETURNS bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION bloom_contains_bloom(bloom, bloom) RETURNS bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION bloom_contained_bloom(bloom, bloom) RETURNS bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION bloom_union(bloom, bloom) RETURNS bloom
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION bloom_intersect(bloom, bloom) RETURNS bloom
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION bloom_eq(bloom, bloom) RETURNS bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION bloom_ne(bloom, bloom) RETURNS bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION bloom_cardinality(bloom) RETURNS bigint
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION bloom_fpr(bloom) RETURNS float8
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION bloom_info(bloom,
	OUT format_version integer, OUT hash text, OUT seed bigint,
	OUT m bigint, OUT k integer, OUT inserts bigint, OUT bits_set bigint,
	OUT fill_ratio float8, OUT size_bytes bigint,
	OUT estimated_cardinality bigint, OUT estimated_fpr float8, OUT overfilled boolean,
	OUT self_sized boolean, OUT members integer, OUT target_fpr float8)
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE OPERATOR @> (
	LEFTARG = bloom, RIGHTARG = anynonarray, FUNCTION = @extschema@.bloom_contains,
	COMMUTATOR = <@, RESTRICT = contsel, JOIN = contjoinsel
);
CREATE OPERATOR <@ (
	LEFTARG = anynonarray, RIGHTARG = bloom, FUNCTION = @extschema@.bloom_contained,
	COMMUTATOR = @>, RESTRICT = contsel, JOIN = contjoinsel
);
CREATE OPERATOR @> (
	LEFTARG = bloom, RIGHTARG = bloom, FUNCTION = @extschema@.bloom_contains_bloom,
	COMMUTATOR = <@, RESTRICT = contsel, JOIN = contjoinsel
);
CREATE OPERATOR <@ (
	LEFTARG = bloom, RIGHTARG = bloom, FUNCTION = @extschema@.bloom_contained_bloom,
	COMMUTATOR = @>, RESTRICT = contsel, JOIN = contjoinsel
);
CREATE OPERATOR | (
	LEFTARG = bloom, RIGHTARG = bloom, FUNCTION = @extschema@.bloom_union, COMMUTATOR = |
);
CREATE OPERATOR & (
	LEFTARG = bloom, RIGHTARG = bloom, FUNCTION = @extschema@.bloom_intersect, COMMUTATOR = &
);
CREATE OPERATOR = (
	LEFTARG = bloom, RIGHTARG = bloom, FUNCTION = @extschema@.bloom_eq,
	COMMUTATOR = =, NEGATOR = <>, RESTRICT = eqsel, JOIN = eqjoinsel,
	HASHES, MERGES
);
CREATE OPERATOR <> (
	LEFTARG = bloom, RIGHTARG = bloom, FUNCTION = @extschema@.bloom_ne,
	COMMUTATOR = <>, NEGATOR = =, RESTRICT = neqsel, JOIN = neqjoinsel
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
CREATE OPERATOR CLASS bloom_btree_ops DEFAULT FOR TYPE bloom USING btree AS
	OPERATOR 1 @extschema@.<, OPERATOR 2 @extschema@.<=, OPERATOR 3 @extschema@.=,
	OPERATOR 4 @extschema@.>=, OPERATOR 5 @extschema@.>,
	FUNCTION 1 @extschema@.bloom_cmp(bloom, bloom);
CREATE OPERATOR CLASS bloom_hash_ops DEFAULT FOR TYPE bloom USING hash AS
	OPERATOR 1 @extschema@.=,
	FUNCTION 1 @extschema@.bloom_hash(bloom),
	FUNCTION 2 @extschema@.bloom_hash_extended(bloom, bigint);

-- Aggregates: the state is the filter itself, updated in place
-- (IMMUTABLE: over no rows, or without parameters, they use the constant default 0.01)
-- bloom_agg(x), bloom_agg(x, fpr): self-sized; the state collects hashes, the final function
-- seals them into a filter sized for their number (design.md, "Self-sized bloom")
CREATE FUNCTION bloom_agg_auto_trans(bloom, anynonarray) RETURNS bloom
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE CALLED ON NULL INPUT PARALLEL SAFE;
CREATE FUNCTION bloom_agg_auto_trans(bloom, anynonarray, float8) RETURNS bloom
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE CALLED ON NULL INPUT PARALLEL SAFE;
CREATE FUNCTION bloom_agg_auto_final(bloom) RETURNS bloom
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE CALLED ON NULL INPUT PARALLEL SAFE;
CREATE FUNCTION bloom_agg_auto_final(bloom, anynonarray, float8) RETURNS bloom
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE CALLED ON NULL INPUT PARALLEL SAFE;
-- bloom_agg(x, capacity, fpr): one fixed bit array
CREATE FUNCTION bloom_agg_trans(bloom, anynonarray, bigint, float8) RETURNS bloom
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE CALLED ON NULL INPUT PARALLEL SAFE;
CREATE FUNCTION bloom_agg_final(bloom, anynonarray, bigint, float8) RETURNS bloom
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE CALLED ON NULL INPUT PARALLEL SAFE;
CREATE FUNCTION bloom_union_trans(bloom, bloom) RETURNS bloom
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE CALLED ON NULL INPUT PARALLEL SAFE;
CREATE FUNCTION bloom_intersect_trans(bloom, bloom) RETURNS bloom
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
CREATE AGGREGATE bloom_agg(anynonarray, capacity bigint, fpr float8) (
	SFUNC = @extschema@.bloom_agg_trans,
	STYPE = @extschema@.bloom,
	FINALFUNC = @extschema@.bloom_agg_final,
	FINALFUNC_EXTRA,
	COMBINEFUNC = @extschema@.bloom_union_trans,
	PARALLEL = SAFE
);
CREATE AGGREGATE bloom_union_agg(bloom) (
	SFUNC = @extschema@.bloom_union_trans,
	STYPE = @extschema@.bloom,
	COMBINEFUNC = @extschema@.bloom_union_trans,
	PARALLEL = SAFE
);
CREATE AGGREGATE bloom_intersect_agg(bloom) (
	SFUNC = @extschema@.bloom_intersect_trans,
	STYPE = @extschema@.bloom,
	COMBINEFUNC = @extschema@.bloom_intersect_trans,
	PARALLEL = SAFE
);
