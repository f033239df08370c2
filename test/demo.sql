-- bloomfilter demo: run by `make demo` against a throwaway cluster
\pset footer off
CREATE EXTENSION bloomfilter;

-- An analyst's rollup: which users were seen each day, as one small filter per day
-- (30 days of page views by up to 200,000 users; a filter sized for 100,000 users at 1%)
CREATE TABLE page_views AS
SELECT current_date - (i % 30) AS day, (abs(hashint4(i)) % 200000) AS user_id
FROM generate_series(1, 1000000) i;

CREATE TABLE daily_users AS
SELECT day, bloom_agg(user_id, 100000, 0.01) AS users, count(DISTINCT user_id) AS exact_users
FROM page_views GROUP BY day;

SELECT day, exact_users, bloom_cardinality(users) AS estimated_users,
       pg_size_pretty(pg_column_size(users)::bigint) AS filter_size
FROM daily_users ORDER BY day DESC LIMIT 5;

-- Without a capacity, bloom_agg sizes the filter to the data: one filter of all users, at 1%
SELECT members, size_bytes, estimated_cardinality, round(estimated_fpr::numeric, 4) AS estimated_fpr,
       (SELECT count(DISTINCT user_id) FROM page_views) AS exact_users
FROM bloom_info((SELECT bloom_agg(user_id) FROM page_views));

-- Union the last 7 days into a weekly rollup, without going back to page_views
CREATE TABLE weekly AS
SELECT bloom_union_agg(users) AS users FROM daily_users WHERE day > current_date - 7;
SELECT (SELECT count(DISTINCT user_id) FROM page_views WHERE day > current_date - 7) AS exact_weekly,
       bloom_cardinality(users) AS estimated_weekly,
       round(bloom_fpr(users)::numeric, 4) AS fpr_now
FROM weekly;

-- Probes: "has this user been seen this week?"  false means certainly not
SELECT u AS user_id, users @> u AS maybe_seen,
       EXISTS (SELECT 1 FROM page_views WHERE day > current_date - 7 AND user_id = u) AS really_seen
FROM weekly, unnest(ARRAY[17, 4242, 199999, 250000, 300001]) u;

-- Everything the filter knows about itself
SELECT * FROM bloom_info((SELECT users FROM weekly));

-- Users seen on every one of the last 3 days: the intersection never misses one,
-- and may report a few more (false positives)
SELECT count(*) AS loyal_candidates,
       (SELECT count(*) FROM (SELECT user_id FROM page_views WHERE day > current_date - 3
                              GROUP BY user_id HAVING count(DISTINCT day) = 3) e) AS exact_loyal
FROM (SELECT bloom_intersect_agg(users) AS f FROM daily_users WHERE day > current_date - 3) s,
     generate_series(0, 199999) u
WHERE f @> u;

-- An application check: is this password in the breached list?  (no round trip to the big table)
CREATE TABLE breached AS SELECT bloom_agg(md5(i::text), 500000, 0.001) AS f FROM generate_series(1, 500000) i;
SELECT pw, (SELECT f FROM breached) @> md5(pw) AS maybe_breached
FROM unnest(ARRAY['1', '123456', 'correct horse battery staple']) pw;

-- The text form: parameters at a glance, payload in base64
SELECT bloom_add(bloom_create(64, 3), 'hello'::text)::text AS text_form;

-- Counting Bloom filters can delete: a rolling 7-day filter over a small log of logins,
-- O(1) per row (the window's inverse function removes the row leaving the frame)
CREATE TABLE logins AS
SELECT current_date - (i % 14) AS day, (abs(hashint4(i)) % 300) AS user_id FROM generate_series(1, 1400) i;
SELECT day, countingbloom_cardinality(last_7_days) AS users_last_7_days, last_7_days @> 42 AS user_42_seen
FROM (SELECT day, countingbloom_agg(user_id, 1000, 0.01)
             OVER (ORDER BY day RANGE BETWEEN '6 days' PRECEDING AND CURRENT ROW) AS last_7_days,
             row_number() OVER (PARTITION BY day) AS rn
      FROM logins) s
WHERE rn = 1 ORDER BY day DESC LIMIT 3;
SELECT countingbloom_count(countingbloom_add(countingbloom_add(countingbloom_empty(100), 7), 7), 7) AS added_twice,
       countingbloom_remove(countingbloom_add(countingbloom_empty(100), 7), 7) @> 7 AS after_remove;

-- Quotient filters: exact cardinality in fingerprints, resize and merge without rehashing
CREATE TABLE qf AS SELECT quotientfilter_agg(user_id, 200000, 0.01) AS f FROM page_views WHERE day = current_date;
SELECT quotientfilter_cardinality(f) AS fingerprints, (quotientfilter_info(f)).load_factor,
       quotientfilter_cardinality(quotientfilter_resize(f, (quotientfilter_info(f)).q + 1)) AS after_resize
FROM qf;

-- Cuckoo filters: delete and count copies; at a low false-positive rate and a nearly full
-- (power-of-two) table they are smaller than a Bloom filter
CREATE TABLE pw AS SELECT md5(i::text) AS h FROM generate_series(1, 990000) i;
SELECT (cuckoofilter_info(c)).load_factor,
       pg_size_pretty(pg_column_size(c)::bigint) AS cuckoo_size,
       pg_size_pretty(pg_column_size(b)::bigint) AS bloom_size,
       cuckoofilter_count(cuckoofilter_add(c, md5('1')), md5('1')) AS copies_of_1
FROM (SELECT cuckoofilter_agg(h, 990000, 0.001) AS c, bloom_agg(h, 990000, 0.001) AS b FROM pw) s;

-- The pagebloom index: equality on any combination of columns of a wide table, one small index
CREATE TABLE wide AS
SELECT (random() * 1000000)::int AS i1, (random() * 1000000)::int AS i2, (random() * 1000000)::int AS i3,
       (random() * 1000000)::int AS i4, (random() * 1000000)::int AS i5, (random() * 1000000)::int AS i6
FROM generate_series(1, 1000000);
CREATE INDEX wide_pagebloom ON wide USING pagebloom (i1, i2, i3, i4, i5, i6);
ANALYZE wide;
SELECT pg_size_pretty(pg_relation_size('wide')) AS table_size,
       pg_size_pretty(pg_relation_size('wide_pagebloom')) AS index_size;
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, BUFFERS) SELECT * FROM wide WHERE i2 = 898732 AND i5 = 123451;
-- one column: the default rate, derived from the table, lets about one false heap page through
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, BUFFERS) SELECT * FROM wide WHERE i4 = 4242;
SELECT pages_per_range, block_bits, signature_bits, k, ranges, round(target_fpr::numeric, 6) AS target_fpr,
       round(fill_ratio::numeric, 3) AS fill_ratio, round(estimated_fpr::numeric, 6) AS estimated_fpr
FROM pagebloom_info('wide_pagebloom');
