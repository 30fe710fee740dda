#include "detail/Backoff.hpp"

#include <algorithm>

namespace pullsched::detail {

Backoff::Backoff(const BackoffConfig& cfg, std::uint64_t seed) noexcept
    : cfg_(cfg), rng_(seed | 1) {}

BackoffStep Backoff::stepFor(const BackoffConfig& cfg, unsigned level, unsigned r) noexcept {
    if (level <= cfg.spinLevels) return {level, Duration::zero()};
    const unsigned exponent = std::min(level, cfg.maxExponent) - cfg.spinLevels - 1;
    // Saturating: a huge configured base sleeps for ever rather than not at all.
    Duration sleep = cfg.sleepBase;
    for (unsigned i = 0; i < r; ++i)
        sleep = saturatingAdd(sleep, cfg.jitterStep);
    for (unsigned i = 0; i < exponent; ++i)
        sleep = saturatingAdd(sleep, sleep);
    return {0, sleep};
}

BackoffStep Backoff::onContention() noexcept {
    const BackoffStep step = stepFor(cfg_, level_, nextJitter());
    level_ = std::min(level_ + 1, cfg_.maxLevel);
    return step;
}

unsigned Backoff::nextJitter() noexcept {
    // xorshift64: cheap, and decorrelates workers seeded differently.
    rng_ ^= rng_ << 13;
    rng_ ^= rng_ >> 7;
    rng_ ^= rng_ << 17;
    return static_cast<unsigned>(rng_ % 11);
}

}  // namespace pullsched::detail
