# armada-bench plots; run with: gnuplot <this file>
# One colour and point type per method (the same in every plot), one dash type per op; error bars min-max.
set terminal pngcairo size 1400,1000
set key below center horizontal maxcols 3 noenhanced
set grid
set termoption noenhanced
unset output

# The headline figure: Armada's speed-up over MPI, one series per transport pass (and, across
# hosts, over the TCP socket).
$h0 << EOD
-0.06 163.9 127.888 183.398
0.94 67.463 62.6979 69.1771
EOD
$h1 << EOD
0.06 0.803826 0.612418 0.904244
1.06 0.233181 0.211416 0.244234
EOD
set terminal pngcairo size 1400,900
set output "./armada-bench-headline.png"
set title "Armada vs MPI, measured in the same launch: speed-up, higher = Armada faster (transports tcp, tcp vs socket)\nhost c13910-h0, AMD EPYC, 2 CPUs, 2 ranks, Open MPI v4.1.4, 2026-11-28T03:32:02Z"
set key below center vertical noenhanced
set grid ytics
set termoption noenhanced
set ylabel "Armada speed-up over the legend's baseline (log scale; bars: min..max)"
unset logscale x
set logscale y
set yrange [0.169133:229.247]
set ytics (0.2, 0.5, 1, 2, 5, 10, 20, 50, 100, 200)
set format y "%gx"
set xrange [-0.6:1.6]
set xtics ("8 B put latency" 0, "8 B get latency" 1)
unset xlabel
set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead lw 2 lc rgb "black" dt 2 front
set label 1 "1x = as fast as MPI" at graph 0.01, first 1 offset 0,1 front
plot $h0 using 1:2:3:4 with yerrorbars lw 2 pt 7 ps 1.5 lc rgb "#e6550d" title "Armada tcp transport (tcp) vs MPI over the network", \
     $h1 using 1:2:3:4 with yerrorbars lw 2 pt 5 ps 1.5 lc rgb "#31a354" title "Armada tcp transport vs a TCP socket between the same two hosts (the link's own limit)"
unset arrow 1
unset label 1
unset output
