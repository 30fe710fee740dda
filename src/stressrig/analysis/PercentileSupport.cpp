#include "analysis/PercentileSupport.hpp"

namespace pullsched::rig {

bool percentileSupported(double p, std::uint64_t n) noexcept {
    if (n < 2) return false;
    // 1e-9: p99.9 at exactly 1000 samples must count despite the rounding of 1 − 1/n.
    return p <= 100.0 * (1.0 - 1.0 / static_cast<double>(n)) + 1e-9;
}

}  // namespace pullsched::rig
