# pg_dump -Fd / pg_restore of a table with pagebloom indexes: the restored indexes,
# built before any ANALYZE, get the original's design (pagebloom_info agrees), because
# the build measures the rows per page itself instead of trusting the statistics
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('pagebloom_restore');
$node->init;
$node->start;
$node->safe_psql('postgres', q{
	CREATE EXTENSION bloomfilter;
	CREATE TABLE wide AS
	SELECT i AS id, (random() * 1e6)::int AS i1, (random() * 1e6)::int AS i2, (random() * 1e6)::int AS i3,
		md5(i::text) AS t, (i % 1000)::int8 AS c
	FROM generate_series(1, 300000) i;
	ANALYZE wide;
	CREATE INDEX wide_pb ON wide USING pagebloom (i1, i2, i3, t, c);
	CREATE INDEX wide_pb_strict ON wide USING pagebloom (i1, t) WITH (fpr = 0.001, pages_per_range = 2);
	CREATE TABLE narrow (a int);
	INSERT INTO narrow SELECT generate_series(1, 200000);
	VACUUM ANALYZE narrow;
	CREATE INDEX narrow_pb ON narrow USING pagebloom (a);
});
my $design = q{SELECT string_agg(format('%s: %s', c.relname, row(i.pages_per_range, i.signature_bits, i.signature_blocks,
		i.block_bits, i.k, i.ranges_per_segment, i.segments, i.index_pages, i.target_fpr, i.design_fpr,
		i.design_rows_per_range, i.column_k, i.column_design_fpr)), E'\n' ORDER BY c.relname)
	FROM pg_class c, LATERAL pagebloom_info(c.oid) i
	WHERE c.relam = (SELECT oid FROM pg_am WHERE amname = 'pagebloom')};
my $orig = $node->safe_psql('postgres', $design);

my $dir = $node->basedir . '/dump';
$node->command_ok([ 'pg_dump', '-Fd', '-f', $dir, '-d', $node->connstr('postgres') ], 'pg_dump -Fd');
$node->safe_psql('postgres', 'CREATE DATABASE restored');
$node->command_ok([ 'pg_restore', '-d', $node->connstr('restored'), $dir ], 'pg_restore');
is($node->safe_psql('restored', q{SELECT count(*) FROM pg_stats WHERE tablename IN ('wide', 'narrow')}), '0',
	'the restored tables have no statistics yet');
is($node->safe_psql('restored', $design), $orig, 'pagebloom_info of the restored indexes equals the originals');
like($orig, qr/wide_pb: \(\d+,\d+/, 'the designs were compared');

# and a REINDEX after ANALYZE builds the same design again
$node->safe_psql('restored', 'ANALYZE; REINDEX TABLE wide; REINDEX TABLE narrow');
is($node->safe_psql('restored', $design), $orig, 'after ANALYZE and REINDEX too');
is($node->safe_psql('restored', q{SELECT pagebloom_verify('wide_pb') = (SELECT count(*) FROM wide)}), 't',
	'the restored index holds every key');
$node->stop;
done_testing();
