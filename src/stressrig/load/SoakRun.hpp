#pragma once
// A soak: moderate open load for a long time on one scheduler, measured interval by
// interval.

#include <chrono>
#include <cstdint>
#include <functional>
#include <vector>

#include "analysis/SoakAnalysis.hpp"
#include "load/IntervalRow.hpp"
#include "load/LoadRuns.hpp"
#include "load/StopRequest.hpp"
#include "measure/LatencyHistogram.hpp"
#include "pullsched/testchain/ComputationalLoad.hpp"

#include "load/Placement.hpp"

namespace pullsched::rig {

struct SoakRunConfig {
    ArrivalConfig arrivals;  ///< Poisson intervals use seed + interval index
    unsigned workers = 2;
    Placement placement = Placement::Spread;  ///< where pullsched's workers run
    Duration jobLoad{500'000};
    Duration duration{std::chrono::minutes{10}};
    Duration interval{std::chrono::seconds{10}};
    Duration warmup{0};                                       ///< arrivals before it not measured
    Duration deadlineWindow{std::chrono::milliseconds{100}};  ///< 0 = no deadlines
    Duration lateLimit{std::chrono::milliseconds{1}};         ///< later starts are misses
};

struct SoakRunResult {
    std::vector<IntervalRow> rows;  ///< complete intervals only
    std::size_t plannedIntervals = 0;
    std::uint64_t posted = 0, measured = 0, completed = 0, expired = 0, failed = 0, cancelled = 0;
    LatencyHistogram lateness{};  ///< every measured job of the complete intervals
    bool drained = true;
    bool interrupted = false;
    Duration generatorCpu{0};
};

/// Memory stays flat however long it runs: the scheduler pools its job records, the
/// arrivals are generated one interval at a time, lateness goes into pre-sized
/// per-worker histograms harvested at every interval boundary, and per interval only one
/// small row is kept. `onInterval(row, done, planned)` is called after each interval.
/// A stop request ends the run within ~0.3 s with the complete intervals so far.
SoakRunResult runSoak(
    const SoakRunConfig& cfg, const testchain::ComputationalLoad& load,
    const StopRequest* stop = nullptr,
    const std::function<void(const IntervalRow&, std::size_t, std::size_t)>& onInterval = {});

}  // namespace pullsched::rig
