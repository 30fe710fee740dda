#pragma once
// Maximum-likelihood logistic fit of per-run pass/fail outcomes over stress: the stress at
// which half of the runs fail, with a profile-likelihood confidence interval.

#include <cstddef>
#include <span>
#include <string>

#include "analysis/SampleStatistics.hpp"

namespace pullsched::rig {

/// The runs made at one stress and how many of them failed.
struct StressOutcomes {
    double stress = 0;  ///< > 0
    std::size_t runs = 0;
    std::size_t failed = 0;  ///< ≤ runs
};

/// P(fail | s) = 1 / (1 + exp(−slope · (ln s − ln s50))), fitted by maximum likelihood to
/// the outcomes of all runs (binomial counts per stress). s50, the stress at which half of
/// the runs fail, is the statistical breaking stress. The model is in ln s because stress
/// is positive and the search scales it by factors; slope ≥ 0 because failing cannot get
/// rarer as the schedule gets tighter.
///
/// The interval is the profile-likelihood interval: every s50 whose best fit (over the
/// slope) lies within χ²₁(0.95) / 2 = 1.92 log-likelihood units of the overall best. Unlike
/// a Wald (delta-method) interval it stays valid for sharp transitions, where every run
/// below some stress holds and every run above fails (separation): the likelihood is then
/// maximal anywhere in the gap, the estimate is the gap's geometric midpoint, the slope is
/// infinite, and the interval covers the gap plus what the neighbouring probes allow.
///
/// The interval is searched up to a factor of 4 beyond the probed stresses; an end
/// beyond that is missing (the data do not bound it). Degenerate data (no failed run, no
/// run that held, a single stress, failing not growing with stress, or the 50 % point
/// outside the probed stresses) give fitted = false with the reason.
struct FailFractionFit {
    bool fitted = false;
    std::string reason;  ///< why not fitted
    double stress50 = kMissing;
    double low = kMissing;  ///< 95 % interval; missing where the data do not bound it
    double high = kMissing;
    double slope = kMissing;  ///< per unit of ln stress; +inf when separated
    bool separated = false;
    double logLikelihood = kMissing;  ///< at the estimate
    std::size_t runs = 0, failed = 0, stresses = 0;

    /// The fitted probability that a run at `stress` fails; missing if not fitted.
    double failProbability(double stress) const;

    /// χ²₁ 95 % quantile: the interval's likelihood-ratio bound.
    static constexpr double kChiSquare95 = 3.841458820694124;

    /// Entries with runs == 0 are ignored. std::invalid_argument for stress ≤ 0 (or not
    /// finite) or failed > runs.
    static FailFractionFit fit(std::span<const StressOutcomes> data);
    /// max over slope ≥ 0 of the log-likelihood with s50 fixed (the limit for an infinite
    /// slope included).
    static double profileLogLikelihood(std::span<const StressOutcomes> data, double stress50);
};

}  // namespace pullsched::rig
