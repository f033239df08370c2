# pg_dump / pg_restore and binary COPY round trips of a table of quotient filters
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use BloomfilterTest;
use File::Spec;

my $node = PostgreSQL::Test::Cluster->new('quotientfilter_dump');
$node->init;
$node->start;

$node->safe_psql('postgres', q{
	CREATE EXTENSION bloomfilter;
	CREATE TABLE members (day int PRIMARY KEY, users quotientfilter, note text);
	INSERT INTO members
	SELECT d, quotientfilter_agg(d * 100000 + u, 20000, 0.01), 'day ' || d
	FROM generate_series(1, 20) d, generate_series(1, 20000) u GROUP BY d;
	-- removes leave shifted runs behind; a grown and a resized filter; an empty one
	UPDATE members SET users = quotientfilter_remove(users, array(SELECT day * 100000 + u FROM generate_series(1, 20000, 3) u))
	WHERE day <= 5;
	INSERT INTO members VALUES (21, NULL, 'no data'), (22, quotientfilter_empty(10, 0.5, -42), 'tiny, negative seed'),
		(23, quotientfilter_resize(quotientfilter_add(quotientfilter_create(6, 20, 9), array(SELECT generate_series(1, 1000))), 13), 'resized'),
		(24, quotientfilter_add(quotientfilter_create(3, 61), ARRAY[1, 2, 3]), 'widest remainder');
	-- a large filter stored out of line
	INSERT INTO members SELECT 25, quotientfilter_agg(i, 50000, 0.001), 'big' FROM generate_series(1, 300000) i;
});

is($node->safe_psql('postgres', 'SELECT count(*) FROM members'), '25', 'source table has 25 rows');

my $digest = q{SELECT string_agg(day || ':' || coalesce(md5(users::text), 'null'), ',' ORDER BY day) FROM members};
my $orig = $node->safe_psql('postgres', $digest);

# pg_dump in custom format, restore into a new database
dump_restore($node, 'custom', 'restored');
is($node->safe_psql('restored', $digest), $orig, 'restored filters are identical to the originals');

my $probe = q{SELECT count(*) FROM members m, generate_series(1, 20000) u
	WHERE m.day BETWEEN 6 AND 20 AND m.users @> (m.day * 100000 + u)};
is($node->safe_psql('restored', $probe), '300000', 'every element is found in the restored filters');
is($node->safe_psql('restored', q{SELECT count(*) FROM members m, generate_series(1, 20000) u
	WHERE m.day <= 5 AND u % 3 <> 1 AND NOT m.users @> (m.day * 100000 + u)}), '0',
	'elements kept after removes are found');
is($node->safe_psql('restored', q{SELECT sum(quotientfilter_cardinality(users)) FROM members WHERE day <= 20}),
	$node->safe_psql('postgres', q{SELECT sum(quotientfilter_cardinality(users)) FROM members WHERE day <= 20}),
	'entry counts survive');

# plain-text dump (COPY text format) restored with psql
dump_restore($node, 'plain', 'restored_plain');
is($node->safe_psql('restored_plain', $digest), $orig, 'plain-dump filters are identical to the originals');

# binary COPY out and back in (quotientfilter_recv validates every value)
is(binary_copy_identical($node, 'members', 'day', 'users'), '25', 'binary COPY round-trips every filter');

# corrupted binary values are refused by recv with 22P02.  The value starts after the
# 19-byte file header, the 2-byte field count and the 4-byte length; send writes the
# datum without its varlena word: version 0, kind 1, hash 2, flags 3, seed 4..11,
# inserts 12..19, q 20, r 21, reserved 22..27, entries 28..35, slots from 36.
# The filter holds one element, in slot 17 of q = 5, r = 6 (bits 153 .. 161).
my $good = File::Spec->rel2abs($node->basedir . '/good.bin');
$node->safe_psql('postgres', q{CREATE TABLE one AS SELECT quotientfilter_add_fingerprint(quotientfilter_create(5, 6), 17 * 64) AS users});
$node->safe_psql('postgres', "COPY one TO '$good' (FORMAT binary)");
open(my $gfh, '<:raw', $good) or die "open $good: $!";
my $gooddata = do { local $/; <$gfh> };
close($gfh);
my $n = 0;
my $corrupt = sub {
	my ($what, $edit, $expect) = @_;
	my $data = $gooddata;
	$edit->(\$data);
	my $file = File::Spec->rel2abs($node->basedir . '/bad' . ++$n . '.bin');
	open(my $fh, '>:raw', $file) or die "open $file: $!";
	print $fh $data;
	close($fh);
	my ($ret, $stdout, $stderr) = $node->psql('postgres',
		"CREATE TEMP TABLE bad (LIKE one); COPY bad FROM '$file' (FORMAT binary)",
		extra_params => [ '-v', 'VERBOSITY=verbose' ]);
	like($stderr, $expect, "binary value with $what is refused");
};
my $base = 19 + 2 + 4;
my $xor = sub { my ($off, $bits) = @_; return sub { my $d = shift; substr($$d, $base + $off, 1) = chr(ord(substr($$d, $base + $off, 1)) ^ $bits); } };
my $set = sub { my ($off, $byte) = @_; return sub { my $d = shift; substr($$d, $base + $off, 1) = chr($byte); } };
# (the remainder is 0, so without is_occupied the slot reads as empty)
$corrupt->('is_occupied of its only element cleared', $xor->(36 + 19, 2), qr/22P02.*invalid quotientfilter value.*header says 1 entries, but the slots hold 0/s);
$corrupt->('is_shifted set on an element in its own slot', $xor->(36 + 19, 8), qr/22P02.*marked is_shifted/s);
$corrupt->('a continuation bit on the run head', $xor->(36 + 19, 4), qr/22P02.*no run precedes it/s);
$corrupt->('q = 0', $set->(20, 0), qr/22P02.*q = 0 is out of range/s);
$corrupt->('r = 62', $set->(21, 62), qr/22P02.*r = 62 is out of range/s);
$corrupt->('a reserved byte set', $set->(24, 1), qr/22P02.*reserved header fields/s);
# bytes 22..23 are the member count of a growing filter (0: fixed)
$corrupt->('too many members', $set->(23, 1), qr/22P02.*member count 256 is more than 64/s);
$corrupt->('members missing', $set->(22, 2), qr/22P02.*too short for member 1/s);
$corrupt->('another filter kind', $set->(1, 1), qr/22P02.*filter kind 1/s);
$corrupt->('a wrong entry count', $set->(28, 2), qr/22P02.*header says 2 entries/s);
$corrupt->('more entries than slots', $set->(28, 33), qr/22P02.*exceeds the 32 slots/s);
$corrupt->('q = 6 (size mismatch)', $set->(20, 6), qr/22P02.*bytes long/s);
$corrupt->('a truncated value', sub { my $d = shift; substr($$d, $base - 4, 4) = pack('N', 30); substr($$d, $base + 30, 40 + 36 - 30) = ''; },
	qr/22P02.*shorter than the 40-byte header/s);

# the big filter is stored out of line and uncompressed (STORAGE external)
is($node->safe_psql('restored', q{
	SELECT pg_column_size(users) >= octet_length(quotientfilter_send(users)) FROM members WHERE day = 25
}), 't', 'large filter is stored uncompressed');
is($node->safe_psql('restored', q{SELECT count(*) FROM members, generate_series(1, 300000) i WHERE day = 25 AND users @> i}),
	'300000', 'large restored filter finds all its elements');

# probing large stored filters through TOAST slices: a probe that sees a value for the
# first time reads the header and one cluster's blocks, not the whole 320 kB filter
$node->safe_psql('postgres', q{
	CREATE TABLE bigs (id int, f quotientfilter);
	INSERT INTO bigs SELECT g, quotientfilter_add(quotientfilter_empty(200000, 0.01, g),
		array(SELECT generate_series(1, 90000 + g * 4000))) FROM generate_series(1, 20) g;
	CREATE TABLE probes AS SELECT x FROM generate_series(169000, 171000) x;
	-- one statement per probe value: every row's filter is new to the call site (slice mode)
	CREATE TABLE slice_res (id int, x int, found bool);
	DO $$
	DECLARE x int;
	BEGIN
		FOR x IN SELECT * FROM probes LOOP
			INSERT INTO slice_res SELECT id, x, f @> x FROM bigs;
		END LOOP;
	END $$;
});
my $buffers = sub {
	my ($query) = @_;
	my $plan = $node->safe_psql('postgres', "EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, TIMING OFF) $query");
	return $plan =~ /Buffers: shared hit=(\d+)(?: read=(\d+))?/ ? $1 + ($2 // 0) : -1;
};
my $sliced = $buffers->('SELECT count(*) FROM bigs WHERE f @> 12345');
my $whole = $buffers->('SELECT count(*) FROM bigs WHERE quotientfilter_cardinality(f) > 0');
ok($sliced > 0 && $sliced * 4 < $whole, "first probes read TOAST slices ($sliced buffers) instead of whole values ($whole)");
# the same probes with each filter detoasted once and probed many times (LATERAL keeps one value per call run)
is($node->safe_psql('postgres', q{
	SELECT count(*) || ' ' || count(*) FILTER (WHERE s.found <> l.found)
		|| ' ' || count(*) FILTER (WHERE s.x <= 90000 + s.id * 4000 AND NOT s.found)
	FROM slice_res s JOIN (SELECT b.id, l.x, l.found FROM bigs b, LATERAL (SELECT x, b.f @> x AS found FROM probes) l) l
		USING (id, x)
}), '40020 0 0', 'slice probes agree with whole-value probes, no false negatives');

$node->stop;
done_testing();
