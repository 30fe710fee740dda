#pragma once
// Whether two sets of repeated measurements differ beyond their noise: the two-sided
// Mann-Whitney U test (Wilcoxon rank-sum), which assumes nothing about the distribution
// and is the test benchmark tools use to compare repetitions of two builds.

#include <cstddef>
#include <span>

namespace pullsched::rig {

struct MannWhitneyResult {
    std::size_t n1 = 0, n2 = 0;  ///< present values of each sample (NaNs left out)
    /// U of the first sample: pairs (a, b) with a > b, plus half the ties.
    double u1 = 0;
    /// Two-sided p-value: the chance of a U this far from n1·n2/2 if both samples came from
    /// one distribution. NaN when a sample is empty.
    double pValue = 0;
    bool exact = false;  ///< from the exact distribution of U; else the normal approximation
    bool ties = false;   ///< some values occur more than once (across both samples)
    /// The smallest p-value these sample sizes can give (exact, no ties): with fewer
    /// repetitions than that allows, no difference can be shown at a given alpha.
    double minimumPValue = 0;
};

/// The test on `a` and `b`. The exact distribution of U is used when there are no ties
/// and n1 + n2 <= 40 (small enough to count every arrangement); otherwise the normal
/// approximation with the tie correction of the variance and a continuity correction of ½.
MannWhitneyResult mannWhitneyU(std::span<const double> a, std::span<const double> b);

}  // namespace pullsched::rig
