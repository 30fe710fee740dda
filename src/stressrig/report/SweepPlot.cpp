#include "report/SweepPlot.hpp"

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

/// The sweep's classes as drawn: 0 stable, 1 burst, 2 failure, 3 anything else.
int classCode(const std::string& loadClass) {
    return loadClass == "stable" ? 0 : loadClass == "burst" ? 1 : loadClass == "failure" ? 2 : 3;
}

}  // namespace

namespace {

/// Whether the offered rates want a log axis: two decades, or a factor of 16.
bool offeredOnLogAxis(const std::vector<double>& offered) {
    if (spansDecades(offered)) return true;
    double lo = kNaN, hi = kNaN;
    for (double v : offered)
        if (v > 0) {
            lo = has(lo) ? std::min(lo, v) : v;
            hi = has(hi) ? std::max(hi, v) : v;
        }
    return has(lo) && hi / lo >= 16;
}

/// What the sweep picture draws, a row per step (sorted by workers, then offered rate):
/// its class, its lane (the worker count's place) and its band, from half way to the
/// previous step to half way to the next one.
CsvTable sweepTable(const std::vector<SweepPoint>& pts, const std::vector<unsigned>& workers,
                    bool logX, double limitUs) {
    CsvTable t({"workers", "offered per s", "achieved per s", "p99 us", "class", "lane",
                "band from per s", "band to per s"});
    auto mid = [&](double a, double b) { return logX ? std::sqrt(a * b) : (a + b) / 2; };
    for (std::size_t i = 0; i < pts.size(); ++i) {
        const SweepPoint& p = pts[i];
        const bool prevSame = i > 0 && pts[i - 1].workers == p.workers;
        const bool nextSame = i + 1 < pts.size() && pts[i + 1].workers == p.workers;
        const double cur = p.offeredPerS;
        // the mirror of the gap to a neighbour, on the axis' own scale
        auto mirror = [&](double other) { return logX ? cur * cur / other : 2 * cur - other; };
        const double from = prevSame   ? mid(pts[i - 1].offeredPerS, cur)
                            : nextSame ? mirror(mid(cur, pts[i + 1].offeredPerS))
                                       : cur * 0.9;
        const double to = nextSame   ? mid(cur, pts[i + 1].offeredPerS)
                          : prevSame ? mirror(mid(pts[i - 1].offeredPerS, cur))
                                     : cur * 1.1;
        const double cls = classCode(p.loadClass);
        const double lane = static_cast<double>(
            std::find(workers.begin(), workers.end(), p.workers) - workers.begin());
        t.addRow({double(p.workers), p.offeredPerS, p.achievedPerS, p.p99Us, cls, lane, from, to});
    }
    t.setComment("class", "0 stable, 1 burst, 2 failure, 3 interrupted");
    t.setComment("lateness limit us", num(limitUs));
    return t;
}

/// The x range of all panels: the band edges around the outer steps.
std::string sweepXRange(const CsvTable& t, bool logX) {
    double xlo = kNaN, xhi = kNaN;
    for (std::size_t r = 0; r < t.rowCount(); ++r) {
        const double a = t.number(r, 6), b = t.number(r, 7);
        xlo = has(xlo) ? std::min(xlo, a) : a;
        xhi = has(xhi) ? std::max(xhi, b) : b;
    }
    if (!logX) xlo = std::max(0.0, xlo);  // no negative rates on a linear axis
    if (has(xlo) && has(xhi) && xhi > xlo)
        return fmt::format("set xrange [{}:{}]\n", num(xlo), num(xhi));
    return "";
}

/// "2 workers", "1 worker".
std::string workersTitle(unsigned workers) {
    return fmt::format("'{} worker{}'", workers, workers == 1 ? "" : "s");
}

/// Panel 1: achieved over offered, y = x.
std::string achievedPanel(const std::vector<unsigned>& workers, bool logX) {
    std::string c = "# top: achieved rate; on y = x every offered job was run\n";
    c += "set origin 0, 0.53\nset size 1, 0.40\n";
    c += "set xlabel 'offered rate [jobs/s]'\nset ylabel 'achieved rate [jobs/s]'\n";
    c += logX ? "set logscale y 10\n" : "set yrange [0:*]\n";
    std::vector<std::string> parts;
    parts.push_back("x with lines dt 2 lw 1.5 lc rgb '#212121' title 'y = x (achieved = offered)'");
    for (std::size_t i = 0; i < workers.size(); ++i)
        parts.push_back(fmt::format(
            "$RunData using ($1=={} ? $2 : 1/0):3 with linespoints lw 2 pt 7 lc rgb '{}' "
            "title {}",
            workers[i], seriesColour(i), workersTitle(workers[i])));
    c += joinPlot(parts);
    c += logX ? "unset logscale y\n" : "set yrange [*:*]\n";
    return c;
}

/// Panel 2: p99 lateness with the limit.
std::string latenessPanel(const std::vector<unsigned>& workers, double limitUs, bool logY) {
    std::string c = "# middle: p99 lateness and the limit that decides stable / burst\n";
    c += "set origin 0, 0.25\nset size 1, 0.28\nset xlabel ''\n";
    c += fmt::format("set ylabel {}\n", GnuplotScript::quoteGp(logY ? "p99 lateness [µs] (log)"
                                                                    : "p99 lateness [µs]"));
    if (logY) c += "set logscale y 10\n";
    std::vector<std::string> parts;
    if (has(limitUs))
        parts.push_back(
            fmt::format("{} with lines dt 2 lw 2 lc rgb '#c62828' title {}", num(limitUs),
                        GnuplotScript::quoteGp(fmt::format("lateness limit {} µs", num(limitUs)))));
    for (std::size_t i = 0; i < workers.size(); ++i)
        parts.push_back(fmt::format(
            "$RunData using ($1=={} ? $2 : 1/0):({}) with linespoints lw 2 pt 7 lc rgb '{}' "
            "title {}",
            workers[i], logY ? "$4 > 0 ? $4 : 1/0" : "$4", seriesColour(i),
            workersTitle(workers[i])));
    c += joinPlot(parts);
    if (logY) c += "unset logscale y\n";
    return c;
}

/// Panel 3: the class of every step as a band per worker count.
std::string classPanel(const std::vector<unsigned>& workers, const std::vector<SweepPoint>& pts) {
    std::string c = "# bottom: class of each step, one band per worker count\n";
    c += "set origin 0, 0.0\nset size 1, 0.25\nset xlabel 'offered rate [jobs/s]'\n";
    c += "set key outside right center vertical box spacing 0.9\n";
    c += "set ylabel ''\nunset grid\nset grid xtics\n";
    c += fmt::format("set yrange [-0.6:{}]\n", workers.size() - 0.4);
    c += "set ytics (";
    for (std::size_t i = 0; i < workers.size(); ++i)
        c += fmt::format("{}'{} w' {}", i ? ", " : "", workers[i], i);
    c += ")\nset style fill solid 0.85 border lc rgb '#ffffff'\n";
    std::vector<std::string> parts;
    const struct {
        int cls;
        const char* name;
        const char* colour;
    } classes[] = {// by meaning (report/VerdictColour.hpp): kept green, overload amber in two
                   // shades, since a failing step is a measurement and red means a lost job
                   {0, "stable", "#66bb6a"},
                   {1, "burst (lateness over the limit)", "#ffd54f"},
                   {2, "failure (drops / no drain)", "#ef6c00"},
                   {3, "interrupted", "#bdbdbd"}};
    for (const auto& k : classes)
        if (std::any_of(pts.begin(), pts.end(),
                        [&](const SweepPoint& p) { return classCode(p.loadClass) == k.cls; }))
            parts.push_back(fmt::format(
                "$RunData using ($5=={} ? $2 : 1/0):6:7:8:($6-0.38):($6+0.38) with boxxyerror "
                "lc rgb '{}' title '{}'",
                k.cls, k.colour, k.name));
    return c + joinPlot(parts);
}

}  // namespace

GnuplotScript sweepPlot(const std::vector<SweepPoint>& points, double limitUs,
                        const std::string& title) {
    std::vector<SweepPoint> pts = points;
    std::stable_sort(pts.begin(), pts.end(), [](const SweepPoint& a, const SweepPoint& b) {
        return a.workers != b.workers ? a.workers < b.workers : a.offeredPerS < b.offeredPerS;
    });
    std::vector<unsigned> workers;
    for (const SweepPoint& p : pts)
        if (workers.empty() || workers.back() != p.workers) workers.push_back(p.workers);
    std::vector<double> offered, latencies;
    for (const SweepPoint& p : pts) {
        offered.push_back(p.offeredPerS);
        latencies.push_back(p.p99Us);
    }
    const bool logX = offeredOnLogAxis(offered);
    if (has(limitUs)) latencies.push_back(limitUs);
    const bool logY = spansDecades(latencies);
    CsvTable t = sweepTable(pts, workers, logX, limitUs);

    PlotOptions po;
    po.title = title;
    po.width = 1300;
    po.height = 1150;
    std::string c;
    c += fmt::format("set multiplot title {}\n", GnuplotScript::kTitle);
    c += "set lmargin 14\nset rmargin 44\nset grid\n";
    c += "set key outside right top box\n";
    if (logX) c += "set logscale x 10\n";
    c += sweepXRange(t, logX);
    c += achievedPanel(workers, logX);
    c += latenessPanel(workers, limitUs, logY);
    c += classPanel(workers, pts);
    c += "unset multiplot\n";
    return GnuplotScript::custom(t, std::move(c), std::move(po));
}

}  // namespace pullsched::rig
