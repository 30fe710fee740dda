#pragma once
// Stable / burst / failure classification of the steps of an offered-rate sweep.

#include <chrono>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace pullsched::rig {

enum class LoadClass { Stable, Burst, Failure };

std::string_view toString(LoadClass c) noexcept;  ///< "stable", "burst", "failure"

/// What one sweep step measured. Backlog = jobs released but not yet started.
struct StepMeasurement {
    double offeredRate = 0;   ///< jobs/s the timetable offered
    double achievedRate = 0;  ///< jobs/s completed during the hold
    double backlogStart = 0;  ///< backlog when the hold began
    double backlogEnd = 0;    ///< backlog when the hold ended
    /// Backlog after the drain period that follows the hold, if measured.
    std::optional<double> backlogAfterDrain;
    /// Explicit verdict of the drain phase; takes precedence over backlogAfterDrain.
    std::optional<bool> drained;
    /// p99 start lateness of the measured jobs; nullopt when no job was measured (a
    /// missing value, not 0: a step without data is never "stable").
    std::optional<std::chrono::nanoseconds> latenessP99;
    /// Samples behind latenessP99, if known: below 100 the "p99" is the maximum, and the
    /// reason says so.
    std::optional<std::uint64_t> latenessSamples;
    std::uint64_t jobs = 0;      ///< jobs offered in the step (for the drop fraction)
    std::uint64_t drops = 0;     ///< jobs dropped (expired: missed their deadline) or cancelled
    std::uint64_t failures = 0;  ///< jobs that failed (threw, wrong result)
};

struct ClassifierLimits {
    std::chrono::nanoseconds latenessLimit = std::chrono::milliseconds{1};
    /// Drops above this fraction of `jobs` rule out Stable (when jobs is 0: any drop).
    double dropThreshold = 0.001;
    /// Failure when drops exceed max(dropFraction, dropThreshold) of `jobs` (or, when
    /// jobs is 0, when any drop occurs).
    double dropFraction = 0.01;
    /// Failure when more than this many jobs failed.
    std::uint64_t maxFailures = 0;
    /// Backlog (jobs) regarded as bounded: at the end of a stable hold, and after the
    /// drain period of a burst.
    double backlogBound = 100;
    /// Completions "keep up" when achieved ≥ keepUpRatio · offered.
    double keepUpRatio = 0.95;
};

struct StepVerdict {
    LoadClass loadClass = LoadClass::Stable;
    std::string reason;  ///< why, in words, e.g. "p99 lateness 2.1ms > 1ms"
};

/// Summary of a sweep. Steps are taken in increasing offered rate; the stable and
/// burst levels only count below the first failure (a system that failed once is
/// not "stable" at a higher rate by luck). `consistent` is false when a step above
/// the first failure was not a failure, or a stable step lay above a burst step.
struct SweepSummary {
    std::optional<double> highestStable;
    std::optional<double> highestBurst;
    std::optional<double> firstFailure;
    bool consistent = true;
};

/// Rules, checked in this order:
/// 1. Failure: failures > maxFailures; or drops over the threshold; or the backlog did
///    not drain (drained == false, else backlogAfterDrain > backlogBound, else — no drain
///    phase measured — backlogEnd > backlogBound and growing over the hold).
/// 2. Stable: achieved ≥ keepUpRatio·offered, backlogEnd ≤ backlogBound,
///    latenessP99 ≤ latenessLimit and drops ≤ dropThreshold·jobs; a missing achieved rate
///    (NaN) or lateness (nullopt) is not within a limit.
/// 3. Burst: everything else — something exceeded a stable limit but the backlog drains.
class LoadClassifier {
  public:
    explicit LoadClassifier(ClassifierLimits limits = {}) : limits_(limits) {}

    StepVerdict classify(const StepMeasurement& step) const;
    SweepSummary summarize(std::span<const StepMeasurement> steps) const;
    const ClassifierLimits& limits() const noexcept { return limits_; }

  private:
    ClassifierLimits limits_;
};

/// Why a step may show more achieved than offered, naming the steps that do ("1.00k/s at
/// 2 W"; step i ran on workers[i]): achieved counts the jobs completed in the measured
/// interval, which include a backlog left from the warm-up, and random arrivals exceed
/// their mean in some intervals. Empty when no step achieved more than it was offered.
std::string achievedAboveOfferedNote(std::span<const StepMeasurement> steps,
                                     std::span<const unsigned> workers, bool randomArrivals);

}  // namespace pullsched::rig
