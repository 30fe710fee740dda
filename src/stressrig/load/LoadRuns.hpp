#pragma once
// One open, closed or held-rate measurement on a fresh scheduler (methodology: open vs
// closed load, stable / burst / failure steps). Modes turn their options into these
// configurations; nothing here reads the command line.

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/LoadClassifier.hpp"
#include "load/ArrivalTimetable.hpp"
#include "load/IntervalRow.hpp"
#include "load/RateProfile.hpp"
#include "load/StopRequest.hpp"
#include "measure/LatencyHistogram.hpp"
#include "measure/ProcessSampler.hpp"
#include "pullsched/testchain/ComputationalLoad.hpp"

#include "load/Placement.hpp"
#include "pullsched/scheduler/Time.hpp"

namespace pullsched::rig {

/// Arrival process of an open load.
struct ArrivalConfig {
    double rate = 1000;                ///< jobs per second
    std::string arrival = "constant";  ///< constant | poisson
    std::uint64_t seed = 42;           ///< Poisson arrivals
    /// --stages: the rate changes over time (then `rate` is unused)
    std::optional<RateProfile> profile;

    /// The offered rate at `t`: the profile's, else the constant rate.
    double rateAt(Duration t) const { return profile ? profile->rateAt(t) : rate; }
    /// The mean offered rate over [from, to).
    double meanRate(Duration from, Duration to) const {
        return profile ? profile->meanRate(from, to) : rate;
    }
};
/// The arrivals of [0, duration).
ArrivalTimetable makeTimetable(const ArrivalConfig& a, Duration duration);
/// The arrivals of the window [from, to) of the load, offsets relative to `from`; a
/// constant rate starts afresh in every window (as soak intervals do), a profile's
/// arrivals are the profile's own in that window. Poisson uses `seed` as given.
ArrivalTimetable makeTimetable(const ArrivalConfig& a, Duration from, Duration to);

/// What every open load plays, on pullsched's driver or on any backend's stream runner.
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
};

/// An open load on pullsched's instrumented driver.
struct OpenRunConfig : OpenLoadConfig {
    Duration deadlineWindow{std::chrono::milliseconds{100}};  ///< 0 = no deadlines
};

struct ClosedRunConfig {
    unsigned users = 4;
    unsigned workers = 2;
    Placement placement = Placement::Spread;  ///< where pullsched's workers run
    Duration jobLoad{500'000};
    Duration think{0};
    Duration duration{std::chrono::seconds{5}};
    Duration warmup{std::chrono::milliseconds{500}};
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

LoadRunResult runOpenLoad(const OpenRunConfig& cfg, const testchain::ComputationalLoad& load,
                          const StopRequest* stop = nullptr);
/// Each of cfg.users posts its next job when the previous one is done (after think);
/// latency is measured from the actual submission.
LoadRunResult runClosedLoad(const ClosedRunConfig& cfg, const testchain::ComputationalLoad& load,
                            const StopRequest* stop = nullptr);

/// One held step of offered load (sweep, headroom): a fresh scheduler, `rate` for
/// `hold` (the first `warm` not measured), then a drain of at most `drainLimit`.
struct RateStepConfig {
    ArrivalConfig arrivals;
    unsigned workers = 2;
    Placement placement = Placement::Spread;  ///< where pullsched's workers run
    Duration jobLoad{500'000};
    Duration hold{std::chrono::seconds{2}};
    Duration warm{0};
    Duration drainLimit{std::chrono::seconds{2}};
    Duration deadlineWindow{std::chrono::milliseconds{100}};
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
};
StepResult runRateStep(const RateStepConfig& cfg, const testchain::ComputationalLoad& load,
                       const StopRequest* stop = nullptr);

}  // namespace pullsched::rig
