#pragma once
// The pictures of a run mode's result built from its per-job table: the timeline of one
// rep and the graph with that rep's job states marked. Kept apart from the mode so that
// the mode only says which rep and which graph.

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "pullsched/scheduler/Time.hpp"
#include "pullsched/testchain/RunResult.hpp"
#include "pullsched/testchain/TestChainGraph.hpp"
#include "report/CsvTable.hpp"
#include "report/GnuplotScript.hpp"
#include "report/TimelinePlot.hpp"

namespace pullsched::rig {

/// Timeline of `rep` (the median rep when not given) of the run mode's jobs table;
/// nullopt if the table has no job of that rep. `stop` here and in runGraphDot() is
/// polled every testchain::kStopPollItems jobs; testchain::Stopped is thrown when it asks.
std::optional<GnuplotScript> runTimeline(const CsvTable& jobs, std::optional<unsigned> rep,
                                         const std::string& pattern, std::size_t nodes,
                                         unsigned workers, Duration load,
                                         const testchain::StopPredicate& stop = {});

/// The jobs of one run for a timeline (times in ms since its anchor); workerOf(node) is
/// the worker that ran the node (-1: unknown). A positive `lifeWindow` gives deadlines.
std::vector<TimelineJob> timelineJobsOf(const testchain::RunResult& run,
                                        const std::function<int(std::size_t)>& workerOf,
                                        Duration lifeWindow);

/// Which rep a concurrency picture shows, and its figures.
struct ConcurrencyPicture {
    unsigned workers = 0;
    unsigned rep = 0;    ///< 1-based, as in the jobs table
    unsigned reps = 0;   ///< of the series
    std::string why;     ///< why this rep: "the median by run time", "--rep"
    double average = 0;  ///< the rep's mean concurrency (its row of the reps table)
    unsigned cores = 0;  ///< of the machine; 0: not said
};

/// Active workers over time (columns "time ms", "concurrency") of one rep: integer ticks,
/// the mean as a line, the rep named in the title. With more workers than cores the title
/// says that an active worker shares a core (it holds a job, it is not always running).
GnuplotScript runConcurrencyPlot(const CsvTable& timeline, const ConcurrencyPicture& what,
                                 const testchain::StopPredicate& stop = {});

/// The graph as DOT with a title, a legend and the states of the same rep's jobs.
std::string runGraphDot(const testchain::TestChainGraph& graph, const CsvTable& jobs,
                        std::optional<unsigned> rep, const std::string& pattern, unsigned workers,
                        const testchain::StopPredicate& stop = {});

}  // namespace pullsched::rig
