-- complain if script is sourced in psql, rather than via CREATE EXTENSION
\echo Use "CREATE EXTENSION bloomfilter" to load this file. \quit

-- Canonical element hash shared by every filter type (doc/design.md, "Hashing")
CREATE FUNCTION bloomfilter_hash(anyelement, seed bigint DEFAULT 0) RETURNS bigint
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- The k bit positions of a value in a Bloom-family filter of m bits (golden vectors)
CREATE FUNCTION bloomfilter_positions(anyelement, m bigint, k integer, seed bigint DEFAULT 0) RETURNS bigint[]
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
