#pragma once
// A soak on any backend (--mode=soak): moderate open load for a long time, measured
// interval by interval.

#include <chrono>
#include <cstdint>
#include <functional>
#include <vector>

#include "analysis/SoakAnalysis.hpp"
#include "backends/StreamRunner.hpp"
#include "load/ArrivalConfig.hpp"
#include "load/IntervalRow.hpp"
#include "load/Placement.hpp"
#include "load/StopRequest.hpp"
#include "measure/LatencyHistogram.hpp"
#include "measure/MeasuredJob.hpp"
#include "pullsched/testchain/ComputationalLoad.hpp"

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
    /// The first this many arrivals keep their start, end and thread for a trace
    /// (SoakRunResult::traced); 0: none.
    std::size_t tracedArrivals = 0;
};

struct SoakRunResult {
    std::vector<IntervalRow> rows;  ///< complete intervals only
    std::size_t plannedIntervals = 0;
    std::uint64_t posted = 0, measured = 0, completed = 0, expired = 0, failed = 0, cancelled = 0;
    LatencyHistogram lateness{};  ///< every measured job of the complete intervals
    bool drained = true;
    bool interrupted = false;
    Duration generatorCpu{0};
    std::vector<MeasuredJob> traced;  ///< the traced arrivals that ran, in start order
};

/// Memory stays flat however long it runs (as far as the backend's own does): the
/// arrivals are generated one interval at a time, lateness goes into pre-sized striped
/// histograms harvested at every interval boundary, and per interval only one small row
/// is kept. `onInterval(row, done, planned)` is called after each interval. A stop
/// request ends the run within ~0.3 s with the complete intervals so far. `backend` must
/// not have been started.
SoakRunResult runSoak(
    StreamRunner& backend, const SoakRunConfig& cfg, const testchain::ComputationalLoad& load,
    const StopRequest* stop = nullptr,
    const std::function<void(const IntervalRow&, std::size_t, std::size_t)>& onInterval = {});

}  // namespace pullsched::rig
