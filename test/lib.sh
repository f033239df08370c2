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

# bf_private_tree DIR: a private copy of the PostgreSQL 15 installation under
# DIR (as DESTDIR for `make install`), without any bloomfilter files, so that
# a run never loads another work tree's build; hard links where /tmp shares a
# file system with /usr, a copy otherwise
bf_private_tree() {
	mkdir -p "$1/usr/lib/postgresql" "$1/usr/share/postgresql"
	for d in lib share; do
		if ! cp -al /usr/$d/postgresql/15 "$1/usr/$d/postgresql/" 2>/dev/null; then
			rm -rf "$1/usr/$d/postgresql/15"	# never write through a partial set of links
			cp -a /usr/$d/postgresql/15 "$1/usr/$d/postgresql/"
		fi
	done
	rm -f "$1"/usr/lib/postgresql/15/lib/bloomfilter.so "$1"/usr/share/postgresql/15/extension/bloomfilter*
}
