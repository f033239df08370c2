#!/bin/sh
# make test: build with assertions, install, run every pg_regress test against
# a throwaway cluster (pg_virtualenv) and every TAP test (prove, as a non-root
# user), then print "N passed, N failed" and exit non-zero on any failure.
#
# Environment: REGRESS=... limits pg_regress to some tests, TAP=... to some
# TAP files (paths; TAP=none runs none), for work on one piece.
set -u
cd "$(dirname "$0")/.."
top=$(pwd)
PGBIN=/usr/lib/postgresql/15/bin
PG_CONFIG=$PGBIN/pg_config
export PATH="$PGBIN:$PATH"

# one build at a time on this machine (several work trees may share it)
build() {
	make -s clean PG_CONFIG=$PG_CONFIG >/dev/null 2>&1
	make -s ASSERTS=1 PG_CONFIG=$PG_CONFIG && make -s install PG_CONFIG=$PG_CONFIG
}
if command -v flock >/dev/null 2>&1; then
	exec 9>/tmp/bloomfilter-build.lock
	flock 9
fi
if ! build >build.log 2>&1; then
	cat build.log
	echo "build failed"
	echo "0 passed, 1 failed"
	exit 1
fi
exec 9>&-
rm -f build.log

passed=0
failed=0

# --- pg_regress --------------------------------------------------------
out=$(mktemp)
regress_out=$(mktemp -d /tmp/bloomfilter-regress.XXXXXX)
chmod 755 "$regress_out"
if [ -n "${REGRESS:-}" ]; then
	set -- "REGRESS=$REGRESS"
else
	set --
fi
pg_virtualenv -t -v 15 make -s installcheck PG_CONFIG=$PG_CONFIG "$@" \
	REGRESS_OUTDIR="$regress_out" >"$out" 2>&1
rc=$?
cat "$out"
rp=$(grep -cE '^(ok|test) .* ok( |$)|^test .* \.\.\. ok|^ok [0-9]+ ' "$out" || true)
rf=$(grep -cE '\.\.\. FAILED|^not ok [0-9]+ ' "$out" || true)
if [ "$rc" != 0 ] && [ "$rf" = 0 ]; then
	rf=1
fi
if [ "$rf" != 0 ]; then
	[ -f "$regress_out/regression.diffs" ] && cat "$regress_out/regression.diffs"
	echo "pg_regress results kept in $regress_out"
else
	rm -rf "$regress_out"
fi
passed=$((passed + rp))
failed=$((failed + rf))
rm -f "$out"

# --- TAP ---------------------------------------------------------------
tapfiles=${TAP:-$(ls test/t/*.pl 2>/dev/null)}
[ "$tapfiles" = none ] && tapfiles=""
if [ -n "$tapfiles" ]; then
	pgxsdir="$(dirname "$($PG_CONFIG --pgxs)")/.."
	perldir="$pgxsdir/test/perl"
	export PG_REGRESS="$pgxsdir/test/regress/pg_regress"
	work=$(mktemp -d /tmp/bloomfilter-tap.XXXXXX)
	cp -r test "$work/"
	out="$work/prove.out"
	if [ "$(id -u)" = 0 ]; then
		chown -R postgres "$work"
		(cd "$work" && runuser -u postgres -- env PATH="$PATH" BF_TOP="$top" PG_REGRESS="$PG_REGRESS" \
			prove -v -I "$perldir" -I test/t $tapfiles) >"$out" 2>&1
	else
		(cd "$work" && env BF_TOP="$top" prove -v -I "$perldir" -I test/t $tapfiles) >"$out" 2>&1
	fi
	rc=$?
	cat "$out"
	tp=$(grep -cE '^[[:space:]]*ok [0-9]+' "$out" || true)
	tf=$(grep -cE '^[[:space:]]*not ok [0-9]+' "$out" || true)
	if [ "$rc" != 0 ] && [ "$tf" = 0 ]; then
		tf=1
	fi
	passed=$((passed + tp))
	failed=$((failed + tf))
	if [ "$failed" = 0 ]; then rm -rf "$work"; else echo "TAP logs kept in $work"; fi
fi

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
