#include "report/RunPictures.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "format/Units.hpp"
#include "pullsched/testchain/DotWriter.hpp"
#include "report/DotLegend.hpp"
#include "report/TimelinePlot.hpp"

namespace pullsched::rig {

std::optional<GnuplotScript> runTimeline(const CsvTable& jobs, std::optional<unsigned> rep,
                                         const std::string& pattern, std::size_t nodes,
                                         unsigned workers, Duration load,
                                         const testchain::StopPredicate& stop) {
    TimelineOptions o;
    o.title = fmt::format("{} ({} nodes), {} workers, load {}", pattern, nodes, workers,
                          Units::formatDuration(load, true));
    o.workers = workers;
    return TimelinePlot::ofRunTable(jobs, rep, o, stop);
}

std::vector<TimelineJob> timelineJobsOf(const testchain::RunResult& run,
                                        const std::function<int(std::size_t)>& workerOf,
                                        Duration lifeWindow) {
    auto ms = [](Duration d) { return std::chrono::duration<double, std::milli>(d).count(); };
    std::vector<TimelineJob> out;
    for (const testchain::JobTiming& j : run.jobs) {
        TimelineJob t;
        t.node = j.node;
        t.state = j.posted ? std::string(toString(j.state)) : std::string("not posted");
        t.worker = j.ran() ? workerOf(j.node) : -1;
        t.scheduledMs = ms(j.scheduledStart);
        t.startMs = j.ran() ? ms(j.actualStart) : std::nan("");
        t.endMs = j.ran() ? ms(j.end) : std::nan("");
        t.deadlineMs =
            lifeWindow > Duration::zero() ? ms(j.scheduledStart + lifeWindow) : std::nan("");
        out.push_back(std::move(t));
    }
    return out;
}

GnuplotScript runConcurrencyPlot(const CsvTable& timeline, const ConcurrencyPicture& what,
                                 const testchain::StopPredicate& stop) {
    double most = 0;
    for (const double c : timeline.numbers("concurrency"))
        if (std::isfinite(c)) most = std::max(most, c);
    PlotOptions o;
    o.title = fmt::format(
        "active workers over time, rep {} of {}{}: mean {:.2f} of {} workers", what.rep, what.reps,
        what.reps > 1 ? " (" + what.why + ")" : std::string(), what.average, what.workers);
    if (what.cores > 0 && what.workers > what.cores)
        o.title +=
            fmt::format("; {} workers share {} cores, so an active worker is not always running",
                        what.workers, what.cores);
    o.height = 500;
    std::string c;
    c += fmt::format("set title {}\n", GnuplotScript::kTitle);
    c += "set xlabel 'time since the run''s anchor [ms]'\nset ylabel 'active workers'\n";
    c += fmt::format("set yrange [-0.1:{}]\nset ytics 1\nset grid\n",
                     std::max<double>(what.workers, most) + 0.4);
    c += "set key outside right top box\n";
    const std::size_t x = timeline.columnIndex("time ms") + 1,
                      y = timeline.columnIndex("concurrency") + 1;
    c += fmt::format(
        "plot $RunData using {}:{} with steps lw 1.5 lc rgb '#1565c0' title "
        "'active workers'",
        x, y);
    if (std::isfinite(what.average))
        c += fmt::format(", \\\n     {} with lines dt 2 lw 2 lc rgb '#ef6c00' title {}",
                         what.average,
                         GnuplotScript::quoteGp(fmt::format("mean {:.2f}", what.average)));
    c += "\n";
    return GnuplotScript::custom(timeline, std::move(c), std::move(o), stop);
}

std::string runGraphDot(const testchain::TestChainGraph& graph, const CsvTable& jobs,
                        std::optional<unsigned> rep, const std::string& pattern, unsigned workers,
                        const testchain::StopPredicate& stop) {
    std::map<std::size_t, std::string> states;
    std::string title = fmt::format("{} ({} nodes, seed {})", pattern, graph.size(), graph.seed());
    if (const std::optional<unsigned> shown = rep ? rep : TimelinePlot::medianRep(jobs, stop)) {
        std::size_t notCompleted = 0;
        for (const TimelineJob& j : TimelinePlot::jobsOfRep(jobs, *shown, stop)) {
            testchain::pollStop(stop, states.size());
            states[j.node] = j.state;
            if (j.state != "completed") ++notCompleted;
        }
        title += fmt::format("\nstates of rep {} on {} workers: {} of {} jobs did not complete",
                             *shown, workers, notCompleted, states.size());
    }
    return DotLegend::decorate(testchain::DotWriter::toString(graph, stop), title, states, stop);
}

}  // namespace pullsched::rig
