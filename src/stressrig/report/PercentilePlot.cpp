#include "report/PercentilePlot.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>

#include <fmt/format.h>

#include "report/PlotSupport.hpp"
#include "report/TextFormat.hpp"

namespace pullsched::rig {

using namespace plot;

double tailAxisPosition(double percent) {
    if (percent >= 100) return 1e5;  // the maximum, right of 99.99 %
    return 100.0 / (100.0 - percent);
}

GnuplotScript percentilePlot(const CsvTable& table, const std::string& percentileColumn,
                             const std::vector<std::string>& series, PlotOptions o) {
    if (series.empty()) throw std::invalid_argument("percentilePlot: no series");
    const std::size_t pc = table.columnIndex(percentileColumn) + 1;
    std::vector<double> all;
    for (const std::string& s : series)
        for (double v : table.numbers(s))
            all.push_back(v);
    const bool logY = spansDecades(all);
    std::string c;
    c += fmt::format("set title {}\n", GnuplotScript::kTitle);
    c += "set logscale x 10\nset xrange [0.8:1.6e5]\n";
    // tic labels are formats: '%%' is a percent sign
    c += "set xtics ('min' 1, '50 %%' 2, '90 %%' 10, '99 %%' 100, '99.9 %%' 1000, "
         "'99.99 %%' 10000, 'max' 100000)\n";
    c += "set mxtics 10\nset grid xtics ytics\n";
    c += "set xlabel 'percentile (axis 1/(1-p), logarithmic: each step one more nine)'\n";
    c += fmt::format(
        "set ylabel {}\n",
        GnuplotScript::quoteGp(o.yLabel.empty()
                                   ? std::string(logY ? "lateness [µs] (log)" : "lateness [µs]")
                                   : o.yLabel));
    if (logY) c += "set logscale y 10\n";
    c += "set key top left box opaque\n";
    c += "TailX(p) = p >= 100 ? 1e5 : 100.0 / (100.0 - p)\n";
    std::vector<std::string> parts;
    for (std::size_t i = 0; i < series.size(); ++i) {
        const std::size_t col = table.columnIndex(series[i]) + 1;
        parts.push_back(fmt::format(
            "$RunData using (TailX(${})):{} with linespoints lw 2 pt 7 lc rgb '{}' title {}", pc,
            logY ? fmt::format("(${} > 0 ? ${} : 1/0)", col, col) : std::to_string(col),
            seriesColour(i), GnuplotScript::quoteGp(series[i])));
    }
    c += joinPlot(parts);
    return GnuplotScript::custom(table, std::move(c), std::move(o));
}

}  // namespace pullsched::rig
