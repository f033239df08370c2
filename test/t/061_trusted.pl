# A trusted extension: a database owner without superuser installs it, uses every
# type and the index, and the privilege checks of the index functions hold
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('trusted');
$node->init;
$node->start;
$node->safe_psql('postgres', q{
	CREATE ROLE owner_role LOGIN;
	CREATE ROLE other_role LOGIN;
	CREATE DATABASE owned OWNER owner_role;
});
is($node->safe_psql('owned', q{SELECT rolsuper FROM pg_roles WHERE rolname = 'owner_role'}), 'f',
	'the database owner is not a superuser');
my ($rc, $out, $err) = $node->psql('owned', 'CREATE EXTENSION bloomfilter',
	extra_params => [ '-U', 'other_role' ]);
isnt($rc, 0, 'a role without CREATE on the database cannot install it');
like($err, qr/permission denied/, 'and is told why');

$node->safe_psql('owned', 'CREATE EXTENSION bloomfilter', extra_params => [ '-U', 'owner_role' ]);
is($node->safe_psql('owned', q{SELECT extowner::regrole FROM pg_extension WHERE extname = 'bloomfilter'}),
	'owner_role', 'the database owner installed it and owns the extension');

my $use = $node->safe_psql('owned', q{
	CREATE TABLE t AS SELECT i, i % 100 AS a FROM generate_series(1, 20000) i;
	CREATE INDEX t_pb ON t USING pagebloom (a);
	CREATE TABLE f AS SELECT bloom_agg(i) AS b, countingbloom_agg(i) AS cb,
		quotientfilter_agg(i) AS qf, cuckoofilter_agg(i) AS cf FROM t;
	SET enable_seqscan = off;
	SELECT (SELECT count(*) FROM t WHERE a = 42), pagebloom_verify('t_pb') > 0,
		(SELECT b @> 7 AND cb @> 7 AND qf @> 7 AND cf @> 7 FROM f);
}, extra_params => [ '-U', 'owner_role' ]);
is($use, '200|t|t', 'the owner builds filters and a pagebloom index and queries them');

($rc, $out, $err) = $node->psql('owned', q{SELECT pagebloom_resummarize('t_pb')},
	extra_params => [ '-U', 'other_role' ]);
like($err, qr/must be owner/, 'another role cannot re-summarize the owner\'s index');
($rc, $out, $err) = $node->psql('owned', q{SELECT pagebloom_info('t_pb')},
	extra_params => [ '-U', 'other_role' ]);
like($err, qr/permission denied/, 'nor read its design without SELECT on the table');

$node->safe_psql('owned', 'DROP TABLE t, f; DROP EXTENSION bloomfilter', extra_params => [ '-U', 'owner_role' ]);
is($node->safe_psql('owned', q{SELECT count(*) FROM pg_extension WHERE extname = 'bloomfilter'}), '0',
	'and the owner can drop it again');
$node->stop;
done_testing();
