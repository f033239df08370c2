-- countingbloom_agg as a sliding-window aggregate (moving-aggregate inverse):
-- every window's filter equals the filter recomputed from that window's rows,
-- with and without saturated counters, ROWS and RANGE frames, partitions,
-- FILTER and NULL elements
SET max_parallel_workers_per_gather = 0;

-- 20000 events over 200 days, elements repeat, every 50th is NULL
CREATE TABLE cb_events AS
SELECT i AS id, 1 + (i - 1) / 100 AS day,
	CASE WHEN i % 50 = 0 THEN NULL ELSE (i * 7919) % 3000 END AS x,
	'user-' || ((i * 31) % 1000) AS u
FROM generate_series(1, 20000) i;
CREATE INDEX ON cb_events (id);
CREATE INDEX ON cb_events (day);
ANALYZE cb_events;

-- 1. ROWS BETWEEN 6 PRECEDING AND CURRENT ROW against per-row recomputation
CREATE TABLE cb_w1 AS
SELECT id, countingbloom_agg(x, 100, 0.01) OVER (ORDER BY id ROWS BETWEEN 6 PRECEDING AND CURRENT ROW) AS w
FROM cb_events;
SELECT count(*) AS windows,
	count(*) FILTER (WHERE w::text = (SELECT countingbloom_agg(e.x, 100, 0.01)::text FROM cb_events e
									  WHERE e.id BETWEEN cb_w1.id - 6 AND cb_w1.id)) AS equal_to_recomputed,
	count(*) FILTER (WHERE (countingbloom_info(w)).inserts = least(id, 7) - (SELECT count(*) FROM cb_events e
		WHERE e.id BETWEEN cb_w1.id - 6 AND cb_w1.id AND e.x IS NULL)) AS inserts_are_non_null_rows
FROM cb_w1;
-- each window holds its 7 rows and, being exact, nothing that left it
SELECT count(*) FILTER (WHERE NOT w @> e.x) AS false_negatives
FROM cb_w1 JOIN cb_events e ON e.id BETWEEN cb_w1.id - 6 AND cb_w1.id WHERE e.x IS NOT NULL;

-- the one-argument form, sized by the constant defaults, on text elements
-- (480 kB filters: 300 windows; all 20000 took most of this test's time)
CREATE TABLE cb_w2 AS
SELECT id, countingbloom_agg(u) OVER (ORDER BY id ROWS BETWEEN 6 PRECEDING AND CURRENT ROW) AS w
FROM cb_events WHERE id <= 300;
SELECT count(*) AS windows,
	count(*) FILTER (WHERE w::text = (SELECT countingbloom_agg(e.u)::text FROM cb_events e
									  WHERE e.id BETWEEN cb_w2.id - 6 AND cb_w2.id)) AS equal_to_recomputed,
	count(DISTINCT (countingbloom_info(w)).m) AS one_size
FROM cb_w2;

-- 2. saturation inside the frame: two elements in 40-row frames reach 15 on
-- their counters; the inverse refuses to take a saturated counter down, so the
-- frame is recomputed and still equals the recomputed filter
CREATE TABLE cb_w3 AS
SELECT id, countingbloom_agg(id % 2, 100, 0.01) OVER (ORDER BY id ROWS BETWEEN 39 PRECEDING AND CURRENT ROW) AS w
FROM cb_events WHERE id <= 3000;
SELECT count(*) AS windows,
	count(*) FILTER (WHERE w::text = (SELECT countingbloom_agg(e.id % 2, 100, 0.01)::text FROM cb_events e
									  WHERE e.id BETWEEN cb_w3.id - 39 AND cb_w3.id)) AS equal_to_recomputed,
	count(*) FILTER (WHERE (countingbloom_info(w)).counters_saturated > 0) > 2500 AS mostly_saturated,
	max(countingbloom_count(w, 0)) AS max_count
FROM cb_w3;
-- the same with frames that drop in and out of saturation (x repeats 1..29 times)
CREATE TABLE cb_w4 AS
SELECT id, countingbloom_agg(id % (1 + id / 100), 100, 0.01) OVER (ORDER BY id ROWS BETWEEN 29 PRECEDING AND CURRENT ROW) AS w
FROM cb_events WHERE id <= 3000;
SELECT count(*) AS windows,
	count(*) FILTER (WHERE w::text = (SELECT countingbloom_agg(e.id % (1 + e.id / 100), 100, 0.01)::text FROM cb_events e
									  WHERE e.id BETWEEN cb_w4.id - 29 AND cb_w4.id)) AS equal_to_recomputed,
	count(*) FILTER (WHERE (countingbloom_info(w)).counters_saturated > 0) BETWEEN 100 AND 2900 AS some_saturated
FROM cb_w4;

-- 3. RANGE frames over days (700 rows per frame), a filter sized for 1000
-- elements and an overloaded one (many saturated counters), against
-- per-day recomputation
CREATE TABLE cb_w5 AS
SELECT day,
	countingbloom_agg(x, 1000, 0.01) OVER w AS sized,
	countingbloom_agg(x, 50, 0.01) OVER w AS overloaded
FROM cb_events WINDOW w AS (ORDER BY day RANGE BETWEEN 6 PRECEDING AND CURRENT ROW);
-- (the overloaded plain aggregates warn once each: not shown here)
SET client_min_messages = error;
CREATE TABLE cb_d5 AS
SELECT d.day,
	(SELECT countingbloom_agg(x, 1000, 0.01) FROM cb_events e WHERE e.day BETWEEN d.day - 6 AND d.day) AS sized,
	(SELECT countingbloom_agg(x, 50, 0.01) FROM cb_events e WHERE e.day BETWEEN d.day - 6 AND d.day) AS overloaded
FROM generate_series(1, 200) d(day);
RESET client_min_messages;
SELECT count(*) AS rows, count(*) FILTER (WHERE w.sized::text = d.sized::text) AS sized_equal,
	count(*) FILTER (WHERE w.overloaded::text = d.overloaded::text) AS overloaded_equal,
	count(*) FILTER (WHERE (countingbloom_info(w.overloaded)).counters_saturated > 0) > 15000 AS overloaded_mostly_saturated
FROM cb_w5 w JOIN cb_d5 d USING (day);

-- 4. partitions, a frame reaching forward, and FILTER
CREATE TABLE cb_p AS
SELECT id, day % 4 AS part, row_number() OVER (PARTITION BY day % 4 ORDER BY id) AS rn, x
FROM cb_events WHERE day <= 40;
CREATE INDEX ON cb_p (part, rn);
ANALYZE cb_p;
CREATE TABLE cb_w6 AS
SELECT id, countingbloom_agg(x, 100, 0.01) FILTER (WHERE x % 3 <> 0)
	OVER (PARTITION BY part ORDER BY id ROWS BETWEEN 9 PRECEDING AND 2 FOLLOWING) AS w
FROM cb_p;
SELECT count(*) AS windows,
	count(*) FILTER (WHERE w::text = (SELECT countingbloom_agg(q.x, 100, 0.01) FILTER (WHERE q.x % 3 <> 0)
		FROM cb_p q WHERE q.part = p.part AND q.rn BETWEEN p.rn - 9 AND p.rn + 2)::text) AS equal_to_recomputed
FROM cb_w6 JOIN cb_p p USING (id);

-- 5. an empty frame: PostgreSQL does not show a window aggregate's final
-- function its arguments, so the empty filter is sized by the constant defaults
SELECT id, (countingbloom_info(w)).m, (countingbloom_info(w)).inserts,
	(countingbloom_info(w)).counters_nonzero,
	(countingbloom_info(w)).m = (countingbloom_info(countingbloom_empty(100000, 0.01))).m AS default_size
FROM (SELECT id, countingbloom_agg(x, 100, 0.01) OVER (ORDER BY id ROWS BETWEEN 3 PRECEDING AND 1 PRECEDING) AS w
	  FROM cb_events WHERE id <= 3) s ORDER BY id;

DROP TABLE cb_events, cb_w1, cb_w2, cb_w3, cb_w4, cb_w5, cb_d5, cb_p, cb_w6;
