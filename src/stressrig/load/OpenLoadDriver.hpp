#pragma once
// Plays an open (fixed arrival rate) timetable against a scheduler: jobs are posted a
// little ahead of their intended start, since the scheduler is time-based.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>

#include "load/ArrivalTimetable.hpp"
#include "load/StopRequest.hpp"
#include "pullsched/scheduler/Scheduler.hpp"
#include "pullsched/scheduler/Time.hpp"
#include "pullsched/testchain/ComputationalLoad.hpp"

namespace pullsched::rig {

struct OpenPlayConfig {
    Duration jobLoad{0};         ///< busy work per job
    Duration warmup{0};          ///< arrivals before this offset are not measured
    Duration deadlineWindow{0};  ///< deadline = intended + window; 0 = no deadline
    /// Posting ahead lets the scheduler start a job on time although the generator thread
    /// may be descheduled; 5 ms covers the OS's usual scheduling delays here.
    Duration postAhead = std::chrono::milliseconds{5};
    Duration pollPeriod = std::chrono::milliseconds{1};
};

/// The deadline of a job intended to start at `start`: start + window, saturated (a start
/// near TimePoint::max() must not wrap into the past), or none for a window ≤ 0.
pullsched::TimePoint jobDeadline(pullsched::TimePoint start, Duration window) noexcept;

/// Lateness is measured by the scheduler's observer (LatencyRecorder) from the intended
/// start, so the generator's own delays count against the system (no coordinated
/// omission); jobs the generator posted only after their intended start are counted as
/// postedLate.
class OpenLoadDriver {
  public:
    using Tick = std::function<void(pullsched::TimePoint now)>;

    /// `stop` (optional) ends play() and drain() early.
    OpenLoadDriver(pullsched::Scheduler& scheduler, const testchain::ComputationalLoad& load,
                   OpenPlayConfig config, const StopRequest* stop = nullptr);

    /// Posts all arrivals of `tt` (shifted by base) and returns once the last one is
    /// due (or a stop was requested: stopped() is then true). `tick` is called after
    /// every batch.
    void play(const ArrivalTimetable& tt, Duration base, pullsched::TimePoint origin,
              const Tick& tick = {});
    /// Waits until every posted job reached a final state, at most `limit`; true if so.
    bool drain(Duration limit, const Tick& tick = {});

    /// Due jobs not yet started (queue depth minus the jobs posted ahead), updated every poll.
    std::int64_t backlog() const noexcept { return backlog_.load(std::memory_order_relaxed); }
    std::uint64_t posted() const noexcept { return posted_; }
    std::uint64_t measured() const noexcept { return measured_; }
    std::uint64_t postedLate() const noexcept { return postedLate_; }
    /// play() ended early on a stop request.
    bool stopped() const noexcept { return stopped_; }
    /// CPU time the generator thread spent in play() and drain().
    Duration generatorCpu() const noexcept { return generatorCpu_; }

    /// Thread CPU time of the calling thread.
    static Duration threadCpuTime() noexcept;

  private:
    void updateBacklog(std::uint64_t notYetDue) noexcept;
    bool stopRequested() const noexcept { return stop_ && stop_->requested(); }

    pullsched::Scheduler& sched_;
    const testchain::ComputationalLoad& load_;
    OpenPlayConfig cfg_;
    const StopRequest* stop_;
    std::atomic<std::int64_t> backlog_{0};
    std::uint64_t posted_ = 0, measured_ = 0, postedLate_ = 0;
    bool stopped_ = false;
    Duration generatorCpu_{0};
};

}  // namespace pullsched::rig
