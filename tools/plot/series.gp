# Parameter-series plot of a stressrig CSV (columns "load size","result time",
# "concurrency","avg jobtime"), the same layout the rig writes into its own .gp files:
# top — result time over load size with the least-squares line and its model legend;
# bottom — concurrency as impulses, avg jobtime as points on the second axis.
#
#   gnuplot -e "csv='x.csv'; out='x.png'" tools/plot/series.gp
#
# Optional: title='…'; xcol/ycol/ccol/jcol to use other column names. `out` defaults
# to the CSV name with .png; without a png terminal an .svg is written instead.

if (!exists("csv")) { print "usage: gnuplot -e \"csv='x.csv'; out='x.png'\" series.gp"; exit status 2 }
if (!exists("xcol")) xcol = "load size"
if (!exists("ycol")) ycol = "result time"
if (!exists("ccol")) ccol = "concurrency"
if (!exists("jcol")) jcol = "avg jobtime"
if (!exists("title")) title = csv
if (!exists("out")) out = (strlen(csv) > 4 && csv[strlen(csv)-3:] eq ".csv" ? csv[1:strlen(csv)-4] : csv).".png"

set encoding utf8
set datafile separator ",;"
set datafile columnheaders

# Regression as the rig computes it: gradient, socket, r; Δmax and σ (n−2) of residuals.
stats csv using xcol:ycol nooutput
Ga = STATS_slope
Gb = STATS_intercept
Gr = STATS_correlation
stats csv using (column(ycol) - (Ga*column(xcol) + Gb)) nooutput
Gdmax = (abs(STATS_min) > abs(STATS_max) ? abs(STATS_min) : abs(STATS_max))
Gsigma = (STATS_records > 2 ? sqrt(STATS_sumsq / (STATS_records - 2)) : NaN)
Model(p) = Ga*p + Gb
ModelText = sprintf("Model: %.3g·p %s %.3g", Ga, (Gb < 0 ? "-" : "+"), abs(Gb))
print sprintf("%s corr=%.3g Δmax=%.3g σ=%.3g", ModelText, Gr, Gdmax, Gsigma)

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
set multiplot layout 2,1 title title
set xlabel xcol
set ylabel ycol." [ms]"
plot csv using xcol:ycol with points pt 7 ps 1.2 title ycol, \
     Model(x) with lines lw 2 title ModelText
set ylabel ccol
set y2label jcol." [µs]"
set yrange [0:*]
set y2range [0:*]
set ytics nomirror
set y2tics
plot csv using xcol:ccol with impulses lw 4 title ccol, \
     csv using xcol:jcol axes x1y2 with points pt 5 title jcol
unset multiplot
unset output
print "wrote ".out
