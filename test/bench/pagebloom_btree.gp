# Chart of test/bench/pagebloom_btree.sql: index size against the time of a
# one-column equality query (i4 = v, present key, cached plan), for pagebloom
# at each fpr (a line per table size) and for the indexes a DBA would
# otherwise build.  Data: doc/pagebloom-vs-btree.dat, written by the
# benchmark; blocks: 0 six B-trees, 1 and 2 pagebloom at the two sizes,
# 3 btree_gin, 4 contrib/bloom.  The fpr labels alternate below-left and
# above-right of their points, so that neighbours do not overlap.  Run from the repository root:
#   gnuplot test/bench/pagebloom_btree.gp
dat = 'doc/pagebloom-vs-btree.dat'
set terminal svg size 900,600 dynamic font 'sans,12' background '#ffffff'
set output 'doc/pagebloom-vs-btree.svg'
set termoption noenhanced
set title 'pagebloom against B-trees, btree_gin and contrib/bloom: six random int4 columns'
set xlabel 'index size (MB; six B-trees: the sum of the six)'
set ylabel 'one-column query i4 = v, present key (ms per query)'
set logscale xy
set grid xtics ytics mxtics mytics lc rgb '#dddddd'
set key top left box opaque
set offsets graph 0.05, graph 0.1, graph 0.1, graph 0.1
set datafile commentschars '#'
plot \
	dat index 1 using 1:2 with linespoints pt 7 ps 1.1 lw 2 lc rgb '#1f77b4' title columnheader(1), \
	'' index 1 every 2::0 using 1:2:3 with labels offset char -1,char -0.8 right font ',9' tc rgb '#1f77b4' notitle, \
	'' index 1 every 2::1 using 1:2:3 with labels offset char 1,char 0.8 left font ',9' tc rgb '#1f77b4' notitle, \
	'' index 2 using 1:2 with linespoints pt 5 ps 1.1 lw 2 lc rgb '#2ca02c' title columnheader(1), \
	'' index 2 every 2::0 using 1:2:3 with labels offset char -1,char -0.8 right font ',9' tc rgb '#2ca02c' notitle, \
	'' index 2 every 2::1 using 1:2:3 with labels offset char 1,char 0.8 left font ',9' tc rgb '#2ca02c' notitle, \
	'' index 0 using 1:2 with points pt 9 ps 1.6 lc rgb '#d62728' title columnheader(1), \
	'' index 0 using 1:2:3 with labels offset char 0,char -1.1 font ',9' tc rgb '#d62728' notitle, \
	'' index 3 using 1:2 with points pt 11 ps 1.6 lc rgb '#9467bd' title columnheader(1), \
	'' index 3 using 1:2:3 with labels offset char 0,char 1.1 font ',9' tc rgb '#9467bd' notitle, \
	'' index 4 using 1:2 with points pt 13 ps 1.6 lc rgb '#ff7f0e' title columnheader(1), \
	'' index 4 using 1:2:3 with labels offset char 0,char -1.1 font ',9' tc rgb '#ff7f0e' notitle
