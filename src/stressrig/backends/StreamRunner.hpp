#pragma once
// A backend's arrival-stream capability: one way of running independent jobs that arrive
// over time (an open load), so that the rig can play the same arrival timetable with the
// same job bodies and the same worker count on pullsched, oneTBB, OpenMP, Boost.Asio and
// a plain pool. (GraphRunner is the graph capability of the same backends.)
//
// Usage
// -----
//   std::unique_ptr<StreamRunner> b = BackendRegistry::streamRunner("asio");
//   b->start(4);                          // untimed: threads, arena, pool
//   b->submit(intendedStart, deadline, job);   // from any thread, also from a job
//   bool done = b->drain(2s, &stop);      // every submitted job has ended
//   b->stop();                            // jobs not yet started are skipped; joins
//
// When the generator submits: a backend with a native timed start (StartTimes::Native)
// gets its jobs a little ahead and holds each back until its intended start itself; any
// other backend gets each job only once its intended start has come (the generator posts
// at the arrival time), so its own delay — and the generator's — counts as lateness.
//
// Deadlines work on every backend, so a load with a deadline window compares like for
// like: a backend with native deadlines (BackendInfo::deadlines) drops a job unstarted
// past its deadline itself and reports how many (droppedByBackend); for any other the
// wrapper below drops it when it would start past its deadline. Either way the job ends
// without running its body and counts as expired.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string_view>
#include <thread>

#include "backends/BackendInfo.hpp"
#include "load/StopRequest.hpp"
#include "pullsched/scheduler/Time.hpp"

#include "load/Placement.hpp"

namespace pullsched::rig {

using StreamJob = std::function<void()>;

class StreamRunner {
  public:
    /// `info`: the backend's registry entry (static storage), whose name it carries.
    explicit StreamRunner(const BackendInfo& info) noexcept : info_(&info) {}
    virtual ~StreamRunner() = default;
    StreamRunner(const StreamRunner&) = delete;
    StreamRunner& operator=(const StreamRunner&) = delete;

    std::string_view name() const noexcept { return info_->name; }
    StartTimes arrivalTimes() const noexcept { return info_->startTimes; }
    /// One sentence on how the arrival time is honoured (--help, JSON "arrival_times_text").
    std::string_view arrivalTimesText() const noexcept { return info_->streamStartTimesText; }

    /// Untimed: starts `workers` worker threads (pullsched: placed as `placement` says).
    /// Throws std::invalid_argument for 0.
    void start(unsigned workers, Placement placement = Placement::Spread) {
        if (workers == 0) throw std::invalid_argument(std::string(name()) + ": 0 workers");
        if (started_) throw std::logic_error(std::string(name()) + ": started twice");
        launch(workers, placement);
        started_ = true;
    }

    /// Runs `job` once, not before `intendedStart` (a backend without a native timed start is
    /// handed the job only when it is due), or not at all if it would start after
    /// `deadline` (kNoDeadline: none; else not before `intendedStart`). Thread-safe: a
    /// closed load submits from its jobs.
    void submit(pullsched::TimePoint intendedStart, pullsched::TimePoint deadline, StreamJob job) {
        if (!started_ || stopped_) throw std::logic_error(std::string(name()) + ": not started");
        // Counted before the post (the job may end at once); a post that throws did not
        // happen.
        submitted_.fetch_add(1, std::memory_order_relaxed);
        const bool native = info_->deadlines;
        try {
            post(intendedStart, native ? deadline : pullsched::kNoDeadline,
                 [this, deadline, native, job = std::move(job)] {
                     if (abandon_.load(std::memory_order_acquire))
                         skipped_.fetch_add(1, std::memory_order_relaxed);
                     else if (!native && deadline != pullsched::kNoDeadline &&
                              pullsched::SteadyClock::now() > deadline)
                         expiredByRig_.fetch_add(1, std::memory_order_relaxed);
                     else
                         runCounted(job);
                     ended_.fetch_add(1, std::memory_order_release);
                 });
        } catch (...) {
            submitted_.fetch_sub(1, std::memory_order_relaxed);
            throw;
        }
    }
    void submit(pullsched::TimePoint intendedStart, StreamJob job) {
        submit(intendedStart, pullsched::kNoDeadline, std::move(job));
    }

    /// Waits until every submitted job has ended, at most `limit` (or until `stop` is
    /// requested); true if all have.
    bool drain(std::chrono::nanoseconds limit, const StopRequest* stop = nullptr) {
        const auto until = pullsched::saturatingAdd(pullsched::SteadyClock::now(), limit);
        while (!allEnded()) {
            if ((stop && stop->requested()) || pullsched::SteadyClock::now() >= until) return false;
            std::this_thread::sleep_for(std::chrono::microseconds{500});
        }
        return true;
    }

    /// Jobs that have not started yet are skipped (they end without running their body);
    /// waits until every submitted job has ended, then stops the threads. Idempotent.
    void stop() {
        if (!started_ || stopped_) return;
        abandon_.store(true, std::memory_order_release);
        cancelPending();
        while (!allEnded())
            std::this_thread::sleep_for(std::chrono::microseconds{200});
        shutdown();
        stopped_ = true;
    }

    std::uint64_t submitted() const noexcept { return submitted_.load(std::memory_order_relaxed); }
    /// Jobs that reached their end: ran, dropped at their deadline or skipped by stop().
    std::uint64_t ended() const noexcept {
        return ended_.load(std::memory_order_acquire) + expiredByBackend() + cancelledByBackend();
    }
    /// Jobs dropped unstarted past their deadline (by the backend or by the wrapper).
    std::uint64_t expired() const noexcept {
        return expiredByRig_.load(std::memory_order_relaxed) + expiredByBackend();
    }
    /// Jobs whose body threw.
    std::uint64_t failed() const noexcept { return failed_.load(std::memory_order_relaxed); }
    /// Jobs stop() skipped before they started.
    std::uint64_t skipped() const noexcept {
        return skipped_.load(std::memory_order_relaxed) + cancelledByBackend();
    }

  protected:
    /// Adapter: start the threads (`placement` concerns pullsched only).
    virtual void launch(unsigned workers, Placement placement) = 0;
    /// Adapter: run `job` once; a Native backend not before `intendedStart`; a backend with
    /// native deadlines drops it unstarted after `deadline` (the others get kNoDeadline).
    virtual void post(pullsched::TimePoint intendedStart, pullsched::TimePoint deadline,
                      StreamJob job) = 0;
    /// Adapter with native deadlines: how many jobs it dropped (their wrapper never ran).
    virtual std::uint64_t expiredByBackend() const noexcept { return 0; }
    /// Adapter: stop() began; jobs still held for a later start may be cancelled now
    /// (their wrapper never runs) rather than awaited, counted by cancelledByBackend().
    virtual void cancelPending() {}
    virtual std::uint64_t cancelledByBackend() const noexcept { return 0; }
    /// Adapter: every job has ended; join the threads. Called once, from stop().
    virtual void shutdown() = 0;

    /// Adapters call stop() from their destructor (the wrapper refers to this object).
    void stopOnDestruction() noexcept {
        try {
            stop();
        } catch (...) {
        }
    }

  private:
    /// A job that throws has still ended (stop() waits for every end), as a failure.
    void runCounted(const StreamJob& job) noexcept {
        try {
            job();
        } catch (...) {
            failed_.fetch_add(1, std::memory_order_relaxed);
        }
    }
    bool allEnded() const noexcept { return ended() == submitted(); }

    const BackendInfo* info_;
    bool started_ = false, stopped_ = false;
    std::atomic<bool> abandon_{false};
    std::atomic<std::uint64_t> submitted_{0}, ended_{0}, skipped_{0}, expiredByRig_{0}, failed_{0};
};

}  // namespace pullsched::rig
