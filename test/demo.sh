#!/bin/sh
# make demo: start a throwaway cluster and run test/demo.sql against it,
# echoing every statement and its result.
set -eu
cd "$(dirname "$0")/.."
export PATH="/usr/lib/postgresql/15/bin:$PATH"
script=$(mktemp /tmp/bloomfilter-demo.XXXXXX.sh)
cat >"$script" <<SCRIPT
psql -X -e -v ON_ERROR_STOP=1 -P pager=off -f "$(pwd)/test/demo.sql"
SCRIPT
chmod 755 "$script"
pg_virtualenv -t -v 15 sh "$script"
rm -f "$script"
