# One load-peak series of ours beside the published one: result time over load size
# with our least-squares line, the published line and the ideal gradient (job / workers
# the machine gives) on top; concurrency per point with both means below.
#
#   gnuplot -e "csv='graph-10.csv'; out='graph-10-reference.png'; title='...';
#               pa=0.518; pb=8.57; pc=3.34; ideal=0.5; plabel='published'" reference-series.gp
#
# csv: the rig's param-range CSV ("load size","result time","concurrency");
# pa, pb: published gradient (ms per job) and socket (ms); pc: published mean concurrency;
# ideal: the ideal gradient in ms per job; verdict (optional): the rig's verdict, shown
# under the title in vcolour (the verdict class's colour, as in the rig's own pictures).
# Without a png terminal an .svg is written.

if (!exists("csv") || !exists("pa") || !exists("pb") || !exists("pc")) {
    print "usage: gnuplot -e \"csv='x.csv'; pa=GRADIENT; pb=SOCKET; pc=CONCURRENCY\" reference-series.gp"
    exit status 2
}
if (!exists("out")) out = csv[1:strlen(csv)-4]."-reference.png"
if (!exists("title")) title = csv
if (!exists("plabel")) plabel = "published"
if (!exists("ideal")) ideal = NaN
if (!exists("verdict")) verdict = ""
if (!exists("vcolour")) vcolour = "black"
heading = strlen(verdict) > 0 ? title."\n".verdict : title

set encoding utf8
set datafile separator ","
set datafile columnheaders

stats csv using "load size":"result time" nooutput
Ga = STATS_slope
Gb = STATS_intercept
Gr = STATS_correlation
stats csv using "concurrency" nooutput
Gc = STATS_mean
Ours(p) = Ga*p + Gb
Published(p) = pa*p + pb
Ideal(p) = ideal*p
Line(a, b) = sprintf("%.3g·p %s %.3g", a, (b < 0 ? "-" : "+"), abs(b))

GpTerminals = " ".GPVAL_TERMINALS." "
if (strstrt(GpTerminals, " pngcairo ") > 0) {
    set terminal pngcairo size 1200,800 noenhanced font 'sans,10'
} else { if (strstrt(GpTerminals, " png ") > 0) {
    set terminal png size 1200,800 noenhanced
} else {
    set terminal svg size 1200,800 noenhanced
    if (strlen(out) > 4 && out[strlen(out)-3:] eq ".png") out = out[1:strlen(out)-4].".svg"
} }
set output out

set grid
set key top left box opaque
set offsets graph 0.03, graph 0.03, 0, 0
set multiplot layout 2,1 title heading textcolor rgb vcolour
set xlabel "load size (jobs)"
set ylabel "result time (ms)"
set yrange [0:*]
plot csv using "load size":"result time" with points pt 7 ps 1.2 title "ours", \
     Ours(x) with lines lw 2 title sprintf("ours: %s (r %.3f)", Line(Ga, Gb), Gr), \
     Published(x) with lines lw 2 dt 2 title sprintf("%s: %s", plabel, Line(pa, pb)), \
     Ideal(x) with lines lw 1 dt 3 lc rgb "gray40" title sprintf("ideal: %.3g·p", ideal)
set ylabel "concurrency (workers busy)"
set yrange [0:*]
plot csv using "load size":"concurrency" with impulses lw 4 title "ours", \
     Gc with lines lw 2 title sprintf("ours: mean %.2f", Gc), \
     pc with lines lw 2 dt 2 title sprintf("%s: mean %.2f", plabel, pc)
unset multiplot
unset output
print "wrote ".out
