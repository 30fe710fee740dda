#include "report/HeadroomPlots.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>

#include <fmt/format.h>

#include "report/MetricCatalogue.hpp"
#include "report/PlotSupport.hpp"
#include "report/TextFormat.hpp"

namespace pullsched::rig {

using namespace plot;

GnuplotScript headroomLoadPlot(const CsvTable& table, const std::vector<std::string>& lateness,
                               const std::string& title, double deadlineWindowUs) {
    if (lateness.empty()) throw std::invalid_argument("headroomLoadPlot: no lateness series");
    const std::size_t x = table.columnIndex(MetricCatalogue::csvHeader("offered_rate")) + 1;
    const std::size_t cpu = table.columnIndex("machine cpu %") + 1;
    std::vector<double> all;
    for (const auto& s : lateness)
        for (double v : table.numbers(s))
            all.push_back(v);
    const bool logY = spansDecades(all);
    double sustainedTo = kNaN;
    if (table.hasColumn("sustained"))
        for (std::size_t r = 0; r < table.rowCount(); ++r)
            if (table.number(r, "sustained") == 1)
                sustainedTo = has(sustainedTo) ? std::max(sustainedTo, table.number(r, x - 1))
                                               : table.number(r, x - 1);
    PlotOptions po;
    po.title = title;
    std::string c;
    c += fmt::format("set title {}\n", GnuplotScript::kTitle);
    c += "set xlabel 'offered load [jobs/s]'\n";
    c += fmt::format("set ylabel {}\n",
                     GnuplotScript::quoteGp(logY ? "lateness [µs] (log)" : "lateness [µs]"));
    const std::string achieved = MetricCatalogue::csvHeader("throughput");
    const bool throughput = table.hasColumn(achieved);
    c += fmt::format("set y2label '{}'\nset ytics nomirror\nset y2tics\nset y2range [0:*]\n",
                     throughput ? "machine CPU, throughput [%]" : "machine CPU [%]");
    // the key below the plot: its long entries would narrow the plot beside it
    c += "set grid\nset key below box\nset offsets graph 0.02, graph 0.02, 0, 0\n";
    if (logY) c += "set logscale y 10\n";
    std::vector<std::string> parts;
    if (has(sustainedTo)) {
        c += fmt::format(
            "set object 1 rect from graph 0, graph 0 to first {}, graph 1 behind fc rgb "
            "'#c8e6c9' fs solid 0.5 noborder\n",
            num(sustainedTo));
        parts.push_back(fmt::format(
            "NaN with boxes fs solid 0.5 noborder fc rgb '#c8e6c9' title {}",
            GnuplotScript::quoteGp(fmt::format("sustained (up to {} jobs/s)", num(sustainedTo)))));
    }
    for (std::size_t i = 0; i < lateness.size(); ++i) {
        const std::size_t col = table.columnIndex(lateness[i]) + 1;
        parts.push_back(
            fmt::format("$RunData using {}:{} with linespoints lw 2 pt 7 lc rgb '{}' title {}", x,
                        logY ? fmt::format("(${} > 0 ? ${} : 1/0)", col, col) : std::to_string(col),
                        seriesColour(i), GnuplotScript::quoteGp(seriesName(lateness[i]))));
    }
    parts.push_back(fmt::format(
        "$RunData using {}:{} axes x1y2 with linespoints lw 1.5 dt 2 pt 4 lc rgb '#616161' "
        "title 'machine CPU % (right axis)'",
        x, cpu));
    if (throughput)
        parts.push_back(fmt::format(
            "$RunData using {0}:(${0} > 0 ? 100 * ${1} / ${0} : 1/0) axes x1y2 with linespoints "
            "lw 2 pt 5 lc rgb '#6a1b9a' title 'throughput: achieved / offered % (right axis)'",
            x, table.columnIndex(achieved) + 1));
    // lateness cannot exceed the deadline window (later jobs are dropped): say where
    // a curve that flattens is clipped
    const auto top = std::max_element(
        all.begin(), all.end(), [](double a, double b) { return !has(a) || (has(b) && a < b); });
    if (has(deadlineWindowUs) && deadlineWindowUs > 0 && top != all.end() && has(*top) &&
        *top >= 0.5 * deadlineWindowUs)
        parts.push_back(fmt::format(
            "{} with lines dt 3 lw 2 lc rgb 'black' title {}", num(deadlineWindowUs),
            GnuplotScript::quoteGp(fmt::format("deadline window {}: lateness is clipped here "
                                               "(a job not started by then is dropped)",
                                               usText(deadlineWindowUs)))));
    c += joinPlot(parts);
    return GnuplotScript::custom(table, std::move(c), std::move(po));
}

GnuplotScript headroomCopiesPlot(const CsvTable& table, const std::string& title) {
    double maxCopies = 0;
    for (double v : table.numbers("copies"))
        if (has(v)) maxCopies = std::max(maxCopies, v);
    PlotOptions po;
    po.title = title;
    std::string c;
    c += fmt::format("set title {}\n", GnuplotScript::kTitle);
    c += "set xlabel 'copies running at once (one worker each)'\n";
    c += "set ylabel 'time for every copy to finish [s]'\nset y2label 'efficiency (1 = linear)'\n";
    c += "set ytics nomirror\nset y2tics\nset yrange [0:*]\nset y2range [0:*]\n";
    c += fmt::format("set xtics {}\nset format x '%.0f'\nset xrange [0.5:{}]\n",
                     maxCopies <= 16 ? 1 : std::ceil(maxCopies / 16), maxCopies + 0.5);
    c += "set grid\nset key outside right top box\n";
    const std::size_t x = table.columnIndex("copies") + 1, y = table.columnIndex("time s") + 1,
                      e = table.columnIndex(MetricCatalogue::csvHeader("efficiency")) + 1;
    c += joinPlot({fmt::format("$RunData using {}:{} with linespoints lw 2 pt 7 lc rgb '#1565c0' "
                               "title 'time [s]'",
                               x, y),
                   fmt::format("$RunData using {}:{} axes x1y2 with linespoints lw 2 pt 5 "
                               "lc rgb '#ef6c00' title 'efficiency (right axis)'",
                               x, e)});
    return GnuplotScript::custom(table, std::move(c), std::move(po));
}

}  // namespace pullsched::rig
