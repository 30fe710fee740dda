#pragma once
// Posting many jobs at once: a planner's graph as one batch.
//
//   auto batch = sched.batch();
//   auto a = batch.post(load);
//   auto sink = batch.placeholder();           // named before it is posted
//   batch.post(decode, {}, {a});
//   batch.post(mix, {}, {a, sink});             // runs after a and sink
//   batch.fill(sink, flush, {}, {a});
//   batch.submit();                            // one publish for all of them
//
// Jobs of a batch are private to it until submit(): they do not run, and naming one
// another costs no atomic operation and no lock. submit() counts the whole batch once,
// wires the predecessors outside the batch, and publishes what is ready in one queue
// operation. See docs/scheduler.md, "Posting many jobs at once".

#include <cstddef>
#include <initializer_list>
#include <memory>
#include <span>
#include <utility>

#include "pullsched/scheduler/JobHandle.hpp"
#include "pullsched/scheduler/JobOptions.hpp"
#include "pullsched/scheduler/detail/JobRecord.hpp"

namespace pullsched {

class Scheduler;
namespace detail {
struct BatchState;
}

/// From Scheduler::batch(). Single-threaded: use a batch (and, until it is submitted, the
/// handles it returned) on one thread at a time. It must not outlive its scheduler.
///
/// Every guarantee of Scheduler::post() holds for a batch's jobs, from submit() on: a job
/// runs once, after its predecessors completed and not before its start; timed jobs leave
/// in (start, sequence) order, where the batch's jobs take consecutive sequence numbers in
/// the order they were posted (placeholders: in the order they were created) at submit().
/// A plain post() made before submit() comes first among equal starts.
///
/// Destroying a batch that was not submitted discards its jobs: they never run, their
/// handles read Cancelled, a later post naming one is cancelled, and the scheduler's
/// statistics never count them (they were never submitted). submit() that throws
/// discards the batch the same way.
class PostBatch {
  public:
    PostBatch(PostBatch&&) noexcept;
    PostBatch& operator=(PostBatch&&) noexcept;
    ~PostBatch();

    /// A job of this batch. `preds` may be jobs of this batch (also placeholders not yet
    /// filled) or of its scheduler. Throws std::invalid_argument like Scheduler::post (bad
    /// options, empty or foreign handle; also a job of another batch not yet submitted),
    /// std::logic_error once submitted. Nothing runs before submit().
    template <class F>
    JobHandle post(F&& work, const JobOptions& opts = {}, std::span<const JobHandle> preds = {}) {
        return JobHandle(postRecord(std::forward<F>(work), opts, preds, true));
    }
    template <class F>
    JobHandle post(F&& work, const JobOptions& opts, std::initializer_list<JobHandle> preds) {
        return post(std::forward<F>(work), opts, spanOf(preds));
    }
    /// As post(), without a handle.
    template <class F>
    void postDetached(F&& work, const JobOptions& opts = {},
                      std::span<const JobHandle> preds = {}) {
        postRecord(std::forward<F>(work), opts, preds, false);
    }
    template <class F>
    void postDetached(F&& work, const JobOptions& opts, std::initializer_list<JobHandle> preds) {
        postDetached(std::forward<F>(work), opts, spanOf(preds));
    }

    /// A job of this batch whose work, options and predecessors come later (fill()), so that
    /// jobs posted meanwhile can name it as a predecessor. submit() throws std::logic_error
    /// if a placeholder was never filled.
    JobHandle placeholder();
    /// Give a placeholder of this batch its work, options and predecessors. Throws
    /// std::invalid_argument if `placeholder` is not an unfilled placeholder of this batch,
    /// for bad options or handles (as post), and if a predecessor depends on the placeholder
    /// (a cycle: neither could ever run).
    template <class F>
    void fill(const JobHandle& placeholder, F&& work, const JobOptions& opts = {},
              std::span<const JobHandle> preds = {}) {
        detail::JobRecord* rec = beginFill(placeholder, opts, preds);
        rec->task.emplace(std::forward<F>(work));  // on failure it stays unfilled
        link(rec, preds);
    }
    template <class F>
    void fill(const JobHandle& placeholder, F&& work, const JobOptions& opts,
              std::initializer_list<JobHandle> preds) {
        fill(placeholder, std::forward<F>(work), opts, spanOf(preds));
    }

    /// Jobs and placeholders in the batch so far.
    std::size_t size() const noexcept;

    /// Hand every job to the scheduler at once. Throws std::logic_error (from another
    /// thread than this scheduler's workers once shutdown() began, as post(); a placeholder
    /// never filled; already submitted) and then discards the batch. An empty batch submits
    /// nothing. From inside a job, the batch's untimed jobs stay with that worker, as its
    /// posts do.
    void submit();

  private:
    friend class Scheduler;
    explicit PostBatch(std::unique_ptr<detail::BatchState> state) noexcept;

    static std::span<const JobHandle> spanOf(std::initializer_list<JobHandle> preds) noexcept {
        return {preds.begin(), preds.size()};
    }
    template <class F>
    detail::JobRecord* postRecord(F&& work, const JobOptions& opts,
                                  std::span<const JobHandle> preds, bool withHandle) {
        detail::JobRecord* rec = acquire(opts, preds, withHandle);
        try {
            rec->task.emplace(std::forward<F>(work));
        } catch (...) {
            dropLast();
            throw;
        }
        link(rec, preds);
        return withHandle ? rec : nullptr;
    }
    // Out of line (BatchPosting.cpp): validate, take a record, wire predecessors.
    static void validate(const detail::BatchState& b, const JobOptions& opts,
                         std::span<const JobHandle> preds);
    detail::JobRecord* acquire(const JobOptions& opts, std::span<const JobHandle> preds,
                               bool withHandle);
    void dropLast() noexcept;
    detail::JobRecord* beginFill(const JobHandle& placeholder, const JobOptions& opts,
                                 std::span<const JobHandle> preds);
    void link(detail::JobRecord* rec, std::span<const JobHandle> preds);

    std::unique_ptr<detail::BatchState> state_;
};

}  // namespace pullsched
