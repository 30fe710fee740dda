#pragma once
// A set of jobs to wait for, cancel and count together: the jobs of one frame, one
// request, one library's share of a shared scheduler.
//
//   JobGroup frame = sched.group();
//   sched.post(render, {.group = frame});
//   frame.cancel();   // the user seeked: what has not started will not
//   frame.wait();

#include <cstdint>

#include "pullsched/scheduler/Time.hpp"

namespace pullsched {

namespace detail {
struct GroupState;
}

/// A group's accounting, with the scheduler's invariant: at every quiescent point
/// submitted == completed + failed + expired + cancelled + pending.
struct GroupStatistics {
    std::uint64_t submitted = 0;
    std::uint64_t completed = 0;
    std::uint64_t failed = 0;
    std::uint64_t expired = 0;
    std::uint64_t cancelled = 0;
    std::uint64_t pending = 0;
};

/// Made by Scheduler::group(); jobs join it at post (JobOptions::group). Cheap to copy
/// (one atomic increment): copies name the same group, which lives while a copy or one
/// of its unfinished jobs does. wait(), waitFor() and cancel() need its scheduler alive;
/// cancelled() and stats() do not. An empty group (default-constructed or moved from)
/// throws std::logic_error from every member but operator bool.
class JobGroup {
  public:
    JobGroup() noexcept = default;
    JobGroup(const JobGroup& o) noexcept;
    JobGroup(JobGroup&& o) noexcept;
    JobGroup& operator=(JobGroup o) noexcept;
    ~JobGroup();

    explicit operator bool() const noexcept { return state_ != nullptr; }

    /// Block until every job posted into the group (also meanwhile) is final, helping
    /// as Scheduler::wait() does, with its rule for calls from inside a job.
    void wait() const;
    /// wait() with a limit on the steady clock; false if a job was still open then.
    bool waitFor(Duration limit) const;
    /// Jobs of the group that have not started will not: each ends Cancelled (and its
    /// dependents with it) when it reaches a worker, a timed one at its start time, a
    /// waiting one when its predecessors ended. Running jobs finish; they can poll
    /// cancelled() to stop early. Jobs posted into the group afterwards are cancelled too.
    void cancel() const;
    bool cancelled() const;
    GroupStatistics stats() const;

  private:
    friend class Scheduler;
    friend struct GroupRef;
    explicit JobGroup(detail::GroupState* adopted) noexcept : state_(adopted) {}
    detail::GroupState& state() const;
    detail::GroupState* state_ = nullptr;
};

/// How JobOptions names a group: `{.group = g}` for a JobGroup g. Holds no reference: the
/// group must live until post() returned (the job then holds its own).
struct GroupRef {
    GroupRef() noexcept = default;
    GroupRef(const JobGroup& g) noexcept : state(g.state_) {}  // NOLINT: implicit on purpose
    detail::GroupState* state = nullptr;
};

}  // namespace pullsched
