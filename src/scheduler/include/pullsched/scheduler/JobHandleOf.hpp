#pragma once
// What post() returns for a job that returns a value: a JobHandle whose get() waits for
// the job and gives its value back.
//
//   JobHandleOf<int> h = sched.post([] { return 42; });
//   int v = h.get();   // waits (helping), rethrows what the job threw

#include <exception>
#include <stdexcept>
#include <string>

#include "pullsched/scheduler/JobHandle.hpp"
#include "pullsched/scheduler/JobState.hpp"

namespace pullsched {

class Scheduler;

/// Thrown by JobHandleOf::get() for a job that ended without running: Cancelled (a
/// predecessor did not complete, cancel(), its group's cancel(), shutdown) or Expired.
class JobNotRun : public std::runtime_error {
  public:
    explicit JobNotRun(JobState s)
        : std::runtime_error("pullsched: the job has no value: it ended " +
                             std::string(toString(s)) + " without running"),
          state_(s) {}
    JobState state() const noexcept { return state_; }

  private:
    JobState state_;
};

namespace detail {
/// Scheduler::wait(job), for get() (defined where Scheduler is complete).
void waitForValue(Scheduler& sched, const JobHandle& job);
}  // namespace detail

/// A JobHandle (it names the job as a predecessor like any) that also reaches the job's
/// value. The value lives in the job's record, in place when it fits the record's inline
/// storage (48 bytes, as a capture does), else on the heap, until the last handle goes
/// and the scheduler let go of the job (just after it ended; drain() returns after that).
/// get() waits for the job like Scheduler::wait() (helping; from inside a job of the same
/// scheduler only if it is final, as a predecessor is), so the scheduler must be alive
/// unless the job is final (it is, once the scheduler shut down).
template <class T>
class JobHandleOf : public JobHandle {
  public:
    JobHandleOf() noexcept = default;

    /// The job's value (shared by the copies of this handle). Rethrows the exception of a
    /// Failed job; throws JobNotRun for a Cancelled or Expired one, std::logic_error on an
    /// empty handle or from inside a job that would have to wait.
    T& get() const {
        if (!done()) detail::waitForValue(*sched_, *this);
        switch (const JobState s = state()) {
            case JobState::Completed:
                return rec_->task.template value<T>();
            case JobState::Failed:
                std::rethrow_exception(rec_->error);
            default:
                throw JobNotRun(s);
        }
    }

  private:
    friend class Scheduler;
    JobHandleOf(detail::JobRecord* adopted, Scheduler* sched) noexcept
        : JobHandle(adopted), sched_(sched) {}
    Scheduler* sched_ = nullptr;
};

}  // namespace pullsched
