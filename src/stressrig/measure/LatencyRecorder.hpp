#pragma once
// Start lateness of load-test jobs, recorded by the scheduler's observer into one
// histogram per worker.

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "measure/LatencyHistogram.hpp"
#include "pullsched/scheduler/Observer.hpp"

namespace pullsched::rig {

/// Tag bit of jobs whose lateness counts (posted after the warm-up).
inline constexpr std::uint64_t kMeasuredTag = std::uint64_t{1} << 62;

/// Observer recording the start lateness (dispatch time − JobOptions::start) of every
/// job tagged kMeasuredTag into a histogram of the worker that ran it. Each worker has
/// its own pre-sized histogram behind its own (uncontended) mutex, so recording never
/// allocates and never shares a cache line; harvest() merges and resets them, which is
/// how the soak mode rotates per-interval histograms while jobs keep running.
class LatencyRecorder final : public pullsched::Observer {
  public:
    explicit LatencyRecorder(unsigned workers);
    void onJobStart(unsigned worker, const pullsched::JobEvent& e) override;

    /// Adds every worker's histogram to `into` and resets them.
    void harvest(LatencyHistogram& into);
    /// Jobs started so far (measured or not).
    std::uint64_t started() const noexcept;

  private:
    struct alignas(64) Slot {
        std::mutex mutex;
        LatencyHistogram histogram;
        std::atomic<std::uint64_t> started{0};
    };
    std::vector<std::unique_ptr<Slot>> slots_;
};

}  // namespace pullsched::rig
