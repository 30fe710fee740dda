#pragma once
// Plays one open-load timetable on any backend (--mode=open, closed's comparison run):
// the same arrivals, job body, worker count and deadline window for every backend.
// Lateness is taken by each job at its start, from its *intended* start in the timetable,
// so the generator's delays count against the system (no coordinated omission).

#include <string>

#include "backends/StreamRunner.hpp"
#include "load/LoadRunTypes.hpp"
#include "load/StopRequest.hpp"
#include "pullsched/testchain/ComputationalLoad.hpp"

namespace pullsched::rig {

/// One backend's run, in the form the open mode reports.
struct StreamRunResult {
    std::string backend;
    StartTimes arrivalTimes = StartTimes::Native;
    LoadRunResult load;
    bool exactlyOnce() const noexcept { return load.missed == 0 && load.repeated == 0; }
};

/// Starts `backend` with cfg.workers, plays the timetable (constant, Poisson or staged),
/// drains and stops it; with cfg.interval > 0 also interval by interval. A stop request
/// ends the play early (result interrupted, partial). `backend` must not have been
/// started.
StreamRunResult runOpenLoad(StreamRunner& backend, const OpenLoadConfig& cfg,
                            const testchain::ComputationalLoad& load,
                            const StopRequest* stop = nullptr);

/// The same on explicit offsets (sorted, from the run's origin), for tests.
StreamRunResult playOpenLoad(StreamRunner& backend, const std::vector<Duration>& offsets,
                             const OpenLoadConfig& cfg, const testchain::ComputationalLoad& load,
                             const StopRequest* stop = nullptr);

}  // namespace pullsched::rig
