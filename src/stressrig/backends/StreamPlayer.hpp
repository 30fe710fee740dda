#pragma once
// The generator of every arrival-stream load (open, closed, rate steps, soak, headroom) on
// any backend's StreamRunner: it hands the jobs over on time, and the jobs measure
// themselves — start lateness from the intended start, completions inside the measured
// span, whether each arrival ran exactly once. Nothing here knows which backend plays.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "backends/StreamRunner.hpp"
#include "load/StopRequest.hpp"
#include "measure/LatencyRecorder.hpp"
#include "measure/MeasuredJob.hpp"
#include "pullsched/scheduler/Time.hpp"
#include "pullsched/testchain/ComputationalLoad.hpp"

namespace pullsched::rig {

struct StreamPlayConfig {
    Duration jobLoad{0};         ///< busy work per job
    Duration warmup{0};          ///< arrivals before this offset are not measured
    Duration deadlineWindow{0};  ///< deadline = intended start + window; 0 = none
    /// A backend with a native timed start gets its jobs this far ahead, so that it can
    /// start them on time although the generator thread may be descheduled; 5 ms covers
    /// the OS's usual scheduling delays here.
    Duration postAhead{std::chrono::milliseconds{5}};
    Duration pollPeriod{std::chrono::milliseconds{1}};  ///< the generator wakes this often
    /// The first this many arrivals (at most the checked ones, when arrivals are checked)
    /// keep their start, end and thread for a trace (36 bytes each); 0: none.
    std::size_t tracedArrivals = 0;

    static StreamPlayConfig of(Duration jobLoad, Duration warmup, Duration deadlineWindow) {
        StreamPlayConfig c;
        c.jobLoad = jobLoad;
        c.warmup = warmup;
        c.deadlineWindow = deadlineWindow;
        return c;
    }
};

/// The deadline of a job intended to start at `start`: start + window, saturated (a start
/// near TimePoint::max() must not wrap into the past), or none for a window ≤ 0.
pullsched::TimePoint jobDeadline(pullsched::TimePoint start, Duration window) noexcept;

/// Thread CPU time of the calling thread.
Duration threadCpuTime() noexcept;

class StreamPlayer {
  public:
    using Tick = std::function<void(pullsched::TimePoint now)>;

    /// `runner` must be started. Measured jobs record their lateness into `lateness`;
    /// `stop` (optional) ends play() and drain() early. `checkedArrivals` > 0: the first
    /// that many jobs count how often their body ran (4 bytes each), the exactly-once check.
    StreamPlayer(StreamRunner& runner, const testchain::ComputationalLoad& load,
                 StreamPlayConfig config, LatencyRecorder& lateness,
                 const StopRequest* stop = nullptr, std::size_t checkedArrivals = 0);

    /// Hands over all arrivals at origin + base + offsets[i] (sorted) and returns once the
    /// last one is due (or a stop was requested: stopped() is then true). `tick` is called
    /// after every batch.
    void play(const std::vector<Duration>& offsets, Duration base, pullsched::TimePoint origin,
              const Tick& tick = {});
    /// Submits one job now (closed loads): intended start `start`, measured or not; the
    /// job calls `then` after its body. Thread-safe.
    void submitOne(pullsched::TimePoint start, bool measured, std::function<void()> then);
    /// Waits until every submitted job has ended, at most `limit`; true if so.
    bool drain(Duration limit, const Tick& tick = {});

    /// Jobs count as completed in the span when their body ends in [from, until).
    void measureSpan(pullsched::TimePoint from, pullsched::TimePoint until) noexcept;
    void endSpanAt(pullsched::TimePoint until) noexcept;

    /// Due jobs not yet started (nor dropped), as of the last poll.
    std::int64_t backlog() const noexcept { return backlog_.load(std::memory_order_relaxed); }
    /// Recomputes backlog() now, every submitted job counted as due.
    void refreshBacklog() noexcept;
    std::uint64_t posted() const noexcept { return posted_.load(std::memory_order_relaxed); }
    std::uint64_t measured() const noexcept { return measured_.load(std::memory_order_relaxed); }
    std::uint64_t postedLate() const noexcept { return postedLate_; }
    std::uint64_t completed() const noexcept { return completed_.load(std::memory_order_acquire); }
    std::uint64_t completedInSpan() const noexcept {
        return inSpan_.load(std::memory_order_acquire);
    }
    bool stopped() const noexcept { return stopped_; }
    Duration generatorCpu() const noexcept { return generatorCpu_; }
    StreamRunner& runner() noexcept { return runner_; }

    /// The final counts into any result with these fields (LoadRunResult, SoakRunResult):
    /// posted and measured by the player, completed by the jobs, and expired, failed and
    /// cancelled (skipped by stop()) by the runner. After the runner stopped.
    template <class Result>
    void takeCounts(Result& r) const {
        r.posted = posted();
        r.measured = measured();
        r.completed = completed();
        r.expired = runner_.expired();
        r.failed = runner_.failed();
        r.cancelled = runner_.skipped();
    }

    /// After drain/stop: arrivals whose body never ran although nothing dropped or skipped
    /// them, and arrivals whose body ran more than once (checked arrivals only; else 0).
    std::uint64_t missedArrivals() const;
    std::uint64_t repeatedArrivals() const;
    /// After drain/stop: the traced arrivals that ran, as jobs of a trace (id = arrival
    /// index, worker = the threads numbered in the order they first started a job).
    std::vector<MeasuredJob> tracedJobs() const;

  private:
    void submit(pullsched::TimePoint start, bool measured, std::function<void()> then);
    /// A job's body: its lateness, its execution count, the load, its completion.
    void runJob(pullsched::TimePoint start, bool measured, std::uint64_t index);
    void updateBacklog(std::uint64_t due) noexcept;
    bool stopRequested() const noexcept { return stop_ && stop_->requested(); }

    StreamRunner& runner_;
    const testchain::ComputationalLoad& load_;
    StreamPlayConfig cfg_;
    LatencyRecorder& lateness_;
    const StopRequest* stop_;
    std::unique_ptr<std::atomic<std::uint32_t>[]> executions_;  ///< countedSlots_ of them
    std::size_t executionSlots_ = 0;  ///< the checked arrivals (missed, repeated)
    std::size_t countedSlots_ = 0;    ///< the checked and the traced arrivals
    /// One traced run of an arrival, written by its first run only (so by one thread).
    struct TracedRun {
        pullsched::TimePoint intended{}, begun{}, ended{};
        std::size_t thread = 0;  ///< hash of the thread's id
    };
    std::unique_ptr<TracedRun[]> traced_;
    std::size_t tracedSlots_ = 0;
    std::atomic<std::uint64_t> posted_{0}, measured_{0}, started_{0}, completed_{0}, inSpan_{0};
    std::atomic<pullsched::TimePoint::rep> spanFrom_{0}, spanUntil_{0};
    std::atomic<std::int64_t> backlog_{0};
    std::uint64_t postedLate_ = 0;
    bool stopped_ = false;
    Duration generatorCpu_{0};
};

}  // namespace pullsched::rig
