# pagebloom scans learn the index's size from the metapage's extent and the
# heap's from the size this backend last saw of its file, without a system
# call (doc/design.md, "Sizes without a system call").  A backend whose known
# size is old must still find the rows on pages added since, by another
# backend or by replay on a standby, and must never output a page that VACUUM
# truncated away.  The sessions run generic plans of prepared statements, so
# that no planning looks the heap's size up for them.
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

# 64 ranges of one heap page per segment; fillfactor 50 keeps VACUUM from
# re-summarizing (design.md, "VACUUM"), so the bits of deleted rows stay
$primary->safe_psql('postgres', q{
	CREATE EXTENSION bloomfilter;
	CREATE TABLE t (k int, pad text) WITH (fillfactor = 50, autovacuum_enabled = off);
	INSERT INTO t SELECT g, repeat('x', 200) FROM generate_series(1, 2000) g;
	CREATE INDEX t_pb ON t USING pagebloom (k) WITH (pages_per_range = 1, block_bits = 1020);
});
is($primary->safe_psql('postgres', q{SELECT ranges_per_segment FROM pagebloom_info('t_pb')}), '64',
	'segments of 64 one-page ranges');
my $blocks0 = $primary->safe_psql('postgres', q{SELECT pg_relation_size('t') / 8192});

# a session with generic plans: an index scan (amgettuple) and a bitmap scan
my $prepare = q{
SET plan_cache_mode = force_generic_plan;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
PREPARE qi(int[]) AS SELECT count(*) FROM t WHERE k = ANY($1);
EXPLAIN (COSTS OFF) EXECUTE qi('{5}');
\echo i0
EXECUTE qi('{5}');
SET enable_bitmapscan = on;
SET enable_indexscan = off;
PREPARE qb(int[]) AS SELECT count(*) FROM t WHERE k = ANY($1);
EXPLAIN (COSTS OFF) EXECUTE qb('{5}');
\echo b0
EXECUTE qb('{5}');
};

# run psql commands in a session until the marker line, return the output after
# it; each EXECUTE first sets the plan kind of its statement, which a statement
# replanned (VACUUM's new statistics invalidate plans) gets again
sub session_run
{
	my ($h, $in, $out, $cmds, $marker) = @_;
	$cmds =~ s/^((?:EXPLAIN \(COSTS OFF\) )?EXECUTE qi)/SET enable_indexscan = on; SET enable_bitmapscan = off; $1/mg;
	$cmds =~ s/^((?:EXPLAIN \(COSTS OFF\) )?EXECUTE qb)/SET enable_indexscan = off; SET enable_bitmapscan = on; $1/mg;
	$$out = '';
	$$in .= $cmds . "\\echo $marker\n";
	$h->pump until $$out =~ /^\Q$marker\E$/m;
	return $$out;
}

my ($ain, $aout, $aerr) = ('', '', '');
my $a = IPC::Run::start(['psql', '-X', '-q', '-A', '-t', '-d', $primary->connstr('postgres'), '-f', '-'],
	'<', \$ain, '>', \$aout, '2>', \$aerr);
my $r = session_run($a, \$ain, \$aout, $prepare, 'ready');
like($r, qr/Index Scan using t_pb/, 'the first statement is an index scan');
like($r, qr/Bitmap Index Scan on t_pb/, 'the second a bitmap scan');
like($r, qr/i0\n1\n.*b0\n1\n/s, 'both find a row of the first pages');

# another backend grows the heap by several segments of ranges
$primary->safe_psql('postgres',
	q{INSERT INTO t SELECT 100000 + g, repeat('y', 200) FROM generate_series(1, 6000) g});
my $blocks1 = $primary->safe_psql('postgres', q{SELECT pg_relation_size('t') / 8192});
cmp_ok($blocks1, '>', $blocks0 + 5 * 64, "the heap grew from $blocks0 to $blocks1 pages (five segments or more)");

# EXECUTE takes constants: arrays as literals
sub keys_literal
{
	my ($node, $query) = @_;
	return "'" . $node->safe_psql('postgres', "SELECT array_agg(g)::text FROM ($query) s(g)") . "'";
}
my $keys = keys_literal($primary, 'SELECT 100000 + g FROM generate_series(1, 6000, 37) g');
my $nkeys = $primary->safe_psql('postgres', 'SELECT count(*) FROM generate_series(1, 6000, 37)');
$r = session_run($a, \$ain, \$aout, qq{
\\echo i1
EXECUTE qi('{106000}');
\\echo i2
EXECUTE qi($keys);
\\echo b1
EXECUTE qb('{106000}');
\\echo b2
EXECUTE qb($keys);
}, 'grown');
like($r, qr/i1\n1\ni2\n$nkeys\n/, "the index scan of the older session finds the new rows (the last, and $nkeys across the new pages)");
like($r, qr/b1\n1\nb2\n$nkeys\n/, 'so does its bitmap scan');

# VACUUM truncates the new pages away; the index keeps their bits and row map
# slots.  The older session's known size must not survive the truncation.
$primary->safe_psql('postgres', q{DELETE FROM t WHERE k > 100000});
$primary->safe_psql('postgres', q{VACUUM t});
my $blocks2 = $primary->safe_psql('postgres', q{SELECT pg_relation_size('t') / 8192});
cmp_ok($blocks2, '<', $blocks1 - 5 * 64, "VACUUM truncated the heap from $blocks1 to $blocks2 pages");
$r = session_run($a, \$ain, \$aout, qq{
EXPLAIN (COSTS OFF) EXECUTE qi('{106000}');
EXPLAIN (COSTS OFF) EXECUTE qb('{106000}');
\\echo i3
EXECUTE qi('{106000}');
\\echo i4
EXECUTE qi($keys);
\\echo b3
EXECUTE qb($keys);
\\echo i5
EXECUTE qi('{1999}');
}, 'truncated');
like($r, qr/Index Scan using t_pb.*Bitmap Index Scan on t_pb/s, 'the statements kept their plan kinds');
like($r, qr/i3\n0\ni4\n0\nb3\n0\ni5\n1\n/, 'after the truncation its scans output no page past the end, and still find the old rows');

# the heap grows again, over the truncated pages' old bits
$primary->safe_psql('postgres',
	q{INSERT INTO t SELECT 300000 + g, repeat('z', 200) FROM generate_series(1, 3000) g});
my $keys3 = keys_literal($primary, 'SELECT 300000 + g FROM generate_series(1, 3000, 29) g');
$r = session_run($a, \$ain, \$aout, qq{
\\echo i6
EXECUTE qi('{303000}');
\\echo i7
EXECUTE qi($keys3);
\\echo i8
EXECUTE qi('{106000}');
}, 'regrown');
my $n3 = $primary->safe_psql('postgres', q{SELECT count(*) FROM generate_series(1, 3000, 29)});
like($r, qr/i6\n1\ni7\n$n3\ni8\n0\n/, 'rows on the pages grown again are found, the deleted ones are not');
is($aerr, '', 'no error or warning in the older session');

# a standby session: replay grows the heap under it
$primary->wait_for_catchup($standby, 'replay', $primary->lsn('insert'));
my ($sin, $sout, $serr) = ('', '', '');
my $s = IPC::Run::start(['psql', '-X', '-q', '-A', '-t', '-d', $standby->connstr('postgres'), '-f', '-'],
	'<', \$sin, '>', \$sout, '2>', \$serr);
$r = session_run($s, \$sin, \$sout, $prepare, 'ready');
like($r, qr/i0\n1\n.*b0\n1\n/s, 'the standby session finds a row of the first pages');
$primary->safe_psql('postgres',
	q{INSERT INTO t SELECT 400000 + g, repeat('w', 200) FROM generate_series(1, 6000) g});
$primary->wait_for_catchup($standby, 'replay', $primary->lsn('insert'));
my $keys4 = keys_literal($primary, 'SELECT 400000 + g FROM generate_series(1, 6000, 37) g');
$r = session_run($s, \$sin, \$sout, qq{
\\echo i1
EXECUTE qi('{406000}');
\\echo i2
EXECUTE qi($keys4);
\\echo b2
EXECUTE qb($keys4);
}, 'replayed');
like($r, qr/i1\n1\ni2\n$nkeys\nb2\n$nkeys\n/, 'the standby session finds the rows that replay added on new pages');
is($serr, '', 'no error or warning in the standby session');

$ain .= "\\q\n";
$a->finish;
$sin .= "\\q\n";
$s->finish;

is($primary->safe_psql('postgres', q{SELECT pagebloom_verify('t_pb')}),
	$primary->safe_psql('postgres', q{SELECT count(*) FROM t}), 'the index passes verification');

# an index of an earlier layout version (development builds wrote 2 and 3,
# without the extent) is refused with a hint to rebuild it: the metapage's
# version field, after the page header and the magic, set back to 3
SKIP:
{
	skip 'data checksums are on', 3
	  if $primary->safe_psql('postgres', 'SHOW data_checksums') eq 'on';
	my $file = $primary->data_dir . '/' . $primary->safe_psql('postgres', q{SELECT pg_relation_filepath('t_pb')});
	$primary->stop;
	open(my $fh, '+<', $file) or die "open $file: $!";
	binmode $fh;
	seek($fh, 28, 0);
	print $fh pack('V', 3);
	close($fh);
	$primary->start;
	my ($ret, $out, $err) = $primary->psql('postgres',
		q{SET enable_seqscan = off; SELECT count(*) FROM t WHERE k = 5});
	like($err, qr/pagebloom index "t_pb" has an unsupported layout.*Version 3.*REINDEX the index/s,
		'an index of layout version 3 is refused with the REINDEX hint');
	$primary->safe_psql('postgres', q{REINDEX INDEX t_pb});
	is($primary->safe_psql('postgres', q{SET enable_seqscan = off; SELECT count(*) FROM t WHERE k = 5}), '1',
		'after REINDEX the index answers');
	is($primary->safe_psql('postgres', q{SELECT pagebloom_verify('t_pb')}),
		$primary->safe_psql('postgres', q{SELECT count(*) FROM t}), 'and passes verification');
}

done_testing();
