# pagebloom: WAL replay on a streaming standby.  The standby must return the
# same rows as the primary after the build and after delete / vacuum / insert /
# re-summarize cycles, through its own bitmap scans of the replayed index.
# With wal_consistency_checking on the primary, the standby also compares each
# page a record touches, after its redo, with the primary's image of it (the
# build's log_newpages, generic WAL full images and deltas, the inserts' own
# generic records), and stops with a PANIC on the first difference.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $primary = PostgreSQL::Test::Cluster->new('pb_primary');
$primary->init(allows_streaming => 1);
$primary->append_conf('postgresql.conf',
	"max_parallel_workers_per_gather = 0\nwal_consistency_checking = 'all'\n");
$primary->start;
# a slot: with the checking's page images, the primary writes WAL faster than
# the standby replays it, and would otherwise recycle what it has not received
$primary->safe_psql('postgres', q{SELECT pg_create_physical_replication_slot('pb_standby')});
$primary->backup('bk');
my $standby = PostgreSQL::Test::Cluster->new('pb_standby');
$standby->init_from_backup($primary, 'bk', has_streaming => 1);
$standby->append_conf('postgresql.conf', "primary_slot_name = 'pb_standby'\n");
$standby->start;

$primary->safe_psql('postgres', q{
	CREATE EXTENSION bloomfilter;
	CREATE TABLE t (id int, a int, b int8, c text);
	INSERT INTO t SELECT i, ((i::int8 * 7919) % 50000)::int, (i::int8 * 104729) % 70001, 'c' || (i % 30011)
	FROM generate_series(1, 150000) i;
	CREATE INDEX t_pb ON t USING pagebloom (a, b, c);
	CREATE TABLE probe AS SELECT g AS v FROM generate_series(-10, 50010, 40) g;
	-- matches per probe, for a query on each column, as one string: through
	-- one query per probe (bitmap scans when sequential scans are off) ...
	CREATE FUNCTION digest() RETURNS text LANGUAGE sql AS $$
		SELECT string_agg(p.v || ':' ||
			(SELECT count(*) FROM t WHERE a = p.v) || '/' ||
			(SELECT count(*) FROM t WHERE b = p.v) || '/' ||
			(SELECT count(*) FROM t WHERE c = 'c' || p.v), ',' ORDER BY p.v)
		FROM probe p
	$$;
	-- ... and through grouped counts (hash joins)
	CREATE FUNCTION digest_truth() RETURNS text LANGUAGE sql AS $$
		SELECT string_agg(p.v || ':' || coalesce(x.n, 0) || '/' || coalesce(y.n, 0) || '/' ||
			coalesce(z.n, 0), ',' ORDER BY p.v)
		FROM probe p
		LEFT JOIN (SELECT a AS v, count(*) AS n FROM t GROUP BY a) x ON x.v = p.v
		LEFT JOIN (SELECT b AS v, count(*) AS n FROM t GROUP BY b) y ON y.v = p.v
		LEFT JOIN (SELECT c AS v, count(*) AS n FROM t GROUP BY c) z ON z.v = 'c' || p.v
	$$;
});

# the digest through bitmap scans of the index, and by sequential scans
my $via_index = q{SET enable_seqscan = off; SET enable_indexscan = off; SELECT digest();};
my $via_seq = q{SET enable_bitmapscan = off; SET enable_indexscan = off; SELECT digest_truth();};
my $plan = q{SET enable_seqscan = off; EXPLAIN (COSTS OFF) SELECT * FROM t WHERE a = 42;};

sub check_cycle
{
	my ($name) = @_;
	$primary->wait_for_catchup($standby, 'replay', $primary->lsn('insert'));
	my $truth = $primary->safe_psql('postgres', $via_seq);
	like($standby->safe_psql('postgres', $plan), qr/Bitmap Index Scan on t_pb/,
		"$name: the standby plans a bitmap scan of the index");
	is($standby->safe_psql('postgres', $via_index), $truth,
		"$name: standby index scans return what the primary's sequential scans return");
	is($primary->safe_psql('postgres', $via_index), $truth,
		"$name: primary index scans agree too");
	my $n = $primary->safe_psql('postgres', 'SELECT count(*) FROM t');
	is($standby->safe_psql('postgres', q{SELECT pagebloom_verify('t_pb')}), $n,
		"$name: the replayed index passes verification on the standby");
}

check_cycle('after build');

$primary->safe_psql('postgres', q{
	DELETE FROM t WHERE id % 3 = 0;
	VACUUM t;
	INSERT INTO t SELECT i, ((i::int8 * 7919) % 50000)::int, (i::int8 * 104729) % 70001, 'c' || (i % 30011)
	FROM generate_series(150001, 200000) i;
});
check_cycle('after delete, vacuum, insert');

$primary->safe_psql('postgres', q{
	DELETE FROM t WHERE id % 2 = 0;
	UPDATE t SET a = a + 1 WHERE id % 5 = 0;
	VACUUM t;
	SELECT pagebloom_resummarize('t_pb', 0.1);
	INSERT INTO t SELECT i, ((i::int8 * 7919) % 50000)::int, (i::int8 * 104729) % 70001, 'c' || (i % 30011)
	FROM generate_series(200001, 230000) i;
});
check_cycle('after updates, re-summarize, insert');

# a new index built while the standby is streaming, and a REINDEX
$primary->safe_psql('postgres', q{
	DROP INDEX t_pb;
	CREATE INDEX CONCURRENTLY t_pb ON t USING pagebloom (a, b, c) WITH (pages_per_range = 2);
});
check_cycle('after CREATE INDEX CONCURRENTLY');
$primary->safe_psql('postgres', q{REINDEX INDEX t_pb});
check_cycle('after REINDEX');

# re-summarization writes the index: a standby refuses it and says where to run it
my ($rc, $out, $err) = $standby->psql('postgres', q{SELECT pagebloom_resummarize('t_pb', 0)},
	extra_params => ['-v', 'VERBOSITY=verbose']);
isnt($rc, 0, 'pagebloom_resummarize fails on the standby');
like($err, qr/55000: recovery is in progress/, 'with SQLSTATE 55000');
like($err, qr/HINT:\s+Run pagebloom_resummarize on the primary\./, 'and a hint naming the primary');

# Pages a crash left in the primary's index file past the metapage's extent
# (an extension whose WAL never reached the disk; here zero blocks appended
# while the primary is down): the next insert that needs them must initialize
# and log them, not take them into the extent as they are, which the standby,
# without them, failed to read ("could not read block")
$primary->safe_psql('postgres', q{
	CREATE TABLE y (a int, b text);
	ALTER TABLE y ALTER b SET STORAGE plain;
	-- one row per heap page: 1024 pages fill the index's first segment
	INSERT INTO y SELECT g, repeat('y', 5000) FROM generate_series(1, 1024) g;
	CREATE INDEX y_a ON y USING pagebloom (a)
		WITH (pages_per_range = 1, block_bits = 63, signature_bits = 3150, row_map = off);
});
my $yfile = $primary->data_dir . '/' . $primary->safe_psql('postgres', q{SELECT pg_relation_filepath('y_a')});
my $ypages = $primary->safe_psql('postgres', q{SELECT pg_relation_size('y_a') / 8192});
$primary->stop('fast');
open(my $fh, '>>', $yfile) or die "open $yfile: $!";
binmode $fh;
print $fh "\0" x (8192 * 50);
close($fh);
$primary->start;
# the row lands on heap page 1024: the second segment, over the zero pages
$primary->safe_psql('postgres', q{INSERT INTO y VALUES (888888, repeat('n', 5000))});
$primary->wait_for_catchup($standby, 'replay', $primary->lsn('insert'));
my $yq = q{SET enable_seqscan = off;
	SELECT count(*) FROM y WHERE a = ANY ('{1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,888888,
		31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50}')};
is($primary->safe_psql('postgres', $yq), '41', 'crash-left index pages: the primary finds the rows');
($rc, $out, $err) = $standby->psql('postgres', $yq);
is($out, '41', 'crash-left index pages: the standby finds them too') or diag($err);
cmp_ok($ypages, '<', $primary->safe_psql('postgres', q{SELECT pg_relation_size('y_a') / 8192}),
	'the index grew over the zero pages');

# every record was replayed to the page the primary had
$primary->wait_for_catchup($standby, 'replay', $primary->lsn('insert'));
unlike(slurp_file($standby->logfile), qr/inconsistent page found/,
	'wal_consistency_checking found no page that redo made differently');

$standby->stop;
$primary->stop;
done_testing();
