#!/bin/sh
# make test-matrix: run the complete pg_regress and TAP suites (`make test`)
# on PostgreSQL 16, 17 and 18, each in a chroot holding that server from its
# distribution's own suites (Debian trixie: 17, sid: 18; Ubuntu 24.04 noble:
# 16, which no Debian suite carries), then the pg_regress suite against
# a UBSan build on this machine's server (BF_UBSAN=0 skips it), the pagebloom
# pg_regress tests against a build without GCC's vector extension (NOVEC=1),
# then the cross-version data test (test/crossversion.sh: what 15 wrote, 17 and 18 read).  Prints the
# "N passed, N failed" line of each version and a total; exits non-zero on any
# failure.
#
# The chroots are built once (debootstrap, ~35 s, and the packages, ~60 s each)
# under $BF_MATRIX_DIR (default /var/cache/bloomfilter-matrix) and reused:
# a second run only copies the source tree in.  Needs root (chroot, mount).
#   PGVERSIONS="17"  make test-matrix   one version only
set -u
cd "$(dirname "$0")/.."
top=$(pwd)
. test/lib.sh
dir=${BF_MATRIX_DIR:-/var/cache/bloomfilter-matrix}
versions=${PGVERSIONS:-16 17 18}

if ! $asroot; then
	echo "test-matrix: needs root (debootstrap, chroot, mount); run: sudo make test-matrix" >&2
	echo "0 passed, 1 failed"
	exit 1
fi

# the suite that carries a server version
suite_of() {
	case "$1" in
		16) echo noble ;;
		17) echo trixie ;;
		18) echo sid ;;
		*) echo "test-matrix: no suite known for PostgreSQL $1" >&2; return 1 ;;
	esac
}

# unmount a chroot's /proc and /dev (nothing else is mounted in it), also
# mounts stacked by an interrupted earlier run
bf_umount() {
	for m in "$1/dev" "$1/proc"; do
		while mountpoint -q "$m"; do
			umount "$m" || break
		done
	done
	return 0
}

# mount a chroot's /proc and /dev unless they are mounted
bf_mount() {
	mountpoint -q "$1/proc" || mount -t proc proc "$1/proc" || return 1
	mountpoint -q "$1/dev" || mount --bind /dev "$1/dev"
}

# bf_chroot_ready DIR SUITE VER: bootstrap DIR and install the server and the
# build and test dependencies, unless a previous run completed that (.ready)
bf_chroot_ready() {
	[ -f "$1/.ready" ] && return 0
	echo "test-matrix: building the $2 chroot for PostgreSQL $3 in $1"
	bf_umount "$1"
	[ -d "$1" ] && rm -rf --one-file-system "$1"
	mkdir -p "$(dirname "$1")"
	command -v debootstrap >/dev/null 2>&1 ||
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap >/dev/null ||
		return 1
	case "$2" in
		noble)
			# the base system over https: a Debian host has no Ubuntu keyring to check the
			# Release file with (debootstrap's own check is off; TLS, checked with the host's
			# certificates, authenticates the mirror); then apt inside the chroot checks the
			# archive's signatures with the ubuntu-keyring the base system installed
			debootstrap --variant=minbase --no-check-gpg --components=main,universe \
				noble "$1" https://archive.ubuntu.com/ubuntu \
				/usr/share/debootstrap/scripts/gutsy >"$1.log" 2>&1 || { tail -n 20 "$1.log"; return 1; }
			printf 'deb http://archive.ubuntu.com/ubuntu noble main universe\ndeb http://archive.ubuntu.com/ubuntu noble-updates main universe\n' \
				>"$1/etc/apt/sources.list"
			;;
		*)
			debootstrap --variant=minbase "$2" "$1" http://deb.debian.org/debian >"$1.log" 2>&1 ||
				{ tail -n 20 "$1.log"; return 1; }
			;;
	esac
	# sid's Release file reads as expired against some clocks
	echo 'Acquire::Check-Valid-Until "false";' >"$1/etc/apt/apt.conf.d/99bloomfilter"
	cp /etc/resolv.conf "$1/etc/resolv.conf"
	bf_mount "$1" || return 1
	chroot "$1" sh -c "export DEBIAN_FRONTEND=noninteractive; apt-get update -qq &&
		apt-get install -y -qq --no-install-recommends postgresql-$3 postgresql-server-dev-$3 postgresql-$3-hll \
			libxxhash-dev libicu-dev pkg-config libipc-run-perl gcc make perl ca-certificates" \
		>>"$1.log" 2>&1 || { tail -n 20 "$1.log"; bf_umount "$1"; return 1; }
	bf_umount "$1"
	touch "$1/.ready"
}

# bf_chroot_copy DIR: this source tree (without .git and build products) into DIR/build/bloomfilter
bf_chroot_copy() {
	rm -rf "$1/build"
	mkdir -p "$1/build/bloomfilter"
	if [ -d .git ] || [ -f .git ]; then
		git ls-files -co --exclude-standard | tar cf - -T - | tar xf - -C "$1/build/bloomfilter"
	else
		tar cf - --exclude='*.o' --exclude='*.so' . | tar xf - -C "$1/build/bloomfilter"
	fi
}

total_p=0
total_f=0
summary=""
# tally LABEL <output: add a leg's "N passed, N failed" line (the last one in its
# output) to the totals and the summary; no such line, or a leg that ran nothing,
# counts as one failure
tally() {
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' | tail -n 1)
	[ -n "$line" ] || line="0 passed, 1 failed"
	p=${line%% passed*}
	f=${line#*passed, }
	f=${f%% failed*}
	[ "$p" = 0 ] && [ "$f" = 0 ] && f=1
	total_p=$((total_p + p))
	total_f=$((total_f + f))
	summary="$summary
$1: $line"
}

# the pg_regress / TAP split that test/run-tests.sh prints, for the summary
split_of() {
	grep -E '^PostgreSQL [0-9]+: pg_regress: ' "$1" | tail -n 1 | sed 's/^PostgreSQL [0-9]*: /  (/; s/$/)/'
}
mounted=""
skipped=""
trap 'for d in $mounted; do bf_umount "$d"; done' EXIT
trap 'exit 1' INT TERM
for v in $versions; do
	s=$(suite_of "$v") || { total_f=$((total_f + 1)); continue; }
	d="$dir/$s"
	if ! bf_chroot_ready "$d" "$s" "$v"; then
		if [ "$s" = noble ] && ! wget -q -T 20 -O /dev/null https://archive.ubuntu.com/ubuntu/dists/noble/Release; then
			# an environment without Ubuntu's archive: said, not counted
			echo "test-matrix: archive.ubuntu.com is not reachable: PostgreSQL $v not tested"
			summary="$summary
PostgreSQL $v: not run (archive.ubuntu.com not reachable)"
			skipped="$skipped $v"
			continue
		fi
		echo "test-matrix: could not build the $s chroot"
		summary="$summary
PostgreSQL $v: 0 passed, 1 failed (no chroot)"
		total_f=$((total_f + 1))
		continue
	fi
	bf_chroot_copy "$d"
	bf_mount "$d"
	mounted="$mounted $d"
	echo "=== PostgreSQL $v ($s chroot) ==="
	# the README's own command, as on a Debian machine whose only server is this one: the Makefile
	# and test/deps.sh find it themselves (nothing of the calling make: no PG_CONFIG, no MAKEFLAGS)
	chroot "$d" env -u PG_CONFIG -u MAKEFLAGS -u MFLAGS -u MAKELEVEL sh -c "cd /build/bloomfilter && make test" \
		>"$d/build/test.log" 2>&1
	cat "$d/build/test.log"
	tally "PostgreSQL $v" <"$d/build/test.log"
	summary="$summary
$(split_of "$d/build/test.log")"
done

# the pg_regress suite against a build with -fsanitize=undefined
# -fno-sanitize-recover=all, on this machine's server (unless BF_UBSAN=0)
if [ "${BF_UBSAN:-1}" != 0 ]; then
	echo "=== UBSan build, pg_regress, on this machine's server ==="
	UBSAN=1 TAP=none sh test/run-tests.sh >"$dir/ubsan.log" 2>&1
	cat "$dir/ubsan.log"
	tally "UBSan" <"$dir/ubsan.log"
fi

# the pagebloom tests against a build without GCC's vector extension (the
# row map compare's portable loop, which other compilers build)
echo "=== portable build (NOVEC=1), pagebloom pg_regress, on this machine's server ==="
NOVEC=1 REGRESS="pagebloom pagebloom_volume" TAP=none sh test/run-tests.sh >"$dir/novec.log" 2>&1
cat "$dir/novec.log"
tally "portable" <"$dir/novec.log"

# what 15 (this machine's server) wrote, 16, 17 and 18 read
if [ -f test/crossversion.sh ]; then
	echo "=== data across versions ==="
	xversions=""
	for v in $versions; do
		case " $skipped " in *" $v "*) ;; *) xversions="$xversions $v" ;; esac
	done
	BF_MATRIX_DIR="$dir" PGVERSIONS="$xversions" sh test/crossversion.sh >"$dir/crossversion.log" 2>&1
	cat "$dir/crossversion.log"
	tally "across versions" <"$dir/crossversion.log"
fi

echo "=== matrix ===$summary"
echo "$total_p passed, $total_f failed"
[ "$total_f" = 0 ]
