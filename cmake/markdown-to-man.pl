#!/usr/bin/perl
# Makes the man page abstracts(1) from docs/cli.md, so that the two are one text:
#   markdown-to-man.pl docs/cli.md abstracts.1 VERSION DESCRIPTION DOCDIR
# (DOCDIR: where the other docs are installed, for SEE ALSO).
# It reads the Markdown that docs/cli.md is written in, and no more: headings
# (## -> .SH, ### and #### -> .SS), paragraphs, "- " lists, ``` blocks, tables
# (one .TP per row), definition lists (a `term` line, then ": text" lines) and the
# inline `code`, **bold**, *italic* and [links](target). A blockquote (the note for
# doc writers) is left out. tests/cli/man_page_test.cc checks the page against
# `abstracts --help`. Perl, because perl-base is on every Debian system.
use strict;
use warnings;

my ($input, $output, $version, $description, $docdir) = @ARGV;
die "usage: markdown-to-man.pl CLI.md OUTPUT VERSION DESCRIPTION DOCDIR\n" unless defined $docdir;
open(my $in, '<:encoding(UTF-8)', $input) or die "cannot read $input: $!\n";
my @lines = <$in>;
close($in);
chomp @lines;

# Text for roff: a backslash is \e, a hyphen in an option or a command is \- (so
# that it can be copied from the page).
sub escape {
  my ($text) = @_;
  $text =~ s/\\/\\e/g;
  return $text;
}

sub code {
  my ($text) = @_;
  $text = escape($text);
  $text =~ s/-/\\-/g;
  return "\\fB$text\\fR";
}

sub inline {
  my ($text) = @_;
  my $out = '';
  # `code` first: nothing inside it is markup.
  while ($text =~ /\G(.*?)`([^`]+)`/gc) {
    $out .= markup($1) . code($2);
  }
  $out .= markup(substr($text, pos($text) // 0));
  return $out;
}

sub markup {
  my ($text) = @_;
  $text = escape($text);
  $text =~ s/\[([^\]]+)\]\([^)]+\)/$1/g;
  $text =~ s/\*\*([^*]+)\*\*/\\fB$1\\fR/g;
  $text =~ s/(?<![\w*])\*([^*\s][^*]*)\*(?![\w*])/\\fI$1\\fR/g;
  return $text;
}

# A line of roff text may not start with a dot or an apostrophe (a request).
sub text_line {
  my ($text) = @_;
  return $text =~ /^[.']/ ? "\\&$text" : $text;
}

my @out;
push @out, '.\" Made from docs/cli.md by cmake/markdown-to-man.pl; edit that file, not this one.';
push @out, ".TH ABSTRACTS 1 \"\" \"abstracts $version\" \"User Commands\"";
push @out, '.SH NAME';
push @out, 'abstracts \- ' . escape(lcfirst($description));

my $i = 0;
my $n = scalar @lines;
while ($i < $n) {
  my $line = $lines[$i];
  if ($line =~ /^\s*$/) {
    ++$i;
  } elsif ($line =~ /^# /) {
    ++$i;  # the page's title: the .TH line
  } elsif ($line =~ /^## (.*)/) {
    push @out, '.SH ' . uc(escape($1));
    ++$i;
  } elsif ($line =~ /^####? (.*)/) {
    push @out, '.SS ' . escape($1);
    ++$i;
  } elsif ($line =~ /^>/) {
    ++$i while $i < $n && $lines[$i] =~ /^>/;
  } elsif ($line =~ /^```/) {
    push @out, '.PP', '.RS 4', '.nf';
    ++$i;
    while ($i < $n && $lines[$i] !~ /^```/) {
      push @out, text_line(escape($lines[$i]) =~ s/-/\\-/gr);
      ++$i;
    }
    ++$i;
    push @out, '.fi', '.RE';
  } elsif ($line =~ /^\|/) {
    # A table: the header row and its rule are left out; a row is its first cell
    # as the tag and the others, joined, as the text.
    my $first = 1;
    while ($i < $n && $lines[$i] =~ /^\|/) {
      my $row = $lines[$i++];
      next if $row =~ /^\|[\s|:-]+\|$/;
      if ($first) {
        $first = 0;
        next if $i < $n && $lines[$i] =~ /^\|[\s|:-]+\|$/;
      }
      $row =~ s/^\|\s*|\s*\|$//g;
      my @cells = split /\s*\|\s*/, $row;
      my $tag = shift @cells;
      push @out, '.TP', text_line(inline($tag)), text_line(inline(join('; ', grep { $_ ne '' } @cells)));
    }
  } elsif ($i + 1 < $n && $lines[$i + 1] =~ /^: /) {
    # A definition list entry: `--opt N` or `-n N`, `--opt N`, then ": text".
    push @out, '.TP', text_line(inline($line));
    ++$i;
    my @text;
    while ($i < $n && $lines[$i] =~ /^(?:: |  )(.*)/) {
      push @text, $1;
      ++$i;
    }
    push @out, text_line(inline(join(' ', @text)));
  } elsif ($line =~ /^- (.*)/) {
    my @item = ($1);
    ++$i;
    while ($i < $n && $lines[$i] =~ /^  (\S.*)/) {
      push @item, $1;
      ++$i;
    }
    push @out, '.IP \(bu 2', text_line(inline(join(' ', @item)));
  } else {
    my @paragraph;
    while ($i < $n && $lines[$i] !~ /^\s*$/ && $lines[$i] !~ /^(#|```|\||>|- )/) {
      push @paragraph, $lines[$i];
      ++$i;
    }
    push @out, '.PP', text_line(inline(join(' ', @paragraph)));
  }
}

push @out, '.SH SEE ALSO';
push @out, '\fBxapian-tcpsrv\fR(1), and the documentation in \fI' . escape($docdir) . '/\fR:';
push @out, 'the query language (query-language.md), the input formats (formats.md) and';
push @out, 'searching a cluster of shards (scale-out.md).';
open(my $out, '>:encoding(UTF-8)', $output) or die "cannot write $output: $!\n";
print $out join("\n", @out), "\n";
close($out) or die "cannot write $output: $!\n";
