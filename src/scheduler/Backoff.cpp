#include "detail/Backoff.hpp"

#include <algorithm>

namespace pullsched::detail {

Backoff::Backoff(const BackoffConfig& cfg, std::uint64_t seed) noexcept
    : cfg_(cfg), rng_(seed | 1) {}

BackoffStep Backoff::stepFor(const BackoffConfig& cfg, unsigned level, unsigned r) noexcept {
    if (level <= cfg.spinLevels) return {level, Duration::zero()};
    const unsigned exponent = std::min(level, cfg.maxExponent) - cfg.spinLevels - 1;
    const Duration base = cfg.sleepBase + cfg.jitterStep * r;
    return {0, base * (1u << exponent)};
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
