#!/bin/sh
# Install the Debian packages the build, the tests and the benchmarks need.
# As root: apt-get installs what is missing.  Otherwise: print the command.
set -e
PKGS="gcc make perl postgresql-15 postgresql-server-dev-15 postgresql-common libxxhash-dev libipc-run-perl postgresql-15-hll"
missing=""
for p in $PKGS; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed"; then
		missing="$missing $p"
	fi
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ]; then
	echo "deps: installing$missing"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get install -y -qq --no-install-recommends $missing
else
	echo "deps: missing Debian packages; run as root:" >&2
	echo "  apt-get update && apt-get install -y$missing" >&2
	exit 1
fi
