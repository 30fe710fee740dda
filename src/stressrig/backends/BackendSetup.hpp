#pragma once
// Everything a backend's graph run needs besides the graph, and the one factory that
// makes it from the rig's options (as schedulerConfig() does for the scheduler).

#include <chrono>
#include <cstddef>
#include <optional>

#include "load/Placement.hpp"
#include "pullsched/testchain/ComputationalLoad.hpp"
#include "pullsched/testchain/Duration.hpp"
#include "pullsched/testchain/LevelSchedule.hpp"
#include "pullsched/testchain/StopCheck.hpp"
#include "pullsched/testchain/WeightPolicy.hpp"

namespace pullsched {
class Observer;
}

namespace pullsched::rig {

/// Fixed between GraphRunner::prepare() calls.
struct BackendSetup {
    /// Threads that run the jobs, the same count for every backend (oneTBB: arena slots,
    /// the caller's included; pullsched with planInRun: workers - 1 and the caller helping
    /// in drain(), see helpingCallerConfig; otherwise workers, the caller asleep).
    unsigned workers = 2;
    testchain::Duration timeBase = std::chrono::microseconds{100};  ///< busy time per unit weight
    std::optional<testchain::ComputationalLoad> load{};  ///< calibrated; nullopt = empty jobs
    testchain::WeightPolicy policy = testchain::WeightPolicy::Raw;
    /// Start times per node. nullopt = as fast as possible: every start at 0, no waiting.
    std::optional<testchain::LevelSchedule> schedule{};
    /// As fast as possible only: the backend builds its own graph inside run()'s timed
    /// region (pullsched posts every node in batches, oneTBB constructs its nodes and edges), so a
    /// run's time is planning + execution, what a program that plans as it goes pays.
    /// Off: the graph is built in prepare() and a run times execution alone.
    bool planInRun = false;
    /// As fast as possible without planInRun, backends with
    /// BackendInfo::submitsPrebuiltBatch only: the graph is built into one PostBatch before
    /// the clock starts and submitted when it starts, instead of posted behind a timed gate
    /// (the same jobs, threads and checks: what the gate costs).
    bool prebuiltBatch = false;
    /// P of RunResult::lowerBound = max(work / P, critical path); 0 = workers.
    std::size_t parallelism = 0;
    /// Wall-clock limit of one run; a run over it is timedOut and the backend broken.
    testchain::Duration completionLimit = std::chrono::seconds{60};
    /// Backends with BackendInfo::deadlines only: deadline = start + the schedule's life
    /// window (the others cannot expire a job). Off by default so that all run the same work.
    bool deadlines = false;
    /// Instrumented backends with a schedule: nodes one planning job posts (0: the
    /// runner's default). A load peak posted by one planning job is the whole peak.
    std::size_t planningChunk = 0;
    /// Backends with BackendInfo::placement only: where the workers run.
    Placement placement = Placement::Spread;
    /// Polled while a run goes on: once it asks, jobs that have not begun skip their work,
    /// the run ends early with result.interrupted, and the runner is spent.
    testchain::StopPredicate stop{};
    /// Instrumented backends only: an observer of the scheduler (e.g. the rig's
    /// RunInstrument); must outlive the runner. Job tags are node ids (planning jobs carry
    /// a high tag bit).
    Observer* observer = nullptr;
};

/// `workers` placed as `placement` says, each job `timeBase` × its weight of `load`, the
/// lower bound's parallelism; no schedule (as fast as possible), no deadlines, no stop.
BackendSetup backendSetup(unsigned workers, Placement placement, testchain::Duration timeBase,
                          std::optional<testchain::ComputationalLoad> load,
                          testchain::WeightPolicy policy, std::size_t parallelism);

}  // namespace pullsched::rig
