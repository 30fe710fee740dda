#include "analysis/MannWhitney.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace pullsched::rig {

namespace {

constexpr std::size_t kExactLimit = 40;

std::vector<double> present(std::span<const double> values) {
    std::vector<double> r;
    for (double v : values)
        if (!std::isnan(v)) r.push_back(v);
    return r;
}

/// Number of arrangements of n1 + n2 ranks giving each U = 0..n1·n2 (no ties): an
/// arrangement either puts the largest rank in the first sample (it then beats all n2
/// of the second) or in the second.
std::vector<double> exactCounts(std::size_t n1, std::size_t n2) {
    const std::size_t maxU = n1 * n2;
    // counts[i][j][u], kept as two layers over i
    std::vector<std::vector<double>> prev(n2 + 1, std::vector<double>(maxU + 1, 0.0));
    for (std::size_t j = 0; j <= n2; ++j)
        prev[j][0] = 1.0;  // i = 0: one arrangement, U = 0
    for (std::size_t i = 1; i <= n1; ++i) {
        std::vector<std::vector<double>> cur(n2 + 1, std::vector<double>(maxU + 1, 0.0));
        cur[0][0] = 1.0;
        for (std::size_t j = 1; j <= n2; ++j)
            for (std::size_t u = 0; u <= i * j; ++u)
                cur[j][u] = (u >= j ? prev[j][u - j] : 0.0) + cur[j - 1][u];
        prev = std::move(cur);
    }
    return prev[n2];
}

double binomial(std::size_t n, std::size_t k) {
    double r = 1;
    for (std::size_t i = 1; i <= k; ++i)
        r = r * double(n - k + i) / double(i);
    return r;
}

}  // namespace

MannWhitneyResult mannWhitneyU(std::span<const double> aIn, std::span<const double> bIn) {
    const std::vector<double> a = present(aIn), b = present(bIn);
    MannWhitneyResult r;
    r.n1 = a.size();
    r.n2 = b.size();
    if (a.empty() || b.empty()) {
        r.pValue = r.minimumPValue = std::numeric_limits<double>::quiet_NaN();
        return r;
    }
    const double n1 = double(r.n1), n2 = double(r.n2), n = n1 + n2;
    r.minimumPValue = std::min(1.0, 2.0 / binomial(r.n1 + r.n2, r.n1));

    // Mid-ranks of the pooled sample; tie groups for the variance correction.
    std::vector<std::pair<double, int>> pooled;
    for (double v : a)
        pooled.emplace_back(v, 0);
    for (double v : b)
        pooled.emplace_back(v, 1);
    std::sort(pooled.begin(), pooled.end());
    double rankSumA = 0, tieTerm = 0;
    for (std::size_t i = 0; i < pooled.size();) {
        std::size_t j = i;
        while (j < pooled.size() && pooled[j].first == pooled[i].first)
            ++j;
        const double t = double(j - i);
        const double midRank = (double(i + 1) + double(j)) / 2.0;
        for (std::size_t k = i; k < j; ++k)
            if (pooled[k].second == 0) rankSumA += midRank;
        if (t > 1) {
            r.ties = true;
            tieTerm += t * t * t - t;
        }
        i = j;
    }
    r.u1 = rankSumA - n1 * (n1 + 1) / 2.0;

    if (!r.ties && r.n1 + r.n2 <= kExactLimit) {
        r.exact = true;
        const std::vector<double> counts = exactCounts(r.n1, r.n2);
        const double total = binomial(r.n1 + r.n2, r.n1);
        // U's distribution is symmetric about n1·n2/2: take the tail beyond the nearer end.
        const auto u = static_cast<std::size_t>(std::llround(std::min(r.u1, n1 * n2 - r.u1)));
        double tail = 0;
        for (std::size_t k = 0; k <= u; ++k)
            tail += counts[k];
        r.pValue = std::min(1.0, 2.0 * tail / total);
        return r;
    }
    const double mean = n1 * n2 / 2.0;
    const double variance = n1 * n2 / 12.0 * ((n + 1.0) - tieTerm / (n * (n - 1.0)));
    if (variance <= 0) {  // every value equal: no evidence of a difference
        r.pValue = 1.0;
        return r;
    }
    const double z = std::max(0.0, std::abs(r.u1 - mean) - 0.5) / std::sqrt(variance);
    r.pValue = std::min(1.0, std::erfc(z / std::sqrt(2.0)));
    return r;
}

}  // namespace pullsched::rig
