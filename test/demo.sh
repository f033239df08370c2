#!/bin/sh
# make demo: start a throwaway cluster and run test/demo.sql against it,
# echoing every statement and its result.
set -eu
cd "$(dirname "$0")/.."
. test/lib.sh
bf_pick_server
export PATH="$PGBIN:$PATH"
script=$(mktemp /tmp/bloomfilter-demo.XXXXXX.sh)
cat >"$script" <<SCRIPT
psql -X -e -v ON_ERROR_STOP=1 -P pager=off -f "$(pwd)/test/demo.sql"
SCRIPT
chmod 755 "$script"
pg_virtualenv -t -v "$PGVER" sh "$script"
rm -f "$script"
