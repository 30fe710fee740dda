#pragma once
// A closed load on any backend (--mode=closed): each user submits its next job from the
// end of the previous one, so the system's speed sets the rate.

#include "backends/StreamRunner.hpp"
#include "load/LoadRunTypes.hpp"
#include "load/StopRequest.hpp"
#include "pullsched/testchain/ComputationalLoad.hpp"

namespace pullsched::rig {

/// Starts `backend` with cfg.workers, runs cfg.users users for cfg.duration (the first
/// cfg.warmup not measured), waits for their last jobs and stops it. A think time needs
/// a native timed start (the job is submitted at its end for now + think); the modes
/// refuse it for the other backends. `backend` must not have been started.
LoadRunResult runClosedLoad(StreamRunner& backend, const ClosedRunConfig& cfg,
                            const testchain::ComputationalLoad& load,
                            const StopRequest* stop = nullptr);

}  // namespace pullsched::rig
