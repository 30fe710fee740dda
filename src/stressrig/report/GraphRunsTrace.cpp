#include "report/GraphRunsTrace.hpp"

#include <algorithm>

#include "report/ScheduledRunTrace.hpp"

namespace pullsched::rig {

GraphRunsTraceText graphRunsTrace(const std::string& title, unsigned threads,
                                  std::span<const TracedGraphRun> runs,
                                  const nlohmann::json& metadata) {
    // A helping caller is a thread beyond the workers: its lane needs a track of its own.
    std::int32_t top = -1;
    for (const TracedGraphRun& r : runs)
        for (const std::int32_t lane : r.run.lanes)
            top = std::max(top, lane);
    ScheduledRunTrace trace(title, std::max(threads, static_cast<unsigned>(top + 1)), "thread");
    for (std::size_t k = 0; k < runs.size(); ++k) {
        const BackendRun& run = runs[k].run;
        trace.addRep(
            static_cast<unsigned>(k + 1), run.result,
            [&run](std::size_t node) { return node < run.lanes.size() ? run.lanes[node] : -1; },
            runs[k].label);
    }
    for (const auto& [key, value] : metadata.items())
        trace.setMetadata(key, value);
    return {trace.text(), trace.jobEvents()};
}

}  // namespace pullsched::rig
