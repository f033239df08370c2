# pagebloom: parallel builds.  With parallel workers (the table's
# parallel_workers, max_parallel_maintenance_workers) a build writes the same
# pages as a serial build, bit for bit: on a heap with an empty segment in the
# middle and empty pages at its end (the last segment's row map stops at its
# last row), with and without a row map, for an expression index with a
# predicate, and with the workers alone scanning (parallel_leader_participation
# off, also with a slow predicate, so that the leader waits through long scan
# phases); workers are launched; every key is found (pagebloom_verify); the
# heap's and the index's reltuples count every row once; with no worker to be
# had the build is serial, and so is a build whose segment image would not
# fit in maintenance_work_mem (the same pages); a HOT chain broken in a worker's part of the heap
# marks the index (indcheckxmin) as a serial build does; REINDEX and VACUUM
# FULL build in parallel too; progress shows the blocks and tuples of all
# participants; the index survives a crash, also when built without WAL under
# wal_level minimal; builds whose image comes from the region that
# min_dynamic_shared_memory reserves (not zero-filled) write the same pages.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;

my $node = PostgreSQL::Test::Cluster->new('pb_parallel');
$node->init;
$node->append_conf('postgresql.conf', qq{
max_worker_processes = 8
max_parallel_workers = 8
max_parallel_maintenance_workers = 2
maintenance_work_mem = 128MB
max_parallel_workers_per_gather = 0
});
$node->start;

# about 1000 heap pages of 40 rows; with one page a range and 255-bit blocks a
# segment is 256 ranges (4 units of 64): segment 1 is emptied, and the pages
# from 900 on (vacuum_truncate off keeps them)
$node->safe_psql('postgres', q{
	CREATE EXTENSION bloomfilter;
	CREATE EXTENSION pageinspect;
	CREATE TABLE p (id int, a int, b text, pad text)
		WITH (parallel_workers = 2, autovacuum_enabled = off, vacuum_truncate = false);
	INSERT INTO p SELECT i, i % 5003, 'B' || i % 701, repeat('x', 150) FROM generate_series(1, 40000) i;
	DELETE FROM p WHERE ctid >= '(256,0)' AND ctid < '(512,0)';
	DELETE FROM p WHERE ctid >= '(900,0)';
	VACUUM p;
	CREATE FUNCTION slow_true(int) RETURNS bool IMMUTABLE PARALLEL SAFE LANGUAGE plpgsql AS
		'BEGIN IF $1 % 20 = 0 THEN PERFORM pg_sleep(0.001); END IF; RETURN true; END';
	CREATE FUNCTION digest(idx regclass) RETURNS text LANGUAGE sql AS $$
		SELECT md5(string_agg(md5(substring(get_raw_page(idx::text, b) FROM 25)), '' ORDER BY b))
		FROM generate_series(0, (pg_relation_size(idx) / 8192)::int - 1) b $$;
});
cmp_ok($node->safe_psql('postgres', q{SELECT pg_relation_size('p') / 8192}), '>=', 950,
	'the heap has at least 950 pages');

my %indexes = (
	'row map' => q{(a, b) WITH (pages_per_range = 1, block_bits = 255)},
	'row map, workers only' => q{(a, b) WITH (pages_per_range = 1, block_bits = 255)},
	'row map, workers only, slow' => q{(a, b) WITH (pages_per_range = 1, block_bits = 255) WHERE slow_true(id)},
	'no row map' => q{(a, b) WITH (pages_per_range = 1, block_bits = 255, row_map = off)},
	'expressions, predicate' => q{(lower(b), (a % 100)) WITH (pages_per_range = 2) WHERE a % 3 <> 0},
);
my %serial;
foreach my $name (sort keys %indexes)
{
	my $def = $indexes{$name};
	my $serial = $node->safe_psql('postgres', qq{
		SET max_parallel_maintenance_workers = 0;
		CREATE INDEX p_pb ON p USING pagebloom $def;
		SELECT digest('p_pb');
		DROP INDEX p_pb;
	});
	$serial{$name} = $serial;
	my ($out, $err) = ('', '');
	my $leader = $name =~ /workers only/ ? 'off' : 'on';
	$node->psql('postgres', qq{
		SET parallel_leader_participation = $leader;
		SET client_min_messages = debug1;
		CREATE INDEX p_pb ON p USING pagebloom $def;
		RESET client_min_messages;
		SELECT digest('p_pb');
	}, stdout => \$out, stderr => \$err, on_error_die => 1);
	like($err, qr/pagebloom build of "p_pb": [12] of 2 parallel workers launched/,
		"$name: the build launched parallel workers");
	# 17+: amcanbuildparallel, so PostgreSQL asks the planner and says so
	like($err, qr/building index "p_pb" on table "p" with request for 2 parallel workers/,
		"$name: PostgreSQL requested the workers (17+)")
		if $node->pg_version >= 17;
	is($out, $serial, "$name: the parallel build wrote the serial build's pages");
	my $where = $def =~ /WHERE (.*)$/ ? $1 : 'true';
	my $count = $node->safe_psql('postgres', "SELECT count(*) FROM p WHERE $where");
	is($node->safe_psql('postgres', q{SELECT pagebloom_verify('p_pb')}), $count,
		"$name: every row's keys are in the index");
	# the counts of all participants, once each: the heap's tuples (all live)
	# and the index's
	is($node->safe_psql('postgres', q{SELECT reltuples FROM pg_class WHERE relname = 'p'}),
		$node->safe_psql('postgres', q{SELECT count(*) FROM p}), "$name: the heap's reltuples");
	is($node->safe_psql('postgres', q{SELECT reltuples FROM pg_class WHERE relname = 'p_pb'}), $count,
		"$name: the index's reltuples");
	$node->safe_psql('postgres', 'DROP INDEX p_pb');
}

# no worker to be had (max_parallel_workers = 0): the build goes back to the
# serial path and gives the same index
{
	my ($out, $err) = ('', '');
	$node->psql('postgres', q{
		SET max_parallel_workers = 0;
		SET client_min_messages = debug1;
		CREATE INDEX p_pb ON p USING pagebloom (a, b) WITH (pages_per_range = 1, block_bits = 255);
		RESET client_min_messages;
		SELECT digest('p_pb');
		DROP INDEX p_pb;
	}, stdout => \$out, stderr => \$err, on_error_die => 1);
	like($err, qr/pagebloom build of "p_pb": 0 of 2 parallel workers launched/, 'no worker could be launched');
	is($out, $serial{'row map'}, 'the build went back to the serial path: the same pages');
}

# the segment image lives in dynamic shared memory: a build whose image is
# larger than maintenance_work_mem is serial even where the planner allows a
# worker.  16 columns with 127-bit blocks (512 ranges a segment, a row map
# page per range and column: 8192 pages plus the slice pages, over 64MB)
# against 8 columns (half of that); maintenance_work_mem 64MB allows one
# worker (32MB each); 78 ranges of 44 heap pages are two units
{
	my $cols = join(', ', map { "c$_" } 1 .. 16);
	my $vals = join(', ', map { "g * 7 + $_" } 1 .. 16);
	$node->safe_psql('postgres', qq{
		CREATE TABLE w ($cols) AS SELECT $vals FROM generate_series(1, 300000) g;
		ALTER TABLE w SET (parallel_workers = 2, autovacuum_enabled = off);
	});
	my %digest;
	foreach my $case (['16 columns, 64MB', $cols, '64MB', 0], ['16 columns, 256MB', $cols, '256MB', 1],
		['8 columns, 64MB', join(', ', map { "c$_" } 1 .. 8), '64MB', 1])
	{
		my ($name, $keys, $mwm, $parallel) = @$case;
		my ($out, $err) = ('', '');
		$node->psql('postgres', qq{
			SET maintenance_work_mem = '$mwm';
			SET client_min_messages = debug1;
			CREATE INDEX w_pb ON w USING pagebloom ($keys) WITH (block_bits = 127);
			RESET client_min_messages;
			SELECT digest('w_pb'), pagebloom_verify('w_pb') = 300000, segments FROM pagebloom_info('w_pb');
			DROP INDEX w_pb;
		}, stdout => \$out, stderr => \$err, on_error_die => 1);
		if ($parallel)
		{
			like($err, qr/pagebloom build of "w_pb": 1 of 1 parallel workers launched/, "$name: parallel");
		}
		else
		{
			unlike($err, qr/parallel workers launched/, "$name: serial, the image exceeds maintenance_work_mem");
		}
		my ($digest, $verified, $segments) = split /\|/, $out;
		is("$verified|$segments", 't|1', "$name: one segment, every row's keys in the index");
		$digest{$name} = $digest;
	}
	is($digest{'16 columns, 64MB'}, $digest{'16 columns, 256MB'}, 'serial and parallel builds wrote the same pages');
	$node->safe_psql('postgres', 'DROP TABLE w');
}

# a query through the parallel-built index returns what a sequential scan does
$node->safe_psql('postgres', q{CREATE INDEX p_pb ON p USING pagebloom (a, b) WITH (pages_per_range = 1, block_bits = 255)});
my $probe = q{SELECT string_agg(g || ':' || (SELECT count(*) FROM p WHERE a = g) || '/' ||
	(SELECT count(*) FROM p WHERE b = 'B' || g), ',' ORDER BY g) FROM generate_series(0, 5003, 13) g};
my $via_index = $node->safe_psql('postgres', "SET enable_seqscan = off; $probe");
my $via_seqscan = $node->safe_psql('postgres', "SET enable_bitmapscan = off; SET enable_indexscan = off; $probe");
is($via_index, $via_seqscan, 'index scans of the parallel-built index return what sequential scans return');

# REINDEX and VACUUM FULL rebuild in parallel too (VACUUM FULL under an
# exclusive lock on the table, which the workers share through the leader)
foreach my $cmd ('REINDEX INDEX p_pb', 'REINDEX TABLE p', 'VACUUM FULL p')
{
	my ($out, $err) = ('', '');
	$node->psql('postgres', qq{
		SET client_min_messages = debug1;
		$cmd;
		RESET client_min_messages;
		SELECT pagebloom_verify('p_pb') = (SELECT count(*) FROM p);
	}, stdout => \$out, stderr => \$err, on_error_die => 1);
	like($err, qr/pagebloom build of "p_pb": [12] of 2 parallel workers launched/, "$cmd: parallel");
	is($out, 't', "$cmd: every row's keys are in the index");
}
is($node->safe_psql('postgres', "SET enable_seqscan = off; $probe"), $via_seqscan,
	'after VACUUM FULL, index scans return what sequential scans return');

# a broken HOT chain: rows HOT-updated (the table has no index yet) while a
# snapshot that still sees their old versions is open, in the last pages of
# the heap, scanned by a worker (the leader scans nothing with
# parallel_leader_participation off), which must report it to the leader
$node->safe_psql('postgres', q{
	CREATE TABLE h (id int, a int, pad text)
		WITH (parallel_workers = 2, fillfactor = 50, autovacuum_enabled = off);
	INSERT INTO h SELECT i, i, repeat('y', 150) FROM generate_series(1, 6000) i;
	VACUUM h;
});
my $hpages = $node->safe_psql('postgres', q{SELECT pg_relation_size('h') / 8192});
cmp_ok($hpages, '>', 256, 'the HOT table spans more than four units');
my ($in, $sout, $serr) = ('', '', '');
my $snap = IPC::Run::start([ 'psql', '-X', '-At', '-d', $node->connstr('postgres') ],
	'<', \$in, '>', \$sout, '2>', \$serr);
$in .= "BEGIN ISOLATION LEVEL REPEATABLE READ; SELECT 'snapshot ' || count(*) FROM h;\n";
my $timer = IPC::Run::timer($PostgreSQL::Test::Utils::timeout_default);
$snap->pump until $sout =~ /snapshot 6000/ || $timer->is_expired;
like($sout, qr/snapshot 6000/, 'a repeatable read snapshot is open');
$node->safe_psql('postgres', qq{UPDATE h SET a = -a WHERE ctid >= '(@{[$hpages - 20]},0)'});
cmp_ok($node->safe_psql('postgres', qq{SELECT count(*)
	FROM generate_series(@{[$hpages - 20]}, @{[$hpages - 1]}) b, heap_page_items(get_raw_page('h', b))
	WHERE t_infomask2 & 16384 <> 0}), '>', 100, 'rows of the last 20 pages were HOT-updated');
my ($hout, $herr) = ('', '');
$node->psql('postgres', q{
	SET parallel_leader_participation = off;
	SET client_min_messages = debug1;
	CREATE INDEX h_pb ON h USING pagebloom (a) WITH (pages_per_range = 1, block_bits = 255);
}, stdout => \$hout, stderr => \$herr, on_error_die => 1);
like($herr, qr/pagebloom build of "h_pb": [12] of 2 parallel workers launched/, 'the build was parallel');
is($node->safe_psql('postgres', q{SELECT indcheckxmin FROM pg_index WHERE indexrelid = 'h_pb'::regclass}),
	't', 'the broken HOT chain marks the index unusable for older snapshots (indcheckxmin)');
$in .= "COMMIT;\n\\q\n";
$snap->finish;
is($node->safe_psql('postgres', q{SET enable_seqscan = off; SELECT count(*) FROM h WHERE a < 0}),
	$node->safe_psql('postgres', q{SET enable_bitmapscan = off; SELECT count(*) FROM h WHERE a < 0}),
	'the updated rows are found through the index');

# progress of a parallel build: a predicate that sleeps now and then keeps it running
my ($bout, $berr) = ('', '');
my $build = IPC::Run::start(
	[ 'psql', '-X', '-d', $node->connstr('postgres'), '-c',
	  'CREATE INDEX p_slow ON p USING pagebloom (a, b) WITH (pages_per_range = 1, block_bits = 255) WHERE slow_true(id)' ],
	'>', \$bout, '2>', \$berr);
ok($node->poll_query_until('postgres', q{
	SELECT phase = 'building index: scanning table' AND tuples_done > 0 AND blocks_done > 0
		AND blocks_total = pg_relation_size('p') / 8192
	FROM pg_stat_progress_create_index}),
	'pg_stat_progress_create_index shows the blocks and tuples of a parallel build');
$build->finish;
is($node->safe_psql('postgres', q{SELECT pagebloom_verify('p_slow')}),
	$node->safe_psql('postgres', q{SELECT count(*) FROM p}), 'and the build completes');

# crash right after a parallel build: the pages are in the WAL or on disk
my ($pout, $perr) = ('', '');
$node->psql('postgres', q{
	SET client_min_messages = debug1;
	REINDEX INDEX p_pb;
	RESET client_min_messages;
	SELECT digest('p_pb');
}, stdout => \$pout, stderr => \$perr, on_error_die => 1);
like($perr, qr/pagebloom build of "p_pb": [12] of 2 parallel workers launched/, 'a parallel REINDEX before the crash');
$node->stop('immediate');
$node->start;
is($node->safe_psql('postgres', q{SELECT digest('p_pb')}), $pout,
	'after a crash, the parallel-built index has the same pages');
is($node->safe_psql('postgres', q{SELECT pagebloom_verify('p_pb') = (SELECT count(*) FROM p)}), 't',
	'and every row\'s keys');

# wal_level minimal: a table and its index made in one transaction skip the
# WAL and are synced (or logged) at commit
$node->append_conf('postgresql.conf', "wal_level = minimal\nmax_wal_senders = 0\n");
$node->restart;
my ($mout, $merr) = ('', '');
$node->psql('postgres', q{
	BEGIN;
	CREATE TABLE m (LIKE p) WITH (parallel_workers = 2, autovacuum_enabled = off);
	INSERT INTO m SELECT * FROM p;
	SET client_min_messages = debug1;
	CREATE INDEX m_pb ON m USING pagebloom (a, b) WITH (pages_per_range = 1, block_bits = 255);
	RESET client_min_messages;
	COMMIT;
}, stdout => \$mout, stderr => \$merr, on_error_die => 1);
like($merr, qr/pagebloom build of "m_pb": [12] of 2 parallel workers launched/,
	'wal_level minimal: the build in the creating transaction was parallel');
$node->stop('immediate');
$node->start;
is($node->safe_psql('postgres', q{SELECT pagebloom_verify('m_pb') = (SELECT count(*) FROM m)}), 't',
	'wal_level minimal: after a crash every row\'s keys are in the index');

# the segment image starts zeroed without being cleared when its dynamic
# shared memory segment is new (zero-filled by the operating system); carved
# from the main region that min_dynamic_shared_memory reserves, it may hold
# an earlier build's bits and is cleared: two builds in a row (the second
# takes the pages the first freed, full of its bits) write the serial
# build's pages
$node->append_conf('postgresql.conf', "min_dynamic_shared_memory = 64MB\n");
$node->restart;
cmp_ok($node->safe_psql('postgres', q{SELECT size FROM pg_shmem_allocations
	WHERE name = 'Preallocated DSM'}), '>=', 64 * 1024 * 1024,
	'min_dynamic_shared_memory reserved its region');
my %serial_now;		# the heap was rewritten (VACUUM FULL) since %serial
foreach my $name ('expressions, predicate', 'row map', 'no row map')
{
	$serial_now{$name} = $node->safe_psql('postgres', qq{
		SET max_parallel_maintenance_workers = 0;
		CREATE INDEX p_pb2 ON p USING pagebloom $indexes{$name};
		SELECT digest('p_pb2');
		DROP INDEX p_pb2;
	});
}
foreach my $name ('expressions, predicate', 'row map', 'no row map', 'row map')
{
	my ($out, $err) = ('', '');
	$node->psql('postgres', qq{
		SET client_min_messages = debug1;
		CREATE INDEX p_pb2 ON p USING pagebloom $indexes{$name};
		RESET client_min_messages;
		SELECT digest('p_pb2');
		DROP INDEX p_pb2;
	}, stdout => \$out, stderr => \$err, on_error_die => 1);
	like($err, qr/pagebloom build of "p_pb2": [12] of 2 parallel workers launched/,
		"min_dynamic_shared_memory, $name: parallel");
	is($out, $serial_now{$name}, "min_dynamic_shared_memory, $name: the serial build's pages");
}

$node->stop;
done_testing();
