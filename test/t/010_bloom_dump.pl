# pg_dump / pg_restore and binary COPY round trips of a table of bloom filters
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use BloomfilterTest;
use File::Spec;

my $node = PostgreSQL::Test::Cluster->new('bloom_dump');
$node->init;
$node->start;

$node->safe_psql('postgres', q{
	CREATE EXTENSION bloomfilter;
	CREATE TABLE rollups (day int PRIMARY KEY, users bloom, note text);
	INSERT INTO rollups
	SELECT d, bloom_agg(d * 1000 + u, 100000, 0.01), 'day ' || d
	FROM generate_series(1, 30) d, generate_series(1, 20000) u GROUP BY d;
	INSERT INTO rollups VALUES (31, NULL, 'no data'), (32, bloom_empty(10, 0.5, -42), 'tiny, negative seed');
	-- a large filter stored out of line
	INSERT INTO rollups SELECT 33, bloom_agg(i, 2000000, 0.001), 'big' FROM generate_series(1, 100000) i;
	CREATE TABLE fingerprint AS SELECT day, md5(users::text) AS h FROM rollups;
});

my $count = $node->safe_psql('postgres', 'SELECT count(*) FROM rollups');
is($count, '33', 'source table has 33 rows');

# pg_dump in custom format, restore into a new database
dump_restore($node, 'custom', 'restored');

my $digest = q{SELECT string_agg(day || ':' || coalesce(md5(users::text), 'null'), ',' ORDER BY day) FROM rollups};
my $orig = $node->safe_psql('postgres', $digest);
my $rest = $node->safe_psql('restored', $digest);
is($rest, $orig, 'restored filters are identical to the originals');

my $probe = q{SELECT count(*) FROM rollups r, generate_series(1, 20000) u WHERE r.day <= 30 AND r.users @> (r.day * 1000 + u)};
is($node->safe_psql('restored', $probe), '600000', 'every element is found in the restored filters');

# plain-text dump (COPY text format) restored with psql
dump_restore($node, 'plain', 'restored_plain');
my $plain = $node->safe_psql('restored_plain', $digest);
is($plain, $orig, 'plain-dump filters are identical to the originals');

# binary COPY out and back in
is(binary_copy_identical($node, 'rollups', 'day', 'users'), '33', 'binary COPY round-trips every filter');

# the big filter is stored out of line and uncompressed (STORAGE external)
is($node->safe_psql('restored', q{
	SELECT pg_column_size(users) >= octet_length(users::text) * 3 / 4 - 100 FROM rollups WHERE day = 33
}), 't', 'large filter is stored uncompressed');
is($node->safe_psql('restored', q{SELECT count(*) FROM rollups, generate_series(1, 100000) i WHERE day = 33 AND users @> i}),
	'100000', 'large restored filter finds all its elements');

$node->stop;
done_testing();
