#pragma once
// pullsched's public entry point: a work-pulling, time-based job scheduler.
//
//   pullsched::Scheduler sched({.workers = 4});
//   auto a = sched.post([] { load(); });
//   auto b = sched.post([] { decode(); }, {.start = sched.now() + 2ms});
//   sched.post([] { mix(); }, {a, b});       // runs after a and b completed
//   auto n = sched.post([] { return count(); });  // a JobHandleOf<int>
//   sched.cancel(b);                          // if b has not started, it will not (nor mix)
//   int v = n.get();                          // waits for n alone, helping meanwhile
//   sched.drain();
//   auto f = sched.spawn(fib(sched, 30));     // a Task<long> as a job (see Task.hpp)
//
// There is no manager thread: workers pull. See docs/scheduler.md.

#include <concepts>
#include <cstdint>
#include <initializer_list>
#include <iosfwd>
#include <memory>
#include <optional>
#include <ranges>
#include <span>
#include <stdexcept>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "pullsched/scheduler/Config.hpp"
#include "pullsched/scheduler/JobGroup.hpp"
#include "pullsched/scheduler/JobHandle.hpp"
#include "pullsched/scheduler/JobHandleOf.hpp"
#include "pullsched/scheduler/JobOptions.hpp"
#include "pullsched/scheduler/JobState.hpp"
#include "pullsched/scheduler/LoopOptions.hpp"
#include "pullsched/scheduler/Observer.hpp"
#include "pullsched/scheduler/PostBatch.hpp"
#include "pullsched/scheduler/ResumeAt.hpp"
#include "pullsched/scheduler/Statistics.hpp"
#include "pullsched/scheduler/Task.hpp"
#include "pullsched/scheduler/Time.hpp"
#include "pullsched/scheduler/Version.hpp"
#include "pullsched/scheduler/WhenAll.hpp"
#include "pullsched/scheduler/detail/CoroutineJob.hpp"
#include "pullsched/scheduler/detail/JobAwaiter.hpp"
#include "pullsched/scheduler/detail/JobRecord.hpp"
#include "pullsched/scheduler/detail/JobRef.hpp"

/// 1 in builds configured with -DPULLSCHED_TRACE=ON (set on the library's targets).
#ifndef PULLSCHED_TRACE
#define PULLSCHED_TRACE 0
#endif

namespace pullsched {

namespace detail {
class SchedulerCore;
}

/// What wait() takes as a set of jobs: any input range of handles.
template <class R>
concept JobHandleRange =
    std::ranges::input_range<R> && std::convertible_to < std::ranges::range_reference_t<R>,
const JobHandle& > ;

class Scheduler {
  public:
    /// Starts the workers. Throws std::invalid_argument for a bad configuration, and
    /// std::system_error when a worker thread cannot be created (saying how many started;
    /// those are stopped and joined first).
    explicit Scheduler(const SchedulerConfig& cfg = {});
    /// Orderly shutdown in the configured mode (default: cancel what has not started).
    /// Threads still inside drain(), wait(), get() or a group's wait() then find their
    /// jobs final; it lets them leave before it frees anything. Entering one of those
    /// after the destructor began is undefined, as for any destroyed object.
    ~Scheduler();
    Scheduler(const Scheduler&) = delete;
    Scheduler& operator=(const Scheduler&) = delete;

    /// Post a job: runs once, after every predecessor completed and not before
    /// opts.start. If a predecessor failed, expired or was cancelled, the job is
    /// cancelled instead. A predecessor named more than once acts as once. Callable from any
    /// thread, including from inside a job. Throws std::invalid_argument (deadline before start,
    /// empty or foreign handle: of another scheduler, also of a destroyed one at the same address)
    /// or std::logic_error (from another thread than this scheduler's workers, once shutdown()
    /// began). A post that returns has its job reach a final state, at the latest when shutdown()
    /// returns. A job that returns a value gives a JobHandleOf<value type> (a JobHandle whose get()
    /// returns the value); a void job a JobHandle.
    template <class F>
    auto post(F&& work, const JobOptions& opts = {}, std::span<const JobHandle> preds = {}) {
        using R = std::invoke_result_t<std::decay_t<F>&>;
        if constexpr (std::is_void_v<R>) {
            return JobHandle(postRecord<F, false>(std::forward<F>(work), opts, preds, true));
        } else {
            return JobHandleOf<R>(postRecord<F, true>(std::forward<F>(work), opts, preds, true),
                                  this);
        }
    }
    template <class F>
    auto post(F&& work, const JobOptions& opts, std::initializer_list<JobHandle> preds) {
        return post(std::forward<F>(work), opts,
                    std::span<const JobHandle>(preds.begin(), preds.size()));
    }
    /// Predecessors from any other range of handles (a list, a range view, a vector of
    /// JobHandleOf): copied into a vector first, one reference count step per edge more
    /// than a contiguous span of JobHandle costs.
    template <class F, class Handles>
    requires(JobHandleRange<Handles> &&
             !std::convertible_to<const Handles&,
                                  std::span<const JobHandle>>) auto post(F&& work,
                                                                         const JobOptions& opts,
                                                                         const Handles& preds) {
        const std::vector<JobHandle> copied(std::ranges::begin(preds), std::ranges::end(preds));
        return post(std::forward<F>(work), opts, std::span<const JobHandle>(copied));
    }
    /// Predecessors without options: `post(f, {a, b})`, `post(f, handles)`. An empty
    /// `post(f, {})` picks the list, which is the same as no options.
    template <class F>
    auto post(F&& work, std::initializer_list<JobHandle> preds) {
        return post(std::forward<F>(work), JobOptions{},
                    std::span<const JobHandle>(preds.begin(), preds.size()));
    }
    template <class F, class Handles>
    requires JobHandleRange<Handles>
    auto post(F&& work, const Handles& preds) { return post(std::forward<F>(work), {}, preds); }
    /// As post(), without a handle (saves the reference count traffic).
    template <class F>
    void postDetached(F&& work, const JobOptions& opts = {},
                      std::span<const JobHandle> preds = {}) {
        postRecord<F, false>(std::forward<F>(work), opts, preds, false);
    }
    template <class F, class Handles>
    requires(
        JobHandleRange<Handles> &&
        !std::convertible_to<const Handles&,
                             std::span<const JobHandle>>) void postDetached(F&& work,
                                                                            const JobOptions& opts,
                                                                            const Handles& preds) {
        const std::vector<JobHandle> copied(std::ranges::begin(preds), std::ranges::end(preds));
        postDetached(std::forward<F>(work), opts, std::span<const JobHandle>(copied));
    }
    template <class F>
    void postDetached(F&& work, const JobOptions& opts, std::initializer_list<JobHandle> preds) {
        postDetached(std::forward<F>(work), opts,
                     std::span<const JobHandle>(preds.begin(), preds.size()));
    }
    template <class F>
    void postDetached(F&& work, std::initializer_list<JobHandle> preds) {
        postDetached(std::forward<F>(work), JobOptions{}, preds);
    }
    template <class F, class Handles>
    requires JobHandleRange<Handles>
    void postDetached(F&& work, const Handles& preds) {
        postDetached(std::forward<F>(work), JobOptions{}, preds);
    }

    /// Run a Task as a job (see Task.hpp): its first slice starts as a post's job would
    /// (opts, preds: as for post(); the deadline is for that start), and each co_await that
    /// suspends it ends a slice and posts the next (docs/coroutines.md). The handle ends
    /// when the Task returns: a JobHandleOf<T> whose get() gives its value or rethrows its
    /// exception (a JobHandle for Task<void>); Cancelled if it was cancelled before a
    /// slice (cancel() of a suspended Task, its group's cancel(), shutdown), the frame then
    /// destroyed. Throws as post() does, and std::invalid_argument for an empty Task (the
    /// Task is left as it was when it throws).
    template <class T>
    auto spawn(Task<T>&& task, const JobOptions& opts = {}, std::span<const JobHandle> preds = {}) {
        checkPredecessors(preds);
        if (!task) throw std::invalid_argument("pullsched: empty Task given to spawn()");
        detail::JobRecord* rec = acquireRecord(opts);
        rec->task.template emplaceResumable<detail::CoroutineJob<T>, !std::is_void_v<T>>(
            detail::CoroutineJob<T>(std::move(task), this, rec, pool_));
        rec->refs.store(2, std::memory_order_relaxed);  // the handle's, as in postRecord
        submitRecord(rec, preds);
        if constexpr (std::is_void_v<T>) {
            return JobHandle(rec);
        } else {
            return JobHandleOf<T>(rec, this);
        }
    }
    template <class T>
    auto spawn(Task<T>&& task, const JobOptions& opts, std::initializer_list<JobHandle> preds) {
        return spawn(std::move(task), opts,
                     std::span<const JobHandle>(preds.begin(), preds.size()));
    }
    template <class T, class Handles>
    requires(JobHandleRange<Handles> &&
             !std::convertible_to<const Handles&,
                                  std::span<const JobHandle>>) auto spawn(Task<T>&& task,
                                                                          const JobOptions& opts,
                                                                          const Handles& preds) {
        const std::vector<JobHandle> copied(std::ranges::begin(preds), std::ranges::end(preds));
        return spawn(std::move(task), opts, std::span<const JobHandle>(copied));
    }
    /// Inside a Task of this scheduler, `co_await s.at(t)` resumes the Task as a timed job
    /// starting at `t` (scheduler clock), `co_await s.after(d)` at now() + d (see ResumeAt).
    ResumeAt at(TimePoint start) const noexcept { return ResumeAt(*this, start); }
    ResumeAt after(Duration delay) const noexcept { return at(saturatingAdd(now(), delay)); }

    /// Block until `job` (or every job in `jobs`, any range of handles, also one that
    /// makes them as it is read) is final.
    /// Meanwhile the calling thread runs queued untimed jobs, as drain() does
    /// (SchedulerConfig::helpWhileWaiting), until its jobs are final. From inside a job
    /// of this scheduler it returns at once if the jobs are final (a job's predecessors
    /// are) and otherwise throws std::logic_error (a worker must not block on work that
    /// may need it). Throws std::invalid_argument for an empty or foreign handle.
    void wait(const JobHandle& job) { (void)waitFor(job, Duration::max()); }
    template <class Handles>
    requires JobHandleRange<Handles>
    void wait(const Handles& jobs) { (void)waitFor(jobs, Duration::max()); }
    void wait(std::initializer_list<JobHandle> jobs) { (void)waitFor(jobs, Duration::max()); }
    /// wait() with a limit on the steady clock; false if a job was not final at the
    /// limit. Duration::max() waits like wait(); zero or less looks once. A job the
    /// caller runs meanwhile is not interrupted at the limit.
    bool waitFor(const JobHandle& job, Duration limit);
    template <class Handles>
    requires JobHandleRange<Handles>
    bool waitFor(const Handles& jobs, Duration limit) {
        if constexpr (std::is_lvalue_reference_v<std::ranges::range_reference_t<const Handles>>) {
            // The handles live in the range, which the caller holds until we return.
            std::vector<detail::JobRecord*> records;
            if constexpr (std::ranges::sized_range<const Handles>)
                records.reserve(std::ranges::size(jobs));
            for (const JobHandle& job : jobs)
                records.push_back(checkedRecord(job));
            return waitRecords(records, limit);
        } else {
            // Handles made as the range is read (a transform view's) die at once, and with
            // them the records' last references: hold them while waiting, as post() does.
            std::vector<JobHandle> held;
            if constexpr (std::ranges::sized_range<const Handles>)
                held.reserve(std::ranges::size(jobs));
            for (auto&& job : jobs)
                held.emplace_back(std::forward<decltype(job)>(job));
            return waitFor(std::span<const JobHandle>(held), limit);
        }
    }
    bool waitFor(std::initializer_list<JobHandle> jobs, Duration limit) {
        return waitFor(std::span<const JobHandle>(jobs.begin(), jobs.size()), limit);
    }

    /// Cancel a job that has not started: it ends Cancelled at once (its dependents are
    /// cancelled, wait() returns), though a timed one keeps its record until its start
    /// time (the time queue is not reordered). True if this call cancelled it; false if
    /// it had started or ended, or another cancel came first. Never both run and cancelled.
    bool cancel(const JobHandle& job);

    /// A new, empty group of jobs (see JobGroup); jobs join it at post (JobOptions::group).
    JobGroup group();

    /// A batch for posting many jobs at once (see PostBatch): they may name each other, and
    /// submit() counts and publishes them together. `expectedJobs` reserves room.
    PostBatch batch(std::size_t expectedJobs = 0);

    /// A parallel loop (see ParallelFor.hpp): body(i) once for every i in [begin, end), or
    /// body(first, last) once per chunk, in chunks of opts.grain indices (0: chosen) run as
    /// jobs with opts.job's options after `preds`. Returns the handle of a job that ends
    /// after the last chunk: Completed when every chunk completed, else Cancelled.
    template <std::integral Index, class Body>
    requires std::invocable<Body&, Index> || std::invocable<Body&, Index, Index> JobHandle
    parallelFor(Index begin, Index end, Body&& body, const LoopOptions& opts = {},
                std::span<const JobHandle> preds = {});
    template <std::integral Index, class Body>
    requires std::invocable<Body&, Index> || std::invocable<Body&, Index, Index> JobHandle
    parallelFor(Index begin, Index end, Body&& body, const LoopOptions& opts,
                std::initializer_list<JobHandle> preds) {
        return parallelFor(begin, end, std::forward<Body>(body), opts,
                           std::span<const JobHandle>(preds.begin(), preds.size()));
    }

    /// Block until every posted job (including ones posted meanwhile) reached a final state.
    /// Meanwhile the calling thread runs queued untimed jobs (SchedulerConfig::
    /// helpWhileWaiting). Throws std::logic_error when called from inside a job of this
    /// scheduler (it would wait for itself; also from a job it runs itself); waiting for
    /// another scheduler from a job is fine.
    void drain();
    /// drain() with a limit on the steady clock; false if work remained at the limit.
    /// Duration::max() waits like drain(); a limit of zero or less looks once. A job the
    /// caller runs while it waits is not interrupted at the limit: it returns after it.
    bool drainFor(Duration limit);
    /// Stop the workers. From the moment it is called, post() from other threads throws.
    /// Drain: run every accepted job to its final state first (running jobs may still post,
    /// and those are drained too). Cancel: cancel what has not started (running jobs
    /// finish; what they post is cancelled). Either way every accepted job is final when
    /// it returns. Idempotent; the first call's report is returned. Throws
    /// std::logic_error when called from inside a job of this scheduler.
    ShutdownReport shutdown(ShutdownMode mode);

    /// Tell the workers the (injected) clock moved, so they re-examine the queue now.
    void wake();

    Statistics stats() const;
    std::uint64_t queueDepth() const noexcept;
    TimePoint now() const noexcept;
    unsigned workerCount() const noexcept;
    /// Which of this scheduler's threads runs the calling job, for per-thread scratch: a
    /// worker's index below workerCount(), or from workerCount() on a thread helping in
    /// drain() or wait(); always below threadSlots(). Empty outside this scheduler's jobs
    /// (and for a helper beyond the slots, when more threads help at once than it numbers).
    std::optional<unsigned> threadIndex() const noexcept;
    unsigned threadSlots() const noexcept;
    /// Merged per-worker trace; false (and nothing written) unless built with PULLSCHED_TRACE.
    bool writeTraceDump(std::ostream& out) const;

    static constexpr bool traceCompiledIn() noexcept { return PULLSCHED_TRACE != 0; }
    /// The library's version, "major.minor.patch" (see Version.hpp for the macros).
    static constexpr std::string_view version() noexcept { return PULLSCHED_VERSION_STRING; }

  private:
    detail::JobRecord* checkedRecord(const JobHandle& job) const {
        if (!job) throw std::invalid_argument("pullsched: empty JobHandle given to wait/cancel");
        if (job.rec_->pool != pool_)
            throw std::invalid_argument("pullsched: JobHandle belongs to another scheduler");
        if (detail::inOpenBatch(*job.rec_))
            throw std::invalid_argument(
                "pullsched: JobHandle of a batch that was not submitted yet given to wait/cancel");
        return job.rec_;
    }
    bool waitRecords(std::span<detail::JobRecord* const> jobs, Duration limit);

    void checkPredecessors(std::span<const JobHandle> preds) const {
        for (const JobHandle& p : preds) {
            if (!p) throw std::invalid_argument("pullsched: empty JobHandle given as predecessor");
            if (p.rec_->pool != pool_ || detail::inOpenBatch(*p.rec_))
                throwForeignPredecessor(*p.rec_);
        }
    }
    template <class F, bool KeepValue>
    detail::JobRecord* postRecord(F&& work, const JobOptions& opts,
                                  std::span<const JobHandle> preds, bool withHandle) {
        checkPredecessors(preds);
        detail::JobRecord* rec = acquireRecord(opts);
        try {
            rec->task.template emplace<F, KeepValue>(std::forward<F>(work));
        } catch (...) {
            abandonRecord(rec);
            throw;
        }
        // The handle's reference; the record is nobody else's yet, so no atomic add.
        if (withHandle) rec->refs.store(2, std::memory_order_relaxed);
        submitRecord(rec, preds);
        return withHandle ? rec : nullptr;
    }
    /// A Task's co_await that suspends its job `self` (see detail/JobAwaiter.hpp).
    friend void detail::requestResume(Scheduler& sched, detail::JobRecord* self,
                                      const detail::ResumeRequest& request);
    /// Says whose the job is: another scheduler's, or a batch's not submitted yet.
    [[noreturn]] static void throwForeignPredecessor(const detail::JobRecord& pred);
    // The core's posting steps (see detail/SchedulerCore.hpp in the sources).
    detail::JobRecord* acquireRecord(const JobOptions& opts);
    void abandonRecord(detail::JobRecord* rec) noexcept;
    void submitRecord(detail::JobRecord* rec, std::span<const JobHandle> preds);

    std::unique_ptr<detail::SchedulerCore> core_;
    /// The core's record pool, here so that post() checks handles inline (see JobRecord::pool).
    const detail::JobPool* pool_;
};

}  // namespace pullsched

// The template members' definitions that need the class complete.
#include "pullsched/scheduler/ParallelFor.hpp"
