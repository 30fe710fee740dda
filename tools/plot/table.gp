# Generic plot of any stressrig CSV: x = the first column (or xcol='…'), y = the columns
# named in cols='…' (names or numbers; separated by commas, or without a comma by blanks:
# the rig's column names hold blanks, `p99 lateness us`, so a list of them takes commas;
# one name alone needs none).
#
#   gnuplot -e "csv='out/sweep.csv'; cols='achieved rate per s, p99 lateness us'; y2='p99 lateness us'" tools/plot/table.gp
#
# Only numeric columns are plotted: a column is numeric when every non-empty cell is a
# number (so a text column such as `reason`, whose cells may start with digits, is not);
# empty cells are gaps. Without cols, a CSV with at most 6 numeric columns besides x
# has them all plotted; a wider one is not plotted, and the script lists its numeric
# columns to choose from (exit status 1). A cols entry that is unknown or not numeric
# stops it with a message naming the entry and the numeric columns (exit status 1).
#
# Optional: y2='…' (names or numbers) puts those columns on the second y axis;
# title='…'; style='points' (default linespoints); logx=1 / logy=1.
# `out` defaults to the CSV name with .png (.svg without a png terminal).

if (!exists("csv")) { print "usage: gnuplot -e \"csv='x.csv'; cols='NAME NAME'\" table.gp"; exit status 2 }
if (!exists("cols")) cols = ""
if (!exists("y2")) y2 = ""
if (!exists("xcol")) xcol = "1"
if (!exists("title")) title = csv
if (!exists("style")) style = "linespoints"
if (!exists("out")) out = (strlen(csv) > 4 && csv[strlen(csv)-3:] eq ".csv" ? csv[1:strlen(csv)-4] : csv).".png"
MaxUnchosen = 6  # more lines than this on one chart are unreadable: ask for cols

set encoding utf8
set datafile separator ",;"
set datafile columnheaders
stats csv using 1 nooutput
Ncol = STATS_columns
if (Ncol < 2) { print "table.gp: ".csv." needs at least two columns"; exit status 1 }

# A cell is a number when every character belongs to one ("inf" is how a CSV writes
# an infinite value); gnuplot alone would read "322 drops" as 322.
isNumberChar(c) = strstrt("0123456789.eE+-", c) > 0
isNumberFrom(s, k) = k > strlen(s) ? 1 : (isNumberChar(s[k:k]) ? isNumberFrom(s, k + 1) : 0)
isNumberText(s) = s eq "inf" || s eq "-inf" || isNumberFrom(s, 1)

# Per column: its header, and whether it is numeric (at least one number, no text).
array Header[Ncol]
array Numeric[Ncol]
NumericList = ""
do for [i=1:Ncol] {
    Numbers = 0
    Texts = 0
    Name = ""
    stats csv using (Name = columnhead(i), \
                     Numbers = Numbers + (strlen(strcol(i)) > 0 && isNumberText(strcol(i))), \
                     Texts = Texts + (strlen(strcol(i)) > 0 && !isNumberText(strcol(i))), 0) nooutput
    Header[i] = Name
    Numeric[i] = (Numbers > 0 && Texts == 0)
    if (Numeric[i]) { NumericList = NumericList.sprintf("\n  %d %s", i, Header[i]) }
}

# The column number of a name or number; 0 when there is no such column.
isDigits(s) = strlen(s) > 0 && strstrt(s, ".") == 0 && strstrt(s, "e") == 0 \
              && strstrt(s, "E") == 0 && strstrt(s, "-") == 0 && strstrt(s, "+") == 0 && isNumberFrom(s, 1)
columnOf(s) = isDigits(s) ? (int(s) >= 1 && int(s) <= Ncol ? int(s) : 0) : headerIndex(s, 1)
headerIndex(s, k) = k > Ncol ? 0 : (Header[k] eq s ? k : headerIndex(s, k + 1))
# An entry of cols, x or y2 as a numeric column's number; stops with a message otherwise.
ColumnError = ""
checkedColumn(s) = (C = columnOf(s), \
    ColumnError = (C == 0 ? sprintf("no column '%s' in %s", s, csv) \
                   : (!Numeric[C] ? sprintf("column '%s' of %s is not numeric (text or empty)", s, csv) : "")), C)
# A list of entries as blank-separated column numbers: with a comma the entries are
# separated by commas (and may hold blanks); without one, a whole column name is one
# entry, else blanks separate them. The first bad entry sets ColumnError and ends the list.
trimmed(s) = strlen(s) == 0 ? s : (s[1:1] eq " " ? trimmed(s[2:]) \
             : (s[strlen(s):strlen(s)] eq " " ? trimmed(s[1:strlen(s) - 1]) : s))
listed(e) = strlen(e) == 0 || strlen(ColumnError) > 0 ? "" : sprintf(" %d", checkedColumn(e))
commaList(s) = strstrt(s, ",") == 0 ? listed(trimmed(s)) \
               : listed(trimmed(s[1:strstrt(s, ",") - 1])).commaList(s[strstrt(s, ",") + 1:])
blankList(s, k) = k > words(s) ? "" : listed(word(s, k)).blankList(s, k + 1)
columnList(s) = strstrt(s, ",") > 0 ? commaList(s) \
                : (columnOf(trimmed(s)) > 0 ? listed(trimmed(s)) : blankList(s, 1))

Xcol = checkedColumn(xcol)
if (strlen(ColumnError) > 0) { print "table.gp: xcol: ".ColumnError.". Numeric columns:".NumericList; exit status 1 }

ColumnError = ""
Chosen = columnList(cols)
if (strlen(ColumnError) > 0) { print "table.gp: cols: ".ColumnError.". Numeric columns:".NumericList; exit status 1 }
if (words(Chosen) == 0) {
    do for [i=1:Ncol] { if (Numeric[i] && i != Xcol) { Chosen = Chosen." ".i } }
    if (words(Chosen) == 0) { print "table.gp: ".csv." has no numeric column to plot"; exit status 1 }
    if (words(Chosen) > MaxUnchosen) {
        print sprintf("table.gp: %s has %d numeric columns besides x, too many for one chart;", csv, words(Chosen))
        print "choose some with cols='NAME NAME' (names or numbers). Numeric columns:".NumericList
        exit status 1
    }
}
ColumnError = ""
Axis2 = columnList(y2)
if (strlen(ColumnError) > 0) { print "table.gp: y2: ".ColumnError.". Numeric columns:".NumericList; exit status 1 }
isY2(i) = strstrt(Axis2." ", " ".i." ") > 0

PlotCmd = ""
HasY2 = 0
do for [w in Chosen] {
    i = int(w)
    if (isY2(i)) { HasY2 = 1 }
    PlotCmd = PlotCmd.(strlen(PlotCmd) > 0 ? ", " : "") \
              .sprintf("csv using %d:%d%s with %s title '%s'", Xcol, i, \
                       isY2(i) ? " axes x1y2" : "", style, Header[i].(isY2(i) ? " (right axis)" : ""))
}

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
set xlabel Header[Xcol]
if (exists("logx")) set logscale x
if (exists("logy")) set logscale y
if (HasY2) { set ytics nomirror; set y2tics }
plot @PlotCmd
unset output
print "wrote ".out
