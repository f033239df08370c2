# The README's SQL examples run as written: every ```sql fenced block of
# README.md, in order, in one psql session on a fresh database of a fresh
# cluster, stops at the first unexpected error (ON_ERROR_STOP) and names the
# block and statement.  A statement that is meant to fail carries a comment
# line `-- error:` (optionally `-- error: SQLSTATE ...`) right before it; it
# must fail (with that SQLSTATE).  A few results the README states in its
# comments are compared too.
use strict;
use warnings;
use File::Basename qw(dirname);
use File::Spec;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $top = $ENV{BF_TOP} // File::Spec->rel2abs(dirname(__FILE__) . '/../..');
my $readme = "$top/README.md";
open(my $fh, '<', $readme) or die "cannot read $readme: $!";
my @lines = <$fh>;
close $fh;

# --- the ```sql blocks, in order ----------------------------------------
my @blocks;    # { line => first SQL line number, text => ... }
my $cur;
my @odd_fences;
for my $n (1 .. @lines)
{
	my $l = $lines[ $n - 1 ];
	if (!$cur && $l =~ /^\s*```\s*(\S*)\s*$/)
	{
		my $info = $1;
		if ($info eq 'sql')
		{
			$cur = { line => $n + 1, text => '' };
		}
		elsif ($info =~ /sql/i)
		{
			push @odd_fences, "line $n: ```$info";
		}
		elsif ($info ne '')
		{
			# another language's block: skip to its closing fence
			$cur = { skip => 1 };
		}
		next;
	}
	if ($cur && $l =~ /^\s*```\s*$/)
	{
		push @blocks, $cur unless $cur->{skip};
		undef $cur;
		next;
	}
	$cur->{text} .= $l if $cur && !$cur->{skip};
}
ok(!$cur, 'every fenced block of README.md is closed');
is(join(', ', @odd_fences), '', 'every SQL fence is spelled ```sql (others would be skipped)');
cmp_ok(scalar(@blocks), '>=', 10, 'README.md has at least 10 ```sql blocks');

# Split a block into statements: ends at a ';' outside quotes, dollar quotes
# and comments.  Each statement keeps its README line number and whether a
# `-- error:` line precedes it.
sub split_statements
{
	my ($block) = @_;
	my @stmts;
	my $text = $block->{text};
	my $line = $block->{line};
	my ($buf, $start, $expect) = ('', undef, undef);
	my $i = 0;
	my $len = length $text;
	while ($i < $len)
	{
		my $rest = substr($text, $i);
		my $tok;
		if ($rest =~ /^(--[^\n]*)/)
		{
			$tok = $1;
			if (!defined $start && $tok =~ /^--\s*error:\s*([0-9A-Z]{5}\b)?/)
			{
				$expect = $1 // '';
			}
		}
		elsif ($rest =~ /^(\/\*.*?\*\/)/s)          { $tok = $1; }
		elsif ($rest =~ /^('(?:[^']|'')*')/s)       { $tok = $1; }
		elsif ($rest =~ /^("(?:[^"]|"")*")/s)       { $tok = $1; }
		elsif ($rest =~ /^(\$([A-Za-z_]\w*)?\$)/)
		{
			my $tag = $1;
			my $end = index($text, $tag, $i + length $tag);
			die "README.md line $line: unterminated $tag" if $end < 0;
			$tok = substr($text, $i, $end + length($tag) - $i);
		}
		elsif ($rest =~ /^(\s+)/)                   { $tok = $1; }
		elsif ($rest =~ /^([^-\/'"\$;\s]+|.)/s)     { $tok = $1; }
		if ($tok eq ';' || ($tok =~ /^\S/ && $tok !~ /^--/ && !defined $start))
		{
			$start = $line unless defined $start;
		}
		$buf .= $tok if defined $start || $tok =~ /^--/;
		if ($tok eq ';')
		{
			push @stmts, { text => $buf, line => $start, expect_error => $expect };
			($buf, $start, $expect) = ('', undef, undef);
		}
		elsif (!defined $start && $tok =~ /\n/)
		{
			$buf = '';    # comment lines between statements are not kept
		}
		$line += ($tok =~ tr/\n//);
		$i += length $tok;
	}
	die "README.md line $block->{line}: text after the last ';' of the block: $buf" if defined $start;
	return @stmts;
}

my @stmts;
for my $b (0 .. $#blocks)
{
	my @s = split_statements($blocks[$b]);
	ok(scalar(@s) > 0, "block " . ($b + 1) . " (README.md line $blocks[$b]{line}) has statements");
	for my $k (0 .. $#s)
	{
		$s[$k]{block} = $b + 1;
		$s[$k]{n} = $k + 1;
		push @stmts, $s[$k];
	}
}

sub label
{
	my ($s) = @_;
	my ($first) = $s->{text} =~ /^\s*(?:--[^\n]*\n\s*)*([^\n]*)/;
	$first =~ s/;?\s*(--.*)?$//;
	return "block $s->{block} statement $s->{n} (README.md line $s->{line}): $first";
}

# --- one psql session ----------------------------------------------------
my $script = "\\set VERBOSITY verbose\n";
for my $k (0 .. $#stmts)
{
	my $s = $stmts[$k];
	$script .= "\\echo '\@\@ $k \@\@'\n\\warn '\@\@ $k \@\@'\n";
	$script .= "\\set ON_ERROR_STOP 0\n" if defined $s->{expect_error};
	$script .= "$s->{text}\n";
	$script .= "\\set ON_ERROR_STOP 1\n" if defined $s->{expect_error};
}
$script .= "\\echo '\@\@ end \@\@'\n\\warn '\@\@ end \@\@'\n";

my $node = PostgreSQL::Test::Cluster->new('readme');
$node->init;
$node->start;
$node->safe_psql('postgres', 'CREATE DATABASE readme');
my ($out, $err) = ('', '');
my $rc = $node->psql('readme', $script, stdout => \$out, stderr => \$err, on_error_stop => 1);

# per statement: its output and its messages
my (%out, %err);
for ([ $out, \%out ], [ $err, \%err ])
{
	my ($text, $h) = @$_;
	my $key;
	for my $l (split /\n/, $text)
	{
		if ($l =~ /^\@\@ (\d+|end) \@\@$/) { $key = $1; $h->{$key} //= ''; next; }
		$h->{ $key // 'before' } .= "$l\n";
	}
}
my $last_started = (sort { $b <=> $a } grep { /^\d+$/ } keys %err)[0] // -1;
my $bad = '';
for my $k (0 .. $#stmts)
{
	my $s = $stmts[$k];
	last if !exists $err{$k};
	my $msgs = $err{$k};
	my ($error) = $msgs =~ /\b((?:ERROR|FATAL|PANIC):[^\n]*)/;
	my ($warning) = $msgs =~ /\b(WARNING:[^\n]*)/;
	if (defined $s->{expect_error})
	{
		if (!defined $error)
		{
			$bad .= label($s) . ": expected an error, got none\n";
		}
		elsif ($s->{expect_error} ne '' && $error !~ /^ERROR:\s+\Q$s->{expect_error}\E:/)
		{
			$bad .= label($s) . ": expected SQLSTATE $s->{expect_error}, got $error\n";
		}
	}
	elsif (defined $error || defined $warning)
	{
		$bad .= label($s) . ":\n$msgs";
	}
}
if (!exists $err{end})
{
	$bad .= "the session stopped in " . ($last_started >= 0 ? label($stmts[$last_started]) : 'its preamble')
	  . " (psql exit code $rc)" . ($bad eq '' ? ":\n$err" : '') . "\n";
}
is($bad, '', 'every statement of README.md runs as written (' . scalar(@stmts) . ' statements in '
	  . scalar(@blocks) . ' blocks), and only the marked ones fail');
is($rc, 0, 'psql exits with 0');
cmp_ok(scalar(grep { /^\d+$/ } keys %out), '==', scalar(@stmts), 'every statement ran');
if (!exists $err{end})
{
	$node->stop;
	done_testing();
	exit;
}

# --- results the README states -------------------------------------------
sub output_of
{
	my ($re) = @_;
	my @k = grep { $stmts[$_]{text} =~ $re } 0 .. $#stmts;
	return "no statement of README.md matches $re" if @k == 0;
	return "several statements of README.md match $re" if @k > 1;
	my $o = $out{ $k[0] } // '(did not run)';
	chomp $o;
	return $o;
}
is(output_of(qr/SELECT session_id FROM seen WHERE items \@> 'item-17'/), '7',
	'bloom: the session that added the element is found');
is(output_of(qr/SELECT 42 <\@ bloom_add\(bloom_empty\(100\), 42::bigint\)/), 't',
	'bloom: int4 finds int8');
is(output_of(qr/SELECT bloom_add\(bloom_empty\(100\), 42\.0::numeric\) \@> 42/), 't',
	'bloom: int4 finds an integral numeric');
is(output_of(qr/countingbloom_count\(items, 'sku-17'::text\) FROM carts WHERE cart_id = 2/), '1',
	'countingbloom: the count of an element added once');
is(output_of(qr/SELECT quotientfilter_resize\(f, 20\) = f FROM monthly/), 't',
	'quotientfilter: a filter equals its resized copy');
is(output_of(qr/SELECT quotientfilter_cardinality\(f \| /), '50000',
	'quotientfilter: the merge holds the removed element again');
is(output_of(qr/cuckoofilter_count\(f, 'hunter2'::text\) FROM breached/), 't|2',
	'cuckoofilter: the element added twice counts 2');
like(output_of(qr/FROM wide WHERE i2 = \d+ AND i5 = \d+/), qr/^4242\|[^\n]*$/,
	'pagebloom: the two-column query finds its one row');
is(output_of(qr/FROM wide WHERE i4 = ANY/),
	join("\n", map { my $i = $_; join('|', $i, map { $i * $_ % 1000003 } 7919, 6007, 4001, 3001, 2003, 1009) } 1 .. 3),
	'pagebloom: the = ANY query finds its three rows');
is(output_of(qr/SELECT bloom_union_agg\(f\) FROM \(SELECT customer, bloom_agg\(item, 100000, 0\.01\) AS f FROM orders/),
	$node->safe_psql('readme', 'SELECT bloom_agg(item, 100000, 0.01) FROM (TABLE orders_s0 UNION ALL TABLE orders_s1) o'),
	'many servers: the union of the shards\' rollups equals one server\'s filter');
my ($two_col) = grep { $_->{text} =~ /FROM wide WHERE i2 = \d+ AND i5 = \d+/ } @stmts;
like($node->safe_psql('readme', "EXPLAIN (COSTS OFF) $two_col->{text}"),
	qr/Index Scan using wide_i1_i2_i3_i4_i5_i6_idx on wide/, 'pagebloom: the README\'s plan is an Index Scan');
my ($rollup) = grep { $_->{text} =~ /^INSERT INTO rollups SELECT/ } @stmts;
like($node->safe_psql('readme', "SET enable_partitionwise_aggregate = on; EXPLAIN (VERBOSE, COSTS OFF) $rollup->{text}"),
	qr/Remote SQL: SELECT customer, public\.bloom_agg\(item, 100000::bigint, 0\.01::double precision\) FROM public\.orders_s0 GROUP BY 1/,
	'many servers: each shard builds the filters of its groups');
my ($probe) = grep { $_->{text} =~ /FROM rollups WHERE items \@> 42/ } @stmts;
like($node->safe_psql('readme', "EXPLAIN (VERBOSE, COSTS OFF) $probe->{text}"),
	qr/Remote SQL: SELECT customer FROM public\.rollups_s0 WHERE \(\(items OPERATOR\(public\.\@>\) 42\)\)/,
	'many servers: the probe runs on the shards');

$node->stop;
done_testing();
