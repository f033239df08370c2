# Logical replication of tables holding all four filter types without a primary key
# (REPLICA IDENTITY FULL): the subscriber finds the rows of UPDATE and DELETE by the
# types' = (default btree and hash operator classes), with binary = off and on.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $pub = PostgreSQL::Test::Cluster->new('publisher');
$pub->init(allows_streaming => 'logical');
$pub->start;
my $sub = PostgreSQL::Test::Cluster->new('subscriber');
$sub->init;
$sub->start;

my $ddl = q{
	CREATE EXTENSION bloomfilter;
	CREATE TABLE rollups_text (day int, note text, b bloom, cb countingbloom, qf quotientfilter, cf cuckoofilter);
	CREATE TABLE rollups_bin (LIKE rollups_text);
	ALTER TABLE rollups_text REPLICA IDENTITY FULL;
	ALTER TABLE rollups_bin REPLICA IDENTITY FULL;
};
$pub->safe_psql('postgres', $ddl);
$sub->safe_psql('postgres', $ddl);

my $fill = q{
	INSERT INTO %1$s
	SELECT d, 'day ' || d, bloom_agg(u, 5000, 0.01), countingbloom_agg(u, 5000, 0.01),
		quotientfilter_agg(u, 5000, 0.01), cuckoofilter_agg(u, 5000, 0.01)
	FROM generate_series(1, 40) d, generate_series(1, 2000) u WHERE (u * d) %% 3 <> 0 GROUP BY d;
	-- rows whose filters are equal to another row's, and filters of other parameters
	INSERT INTO %1$s SELECT day + 100, 'twin of ' || day, b, cb, qf, cf FROM %1$s WHERE day <= 5;
	INSERT INTO %1$s VALUES (200, 'empty, other parameters', bloom_empty(10), countingbloom_empty(10),
		quotientfilter_empty(10), cuckoofilter_empty(10));
};
$pub->safe_psql('postgres', sprintf($fill, 'rollups_text'));
$pub->safe_psql('postgres', sprintf($fill, 'rollups_bin'));

my $connstr = $pub->connstr . ' dbname=postgres';
$pub->safe_psql('postgres', 'CREATE PUBLICATION pub_text FOR TABLE rollups_text');
$pub->safe_psql('postgres', 'CREATE PUBLICATION pub_bin FOR TABLE rollups_bin');
$sub->safe_psql('postgres', "CREATE SUBSCRIPTION sub_text CONNECTION '$connstr' PUBLICATION pub_text WITH (binary = false)");
$sub->safe_psql('postgres', "CREATE SUBSCRIPTION sub_bin CONNECTION '$connstr' PUBLICATION pub_bin WITH (binary = true)");
$sub->wait_for_subscription_sync($pub, 'sub_text');
$sub->wait_for_subscription_sync($pub, 'sub_bin');

my $digest = q{SELECT count(*) || ' ' || md5(string_agg(day || note || b::text || cb::text || qf::text || cf::text, ',' ORDER BY day)) FROM %s};
for my $t ('rollups_text', 'rollups_bin')
{
	is($sub->safe_psql('postgres', sprintf($digest, $t)), $pub->safe_psql('postgres', sprintf($digest, $t)),
		"$t: initial copy identical");
}

# UPDATE and DELETE located by every column, the filters among them
my $changes = q{
	UPDATE %1$s SET b = bloom_add(b, 999999), cb = countingbloom_add(cb, 999999),
		qf = quotientfilter_add(qf, 999999), cf = cuckoofilter_add(cf, 999999), note = note || ' +999999'
	WHERE day %% 4 = 0;
	UPDATE %1$s SET note = 'twin updated' WHERE day = 101;      -- its filters equal day 1's
	UPDATE %1$s SET cb = countingbloom_remove(cb, 7) WHERE day BETWEEN 10 AND 12;
	DELETE FROM %1$s WHERE day %% 7 = 0;
	DELETE FROM %1$s WHERE day = 102;                           -- the twin goes, day 2 stays
	DELETE FROM %1$s WHERE day = 200;                           -- filters of other parameters
	UPDATE %1$s SET qf = quotientfilter_resize(qf, 14) WHERE day = 1;   -- equal value, new layout
};
$pub->safe_psql('postgres', sprintf($changes, 'rollups_text'));
$pub->safe_psql('postgres', sprintf($changes, 'rollups_bin'));
$pub->wait_for_catchup('sub_text');
$pub->wait_for_catchup('sub_bin');

for my $t ('rollups_text', 'rollups_bin')
{
	my $mode = $t eq 'rollups_bin' ? 'binary = on' : 'binary = off';
	is($sub->safe_psql('postgres', sprintf($digest, $t)), $pub->safe_psql('postgres', sprintf($digest, $t)),
		"$t ($mode): UPDATE and DELETE of filter rows arrive, tables identical");
	is($sub->safe_psql('postgres', "SELECT count(*) FROM $t WHERE note LIKE '%+999999' AND b @> 999999 AND cf @> 999999"),
		$pub->safe_psql('postgres', "SELECT count(*) FROM $t WHERE day % 4 = 0"),
		"$t ($mode): the updated filters hold the new element");
	is($sub->safe_psql('postgres', "SELECT string_agg(day::text, ',' ORDER BY day) FROM $t WHERE day IN (1, 2, 101, 102, 200)"),
		'1,2,101', "$t ($mode): twins with equal filters told apart by their other columns");
}
# the apply worker never looped on an error
my $log = slurp_file($sub->logfile);
unlike($log, qr/could not identify an equality operator|ERROR/, 'the subscriber logged no error');

$sub->stop;
$pub->stop;
done_testing();
