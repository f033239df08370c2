-- bloom benchmarks (issue 2): bloom_agg against hll_add_agg, probing against a hash semi-join
\set n_agg (5000000 * :scale)::int
SELECT 1;
