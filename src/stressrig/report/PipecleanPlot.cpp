#include "report/PipecleanPlot.hpp"

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

GnuplotScript pipecleanPlot(const std::vector<std::string>& patterns,
                            const std::vector<double>& maxJobUs,
                            const std::vector<double>& maxLatenessUs, const std::string& title) {
    CsvTable t;
    t.addColumn("pattern", CsvTable::Kind::Text);
    t.addColumn("max job us");
    t.addColumn("max lateness us");
    std::vector<double> all;
    for (std::size_t i = 0; i < patterns.size(); ++i) {
        const double job = i < maxJobUs.size() ? maxJobUs[i] : kNaN;
        const double late = i < maxLatenessUs.size() ? maxLatenessUs[i] : kNaN;
        t.addRow({patterns[i], job, late});
        all.push_back(job);
        all.push_back(late);
    }
    const bool logY = spansDecades(all);
    PlotOptions po;
    po.title = title;
    po.width = std::max(1000, 40 * static_cast<int>(patterns.size()) + 300);
    std::string c;
    c += fmt::format("set title {}\n", GnuplotScript::kTitle);
    c += "set xlabel 'pattern'\n";
    c += fmt::format("set ylabel {}\n",
                     GnuplotScript::quoteGp(logY ? "time [µs] (log)" : "time [µs]"));
    c += "set style data histograms\nset style histogram clustered gap 1\n";
    c += "set style fill solid 0.85 border -1\nset boxwidth 0.9\n";
    c += "set xtics rotate by -40 left nomirror noenhanced\nset grid ytics\n";
    c += fmt::format("set key outside right top box\nset xrange [-0.7:{}]\n",
                     static_cast<double>(patterns.size()) - 0.3);
    double lowest = kNaN;
    for (double v : all)
        if (has(v) && v > 0) lowest = has(lowest) ? std::min(lowest, v) : v;
    if (logY)  // bars grow from the decade below the smallest value
        c += fmt::format("set logscale y 10\nset yrange [{}:*]\n",
                         num(std::pow(10.0, std::floor(std::log10(lowest * 0.99)))));
    else
        c += "set yrange [0:*]\n";
    c += joinPlot({"$RunData using 2:xtic(1) lc rgb '#1565c0' title 'max job time [µs]'",
                   "$RunData using 3 lc rgb '#ef6c00' title 'max lateness [µs]'"});
    return GnuplotScript::custom(t, std::move(c), std::move(po));
}

}  // namespace pullsched::rig
