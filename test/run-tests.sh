#!/bin/sh
# make test: build with assertions, install, run every pg_regress test and
# every TAP test against throwaway clusters, then print "N passed, N failed"
# and exit non-zero on any failure.
#
# The tests run against a private copy of the PostgreSQL installation (the
# newest installed server, or PG_CONFIG=.../pg_config when given)
# (hard links, about 50 MB of directory entries), into which this build is
# installed, so concurrent runs from several work trees never see each
# other's builds.  As root, the build is also installed system-wide.
#
# Environment: REGRESS="a b" limits pg_regress to some tests, TAP="t/x.pl ..."
# to some TAP files (TAP=none runs none), for work on one piece.  UBSAN=1
# builds with -fsanitize=undefined -fno-sanitize-recover=all (any finding
# aborts the backend, so the test fails) and installs only into the private
# tree; so does NOVEC=1 (the portable loops in place of GCC vector code).
set -u
cd "$(dirname "$0")/.."
top=$(pwd)
. test/lib.sh
bf_pick_server
pgxsdir="$(dirname "$($PG_CONFIG --pgxs)")/.."
perldir="$pgxsdir/test/perl"
echo "PostgreSQL $PGVER ($PG_CONFIG)"

work=$(mktemp -d /tmp/bloomfilter-test.XXXXXX)
chmod 755 "$work"
inst="$work/install"
bf_private_tree "$inst"
BIN="$inst$PGBIN"

# one build at a time in this work tree
build() {
	make -s clean PG_CONFIG=$PG_CONFIG >/dev/null 2>&1
	make -s ASSERTS=1 ${UBSAN:+UBSAN=1} ${NOVEC:+NOVEC=1} PG_CONFIG=$PG_CONFIG &&
		make -s install PG_CONFIG=$PG_CONFIG DESTDIR="$inst" &&
		if $asroot && [ -z "${UBSAN:-}${NOVEC:-}" ]; then make -s install PG_CONFIG=$PG_CONFIG; fi
}
if command -v flock >/dev/null 2>&1; then
	exec 9>/tmp/bloomfilter-build.lock
	flock 9
fi
if ! build >"$work/build.log" 2>&1; then
	cat "$work/build.log"
	echo "build failed"
	echo "0 passed, 1 failed"
	rm -rf "$work"
	exit 1
fi
exec 9>&-
$asroot && chown -R postgres "$work"

passed=0
failed=0

# --- pg_regress --------------------------------------------------------
tests=${REGRESS:-$(ls sql/*.sql | grep -v '/bloomfilter--' | sed 's|sql/||; s|\.sql$||' | sort)}
# a test without an expected output would stop pg_regress: count it as failed
missing=0
present=""
for t in $tests; do
	if [ -f "expected/$t.out" ]; then
		present="$present $t"
	else
		echo "test $t has no expected/$t.out: counted as failed"
		missing=$((missing + 1))
	fi
done
tests=$present
out="$work/regress.txt"
# no autovacuum: a worker's snapshot would hold back the horizon that tests of
# VACUUM and re-summarization of dead rows rely on (the tests run one at a time)
echo "autovacuum = off" >"$work/regress.conf"
unpriv "$pgxsdir/test/regress/pg_regress" --temp-instance="$work/instance" --bindir="$BIN" \
	--temp-config="$work/regress.conf" \
	--inputdir="$top" --outputdir="$work/regress" --load-extension=bloomfilter --encoding=UTF8 \
	--dbname=contrib_regression $tests >"$out" 2>&1
rc=$?
cat "$out"
rp=$(grep -cE '^(ok [0-9]+|test .*\.\.\. ok)' "$out" || true)
rf=$(grep -cE '\.\.\. FAILED|^not ok [0-9]+' "$out" || true)
if [ "$rc" != 0 ] && [ "$rf" = 0 ]; then
	rf=1
fi
if [ "$rf" != 0 ]; then
	[ -f "$work/regress/regression.diffs" ] && cat "$work/regress/regression.diffs"
fi
passed=$((passed + rp))
failed=$((failed + rf + missing))
split="pg_regress: $rp passed, $((rf + missing)) failed"

# --- TAP ---------------------------------------------------------------
tapfiles=${TAP:-$(ls test/t/*.pl 2>/dev/null)}
[ "$tapfiles" = none ] && tapfiles=""
if [ -n "$tapfiles" ]; then
	cp -r test "$work/tap"
	$asroot && chown -R postgres "$work/tap"
	out="$work/prove.txt"
	(cd "$work/tap" && unpriv env PATH="$BIN:$PATH" BF_TOP="$top" \
		PG_REGRESS="$pgxsdir/test/regress/pg_regress" \
		prove -v -I "$perldir" -I t $(echo "$tapfiles" | sed 's|test/||g')) >"$out" 2>&1
	rc=$?
	cat "$out"
	tp=$(grep -cE '^[[:space:]]*ok [0-9]+' "$out" || true)
	tf=$(grep -cE '^[[:space:]]*not ok [0-9]+' "$out" || true)
	if [ "$rc" != 0 ] && [ "$tf" = 0 ]; then
		tf=1
	fi
	passed=$((passed + tp))
	failed=$((failed + tf))
	split="$split; TAP: $tp passed, $tf failed"
fi

if [ "$failed" = 0 ]; then
	rm -rf "$work"
else
	echo "results kept in $work (regress/results/*.out, regress/regression.diffs, tap/tmp_check/log)"
fi
echo "PostgreSQL $PGVER: $split"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
