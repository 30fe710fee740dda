#pragma once
// One held step of offered load on any backend (--mode=sweep, --mode=headroom).

#include "backends/StreamRunner.hpp"
#include "load/LoadRunTypes.hpp"
#include "load/StopRequest.hpp"
#include "pullsched/testchain/ComputationalLoad.hpp"

namespace pullsched::rig {

/// Starts `backend` with cfg.workers, offers cfg.arrivals for cfg.hold (the first
/// cfg.warm not measured), drains for at most cfg.drainLimit and stops it: the figures
/// the LoadClassifier judges a step by. `backend` must not have been started.
StepResult runRateStep(StreamRunner& backend, const RateStepConfig& cfg,
                       const testchain::ComputationalLoad& load, const StopRequest* stop = nullptr);

}  // namespace pullsched::rig
