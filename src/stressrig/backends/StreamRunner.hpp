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
//   b->submit(intendedStart, job);        // from one generator thread, in start order
//   bool done = b->drain(2s, &stop);      // every submitted job has ended
//   b->stop();                            // jobs not yet started are skipped; joins
//
// When the generator submits: a backend with a native timed start (StartTimes::Native)
// gets its jobs a little ahead and holds each back until its intended start itself; any
// other backend gets each job only once its intended start has come (the generator posts
// at the arrival time), so its own delay — and the generator's — counts as lateness.

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
    /// handed the job only when it is due). Called from one thread at a time.
    void submit(pullsched::TimePoint intendedStart, StreamJob job) {
        if (!started_ || stopped_) throw std::logic_error(std::string(name()) + ": not started");
        submitted_.fetch_add(1, std::memory_order_relaxed);
        post(intendedStart, [this, job = std::move(job)] {
            if (!abandon_.load(std::memory_order_acquire)) job();
            ended_.fetch_add(1, std::memory_order_release);
        });
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
        while (!allEnded())
            std::this_thread::sleep_for(std::chrono::microseconds{200});
        shutdown();
        stopped_ = true;
    }

    std::uint64_t submitted() const noexcept { return submitted_.load(std::memory_order_relaxed); }
    std::uint64_t ended() const noexcept { return ended_.load(std::memory_order_acquire); }

  protected:
    /// Adapter: start the threads (`placement` concerns pullsched only).
    virtual void launch(unsigned workers, Placement placement) = 0;
    /// Adapter: run `job` once; a Native backend not before `intendedStart`.
    virtual void post(pullsched::TimePoint intendedStart, StreamJob job) = 0;
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
    bool allEnded() const noexcept {
        return ended_.load(std::memory_order_acquire) == submitted_.load(std::memory_order_relaxed);
    }

    const BackendInfo* info_;
    bool started_ = false, stopped_ = false;
    std::atomic<bool> abandon_{false};
    std::atomic<std::uint64_t> submitted_{0}, ended_{0};
};

}  // namespace pullsched::rig
