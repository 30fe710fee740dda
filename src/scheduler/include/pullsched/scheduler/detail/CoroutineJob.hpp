#pragma once
// The callable of a spawned Task's job (Scheduler::spawn): each run of the job is one
// slice of the coroutine, from where it was suspended to its next suspension or its end.
// It lives in the job's record (InlineTask::emplaceResumable) and owns the frame: when the
// job ends without finishing the coroutine (cancelled at a suspension, shutdown), the
// record lets go of it and the frame is destroyed with what it holds.

#include <coroutine>
#include <utility>

#include "pullsched/scheduler/Task.hpp"
#include "pullsched/scheduler/detail/JobAwaiter.hpp"

namespace pullsched::detail {

template <class T>
class CoroutineJob {
  public:
    /// Binds the Task's frame to its job: what it awaits suspends `rec`.
    CoroutineJob(Task<T>&& task, Scheduler* sched, JobRecord* rec, const JobPool* pool) noexcept
        : root_(std::exchange(task.frame_, {})) {
        PromiseBase& p = root_.promise();
        p.own_ = JobContext{sched, rec, pool, root_};
        p.ctx_ = &p.own_;
    }
    CoroutineJob(CoroutineJob&& o) noexcept : root_(std::exchange(o.root_, {})) {}
    CoroutineJob& operator=(CoroutineJob&&) = delete;
    ~CoroutineJob() {
        if (root_) root_.destroy();
    }

    /// One slice; true once the Task returned (rethrowing what it threw).
    bool step() {
        std::exchange(root_.promise().own_.resumeAt, {}).resume();
        if (!root_.done()) return false;  // suspended, and asked its scheduler to go on later
        root_.promise().rethrowIfFailed();
        return true;
    }
    T take() { return root_.promise().result(); }

  private:
    std::coroutine_handle<TaskPromise<T>> root_;
};

}  // namespace pullsched::detail
