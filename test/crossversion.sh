#!/bin/sh
# Data across PostgreSQL versions (run by test/matrix.sh, as root): a database
# holding all four filter types and a pagebloom index, written by this
# machine's server (15 here), is
#   - dumped with that server's pg_dump (-Fc) and restored into 16, 17 and 18,
#   - copied out with binary COPY and in again on 16, 17 and 18,
# and on each newer server every value must compare equal (md5 of the text
# forms), every element must still be found, pagebloom_verify must pass, the
# restored index must have the original's design and answer probes as the old
# server did; and the old server's heap file, taken over by the new server as
# pg_upgrade does, must get from it an index with the same parameters and
# byte-identical signature pages: what pg_upgrade carries over is what the new
# server builds itself (doc/design.md, "PostgreSQL versions").
# Prints "ok N - ..." lines and "N passed, N failed".
set -u
cd "$(dirname "$0")/.."
. test/lib.sh
dir=${BF_MATRIX_DIR:-/var/cache/bloomfilter-matrix}
versions=${PGVERSIONS:-16 17 18}
bf_pick_server
old=$PGVER
passed=0
failed=0
n=0
check() {
	n=$((n + 1))
	if [ "$2" = "$3" ]; then
		echo "ok $n - $1"
		passed=$((passed + 1))
	else
		echo "not ok $n - $1"
		echo "#   got:      $2"
		echo "#   expected: $3"
		failed=$((failed + 1))
	fi
}

work=$(mktemp -d /tmp/bloomfilter-xv.XXXXXX)
chmod 755 "$work"
inst="$work/install"
bf_private_tree "$inst"
BIN="$inst$PGBIN"
if ! { make -s clean PG_CONFIG="$PG_CONFIG" >/dev/null 2>&1; make -s PG_CONFIG="$PG_CONFIG" >"$work/build.log" 2>&1 &&
	make -s install PG_CONFIG="$PG_CONFIG" DESTDIR="$inst" >>"$work/build.log" 2>&1; }; then
	cat "$work/build.log"
	echo "0 passed, 1 failed"
	exit 1
fi
chown -R postgres "$work"

# --- the old server writes ------------------------------------------------
sock="$work"
unpriv "$BIN/initdb" -D "$work/old" -A trust -U postgres -k >/dev/null 2>&1
unpriv "$BIN/pg_ctl" -D "$work/old" -l "$work/old.log" -w \
	-o "-c listen_addresses= -k $sock -p 54315" start >/dev/null
cleanup() {
	unpriv "$BIN/pg_ctl" -D "$work/old" -m immediate stop >/dev/null 2>&1
	for d in $chroots; do
		chroot "$d" runuser -u postgres -- sh -c \
			"/usr/lib/postgresql/\$(ls /usr/lib/postgresql)/bin/pg_ctl -D /build/xv/data -m immediate stop" >/dev/null 2>&1
	done
	for m in $mounted; do
		umount "$m"
	done
	rm -rf "$work"
}
chroots=""
mounted=""
trap cleanup EXIT
trap 'exit 1' INT TERM
psql_old() {
	unpriv "$BIN/psql" -X -q -A -t -v ON_ERROR_STOP=1 -h "$sock" -p 54315 -U postgres -d xv "$@"
}
unpriv "$BIN/createdb" -h "$sock" -p 54315 -U postgres xv
psql_old <<'SQL' >/dev/null
CREATE EXTENSION bloomfilter;
CREATE TABLE filters AS
SELECT g AS id, bloom_agg(x, 2000, 0.01) AS b, countingbloom_agg(x, 2000, 0.01) AS cb,
	quotientfilter_agg(x, 2000, 0.01) AS qf, cuckoofilter_agg(x, 2000, 0.01) AS cf,
	bloom_agg('s' || x) AS b_default
FROM (SELECT i % 20 AS g, i AS x FROM generate_series(1, 30000) i) s GROUP BY g;
CREATE TABLE wide AS
SELECT i AS id, (i * 7919) % 5000 AS a, md5(i::text) AS t, (i % 97)::int8 AS c, i::numeric / 3 AS n
FROM generate_series(1, 200000) i;
CREATE TABLE wide_ctas AS SELECT * FROM wide ORDER BY id;
CREATE INDEX wide_pb ON wide USING pagebloom (a, t, c, n);
CREATE FUNCTION textsum() RETURNS text LANGUAGE sql AS
$$SELECT md5(string_agg(id || ':' || b::text || cb::text || qf::text || cf::text || b_default::text, ',' ORDER BY id)) FROM filters$$;
SQL
sum_old=$(psql_old -c "SELECT textsum()")
probes_old=$(psql_old -c "SELECT sum((SELECT count(*) FROM wide w WHERE w.a = p)) FROM generate_series(0, 4999, 7) p")
# the design of the index (floating-point figures to 12 digits: the C libraries' pow and log
# may differ in the last bit between Debian releases), and everything pagebloom_info shows
design="SELECT row(i.pages_per_range, i.signature_bits, i.signature_blocks, i.block_bits, i.k, i.ranges_per_segment,
	i.target_fpr, round(i.design_fpr::numeric, 12), round(i.design_rows_per_range::numeric, 12), i.column_k,
	(SELECT array_agg(round(x::numeric, 12)) FROM unnest(i.column_design_fpr) x))::text FROM pagebloom_info('wide_pb') i"
info="SELECT row(i.segments, i.index_pages, i.ranges, round(i.fill_ratio::numeric, 12),
	round(i.estimated_fpr::numeric, 12))::text || ($design) FROM pagebloom_info('wide_pb') i"
design_old=$(psql_old -c "$design")
verify_old=$(psql_old -c "SELECT pagebloom_verify('wide_pb')")
unpriv "$BIN/pg_dump" -Fc -h "$sock" -p 54315 -U postgres -f "$work/xv.dump" xv
psql_old -c "\\copy filters TO '$work/filters.bin' (FORMAT binary)"
psql_old -c "CREATE EXTENSION IF NOT EXISTS pageinspect" >/dev/null
# an index on a frozen, vacuumed table whose heap file the newer servers take over below, as pg_upgrade does
psql_old -c "VACUUM (FREEZE) wide_ctas" -c "CREATE INDEX wide_ctas_pb ON wide_ctas USING pagebloom (a, t, c, n)" -c "CHECKPOINT"
cp "$work/old/$(psql_old -c "SELECT pg_relation_filepath('wide_ctas')")" "$work/heapfile"
info_old=$(psql_old -c "$(echo "$info" | sed 's/wide_pb/wide_ctas_pb/g')")
heap_old=$(psql_old -c "SELECT pg_relation_size('wide_ctas') || ' ' || md5(string_agg(ctid::text, ',' ORDER BY id)) FROM wide_ctas")
# (the signature pages; the metapage's parameters are compared through pagebloom_info above: it also
# keeps the design FPR as computed with the C library's pow and log, whose last bit may differ)
pages="SELECT md5(string_agg(substr(get_raw_page('wide_ctas_pb', b), 11), '' ORDER BY b))
	FROM generate_series(1, pg_relation_size('wide_ctas_pb') / current_setting('block_size')::int - 1) b"
pages_old=$(psql_old -c "$pages")

# --- each newer server reads ----------------------------------------------
for v in $versions; do
	case "$v" in 16) s=noble ;; 17) s=trixie ;; 18) s=sid ;; *) continue ;; esac
	d="$dir/$s"
	if [ ! -f "$d/.ready" ] || [ ! -d "$d/build/bloomfilter" ]; then
		check "PostgreSQL $v chroot present (run make test-matrix)" no yes
		continue
	fi
	mountpoint -q "$d/proc" || { mount -t proc proc "$d/proc" && mounted="$mounted $d/proc"; }
	mountpoint -q "$d/dev" || { mount --bind /dev "$d/dev" && mounted="$mounted $d/dev"; }
	chroots="$chroots $d"
	nb=/usr/lib/postgresql/$v/bin
	chroot "$d" sh -c "cd /build/bloomfilter && make -s PG_CONFIG=$nb/pg_config >/dev/null 2>&1 &&
		make -s install PG_CONFIG=$nb/pg_config >/dev/null 2>&1" ||
		{ check "PostgreSQL $v: extension builds and installs" no yes; continue; }
	rm -rf "$d/build/xv"
	mkdir -p "$d/build/xv"
	cp "$work/xv.dump" "$work/filters.bin" "$d/build/xv/"
	chroot "$d" chown -R postgres /build/xv
	inch() {
		chroot "$d" runuser -u postgres -- "$@"
	}
	inch "$nb/initdb" -D /build/xv/data -A trust -U postgres -k >/dev/null 2>&1
	inch "$nb/pg_ctl" -D /build/xv/data -l /build/xv/log -w \
		-o "-c listen_addresses= -k /build/xv -p 543$v" start >/dev/null
	psql_new() {
		inch "$nb/psql" -X -q -A -t -v ON_ERROR_STOP=1 -h /build/xv -p "543$v" -U postgres -d xv "$@"
	}
	inch "$nb/createdb" -h /build/xv -p "543$v" -U postgres xv
	inch "$nb/pg_restore" -h /build/xv -p "543$v" -U postgres -d xv /build/xv/xv.dump 2>&1 | head -n 5
	check "PostgreSQL $v: restored filters equal what $old wrote (md5 of text forms)" \
		"$(psql_new -c "SELECT textsum()")" "$sum_old"
	check "PostgreSQL $v: no false negative in any restored filter" \
		"$(psql_new -c "SELECT count(*) FROM filters f JOIN generate_series(1, 30000) x ON x % 20 = f.id
			WHERE NOT (f.b @> x AND f.cb @> x AND f.qf @> x AND f.cf @> x AND f.b_default @> ('s' || x))")" 0
	psql_new -c "CREATE TABLE filters_bin (LIKE filters)"
	psql_new -c "\\copy filters_bin FROM '/build/xv/filters.bin' (FORMAT binary)"
	check "PostgreSQL $v: binary COPY from $old reads every value unchanged" \
		"$(psql_new -c "SELECT count(*) FROM filters f FULL JOIN filters_bin g USING (id)
			WHERE f.b IS DISTINCT FROM g.b OR f.cb::text IS DISTINCT FROM g.cb::text
				OR f.qf::text IS DISTINCT FROM g.qf::text OR f.cf::text IS DISTINCT FROM g.cf::text
				OR f.b_default IS DISTINCT FROM g.b_default")" 0
	check "PostgreSQL $v: pagebloom_verify passes on the restored index (finds every key)" \
		"$(psql_new -c "SELECT pagebloom_verify('wide_pb')")" "$verify_old"
	check "PostgreSQL $v: the restored index has the original's design (pagebloom_info)" \
		"$(psql_new -c "$design")" "$design_old"
	check "PostgreSQL $v: index scans answer 715 probes as the old server did" \
		"$(psql_new -c "SET enable_seqscan = off" -c "SELECT sum((SELECT count(*) FROM wide w WHERE w.a = p)) FROM generate_series(0, 4999, 7) p")" \
		"$probes_old"
	check "PostgreSQL $v: and the probes used the index" \
		"$(psql_new -c "SET enable_seqscan = off" -c "EXPLAIN (COSTS OFF) SELECT * FROM wide WHERE a = 7" | grep -cE 'Bitmap Index Scan on wide_pb|Index Scan using wide_pb')" 1
	psql_new -c "CREATE EXTENSION IF NOT EXISTS pageinspect" >/dev/null
	# the old server's heap file, taken over as pg_upgrade does (stopped server, file copied; frozen rows,
	# checksums on both sides), gets the same index from the new server, byte for byte: what pg_upgrade
	# carries over for the index is what the new server builds itself
	psql_new -c "DROP TABLE wide_ctas" -c "CREATE TABLE wide_ctas (LIKE wide)"
	path=$(psql_new -c "SELECT pg_relation_filepath('wide_ctas')")
	inch "$nb/pg_ctl" -D /build/xv/data -m fast stop >/dev/null
	cp "$work/heapfile" "$d/build/xv/data/$path"
	chroot "$d" chown postgres "/build/xv/data/$path"
	inch "$nb/pg_ctl" -D /build/xv/data -l /build/xv/log -w \
		-o "-c listen_addresses= -k /build/xv -p 543$v" start >/dev/null
	psql_new -c "VACUUM wide_ctas" -c "CREATE INDEX wide_ctas_pb ON wide_ctas USING pagebloom (a, t, c, n)"
	check "PostgreSQL $v: reads the heap file of $old (every row, same places)" \
		"$(psql_new -c "SELECT pg_relation_size('wide_ctas') || ' ' || md5(string_agg(ctid::text, ',' ORDER BY id)) FROM wide_ctas")" "$heap_old"
	check "PostgreSQL $v: on the same heap, pagebloom_info equals the old server's" \
		"$(psql_new -c "$(echo "$info" | sed 's/wide_pb/wide_ctas_pb/g')")" "$info_old"
	check "PostgreSQL $v: the signature pages equal the old server's, byte for byte past the LSN and checksum" \
		"$(psql_new -c "$pages")" "$pages_old"
	inch "$nb/pg_ctl" -D /build/xv/data -m fast stop >/dev/null
done
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
