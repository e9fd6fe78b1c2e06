# Plots of scripts/bench-speed: gnuplot -e "dir='RESULTS_DIR'; out='docs'" bench/speed/plot.gp
# Reads dir/indexing.dat (abstracts/s), dir/size.dat (index MB) and dir/latency.dat
# (p50 and p99 ms), written by `speed report`: one row per corpus size, one column per
# system, "?" where a system was not run at a size (plain Xapian past --xapian-max);
# latency.dat also has Xapian's matcher alone over the engine's index, the floor.
set terminal svg size 860,440 dynamic enhanced font "sans,12" background rgb "white"
set key outside right top
set grid
set logscale xy
set offsets graph 0.05, graph 0.05, 0, 0
set format x "%.0s%c"
set xlabel "abstracts in the corpus"
set datafile missing "?"
set style data linespoints

set output out."/performance-indexing.svg"
set title "Indexing rate (median of repeated runs)"
set ylabel "abstracts per second"
plot for [i=2:5] dir."/indexing.dat" using 1:i title columnhead(i) lw 2 pt 7

set output out."/performance-size.svg"
set title "Index size on disk"
set ylabel "MB"
plot for [i=2:5] dir."/size.dat" using 1:i title columnhead(i) lw 2 pt 7

set output out."/performance-latency.svg"
set title "Query latency, top 10 with snippets (median over passes)"
set ylabel "milliseconds"
plot dir."/latency.dat" using 1:2 title "abstracts p50" lw 2 pt 7 lc 1, \
     ""                 using 1:3 title "abstracts p99" lw 2 pt 5 dt 2 lc 1, \
     ""                 using 1:4 title "plain Xapian p50" lw 2 pt 7 lc 3, \
     ""                 using 1:5 title "plain Xapian p99" lw 2 pt 5 dt 2 lc 3, \
     ""                 using 1:6 title "SQLite FTS5 p50" lw 2 pt 7 lc 4, \
     ""                 using 1:7 title "SQLite FTS5 p99" lw 2 pt 5 dt 2 lc 4, \
     ""                 using 1:8 title "Xapian's matcher alone p50" lw 2 pt 7 lc 2, \
     ""                 using 1:9 title "Xapian's matcher alone p99" lw 2 pt 5 dt 2 lc 2
