-- Fuzzing the input and receive functions of every filter type: mutated text
-- and binary forms must either be rejected with SQLSTATE 22P02 (also when
-- they describe a value over the size limit; 22021 for bytes that are not
-- text, 08P01 for a short binary message) or give a value that every
-- function can use and that round-trips.  Deterministic (setseed); a crash would fail the whole run.
CREATE SCHEMA fuzz_io_test;
SET search_path = fuzz_io_test, public;
SELECT setseed(0.4242);

CREATE TABLE raw (b bytea);
CREATE TABLE outcome (type text, path text, result text);

-- a random mutation of a byte string: flip bits, overwrite, truncate, extend, or duplicate a slice
CREATE FUNCTION mutate(b bytea) RETURNS bytea LANGUAGE plpgsql AS $$
DECLARE
	n int := length(b);
	kind int := floor(random() * 6);
	pos int;
	r bytea := b;
	i int;
BEGIN
	IF n = 0 THEN RETURN '\x00'::bytea; END IF;
	pos := floor(random() * n);
	IF kind = 0 THEN			-- flip one bit
		r := set_byte(r, pos, get_byte(r, pos) # (1 << floor(random() * 8)::int));
	ELSIF kind = 1 THEN			-- overwrite a few bytes with random values
		FOR i IN 0..floor(random() * 4)::int LOOP
			pos := floor(random() * n);
			r := set_byte(r, pos, floor(random() * 256)::int);
		END LOOP;
	ELSIF kind = 2 THEN			-- truncate
		r := substring(r FROM 1 FOR pos);
	ELSIF kind = 3 THEN			-- extend with random bytes
		r := r || decode(md5(random()::text), 'hex');
	ELSIF kind = 4 THEN			-- overwrite a header byte (the first 48 bytes) with 0x00 or 0xff
		pos := floor(random() * least(n, 48));
		r := set_byte(r, pos, CASE WHEN random() < 0.5 THEN 0 ELSE 255 END);
	ELSE						-- duplicate a slice
		r := substring(r FROM 1 FOR pos) || substring(r FROM pos + 1 FOR 8) || substring(r FROM pos + 1);
	END IF;
	RETURN r;
END $$;

-- use an accepted value with every general function; returns NULL if all is well
CREATE FUNCTION exercise(t text, v text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	ok bool;
BEGIN
	EXECUTE format('SELECT ($1::%1$I)::text::%1$I = $1::%1$I', t) INTO ok USING v;
	IF NOT ok THEN RETURN 'text round trip changed the value'; END IF;
	EXECUTE format('SELECT %1$I_contains($1::%1$I, 42) IS NOT NULL AND %1$I_cardinality($1::%1$I) IS NOT NULL
		AND %1$I_fpr($1::%1$I) IS NOT NULL AND (SELECT count(*) FROM %1$I_info($1::%1$I)) = 1', t) INTO ok USING v;
	IF NOT ok THEN RETURN 'an accepted value gives NULL statistics'; END IF;
	EXECUTE format('SELECT %1$I_add($1::%1$I, 7) @> 7', t) INTO ok USING v;
	IF NOT ok THEN RETURN 'an element added to an accepted value is not found'; END IF;
	RETURN NULL;
EXCEPTION WHEN OTHERS THEN
	-- a filter that is full may refuse an add (54000); anything else is a bug
	IF SQLSTATE = '54000' THEN RETURN NULL; END IF;
	RETURN 'accepted value fails later: ' || SQLSTATE || ' ' || SQLERRM;
END $$;

CREATE FUNCTION fuzz(t text, samples int, bases text[] DEFAULT NULL, label text DEFAULT NULL) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
	base text[];
	src text;
	b bytea;
	i int;
	v text;
	msg text;
	dir text := current_setting('data_directory');
BEGIN
	EXECUTE format('SELECT ARRAY[%1$I_empty(50, 0.05)::text, %1$I_add(%1$I_empty(50, 0.05), ARRAY[1, 2, 3])::text,
		%1$I_add(%1$I_empty(%2$s, 0.1, 9), (SELECT array_agg(g) FROM generate_series(1, 30) g))::text]', t,
		-- a cuckoofilter of capacity 20 has 24 slots (30 elements do not fit); 30 gives 32 slots
		CASE WHEN t = 'cuckoofilter' THEN 30 ELSE 20 END) INTO base;
	IF bases IS NOT NULL THEN
		base := bases;
	END IF;
	FOR i IN 1..samples LOOP
		src := base[1 + (i % array_length(base, 1))];
		-- text path: mutate the text form
		BEGIN
			v := convert_from(mutate(convert_to(src, 'UTF8')), 'SQL_ASCII');
			EXECUTE format('SELECT $1::%I::text', t) INTO v USING v;
			msg := exercise(t, v);
			INSERT INTO outcome VALUES (coalesce(label, t), 'text', coalesce(msg, 'accepted'));
		EXCEPTION WHEN OTHERS THEN
			INSERT INTO outcome VALUES (coalesce(label, t), 'text', CASE WHEN SQLSTATE IN ('22P02', '22021') THEN 'rejected'
				ELSE 'unexpected ' || SQLSTATE || ': ' || SQLERRM END);
		END;
		-- binary path: mutate the send output and read it back with COPY (FORMAT binary)
		BEGIN
			EXECUTE format('SELECT %1$I_send($1::%1$I)', t) INTO b USING src;
			TRUNCATE raw;
			INSERT INTO raw VALUES (mutate(b));
			EXECUTE format('COPY raw TO %L (FORMAT binary)', dir || '/fuzz.bin');
			EXECUTE format('CREATE TEMP TABLE IF NOT EXISTS target_%1$s (v %1$I); TRUNCATE target_%1$s', t);
			EXECUTE format('COPY target_%s FROM %L (FORMAT binary)', t, dir || '/fuzz.bin');
			EXECUTE format('SELECT v::text FROM target_%s', t) INTO v;
			msg := exercise(t, v);
			INSERT INTO outcome VALUES (coalesce(label, t), 'binary', coalesce(msg, 'accepted'));
		EXCEPTION WHEN OTHERS THEN
			INSERT INTO outcome VALUES (coalesce(label, t), 'binary', CASE WHEN SQLSTATE IN ('22P02', '08P01') THEN 'rejected'
				ELSE 'unexpected ' || SQLSTATE || ': ' || SQLERRM END);
		END;
	END LOOP;
END $$;

SELECT fuzz(t, 400) FROM unnest(ARRAY['bloom', 'countingbloom', 'quotientfilter', 'cuckoofilter']) t
WHERE to_regtype('public.' || t) IS NOT NULL;
-- self-sized bloom values: fingerprint members grown by bloom_add (small and with a directory),
-- after a Bloom member, and an aggregate's hash list
SELECT fuzz('bloom', 400, ARRAY[bloom_add(bloom_empty(), ARRAY[1, 2, 3])::text,
	bloom_add(bloom_empty_self_sized(0.001), ARRAY(SELECT generate_series(1, 600)))::text,
	bloom_add((SELECT bloom_agg(g) FROM generate_series(1, 20) g), ARRAY[21, 22, 23, 24])::text,
	bloom_agg_auto_trans(bloom_agg_auto_trans(NULL, 1), 2)::text], 'bloom self-sized');

-- every type that exists was fuzzed on both paths, most mutations are rejected, none misbehaves
SELECT type, path, count(*) = 400 AS all_ran,
	count(*) FILTER (WHERE result = 'rejected') > 200 AS mostly_rejected,
	count(*) FILTER (WHERE result NOT IN ('rejected', 'accepted')) AS problems
FROM outcome GROUP BY type, path ORDER BY type, path;
SELECT type, path, result, count(*) FROM outcome WHERE result NOT IN ('rejected', 'accepted')
GROUP BY 1, 2, 3 ORDER BY 1, 2, 3 LIMIT 20;
