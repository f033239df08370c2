-- Every type, function, aggregate and operator of the extension and its access method
-- has a one-line comment (\dT+, \df+, \da+, \do+, \dA+)
SELECT d.classid::regclass AS catalog, pg_describe_object(d.classid, d.objid, 0) AS without_comment
FROM pg_depend d JOIN pg_extension e ON e.oid = d.refobjid
WHERE d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e' AND e.extname = 'bloomfilter'
	AND d.classid IN ('pg_type'::regclass, 'pg_proc'::regclass, 'pg_operator'::regclass, 'pg_am'::regclass)
	AND obj_description(d.objid, d.classid::regclass::text) IS NULL
	AND NOT EXISTS (SELECT FROM pg_type t WHERE d.classid = 'pg_type'::regclass AND t.oid = d.objid
		AND t.typcategory = 'A')	-- array types (members from PostgreSQL 17 on) are described by their element
ORDER BY 1, 2;
SELECT count(*) AS commented_objects FROM pg_depend d JOIN pg_extension e ON e.oid = d.refobjid
WHERE d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e' AND e.extname = 'bloomfilter'
	AND obj_description(d.objid, d.classid::regclass::text) IS NOT NULL;
-- what psql shows
SELECT obj_description('bloom'::regtype, 'pg_type') AS bloom_type,
	obj_description('bloom_agg(anynonarray)'::regprocedure, 'pg_proc') AS bloom_agg;
