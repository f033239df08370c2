#!/bin/sh
# make bench: run test/bench/*.sql (or the files given as arguments) against a
# throwaway cluster and print every figure as a ratio to its baseline.
#   BENCH_SCALE=0.1 make bench   smaller data (default 1 = the sizes in doc/performance.md)
#
# The benchmarks run an optimized build (no assertions) installed into a
# private copy of the server installation (hard links, as
# test/run-tests.sh does), so test runs that reinstall the system-wide library
# meanwhile cannot change the build being measured.
set -eu
cd "$(dirname "$0")/../.."
scale=${BENCH_SCALE:-1}
files=${*:-$(ls test/bench/*.sql | grep -v '/lib\.sql$')}
. test/lib.sh
bf_pick_server

work=$(mktemp -d /tmp/bloomfilter-bench.XXXXXX)
chmod 755 "$work"
inst="$work/install"
data="$work/data"
BIN="$inst$PGBIN"
hugepages_before=
cleanup() {
	[ -f "$data/postmaster.pid" ] && unpriv "$BIN/pg_ctl" -D "$data" -m immediate stop >/dev/null 2>&1
	[ -n "$hugepages_before" ] && echo "$hugepages_before" >/proc/sys/vm/nr_hugepages
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

bf_private_tree "$inst"

# optimized build, under the build lock test/run-tests.sh takes
(
	command -v flock >/dev/null 2>&1 && flock 9
	make -s clean PG_CONFIG=$PG_CONFIG >/dev/null 2>&1
	make -s PG_CONFIG=$PG_CONFIG >"$work/build.log" 2>&1 &&
		make -s install PG_CONFIG=$PG_CONFIG DESTDIR="$inst" >>"$work/build.log" 2>&1
) 9>/tmp/bloomfilter-build.lock || { cat "$work/build.log"; echo "bench: build failed" >&2; exit 1; }

$asroot && chown -R postgres "$work"
unpriv "$BIN/initdb" -D "$data" -A trust -U postgres -E UTF8 --no-sync >"$work/initdb.log" 2>&1 ||
	{ cat "$work/initdb.log"; exit 1; }

# Huge pages for the 4GB of shared buffers, as PostgreSQL recommends for
# large buffer pools: without them every buffer touched for the first time in
# a while is also a TLB miss, which weighs on whichever index reads more
# distinct pages per query (doc/performance.md).  As root, pages are reserved
# for the run and given back after; BENCH_HUGE_PAGES=off measures without.
huge=off
if [ "${BENCH_HUGE_PAGES:-on}" = on ] && $asroot && [ -w /proc/sys/vm/nr_hugepages ]; then
	hpkb=$(awk '/^Hugepagesize:/ { print $2 }' /proc/meminfo)
	if [ -n "$hpkb" ] && [ "$hpkb" -gt 0 ]; then
		hugepages_before=$(cat /proc/sys/vm/nr_hugepages)
		echo $((hugepages_before + (4 * 1024 * 1024 + 512 * 1024) / hpkb)) >/proc/sys/vm/nr_hugepages
		huge=try
	fi
fi
unpriv "$BIN/pg_ctl" -D "$data" -l "$work/server.log" -w \
	-o "-k $work -c listen_addresses= -c shared_buffers=4GB -c huge_pages=$huge -c work_mem=256MB -c max_parallel_workers_per_gather=0 -c jit=off -c max_wal_size=4GB -c autovacuum=off" \
	start >/dev/null || { cat "$work/server.log"; exit 1; }

psql() {
	"$BIN/psql" -X -h "$work" -U postgres -d postgres "$@"
}
psql -q -v ON_ERROR_STOP=1 -c "CREATE EXTENSION bloomfilter" -f test/bench/lib.sql
# whether the server got them (huge_pages = try falls back silently)
if [ "$huge" = try ]; then
	huge=off
	awk '/^HugePages_(Total|Free|Rsvd):/ { v[$1] = $2 }
		END { exit !(v["HugePages_Total:"] - v["HugePages_Free:"] + v["HugePages_Rsvd:"] > 0) }' /proc/meminfo &&
		huge=on
fi
echo "== shared_buffers 4GB, huge pages: $huge"
for f in $files; do
	echo "== $f (scale $scale)"
	psql -q -v ON_ERROR_STOP=1 -v scale="$scale" -f "$f"
done
echo
echo "== results (ratio = value / baseline; lower is better unless the target says otherwise)"
psql -P pager=off -c "SELECT suite, figure, round(value::numeric, 2) AS value, unit, baseline_name, round(baseline::numeric, 2) AS baseline, round(ratio::numeric, 3) AS ratio, target FROM bench.results ORDER BY id"
