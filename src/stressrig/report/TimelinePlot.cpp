#include "report/TimelinePlot.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>

#include <fmt/format.h>

namespace pullsched::rig {
namespace {

bool has(double v) {
    return !std::isnan(v);
}

/// A duration in the timeline's labels: "480 µs", "1.2 ms" (%.3g, a space before the
/// unit); the text reports write durationText's "480µs".
std::string labelDuration(double us) {
    return us >= 1000 ? fmt::format("{:.3g} ms", us / 1000) : fmt::format("{:.3g} µs", us);
}

struct ClassStyle {
    TimelineClass cls;
    const char* colour;
};
/// Lateness from green to orange; failures purple, so that no state hides in the scale.
constexpr std::array<ClassStyle, 5> kBars{{{TimelineClass::OnTime, "#2e7d32"},
                                           {TimelineClass::Late, "#f9a825"},
                                           {TimelineClass::VeryLate, "#e65100"},
                                           {TimelineClass::Failed, "#6a1b9a"},
                                           {TimelineClass::Other, "#9e9e9e"}}};

}  // namespace

TimelineClass TimelinePlot::classify(const TimelineJob& j, const TimelineOptions& o) {
    const bool ran = has(j.startMs) && has(j.endMs);
    if (j.state == "expired" && !ran) return TimelineClass::Expired;
    if (j.state == "cancelled" && !ran) return TimelineClass::Cancelled;
    if (!ran || j.worker < 0 || j.worker >= static_cast<int>(o.workers))
        return TimelineClass::Other;
    if (j.state == "failed") return TimelineClass::Failed;
    if (j.state != "completed") return TimelineClass::Other;
    const double lateUs = (j.startMs - j.scheduledMs) * 1000;
    if (lateUs < o.lateUs) return TimelineClass::OnTime;
    if (lateUs < o.veryLateUs) return TimelineClass::Late;
    return TimelineClass::VeryLate;
}

std::string TimelinePlot::className(TimelineClass c, const TimelineOptions& o) {
    switch (c) {
        case TimelineClass::OnTime:
            return fmt::format("completed, < {} late", labelDuration(o.lateUs));
        case TimelineClass::Late:
            return fmt::format("completed, {}..{} late", labelDuration(o.lateUs),
                               labelDuration(o.veryLateUs));
        case TimelineClass::VeryLate:
            return fmt::format("completed, >= {} late", labelDuration(o.veryLateUs));
        case TimelineClass::Failed:
            return "failed (body threw)";
        case TimelineClass::Expired:
            return "expired: never started (dashed: its life window)";
        case TimelineClass::Cancelled:
            return "cancelled: never started";
        case TimelineClass::Other:
            return "other (not posted / unfinished / unknown worker)";
    }
    return "?";
}

std::string TimelinePlot::summary(const std::vector<TimelineJob>& jobs, const TimelineOptions& o) {
    std::map<TimelineClass, std::size_t> n;
    double span = 0, worst = std::nan("");
    for (const TimelineJob& j : jobs) {
        ++n[classify(j, o)];
        if (has(j.endMs)) span = std::max(span, j.endMs);
        if (has(j.startMs)) {
            const double late = (j.startMs - j.scheduledMs) * 1000;
            if (!has(worst) || late > worst) worst = late;
        }
    }
    const std::size_t completed =
        n[TimelineClass::OnTime] + n[TimelineClass::Late] + n[TimelineClass::VeryLate];
    std::string v = fmt::format(
        "{} of {} jobs completed ({} started < {} late), {} expired, {} cancelled, {} "
        "failed; last end at {:.3f} ms; largest lateness {}",
        completed, jobs.size(), n[TimelineClass::OnTime], labelDuration(o.lateUs),
        n[TimelineClass::Expired], n[TimelineClass::Cancelled], n[TimelineClass::Failed], span,
        has(worst) ? labelDuration(std::round(worst * 10) / 10) : std::string("n/a"));
    if (completed == jobs.size() && n[TimelineClass::Failed] == 0)
        return (n[TimelineClass::VeryLate] ? "every job ran, some late: " : "schedule kept: ") + v;
    return "schedule NOT kept: " + v;
}

namespace {

/// One row per job: its lane (worker, or the "not run" lane W), times and class; counts
/// the jobs of each class into `count`.
CsvTable timelineTable(const std::vector<TimelineJob>& jobs, const TimelineOptions& o, unsigned W,
                       std::map<TimelineClass, std::size_t>& count,
                       const testchain::StopPredicate& stop) {
    const double notRunLane = W;
    CsvTable t({"node", "lane", "scheduled ms", "start ms", "end ms", "deadline ms", "lateness us",
                "class"});
    for (std::size_t i = 0; i < jobs.size(); ++i) {
        testchain::pollStop(stop, i);
        const TimelineJob& j = jobs[i];
        const TimelineClass c = TimelinePlot::classify(j, o);
        ++count[c];
        const bool onWorker = c != TimelineClass::Expired && c != TimelineClass::Cancelled &&
                              j.worker >= 0 && j.worker < static_cast<int>(W);
        const double nan = std::nan("");
        const bool ran = has(j.startMs) && has(j.endMs);
        t.addRow({double(j.node), onWorker ? double(j.worker) : notRunLane, j.scheduledMs,
                  ran ? j.startMs : nan, ran ? j.endMs : nan, j.deadlineMs,
                  ran ? (j.startMs - j.scheduledMs) * 1000 : nan, double(static_cast<int>(c))});
    }
    t.setComment("lanes", fmt::format("workers 0..{}, {} = not run", W - 1, W));
    t.setComment("class",
                 "0 on time, 1 late, 2 very late, 3 failed, 4 expired, 5 cancelled, "
                 "6 other");
    return t;
}

/// The plot's series: a bar per job of each class present, marks for expired and
/// cancelled jobs, the wait from the planned to the actual start and the planned start.
std::vector<std::string> timelineSeries(std::map<TimelineClass, std::size_t>& count,
                                        std::size_t jobs, const TimelineOptions& o) {
    std::vector<std::string> parts;
    // $1 node, $2 lane, $3 scheduled, $4 start, $5 end, $6 deadline, $7 lateness, $8 class
    for (const ClassStyle& b : kBars) {
        const std::size_t n = count.count(b.cls) ? count.at(b.cls) : 0;
        if (n == 0) continue;
        parts.push_back(fmt::format(
            "$RunData using ($8=={} ? ($4+$5)/2 : 1/0):2:(($5-$4)/2):(0.32) with boxxyerror "
            "lc rgb '{}' title {}",
            static_cast<int>(b.cls), b.colour,
            GnuplotScript::quoteGp(fmt::format("{}: {}", TimelinePlot::className(b.cls, o), n))));
    }
    if (count[TimelineClass::Expired]) {
        parts.push_back(
            "$RunData using ($8==4 ? $3 : 1/0):2:($6-$3):(0) with vectors nohead dt 2 lw 1.5 "
            "lc rgb '#c62828' notitle");
        parts.push_back(fmt::format(
            "$RunData using ($8==4 ? $3 : 1/0):2 with points pt 2 ps 1.5 lw 2 lc rgb '#c62828' "
            "title {}",
            GnuplotScript::quoteGp(fmt::format("{}: {}",
                                               TimelinePlot::className(TimelineClass::Expired, o),
                                               count[TimelineClass::Expired]))));
    }
    if (count[TimelineClass::Cancelled])
        parts.push_back(fmt::format(
            "$RunData using ($8==5 ? $3 : 1/0):($2-0.15) with points pt 6 ps 1.2 lw 1.5 "
            "lc rgb '#455a64' title {}",
            GnuplotScript::quoteGp(fmt::format("{}: {}",
                                               TimelinePlot::className(TimelineClass::Cancelled, o),
                                               count[TimelineClass::Cancelled]))));
    // the wait from the planned to the actual start, and the planned start itself
    parts.push_back(
        "$RunData using 3:($2+0.42):($4-$3):(0) with vectors nohead lw 1 lc rgb '#757575' "
        "title 'wait: planned -> actual start'");
    parts.push_back(
        fmt::format("$RunData using 3:($2+0.42) with points pt 11 ps 0.8 lc rgb '#000000' title {}",
                    GnuplotScript::quoteGp(fmt::format("planned start ({} jobs)", jobs))));
    return parts;
}

}  // namespace

GnuplotScript TimelinePlot::plot(const std::vector<TimelineJob>& jobs, const TimelineOptions& o,
                                 const testchain::StopPredicate& stop) {
    const unsigned W = std::max(1u, o.workers);
    std::map<TimelineClass, std::size_t> count;
    CsvTable t = timelineTable(jobs, o, W, count, stop);

    PlotOptions po;
    po.title = o.title;
    po.verdict = o.verdict.empty() ? summary(jobs, o) : o.verdict;
    po.width = 1600;
    po.height = std::max(480, 70 * static_cast<int>(W + 1) + 260);
    std::string c;
    c += fmt::format("set title {}\n", GnuplotScript::kTitle);
    c += "set xlabel 'time since the run''s anchor [ms]'\nset ylabel ''\n";
    c += fmt::format("set yrange [-0.6:{}]\n", W + 0.7);
    c += "set ytics (";
    for (unsigned w = 0; w < W; ++w)
        c += fmt::format("'worker {}' {}, ", w, w);
    c += fmt::format("'not run' {})\n", W);
    c += "set grid xtics\nunset mouse\n";
    c += "set key outside right top vertical box spacing 1.2\n";
    // a white edge keeps back-to-back jobs apart
    c += "set style fill solid 0.9 border lc rgb '#ffffff'\n";
    // the line between the workers and the jobs that never ran
    c += fmt::format(
        "set arrow from graph 0, first {} to graph 1, first {} nohead dt 3 "
        "lc rgb '#616161'\n",
        W - 0.5, W - 0.5);

    const std::vector<std::string> parts = timelineSeries(count, jobs.size(), o);
    c += "plot ";
    for (std::size_t i = 0; i < parts.size(); ++i)
        c += (i ? ", \\\n     " : "") + parts[i];
    c += "\n";
    return GnuplotScript::custom(t, std::move(c), std::move(po), stop);
}

std::vector<TimelineJob> TimelinePlot::jobsOfRep(const CsvTable& jobs, unsigned rep,
                                                 const testchain::StopPredicate& stop) {
    std::vector<TimelineJob> out;
    const std::size_t cRep = jobs.columnIndex("rep"), cNode = jobs.columnIndex("node"),
                      cState = jobs.columnIndex("state"), cWorker = jobs.columnIndex("worker"),
                      cSched = jobs.columnIndex("scheduled ms"),
                      cDead = jobs.columnIndex("deadline ms"),
                      cStart = jobs.columnIndex("start ms"), cEnd = jobs.columnIndex("end ms");
    for (std::size_t r = 0; r < jobs.rowCount(); ++r) {
        testchain::pollStop(stop, r);
        if (jobs.number(r, cRep) != rep) continue;
        TimelineJob j;
        j.node = static_cast<std::size_t>(jobs.number(r, cNode));
        j.state = jobs.text(r, cState);
        const double w = jobs.number(r, cWorker);
        j.worker = has(w) ? static_cast<int>(w) : -1;
        j.scheduledMs = jobs.number(r, cSched);
        j.deadlineMs = jobs.number(r, cDead);
        j.startMs = jobs.number(r, cStart);
        j.endMs = jobs.number(r, cEnd);
        out.push_back(std::move(j));
    }
    return out;
}

std::optional<unsigned> TimelinePlot::medianRep(const CsvTable& jobs,
                                                const testchain::StopPredicate& stop) {
    std::map<unsigned, double> span;
    const std::size_t cRep = jobs.columnIndex("rep"), cSched = jobs.columnIndex("scheduled ms"),
                      cEnd = jobs.columnIndex("end ms");
    for (std::size_t r = 0; r < jobs.rowCount(); ++r) {
        testchain::pollStop(stop, r);
        const unsigned rep = static_cast<unsigned>(jobs.number(r, cRep));
        const double end = jobs.number(r, cEnd);
        const double last = has(end) ? end : jobs.number(r, cSched);
        auto [it, fresh] = span.try_emplace(rep, last);
        if (!fresh && has(last)) it->second = std::max(it->second, last);
    }
    if (span.empty()) return std::nullopt;
    std::vector<std::pair<double, unsigned>> order;
    for (const auto& [rep, s] : span)
        order.emplace_back(s, rep);
    std::sort(order.begin(), order.end());
    return order[(order.size() - 1) / 2].second;
}

std::optional<GnuplotScript> TimelinePlot::ofRunTable(const CsvTable& jobs,
                                                      std::optional<unsigned> rep,
                                                      TimelineOptions o,
                                                      const testchain::StopPredicate& stop) {
    const std::optional<unsigned> median = medianRep(jobs, stop);
    if (!median) return std::nullopt;
    const unsigned chosen = rep.value_or(*median);
    const std::vector<TimelineJob> list = jobsOfRep(jobs, chosen, stop);
    if (list.empty()) return std::nullopt;
    unsigned reps = 0;
    for (double r : jobs.numbers("rep"))
        if (has(r)) reps = std::max(reps, static_cast<unsigned>(r));
    o.title = fmt::format("timeline of rep {} of {}{}: {}", chosen, reps,
                          rep        ? " (--rep)"
                          : reps > 1 ? " (the median by run time)"
                                     : "",
                          o.title);
    return plot(list, o, stop);
}

}  // namespace pullsched::rig
