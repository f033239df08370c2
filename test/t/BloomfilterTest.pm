# Helpers shared by the TAP tests of the bloomfilter extension.
package BloomfilterTest;

use strict;
use warnings;
use Exporter 'import';

our @EXPORT = qw(read_copy_datum write_copy_datum);

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

1;
