-- partitionwise aggregation: a Finalize Aggregate over an Append of one
-- Partial Aggregate per partition.  The final function finds the aggregate's
-- constant capacity and fpr through the Append (its first child), as through
-- a Gather: over no rows the requested empty filter, and a quotient filter
-- within its capacity byte for byte the serial one.
CREATE SCHEMA agg_partitionwise_test;
SET search_path = agg_partitionwise_test, public;
CREATE TABLE pw (id int, x int) PARTITION BY RANGE (id);
CREATE TABLE pw1 PARTITION OF pw FOR VALUES FROM (0) TO (100000);
CREATE TABLE pw2 PARTITION OF pw FOR VALUES FROM (100000) TO (200000);
INSERT INTO pw SELECT i, i FROM generate_series(0, 199999) i;
ANALYZE pw;
SET max_parallel_workers_per_gather = 0;

SET enable_partitionwise_aggregate = off;
CREATE TEMP TABLE ser AS SELECT
	(SELECT quotientfilter_agg(x, 210000, 0.01) FROM pw) AS qf_full,
	(SELECT quotientfilter_agg(x, 210000, 0.01) FROM pw WHERE id % 4 = 0) AS qf_quarter;

SET enable_partitionwise_aggregate = on;
EXPLAIN (COSTS OFF) SELECT quotientfilter_agg(x, 1000, 0.001) FROM pw WHERE x < 0;
-- over no rows: the requested parameters, not the defaults
SELECT bloom_agg(x, 1000, 0.001) = bloom_empty(1000, 0.001) AS bloom,
	bloom_agg(x, 0.001)::text = (SELECT bloom_agg(x, 0.001)::text FROM pw1 WHERE x < 0) AS bloom_selfsized,
	countingbloom_agg(x, 1000, 0.001) = countingbloom_empty(1000, 0.001) AS countingbloom,
	quotientfilter_agg(x, 1000, 0.001) = quotientfilter_empty(1000, 0.001) AS quotientfilter,
	cuckoofilter_agg(x, 1000, 0.001) = cuckoofilter_empty(1000, 0.001) AS cuckoofilter
FROM pw WHERE x < 0;
-- the serial fingerprint length, also for a state fuller than half its table
SELECT (SELECT quotientfilter_agg(x, 210000, 0.01) FROM pw) = qf_full AS full_equal,
	(SELECT quotientfilter_agg(x, 210000, 0.01) FROM pw WHERE id % 4 = 0) = qf_quarter AS quarter_equal,
	(quotientfilter_info((SELECT quotientfilter_agg(x, 210000, 0.01) FROM pw))).fingerprint_bits
FROM ser;

-- the same under Gather (Parallel Append)
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
EXPLAIN (COSTS OFF) SELECT quotientfilter_agg(x, 210000, 0.01) FROM pw;
SELECT (SELECT quotientfilter_agg(x, 210000, 0.01) FROM pw) = qf_full AS full_equal,
	(SELECT quotientfilter_agg(x, 1000, 0.001) FROM pw WHERE x < 0) = quotientfilter_empty(1000, 0.001) AS empty_equal
FROM ser;

RESET ALL;
DROP SCHEMA agg_partitionwise_test CASCADE;
