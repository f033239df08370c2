# Shell helpers shared by test/run-tests.sh and test/bench/run.sh (sourced).

asroot=false
[ "$(id -u)" = 0 ] && asroot=true

# run a command as the unprivileged user postgres when we are root
unpriv() {
	if $asroot; then
		runuser -u postgres -- "$@"
	else
		"$@"
	fi
}

# The server to build and test against: PG_CONFIG when given, else the newest
# installed server /usr/lib/postgresql/NN (15 on Debian 12, 17 on Debian 13).  Sets
# PG_CONFIG, PGVER (major version) and PGBIN.
bf_pick_server() {
	if [ -z "${PG_CONFIG:-}" ]; then
		PG_CONFIG=$(ls -d /usr/lib/postgresql/*/bin/postgres 2>/dev/null | sort -t/ -k5 -n | tail -n 1 |
			sed 's|/postgres$|/pg_config|')
		[ -n "$PG_CONFIG" ] || PG_CONFIG=pg_config
	fi
	PGVER=$("$PG_CONFIG" --version | sed 's/^PostgreSQL \([0-9]*\).*/\1/')
	PGBIN=$("$PG_CONFIG" --bindir)
	export PG_CONFIG PGVER PGBIN
}

# bf_private_tree DIR: a private copy of the PostgreSQL $PGVER installation under
# DIR (as DESTDIR for `make install`), without any bloomfilter files, so that
# a run never loads another work tree's build; hard links where /tmp shares a
# file system with /usr, a copy otherwise
bf_private_tree() {
	mkdir -p "$1/usr/lib/postgresql" "$1/usr/share/postgresql"
	for d in lib share; do
		if ! cp -al /usr/$d/postgresql/$PGVER "$1/usr/$d/postgresql/" 2>/dev/null; then
			rm -rf "$1/usr/$d/postgresql/$PGVER"	# never write through a partial set of links
			cp -a /usr/$d/postgresql/$PGVER "$1/usr/$d/postgresql/"
		fi
	done
	rm -f "$1"/usr/lib/postgresql/$PGVER/lib/bloomfilter.so "$1"/usr/share/postgresql/$PGVER/extension/bloomfilter*
}
