# Generic plot of any stressrig CSV: x = first column, y = every other column.
#
#   gnuplot -e "csv='x.csv'; out='x.png'" tools/plot/table.gp
#
# Optional: y2='3 5' puts those column numbers on the second y axis; title='…';
# style='points' (default linespoints); logx=1 / logy=1. Text columns plot nothing.
# `out` defaults to the CSV name with .png (.svg without a png terminal).

if (!exists("csv")) { print "usage: gnuplot -e \"csv='x.csv'; out='x.png'\" table.gp"; exit }
if (!exists("y2")) y2 = ""
if (!exists("title")) title = csv
if (!exists("style")) style = "linespoints"
if (!exists("out")) out = (strlen(csv) > 4 && csv[strlen(csv)-3:] eq ".csv" ? csv[1:strlen(csv)-4] : csv).".png"

set encoding utf8
set datafile separator ",;"
set datafile columnheaders
stats csv nooutput
Ncol = STATS_columns
if (Ncol < 2) { print "table.gp: ".csv." needs at least two columns"; exit }
isY2(i) = strstrt(" ".y2." ", " ".i." ") > 0

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
set title title
if (exists("logx")) set logscale x
if (exists("logy")) set logscale y
if (strlen(y2) > 0) { set ytics nomirror; set y2tics }
plot for [i=2:Ncol] csv using 1:(isY2(i) ? NaN : column(i)) with @style \
         title (isY2(i) ? "" : columnheader(i)), \
     for [i=2:Ncol] csv using 1:(isY2(i) ? column(i) : NaN) axes x1y2 with @style \
         title (isY2(i) ? columnheader(i) : "")
unset output
print "wrote ".out
