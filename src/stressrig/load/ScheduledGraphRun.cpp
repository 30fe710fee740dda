#include "load/ScheduledGraphRun.hpp"

#include <optional>

#include <fmt/format.h>

#include "load/StopRequest.hpp"

namespace pullsched::rig {

std::string correctnessFailure(const testchain::RunResult& r) {
    if (r.interrupted || r.timedOut) return {};
    if (!r.error.empty()) return r.error;
    if (r.failed > 0) return fmt::format("{} of {} jobs failed", r.failed, r.nodes);
    if (runComplete(r) && !r.hashOk)
        return fmt::format("hash mismatch: got 0x{:016X}, expected 0x{:016X}", r.actualHash,
                           r.expectedHash);
    return {};
}

ScheduledGraphRuns runScheduledGraph(Scheduler& scheduler, const testchain::TestChainGraph& graph,
                                     const testchain::LevelSchedule& schedule,
                                     testchain::RunnerConfig config, std::size_t reps,
                                     const StopRequest& stop, const CompletionLimit& limit) {
    ScheduledGraphRuns out;
    config.completionLimit = limit.total();
    config.stop = stop.predicate();
    std::optional<testchain::ScheduleRunner> runner;
    try {
        runner.emplace(scheduler, graph, schedule, config);
    } catch (const testchain::Stopped&) {  // while a large graph was being prepared
        out.interrupted = true;
        return out;
    }
    for (std::size_t i = 0; i < reps; ++i) {
        if (stop.requested()) {
            out.interrupted = true;
            break;
        }
        out.runs.push_back(runner->run());
        const testchain::RunResult& run = out.runs.back();
        if (run.interrupted || run.timedOut) {
            // Jobs of the run are still with the scheduler: cancel what has not started.
            scheduler.shutdown(ShutdownMode::Cancel);
            out.schedulerShutDown = true;
            out.interrupted = run.interrupted;
            const RunFinding f = lateRunFinding(run, limit, scheduler.stats().pending);
            out.failure = f.failure;
            out.late = f.late;
            break;
        }
        out.failure = correctnessFailure(run);
        if (!out.failure.empty()) break;
    }
    return out;
}

}  // namespace pullsched::rig
