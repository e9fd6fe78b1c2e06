# Plots of scripts/bench-speed: gnuplot -e "dir='RESULTS_DIR'; out='docs'" bench/speed/plot.gp
# Reads dir/indexing.dat and dir/latency.dat (written by `speed report`).
set terminal svg size 860,440 dynamic enhanced font "sans,12" background rgb "white"
set key outside right top
set xrange [7000:170000]
set grid
set logscale xy
set format x "%.0s%c"
set xlabel "abstracts in the corpus"
set datafile missing "?"
set style data linespoints

set output out."/performance-indexing.svg"
set title "Indexing time (median of repeated runs)"
set ylabel "seconds"
plot for [i=2:5] dir."/indexing.dat" using 1:i title columnhead(i) lw 2 pt 7

set output out."/performance-latency.svg"
set title "Query latency, top 10 with snippets (median over passes)"
set ylabel "milliseconds"
plot dir."/latency.dat" using 1:2 title "abstracts p50" lw 2 pt 7 lc 1, \
     ""                 using 1:3 title "abstracts p99" lw 2 pt 5 dt 2 lc 1, \
     ""                 using 1:4 title "plain Xapian p50" lw 2 pt 7 lc 3, \
     ""                 using 1:5 title "plain Xapian p99" lw 2 pt 5 dt 2 lc 3, \
     ""                 using 1:6 title "SQLite FTS5 p50" lw 2 pt 7 lc 4, \
     ""                 using 1:7 title "SQLite FTS5 p99" lw 2 pt 5 dt 2 lc 4
