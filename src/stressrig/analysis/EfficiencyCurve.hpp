#pragma once
// Efficiency over job size, and the minimum effective task granularity (METG) read from
// it: the smallest job size at which a scheduler still reaches a given efficiency
// (50 % by default), after Task Bench (Slaughter et al., SC 2020).

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "analysis/SampleStatistics.hpp"

namespace pullsched::rig {

/// How far a run is from the best any schedule could do on `parallelism` workers:
/// max(work / parallelism, critical path) / makespan. Work and critical path come from the
/// graph and the calibrated body (weight × job size), so a body that runs slower or a
/// scheduler that idles both lower it. kMissing when the makespan is missing or not
/// positive. Not clamped: above 1 the body ran faster than calibrated.
double runEfficiency(double workUs, double criticalPathUs, unsigned parallelism, double makespanUs);

/// One size of the curve; efficiency kMissing: not measured (left out, never 0).
struct EfficiencyPoint {
    double jobSizeUs = 0;  ///< time per unit weight of a job
    double efficiency = kMissing;
};

/// Where the curve crosses the threshold.
///
/// Definition: METG is the smallest size from which on every measured larger size
/// reaches the threshold, i.e. the *last* upward crossing found scanning sizes upward
/// (equivalently the first miss found scanning downward from the largest size). The
/// size is interpolated between the two bracketing sizes, linearly in efficiency over
/// log(size). The last crossing is chosen because it is the claim a user can rely on
/// ("jobs this large or larger are run at ≥ 50 %"): a single lucky point at a small size
/// cannot make it look better than it is. `firstReachedUs` keeps the optimistic reading
/// (the smallest size measured at or above the threshold) and `nonMonotonic` says when
/// the two readings differ because noise crossed the threshold more than once.
struct Metg {
    enum class Kind {
        Interpolated,       ///< valueUs between two measured sizes
        AtOrBelowSmallest,  ///< every measured size reaches it: METG ≤ boundUs
        AboveLargest,       ///< the largest measured size misses it: METG > boundUs
        NoData,             ///< no size was measured
    };
    Kind kind = Kind::NoData;
    double threshold = 0.5;
    double valueUs = kMissing;  ///< only for Interpolated
    double boundUs = kMissing;  ///< smallest (AtOrBelowSmallest) or largest (AboveLargest) size
    double belowUs = kMissing;  ///< bracket: the largest size that misses (Interpolated)
    double aboveUs = kMissing;  ///< bracket: the next measured size, which reaches it
    double firstReachedUs = kMissing;  ///< smallest measured size that reaches it
    bool nonMonotonic = false;         ///< a miss lies above a size that reached it
    std::size_t measured = 0;          ///< sizes with an efficiency

    /// "interpolated", "at_or_below_smallest", "above_largest", "no_data".
    std::string kindName() const;
};

/// Efficiency per job size, sorted by size; missing points kept for the tables but
/// skipped by the analysis.
class EfficiencyCurve {
  public:
    /// Sizes must be positive and distinct (std::invalid_argument otherwise).
    explicit EfficiencyCurve(std::vector<EfficiencyPoint> points);

    const std::vector<EfficiencyPoint>& points() const noexcept { return points_; }

    /// METG at `threshold` (in (0, 1]).
    Metg metg(double threshold = 0.5) const;

    /// The sweep may stop: the last `window` measured sizes all reach `threshold` and
    /// their efficiencies lie within `tolerance` of each other (absolute), so larger
    /// jobs would only confirm the plateau.
    bool saturated(double threshold = 0.5, std::size_t window = 3, double tolerance = 0.05) const;

  private:
    std::vector<EfficiencyPoint> points_;
};

}  // namespace pullsched::rig
