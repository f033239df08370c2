# pagebloom: crash recovery.  Kill -9 the server while several clients insert
# (with a checkpoint in between, so recovery replays both full-page images and
# word deltas, and new segments and row map pages are being added); after
# recovery the indexes
# must pass pagebloom_verify and answer like a sequential scan.  An unlogged
# table's index must come back empty and usable (init fork).
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;
use Time::HiRes qw(usleep);

# kill -9 the postmaster, wait until all its processes are gone, restart
sub crash_and_restart
{
	my ($node) = @_;
	my @pids = split /\n/, $node->safe_psql('postgres',
		'SELECT pid FROM pg_stat_activity WHERE pid <> pg_backend_pid()');
	$node->kill9;
	for (1 .. 240)
	{
		last unless grep { kill(0, $_) } @pids;
		usleep(250_000);
	}
	$node->start;
}

my $node = PostgreSQL::Test::Cluster->new('pb_crash');
# wal_level replica (the default node's is minimal, where a new index writes
# no WAL), until the last section sets minimal
$node->init(allows_streaming => 1);
$node->append_conf('postgresql.conf', "max_parallel_workers_per_gather = 0\n");
$node->start;

$node->safe_psql('postgres', q{
	CREATE EXTENSION bloomfilter;
	-- fillfactor 10: about 20 rows a page, so the table crosses segment
	-- boundaries (1024 ranges) while the clients insert
	CREATE TABLE t (id bigserial, a int, b text) WITH (fillfactor = 10);
	INSERT INTO t (a, b) SELECT (i * 7919) % 100000, 'v' || (i * 31) % 100000
	FROM generate_series(1, 30000) i;
	CREATE INDEX t_pb ON t USING pagebloom (a, b) WITH (pages_per_range = 1, block_bits = 255);
	CREATE INDEX t_pb_default ON t USING pagebloom (a, b);
	CREATE UNLOGGED TABLE u (a int, b text);
	INSERT INTO u SELECT i % 1000, 'u' || i FROM generate_series(1, 20000) i;
	CREATE INDEX u_pb ON u USING pagebloom (a, b);
	CHECKPOINT;
});

my $script = $node->basedir . '/insert.sql';
open(my $fh, '>', $script) or die;
print $fh q{INSERT INTO t (a, b) SELECT (random() * 100000)::int, 'v' || (random() * 100000)::int FROM generate_series(1, 20);
INSERT INTO u SELECT (random() * 1000)::int, 'u' || (random() * 100000)::int FROM generate_series(1, 5);
};
close($fh);

my ($out, $err) = ('', '');
my $pgbench = IPC::Run::start(
	[ 'pgbench', '-n', '-c', '4', '-j', '2', '-T', '60', '-f', $script,
	  '-h', $node->host, '-p', $node->port, 'postgres' ],
	'>', \$out, '2>', \$err);

# let the clients run, checkpoint in the middle, run on, then kill -9
$node->poll_query_until('postgres', q{SELECT count(*) > 60000 FROM t})
  or die "inserts did not progress";
$node->safe_psql('postgres', 'CHECKPOINT');
my $before = $node->safe_psql('postgres', 'SELECT count(*) FROM t');
$node->poll_query_until('postgres', "SELECT count(*) > $before + 30000 FROM t")
  or die "inserts did not progress after the checkpoint";
crash_and_restart($node);
$pgbench->finish;
ok(1, 'server killed with SIGKILL while 4 clients were inserting, and restarted');

my $n = $node->safe_psql('postgres', 'SELECT count(*) FROM t');
cmp_ok($n, '>', $before, "rows committed before the crash survive ($n)");
cmp_ok($node->safe_psql('postgres', q{SELECT segments FROM pagebloom_info('t_pb')}), '>', 1,
	'the index grew past its first segment');
is($node->safe_psql('postgres', q{SELECT pagebloom_verify('t_pb')}), $n,
	'the recovered index passes verification: every row is in its signature and row map');
is($node->safe_psql('postgres', q{SELECT pagebloom_verify('t_pb_default')}), $n,
	'so does the index of default ranges, whose row map pages were added as the heap grew');
$node->safe_psql('postgres', 'DROP INDEX t_pb_default');

# ground truth: matches per probe through the index and by grouped counts
$node->safe_psql('postgres', q{
	CREATE TABLE probe AS SELECT g AS v FROM generate_series(0, 100000, 61) g;
});
my $via_index = $node->safe_psql('postgres', q{
	SET enable_seqscan = off; SET enable_indexscan = off;
	SELECT string_agg(p.v || ':' || (SELECT count(*) FROM t WHERE a = p.v) || '/' ||
		(SELECT count(*) FROM t WHERE b = 'v' || p.v), ',' ORDER BY p.v) FROM probe p;
});
my $truth = $node->safe_psql('postgres', q{
	SET enable_bitmapscan = off; SET enable_indexscan = off;
	SELECT string_agg(p.v || ':' || coalesce(x.n, 0) || '/' || coalesce(y.n, 0), ',' ORDER BY p.v)
	FROM probe p
	LEFT JOIN (SELECT a AS v, count(*) AS n FROM t GROUP BY a) x ON x.v = p.v
	LEFT JOIN (SELECT b AS v, count(*) AS n FROM t GROUP BY b) y ON y.v = 'v' || p.v;
});
is($via_index, $truth, 'index scans after recovery return what sequential scans return');
like($node->safe_psql('postgres',
	q{SET enable_seqscan = off; EXPLAIN (COSTS OFF) SELECT * FROM t WHERE a = 1}),
	qr/Bitmap Index Scan on t_pb/, 'the comparison went through the index');

# the unlogged table was reset to empty, its index to the init fork
is($node->safe_psql('postgres', 'SELECT count(*) FROM u'), '0', 'the unlogged table is empty after the crash');
$node->safe_psql('postgres', q{INSERT INTO u SELECT i % 1000, 'u' || i FROM generate_series(1, 30000) i});
is($node->safe_psql('postgres', q{SELECT pagebloom_verify('u_pb')}), '30000',
	'the reset unlogged index takes new rows and passes verification');
is($node->safe_psql('postgres', q{SET enable_seqscan = off; SELECT count(*) FROM u WHERE a = 42 AND b = 'u42'}),
	'1', 'and finds them');

# a second crash right after a re-summarization
$node->safe_psql('postgres', q{DELETE FROM t WHERE id % 4 <> 0; VACUUM t; SELECT pagebloom_resummarize('t_pb', 0.3)});
$n = $node->safe_psql('postgres', 'SELECT count(*) FROM t');
crash_and_restart($node);
is($node->safe_psql('postgres', q{SELECT pagebloom_verify('t_pb')}), $n,
	'the index passes verification after a crash following re-summarization');

# a build writes its pages outside shared buffers: a crash right after it,
# before any checkpoint, must find them (replayed from their full page
# images; the build registers the file with the checkpointer rather than
# syncing it, as no checkpoint began during the build)
$node->psql('postgres', q{
	CHECKPOINT;
	CREATE TABLE w WITH (fillfactor = 10) AS
		SELECT i AS a, 'w' || (i % 5000) AS b FROM generate_series(1, 100000) i;
	SET client_min_messages = debug1;
	CREATE INDEX w_pb ON w USING pagebloom (a, b);
	CREATE INDEX w_pb_small ON w USING pagebloom (a) WITH (pages_per_range = 1, block_bits = 63);
}, stdout => \$out, stderr => \$err, on_error_die => 1);
like($err, qr/pagebloom index "w_pb_small" registered with the checkpointer at the end of its build/,
	'a build during which no checkpoint began leaves the sync to the next checkpoint');
crash_and_restart($node);
is($node->safe_psql('postgres', q{SELECT pagebloom_verify('w_pb') || '/' || pagebloom_verify('w_pb_small')}),
	'100000/100000', 'indexes built just before a crash pass verification after recovery');
cmp_ok($node->safe_psql('postgres', q{SELECT segments FROM pagebloom_info('w_pb_small')}), '>', 1,
	'(one of them spans several segments, each written in batches)');

# a checkpoint that begins during a build, after some of its segments are
# written (an index expression runs CHECKPOINT at the 90,000th row), moves
# the redo point past their WAL: the build must sync the file itself (the
# expression names its schema: PostgreSQL 17 and later build indexes with
# search_path = pg_catalog, pg_temp)
$node->psql('postgres', q{
	CREATE FUNCTION ckpt_now() RETURNS void LANGUAGE plpgsql AS $$ BEGIN EXECUTE 'CHECKPOINT'; END $$;
	CREATE FUNCTION ckpt_at(x int) RETURNS int LANGUAGE plpgsql IMMUTABLE
		AS $$ BEGIN IF x = 90000 THEN PERFORM public.ckpt_now(); END IF; RETURN x; END $$;
	SET client_min_messages = debug1;
	CREATE INDEX w_pb_ckpt ON w USING pagebloom (ckpt_at(a)) WITH (pages_per_range = 1, block_bits = 63);
}, stdout => \$out, stderr => \$err, on_error_die => 1);
like($err, qr/pagebloom index "w_pb_ckpt" synced at the end of its build: a checkpoint began during the build/,
	'a build during which a checkpoint began syncs its file');
crash_and_restart($node);
is($node->safe_psql('postgres', q{SELECT pagebloom_verify('w_pb_ckpt')}), '100000',
	'and passes verification after a crash');
is($node->safe_psql('postgres', q{SET enable_seqscan = off; SELECT count(*) FROM w WHERE ckpt_at(a) = 4242}), '1',
	'and finds its rows');

# wal_level = minimal: an index built in the transaction that created its
# table, or rebuilt, writes no WAL; the commit (and the build's own sync)
# must leave it on disk
$node->append_conf('postgresql.conf', "wal_level = minimal\nmax_wal_senders = 0\n");
$node->restart;
$node->safe_psql('postgres', q{
	BEGIN;
	CREATE TABLE m (a int, b text);
	INSERT INTO m SELECT i, 'm' || (i % 777) FROM generate_series(1, 50000) i;
	CREATE INDEX m_pb ON m USING pagebloom (a, b);
	COMMIT;
	REINDEX INDEX w_pb;
});
crash_and_restart($node);
is($node->safe_psql('postgres', q{SELECT pagebloom_verify('m_pb') || '/' || pagebloom_verify('w_pb')}),
	'50000/100000', 'with wal_level = minimal, indexes built without WAL survive a crash after commit');
is($node->safe_psql('postgres', q{SET enable_seqscan = off; SELECT count(*) FROM m WHERE a = 4242 AND b = 'm' || (4242 % 777)}),
	'1', 'and find their rows');

$node->stop;
done_testing();
