-- Self-sized bloom filters: bloom_agg(x), bloom_agg(x, fpr), bloom_empty(),
-- bloom_empty_self_sized(fpr).  Ground truth at every scale from 1 to 50M
-- distinct elements: no false negatives, the false-positive rate measured on
-- values not in the set within 1.25x of the target, the size within 2x of a
-- fixed filter sized with the true count.
CREATE SCHEMA bloom_ss;
SET search_path = bloom_ss, public;

-- One self-sized filter of n distinct bigints (1..n, spread by a multiplier),
-- checked against the truth: every member found, the rate measured on
-- `probes` negative values (never members), the size against bloom_empty(n, fpr).
-- probes defaults to 1000 / fpr: a filter at its target shows about 1000 false
-- positives, and the bound (1.25x) is 250 above, about 8 standard deviations.
-- generate_series in a select list streams its rows (in FROM it fills a
-- tuplestore first).  The n elements are probed from a table, in 8 parts that
-- a parallel plan shares out among its processes (50M probes; a variable would
-- be planned as a constant, which every worker would have to parse).
CREATE TABLE checked (f bloom);
CREATE FUNCTION check_agg(n bigint, fpr float8 DEFAULT 0.01, probes int DEFAULT NULL,
	OUT n_elements bigint, OUT members int, OUT false_negatives bigint,
	OUT fpr_within boolean, OUT size_within boolean, OUT cardinality_within boolean)
LANGUAGE plpgsql AS $$
DECLARE
	f bloom;
	fp bigint;
	probed bigint;
	info record;
BEGIN
	probes := coalesce(probes, ceil(1000 / fpr));
	IF fpr = 0.01 THEN
		SELECT bloom_agg(i * 2654435761) INTO f FROM (SELECT generate_series(1, n) i) s;
	ELSE
		SELECT bloom_agg(i * 2654435761, fpr) INTO f FROM (SELECT generate_series(1, n) i) s;
	END IF;
	TRUNCATE checked;
	INSERT INTO checked VALUES (f);
	n_elements := n;
	info := bloom_info(f);
	members := info.members;
	EXECUTE 'SELECT count(*) FILTER (WHERE NOT (SELECT f FROM checked) @> (i * 2654435761)), count(*) FROM ('
		|| (SELECT string_agg(format('SELECT i FROM generate_series($1 * %s / 8 + 1, $1 * %s / 8) i', j, j + 1),
			' UNION ALL ') FROM generate_series(0, 7) j) || ') s' INTO false_negatives, probed USING n;
	IF probed <> n THEN
		RAISE EXCEPTION 'probed % of % elements', probed, n;
	END IF;
	SELECT count(*) INTO fp FROM (SELECT generate_series(1, probes) i) s WHERE f @> (-i);
	fpr_within := fp::float8 / probes <= 1.25 * fpr;
	size_within := pg_column_size(f) <= 2 * pg_column_size(bloom_empty(n, fpr));
	cardinality_within := abs(info.estimated_cardinality - n) <= greatest(2, 0.02 * n);
END $$;

SELECT * FROM check_agg(1);
SELECT * FROM check_agg(2);
SELECT * FROM check_agg(10);
SELECT * FROM check_agg(1000);
SELECT * FROM check_agg(100000);
SELECT * FROM check_agg(1000000);
SELECT * FROM check_agg(5000000);
-- past the 16M-hash list the aggregate seals members as it goes: 50M is three members
SELECT * FROM check_agg(50000000);
-- another target
SELECT * FROM check_agg(1000000, 0.001);
SELECT * FROM check_agg(30, 0.2);
-- loose targets at volume: the union reserve (1.7x the bits of a sized filter) stays within 2x there too
SELECT * FROM check_agg(200000, 0.1);
SELECT * FROM check_agg(200000, 0.2);
-- the union reserve: 1.7x the bits of a filter sized at the target, the k of one sized at half
-- of it; at 0.1 for 1000 elements that is m = 8192, k = 4 (without it: 6272, 4); above a target
-- of about 0.37 the member is sized at half the target, as it was before the reserve
SELECT p, m, k, m = (ceil(1.7 * 1000 * ln(1 / p) / ln(2) ^ 2 / 64) * 64)::bigint AS reserve_bits
FROM (VALUES (0.1::float8), (0.01), (0.001)) v(p),
	LATERAL bloom_info((SELECT bloom_agg(x, p) FROM generate_series(1, 1000) x)) i;
SELECT m, k FROM bloom_info((SELECT bloom_agg(x, 0.5) FROM generate_series(1, 1000) x));
-- the seal sets the bits of many hashes in flight (16 ahead): exactly the bits of a fixed filter
-- of the same m and k built one element at a time
SELECT f @> g AND g @> f AS same_bits, (bloom_info(f)).bits_set = (bloom_info(g)).bits_set AS same_count
FROM (SELECT bloom_agg(x) AS f FROM generate_series(1, 100000) x) a,
	LATERAL (SELECT bloom_add(bloom_create((bloom_info(f)).m, (bloom_info(f)).k),
		ARRAY(SELECT generate_series(1, 100000)::bigint)) AS g) b;

-- small sets stay small: one element is 80 bytes (header, member header, one word)
SELECT pg_column_size(bloom_agg(x)) AS one_element_bytes FROM (VALUES (42)) v(x);
SELECT size_bytes, m, k, members, self_sized, target_fpr FROM bloom_info((SELECT bloom_agg(x) FROM generate_series(1, 100) x));

-- duplicates do not inflate it: 2M rows of 1000 distinct values size as 1000
SELECT pg_column_size(f) = pg_column_size((SELECT bloom_agg(x) FROM generate_series(1, 1000) x)) AS same_size,
	(bloom_info(f)).estimated_cardinality BETWEEN 980 AND 1020 AS cardinality_ok,
	f = (SELECT bloom_agg(x) FROM generate_series(1, 1000) x) AS same_filter
FROM (SELECT bloom_agg(i % 1000 + 1) AS f FROM generate_series(0, 1999999) i) s;
-- nor past the exactly counted list length: 700k distinct values and 400k repeats (a list of
-- 1.1M hashes, which keeps repeats under half of it) are counted exactly, as the 700k alone are
-- (the list's set is estimated small, then counted; the estimate alone gave another m)
SELECT f = (SELECT bloom_agg(x::int8) FROM generate_series(1, 700000) x) AS same_filter_long_list,
	(bloom_info(f)).m = (bloom_info((SELECT bloom_agg(x::int8) FROM generate_series(1, 700000) x))).m AS same_m
FROM (SELECT bloom_agg(x) AS f FROM (SELECT g::int8 AS x FROM generate_series(1, 700000) g
	UNION ALL SELECT g::int8 FROM generate_series(1, 400000) g) u) s;

-- NULLs skipped; no rows (or only NULLs): the empty self-sized filter
SELECT bloom_agg(x) = bloom_empty() AS no_rows FROM generate_series(1, 0) x;
SELECT bloom_agg(NULL::int) = bloom_empty() AS only_nulls FROM generate_series(1, 10);
SELECT bloom_agg(x) = bloom_agg(y) AS nulls_skipped
FROM (SELECT x, CASE WHEN x % 3 = 0 THEN NULL ELSE x END AS y FROM generate_series(1, 1000) x) s
WHERE x % 3 <> 0;
SELECT bloom_empty()::text AS empty_text, bloom_empty_self_sized(0.001, 7)::text AS empty_text_fpr;

-- GROUP BY and FILTER: each group's filter against the group's rows
CREATE TABLE events AS
SELECT i AS id, (i % 50) AS day, (i::bigint * 7919) % 200003 AS item FROM generate_series(1, 400000) i;
ANALYZE events;
CREATE TABLE daily AS
SELECT day, bloom_agg(item) AS f, bloom_agg(item) FILTER (WHERE id % 3 = 0) AS f_third FROM events GROUP BY day;
SELECT count(*) FILTER (WHERE NOT d.f @> e.item) AS false_negatives,
	count(*) FILTER (WHERE e.id % 3 = 0 AND NOT d.f_third @> e.item) AS false_negatives_third
FROM events e JOIN daily d USING (day);
SELECT count(*) AS groups, bool_and((bloom_info(f)).estimated_cardinality BETWEEN 7800 AND 8200) AS sized_for_group,
	bool_and(pg_column_size(f_third) < pg_column_size(f)) AS filter_smaller
FROM daily;

-- parallel aggregation: the same filter as the serial plan
SET max_parallel_workers_per_gather = 0;
CREATE TABLE serial AS SELECT bloom_agg(item) AS f, bloom_agg(id, 0.001) AS g FROM events;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
SET parallel_leader_participation = off;
EXPLAIN (COSTS OFF) SELECT bloom_agg(item) FROM events;
SELECT (SELECT f FROM serial) = p.f AS same_default, (SELECT g FROM serial) = p.g AS same_fpr
FROM (SELECT bloom_agg(item) AS f, bloom_agg(id, 0.001) AS g FROM events) p;
RESET max_parallel_workers_per_gather;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
RESET parallel_leader_participation;

-- window frames: a running filter holds every row so far
SELECT bool_and(f @> x) AS running_holds_current, bool_and(f @> 1) AS running_holds_first
FROM (SELECT x, bloom_agg(x) OVER (ORDER BY x) AS f FROM generate_series(1, 300) x) s;

-- bloom_add from bloom_empty(): one member of fingerprint levels, rebuilt on each add.  The goal
-- against the truth at every size: the rate measured on 1000 / fpr non-members (as in check_agg)
-- within 1.25x the target, the size within 2x of bloom_empty(n, fpr), for fpr 0.01 (bloom_empty())
-- and 0.001.
CREATE FUNCTION grow(n int, chunk int, fpr float8 DEFAULT 0.01) RETURNS bloom LANGUAGE plpgsql AS $$
DECLARE
	f bloom := CASE WHEN fpr = 0.01 THEN bloom_empty() ELSE bloom_empty_self_sized(fpr) END;
	a int := 1;
BEGIN
	WHILE a <= n LOOP
		f := bloom_add(f, ARRAY(SELECT i * 2654435761 FROM generate_series(a, least(n, a + chunk - 1)) i));
		a := a + chunk;
	END LOOP;
	RETURN f;
END $$;
CREATE TABLE grown AS SELECT n, p, grow(n, 5000, p) AS f
FROM (VALUES (1), (2), (3), (5), (10), (16), (17), (64), (65), (100), (1000), (4096), (100000), (400000)) v(n),
	(VALUES (0.01::float8), (0.001)) q(p);
CREATE FUNCTION check_grown(f bloom, n int, p float8, probes int DEFAULT NULL,
	OUT members int, OUT false_negatives bigint, OUT fpr_vs_target numeric, OUT fpr_within boolean,
	OUT size_vs_sized numeric, OUT size_within boolean)
LANGUAGE plpgsql AS $$
DECLARE
	fp bigint;
BEGIN
	probes := coalesce(probes, ceil(1000 / p));	-- as in check_agg
	members := (bloom_info(f)).members;
	SELECT count(*) INTO false_negatives FROM (SELECT generate_series(1, n) i) s WHERE NOT f @> (i * 2654435761);
	SELECT count(*) INTO fp FROM (SELECT generate_series(1, probes) i) s WHERE f @> (-i);
	fpr_vs_target := round((fp::float8 / probes / p)::numeric, 2);
	fpr_within := fp::float8 / probes <= 1.25 * p;
	size_vs_sized := round(pg_column_size(f)::numeric / pg_column_size(bloom_empty(n, p)), 2);
	size_within := pg_column_size(f) <= 2 * pg_column_size(bloom_empty(n, p));
END $$;
SELECT n, p, c.* FROM grown, check_grown(f, n, p) c ORDER BY p DESC, n;
-- millions: 2M elements in arrays of 20000
SELECT n, p, c.* FROM (SELECT 2000000 AS n, p, grow(2000000, 20000, p) AS f FROM (VALUES (0.01::float8), (0.001)) q(p)) s,
	check_grown(f, n, p) c ORDER BY p DESC;
-- bloom_info: one member, no Bloom positions (k 0), the estimate counts the fingerprints
SELECT n, (bloom_info(f)).m, (bloom_info(f)).k, (bloom_info(f)).size_bytes, (bloom_info(f)).estimated_cardinality,
	(bloom_info(f)).estimated_fpr < p AS estimate_under_target
FROM grown WHERE n IN (1, 1000, 400000) ORDER BY p DESC, n;
-- one element at a time (arrays of one, or single elements) gives the same filter as arrays
SELECT grow(3000, 1) = grow(3000, 5000) AS one_by_one_same;
DO $$
DECLARE
	f bloom := bloom_empty();
BEGIN
	FOR i IN 1..1000 LOOP
		f := bloom_add(f, i * 2654435761);
	END LOOP;
	IF f <> grow(1000, 300) THEN
		RAISE EXCEPTION 'single adds differ from arrays';
	END IF;
END $$;
-- a few values added to a big enough last level are inserted into its bits (shifting the rest)
-- instead of re-encoding it: the bytes must be those of the rebuild.  Every n from 1 to 5000 one
-- by one against one array, arrays of random sizes, and single adds and small arrays past 100k
-- (the last level's buckets double at 131072 elements, a level starts at 262144).  The elements
-- are built once, as an array, and each array add takes a slice of it.
DO $$
DECLARE
	f bloom := bloom_empty();
	g bloom;
	h bloom := bloom_empty();
	a int := 1;
	ch int;
	e bigint[] := ARRAY(SELECT i * 2654435761 FROM generate_series(1, 5000) i);
BEGIN
	FOR n IN 1..5000 LOOP
		f := bloom_add(f, n * 2654435761);
		g := bloom_add(bloom_empty(), e[1:n]);
		IF f <> g OR md5(f::text) <> md5(g::text) THEN
			RAISE EXCEPTION 'single adds differ from an array at n = %', n;
		END IF;
	END LOOP;
	PERFORM setseed(0.25);
	WHILE a <= 5000 LOOP
		ch := 1 + floor(random() * 40)::int;
		h := bloom_add(h, e[a:least(5000, a + ch - 1)]);
		a := a + ch;
	END LOOP;
	IF md5(h::text) <> md5(f::text) THEN
		RAISE EXCEPTION 'arrays of random sizes differ from one array';
	END IF;
END $$;
DO $$
DECLARE
	f bloom;
	g bloom;
	n0 int;
	n int;
	ch int;
	e bigint[] := ARRAY(SELECT i * 2654435761 FROM generate_series(1, 262130 + 29 + 64) i);
BEGIN
	PERFORM setseed(0.75);
	FOREACH n0 IN ARRAY ARRAY[99990, 131060, 262130] LOOP
		f := bloom_add(bloom_empty(), e[1:n0]);
		n := n0;
		WHILE n < n0 + 30 LOOP
			-- single elements, then arrays of 2 to 64
			ch := CASE WHEN n < n0 + 20 THEN 1 ELSE 2 + floor(random() * 63)::int END;
			IF ch = 1 THEN
				f := bloom_add(f, (n + 1) * 2654435761);
			ELSE
				f := bloom_add(f, e[n + 1:n + ch]);
			END IF;
			n := n + ch;
			g := bloom_add(bloom_empty(), e[1:n]);
			IF f <> g OR md5(f::text) <> md5(g::text) THEN
				RAISE EXCEPTION 'adds to a filter of % differ from an array at n = %', n0, n;
			END IF;
		END LOOP;
	END LOOP;
END $$;
-- adding an element it may hold already changes nothing but the counter
SELECT bloom_add(f, 5 * 2654435761) = f AS readd_same FROM grown WHERE n = 64 AND p = 0.01;
SELECT bloom_add(f, ARRAY[5 * 2654435761, 7 * 2654435761, 5 * 2654435761]) = f AS readd_array_same FROM grown WHERE n = 64 AND p = 0.01;
-- NULLs in the array are skipped; an empty array changes nothing
SELECT bloom_add(bloom_empty(), ARRAY[1, NULL, 2]) = bloom_add(bloom_empty(), ARRAY[1, 2]) AS nulls_skipped,
	bloom_add(bloom_empty(), '{}'::int[]) = bloom_empty() AS empty_array;
-- bloom_add after an aggregate's result: a fingerprint member after it, with the rate the result leaves
SELECT (bloom_info(g)).members, (bloom_info(g)).estimated_fpr < 0.01 AS under_target,
	(SELECT count(*) FROM generate_series(1, 12000) i WHERE NOT g @> (i * 2654435761)) AS false_negatives,
	bloom_add(g, 11000 * 2654435761) = g AS readd_same
FROM (SELECT bloom_add(bloom_agg(i * 2654435761), ARRAY(SELECT i * 2654435761 FROM generate_series(10001, 12000) i)) AS g
	  FROM generate_series(1, 10000) i) s;
-- a stored grown filter (out of line) probed by TOAST slices: the same answers as in memory
CREATE TABLE stored_grown AS SELECT f FROM grown WHERE n = 400000 AND p = 0.001;
SELECT pg_column_size(f) > 300000 AS out_of_line FROM stored_grown;
SELECT count(*) FILTER (WHERE (SELECT f FROM stored_grown) @> (i * 2654435761)) AS members_found,
	count(*) FILTER (WHERE (SELECT f FROM stored_grown) @> (-i)) =
	count(*) FILTER (WHERE (SELECT f | bloom_empty() FROM stored_grown) @> (-i)) AS same_false_positives
FROM generate_series(1, 100000) i;
SELECT (SELECT f FROM stored_grown) @> 399999 * 2654435761::bigint AS one_probe_by_slices;

-- unions of different sizes keep every element; the rate stays within 2x the target (measured on
-- 1000 / 0.01 non-members)
CREATE TABLE parts AS
SELECT 'small' AS part, bloom_agg(i * 2654435761) AS f FROM generate_series(1, 10000) i
UNION ALL
SELECT 'big', bloom_agg(i * 2654435761) FROM generate_series(10001, 1000000) i
UNION ALL
SELECT 'fixed', bloom_agg(i * 2654435761, 300000, 0.01) FROM generate_series(1000001, 1200000) i;
-- (the unions are computed once, into a table, then probed)
CREATE TABLE unions AS
SELECT (SELECT f FROM parts WHERE part = 'small') | (SELECT f FROM parts WHERE part = 'big') AS u,
	(SELECT f FROM parts WHERE part = 'small') | (SELECT f FROM parts WHERE part = 'fixed') AS a,
	(SELECT f FROM parts WHERE part = 'fixed') | (SELECT f FROM parts WHERE part = 'small') AS b,
	(SELECT bloom_union_agg(f) FROM parts) AS all3,
	(SELECT bloom_union_agg(f) FROM daily) AS days;
SELECT (bloom_info(u)).members,
	(SELECT count(*) FROM generate_series(1, 1000000) i WHERE NOT u @> (i * 2654435761)) AS false_negatives,
	(SELECT count(*) FROM generate_series(1, 100000) i WHERE u @> (-i)) / 1e5 <= 2 * 0.01 AS fpr_within_2x,
	(bloom_info(u)).overfilled
FROM unions;
-- with a fixed filter, on either side: it joins as a member; the order of members is canonical
SELECT (bloom_info(a)).members AS members_a, (bloom_info(b)).members AS members_b, a = b AS same,
	(SELECT count(*) FROM generate_series(1000001, 1200000) i WHERE NOT a @> (i * 2654435761)) AS false_negatives
FROM unions;
-- unions with grown filters: the fingerprint members of both in a canonical order; bloom_add then
-- grows the last fingerprint member.  (Each union is computed once, MATERIALIZED: a subquery would be
-- pulled up and the union computed again for every probe.)
WITH s AS MATERIALIZED (
	SELECT (SELECT f FROM grown WHERE n = 1000 AND p = 0.001) | (SELECT f FROM grown WHERE n = 100000 AND p = 0.01) AS u)
SELECT (bloom_info(u)).members, u = (SELECT f FROM grown WHERE n = 100000 AND p = 0.01) | (SELECT f FROM grown WHERE n = 1000 AND p = 0.001) AS commutes,
	(bloom_info(u)).target_fpr,
	(SELECT count(*) FROM generate_series(1, 100000) i WHERE NOT u @> (i * 2654435761)) AS false_negatives,
	(SELECT count(*) FROM generate_series(1, 100000) i WHERE u @> (-i)) / 1e5 <= 2 * 0.01 AS fpr_within_2x,
	(bloom_info(bloom_add(u, ARRAY[-1, -2]))).members AS members_after_add,
	bloom_add(u, ARRAY[-1, -2]) @> -2 AS added
FROM s;
WITH s AS MATERIALIZED (
	SELECT g | f AS gf FROM (SELECT f AS g FROM grown WHERE n = 1000 AND p = 0.01) s, parts WHERE part = 'fixed')
SELECT (bloom_info(gf)).members, (SELECT count(*) FROM generate_series(1000001, 1200000) i WHERE NOT gf @> (i * 2654435761)) AS false_negatives
FROM s;
-- x | x = x; the union aggregate
SELECT f | f = f AS union_idempotent FROM parts WHERE part = 'big';
SELECT (bloom_info(all3)).members,
	(SELECT count(*) FROM generate_series(1, 1200000) i WHERE NOT all3 @> (i * 2654435761)) AS false_negatives
FROM unions;
-- a union of many self-sized filters adds up their rates: 50 days of aggregate results (each about
-- 1/20 of the target) are past twice the target, and overfilled says so
SELECT (bloom_info(days)).members, (bloom_info(days)).overfilled,
	(SELECT count(*) FROM events e WHERE NOT days @> e.item) AS false_negatives
FROM unions;
-- unions of rollups (issue 11): 3, 10 and 30 groups of 100k, disjoint, and overlapping by half
-- with the next group.  Every element is kept; the rate is the rate of what the members accept, so
-- about the sum of their rates: no union can do better without the elements, since it must accept
-- whatever any input accepts (design.md).  An aggregate's result keeps a reserve of precision for
-- that (1.7x the bits of a filter sized for its group: about 1/20 of the target at 1%), so unions
-- of up to about 38 results stay within twice the target.  bloom_info reports the rate and
-- overfilled says when it is past twice the target.
CREATE TABLE rollups AS
SELECT 'disjoint' AS kind, d, bloom_agg(d * 100000 + j) AS f
FROM generate_series(0, 29) d, generate_series(1, 100000) j GROUP BY d
UNION ALL
SELECT 'overlapping', d, bloom_agg(d * 50000 + j)
FROM generate_series(0, 29) d, generate_series(1, 100000) j GROUP BY d;
CREATE TABLE rollup_unions AS
SELECT kind, n, bloom_union_agg(f) AS u, sum(pg_column_size(f)) AS input_bytes,
	1 - exp(sum(ln(1 - (bloom_info(f)).estimated_fpr))) AS inputs_rate,
	CASE kind WHEN 'disjoint' THEN n * 100000 ELSE (n + 1) * 50000 END AS elements
FROM rollups, (VALUES (3), (10), (30)) v(n) WHERE d < n GROUP BY kind, n;
SELECT kind, n, (bloom_info(u)).members,
	(SELECT count(*) FROM (SELECT generate_series(1, elements) i) s WHERE NOT u @> i) AS false_negatives,
	pg_column_size(u) <= input_bytes AS no_bigger_than_inputs,
	abs((bloom_info(u)).estimated_fpr - inputs_rate) < 1e-9 AS rate_of_members
FROM rollup_unions ORDER BY kind, n;
-- measured on 200k absent keys: as estimated (within 10%), within 2x the target, and so not
-- overfilled, up to 30 groups (a month of days)
SELECT kind, n, fp / 2e5 / (bloom_info(u)).estimated_fpr BETWEEN 0.9 AND 1.1 AS measured_as_estimated,
	fp / 2e5 <= 2 * 0.01 AS fpr_within_2x, (bloom_info(u)).overfilled
FROM (SELECT kind, n, u, (SELECT count(*) FROM (SELECT generate_series(1, 200000) i) s WHERE u @> (-i)) AS fp
	  FROM rollup_unions) s ORDER BY kind, n;
-- the size against one self-sized bloom_agg over all the elements: the same for disjoint groups
-- (each member is sized for its group), twice for groups overlapping by half
SELECT kind, round(pg_column_size(u)::numeric / pg_column_size(direct), 2) AS size_vs_direct
FROM rollup_unions r, LATERAL (SELECT bloom_agg(i) AS direct FROM generate_series(1, r.elements) i) a
WHERE n = 30 ORDER BY kind;
-- the order of the inputs does not matter: each input's members find their place in the state's
-- by a binary search when both are in the canonical order, by a sort when a side is not (an
-- aggregate's result grown by bloom_add: its big Bloom member, then a small fingerprint member)
CREATE TABLE grown_rollup AS
SELECT bloom_add(f, ARRAY[-1, -2, -3]) AS g FROM rollups WHERE kind = 'disjoint' AND d = 29;
SELECT (SELECT bloom_union_agg(f ORDER BY d DESC) FROM rollups WHERE kind = 'disjoint') = u AS any_order,
	(SELECT bloom_union_agg(f) FROM rollups WHERE kind = 'disjoint' AND d >= 15) |
	(SELECT bloom_union_agg(f) FROM rollups WHERE kind = 'disjoint' AND d < 15) = u AS halves,
	(SELECT bloom_union_agg(f ORDER BY o) FROM (SELECT g, 0 FROM grown_rollup UNION ALL
		SELECT f, d + 1 FROM rollups WHERE kind = 'disjoint' AND d < 29) x(f, o)) =
	(SELECT bloom_union_agg(f ORDER BY o DESC) FROM (SELECT g, 0 FROM grown_rollup UNION ALL
		SELECT f, d + 1 FROM rollups WHERE kind = 'disjoint' AND d < 29) x(f, o)) AS grown_any_order,
	(bloom_info(u | g)).members AS members_with_grown, (u | g) @> -2 AS grown_kept
FROM rollup_unions, grown_rollup WHERE kind = 'disjoint' AND n = 30;
-- the union aggregate keeps a large self-sized state as its members apart (an expanded object,
-- changed in place) and lays the value out once: the same bytes as the left fold of | over the
-- same inputs, also with a grown input (members out of order: the sort), a repeated input (its
-- members once) and a fixed filter (one more member); the window aggregate keeps plain states
WITH RECURSIVE inputs AS (
	SELECT row_number() OVER (ORDER BY o) AS i, f FROM (
		SELECT d::numeric AS o, f FROM rollups WHERE kind = 'disjoint' AND d < 12
		UNION ALL SELECT 100, g FROM grown_rollup
		UNION ALL SELECT 5.5, f FROM rollups WHERE kind = 'disjoint' AND d = 3
		UNION ALL SELECT 7.5, bloom_agg(x, 100000, 0.01) FROM generate_series(1, 1000) x) s),
fold(i, acc) AS (
	SELECT i, f FROM inputs WHERE i = 1
	UNION ALL
	SELECT n.i, fold.acc | n.f FROM fold JOIN inputs n ON n.i = fold.i + 1)
SELECT (SELECT bloom_union_agg(f ORDER BY i) FROM inputs)::text = acc::text AS same_as_fold,
	(SELECT bloom_union_agg(f ORDER BY i DESC) FROM inputs) = acc AS any_order,
	(SELECT w FROM (SELECT i, bloom_union_agg(f) OVER (ORDER BY i) AS w FROM inputs) x
	 ORDER BY i DESC LIMIT 1)::text = acc::text AS window_same,
	(bloom_info(acc)).members, pg_column_size(acc) > 65536 AS large
FROM fold WHERE i = (SELECT max(i) FROM inputs);
-- the result read by later rows (on PostgreSQL 16 and later the aggregate's own state, read in
-- place), and a filter of another seed after the state became an expanded one: 22023 naming the
-- state's whole value (12 members)
SELECT count(*) FILTER (WHERE NOT s.u @> (d * 100000 + j)) AS false_negatives, count(*) AS probes
FROM (SELECT bloom_union_agg(f) AS u FROM rollups WHERE kind = 'disjoint' AND d < 12) s,
	generate_series(0, 11) d, generate_series(1, 100000, 97) j;
SELECT bloom_union_agg(f ORDER BY o) FROM (SELECT d, f FROM rollups WHERE kind = 'disjoint' AND d < 12
	UNION ALL SELECT 99, bloom_empty(1000, 0.01, 7)) x(o, f);
\echo :LAST_ERROR_SQLSTATE
-- very different sizes: 10 elements with 990k, either way round and by the aggregate
CREATE TABLE tiny_big AS
SELECT t | b AS tb, b | t AS bt, (SELECT bloom_union_agg(f) FROM (VALUES (t), (b)) v(f)) AS agg
FROM (SELECT bloom_agg(i * 2654435761) AS t FROM generate_series(2000001, 2000010) i) s,
	(SELECT f AS b FROM parts WHERE part = 'big') p;
SELECT tb = bt AND tb = agg AS same, (bloom_info(tb)).members,
	(SELECT count(*) FROM generate_series(2000001, 2000010) i WHERE NOT tb @> (i * 2654435761)) +
	(SELECT count(*) FROM generate_series(10001, 1000000, 7) i WHERE NOT tb @> (i * 2654435761)) AS false_negatives,
	(SELECT count(*) FROM generate_series(1, 100000) i WHERE tb @> (-i)) / 1e5 <= 2 * 0.01 AS fpr_within_2x,
	(bloom_info(tb)).overfilled
FROM tiny_big;

-- intersection and filter containment need one bit array on each side
SELECT (f & f) = f AS self_intersection, f @> f AS contains_self FROM parts WHERE part = 'small';
SELECT f @> (SELECT bloom_agg(x) FROM generate_series(1, 10) x) AS contains_other_size FROM parts WHERE part = 'small';
\echo :LAST_ERROR_SQLSTATE
SELECT (SELECT f FROM parts WHERE part = 'small') & (SELECT f FROM parts WHERE part = 'big');
\echo :LAST_ERROR_SQLSTATE
SELECT all3 @> (SELECT f FROM parts WHERE part = 'big') FROM unions;
\echo :LAST_ERROR_SQLSTATE
SELECT f & f FROM grown WHERE n = 10 AND p = 0.01;
\echo :LAST_ERROR_SQLSTATE
SELECT f @> f FROM grown WHERE n = 10 AND p = 0.01;
\echo :LAST_ERROR_SQLSTATE
-- two filters of the same shape: & is correct (AND of the bits)
SELECT (a & b) @> 5 AS both_have_5, (a & b) @> 1 AS only_a_has_1
FROM (SELECT bloom_agg(x) AS a FROM generate_series(1, 100) x) s1,
	 (SELECT bloom_agg(x) AS b FROM generate_series(5, 104) x) s2;
-- & commutes: the result is self-sized when either side is (as for |), with the smaller
-- counts, capacity and target rate, whichever side came first; also for the aggregate
CREATE TEMP TABLE and_sides AS SELECT a, b,
	bloom_add(bloom_create((bloom_info(a)).m, (bloom_info(a)).k), array(SELECT generate_series(1, 600))) AS f
FROM (SELECT bloom_agg(x) AS a FROM generate_series(1, 1000) x) s1,
	 (SELECT bloom_agg(x) AS b FROM generate_series(500, 1500) x) s2;
SELECT a & b = b & a AS self_sized_commute, a & f = f & a AS mixed_commute,
	(bloom_info(a & f)).self_sized AS af_self_sized, (bloom_info(f & a)).self_sized AS fa_self_sized,
	(a & f) @> 600 AS has_600, (a & f) @> 700 AS has_700, (a & b) @> 700 AS ab_has_700,
	(SELECT bloom_intersect_agg(x ORDER BY o) FROM (VALUES (1, f), (2, a)) v(o, x)) =
		(SELECT bloom_intersect_agg(x ORDER BY o) FROM (VALUES (2, f), (1, a)) v(o, x)) AS agg_commutes,
	(SELECT bloom_intersect_agg(x) FROM (VALUES (f), (a)) v(x)) = a & f AS agg_is_and
FROM and_sides;
-- a different seed cannot be combined
SELECT bloom_empty_self_sized(0.01, 1) | bloom_empty();
\echo :LAST_ERROR_SQLSTATE

-- text and binary forms: round trips, and of the aggregate's state (a hash list) too
SELECT bloom_agg(x)::text FROM generate_series(1, 3) x;
SELECT bloom_agg_auto_trans(bloom_agg_auto_trans(NULL, 1), 2)::text AS state_text;
SELECT s @> 1 AS state_has_1, s @> 3 AS state_has_3, s::text::bloom = s AS state_roundtrip,
	bloom_agg_auto_final(s) = (SELECT bloom_agg(x) FROM generate_series(1, 2) x) AS final_of_state
FROM (SELECT bloom_agg_auto_trans(bloom_agg_auto_trans(NULL, 1), 2) AS s) q;
-- in an aggregate a state of 64 kB or more is kept as an expanded object
-- whose hash list doubles in place (doc/design.md "Aggregates"): a user's
-- aggregate without a final function returns that state, and it is the
-- same value as the state built call by call (bloom_send: every byte),
-- stored, printed and sealed alike; shared with bloom_agg(x) (same
-- transition and arguments), both results stand
CREATE AGGREGATE my_auto_state(anynonarray) (SFUNC = bloom_agg_auto_trans, STYPE = bloom);
CREATE FUNCTION auto_state_by_calls(n int) RETURNS bloom LANGUAGE plpgsql AS $$
DECLARE s bloom;
BEGIN
	FOR i IN 1 .. n LOOP s := bloom_agg_auto_trans(s, i); END LOOP;
	RETURN s;
END $$;
-- whether expanded states exist when the final function runs: 8192 hashes
-- fill a plain list of 64 kB, the 8193rd expands it; a window aggregate
-- keeps its state plain
CREATE FUNCTION count_state_contexts(bloom) RETURNS bigint LANGUAGE sql AS
	$$ SELECT count(*) FROM pg_backend_memory_contexts WHERE name = 'bloomfilter aggregate state' $$;
CREATE AGGREGATE expanded_probe(anynonarray) (SFUNC = bloom_agg_auto_trans, STYPE = bloom, FINALFUNC = count_state_contexts);
SELECT expanded_probe(x) AS at_8192 FROM generate_series(1, 8192) x;
SELECT expanded_probe(x) AS at_8193 FROM generate_series(1, 8193) x;
SELECT expanded_probe(x) OVER () AS in_window FROM generate_series(1, 20000) x LIMIT 1;
CREATE TABLE agg_states AS SELECT my_auto_state(x) AS s, bloom_agg(x) AS f FROM generate_series(1, 20000) x;
SELECT bloom_send(s) = bloom_send(auto_state_by_calls(20000)) AS same_as_calls, s::text::bloom = s AS text_roundtrip,
	bloom_agg_auto_final(s) = f AS sealed_same, f = (SELECT bloom_agg(x) FROM generate_series(1, 20000) x) AS agg_same,
	(bloom_info(s)).inserts AS state_inserts, pg_column_size(s) > 20000 * 8 AS holds_hashes,
	(SELECT count(*) FROM generate_series(1, 20000) x WHERE NOT s @> x OR NOT f @> x) AS false_negatives
FROM agg_states;
-- the state used where it comes out of the aggregate (on PostgreSQL 16 and
-- later a read-only pointer to the expanded state, read in place)
SELECT s @> 1 AND s @> 9000 AS has_ends, s @> (-1) AS has_absent, (bloom_info(s)).inserts AS inserts,
	bloom_agg_auto_final(s) = (SELECT bloom_agg(x) FROM generate_series(1, 9000) x) AS sealed_same,
	bloom_send(s) = bloom_send(auto_state_by_calls(9000)) AS same_as_calls
FROM (SELECT my_auto_state(x) AS s FROM generate_series(1, 9000) x) q;
-- DISTINCT and ORDER BY aggregates (a sort per group, or presorted input),
-- FILTER, and grouping sets: the filters of the plain aggregate
SELECT bloom_agg(DISTINCT x % 20000) = (SELECT bloom_agg(x) FROM generate_series(0, 19999) x) AS distinct_same,
	bloom_agg(x % 20000 ORDER BY -x) = (SELECT bloom_agg(x) FROM generate_series(0, 19999) x) AS ordered_same,
	bloom_agg(x) FILTER (WHERE x % 2 = 0) = (SELECT bloom_agg(x) FROM generate_series(2, 40000, 2) x) AS filter_same
FROM generate_series(1, 40000) x;
SELECT count(*) AS sets, count(*) FILTER (WHERE f = CASE WHEN a IS NOT NULL THEN (SELECT bloom_agg(x) FROM generate_series(1, 60000) x WHERE x % 2 = a)
	WHEN b IS NOT NULL THEN (SELECT bloom_agg(x) FROM generate_series(1, 60000) x WHERE x % 3 = b)
	ELSE (SELECT bloom_agg(x) FROM generate_series(1, 60000) x) END) AS same_filters
FROM (SELECT x % 2 AS a, x % 3 AS b, bloom_agg(x) AS f FROM generate_series(1, 60000) x GROUP BY GROUPING SETS ((x % 2), (x % 3), ())) g;
-- grouped by a hash aggregate that spills (states in its hash table's
-- context, reset between batches) and by sorting: the same filters, for
-- 6 groups of 10000 rows (expanded states) and 500 of 80 (plain ones),
-- the large groups first, then last (after the hash table has filled)
CREATE TABLE agg_groups AS SELECT CASE WHEN x <= 60000 THEN x % 6 ELSE 10 + x % 500 END AS g, x
	FROM generate_series(1, 100000) x;
CREATE TABLE agg_groups_late AS SELECT CASE WHEN x <= 40000 THEN 10 + x % 500 ELSE x % 6 END AS g, x
	FROM generate_series(1, 100000) x;
SET work_mem = '64kB';
SET enable_sort = off;
CREATE TABLE by_hash AS SELECT g, bloom_agg(x) AS f, my_auto_state(x) AS s FROM agg_groups GROUP BY g;
CREATE TABLE by_hash_late AS SELECT g, bloom_agg(x) AS f, my_auto_state(x) AS s FROM agg_groups_late GROUP BY g;
CREATE FUNCTION hash_batches(q text) RETURNS int LANGUAGE plpgsql AS $$
DECLARE r record;
BEGIN
	FOR r IN EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || q LOOP
		IF r."QUERY PLAN" ~ 'Batches: [0-9]+' THEN
			RETURN substring(r."QUERY PLAN" FROM 'Batches: ([0-9]+)')::int;
		END IF;
	END LOOP;
	RETURN 0;
END $$;
SELECT hash_batches('SELECT g, bloom_agg(x), my_auto_state(x) FROM agg_groups GROUP BY g') > 1 AS spills,
	hash_batches('SELECT g, bloom_agg(x), my_auto_state(x) FROM agg_groups_late GROUP BY g') > 1 AS spills_late;
DROP FUNCTION hash_batches(text);
RESET enable_sort;
SET enable_hashagg = off;
CREATE TABLE by_sort AS SELECT g, bloom_agg(x) AS f, my_auto_state(x) AS s FROM agg_groups GROUP BY g;
CREATE TABLE by_sort_late AS SELECT g, bloom_agg(x) AS f, my_auto_state(x) AS s FROM agg_groups_late GROUP BY g;
RESET enable_hashagg;
RESET work_mem;
SELECT count(*) AS groups, count(*) FILTER (WHERE h.f = o.f) AS same_filters,
	count(*) FILTER (WHERE bloom_agg_auto_final(h.s) = o.f AND bloom_agg_auto_final(o.s) = o.f) AS states_seal_same,
	(SELECT count(*) FROM agg_groups a JOIN by_hash b USING (g) WHERE NOT b.f @> a.x) AS false_negatives
FROM by_hash h JOIN by_sort o USING (g);
SELECT count(*) AS groups, count(*) FILTER (WHERE h.f = o.f) AS same_filters,
	count(*) FILTER (WHERE bloom_agg_auto_final(h.s) = o.f AND bloom_agg_auto_final(o.s) = o.f) AS states_seal_same
FROM by_hash_late h JOIN by_sort_late o USING (g);
DROP TABLE agg_states, agg_groups, agg_groups_late, by_hash, by_sort, by_hash_late, by_sort_late;
DROP FUNCTION auto_state_by_calls(int);
DROP AGGREGATE expanded_probe(anynonarray);
DROP FUNCTION count_state_contexts(bloom);
DROP AGGREGATE my_auto_state(anynonarray);
CREATE TABLE copied (f bloom);
INSERT INTO copied SELECT f FROM parts UNION ALL SELECT f FROM grown
	UNION ALL SELECT bloom_agg_auto_trans(bloom_agg_auto_trans(NULL, 1), 2) UNION ALL SELECT bloom_empty();
CREATE TABLE copied_back (f bloom);
DO $$
BEGIN
	EXECUTE format('COPY copied TO %L (FORMAT binary)', current_setting('data_directory') || '/bloom_ss.bin');
	EXECUTE format('COPY copied_back FROM %L (FORMAT binary)', current_setting('data_directory') || '/bloom_ss.bin');
END $$;
SELECT (SELECT count(*) FROM copied) AS rows,
	(SELECT count(*) FROM copied c WHERE EXISTS (SELECT FROM copied_back b WHERE b.f = c.f)) AS binary_equal,
	(SELECT count(*) FROM copied c WHERE c.f::text::bloom = c.f) AS text_equal;

-- the stored filter of 1M elements (1.4 MB, out of line, uncompressed) is probed by TOAST
-- slices: the same answers as the filter in memory
CREATE TABLE stored (id int, f bloom);
INSERT INTO stored SELECT 1, bloom_agg(i * 2654435761) FROM generate_series(1, 1000000) i;
SELECT pg_column_size(f) > 1000000 AS out_of_line FROM stored;
SELECT count(*) FILTER (WHERE (SELECT f FROM stored WHERE id = 1) @> (i * 2654435761)) AS members_found,
	count(*) FILTER (WHERE (SELECT f FROM stored WHERE id = 1) @> (-i)) =
	count(*) FILTER (WHERE (SELECT f | bloom_empty() FROM stored WHERE id = 1) @> (-i)) AS same_false_positives
FROM generate_series(1, 200000) i;

-- malformed values: 22P02
CREATE FUNCTION try_in(t text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	detail text;
BEGIN
	RETURN 'accepted: ' || t::bloom::text;
EXCEPTION WHEN OTHERS THEN
	GET STACKED DIAGNOSTICS detail = PG_EXCEPTION_DETAIL;
	RETURN SQLSTATE || ': ' || SQLERRM || ': ' || detail;
END $$;
SELECT try_in('bloom v2 hash=xxh3 seed=0 inserts=0 fpr=0.01 members=1 bytes=0 data=');
SELECT try_in('bloom v2 hash=xxh3 seed=0 inserts=0 fpr=1.5 members=0 bytes=0 data=');
SELECT try_in('bloom v2 hash=xxh3 seed=0 inserts=0 fpr=0.01 members=0 bytes=8 data=AAAAAAAAAAA=');
-- a member of unknown kind; a hash list before a Bloom member; a list count past its slots
SELECT try_in(replace(f::text, 'data=IgAAAAAAAAAIAAAAAQ', 'data=IgAAAAAAAAAIAAAABw')) FROM (SELECT bloom_agg(x) f FROM generate_series(1, 3) x) s;
SELECT try_in(replace(s::text, 'members=1 bytes=96', 'members=1 bytes=96')) AS state_ok,
	try_in(replace(s::text, 'data=AAAAAAAAAAAAAAAAAgAAAAIAAAAAAAAACA', 'data=AAAAAAAAAAAAAAAAAgAAAAkAAAAAAAAACA')) AS count_past_slots
FROM (SELECT bloom_agg_auto_trans(bloom_agg_auto_trans(NULL, 1), 2) AS s) q;
-- a hash list with no slots (would never make room); a subnormal or tiny target rate
SELECT try_in('bloom v2 hash=xxh3 seed=0 inserts=0 fpr=0.01 members=1 bytes=32 data=AAAAAAAAAAAAAAAAAgAAAAAAAAAAAAAAAAAAAAAAAAA=');
SELECT bloom_empty_self_sized(1e-310);
\echo :LAST_ERROR_SQLSTATE
SELECT try_in('bloom v2 hash=xxh3 seed=0 inserts=0 fpr=1e-301 members=0 bytes=0 data=');
-- fingerprint members (bloom_add): every field checked, every level walked on input
CREATE FUNCTION mutate(f bloom, pos int, val int) RETURNS text LANGUAGE sql AS $$
	SELECT regexp_replace(f::text, 'data=.*$', 'data=' || translate(encode(set_byte(
		decode(substring(f::text FROM 'data=(.*)$'), 'base64'), pos, val), 'base64'), E'\n', ''))
$$;
CREATE TABLE fp_value AS SELECT bloom_add(bloom_empty(), ARRAY(SELECT generate_series(1, 1100))) AS f;
SELECT (bloom_info(f)).estimated_cardinality AS fingerprints, (bloom_info(f)).m AS bits,
	try_in(f::text) = 'accepted: ' || f::text AS accepted FROM fp_value;
SELECT try_in(mutate(f, 8, 0)) AS excess_0, try_in(mutate(f, 8, 65)) AS excess_65 FROM fp_value;
SELECT try_in(mutate(f, 16, 1)) AS count_off, try_in(mutate(f, 24, 1)) AS capacity_set,
	try_in(mutate(f, 0, 0)) AS bits_off FROM fp_value;
-- level 4's first directory entry; its unary vector; a bit past m
SELECT try_in(mutate(f, 32 + 436, 0)) AS directory, try_in(mutate(f, 32 + 500, 255)) AS unary,
	try_in(mutate(f, 32 + 1943, 128)) AS past_m FROM fp_value;
-- two equal values in a level; a value in a bucket past the last; cut short
SELECT try_in('bloom v2 hash=xxh3 seed=0 inserts=3 fpr=0.01 members=1 bytes=40 data=KQAAAAAAAAALAAAAAwAAAAMAAAAAAAAAAAAAAAAAAAAHgiBINgEAAA==') AS equal_values;
SELECT try_in('bloom v2 hash=xxh3 seed=0 inserts=3 fpr=0.01 members=1 bytes=40 data=KQAAAAAAAAALAAAAAwAAAAMAAAAAAAAAAAAAAAAAAAATgu5LNgEAAA==') AS bucket_past_last;
SELECT try_in('bloom v2 hash=xxh3 seed=0 inserts=3 fpr=0.01 members=1 bytes=32 data=KQAAAAAAAAALAAAAAwAAAAMAAAAAAAAAAAAAAAAAAAA=') AS cut_short;
-- a | b = b | a also with hash lists and different targets; the tighter target wins
SELECT a | b = b | a AS lists_commute, (bloom_info(a | b)).target_fpr AS union_target
FROM (SELECT bloom_agg_auto_trans(bloom_agg_auto_trans(NULL, 1, 0.01), 2) AS a,
			 bloom_agg_auto_trans(bloom_agg_auto_trans(NULL, 3, 0.001), 4) AS b) s;
-- the detail names why a side has no single bit array
SELECT bloom_empty() & bloom_empty();
SELECT bloom_agg_auto_trans(NULL, 1) @> bloom_agg_auto_trans(NULL, 1);
