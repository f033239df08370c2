-- Long calls on large filters stop soon after a statement timeout (or a
-- cancel): the loops over a filter's words, buckets or slots check for
-- interrupts.  The text output of a 100 MB filter runs for 4 s - 6 s on the
-- project's 2-core machines; without the checks the timeout's error came only
-- once the call returned.  The statement is given 300 ms and must stop within
-- 2 s (the function catches the cancel and says when it came).  Allocating
-- and detoasting large values is not interruptible (the text input of the
-- same filter still takes 2 s - 3 s to stop, in detoasting and copying).
CREATE FUNCTION cancel_test_stops(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	t0 timestamptz := clock_timestamp();
BEGIN
	EXECUTE q;
	RETURN 'ran to completion';
EXCEPTION WHEN query_canceled THEN
	RETURN CASE WHEN clock_timestamp() - t0 < interval '2 s' THEN 'stopped within 2 s'
		ELSE 'stopped late: ' || (clock_timestamp() - t0)::text END;
END
$$;
SET statement_timeout = '300ms';
-- base64 of a 100 MB Bloom filter
SELECT cancel_test_stops('SELECT length(bloom_create(800000000, 3)::text)') AS bloom_text;
RESET statement_timeout;
-- the session goes on
SELECT bloom_contains(bloom_add(bloom_empty(100, 0.01), 42), 42) AS still_works;
DROP FUNCTION cancel_test_stops(text);
