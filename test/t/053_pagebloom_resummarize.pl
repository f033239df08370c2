# pagebloom re-summarization against concurrent heap growth and standby
# snapshots: no false negative in either case.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;

my $primary = PostgreSQL::Test::Cluster->new('primary');
$primary->init(allows_streaming => 1);
$primary->append_conf('postgresql.conf', "max_parallel_workers_per_gather = 0\nautovacuum = off\n");
$primary->start;
$primary->backup('bk');
my $standby = PostgreSQL::Test::Cluster->new('standby');
$standby->init_from_backup($primary, 'bk', has_streaming => 1);
$standby->start;

# --- 1. the heap grows into the last, partly present range while
# re-summarization waits in an earlier segment (pages_per_range = 2): the new
# rows' index inserts finish before it reaches their segment, so it must
# read the heap's size again there and scan them.
$primary->safe_psql('postgres', q{
	CREATE EXTENSION bloomfilter;
	CREATE FUNCTION f(int) RETURNS int IMMUTABLE LANGUAGE plpgsql AS $$
	BEGIN
		IF $1 = -1 THEN
			PERFORM pg_advisory_lock_shared(4242);
			PERFORM pg_advisory_unlock_shared(4242);
		END IF;
		RETURN $1;
	END $$;
	CREATE TABLE t (a int, b int, pad text) WITH (fillfactor = 10, autovacuum_enabled = off);
	INSERT INTO t VALUES (-1, -1, repeat('x', 300));
	INSERT INTO t SELECT g, g, repeat('x', 300) FROM generate_series(1, 4100) g;
});
# an odd heap size: the last range of 2 pages is half present
for (1 .. 10)
{
	my $nb = $primary->safe_psql('postgres', q{SELECT pg_relation_size('t') / 8192});
	last if $nb % 2 == 1 && $nb > 2050;
	$primary->safe_psql('postgres', q{INSERT INTO t VALUES (0, 0, repeat('x', 300))});
}
my $nb = $primary->safe_psql('postgres', q{SELECT pg_relation_size('t') / 8192});
ok($nb % 2 == 1 && $nb > 2048, "heap of $nb blocks: two segments, last range half present");
$primary->safe_psql('postgres', q{CREATE INDEX t_pb ON t USING pagebloom (f(a), b) WITH (pages_per_range = 2)});

my ($lin, $lout, $lerr) = ('', '', '');
my $locker = IPC::Run::start(['psql', '-X', '-d', $primary->connstr('postgres'), '-f', '-'],
	'<', \$lin, '>', \$lout, '2>', \$lerr);
$lin .= "SELECT pg_advisory_lock(4242);\n\\echo locked\n";
$locker->pump until $lout =~ /locked/;

my ($rout, $rerr) = ('', '');
my $resum = IPC::Run::start(['psql', '-X', '-A', '-t', '-d', $primary->connstr('postgres'), '-c',
	q{SELECT pagebloom_resummarize('t_pb', 0)}], '>', \$rout, '2>', \$rerr);
$primary->poll_query_until('postgres', q{SELECT count(*) > 0 FROM pg_stat_activity
	WHERE wait_event = 'advisory' AND query LIKE '%resummarize%'});

# the heap grows into the last range (segment 1) while segment 0 is being done
$primary->safe_psql('postgres', q{INSERT INTO t SELECT 777770 + g, 777770 + g, repeat('y', 300) FROM generate_series(1, 5) g});
ok($primary->safe_psql('postgres', q{SELECT pg_relation_size('t') / 8192}) > $nb,
	'the insert extended the heap');

$lin .= "SELECT pg_advisory_unlock(4242);\n\\q\n";
$locker->finish;
$resum->finish;
is($rerr, '', 'resummarize ran without error or warning');

my $q = q{SELECT string_agg((SELECT count(*) FROM t WHERE b = v)::text, ',' ORDER BY v) FROM generate_series(777771, 777775) v};
my $seq = $primary->safe_psql('postgres', "SET enable_bitmapscan = off; SET enable_indexscan = off; $q");
my $idx = $primary->safe_psql('postgres', "SET enable_seqscan = off; $q");
is($seq, '1,1,1,1,1', 'sequential scan finds the new rows');
is($idx, $seq, 'bitmap scan after a concurrent resummarize finds every new row');
like($primary->safe_psql('postgres', "SET enable_seqscan = off; EXPLAIN (COSTS OFF) $q"),
	qr/Bitmap Index Scan on t_pb/, 'and uses the index');
my (undef, $vout, $verr) = $primary->psql('postgres', q{SELECT pagebloom_verify('t_pb')});
is($vout, $primary->safe_psql('postgres', q{SELECT count(*) FROM t}), 'pagebloom_verify finds every key');

# --- 2. a standby snapshot still sees a row that the primary deleted; the
# primary re-summarizes with min_stale 0 (no VACUUM: the row keeps its
# storage).  Its bits must stay until pruning removes it.
$primary->safe_psql('postgres', q{
	CREATE TABLE s (a int, b int) WITH (autovacuum_enabled = off);
	INSERT INTO s SELECT g, g FROM generate_series(1, 20) g;
	INSERT INTO s VALUES (555, 555);
	CREATE INDEX s_pb ON s USING pagebloom (a, b);
});
$primary->wait_for_catchup($standby, 'replay', $primary->lsn('insert'));

my ($in, $out, $err) = ('', '', '');
my $h = IPC::Run::start(['psql', '-X', '-A', '-t', '-d', $standby->connstr('postgres'), '-f', '-'],
	'<', \$in, '>', \$out, '2>', \$err);
$in .= "SET enable_seqscan = off; SET enable_indexscan = off; BEGIN ISOLATION LEVEL REPEATABLE READ; SELECT 'snap', count(*) FROM s WHERE b = 555;\n";
$h->pump until $out =~ /snap\|1/;

$primary->safe_psql('postgres', q{DELETE FROM s WHERE b = 555});
my $before = $primary->safe_psql('postgres', q{SELECT fill_ratio FROM pagebloom_info('s_pb')});
$primary->safe_psql('postgres', q{SELECT pagebloom_resummarize('s_pb', 0)});
is($primary->safe_psql('postgres', q{SELECT fill_ratio FROM pagebloom_info('s_pb')}), $before,
	'the deleted, unpruned row keeps its bits');
$primary->wait_for_catchup($standby, 'replay', $primary->lsn('insert'));

$in .= "SELECT 'idx', count(*) FROM s WHERE b = 555; EXPLAIN (COSTS OFF) SELECT count(*) FROM s WHERE b = 555; "
  . "SET enable_indexscan = on; SET enable_bitmapscan = off; SELECT 'ixs', count(*) FROM s WHERE b = 555; "
  . "EXPLAIN (COSTS OFF) SELECT count(*) FROM s WHERE b = 555; "
  . "SET enable_indexscan = off; SET enable_seqscan = on; SELECT 'seq', count(*) FROM s WHERE b = 555; COMMIT;\n\\q\n";
$h->finish;
my ($i) = $out =~ /idx\|(\d+)/;
my ($x) = $out =~ /ixs\|(\d+)/;
my ($sq) = $out =~ /seq\|(\d+)/;
is($sq, 1, 'standby snapshot: sequential scan sees the deleted row');
is($i, $sq, 'standby snapshot: bitmap scan agrees after the primary re-summarized');
is($x, $sq, 'standby snapshot: index scan (amgettuple) agrees too');
like($out, qr/Bitmap Index Scan on s_pb/, 'standby query used the index');
like($out, qr/Index Scan using s_pb/, 'and the index scan used it');

# once pruned (VACUUM; the standby query is gone), the bits do go
$primary->safe_psql('postgres', q{VACUUM s});
$primary->safe_psql('postgres', q{SELECT pagebloom_resummarize('s_pb', 0)});
cmp_ok($primary->safe_psql('postgres', q{SELECT fill_ratio FROM pagebloom_info('s_pb')}), '<', $before,
	'after VACUUM pruned the row, re-summarization drops its bits');
$primary->wait_for_catchup($standby, 'replay', $primary->lsn('insert'));
is($standby->safe_psql('postgres', q{SET enable_seqscan = off; SELECT count(*) FROM s WHERE b = 555 OR b = 7}),
	'1', 'standby agrees afterwards');

# --- 3. a deleted row that another snapshot still sees and that CREATE INDEX
# never evaluated (the older member of a HOT chain broken by the new index's
# expression): re-summarization, by VACUUM or by the function, must not
# evaluate the expression (or predicate) on it, which fails there
$primary->safe_psql('postgres', q{
	CREATE TABLE z (id int, a int) WITH (autovacuum_enabled = off);
	INSERT INTO z SELECT g, CASE WHEN g = 5 THEN 0 ELSE g END FROM generate_series(1, 100) g;
});
my ($zin, $zout, $zerr) = ('', '', '');
my $zh = IPC::Run::start(['psql', '-X', '-A', '-t', '-d', $primary->connstr('postgres'), '-f', '-'],
	'<', \$zin, '>', \$zout, '2>', \$zerr);
$zin .= "BEGIN ISOLATION LEVEL REPEATABLE READ; SELECT 'snap', count(*) FROM z;\n";
$zh->pump until $zout =~ /snap\|100/;
$primary->safe_psql('postgres', q{
	UPDATE z SET a = 7 WHERE id = 5;
	CREATE INDEX z_e ON z USING pagebloom ((100 / a));
	CREATE INDEX z_p ON z USING pagebloom (id) WHERE 100 / a > 0;
	CREATE INDEX z_c ON z USING pagebloom (a);
});
is($primary->safe_psql('postgres', q{SELECT indcheckxmin FROM pg_index WHERE indexrelid = 'z_e'::regclass}),
	't', 'the build met a broken HOT chain (indcheckxmin)');
my ($zret, $zo, $ze) = $primary->psql('postgres', q{VACUUM z});
is($ze, '', 'VACUUM does not evaluate the expression on the older HOT member');
($zret, $zo, $ze) = $primary->psql('postgres',
	q{SELECT pagebloom_resummarize('z_e', 0), pagebloom_resummarize('z_p', 0)});
is($ze, '', 'nor does pagebloom_resummarize, for an expression or a predicate');
$zin .= "COMMIT;\n\\q\n";
$zh->finish;
$primary->safe_psql('postgres', q{DROP INDEX z_p});
my $zq = q{SELECT string_agg(id::text, ',' ORDER BY id) FROM z WHERE 100 / a = 14};
like($primary->safe_psql('postgres', "SET enable_seqscan = off; EXPLAIN (COSTS OFF) $zq"), qr/z_e/,
	'the expression query uses the expression index');
is($primary->safe_psql('postgres', "SET enable_seqscan = off; $zq"), '5,7', 'which finds both rows');
is($primary->safe_psql('postgres', q{SET enable_seqscan = off; SELECT count(*) FROM z WHERE a = 7}),
	'2', 'the column index finds both rows');

# --- 4. a row being inserted whose index expression its inserter has not
# evaluated yet (here it sleeps in it, then fails: the insert fails too):
# re-summarization must not evaluate it meanwhile, and the range keeps its bits
$primary->safe_psql('postgres', q{
	CREATE FUNCTION slow_inv(a int) RETURNS int LANGUAGE plpgsql IMMUTABLE AS $$
	BEGIN
		IF a = 0 THEN
			PERFORM pg_sleep(3);
		END IF;
		RETURN 100 / a;
	END $$;
	CREATE TABLE w (a int) WITH (autovacuum_enabled = off);
	INSERT INTO w SELECT g FROM generate_series(1, 100) g;
	CREATE INDEX w_e ON w USING pagebloom (slow_inv(a));
});
my ($win, $wout, $werr) = ("INSERT INTO w VALUES (0);\n\\q\n", '', '');
my $wh = IPC::Run::start(['psql', '-X', '-A', '-t', '-d', $primary->connstr('postgres'), '-f', '-'],
	'<', \$win, '>', \$wout, '2>', \$werr);
$wh->pump_nb while length $win;
ok($primary->poll_query_until('postgres',
	q{SELECT count(*) > 0 FROM pg_stat_activity WHERE wait_event = 'PgSleep' AND query LIKE 'INSERT INTO w%'}),
	'the insert is evaluating its index expression');
($zret, $zo, $ze) = $primary->psql('postgres', q{SELECT pagebloom_resummarize('w_e', 0)});
is($ze, '', 'pagebloom_resummarize does not evaluate the expression on a row being inserted');
$wh->finish;
like($werr, qr/division by zero/, 'the insert itself fails on it');
($zret, $zo, $ze) = $primary->psql('postgres', q{VACUUM w; SELECT pagebloom_resummarize('w_e', 0)});
is($ze, '', 'VACUUM and the function skip the aborted row afterwards');
is($primary->safe_psql('postgres', q{SET enable_seqscan = off; SELECT count(*) FROM w WHERE slow_inv(a) = 100}),
	'1', 'the index still finds the rows');

$standby->stop;
$primary->stop;
done_testing();
