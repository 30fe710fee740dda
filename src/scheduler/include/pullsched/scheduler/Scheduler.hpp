#pragma once
// pullsched's public entry point: a work-pulling, time-based job scheduler.
//
//   pullsched::Scheduler sched({.workers = 4});
//   auto a = sched.post([] { load(); });
//   auto b = sched.post([] { decode(); }, {.start = sched.now() + 2ms});
//   sched.post([] { mix(); }, {}, {a, b});   // runs after a and b completed
//   sched.drain();
//
// There is no manager thread: workers pull. See docs/design.md.

#include <initializer_list>
#include <iosfwd>
#include <memory>
#include <span>
#include <stdexcept>
#include <utility>

#include "pullsched/scheduler/Config.hpp"
#include "pullsched/scheduler/JobHandle.hpp"
#include "pullsched/scheduler/JobOptions.hpp"
#include "pullsched/scheduler/JobState.hpp"
#include "pullsched/scheduler/Observer.hpp"
#include "pullsched/scheduler/Statistics.hpp"
#include "pullsched/scheduler/Time.hpp"
#include "pullsched/scheduler/detail/SchedulerCore.hpp"

namespace pullsched {

class Scheduler {
  public:
    /// Starts the workers. Throws std::invalid_argument for a bad configuration.
    explicit Scheduler(const SchedulerConfig& cfg = {});
    /// Orderly shutdown in the configured mode (default: cancel what has not started).
    ~Scheduler();
    Scheduler(const Scheduler&) = delete;
    Scheduler& operator=(const Scheduler&) = delete;

    /// Post a job: runs once, after every predecessor completed and not before
    /// opts.start. If a predecessor failed, expired or was cancelled, the job is
    /// cancelled instead. Callable from any thread, including from inside a job.
    /// Throws std::invalid_argument (deadline before start, empty or foreign handle)
    /// or std::logic_error (after shutdown).
    template <class F>
    JobHandle post(F&& work, const JobOptions& opts = {}, std::span<const JobHandle> preds = {}) {
        return JobHandle(postRecord(std::forward<F>(work), opts, preds, true));
    }
    template <class F>
    JobHandle post(F&& work, const JobOptions& opts, std::initializer_list<JobHandle> preds) {
        return post(std::forward<F>(work), opts,
                    std::span<const JobHandle>(preds.begin(), preds.size()));
    }
    /// As post(), without a handle (saves the reference count traffic).
    template <class F>
    void postDetached(F&& work, const JobOptions& opts = {},
                      std::span<const JobHandle> preds = {}) {
        postRecord(std::forward<F>(work), opts, preds, false);
    }

    /// Block until every posted job (including ones posted meanwhile) reached a final state.
    void drain() { core_->drain(); }
    /// drain() with a limit on the steady clock; false if work remained at the limit.
    bool drainFor(Duration limit) { return core_->drainUntil(SteadyClock::now() + limit); }
    /// Stop the workers. Drain: wait for all work first. Cancel: cancel what has not
    /// started (running jobs finish). Idempotent; the first call's report is returned.
    ShutdownReport shutdown(ShutdownMode mode) { return core_->shutdown(mode); }

    /// Tell the workers the (injected) clock moved, so they re-examine the queue now.
    void wake() { core_->wake(); }

    Statistics stats() const { return core_->stats(); }
    std::uint64_t queueDepth() const noexcept { return core_->queueDepth(); }
    TimePoint now() const noexcept { return core_->now(); }
    unsigned workerCount() const noexcept { return core_->workerCount(); }
    /// Merged per-worker trace; false (and nothing written) unless built with PULLSCHED_TRACE.
    bool writeTraceDump(std::ostream& out) const { return core_->writeTraceDump(out); }

    static constexpr bool traceCompiledIn() noexcept { return PULLSCHED_TRACE != 0; }

  private:
    template <class F>
    detail::JobRecord* postRecord(F&& work, const JobOptions& opts,
                                  std::span<const JobHandle> preds, bool withHandle) {
        for (const JobHandle& p : preds) {
            if (!p) throw std::invalid_argument("pullsched: empty JobHandle given as predecessor");
            if (!core_->owns(p.rec_))
                throw std::invalid_argument("pullsched: predecessor belongs to another scheduler");
        }
        detail::JobRecord* rec = core_->acquire(opts);
        try {
            rec->task.emplace(std::forward<F>(work));
        } catch (...) {
            core_->abandon(rec);
            throw;
        }
        if (withHandle) detail::addRef(rec);
        core_->submit(rec, preds);
        return withHandle ? rec : nullptr;
    }

    std::unique_ptr<detail::SchedulerCore> core_;
};

}  // namespace pullsched
