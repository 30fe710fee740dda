#pragma once
// Start lateness of load-test jobs, recorded by the jobs themselves from any thread.

#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "measure/LatencyHistogram.hpp"

namespace pullsched::rig {

/// Histograms striped by the recording thread: a backend's worker threads are unknown to
/// the rig (oneTBB, OpenMP, Asio and the pool do not number them), so each thread records
/// into the stripe its id hashes to, behind that stripe's mutex — uncontended unless two
/// workers share a stripe. Every stripe is pre-sized, so recording never allocates;
/// harvest() merges and resets them, which is how per-interval histograms rotate while
/// jobs keep running.
class LatencyRecorder {
  public:
    /// At least `threads` stripes (rounded up to a power of two, at most 256).
    explicit LatencyRecorder(unsigned threads);

    void record(std::chrono::nanoseconds lateness);
    /// Adds every stripe's histogram to `into` and resets them.
    void harvest(LatencyHistogram& into);

  private:
    struct alignas(64) Stripe {
        std::mutex mutex;
        LatencyHistogram histogram;
    };
    std::vector<std::unique_ptr<Stripe>> stripes_;
};

}  // namespace pullsched::rig
