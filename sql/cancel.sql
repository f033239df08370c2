-- Long calls on large filters stop soon after a statement timeout (or a
-- cancel): the loops over a filter's words, buckets or slots check for
-- interrupts; without the checks the timeout's error came only once the call
-- returned.  Making the filter (allocating and zeroing 100 MB, the first
-- touch of each page) is not interruptible and takes 0.3 s - 1.4 s on the
-- project's 2-core machines, depending on their load; its text output takes
-- seconds more.  So the test times, in this session, the making alone (a)
-- and the whole output (d), then the output under a 300 ms timeout (s), and
-- asserts that the timeout stopped it within the first half of the
-- interruptible part: s < a + (d - a) / 2.  (A fixed bound of 2 s failed
-- once under a loaded machine's UBSan build: 2.56 s, most of it the making.)
CREATE FUNCTION cancel_test_time(q text, OUT canceled bool, OUT took interval) LANGUAGE plpgsql AS $$
DECLARE
	t0 timestamptz := clock_timestamp();
BEGIN
	EXECUTE q;
	canceled := false;
	took := clock_timestamp() - t0;
EXCEPTION WHEN query_canceled THEN
	canceled := true;
	took := clock_timestamp() - t0;
END
$$;
-- base64 of a 100 MB Bloom filter
SELECT took AS a FROM cancel_test_time('SELECT bloom_create(800000000, 3) IS NULL') \gset
SELECT took AS d FROM cancel_test_time('SELECT length(bloom_create(800000000, 3)::text)') \gset
SET statement_timeout = '300ms';
SELECT canceled, took AS s FROM cancel_test_time('SELECT length(bloom_create(800000000, 3)::text)') \gset
RESET statement_timeout;
SELECT :'canceled' AS canceled,
	:'d'::interval - :'a'::interval > interval '600 ms' AS output_outlasts_the_timeout,
	:'s'::interval < :'a'::interval + (:'d'::interval - :'a'::interval) / 2 AS stopped_early;
-- the session goes on
SELECT bloom_contains(bloom_add(bloom_empty(100, 0.01), 42), 42) AS still_works;
DROP FUNCTION cancel_test_time(text);
