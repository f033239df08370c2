# pagebloom: concurrent writers.  Several pgbench clients insert, update and
# delete while others compare, in one repeatable-read snapshot, the rows a
# bitmap index scan and a plain index scan (amgettuple) return with those a
# sequential scan returns, and now and then a client re-summarizes the index.
# No comparison may differ; at the end the index passes verification and
# matches a ground truth.  Also: build progress in
# pg_stat_progress_create_index.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;

my $node = PostgreSQL::Test::Cluster->new('pb_concurrent');
$node->init;
$node->append_conf('postgresql.conf', "max_parallel_workers_per_gather = 0\nmax_connections = 40\n");
$node->start;

$node->safe_psql('postgres', q{
	CREATE EXTENSION bloomfilter;
	CREATE TABLE t (id bigserial, a int, b int8, c text);
	INSERT INTO t (a, b, c) SELECT i % 5000, i % 7001, 'c' || i % 3001 FROM generate_series(1, 50000) i;
	CREATE INDEX t_pb ON t USING pagebloom (a, b, c);
	CREATE TABLE mismatches (v int, via_index bigint, via_seqscan bigint);
});

my %scripts = (
	'insert@10' => q{
\set n random(1, 20)
INSERT INTO t (a, b, c) SELECT (random() * 5000)::int, (random() * 7000)::int, 'c' || (random() * 3000)::int FROM generate_series(1, :n);
},
	'update@2' => q{
\set v random(0, 4999)
UPDATE t SET b = b + 1 WHERE a = :v;
DELETE FROM t WHERE a = :v + 1 AND b % 3 = 0;
},
	'check@8' => q{
\set v random(0, 4999)
BEGIN ISOLATION LEVEL REPEATABLE READ;
SET LOCAL enable_seqscan = off;
SET LOCAL enable_indexscan = off;
SELECT count(*) AS ci FROM t WHERE a = :v OR c = 'c' || :v \gset
SET LOCAL enable_indexscan = on;
SET LOCAL enable_bitmapscan = off;
SELECT count(*) AS cx FROM t WHERE a = :v \gset
SET LOCAL enable_seqscan = on;
SET LOCAL enable_indexscan = off;
SELECT count(*) AS cs FROM t WHERE a = :v OR c = 'c' || :v \gset
SELECT count(*) AS csa FROM t WHERE a = :v \gset
INSERT INTO mismatches SELECT :v, :ci, :cs WHERE :ci <> :cs;
INSERT INTO mismatches SELECT :v, :cx, :csa WHERE :cx <> :csa;
COMMIT;
},
	'resummarize@1' => q{
SELECT pagebloom_resummarize('t_pb', 0.3);
});

# the OR query above must be a BitmapOr of two index scans, the one-column
# query an index scan (amgettuple) when bitmap scans are off
like($node->safe_psql('postgres',
	q{SET enable_seqscan = off; EXPLAIN (COSTS OFF) SELECT count(*) FROM t WHERE a = 1 OR c = 'c1'}),
	qr/Bitmap Index Scan on t_pb/, 'the check query uses the index');
like($node->safe_psql('postgres',
	q{SET enable_seqscan = off; SET enable_bitmapscan = off;
	  EXPLAIN (COSTS OFF) SELECT count(*) FROM t WHERE a = 1}),
	qr/Index Scan using t_pb/, 'the one-column check query can be an index scan');

$node->pgbench('-n -c 8 -j 2 -T 20', 0, [qr{processed: [1-9]}], [qr{^$}],
	'8 clients insert, update, delete, compare and re-summarize concurrently', \%scripts);

is($node->safe_psql('postgres', 'SELECT count(*) FROM mismatches'), '0',
	'no index scan ever differed from a sequential scan in the same snapshot');
cmp_ok($node->safe_psql('postgres', 'SELECT count(*) FROM t'), '>', 50000, 'rows were inserted');
my $n = $node->safe_psql('postgres', 'SELECT count(*) FROM t');
is($node->safe_psql('postgres', q{SELECT pagebloom_verify('t_pb')}), $n, 'the index passes verification');

my $via_index = $node->safe_psql('postgres', q{
	SET enable_seqscan = off; SET enable_indexscan = off;
	SELECT string_agg(g || ':' || (SELECT count(*) FROM t WHERE a = g) || '/' ||
		(SELECT count(*) FROM t WHERE b = g), ',' ORDER BY g) FROM generate_series(0, 7000, 7) g;
});
my $truth = $node->safe_psql('postgres', q{
	SET enable_bitmapscan = off; SET enable_indexscan = off;
	SELECT string_agg(g || ':' || coalesce(x.n, 0) || '/' || coalesce(y.n, 0), ',' ORDER BY g)
	FROM generate_series(0, 7000, 7) g
	LEFT JOIN (SELECT a AS v, count(*) AS n FROM t GROUP BY a) x ON x.v = g
	LEFT JOIN (SELECT b AS v, count(*) AS n FROM t GROUP BY b) y ON y.v = g;
});
is($via_index, $truth, 'index scans return what sequential scans return for 1001 probes on two columns');

# build progress: a predicate that sleeps 1 ms a row keeps the build running
$node->safe_psql('postgres', q{
	CREATE TABLE prog AS SELECT g AS a, g % 7 AS b FROM generate_series(1, 3000) g;
	CREATE FUNCTION slow_true(int) RETURNS bool IMMUTABLE LANGUAGE plpgsql AS
		'BEGIN PERFORM pg_sleep(0.001); RETURN true; END';
});
my ($bout, $berr) = ('', '');
my $build = IPC::Run::start(
	[ 'psql', '-X', '-d', $node->connstr('postgres'), '-c',
	  'CREATE INDEX prog_pb ON prog USING pagebloom (a, b) WHERE slow_true(a)' ],
	'>', \$bout, '2>', \$berr);
ok($node->poll_query_until('postgres', q{
	SELECT phase = 'building index: scanning table' AND tuples_done >= 1024
		AND blocks_total > 0 AND command = 'CREATE INDEX'
	FROM pg_stat_progress_create_index}),
	'pg_stat_progress_create_index shows the scan phase with blocks and tuples');
$build->finish;
is($node->safe_psql('postgres', q{SELECT pagebloom_verify('prog_pb')}), '3000', 'and the build completes');

$node->stop;
done_testing();
