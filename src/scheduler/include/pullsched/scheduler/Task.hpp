#pragma once
// A coroutine that runs as a job, or inside one: fork-join and timed steps without a
// worker that blocks.
//
//   pullsched::Task<long> fib(pullsched::Scheduler& s, int n) {
//       if (n < 2) co_return n;
//       auto a = s.spawn(fib(s, n - 1));   // a job of its own: JobHandleOf<long>
//       long b = co_await fib(s, n - 2);   // runs inline, no job
//       co_return co_await a + b;          // the job suspends until a is final
//   }
//   auto h = s.spawn(fib(s, 30));          // from anywhere: h.get() waits, as for post()
//
// See docs/coroutines.md.

#include <coroutine>
#include <utility>

#include "pullsched/scheduler/detail/TaskPromise.hpp"

namespace pullsched {

class Scheduler;

/// Made by calling a coroutine that returns it; lazily started: nothing runs until the
/// Task is spawned (Scheduler::spawn: it becomes a job, whose handle ends when the Task
/// returns) or awaited by another Task (`co_await task`: it runs at once, inline, in the
/// awaiting Task's job, and gives its value or rethrows its exception).
///
/// Inside a Task, `co_await` takes only: another Task; a JobHandle or JobHandleOf<U> (the
/// job suspends until that job is final, holding no thread, then gives what get() would:
/// the value as `U&` for a handle the Task holds, as `U` for an rvalue handle, or throws
/// the job's exception or JobNotRun); Scheduler::at() and after() (the job runs again as
/// a timed job); whenAll(). Each such suspension ends one job of the Task's and posts the
/// next (docs/coroutines.md, "Accounting"). A Task must not wait() or drain() (a job
/// cannot), nor await handles of another scheduler. Move-only; destroying a Task that did
/// not start destroys its frame.
template <class T = void>
class [[nodiscard]] Task {
  public:
    using promise_type = detail::TaskPromise<T>;

    Task() noexcept = default;
    Task(Task&& o) noexcept : frame_(std::exchange(o.frame_, {})) {}
    Task& operator=(Task&& o) noexcept {
        if (this != &o) {
            if (frame_) frame_.destroy();
            frame_ = std::exchange(o.frame_, {});
        }
        return *this;
    }
    Task(const Task&) = delete;
    Task& operator=(const Task&) = delete;
    ~Task() {
        if (frame_) frame_.destroy();
    }

    /// False for a Task that was moved from (spawned, awaited) or default-constructed.
    explicit operator bool() const noexcept { return static_cast<bool>(frame_); }

  private:
    friend promise_type;
    template <class U>
    friend class detail::TaskAwaiter;
    template <class U>
    friend class detail::CoroutineJob;
    explicit Task(std::coroutine_handle<promise_type> frame) noexcept : frame_(frame) {}
    std::coroutine_handle<promise_type> frame_;
};

inline Task<void> detail::TaskPromise<void>::get_return_object() noexcept {
    return Task<void>(std::coroutine_handle<TaskPromise>::from_promise(*this));
}

}  // namespace pullsched
