# cuckoofilter: pg_dump / pg_restore (custom and plain) and binary COPY round
# trips of a table of cuckoo filters (chained, with victims, large and
# out of line), TOAST-slice probes, and validation of binary input (recv)
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use BloomfilterTest;
use File::Spec;

my $node = PostgreSQL::Test::Cluster->new('cuckoofilter_dump');
$node->init;
$node->start;

$node->safe_psql('postgres', q{
	CREATE EXTENSION bloomfilter;
	CREATE TABLE sets (id int PRIMARY KEY, f cuckoofilter, note text);
	-- 20 groups of 3000 keys, some added twice
	INSERT INTO sets
	SELECT g, cuckoofilter_agg(g * 100000 + k, 5000, 0.01), 'group ' || g
	FROM generate_series(1, 20) g, generate_series(1, 3000) k, generate_series(1, 1 + (k % 2)) r GROUP BY g;
	INSERT INTO sets VALUES
		(21, NULL, 'no data'),
		(22, cuckoofilter_empty(10, 0.5, -42), 'tiny, negative seed'),
		(23, cuckoofilter_add(cuckoofilter_create(8, 12, 7), array_fill('hot'::text, ARRAY[40])), 'saturated copies');
	-- over capacity: a chain of sub-filters with victims in use
	INSERT INTO sets SELECT 24, cuckoofilter_agg(i, 1000, 0.01), 'chained' FROM generate_series(1, 20000) i;
	-- large filters stored out of line: 640 kB unchained, 1 MB chained
	INSERT INTO sets SELECT 25, cuckoofilter_agg(i, 500000, 0.01), 'big' FROM generate_series(1, 300000) i;
	INSERT INTO sets SELECT 26, cuckoofilter_agg(i, 100000, 0.01), 'big chained' FROM generate_series(1, 400000) i;
	-- removals: the second copy of every odd key of groups 1..20
	UPDATE sets SET f = cuckoofilter_remove(f, ARRAY(SELECT id * 100000 + k FROM generate_series(1, 3000, 2) k))
	WHERE id <= 20;
});

is($node->safe_psql('postgres', 'SELECT count(*) FROM sets'), '26', 'source table has 26 rows');
is($node->safe_psql('postgres', q{SELECT (cuckoofilter_info(f)).subfilters > 1 AND (cuckoofilter_info(f)).victims_in_use > 0 FROM sets WHERE id = 24}),
	't', 'the chained filter has several sub-filters and victims in use');

my $digest = q{SELECT string_agg(id || ':' || coalesce(md5(f::text), 'null') || ':'
	|| coalesce(md5(cuckoofilter_send(f)::text), 'null'), ',' ORDER BY id) FROM sets};
my $orig = $node->safe_psql('postgres', $digest);

# ground truth: key k of group g was added 1 + k % 2 times, odd keys once removed
my $probe = q{SELECT count(*) FILTER (WHERE NOT f @> (id * 100000 + k)) || '/' ||
	count(*) FILTER (WHERE cuckoofilter_count(f, id * 100000 + k) < 1) || '/' ||
	(SELECT count(*) FROM sets, generate_series(1, 20000) i WHERE id = 24 AND NOT f @> i) || '/' ||
	(SELECT count(*) FROM sets, generate_series(1, 400000) i WHERE id = 26 AND NOT f @> i)
	FROM sets, generate_series(1, 3000) k WHERE id <= 20};
is($node->safe_psql('postgres', $probe), '0/0/0/0', 'source: no false negatives, counts bound multiplicities');
is($node->safe_psql('postgres', q{SELECT sum(cuckoofilter_cardinality(f)) FROM sets WHERE id <= 20}), 20 * 3000,
	'after the removals every key of groups 1..20 has exactly one fingerprint');

# pg_dump in custom format, restore into a new database
dump_restore($node, 'custom', 'restored');
is($node->safe_psql('restored', $digest), $orig, 'restored filters are identical to the originals (text and binary)');
is($node->safe_psql('restored', $probe), '0/0/0/0', 'restored: no false negatives, counts bound multiplicities');
is($node->safe_psql('restored', q{
	SELECT bool_and(pg_column_size(f) >= (cuckoofilter_info(f)).size_bytes - 4) FROM sets WHERE id IN (25, 26)
}), 't', 'large filters are stored uncompressed');

# single probes of large out-of-line filters read TOAST slices: each statement below is a
# fresh executor state, so each probe is a first probe
is($node->safe_psql('restored', q{
	DO $$
	DECLARE
		r record;
		missed int := 0;
		hits int := 0;
	BEGIN
		FOR r IN SELECT id, k FROM (VALUES (25), (26)) v(id), generate_series(1, 400000, 1999) k LOOP
			IF (SELECT NOT (f @> r.k) FROM sets WHERE id = r.id) AND (r.id = 26 OR r.k <= 300000) THEN
				missed := missed + 1;
			END IF;
			IF (SELECT cuckoofilter_count(f, r.k) FROM sets WHERE id = r.id) < 1 AND (r.id = 26 OR r.k <= 300000) THEN
				missed := missed + 1;
			END IF;
			IF (SELECT f @> -r.k FROM sets WHERE id = r.id) THEN
				hits := hits + 1;
			END IF;
		END LOOP;
		RAISE NOTICE 'missed % hits %', missed, hits;
		IF missed > 0 OR hits > 20 THEN
			RAISE EXCEPTION 'slice probes: % missed, % false hits', missed, hits;
		END IF;
	END $$;
	SELECT 'ok'
}), 'ok', 'slice-mode probes of large (chained) filters find every member');

# plain-text dump (COPY text format) restored with psql
dump_restore($node, 'plain', 'restored_plain');
is($node->safe_psql('restored_plain', $digest), $orig, 'plain-dump filters are identical to the originals');

# binary COPY out and back in
is(binary_copy_identical($node, 'sets', 'id', 'f'), '26', 'binary COPY round-trips every filter');

# ---------------------------------------------------------------------
# recv validation: corrupt the binary form of a filter and COPY it in
# ---------------------------------------------------------------------
my $one = File::Spec->rel2abs($node->basedir . '/one.bin');
$node->safe_psql('postgres', q{CREATE TABLE one (f cuckoofilter)});
# 4 semi-sorted buckets of 28 bits (f = 8): 14 bytes, padded to 16, and 8 more
$node->safe_psql('postgres',
	"COPY (SELECT cuckoofilter_add(cuckoofilter_create(4, 8, 7), ARRAY[1, 2, 3, 3])) TO '$one' (FORMAT binary)");


my $good = read_copy_datum($one);
is(length($good), 36 + 24 + 24, 'binary form: 36 bytes of header, a 24-byte sub-filter header, 24 table bytes');
is(unpack('C', substr($good, 1, 1)), 4, 'kind byte says cuckoofilter');
is(unpack('Q<', substr($good, 28, 8)), 4, 'header count is 4');

my $f = File::Spec->rel2abs($node->basedir . '/bad.bin');
write_copy_datum($f, $good);
$node->safe_psql('postgres', "COPY one FROM '$f' (FORMAT binary)");
is($node->safe_psql('postgres', q{SELECT f = cuckoofilter_add(cuckoofilter_create(4, 8, 7), ARRAY[1, 2, 3, 3]) FROM one}),
	't', 'unmodified binary datum loads back equal');

# a valid victim: fingerprint 9 for bucket 2, counted in both counts
my $victim = $good;
substr($victim, 37, 1) = "\x01";
substr($victim, 40, 4) = pack('V', 9);
substr($victim, 48, 4) = pack('V', 2);
substr($victim, 52, 8) = pack('Q<', 5);
substr($victim, 28, 8) = pack('Q<', 5);
write_copy_datum($f, $victim);
$node->safe_psql('postgres', "TRUNCATE one; COPY one FROM '$f' (FORMAT binary)");
is($node->safe_psql('postgres', q{SELECT (cuckoofilter_info(f)).victims_in_use || '/' || cuckoofilter_cardinality(f) FROM one}),
	'1/5', 'a consistent victim slot is accepted');

my @corruptions = (
	[ 'format version', sub { substr($_[0], 0, 1) = "\x09" }, qr/Format version 9 is not supported/ ],
	[ 'filter kind', sub { substr($_[0], 1, 1) = "\x01" }, qr/filter kind 1, not cuckoofilter/ ],
	[ 'hash algorithm', sub { substr($_[0], 2, 1) = "\x07" }, qr/Hash algorithm 7 is not supported/ ],
	[ 'flags', sub { substr($_[0], 3, 1) = "\x01" }, qr/Unknown flags/ ],
	[ 'f = 3', sub { substr($_[0], 20, 1) = "\x03" }, qr/Fingerprint bits f = 3 is outside 4..32/ ],
	[ 'f = 33', sub { substr($_[0], 20, 1) = "\x21" }, qr/Fingerprint bits f = 33/ ],
	[ 'f = 12 (sizes no longer match)', sub { substr($_[0], 20, 1) = "\x0c" }, qr/past the end/ ],
	[ 'b = 8', sub { substr($_[0], 21, 1) = "\x08" }, qr/Bucket size b = 8 is not 4/ ],
	[ 'bucket layout 0', sub { substr($_[0], 22, 1) = "\x00" }, qr/Bucket layout 0 is not 1 \(semi-sorted\)/ ],
	[ 'bucket layout 2', sub { substr($_[0], 22, 1) = "\x02" }, qr/Bucket layout 2 is not 1/ ],
	[ 'reserved field', sub { substr($_[0], 23, 1) = "\x01" }, qr/reserved header field/ ],
	[ 'bucket code 4095', sub { substr($_[0], 60, 2) = "\xff\x0f" }, qr/bucket 0: nibble code 4095 is not below 3876/ ],
	[ 'no sub-filters', sub { substr($_[0], 24, 4) = pack('V', 0) }, qr/number of sub-filters 0 is outside/ ],
	[ 'two sub-filters announced', sub { substr($_[0], 24, 4) = pack('V', 2) }, qr/ends inside sub-filter 2 of 2/ ],
	[ 'header count', sub { substr($_[0], 28, 8) = pack('Q<', 3) }, qr/header count 3 is not the sum 4/ ],
	[ 'sub-filter larger than the value', sub { substr($_[0], 44, 4) = pack('V', 8) }, qr/past the end/ ],
	[ 'sub-filter smaller than the value', sub { substr($_[0], 44, 4) = pack('V', 2) }, qr/sub-filters end at byte/ ],
	[ 'no buckets', sub { substr($_[0], 44, 4) = pack('V', 0) }, qr/has no buckets/ ],
	[ 'level 40', sub { substr($_[0], 36, 1) = "\x28" }, qr/level 40, more than 31/ ],
	[ 'first sub-filter at level 1', sub { substr($_[0], 36, 1) = "\x01" }, qr/first sub-filter has level 1, not 0/ ],
	[ 'victim flag 2', sub { substr($_[0], 37, 1) = "\x02" }, qr/victim flag 2, not 0 or 1/ ],
	[ 'sub-filter reserved field', sub { substr($_[0], 38, 1) = "\x01" }, qr/non-zero reserved field/ ],
	[ 'unused victim with a fingerprint', sub { substr($_[0], 40, 4) = pack('V', 9) }, qr/unused victim slot that is not zero/ ],
	[ 'victim fingerprint 0', sub { substr($_[0], 40, 4) = pack('V', 0) }, qr/victim fingerprint 0 outside 1..255/, 1 ],
	[ 'victim fingerprint 256', sub { substr($_[0], 40, 4) = pack('V', 256) }, qr/victim fingerprint 256 outside 1..255/, 1 ],
	[ 'victim bucket 4 of 4', sub { substr($_[0], 48, 4) = pack('V', 4) }, qr/victim bucket 4 of 4/, 1 ],
	[ 'sub-filter count too large', sub { substr($_[0], 52, 8) = pack('Q<', 17); substr($_[0], 28, 8) = pack('Q<', 17) }, qr/count 17, impossible/ ],
	[ 'sub-filter count not the entries', sub { substr($_[0], 52, 8) = pack('Q<', 5); substr($_[0], 28, 8) = pack('Q<', 5) }, qr/holds 4 fingerprints, but its count is 5/ ],
	[ 'padding byte', sub { substr($_[0], -1) = "\x01" }, qr/padding byte that is not zero/ ],
	[ 'truncated table', sub { substr($_[0], -8) = '' }, qr/past the end/ ],
	[ 'shorter than the header', sub { $_[0] = substr($_[0], 0, 10) }, qr/shorter than the 40-byte header/ ],
	[ 'empty', sub { $_[0] = '' }, qr/shorter than the 40-byte header/ ],
);
for my $c (@corruptions)
{
	my ($name, $mutate, $detail, $from_victim) = @$c;
	my $bad = $from_victim ? $victim : $good;
	$mutate->($bad);
	write_copy_datum($f, $bad);
	my ($ret, $stdout, $stderr) = $node->psql('postgres', "TRUNCATE one; COPY one FROM '$f' (FORMAT binary)",
		extra_params => [ '-v', 'VERBOSITY=verbose' ]);
	isnt($ret, 0, "recv refuses: $name");
	like($stderr, qr/ERROR:  22P02: invalid cuckoofilter value/, "recv: $name gives 22P02");
	like($stderr, $detail, "recv: $name is explained in the detail");
}
is($node->safe_psql('postgres', 'SELECT count(*) FROM one'), '0', 'nothing was loaded from corrupt input');

# a bloom's binary form is not a cuckoofilter's
$node->safe_psql('postgres', "COPY (SELECT bloom_agg(i, 100, 0.01) FROM generate_series(1, 10) i) TO '$f' (FORMAT binary)");
my ($ret, $stdout, $stderr) = $node->psql('postgres', "COPY one FROM '$f' (FORMAT binary)",
	extra_params => [ '-v', 'VERBOSITY=verbose' ]);
like($stderr, qr/22P02: invalid cuckoofilter value.*\n.*filter kind 1/, 'a bloom datum is refused by cuckoofilter recv');

$node->stop;
done_testing();
