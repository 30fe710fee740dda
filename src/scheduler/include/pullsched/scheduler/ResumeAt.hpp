#pragma once
// What Scheduler::at() and after() give: inside a Task, `co_await s.at(t)` ends the
// Task's current job and resumes the Task as a timed job starting at t, in the (start,
// sequence) order of every timed job.
//
//   pullsched::Task<void> frame(pullsched::Scheduler& s, pullsched::TimePoint t) {
//       co_await s.at(t);   // holds no thread until t
//       render();
//   }

#include "pullsched/scheduler/Time.hpp"
#include "pullsched/scheduler/detail/JobAwaiter.hpp"

namespace pullsched {

class Scheduler;

/// Awaitable only inside a Task running on the same scheduler (else std::logic_error at
/// the co_await). A start already past still goes through the time queue: the Task
/// resumes in its turn among the due timed jobs. kAsap resumes it as an untimed job.
class ResumeAt {
  public:
    TimePoint start() const noexcept { return start_; }

  private:
    friend class Scheduler;
    template <class A>
    friend class detail::JobAwaiter;
    ResumeAt(const Scheduler& sched, TimePoint start) noexcept : sched_(&sched), start_(start) {}

    bool ready() const noexcept { return false; }
    detail::ResumeRequest request() const noexcept { return {{}, start_, sched_}; }
    void result() const noexcept {}

    const Scheduler* sched_;
    TimePoint start_;
};

template <>
inline constexpr bool detail::isJobAwaitable<ResumeAt> = true;

}  // namespace pullsched
