#!/bin/sh
# make bench: run test/bench/*.sql (or the files given as arguments) against a
# throwaway cluster and print every figure as a ratio to its baseline.
#   BENCH_SCALE=0.1 make bench   smaller data (default 1 = the sizes in doc/performance.md)
set -eu
cd "$(dirname "$0")/../.."
export PATH="/usr/lib/postgresql/15/bin:$PATH"
scale=${BENCH_SCALE:-1}
PG_CONFIG=/usr/lib/postgresql/15/bin/pg_config

# Benchmark an optimized build: build without assertions and install, under
# the build lock test/run-tests.sh takes (BENCH_BUILD=0 skips this and uses
# whatever is installed).
so="$($PG_CONFIG --pkglibdir)/bloomfilter.so"
if [ "${BENCH_BUILD:-1}" != 0 ]; then
	(
		command -v flock >/dev/null 2>&1 && flock 9
		make -s clean PG_CONFIG=$PG_CONFIG >/dev/null 2>&1
		make -s PG_CONFIG=$PG_CONFIG >/dev/null && make -s install PG_CONFIG=$PG_CONFIG >/dev/null
	) 9>/tmp/bloomfilter-build.lock || { echo "bench: build failed" >&2; exit 1; }
fi
so_stamp=$(stat -c %Y "$so" 2>/dev/null || echo none)
files=${*:-$(ls test/bench/*.sql | grep -v '/lib\.sql$')}
script=$(mktemp /tmp/bloomfilter-bench.XXXXXX.sh)
cat >"$script" <<SCRIPT
set -e
psql -X -q -v ON_ERROR_STOP=1 -c "CREATE EXTENSION bloomfilter" -f test/bench/lib.sql
for f in $files; do
	echo "== \$f (scale $scale)"
	psql -X -q -v ON_ERROR_STOP=1 -v scale=$scale -f "\$f"
done
echo
echo "== results (ratio = value / baseline; lower is better unless the target says otherwise)"
psql -X -P pager=off -c "SELECT suite, figure, round(value::numeric, 2) AS value, unit, baseline_name, round(baseline::numeric, 2) AS baseline, round(ratio::numeric, 3) AS ratio, target FROM bench.results ORDER BY id"
SCRIPT
chmod 755 "$script"
pg_virtualenv -t -v 15 -o shared_buffers=1GB -o work_mem=256MB -o max_parallel_workers_per_gather=0 \
	-o jit=off -o max_wal_size=4GB sh "$script"
rm -f "$script"
# the installed library is shared with other work trees on this machine
if [ "$(stat -c %Y "$so" 2>/dev/null || echo none)" != "$so_stamp" ]; then
	echo "bench: WARNING: $so was reinstalled during the run; figures may mix builds" >&2
fi
