#pragma once
// The job timeline of a scheduled graph run, every rep and every job, as Chrome trace
// JSON (Trace Event Format) for ui.perfetto.dev and chrome://tracing.

#include <cstddef>
#include <functional>
#include <string>

#include <nlohmann/json.hpp>

#include "pullsched/testchain/RunResult.hpp"

namespace pullsched::rig {

/// One process, one track per worker ("worker N"), plus a track "reps" with one span
/// per rep and a track "not run" for the jobs whose body never ran (expired,
/// cancelled). Time zero is the first rep's anchor; reps follow each other in real
/// time. Every node job of every rep is one event whose args carry rep, node, level,
/// weight, state, scheduled_us and (when it ran) lateness_us: a complete event ("X")
/// on its worker's track if it ran, else an instant event at its scheduled start on
/// the "not run" track. The events are in time order (metadata first).
class ScheduledRunTrace {
  public:
    /// `workers`: the scheduler's worker count (one track each, even if idle), the tracks
    /// named "<track> N" ("thread N" where they are the threads that ran jobs, not workers).
    ScheduledRunTrace(std::string title, unsigned workers, std::string track = "worker");

    /// Adds rep `rep`; workerOf(node) is the worker that ran the node (-1: unknown).
    /// A rep without job states (timed out) adds only its span, named `label` ("rep N" if
    /// empty: a mode that traces runs of several kinds names each).
    void addRep(unsigned rep, const testchain::RunResult& run,
                const std::function<int(std::size_t)>& workerOf, const std::string& label = {});
    void setMetadata(const std::string& key, nlohmann::json value);

    std::size_t jobEvents() const noexcept { return jobs_; }
    std::size_t reps() const noexcept { return reps_; }
    nlohmann::json toJson() const;
    std::string text() const { return toJson().dump() + "\n"; }

    /// Track ids: workers are 0..workers−1.
    unsigned notRunTrack() const noexcept { return workers_; }
    unsigned repTrack() const noexcept { return workers_ + 1; }

  private:
    std::string title_;
    unsigned workers_;
    std::string track_;
    nlohmann::json events_ = nlohmann::json::array();
    nlohmann::json metadata_ = nlohmann::json::object();
    bool hasOrigin_ = false;
    pullsched::TimePoint origin_{};
    std::size_t jobs_ = 0, reps_ = 0;
};

}  // namespace pullsched::rig
