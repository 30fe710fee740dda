#include "report/VerdictPlots.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>

#include <fmt/format.h>

#include "report/TextFormat.hpp"

namespace pullsched::rig {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

bool has(double v) {
    return std::isfinite(v);
}

std::string joinPlot(const std::vector<std::string>& parts) {
    std::string s = "plot ";
    for (std::size_t i = 0; i < parts.size(); ++i)
        s += (i ? ", \\\n     " : "") + parts[i];
    return s + "\n";
}

/// True when the positive values span about two decades or more (a factor of 50): a log
/// axis then shows both the body and the tail.
bool spansDecades(const std::vector<double>& values) {
    double lo = kNaN, hi = kNaN;
    for (double v : values) {
        if (!has(v) || v <= 0) continue;
        lo = has(lo) ? std::min(lo, v) : v;
        hi = has(hi) ? std::max(hi, v) : v;
    }
    return has(lo) && hi / lo >= 50;
}

std::string num(double v) {
    return fmt::format("{:.6g}", v);
}

/// "lateness_p99_us" → "p99 lateness" for a legend (the axis carries the unit).
std::string seriesName(const std::string& column) {
    if (column == "lateness_mean_us") return "mean lateness";
    if (column.rfind("lateness_", 0) == 0 && column.size() > 12)
        return column.substr(9, column.size() - 12) + " lateness";
    return column;
}

/// The sweep's classes as drawn: 0 stable, 1 burst, 2 failure, 3 anything else.
int classCode(const std::string& loadClass) {
    return loadClass == "stable" ? 0 : loadClass == "burst" ? 1 : loadClass == "failure" ? 2 : 3;
}

const char* kSeriesColours[] = {"#1565c0", "#ef6c00", "#2e7d32", "#6a1b9a",
                                "#c62828", "#00838f", "#5d4037", "#ad1457"};

}  // namespace

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
            kSeriesColours[i % std::size(kSeriesColours)], GnuplotScript::quoteGp(series[i])));
    }
    c += joinPlot(parts);
    return GnuplotScript::custom(table, std::move(c), std::move(o));
}

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
            workers[i], kSeriesColours[i % std::size(kSeriesColours)], workersTitle(workers[i])));
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
            workers[i], logY ? "$4 > 0 ? $4 : 1/0" : "$4",
            kSeriesColours[i % std::size(kSeriesColours)], workersTitle(workers[i])));
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

GnuplotScript headroomLoadPlot(const CsvTable& table, const std::vector<std::string>& lateness,
                               const std::string& title, double deadlineWindowUs) {
    if (lateness.empty()) throw std::invalid_argument("headroomLoadPlot: no lateness series");
    const std::size_t x = table.columnIndex("offered_rate_per_s") + 1;
    const std::size_t cpu = table.columnIndex("machine_cpu_percent") + 1;
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
    const bool throughput = table.hasColumn("achieved_rate_per_s");
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
                        kSeriesColours[i % std::size(kSeriesColours)],
                        GnuplotScript::quoteGp(seriesName(lateness[i]))));
    }
    parts.push_back(fmt::format(
        "$RunData using {}:{} axes x1y2 with linespoints lw 1.5 dt 2 pt 4 lc rgb '#616161' "
        "title 'machine CPU % (right axis)'",
        x, cpu));
    if (throughput)
        parts.push_back(fmt::format(
            "$RunData using {0}:(${0} > 0 ? 100 * ${1} / ${0} : 1/0) axes x1y2 with linespoints "
            "lw 2 pt 5 lc rgb '#6a1b9a' title 'throughput: achieved / offered % (right axis)'",
            x, table.columnIndex("achieved_rate_per_s") + 1));
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
    const std::size_t x = table.columnIndex("copies") + 1, y = table.columnIndex("time_s") + 1,
                      e = table.columnIndex("efficiency") + 1;
    c += joinPlot({fmt::format("$RunData using {}:{} with linespoints lw 2 pt 7 lc rgb '#1565c0' "
                               "title 'time [s]'",
                               x, y),
                   fmt::format("$RunData using {}:{} axes x1y2 with linespoints lw 2 pt 5 "
                               "lc rgb '#ef6c00' title 'efficiency (right axis)'",
                               x, e)});
    return GnuplotScript::custom(table, std::move(c), std::move(po));
}

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
