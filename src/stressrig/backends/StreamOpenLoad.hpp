#pragma once
// Plays one open-load timetable on a job-stream backend (--mode=open --backends=...):
// the same arrivals, job body and worker count for every backend. Lateness is taken by
// the rig's own wrapper at the start of each job, from the *intended* start in the
// timetable, so the generator's delays count against the system (no coordinated
// omission) whatever the backend is.

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "backends/StreamRunner.hpp"
#include "load/LoadRuns.hpp"
#include "load/StopRequest.hpp"
#include "pullsched/testchain/ComputationalLoad.hpp"

namespace pullsched::rig {

/// An open load on a backend's stream runner.
struct StreamRunConfig : OpenLoadConfig {
    /// How far ahead a Native backend gets its jobs (covers the generator's scheduling
    /// delays, as in the pullsched open-load driver).
    Duration postAhead{std::chrono::milliseconds{5}};
    /// The generator wakes at least this often (stop requests).
    Duration pollPeriod{std::chrono::milliseconds{1}};
    Duration drainLimit{std::chrono::seconds{2}};
};

/// One backend's run. `load` is in the form the open mode reports (method "open"; no
/// deadlines, so no drops; backlog and RSS are not sampled: 0).
struct StreamRunResult {
    std::string backend;
    StartTimes arrivalTimes = StartTimes::Native;
    LoadRunResult load;
    /// Per arrival: how often its body ran (1 for a correct backend) and its start
    /// lateness in ns (actual − intended; meaningful where executions[i] > 0).
    std::vector<std::uint32_t> executions;
    std::vector<std::int64_t> latenessNs;
    std::uint64_t missed = 0;    ///< arrivals whose body never ran (not counted when interrupted)
    std::uint64_t repeated = 0;  ///< arrivals whose body ran more than once
    bool exactlyOnce() const noexcept { return missed == 0 && repeated == 0; }
};

/// Starts `backend` with cfg.workers, plays the timetable (constant or Poisson), drains
/// and stops it. A stop request ends the play early (result interrupted, partial).
/// `backend` must not have been started.
StreamRunResult runStreamOpenLoad(StreamRunner& backend, const StreamRunConfig& cfg,
                                  const testchain::ComputationalLoad& load,
                                  const StopRequest* stop = nullptr);

/// The same on explicit offsets (sorted, from the run's origin); every job's body is
/// `load` for `jobLoad`. For tests and for runStreamOpenLoad.
StreamRunResult playStream(StreamRunner& backend, const std::vector<Duration>& offsets,
                           const StreamRunConfig& cfg, const testchain::ComputationalLoad& load,
                           const StopRequest* stop = nullptr);

}  // namespace pullsched::rig
