# Helpers shared by the TAP tests of the bloomfilter extension.
package BloomfilterTest;

use strict;
use warnings;
use Exporter 'import';
use File::Spec;
use Test::More;

our @EXPORT = qw(read_copy_datum write_copy_datum dump_restore binary_copy_identical);

# The first datum of the first row of a binary COPY file: 19-byte header,
# then per row an int16 field count, an int32 length and the bytes.
sub read_copy_datum
{
	my ($file) = @_;
	open(my $fh, '<:raw', $file) or die "cannot read $file: $!";
	local $/;
	my $all = <$fh>;
	close $fh;
	my $len = unpack('N', substr($all, 19 + 2, 4));
	return substr($all, 19 + 6, $len);
}

# Write a binary COPY file of one row with one field holding $datum.
sub write_copy_datum
{
	my ($file, $datum) = @_;
	open(my $fh, '>:raw', $file) or die "cannot write $file: $!";
	print $fh "PGCOPY\n\377\r\n\0", pack('N', 0), pack('N', 0);
	print $fh pack('n', 1), pack('N', length($datum)), $datum;
	print $fh pack('n', 0xffff);
	close $fh;
	return;
}

# Dump database postgres of $node and restore it into a new database $db:
# pg_dump -Fc and pg_restore for $format 'custom', pg_dump and psql for
# 'plain' (which moves every value through its text form).
sub dump_restore
{
	my ($node, $format, $db) = @_;
	my $file = File::Spec->rel2abs($node->basedir . "/$db.dump");

	$node->safe_psql('postgres', "CREATE DATABASE $db");
	if ($format eq 'custom')
	{
		$node->command_ok([ 'pg_dump', '-Fc', '-f', $file, '-d', $node->connstr('postgres') ], 'pg_dump succeeds');
		$node->command_ok([ 'pg_restore', '-d', $node->connstr($db), $file ], 'pg_restore succeeds');
	}
	else
	{
		$node->command_ok([ 'pg_dump', '-f', $file, '-d', $node->connstr('postgres') ], 'plain pg_dump succeeds');
		$node->command_ok([ 'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-f', $file, '-d', $node->connstr($db) ],
			'plain dump restores with psql');
	}
	return;
}

# COPY $table out and into a copy of it in binary format (through the
# type's send and recv functions); the number of rows whose $col is
# identical, as a value and as text, joined on $key.
sub binary_copy_identical
{
	my ($node, $table, $key, $col) = @_;
	my $file = File::Spec->rel2abs($node->basedir . "/$table.bin");

	$node->safe_psql('postgres', "COPY $table TO '$file' (FORMAT binary)");
	$node->safe_psql('postgres',
		"CREATE TABLE ${table}_bin (LIKE $table); COPY ${table}_bin FROM '$file' (FORMAT binary)");
	return $node->safe_psql('postgres', qq{
		SELECT count(*) FROM $table a JOIN ${table}_bin b USING ($key)
		WHERE a.$col IS NOT DISTINCT FROM b.$col AND a.${col}::text IS NOT DISTINCT FROM b.${col}::text});
}

1;
