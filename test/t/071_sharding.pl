# Sharding with postgres_fdw: a coordinator and two shards holding the hash
# partitions of a table as foreign tables.  Grouped aggregates by the partition key
# and probes (f @> x, x <@ $1) are pushed down to the shards, results equal one
# server's for all four types, and filters built on the shards with default
# parameters combine with the coordinator's (there are no settings to differ).
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my @shards;
for my $i (0, 1)
{
	my $n = PostgreSQL::Test::Cluster->new("shard$i");
	$n->init;
	$n->start;
	$n->safe_psql('postgres', q{
		CREATE EXTENSION bloomfilter;
		CREATE TABLE events (customer int, item int);
		CREATE TABLE rollups (customer int, b bloom, cb countingbloom, qf quotientfilter, cf cuckoofilter);
	});
	push @shards, $n;
}
my $coord = PostgreSQL::Test::Cluster->new('coordinator');
$coord->init;
$coord->start;
$coord->safe_psql('postgres', q{
	CREATE EXTENSION bloomfilter;
	CREATE EXTENSION postgres_fdw;
	CREATE TABLE events (customer int, item int) PARTITION BY HASH (customer);
	CREATE TABLE rollups (customer int, b bloom, cb countingbloom, qf quotientfilter, cf cuckoofilter)
		PARTITION BY HASH (customer);
});
for my $i (0, 1)
{
	my $port = $shards[$i]->port;
	my $host = $shards[$i]->host;
	$coord->safe_psql('postgres', qq{
		CREATE SERVER shard$i FOREIGN DATA WRAPPER postgres_fdw
			OPTIONS (host '$host', port '$port', dbname 'postgres', extensions 'bloomfilter');
		CREATE USER MAPPING FOR CURRENT_USER SERVER shard$i;
		CREATE FOREIGN TABLE events_$i PARTITION OF events FOR VALUES WITH (MODULUS 2, REMAINDER $i)
			SERVER shard$i OPTIONS (table_name 'events');
		CREATE FOREIGN TABLE rollups_$i PARTITION OF rollups FOR VALUES WITH (MODULUS 2, REMAINDER $i)
			SERVER shard$i OPTIONS (table_name 'rollups');
	});
}
# the same rows through the coordinator (routed to the shards) and in one local table
$coord->safe_psql('postgres', q{
	CREATE TABLE events_one AS
	SELECT (i * 7) % 50 AS customer, (i * 7919) % 20000 AS item FROM generate_series(1, 60000) i;
	INSERT INTO events SELECT * FROM events_one;
	INSERT INTO rollups SELECT customer, bloom_agg(item, 2000, 0.01), countingbloom_agg(item, 2000, 0.01),
		quotientfilter_agg(item, 2000, 0.01), cuckoofilter_agg(item, 2000, 0.01) FROM events_one GROUP BY customer;
	CREATE TABLE rollups_one AS SELECT * FROM rollups;
	ANALYZE events_one, rollups_one;
});
for my $i (0, 1)
{
	$shards[$i]->safe_psql('postgres', 'ANALYZE events, rollups');
}
ok($shards[0]->safe_psql('postgres', 'SELECT count(*) FROM events') > 0
	  && $shards[1]->safe_psql('postgres', 'SELECT count(*) FROM events') > 0,
	'rows are spread over both shards');

my $set = 'SET enable_partitionwise_aggregate = on;';
for my $t (['bloom', 'bloom_agg'], ['countingbloom', 'countingbloom_agg'],
	['quotientfilter', 'quotientfilter_agg'], ['cuckoofilter', 'cuckoofilter_agg'])
{
	my ($type, $agg) = @$t;
	my $q = "SELECT customer, $agg(item, 2000, 0.01) AS f FROM %s GROUP BY customer";
	my $plan = $coord->safe_psql('postgres', "$set EXPLAIN (VERBOSE, COSTS OFF) " . sprintf($q, 'events'));
	like($plan, qr/Remote SQL: SELECT customer, public\.$agg\(item, 2000::bigint, 0\.01::double precision\) FROM public\.events GROUP BY 1/,
		"$agg grouped by the partition key is pushed down to the shards");
	unlike($plan, qr/Partial Aggregate|HashAggregate|GroupAggregate/, "$agg: the coordinator only appends");
	is($coord->safe_psql('postgres', "$set SELECT count(*) FROM (" . sprintf($q, 'events') . ") s FULL JOIN ("
			. sprintf($q, 'events_one') . ") o USING (customer) WHERE s.f IS DISTINCT FROM o.f OR s.f::text <> o.f::text"),
		'0', "$agg: every shard's filter equals one server's, byte for byte");
}

# rollups across shards: fixed filters of one capacity from the shards union into one server's
is($coord->safe_psql('postgres', qq{$set
	SELECT bloom_union_agg(f) = (SELECT bloom_agg(item, 100000, 0.01) FROM events_one)
	FROM (SELECT customer, bloom_agg(item, 100000, 0.01) AS f FROM events GROUP BY customer) s}),
	't', 'per-shard bloom_agg(x, capacity, fpr) under bloom_union_agg equals one server\'s');
# self-sized filters from the shards: their union (a chain of the groups' members) holds every item
is($coord->safe_psql('postgres', qq{$set
	WITH u AS MATERIALIZED (SELECT bloom_union_agg(f) AS u
		FROM (SELECT customer, bloom_agg(item) AS f FROM events GROUP BY customer) s)
	SELECT count(*) FROM events_one, u WHERE NOT u.u \@> item}),
	'0', 'per-shard self-sized bloom_agg(x) under bloom_union_agg holds every item');
is($shards[0]->safe_psql('postgres', q{SELECT count(*) FROM pg_settings WHERE name LIKE 'bloomfilter.%'}), '0',
	'no bloomfilter setting exists that could make a shard build another filter');

# probes of filters that live on the shards: WHERE f @> x is evaluated there
my $probe = 'SELECT customer FROM rollups WHERE b @> 4242 AND qf @> 4242 ORDER BY customer';
like($coord->safe_psql('postgres', "EXPLAIN (VERBOSE, COSTS OFF) $probe"),
	qr/Remote SQL: .*WHERE .*OPERATOR\(public\.@>\) 4242/, 'WHERE f @> x is pushed down');
is($coord->safe_psql('postgres', $probe), $coord->safe_psql('postgres', $probe =~ s/rollups/rollups_one/r),
	'and answers as one server');
is($coord->safe_psql('postgres', q{SELECT count(*) FROM events e JOIN rollups r USING (customer) WHERE NOT r.cf @> e.item}),
	'0', 'no false negative across shards');

# x <@ $1: a filter sent as a parameter, probed on the shards
$coord->safe_psql('postgres', q{CREATE TABLE wanted AS SELECT bloom_agg(i, 1000, 0.01) AS f FROM generate_series(100, 1100) i});
my $param = q{PREPARE p(bloom) AS SELECT count(*) FROM events WHERE item <@ $1;
	SET plan_cache_mode = force_generic_plan;};
like($coord->safe_psql('postgres', "$param EXPLAIN (VERBOSE, COSTS OFF) EXECUTE p(NULL)"),
	qr/Remote SQL: .*WHERE .*OPERATOR\(public\.<@\) \$1::public\.bloom/, 'x <@ $1 is pushed down with the filter as a parameter');
my $viaparam = $coord->safe_psql('postgres', q{SELECT count(*) FROM events WHERE item <@ (SELECT f FROM wanted)});
is($viaparam, $coord->safe_psql('postgres', q{SELECT count(*) FROM events_one WHERE item <@ (SELECT f FROM wanted)}),
	'and counts as one server');

for my $n ($coord, @shards) { $n->stop; }
done_testing();
