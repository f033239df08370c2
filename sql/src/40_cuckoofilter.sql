-- ---------------------------------------------------------------------
-- cuckoofilter: cuckoo filter with deletion, counting and chained growth
-- ---------------------------------------------------------------------
CREATE TYPE cuckoofilter;

CREATE FUNCTION cuckoofilter_in(cstring) RETURNS cuckoofilter
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION cuckoofilter_out(cuckoofilter) RETURNS cstring
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION cuckoofilter_recv(internal) RETURNS cuckoofilter
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION cuckoofilter_send(cuckoofilter) RETURNS bytea
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE cuckoofilter (
	INPUT = cuckoofilter_in,
	OUTPUT = cuckoofilter_out,
	RECEIVE = cuckoofilter_recv,
	SEND = cuckoofilter_send,
	INTERNALLENGTH = VARIABLE,
	ALIGNMENT = double,
	STORAGE = external
);

CREATE FUNCTION cuckoofilter_empty(capacity bigint, fpr float8 DEFAULT 0.01, seed bigint DEFAULT 0)
	RETURNS cuckoofilter
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION cuckoofilter_create(buckets bigint, fingerprint_bits integer, seed bigint DEFAULT 0)
	RETURNS cuckoofilter
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION cuckoofilter_add(cuckoofilter, anynonarray) RETURNS cuckoofilter
	AS 'MODULE_PATHNAME', 'cuckoofilter_add' LANGUAGE C IMMUTABLE CALLED ON NULL INPUT PARALLEL SAFE;
CREATE FUNCTION cuckoofilter_add(cuckoofilter, anyarray) RETURNS cuckoofilter
	AS 'MODULE_PATHNAME', 'cuckoofilter_add_array' LANGUAGE C IMMUTABLE CALLED ON NULL INPUT PARALLEL SAFE;
CREATE FUNCTION cuckoofilter_remove(cuckoofilter, anynonarray) RETURNS cuckoofilter
	AS 'MODULE_PATHNAME', 'cuckoofilter_remove' LANGUAGE C IMMUTABLE CALLED ON NULL INPUT PARALLEL SAFE;
CREATE FUNCTION cuckoofilter_remove(cuckoofilter, anyarray) RETURNS cuckoofilter
	AS 'MODULE_PATHNAME', 'cuckoofilter_remove_array' LANGUAGE C IMMUTABLE CALLED ON NULL INPUT PARALLEL SAFE;
CREATE FUNCTION cuckoofilter_contains(cuckoofilter, anynonarray) RETURNS bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION cuckoofilter_contained(anynonarray, cuckoofilter) RETURNS bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION cuckoofilter_count(cuckoofilter, anynonarray) RETURNS integer
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION cuckoofilter_union(cuckoofilter, cuckoofilter) RETURNS cuckoofilter
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION cuckoofilter_eq(cuckoofilter, cuckoofilter) RETURNS bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION cuckoofilter_ne(cuckoofilter, cuckoofilter) RETURNS bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION cuckoofilter_cardinality(cuckoofilter) RETURNS bigint
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION cuckoofilter_fpr(cuckoofilter) RETURNS float8
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION cuckoofilter_info(cuckoofilter,
	OUT format_version integer, OUT hash text, OUT seed bigint,
	OUT fingerprint_bits integer, OUT bucket_size integer, OUT buckets bigint,
	OUT subfilters integer, OUT total_buckets bigint, OUT slots bigint,
	OUT fingerprints bigint, OUT inserts bigint, OUT load_factor float8,
	OUT victims_in_use integer, OUT size_bytes bigint, OUT estimated_fpr float8)
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION cuckoofilter_positions(cuckoofilter, anynonarray,
	OUT hash bigint, OUT fingerprint bigint, OUT bucket1 bigint, OUT bucket2 bigint)
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION cuckoofilter_subfilters(cuckoofilter,
	OUT subfilter integer, OUT buckets bigint, OUT fingerprints bigint, OUT load_factor float8,
	OUT victim_in_use bool, OUT size_bytes bigint)
	RETURNS SETOF record
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE ROWS 4;

CREATE OPERATOR @> (
	LEFTARG = cuckoofilter, RIGHTARG = anynonarray, FUNCTION = @extschema@.cuckoofilter_contains,
	COMMUTATOR = <@, RESTRICT = contsel, JOIN = contjoinsel
);
CREATE OPERATOR <@ (
	LEFTARG = anynonarray, RIGHTARG = cuckoofilter, FUNCTION = @extschema@.cuckoofilter_contained,
	COMMUTATOR = @>, RESTRICT = contsel, JOIN = contjoinsel
);
CREATE OPERATOR | (
	LEFTARG = cuckoofilter, RIGHTARG = cuckoofilter, FUNCTION = @extschema@.cuckoofilter_union
);
CREATE OPERATOR = (
	LEFTARG = cuckoofilter, RIGHTARG = cuckoofilter, FUNCTION = @extschema@.cuckoofilter_eq,
	COMMUTATOR = =, NEGATOR = <>, RESTRICT = eqsel, JOIN = eqjoinsel,
	HASHES, MERGES
);
CREATE OPERATOR <> (
	LEFTARG = cuckoofilter, RIGHTARG = cuckoofilter, FUNCTION = @extschema@.cuckoofilter_ne,
	COMMUTATOR = <>, NEGATOR = =, RESTRICT = neqsel, JOIN = neqjoinsel
);

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
CREATE OPERATOR CLASS cuckoofilter_btree_ops DEFAULT FOR TYPE cuckoofilter USING btree AS
	OPERATOR 1 @extschema@.<, OPERATOR 2 @extschema@.<=, OPERATOR 3 @extschema@.=,
	OPERATOR 4 @extschema@.>=, OPERATOR 5 @extschema@.>,
	FUNCTION 1 @extschema@.cuckoofilter_cmp(cuckoofilter, cuckoofilter);
CREATE OPERATOR CLASS cuckoofilter_hash_ops DEFAULT FOR TYPE cuckoofilter USING hash AS
	OPERATOR 1 @extschema@.=,
	FUNCTION 1 @extschema@.cuckoofilter_hash(cuckoofilter),
	FUNCTION 2 @extschema@.cuckoofilter_hash_extended(cuckoofilter, bigint);

-- Aggregates: the state is the filter itself, updated in place; a full
-- state chains a sub-filter, so the aggregates never fail on large input
-- (IMMUTABLE: without parameters they use cuckoofilter_empty(100000, 0.01 / 16), over no rows with
-- parameters the constant arguments, else the constant defaults 100000 and 0.01)
CREATE FUNCTION cuckoofilter_agg_trans(cuckoofilter, anynonarray) RETURNS cuckoofilter
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE CALLED ON NULL INPUT PARALLEL SAFE;
CREATE FUNCTION cuckoofilter_agg_trans(cuckoofilter, anynonarray, bigint, float8) RETURNS cuckoofilter
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE CALLED ON NULL INPUT PARALLEL SAFE;
CREATE FUNCTION cuckoofilter_agg_final(cuckoofilter) RETURNS cuckoofilter
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE CALLED ON NULL INPUT PARALLEL SAFE;
CREATE FUNCTION cuckoofilter_agg_final(cuckoofilter, anynonarray, bigint, float8) RETURNS cuckoofilter
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE CALLED ON NULL INPUT PARALLEL SAFE;
CREATE FUNCTION cuckoofilter_union_trans(cuckoofilter, cuckoofilter) RETURNS cuckoofilter
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE CALLED ON NULL INPUT PARALLEL SAFE;

CREATE AGGREGATE cuckoofilter_agg(anynonarray) (
	SFUNC = @extschema@.cuckoofilter_agg_trans,
	STYPE = @extschema@.cuckoofilter,
	FINALFUNC = @extschema@.cuckoofilter_agg_final,
	COMBINEFUNC = @extschema@.cuckoofilter_union_trans,
	PARALLEL = SAFE
);
CREATE AGGREGATE cuckoofilter_agg(anynonarray, capacity bigint, fpr float8) (
	SFUNC = @extschema@.cuckoofilter_agg_trans,
	STYPE = @extschema@.cuckoofilter,
	FINALFUNC = @extschema@.cuckoofilter_agg_final,
	FINALFUNC_EXTRA,
	COMBINEFUNC = @extschema@.cuckoofilter_union_trans,
	PARALLEL = SAFE
);
CREATE AGGREGATE cuckoofilter_union_agg(cuckoofilter) (
	SFUNC = @extschema@.cuckoofilter_union_trans,
	STYPE = @extschema@.cuckoofilter,
	COMBINEFUNC = @extschema@.cuckoofilter_union_trans,
	PARALLEL = SAFE
);
