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

-- Metapage parameters, signature fill and row map
CREATE FUNCTION pagebloom_info(index regclass,
	OUT pages_per_range integer, OUT signature_bits bigint, OUT signature_blocks integer,
	OUT block_bits integer, OUT k integer, OUT ranges_per_segment integer,
	OUT segments bigint, OUT index_pages bigint, OUT target_fpr float8,
	OUT design_fpr float8, OUT design_rows_per_range float8, OUT ranges bigint,
	OUT fill_ratio float8, OUT estimated_fpr float8,
	OUT column_k integer[], OUT column_design_fpr float8[],
	OUT row_slots integer, OUT row_map_pages bigint)
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
