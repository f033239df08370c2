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

-- ---------------------------------------------------------------------
-- countingbloom
-- ---------------------------------------------------------------------

-- ---------------------------------------------------------------------
-- quotientfilter
-- ---------------------------------------------------------------------

-- ---------------------------------------------------------------------
-- cuckoofilter
-- ---------------------------------------------------------------------

-- ---------------------------------------------------------------------
-- pagebloom
-- ---------------------------------------------------------------------
