# The upgrade chain: install 1.0 from its script, ALTER EXTENSION UPDATE, and the
# catalog (every member object and its properties) and the binary-upgrade schema
# dump equal a fresh install of the default version, in public and in another
# schema; a view on a function the update recreates stops it; the update paths
# are those the scripts promise.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;

my $node = PostgreSQL::Test::Cluster->new('upgrade');
$node->init;
$node->start;

my $default = $node->safe_psql('postgres',
	q{SELECT default_version FROM pg_available_extensions WHERE name = 'bloomfilter'});
is($default, '1.1', 'the default version is 1.1');
is($node->safe_psql('postgres',
		q{SELECT string_agg(source || '->' || target || ':' || path, ' ' ORDER BY source, target)
		  FROM pg_extension_update_paths('bloomfilter') WHERE path IS NOT NULL}),
	'1.0->1.1:1.0--1.1', 'update paths: 1.0 to 1.1');

$node->safe_psql('postgres', 'CREATE DATABASE upgraded');
$node->safe_psql('postgres', 'CREATE DATABASE fresh');
$node->safe_psql('upgraded', q{CREATE EXTENSION bloomfilter VERSION '1.0'});
is($node->safe_psql('upgraded', q{SELECT extversion FROM pg_extension WHERE extname = 'bloomfilter'}),
	'1.0', '1.0 installs from its own script');
$node->safe_psql('upgraded', q{ALTER EXTENSION bloomfilter UPDATE});
is($node->safe_psql('upgraded', q{SELECT extversion FROM pg_extension WHERE extname = 'bloomfilter'}),
	'1.1', 'ALTER EXTENSION UPDATE reaches 1.1');
$node->safe_psql('fresh', q{CREATE EXTENSION bloomfilter});

# one line per member object and every property a release may change
my $catalog = q{
WITH m AS (
	SELECT d.classid, d.objid FROM pg_depend d JOIN pg_extension e ON e.oid = d.refobjid
	WHERE d.refclassid = 'pg_extension'::regclass AND e.extname = 'bloomfilter' AND d.deptype = 'e'
)
SELECT line FROM (
	SELECT pg_describe_object(m.classid, m.objid, 0) || ' | comment: ' || coalesce(obj_description(m.objid, m.classid::regclass::text), '-') AS line
	FROM m
	UNION ALL
	SELECT 'function ' || p.oid::regprocedure || ' | ' || p.prorettype::regtype || ' ' || p.prokind::text || ' '
		|| p.provolatile::text || ' strict=' || p.proisstrict || ' parallel=' || p.proparallel::text
		|| ' secdef=' || p.prosecdef || ' leakproof=' || p.proleakproof || ' src=' || p.prosrc
		|| ' cost=' || p.procost || ' rows=' || p.prorows || ' set=' || coalesce(p.proconfig::text, '-')
		|| ' args=' || coalesce(pg_get_function_arguments(p.oid), '')
	FROM m JOIN pg_proc p ON m.classid = 'pg_proc'::regclass AND p.oid = m.objid
	UNION ALL
	SELECT 'aggregate ' || a.aggfnoid::regprocedure || ' | ' || a.aggkind::text || ' ' || a.aggtransfn || ' '
		|| a.aggfinalfn || ' ' || a.aggcombinefn || ' ' || a.aggserialfn || ' ' || a.aggdeserialfn || ' '
		|| a.aggmtransfn || ' ' || a.aggminvtransfn || ' ' || a.aggmfinalfn || ' ' || a.aggfinalextra || ' '
		|| a.aggmfinalextra || ' ' || a.aggfinalmodify::text || ' ' || a.aggmfinalmodify::text || ' '
		|| a.aggtranstype::regtype || ' ' || coalesce(a.agginitval, '-') || ' ' || a.aggsortop
	FROM m JOIN pg_aggregate a ON m.classid = 'pg_proc'::regclass AND a.aggfnoid = m.objid
	UNION ALL
	SELECT 'operator ' || o.oid::regoperator || ' | ' || o.oprcode || ' com=' || o.oprcom::regoperator
		|| ' neg=' || o.oprnegate::regoperator || ' rest=' || o.oprrest || ' join=' || o.oprjoin
		|| ' hashes=' || o.oprcanhash || ' merges=' || o.oprcanmerge || ' result=' || o.oprresult::regtype
	FROM m JOIN pg_operator o ON m.classid = 'pg_operator'::regclass AND o.oid = m.objid
	UNION ALL
	SELECT 'opclass ' || c.opcname || ' ' || am.amname || ' | default=' || c.opcdefault || ' type='
		|| c.opcintype::regtype || ' key=' || c.opckeytype::regtype || ' family=' || f.opfname
	FROM m JOIN pg_opclass c ON m.classid = 'pg_opclass'::regclass AND c.oid = m.objid
	JOIN pg_am am ON am.oid = c.opcmethod JOIN pg_opfamily f ON f.oid = c.opcfamily
	UNION ALL
	SELECT 'opfamily member ' || f.opfname || ' ' || am.amname || ' | op ' || ao.amopstrategy || ' '
		|| ao.amopopr::regoperator || ' ' || ao.amoppurpose::text
	FROM m JOIN pg_opfamily f ON m.classid = 'pg_opfamily'::regclass AND f.oid = m.objid
	JOIN pg_am am ON am.oid = f.opfmethod JOIN pg_amop ao ON ao.amopfamily = f.oid
	UNION ALL
	SELECT 'opfamily member ' || f.opfname || ' ' || am.amname || ' | proc ' || ap.amprocnum || ' '
		|| ap.amproc::regprocedure
	FROM m JOIN pg_opfamily f ON m.classid = 'pg_opfamily'::regclass AND f.oid = m.objid
	JOIN pg_am am ON am.oid = f.opfmethod JOIN pg_amproc ap ON ap.amprocfamily = f.oid
	UNION ALL
	SELECT 'type ' || t.oid::regtype || ' | ' || t.typinput || ' ' || t.typoutput || ' ' || t.typreceive
		|| ' ' || t.typsend || ' ' || t.typlen || ' ' || t.typalign::text || ' ' || t.typstorage::text || ' '
		|| t.typcategory::text || ' ' || t.typispreferred
	FROM m JOIN pg_type t ON m.classid = 'pg_type'::regclass AND t.oid = m.objid
	UNION ALL
	SELECT 'cast ' || c.castsource::regtype || ' -> ' || c.casttarget::regtype || ' | ' || c.castfunc::regprocedure
		|| ' ' || c.castcontext::text || ' ' || c.castmethod::text
	FROM m JOIN pg_cast c ON m.classid = 'pg_cast'::regclass AND c.oid = m.objid
	UNION ALL
	SELECT 'access method ' || a.amname || ' | ' || a.amhandler || ' ' || a.amtype::text
	FROM m JOIN pg_am a ON m.classid = 'pg_am'::regclass AND a.oid = m.objid
) s ORDER BY line};

my $up = $node->safe_psql('upgraded', $catalog);
my $fresh = $node->safe_psql('fresh', $catalog);
my @up = split /\n/, $up;
my @fresh = split /\n/, $fresh;
my %in_up = map { $_ => 1 } @up;
my %in_fresh = map { $_ => 1 } @fresh;
my @missing = grep { !$in_up{$_} } @fresh;
my @extra = grep { !$in_fresh{$_} } @up;
ok(scalar(@fresh) > 200, 'the fresh catalog lists ' . scalar(@fresh) . ' lines');
is(scalar(@missing), 0, 'nothing of a fresh 1.1 is missing after the update')
  or diag("missing after update:\n" . join("\n", @missing));
is(scalar(@extra), 0, 'nothing left over from 1.0 that 1.1 does not have')
  or diag("left over after update:\n" . join("\n", @extra));

# The whole schema as pg_dump --binary-upgrade writes it (every member with its
# full definition, owner, privileges and membership, and anything no longer a
# member), for an update and a fresh install in public and in a schema off the
# search path; OIDs are the only difference allowed.
sub schema_dump
{
	my ($db) = @_;
	my ($out, $err);
	my $ok = IPC::Run::run([ 'pg_dump', '--binary-upgrade', '--schema-only', '-d', $node->connstr($db) ],
		'>', \$out, '2>', \$err);
	ok($ok, "pg_dump --binary-upgrade of $db") or diag($err);
	# comments, the per-dump \restrict key and the OIDs a binary upgrade
	# carries over (they follow the order of creation)
	$out =~ s/^--.*\n//mg;
	$out =~ s/^\\(un)?restrict .*\n//mg;
	$out =~ s/'\d+'::pg_catalog\.oid/'OID'::pg_catalog.oid/g;
	return $out;
}
$node->safe_psql('postgres', 'CREATE DATABASE upgraded_s');
$node->safe_psql('postgres', 'CREATE DATABASE fresh_s');
$node->safe_psql('upgraded_s', q{CREATE SCHEMA bfx; CREATE EXTENSION bloomfilter VERSION '1.0' SCHEMA bfx});
$node->safe_psql('upgraded_s', q{ALTER EXTENSION bloomfilter UPDATE});
$node->safe_psql('fresh_s', q{CREATE SCHEMA bfx; CREATE EXTENSION bloomfilter SCHEMA bfx});
my $dump_fresh = schema_dump('fresh');
ok($dump_fresh =~ /ALTER EXTENSION bloomfilter ADD FUNCTION public\.bloom_add/,
	'the binary-upgrade dump lists the members');
is(schema_dump('upgraded'), $dump_fresh, 'schema dump after the update equals a fresh install (public)');
my $dump_fresh_s = schema_dump('fresh_s');
ok($dump_fresh_s =~ /bfx\.bloom_add/, 'the second dump has the extension in schema bfx');
is(schema_dump('upgraded_s'), $dump_fresh_s, 'schema dump after the update equals a fresh install (schema bfx)');

# the update drops and recreates bloom_info (new result columns): a view on it
# stops the update with core's error, leaving 1.0 in place (README, "Upgrading")
$node->safe_psql('postgres', 'CREATE DATABASE upgraded_v');
$node->safe_psql('upgraded_v', q{CREATE EXTENSION bloomfilter VERSION '1.0'});
$node->safe_psql('upgraded_v', q{CREATE VIEW v AS SELECT (bloom_info(bloom_empty(10))).m});
my ($rc, $stdout, $stderr) = $node->psql('upgraded_v', q{ALTER EXTENSION bloomfilter UPDATE});
ok($rc != 0 && $stderr =~ /cannot drop function bloom_info\(bloom\) because other objects depend on it/,
	'a view on bloom_info stops the update') or diag($stderr);
is($node->safe_psql('upgraded_v', q{SELECT extversion FROM pg_extension WHERE extname = 'bloomfilter'}),
	'1.0', 'the failed update leaves 1.0');
$node->safe_psql('upgraded_v', q{DROP VIEW v; ALTER EXTENSION bloomfilter UPDATE});
is($node->safe_psql('upgraded_v', q{SELECT extversion FROM pg_extension WHERE extname = 'bloomfilter'}),
	'1.1', 'without the view the update goes through');

# the updated extension works: the new operator classes and a filter round trip
is($node->safe_psql('upgraded', q{
	SELECT count(DISTINCT f) FROM (SELECT bloom_agg(i, 100, 0.01) AS f FROM generate_series(1, 300) i GROUP BY i % 3) s}),
	'3', 'DISTINCT on filters works after the update');

$node->stop;
done_testing();
