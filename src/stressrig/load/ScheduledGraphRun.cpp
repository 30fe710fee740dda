#include "load/ScheduledGraphRun.hpp"

#include <fmt/format.h>

#include "cli/StopRequest.hpp"

namespace pullsched::rig {

std::string correctnessFailure(const testchain::RunResult& r) {
    if (!r.error.empty()) return r.error;
    if (r.timedOut)
        return fmt::format("run timed out with {} of {} jobs completed", r.completedJobs, r.nodes);
    if (r.failed > 0) return fmt::format("{} of {} jobs failed", r.failed, r.nodes);
    if (runComplete(r) && !r.hashOk)
        return fmt::format("hash mismatch: got 0x{:016X}, expected 0x{:016X}", r.actualHash,
                           r.expectedHash);
    return {};
}

ScheduledGraphRuns runScheduledGraph(Scheduler& scheduler, const testchain::TestChainGraph& graph,
                                     const testchain::LevelSchedule& schedule,
                                     const testchain::RunnerConfig& config, std::size_t reps,
                                     const StopRequest& stop) {
    ScheduledGraphRuns out;
    testchain::ScheduleRunner runner(scheduler, graph, schedule, config);
    for (std::size_t i = 0; i < reps; ++i) {
        if (stop.requested()) {
            out.interrupted = true;
            break;
        }
        out.runs.push_back(runner.run());
        out.failure = correctnessFailure(out.runs.back());
        if (!out.failure.empty()) break;
    }
    return out;
}

}  // namespace pullsched::rig
