# Generic plot of any stressrig CSV: x = first column, y = every other column.
#
#   gnuplot -e "csv='x.csv'; out='x.png'" tools/plot/table.gp
#
# Optional: y2='3 5' puts those column numbers on the second y axis (without y2,
# every column goes on the first axis); title='…'; style='points' (default
# linespoints); logx=1 / logy=1. Columns without a single number (text columns such
# as "class", or all cells empty = missing) are left out; empty cells are gaps.
# `out` defaults to the CSV name with .png (.svg without a png terminal).

if (!exists("csv")) { print "usage: gnuplot -e \"csv='x.csv'; out='x.png'\" table.gp"; exit status 2 }
if (!exists("y2")) y2 = ""
if (!exists("title")) title = csv
if (!exists("style")) style = "linespoints"
if (!exists("out")) out = (strlen(csv) > 4 && csv[strlen(csv)-3:] eq ".csv" ? csv[1:strlen(csv)-4] : csv).".png"

set encoding utf8
set datafile separator ",;"
set datafile columnheaders
stats csv using 1 nooutput
Ncol = STATS_columns
if (Ncol < 2) { print "table.gp: ".csv." needs at least two columns"; exit status 1 }
isY2(i) = strstrt(" ".y2." ", " ".i." ") > 0

# One plot element per column that holds at least one number: an element without any
# point would stop gnuplot ("all points y value undefined"), so the command is built
# only from the columns that have data, on the axis each belongs to.
PlotCmd = ""
HasY2 = 0
do for [i=2:Ncol] {
    Numbers = 0
    stats csv using (Numbers = Numbers + valid(i), 1) nooutput
    if (Numbers > 0) {
        Axis = isY2(i) ? " axes x1y2" : ""
        if (isY2(i)) { HasY2 = 1 }
        PlotCmd = PlotCmd.(strlen(PlotCmd) > 0 ? ", " : "") \
                  .sprintf("csv using 1:%d%s with %s title columnheader(%d)", i, Axis, style, i)
    }
}
if (strlen(PlotCmd) == 0) { print "table.gp: ".csv." has no numeric column to plot"; exit status 1 }

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
if (HasY2) { set ytics nomirror; set y2tics }
plot @PlotCmd
unset output
print "wrote ".out
