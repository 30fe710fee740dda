#include "report/BreakingPointPlot.hpp"

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

namespace {

/// The probes (by stress) and the fitted curve as drawn, the picture's figures as comments.
CsvTable breakingPointTable(const BreakingPointPicture& p) {
    std::vector<BreakingPointPicture::Probe> probes = p.probes;
    std::stable_sort(probes.begin(), probes.end(),
                     [](const auto& a, const auto& b) { return a.stress < b.stress; });
    CsvTable t({"stress", "mean runtime ms", "expected ms", "fail fraction", "broken",
                "curve stress", "fitted fail fraction"});
    for (const auto& q : probes)
        t.addRow({q.stress, q.meanRuntimeMs, q.expectedMs, q.failFraction, q.broken ? 1.0 : 0.0,
                  kNaN, kNaN});
    for (const auto& [s, f] : p.fittedCurve)
        t.addRow({kNaN, kNaN, kNaN, kNaN, kNaN, s, f});
    t.setComment("breaking stress", num(p.breakingStress));
    t.setComment("limit stress", num(p.limitStress));
    t.setComment("ideal run stress", num(p.idealStress));
    t.setComment("fit 50 % stress and 95 % CI",
                 fmt::format("{} [{}, {}]", num(p.fit50), num(p.ciLow), num(p.ciHigh)));
    return t;
}

/// The x range: every probe and every marked stress, with a margin.
std::string breakingPointXRange(const BreakingPointPicture& p) {
    double lo = kNaN, hi = kNaN;
    auto extend = [&](double x) {
        if (!has(x)) return;
        lo = has(lo) ? std::min(lo, x) : x;
        hi = has(hi) ? std::max(hi, x) : x;
    };
    for (const auto& q : p.probes)
        extend(q.stress);
    for (double x : {p.breakingStress, p.limitStress, p.idealStress, p.ciLow, p.ciHigh})
        extend(x);
    if (!has(lo) || !has(hi)) return "";
    const double pad = std::max(0.05 * (hi - lo), 0.02 * hi);
    return fmt::format("set xrange [{}:{}]\n", num(std::max(0.0, lo - pad)), num(hi + pad));
}

/// The fit's confidence band and the vertical lines of the breaking stress, the
/// theoretical limit and the ideal run, each with its label and its legend entry.
void breakingPointMarks(const BreakingPointPicture& p, std::string& c,
                        std::vector<std::string>& parts) {
    if (has(p.ciLow) && has(p.ciHigh)) {
        c += fmt::format(
            "set object 1 rect from first {}, graph 0 to first {}, graph 1 behind "
            "fc rgb '#90caf9' fs solid 0.35 noborder\n",
            num(p.ciLow), num(p.ciHigh));
        parts.push_back(fmt::format(
            "NaN with boxes fs solid 0.35 noborder fc rgb '#90caf9' title {}",
            GnuplotScript::quoteGp(fmt::format("fit: 50 % fail at {:.3f}, 95 % CI {:.3f}..{:.3f}",
                                               p.fit50, p.ciLow, p.ciHigh))));
    }
    // a vertical reference line with its label, and its entry in the legend
    auto reference = [&](double x, const char* style, const std::string& label,
                         const std::string& legend, int id, double at) {
        if (!has(x)) return;
        c += fmt::format("set arrow {} from first {}, graph 0 to first {}, graph 1 nohead {}\n", id,
                         num(x), num(x), style);
        c += fmt::format(
            "set label {} {} at first {}, graph {} rotate by 90 right offset -0.6,0 boxed front\n",
            id, GnuplotScript::quoteGp(label), num(x), at);
        parts.push_back(
            fmt::format("NaN with lines {} title {}", style, GnuplotScript::quoteGp(legend)));
    };
    reference(p.breakingStress, "lw 2.5 lc rgb '#b26a00'",
              fmt::format("breaking stress {:.3f}", p.breakingStress),
              fmt::format("breaking stress {:.3f} (bisection)", p.breakingStress), 1, 0.98);
    reference(p.limitStress, "lw 2 dt 2 lc rgb '#212121'",
              fmt::format("theoretical limit {:.3f}", p.limitStress),
              fmt::format("theoretical limit {:.3f} (ends at the lower bound)", p.limitStress), 2,
              0.98);
    reference(
        p.idealStress, "lw 2 dt 4 lc rgb '#2e7d32'", fmt::format("ideal run {:.3f}", p.idealStress),
        fmt::format("ideal run {:.3f} (no scheduling cost, start order)", p.idealStress), 3, 0.55);
}

}  // namespace

GnuplotScript breakingPointPlot(const BreakingPointPicture& p) {
    PlotOptions po;
    po.title = p.title;
    po.width = 1300;
    po.height = 850;
    std::string c;
    c += fmt::format("set title {}\n", GnuplotScript::kTitle);
    c += "set xlabel 'stress (planned speed-up of the schedule)'\n";
    c += "set ylabel 'run time [ms]'\nset y2label 'share of runs that failed'\n";
    c += "set ytics nomirror\nset y2tics 0, 0.25, 1\nset y2range [-0.03:1.03]\n";
    // the legend under the x label, out of the data
    c += "set yrange [0:*]\nset grid\nset bmargin 9\n";
    c += "set key at screen 0.5, screen 0.01 center bottom horizontal box maxrows 4\n";
    c += "set style textbox opaque noborder\n";
    c += breakingPointXRange(p);
    std::vector<std::string> parts;
    breakingPointMarks(p, c, parts);
    parts.push_back(
        "$RunData using 1:2 with linespoints lw 2 pt 7 lc rgb '#1565c0' title 'mean run time "
        "(complete runs)'");
    parts.push_back(
        "$RunData using 1:3 with linespoints lw 1 dt 3 pt 1 lc rgb '#616161' title 'planned run "
        "time'");
    parts.push_back(
        "$RunData using 1:4 axes x1y2 with linespoints lw 1 pt 5 ps 1.1 lc rgb '#ef6c00' "
        "title 'share of runs failed (probe)'");
    parts.push_back(
        "$RunData using ($5==1 ? $1 : 1/0):4 axes x1y2 with points pt 6 ps 2.2 lw 2 "
        "lc rgb '#b26a00' title 'probe broken'");  // overload: amber (red is for lost jobs)
    if (!p.fittedCurve.empty())
        parts.push_back(
            "$RunData using 6:7 axes x1y2 with lines lw 2 dt 4 lc rgb '#ef6c00' "
            "title 'logistic fit of the fail share'");
    c += joinPlot(parts);
    return GnuplotScript::custom(breakingPointTable(p), std::move(c), std::move(po));
}

}  // namespace pullsched::rig
