-- Benchmark helpers, loaded before every test/bench/*.sql script.
-- Each figure is measured side by side with its baseline in the same server:
-- bench.timeit runs a query several times and returns the median in ms, and
-- bench.report prints one row per figure with the ratio and its target.
CREATE SCHEMA IF NOT EXISTS bench;

CREATE TABLE IF NOT EXISTS bench.results (
	id serial PRIMARY KEY,
	suite text, figure text, value float8, baseline_name text, baseline float8,
	ratio float8, target text, unit text
);

-- Median wall time in ms of running a query (its result is discarded)
CREATE OR REPLACE FUNCTION bench.timeit(query text, runs int DEFAULT 3) RETURNS float8
LANGUAGE plpgsql AS $$
DECLARE
	t0 timestamptz;
	times float8[] := '{}';
	i int;
BEGIN
	FOR i IN 1..runs LOOP
		t0 := clock_timestamp();
		EXECUTE query;
		times := times || (extract(epoch FROM clock_timestamp() - t0) * 1000)::float8;
	END LOOP;
	RETURN (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY x) FROM unnest(times) x);
END $$;

-- Alternate runs of two queries (a, b, a, b, ...) and return both medians,
-- so that load on the machine hits both alike
CREATE OR REPLACE FUNCTION bench.compare(query_a text, query_b text, runs int DEFAULT 3,
	OUT a_ms float8, OUT b_ms float8)
LANGUAGE plpgsql AS $$
DECLARE
	t0 timestamptz;
	ta float8[] := '{}';
	tb float8[] := '{}';
	i int;
BEGIN
	FOR i IN 1..runs LOOP
		t0 := clock_timestamp();
		EXECUTE query_a;
		ta := ta || (extract(epoch FROM clock_timestamp() - t0) * 1000)::float8;
		t0 := clock_timestamp();
		EXECUTE query_b;
		tb := tb || (extract(epoch FROM clock_timestamp() - t0) * 1000)::float8;
	END LOOP;
	a_ms := (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY x) FROM unnest(ta) x);
	b_ms := (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY x) FROM unnest(tb) x);
END $$;

-- Record a figure: value against baseline, with the target as text (e.g. '<= 0.5')
CREATE OR REPLACE FUNCTION bench.report(suite text, figure text, value float8,
	baseline_name text, baseline float8, target text DEFAULT '', unit text DEFAULT 'ms')
RETURNS void LANGUAGE sql AS $$
	INSERT INTO bench.results (suite, figure, value, baseline_name, baseline, ratio, target, unit)
	VALUES (suite, figure, value, baseline_name, baseline,
			CASE WHEN baseline > 0 THEN value / baseline END, target, unit);
$$;
