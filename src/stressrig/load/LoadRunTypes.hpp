#pragma once
// What one open, closed, held-rate or soak measurement is given and produces, on any
// backend (methodology: open vs closed load, stable / burst / failure steps). Modes turn
// their options into these configurations; the stream drivers in backends/ play them.

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/LoadClassifier.hpp"
#include "load/ArrivalConfig.hpp"
#include "load/IntervalRow.hpp"
#include "load/Placement.hpp"
#include "measure/LatencyHistogram.hpp"
#include "measure/MeasuredJob.hpp"
#include "measure/ProcessSampler.hpp"
#include "pullsched/scheduler/Time.hpp"

namespace pullsched::rig {

/// What every open load plays, on every backend.
struct OpenLoadConfig {
    ArrivalConfig arrivals;
    unsigned workers = 2;
    Placement placement = Placement::Spread;  ///< where pullsched's workers run
    Duration jobLoad{500'000};
    Duration duration{std::chrono::seconds{5}};
    Duration warmup{std::chrono::milliseconds{500}};
    /// > 0: measure interval by interval (LoadRunResult::intervals), as --stages does
    Duration interval{0};
    Duration lateLimit{std::chrono::milliseconds{1}};  ///< per interval: later starts are misses
    Duration deadlineWindow{std::chrono::milliseconds{100}};  ///< 0 = no deadlines
    /// A backlog left after the timetable may take this long to clear (at least twice the
    /// deadline window, when deadlines bound it sooner).
    Duration drainLimit{std::chrono::seconds{2}};
    /// The first this many arrivals keep their start, end and thread for a trace
    /// (LoadRunResult::traced); 0: none.
    std::size_t tracedArrivals = 0;
};

/// A closed load: each user posts its next job when the previous one is done (after
/// think); latency is measured from the actual submission.
struct ClosedRunConfig {
    unsigned users = 4;
    unsigned workers = 2;
    Placement placement = Placement::Spread;  ///< where pullsched's workers run
    Duration jobLoad{500'000};
    Duration think{0};
    Duration duration{std::chrono::seconds{5}};
    Duration warmup{std::chrono::milliseconds{500}};
    /// The first this many submissions keep their start, end and thread for a trace
    /// (LoadRunResult::traced); 0: none.
    std::size_t tracedArrivals = 0;
};

/// Everything one open or closed measurement produced.
struct LoadRunResult {
    std::string method;      ///< "open" or "closed"
    double offeredRate = 0;  ///< jobs/s of the timetable (closed: = achieved)
    /// completions in the measured span / the span; NaN if the span is empty (closed: also
    /// when no job completed in it)
    double achievedRate = 0;
    std::uint64_t completedInSpan = 0;  ///< closed: jobs that ended inside the measured span
    /// closed: the span could not hold one job (see loadtest::windowThroughput)
    bool spanTooShort = false;
    std::uint64_t posted = 0, measured = 0, completed = 0, expired = 0, failed = 0, cancelled = 0;
    std::uint64_t postedLate = 0;
    /// The traced arrivals that ran (OpenLoadConfig's, ClosedRunConfig's tracedArrivals),
    /// in start order.
    std::vector<MeasuredJob> traced;
    /// Arrivals whose body never ran although nothing dropped or skipped them, and those
    /// that ran more than once (open loads check every arrival; a correct backend: 0, 0).
    std::uint64_t missed = 0, repeated = 0;
    LatencyHistogram lateness{};
    Duration span{0};  ///< measured span (after warm-up) the rate refers to
    Duration wall{0};  ///< whole run incl. warm-up and drain
    bool drained = true;
    bool interrupted = false;  ///< stopped early on a stop request
    double cpuPercent = 0;     ///< process CPU over the run, 100 = one core
    double generatorCpuPercent = 0;
    std::uint64_t rssMaxBytes = 0;
    std::uint64_t maxBacklog = 0;
    std::vector<ProcessSample> samples;  ///< queueDepth = backlog
    /// Interval by interval when OpenLoadConfig::interval > 0; empty otherwise.
    std::vector<IntervalRow> intervals;
};

/// One held step of offered load (sweep, headroom): a fresh backend, `rate` for `hold`
/// (the first `warm` not measured), then a drain of at most `drainLimit`.
struct RateStepConfig {
    ArrivalConfig arrivals;
    unsigned workers = 2;
    Placement placement = Placement::Spread;  ///< where pullsched's workers run
    Duration jobLoad{500'000};
    Duration hold{std::chrono::seconds{2}};
    Duration warm{0};
    Duration drainLimit{std::chrono::seconds{2}};
    Duration deadlineWindow{std::chrono::milliseconds{100}};
    /// The first this many arrivals keep their start, end and thread for a trace
    /// (StepResult::traced); 0: none.
    std::size_t tracedArrivals = 0;
};
struct StepResult {
    StepMeasurement m;  ///< for the LoadClassifier
    LatencyHistogram lateness{};
    double cpuPercent = 0;       ///< process CPU over the hold, 100 = one core
    std::uint64_t rssBytes = 0;  ///< at the end of the hold
    Duration drainTime{0};
    std::uint64_t measured = 0;
    std::uint64_t postedLate = 0;
    bool interrupted = false;
    /// The traced arrivals that ran (RateStepConfig::tracedArrivals), in start order.
    std::vector<MeasuredJob> traced;
};

}  // namespace pullsched::rig
