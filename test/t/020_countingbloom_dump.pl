# countingbloom: pg_dump / pg_restore (custom and plain) and binary COPY round
# trips of a table of counting filters, and validation of binary input (recv)
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use BloomfilterTest;
use File::Spec;

my $node = PostgreSQL::Test::Cluster->new('countingbloom_dump');
$node->init;
$node->start;

$node->safe_psql('postgres', q{
	CREATE EXTENSION bloomfilter;
	CREATE TABLE daily (day int PRIMARY KEY, visitors countingbloom, note text);
	-- 30 days of visitors, each visitor 1..3 times a day
	INSERT INTO daily
	SELECT d, countingbloom_agg(d * 1000 + u, 20000, 0.01), 'day ' || d
	FROM generate_series(1, 30) d, generate_series(1, 15000) u, generate_series(1, 1 + u % 3) r GROUP BY d;
	INSERT INTO daily VALUES
		(31, NULL, 'no data'),
		(32, countingbloom_empty(10, 0.5, -42), 'tiny, negative seed'),
		(33, countingbloom_add(countingbloom_create(101, 3, 7), array_fill('hot'::text, ARRAY[40])), 'saturated, odd m');
	-- a large filter stored out of line (2.3 MB of counters)
	INSERT INTO daily SELECT 34, countingbloom_agg(i, 500000, 0.01), 'big' FROM generate_series(1, 200000) i;
	-- some removals, so the counters are not just what an aggregate builds
	UPDATE daily SET visitors = countingbloom_remove(visitors, ARRAY(SELECT day * 1000 + u FROM generate_series(1, 5000) u))
	WHERE day <= 30;
});

is($node->safe_psql('postgres', 'SELECT count(*) FROM daily'), '34', 'source table has 34 rows');
is($node->safe_psql('postgres', q{SELECT (countingbloom_info(visitors)).counters_saturated FROM daily WHERE day = 33}),
	'3', 'the saturated filter has its 3 counters at 15');

my $digest = q{SELECT string_agg(day || ':' || coalesce(md5(visitors::text), 'null') || ':'
	|| coalesce(md5(countingbloom_send(visitors)::text), 'null'), ',' ORDER BY day) FROM daily};
my $orig = $node->safe_psql('postgres', $digest);

# the ground truth after the removals: visitor u of day d is in iff it was added
# more often than removed (u > 5000, or u % 3 > 0)
my $probe = q{SELECT count(*) FILTER (WHERE NOT visitors @> (day * 1000 + u)) || '/' ||
	count(*) FILTER (WHERE countingbloom_count(visitors, day * 1000 + u) < 1 + u % 3 - (u <= 5000)::int)
	FROM daily, generate_series(1, 15000) u WHERE day <= 30 AND (u > 5000 OR u % 3 > 0)};
is($node->safe_psql('postgres', $probe), '0/0', 'source: no false negatives, counts bound multiplicities');

# pg_dump in custom format, restore into a new database
dump_restore($node, 'custom', 'restored');
is($node->safe_psql('restored', $digest), $orig, 'restored filters are identical to the originals (text and binary)');
is($node->safe_psql('restored', $probe), '0/0', 'restored: no false negatives, counts bound multiplicities');
is($node->safe_psql('restored', q{SELECT count(*) FROM daily, generate_series(1, 200000) i WHERE day = 34 AND visitors @> i}),
	'200000', 'large restored filter finds all its elements');
is($node->safe_psql('restored', q{
	SELECT pg_column_size(visitors) >= (countingbloom_info(visitors)).size_bytes - 4 FROM daily WHERE day = 34
}), 't', 'large filter is stored uncompressed');

# plain-text dump (COPY text format) restored with psql
dump_restore($node, 'plain', 'restored_plain');
is($node->safe_psql('restored_plain', $digest), $orig, 'plain-dump filters are identical to the originals');

# binary COPY out and back in
is(binary_copy_identical($node, 'daily', 'day', 'visitors'), '34', 'binary COPY round-trips every filter');

# ---------------------------------------------------------------------
# recv validation: corrupt the binary form of a filter and COPY it in
# ---------------------------------------------------------------------
my $one = File::Spec->rel2abs($node->basedir . '/one.bin');
$node->safe_psql('postgres', q{CREATE TABLE one (f countingbloom)});
# m = 101 (odd): 7 words of counters, the last nibble of byte 50 is beyond m
$node->safe_psql('postgres',
	"COPY (SELECT countingbloom_add(countingbloom_create(101, 3, 7), ARRAY[1, 2, 3, 3])) TO '$one' (FORMAT binary)");


my $good = read_copy_datum($one);
is(length($good), 36 + 56, 'binary form: 36 bytes of header after the length word, then 7 words of counters');
is(unpack('C', substr($good, 1, 1)), 2, 'kind byte says countingbloom');

# the untouched bytes load and equal the original
my $f = File::Spec->rel2abs($node->basedir . '/bad.bin');
write_copy_datum($f, $good);
$node->safe_psql('postgres', "COPY one FROM '$f' (FORMAT binary)");
is($node->safe_psql('postgres', q{SELECT f = countingbloom_add(countingbloom_create(101, 3, 7), ARRAY[1, 2, 3, 3]) FROM one}),
	't', 'unmodified binary datum loads back equal');
# every counter within m may hold any 4-bit value
my $full = $good;
substr($full, 36, 50) = "\xff" x 50;
substr($full, 36 + 50, 1) = "\x0f";
write_copy_datum($f, $full);
$node->safe_psql('postgres', "TRUNCATE one; COPY one FROM '$f' (FORMAT binary)");
is($node->safe_psql('postgres', q{SELECT (countingbloom_info(f)).counters_saturated FROM one}),
	'101', 'all 101 counters at 15 are accepted');

my @corruptions = (
	[ 'format version', sub { substr($_[0], 0, 1) = "\x09" }, qr/Format version 9 is not supported/ ],
	[ 'filter kind', sub { substr($_[0], 1, 1) = "\x01" }, qr/filter kind 1, not countingbloom/ ],
	[ 'hash algorithm', sub { substr($_[0], 2, 1) = "\x07" }, qr/Hash algorithm 7 is not supported/ ],
	[ 'flags', sub { substr($_[0], 3, 1) = "\x01" }, qr/Unknown flags/ ],
	[ 'm = 0', sub { substr($_[0], 20, 8) = pack('Q<', 0) }, qr/m = 0 is out of range/ ],
	[ 'm too large', sub { substr($_[0], 20, 8) = pack('Q<', 1 << 40) }, qr/is out of range/ ],
	[ 'm not matching the size', sub { substr($_[0], 20, 8) = pack('Q<', 113) }, qr/needs 104/ ],
	[ 'k = 0', sub { substr($_[0], 28, 4) = pack('V', 0) }, qr/k = 0 is out of range/ ],
	[ 'k = 65', sub { substr($_[0], 28, 4) = pack('V', 65) }, qr/k = 65 is out of range/ ],
	[ 'reserved field', sub { substr($_[0], 32, 4) = pack('V', 1) }, qr/reserved header field/ ],
	[ 'truncated payload', sub { substr($_[0], -8) = '' }, qr/needs 96/ ],
	[ 'shorter than the header', sub { $_[0] = substr($_[0], 0, 10) }, qr/shorter than the 40-byte header/ ],
	[ 'empty', sub { $_[0] = '' }, qr/shorter than the 40-byte header/ ],
	[ 'counter m (high nibble of the last used byte)', sub { substr($_[0], 36 + 50, 1) = "\x10" }, qr/Counter 101 is non-zero, beyond m = 101/ ],
	[ 'counters in the padding bytes', sub { substr($_[0], -1) = "\x01" }, qr/Counters beyond m = 101 are non-zero/ ],
);
for my $c (@corruptions)
{
	my ($name, $mutate, $detail) = @$c;
	my $bad = $good;
	$mutate->($bad);
	write_copy_datum($f, $bad);
	my ($ret, $stdout, $stderr) = $node->psql('postgres', "TRUNCATE one; COPY one FROM '$f' (FORMAT binary)",
		extra_params => [ '-v', 'VERBOSITY=verbose' ]);
	isnt($ret, 0, "recv refuses: $name");
	like($stderr, qr/ERROR:  22P02: invalid countingbloom value/, "recv: $name gives 22P02");
	like($stderr, $detail, "recv: $name is explained in the detail");
}
is($node->safe_psql('postgres', 'SELECT count(*) FROM one'), '0', 'nothing was loaded from corrupt input');

# a bloom's binary form is not a countingbloom's
$node->safe_psql('postgres', "COPY (SELECT bloom_agg(i, 100, 0.01) FROM generate_series(1, 10) i) TO '$f' (FORMAT binary)");
my ($ret, $stdout, $stderr) = $node->psql('postgres', "COPY one FROM '$f' (FORMAT binary)",
	extra_params => [ '-v', 'VERBOSITY=verbose' ]);
like($stderr, qr/22P02: invalid countingbloom value.*\n.*filter kind 1/, 'a bloom datum is refused by countingbloom recv');

$node->stop;
done_testing();
