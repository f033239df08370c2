-- ---------------------------------------------------------------------
-- quotientfilter: quotient filter (Bender et al. 2012) with remove, merge and resize
-- ---------------------------------------------------------------------
CREATE TYPE quotientfilter;

CREATE FUNCTION quotientfilter_in(cstring) RETURNS quotientfilter
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION quotientfilter_out(quotientfilter) RETURNS cstring
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION quotientfilter_recv(internal) RETURNS quotientfilter
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION quotientfilter_send(quotientfilter) RETURNS bytea
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE quotientfilter (
	INPUT = quotientfilter_in,
	OUTPUT = quotientfilter_out,
	RECEIVE = quotientfilter_recv,
	SEND = quotientfilter_send,
	INTERNALLENGTH = VARIABLE,
	ALIGNMENT = double,
	STORAGE = external
);

CREATE FUNCTION quotientfilter_empty(capacity bigint, fpr float8 DEFAULT 0.01, seed bigint DEFAULT 0)
	RETURNS quotientfilter
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION quotientfilter_create(q integer, r integer, seed bigint DEFAULT 0) RETURNS quotientfilter
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION quotientfilter_add(quotientfilter, anynonarray) RETURNS quotientfilter
	AS 'MODULE_PATHNAME', 'quotientfilter_add' LANGUAGE C IMMUTABLE CALLED ON NULL INPUT PARALLEL SAFE;
CREATE FUNCTION quotientfilter_add(quotientfilter, anyarray) RETURNS quotientfilter
	AS 'MODULE_PATHNAME', 'quotientfilter_add_array' LANGUAGE C IMMUTABLE CALLED ON NULL INPUT PARALLEL SAFE;
CREATE FUNCTION quotientfilter_remove(quotientfilter, anynonarray) RETURNS quotientfilter
	AS 'MODULE_PATHNAME', 'quotientfilter_remove' LANGUAGE C IMMUTABLE CALLED ON NULL INPUT PARALLEL SAFE;
CREATE FUNCTION quotientfilter_remove(quotientfilter, anyarray) RETURNS quotientfilter
	AS 'MODULE_PATHNAME', 'quotientfilter_remove_array' LANGUAGE C IMMUTABLE CALLED ON NULL INPUT PARALLEL SAFE;
CREATE FUNCTION quotientfilter_contains(quotientfilter, anynonarray) RETURNS bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION quotientfilter_contained(anynonarray, quotientfilter) RETURNS bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- raw fingerprints (p = q + r bits): worked examples, clients that hash themselves
CREATE FUNCTION quotientfilter_add_fingerprint(quotientfilter, fingerprint bigint) RETURNS quotientfilter
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION quotientfilter_remove_fingerprint(quotientfilter, fingerprint bigint) RETURNS quotientfilter
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION quotientfilter_contains_fingerprint(quotientfilter, fingerprint bigint) RETURNS bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION quotientfilter_union(quotientfilter, quotientfilter) RETURNS quotientfilter
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION quotientfilter_resize(quotientfilter, q integer) RETURNS quotientfilter
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION quotientfilter_eq(quotientfilter, quotientfilter) RETURNS bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION quotientfilter_ne(quotientfilter, quotientfilter) RETURNS bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION quotientfilter_cardinality(quotientfilter) RETURNS bigint
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION quotientfilter_fpr(quotientfilter) RETURNS float8
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION quotientfilter_info(quotientfilter,
	OUT format_version integer, OUT hash text, OUT seed bigint,
	OUT q integer, OUT r integer, OUT fingerprint_bits integer, OUT slots bigint,
	OUT entries bigint, OUT distinct_fingerprints bigint, OUT inserts bigint,
	OUT load_factor float8, OUT max_load_factor float8, OUT runs bigint,
	OUT clusters bigint, OUT longest_cluster bigint, OUT size_bytes bigint,
	OUT bits_per_entry float8, OUT estimated_fpr float8, OUT fpr_at_max_load float8)
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION quotientfilter_fingerprints(quotientfilter) RETURNS SETOF bigint
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION quotientfilter_slots(quotientfilter) RETURNS TABLE (
	slot bigint, remainder bit varying, is_occupied bool, is_continuation bool, is_shifted bool)
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE OPERATOR @> (
	LEFTARG = quotientfilter, RIGHTARG = anynonarray, FUNCTION = @extschema@.quotientfilter_contains,
	COMMUTATOR = <@, RESTRICT = contsel, JOIN = contjoinsel
);
CREATE OPERATOR <@ (
	LEFTARG = anynonarray, RIGHTARG = quotientfilter, FUNCTION = @extschema@.quotientfilter_contained,
	COMMUTATOR = @>, RESTRICT = contsel, JOIN = contjoinsel
);
CREATE OPERATOR | (
	LEFTARG = quotientfilter, RIGHTARG = quotientfilter, FUNCTION = @extschema@.quotientfilter_union,
	COMMUTATOR = |
);
CREATE OPERATOR = (
	LEFTARG = quotientfilter, RIGHTARG = quotientfilter, FUNCTION = @extschema@.quotientfilter_eq,
	COMMUTATOR = =, NEGATOR = <>, RESTRICT = eqsel, JOIN = eqjoinsel,
	HASHES, MERGES
);
CREATE OPERATOR <> (
	LEFTARG = quotientfilter, RIGHTARG = quotientfilter, FUNCTION = @extschema@.quotientfilter_ne,
	COMMUTATOR = <>, NEGATOR = =, RESTRICT = neqsel, JOIN = neqjoinsel
);

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
CREATE OPERATOR CLASS quotientfilter_btree_ops DEFAULT FOR TYPE quotientfilter USING btree AS
	OPERATOR 1 @extschema@.<, OPERATOR 2 @extschema@.<=, OPERATOR 3 @extschema@.=,
	OPERATOR 4 @extschema@.>=, OPERATOR 5 @extschema@.>,
	FUNCTION 1 @extschema@.quotientfilter_cmp(quotientfilter, quotientfilter);
CREATE OPERATOR CLASS quotientfilter_hash_ops DEFAULT FOR TYPE quotientfilter USING hash AS
	OPERATOR 1 @extschema@.=,
	FUNCTION 1 @extschema@.quotientfilter_hash(quotientfilter),
	FUNCTION 2 @extschema@.quotientfilter_hash_extended(quotientfilter, bigint);

-- Aggregates: the state is the filter itself, updated in place (a new datum when it grows)
-- (IMMUTABLE: over no rows, or without parameters, they use the constant defaults 100000 and 0.01)
CREATE FUNCTION quotientfilter_agg_trans(quotientfilter, anynonarray) RETURNS quotientfilter
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE CALLED ON NULL INPUT PARALLEL SAFE;
CREATE FUNCTION quotientfilter_agg_trans(quotientfilter, anynonarray, bigint, float8) RETURNS quotientfilter
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE CALLED ON NULL INPUT PARALLEL SAFE;
CREATE FUNCTION quotientfilter_agg_final(quotientfilter) RETURNS quotientfilter
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE CALLED ON NULL INPUT PARALLEL SAFE;
CREATE FUNCTION quotientfilter_agg_final(quotientfilter, anynonarray, bigint, float8) RETURNS quotientfilter
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE CALLED ON NULL INPUT PARALLEL SAFE;
CREATE FUNCTION quotientfilter_union_trans(quotientfilter, quotientfilter) RETURNS quotientfilter
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE CALLED ON NULL INPUT PARALLEL SAFE;

CREATE AGGREGATE quotientfilter_agg(anynonarray) (
	SFUNC = @extschema@.quotientfilter_agg_trans,
	STYPE = @extschema@.quotientfilter,
	FINALFUNC = @extschema@.quotientfilter_agg_final,
	COMBINEFUNC = @extschema@.quotientfilter_union_trans,
	PARALLEL = SAFE
);
CREATE AGGREGATE quotientfilter_agg(anynonarray, capacity bigint, fpr float8) (
	SFUNC = @extschema@.quotientfilter_agg_trans,
	STYPE = @extschema@.quotientfilter,
	FINALFUNC = @extschema@.quotientfilter_agg_final,
	FINALFUNC_EXTRA,
	COMBINEFUNC = @extschema@.quotientfilter_union_trans,
	PARALLEL = SAFE
);
CREATE AGGREGATE quotientfilter_union_agg(quotientfilter) (
	SFUNC = @extschema@.quotientfilter_union_trans,
	STYPE = @extschema@.quotientfilter,
	COMBINEFUNC = @extschema@.quotientfilter_union_trans,
	PARALLEL = SAFE
);
