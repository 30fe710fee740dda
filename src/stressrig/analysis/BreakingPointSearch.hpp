#pragma once
// The breaking-point search: widen the stress until a probe breaks, then bisect.

#include <cstddef>
#include <optional>

#include "analysis/SampleStatistics.hpp"

namespace pullsched::rig {

/// Which stress to probe next. Starts at `start` (the reference's upper end, 1.7) and
/// doubles it while probes hold, up to `cap`; once a probe broke, it bisects between the
/// highest holding and the lowest broken stress until they are `resolution` apart.
/// Pure bookkeeping: the caller runs the probes and records their verdicts.
class BreakingPointSearch {
  public:
    struct Limits {
        double start = 1.7;
        double cap = 64;
        double resolution = 0.01;
    };

    BreakingPointSearch() : BreakingPointSearch(Limits{}) {}
    explicit BreakingPointSearch(Limits limits);

    /// The stress to probe next; nullopt when the search is over.
    std::optional<double> next() const;
    /// The verdict of the probe at next().
    void record(bool broken);

    bool finished() const noexcept { return finished_; }
    /// A broken probe exists (low() .. high() bracket the breaking stress).
    bool bracketed() const noexcept { return bracketed_; }
    /// Bracketed and narrowed to the resolution.
    bool converged() const noexcept { return bracketed_ && high_ - low_ <= limits_.resolution; }
    double low() const noexcept { return low_; }  ///< highest holding stress (0: none)
    /// Lowest broken stress; missing before a probe broke.
    double high() const noexcept { return bracketed_ ? high_ : kMissing; }
    /// Midpoint of the bracket; missing before a probe broke.
    double estimate() const noexcept { return bracketed_ ? (low_ + high_) / 2 : kMissing; }
    std::size_t probes() const noexcept { return probes_; }
    const Limits& limits() const noexcept { return limits_; }

  private:
    Limits limits_;
    double low_ = 0, high_;
    double next_;
    bool bracketed_ = false, finished_ = false;
    std::size_t probes_ = 0;
};

}  // namespace pullsched::rig
