-- complain if script is sourced in psql, rather than via CREATE EXTENSION
\echo Use "CREATE EXTENSION bloomfilter" to load this file. \quit

-- Canonical element hash shared by every filter type (doc/design.md, "Hashing")
CREATE FUNCTION bloomfilter_hash(anyelement, seed bigint DEFAULT 0) RETURNS bigint
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- The k bit positions of a value in a Bloom-family filter of m bits (golden vectors)
CREATE FUNCTION bloomfilter_positions(anyelement, m bigint, k integer, seed bigint DEFAULT 0) RETURNS bigint[]
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
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
	OUT estimated_cardinality bigint, OUT estimated_fpr float8)
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
	COMMUTATOR = =, NEGATOR = <>, RESTRICT = eqsel, JOIN = eqjoinsel
);
CREATE OPERATOR <> (
	LEFTARG = bloom, RIGHTARG = bloom, FUNCTION = @extschema@.bloom_ne,
	COMMUTATOR = <>, NEGATOR = =, RESTRICT = neqsel, JOIN = neqjoinsel
);

-- Aggregates: the state is the filter itself, updated in place
-- (STABLE: over no rows, or without parameters, they read the bloomfilter.default_* settings)
CREATE FUNCTION bloom_agg_trans(bloom, anynonarray) RETURNS bloom
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE CALLED ON NULL INPUT PARALLEL SAFE;
CREATE FUNCTION bloom_agg_trans(bloom, anynonarray, bigint, float8) RETURNS bloom
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE CALLED ON NULL INPUT PARALLEL SAFE;
CREATE FUNCTION bloom_agg_final(bloom) RETURNS bloom
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE CALLED ON NULL INPUT PARALLEL SAFE;
CREATE FUNCTION bloom_agg_final(bloom, anynonarray, bigint, float8) RETURNS bloom
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE CALLED ON NULL INPUT PARALLEL SAFE;
CREATE FUNCTION bloom_union_trans(bloom, bloom) RETURNS bloom
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE CALLED ON NULL INPUT PARALLEL SAFE;
CREATE FUNCTION bloom_intersect_trans(bloom, bloom) RETURNS bloom
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE CALLED ON NULL INPUT PARALLEL SAFE;

CREATE AGGREGATE bloom_agg(anynonarray) (
	SFUNC = @extschema@.bloom_agg_trans,
	STYPE = @extschema@.bloom,
	FINALFUNC = @extschema@.bloom_agg_final,
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
	COMMUTATOR = =, NEGATOR = <>, RESTRICT = eqsel, JOIN = eqjoinsel
);
CREATE OPERATOR <> (
	LEFTARG = countingbloom, RIGHTARG = countingbloom, FUNCTION = @extschema@.countingbloom_ne,
	COMMUTATOR = <>, NEGATOR = =, RESTRICT = neqsel, JOIN = neqjoinsel
);

-- Aggregates: the state is the filter itself, updated in place.  The
-- moving-aggregate inverse returns NULL (forcing a recomputation of the
-- frame) when an element to remove hits a saturated counter.
-- (STABLE: over no rows, or without parameters, they read the bloomfilter.default_* settings)
CREATE FUNCTION countingbloom_agg_trans(countingbloom, anynonarray) RETURNS countingbloom
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE CALLED ON NULL INPUT PARALLEL SAFE;
CREATE FUNCTION countingbloom_agg_trans(countingbloom, anynonarray, bigint, float8) RETURNS countingbloom
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE CALLED ON NULL INPUT PARALLEL SAFE;
CREATE FUNCTION countingbloom_agg_inv(countingbloom, anynonarray) RETURNS countingbloom
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE CALLED ON NULL INPUT PARALLEL SAFE;
CREATE FUNCTION countingbloom_agg_inv(countingbloom, anynonarray, bigint, float8) RETURNS countingbloom
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE CALLED ON NULL INPUT PARALLEL SAFE;
CREATE FUNCTION countingbloom_agg_final(countingbloom) RETURNS countingbloom
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE CALLED ON NULL INPUT PARALLEL SAFE;
CREATE FUNCTION countingbloom_agg_final(countingbloom, anynonarray, bigint, float8) RETURNS countingbloom
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE CALLED ON NULL INPUT PARALLEL SAFE;
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
	COMMUTATOR = =, NEGATOR = <>, RESTRICT = eqsel, JOIN = eqjoinsel
);
CREATE OPERATOR <> (
	LEFTARG = quotientfilter, RIGHTARG = quotientfilter, FUNCTION = @extschema@.quotientfilter_ne,
	COMMUTATOR = <>, NEGATOR = =, RESTRICT = neqsel, JOIN = neqjoinsel
);

-- Aggregates: the state is the filter itself, updated in place (a new datum when it grows)
-- (STABLE: over no rows, or without parameters, they read the bloomfilter.default_* settings)
CREATE FUNCTION quotientfilter_agg_trans(quotientfilter, anynonarray) RETURNS quotientfilter
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE CALLED ON NULL INPUT PARALLEL SAFE;
CREATE FUNCTION quotientfilter_agg_trans(quotientfilter, anynonarray, bigint, float8) RETURNS quotientfilter
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE CALLED ON NULL INPUT PARALLEL SAFE;
CREATE FUNCTION quotientfilter_agg_final(quotientfilter) RETURNS quotientfilter
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE CALLED ON NULL INPUT PARALLEL SAFE;
CREATE FUNCTION quotientfilter_agg_final(quotientfilter, anynonarray, bigint, float8) RETURNS quotientfilter
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE CALLED ON NULL INPUT PARALLEL SAFE;
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
	COMMUTATOR = =, NEGATOR = <>, RESTRICT = eqsel, JOIN = eqjoinsel
);
CREATE OPERATOR <> (
	LEFTARG = cuckoofilter, RIGHTARG = cuckoofilter, FUNCTION = @extschema@.cuckoofilter_ne,
	COMMUTATOR = <>, NEGATOR = =, RESTRICT = neqsel, JOIN = neqjoinsel
);

-- Aggregates: the state is the filter itself, updated in place; a full
-- state chains a sub-filter, so the aggregates never fail on large input
-- (STABLE: over no rows, or without parameters, they read the bloomfilter.default_* settings)
CREATE FUNCTION cuckoofilter_agg_trans(cuckoofilter, anynonarray) RETURNS cuckoofilter
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE CALLED ON NULL INPUT PARALLEL SAFE;
CREATE FUNCTION cuckoofilter_agg_trans(cuckoofilter, anynonarray, bigint, float8) RETURNS cuckoofilter
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE CALLED ON NULL INPUT PARALLEL SAFE;
CREATE FUNCTION cuckoofilter_agg_final(cuckoofilter) RETURNS cuckoofilter
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE CALLED ON NULL INPUT PARALLEL SAFE;
CREATE FUNCTION cuckoofilter_agg_final(cuckoofilter, anynonarray, bigint, float8) RETURNS cuckoofilter
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE CALLED ON NULL INPUT PARALLEL SAFE;
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
-- ---------------------------------------------------------------------
-- pagebloom: index access method with a Bloom signature per heap block range
-- ---------------------------------------------------------------------
CREATE FUNCTION pagebloom_handler(internal) RETURNS index_am_handler
	AS 'MODULE_PATHNAME' LANGUAGE C;

CREATE ACCESS METHOD pagebloom TYPE INDEX HANDLER @extschema@.pagebloom_handler;
COMMENT ON ACCESS METHOD pagebloom IS 'bloom signatures per heap block range: equality on any subset of columns';

-- Check that every live heap tuple's keys are in its range's signature
CREATE FUNCTION pagebloom_verify(index regclass) RETURNS bigint
	AS 'MODULE_PATHNAME' LANGUAGE C STRICT PARALLEL RESTRICTED;

-- Metapage parameters and signature fill
CREATE FUNCTION pagebloom_info(index regclass,
	OUT pages_per_range integer, OUT signature_bits bigint, OUT signature_blocks integer,
	OUT block_bits integer, OUT k integer, OUT ranges_per_segment integer,
	OUT segments bigint, OUT index_pages bigint, OUT target_fpr float8,
	OUT design_fpr float8, OUT design_rows_per_range float8, OUT ranges bigint,
	OUT fill_ratio float8, OUT estimated_fpr float8,
	OUT column_k integer[], OUT column_design_fpr float8[])
	AS 'MODULE_PATHNAME' LANGUAGE C STRICT PARALLEL RESTRICTED;

-- Rebuild the signatures of ranges whose bits have mostly gone stale
CREATE FUNCTION pagebloom_resummarize(index regclass, min_stale float8 DEFAULT 0.25) RETURNS bigint
	AS 'MODULE_PATHNAME' LANGUAGE C STRICT PARALLEL UNSAFE;

-- Integers: one family, cross-type equality (canonical hashing makes
-- 42::int2, 42 and 42::int8 the same key)
CREATE OPERATOR FAMILY integer_ops USING pagebloom;
CREATE OPERATOR CLASS int2_ops DEFAULT FOR TYPE int2 USING pagebloom FAMILY integer_ops AS
	OPERATOR 1 = (int2, int2);
CREATE OPERATOR CLASS int4_ops DEFAULT FOR TYPE int4 USING pagebloom FAMILY integer_ops AS
	OPERATOR 1 = (int4, int4);
CREATE OPERATOR CLASS int8_ops DEFAULT FOR TYPE int8 USING pagebloom FAMILY integer_ops AS
	OPERATOR 1 = (int8, int8);
ALTER OPERATOR FAMILY integer_ops USING pagebloom ADD
	OPERATOR 1 = (int2, int4),
	OPERATOR 1 = (int2, int8),
	OPERATOR 1 = (int4, int2),
	OPERATOR 1 = (int4, int8),
	OPERATOR 1 = (int8, int2),
	OPERATOR 1 = (int8, int4);

-- Floats: float4 values hash as float8, so float4 = float8 agrees
CREATE OPERATOR FAMILY float_ops USING pagebloom;
CREATE OPERATOR CLASS float4_ops DEFAULT FOR TYPE float4 USING pagebloom FAMILY float_ops AS
	OPERATOR 1 = (float4, float4);
CREATE OPERATOR CLASS float8_ops DEFAULT FOR TYPE float8 USING pagebloom FAMILY float_ops AS
	OPERATOR 1 = (float8, float8);
ALTER OPERATOR FAMILY float_ops USING pagebloom ADD
	OPERATOR 1 = (float4, float8),
	OPERATOR 1 = (float8, float4);

-- Strings: text (and varchar, binary-coercible to text) and name hash their
-- bytes, so name = text agrees; nondeterministic collations are refused
CREATE OPERATOR FAMILY text_ops USING pagebloom;
CREATE OPERATOR CLASS text_ops DEFAULT FOR TYPE text USING pagebloom FAMILY text_ops AS
	OPERATOR 1 = (text, text);
CREATE OPERATOR CLASS name_ops DEFAULT FOR TYPE name USING pagebloom FAMILY text_ops AS
	OPERATOR 1 = (name, name);
ALTER OPERATOR FAMILY text_ops USING pagebloom ADD
	OPERATOR 1 = (name, text),
	OPERATOR 1 = (text, name);

CREATE OPERATOR CLASS bpchar_ops DEFAULT FOR TYPE bpchar USING pagebloom AS
	OPERATOR 1 = (bpchar, bpchar);
CREATE OPERATOR CLASS bytea_ops DEFAULT FOR TYPE bytea USING pagebloom AS
	OPERATOR 1 = (bytea, bytea);
CREATE OPERATOR CLASS oid_ops DEFAULT FOR TYPE oid USING pagebloom AS
	OPERATOR 1 = (oid, oid);
CREATE OPERATOR CLASS uuid_ops DEFAULT FOR TYPE uuid USING pagebloom AS
	OPERATOR 1 = (uuid, uuid);
CREATE OPERATOR CLASS bool_ops DEFAULT FOR TYPE bool USING pagebloom AS
	OPERATOR 1 = (bool, bool);
CREATE OPERATOR CLASS char_ops DEFAULT FOR TYPE "char" USING pagebloom AS
	OPERATOR 1 = ("char", "char");
CREATE OPERATOR CLASS date_ops DEFAULT FOR TYPE date USING pagebloom AS
	OPERATOR 1 = (date, date);
CREATE OPERATOR CLASS time_ops DEFAULT FOR TYPE time USING pagebloom AS
	OPERATOR 1 = (time, time);
CREATE OPERATOR CLASS timestamp_ops DEFAULT FOR TYPE timestamp USING pagebloom AS
	OPERATOR 1 = (timestamp, timestamp);
CREATE OPERATOR CLASS timestamptz_ops DEFAULT FOR TYPE timestamptz USING pagebloom AS
	OPERATOR 1 = (timestamptz, timestamptz);
CREATE OPERATOR CLASS interval_ops DEFAULT FOR TYPE interval USING pagebloom AS
	OPERATOR 1 = (interval, interval);
CREATE OPERATOR CLASS numeric_ops DEFAULT FOR TYPE numeric USING pagebloom AS
	OPERATOR 1 = (numeric, numeric);
CREATE OPERATOR CLASS inet_ops DEFAULT FOR TYPE inet USING pagebloom AS
	OPERATOR 1 = (inet, inet);
CREATE OPERATOR CLASS macaddr_ops DEFAULT FOR TYPE macaddr USING pagebloom AS
	OPERATOR 1 = (macaddr, macaddr);
