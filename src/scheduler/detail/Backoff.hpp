#pragma once
// Contention backoff: what a worker does after losing the race for the grooming token.
// Short spins first (the holder is usually done within microseconds), then exponential
// sleeps; every success halves the level, so one unlucky hit is forgotten quickly
// (the reference's "reduced stickiness": a decrement by one kept workers away for ms).

#include <cstdint>

#include "pullsched/scheduler/Config.hpp"
#include "pullsched/scheduler/Time.hpp"

namespace pullsched::detail {

struct BackoffStep {
    unsigned spinRounds = 0;  ///< rounds of a short busy loop, each followed by a yield
    Duration sleep{0};        ///< zero: do not sleep
};

class Backoff {
  public:
    Backoff(const BackoffConfig& cfg, std::uint64_t seed) noexcept;

    /// The step for level n (before increment) and jitter r in 0..10:
    /// n <= spinLevels: n spin rounds; else sleep (base + jitterStep*r) * 2^(min(n,maxExp) -
    /// spinLevels - 1).
    static BackoffStep stepFor(const BackoffConfig& cfg, unsigned level, unsigned r) noexcept;

    /// Contention happened: the step to take now; the level rises (up to maxLevel).
    BackoffStep onContention() noexcept;
    /// Any other outcome: halve the level.
    void onSuccess() noexcept { level_ /= 2; }

    unsigned level() const noexcept { return level_; }

  private:
    unsigned nextJitter() noexcept;  // 0..10, per-thread pseudo-random

    BackoffConfig cfg_;
    unsigned level_ = 0;
    std::uint64_t rng_;
};

}  // namespace pullsched::detail
