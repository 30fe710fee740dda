#include "report/RunPictures.hpp"

#include <map>

#include <fmt/format.h>

#include "pullsched/testchain/DotWriter.hpp"
#include "report/DotLegend.hpp"
#include "report/TimelinePlot.hpp"
#include "report/Units.hpp"

namespace pullsched::rig {

std::optional<GnuplotScript> runTimeline(const CsvTable& jobs, std::optional<unsigned> rep,
                                         const std::string& pattern, std::size_t nodes,
                                         unsigned workers, Duration load) {
    TimelineOptions o;
    o.title = fmt::format("{} ({} nodes), {} workers, load {}", pattern, nodes, workers,
                          Units::formatDuration(load, true));
    o.workers = workers;
    return TimelinePlot::ofRunTable(jobs, rep, o);
}

std::string runGraphDot(const testchain::TestChainGraph& graph, const CsvTable& jobs,
                        std::optional<unsigned> rep, const std::string& pattern, unsigned workers) {
    std::map<std::size_t, std::string> states;
    std::string title = fmt::format("{} ({} nodes, seed {})", pattern, graph.size(), graph.seed());
    if (const std::optional<unsigned> shown = rep ? rep : TimelinePlot::medianRep(jobs)) {
        std::size_t notCompleted = 0;
        for (const TimelineJob& j : TimelinePlot::jobsOfRep(jobs, *shown)) {
            states[j.node] = j.state;
            if (j.state != "completed") ++notCompleted;
        }
        title += fmt::format("\nstates of rep {} on {} workers: {} of {} jobs did not complete",
                             *shown, workers, notCompleted, states.size());
    }
    return DotLegend::decorate(testchain::DotWriter::toString(graph), title, states);
}

}  // namespace pullsched::rig
