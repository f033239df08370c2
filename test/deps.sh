#!/bin/sh
# Install the Debian packages the build, the tests and the benchmarks need.
# As root: apt-get installs what is missing.  Otherwise: print the command.
set -e
# The server version: that of PG_CONFIG when given, else the newest installed
# server, else the one the distribution's "postgresql" package stands for
# (15 on Debian 12, 17 on Debian 13).
if [ -n "${PG_CONFIG:-}" ]; then
	v=$("$PG_CONFIG" --version | sed 's/^PostgreSQL \([0-9]*\).*/\1/')
else
	v=$(ls -d /usr/lib/postgresql/*/bin/postgres 2>/dev/null | sort -t/ -k5 -n | tail -n 1 | cut -d/ -f5)
	[ -n "$v" ] || v=$(apt-cache depends postgresql 2>/dev/null | sed -n 's/.*Depends: postgresql-\([0-9][0-9]*\)$/\1/p' | head -n 1)
	[ -n "$v" ] || v=15
fi
PKGS="gcc make perl postgresql-$v postgresql-server-dev-$v postgresql-common libxxhash-dev libipc-run-perl postgresql-$v-hll"
# only for the chart of make bench (test/bench/pagebloom_btree.gp): without
# it the benchmark skips the chart, so not being root is no error here
OPTIONAL="gnuplot-nox"
missing=""
optional=""
for p in $PKGS $OPTIONAL; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed"; then
		case " $OPTIONAL " in
			*" $p "*) optional="$optional $p" ;;
			*) missing="$missing $p" ;;
		esac
	fi
done
[ -z "$missing$optional" ] && exit 0
if [ "$(id -u)" = 0 ]; then
	echo "deps: installing$missing$optional"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get install -y -qq --no-install-recommends $missing$optional
elif [ -n "$missing" ]; then
	echo "deps: missing Debian packages; run as root:" >&2
	echo "  apt-get update && apt-get install -y$missing$optional" >&2
	exit 1
else
	echo "deps: for the benchmark chart (optional), run as root:" >&2
	echo "  apt-get update && apt-get install -y$optional" >&2
fi
