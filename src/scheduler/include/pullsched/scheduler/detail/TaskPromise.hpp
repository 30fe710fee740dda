#pragma once
// The promise behind Task<T>, and co_await of one Task inside another (run inline: the
// awaiting Task suspends, the awaited one starts at once on the same thread, and its end
// resumes the awaiting one, by symmetric transfer, without a job or a queue).

#include <coroutine>
#include <cstddef>
#include <exception>
#include <optional>
#include <stdexcept>
#include <type_traits>
#include <utility>

#include "pullsched/scheduler/JobHandle.hpp"
#include "pullsched/scheduler/JobHandleOf.hpp"
#include "pullsched/scheduler/detail/FrameCache.hpp"
#include "pullsched/scheduler/detail/HandleAwaitable.hpp"
#include "pullsched/scheduler/detail/JobAwaiter.hpp"

namespace pullsched {

template <class T>
class Task;

namespace detail {

template <class T>
class TaskAwaiter;
template <class T>
class CoroutineJob;

/// What every Task's promise has: frames from the FrameCache, a lazy start, the Task
/// that awaits it (resumed at its end) and the job it runs in; and which co_awaits a Task
/// may make: another Task (inline), a handle (the job suspends), Scheduler::at/after and
/// whenAll (the job suspends). Anything else does not compile: an awaitable that suspends
/// without telling the scheduler would leave the job neither running nor queued.
class PromiseBase {
  public:
    static void* operator new(std::size_t size) { return FrameCache::allocate(size); }
    static void operator delete(void* frame, std::size_t size) noexcept {
        FrameCache::deallocate(frame, size);
    }

    std::suspend_always initial_suspend() const noexcept { return {}; }

    /// Resumes the awaiting Task, if any; a spawned Task's end returns to its job.
    struct FinalAwaiter {
        bool await_ready() const noexcept { return false; }
        template <class P>
        std::coroutine_handle<> await_suspend(std::coroutine_handle<P> ending) const noexcept {
            const std::coroutine_handle<> next = ending.promise().continuation_;
            return next ? next : std::noop_coroutine();
        }
        void await_resume() const noexcept {}
    };
    FinalAwaiter final_suspend() const noexcept { return {}; }
    void unhandled_exception() noexcept { error_ = std::current_exception(); }

    template <class U>
    TaskAwaiter<U> await_transform(Task<U>&& task) noexcept {
        return TaskAwaiter<U>(std::move(task), *ctx_);
    }
    JobAwaiter<AwaitHandle<void, false>> await_transform(const JobHandle& h) noexcept {
        return {AwaitHandle<void, false>(&h), *ctx_};
    }
    JobAwaiter<AwaitHandle<void, true>> await_transform(JobHandle&& h) noexcept {
        return {AwaitHandle<void, true>(std::move(h)), *ctx_};
    }
    template <class U>
    JobAwaiter<AwaitHandle<U&, false>> await_transform(const JobHandleOf<U>& h) noexcept {
        return {AwaitHandle<U&, false>(&h), *ctx_};
    }
    template <class U>
    JobAwaiter<AwaitHandle<U, true>> await_transform(JobHandleOf<U>&& h) noexcept {
        return {AwaitHandle<U, true>(std::move(h)), *ctx_};
    }
    template <JobAwaitable A>
    JobAwaiter<std::remove_cvref_t<A>> await_transform(A&& awaitable) {
        std::remove_cvref_t<A> own(std::forward<A>(awaitable));
        return {std::move(own), *ctx_};
    }

  protected:
    void rethrowIfFailed() const {
        if (error_) std::rethrow_exception(error_);
    }

  private:
    template <class U>
    friend class TaskAwaiter;
    template <class U>
    friend class CoroutineJob;

    /// The job this Task runs in: `own_` for a spawned Task, its awaiter's for one awaited
    /// inline. Set before the Task starts.
    JobContext* ctx_ = nullptr;
    JobContext own_;
    std::coroutine_handle<> continuation_;  ///< the Task awaiting this one inline, if any
    std::exception_ptr error_;
};

template <class T>
class TaskPromise : public PromiseBase {
  public:
    static_assert(std::is_object_v<T> && std::is_move_constructible_v<T>,
                  "a Task's value must be a movable object type");
    Task<T> get_return_object() noexcept {
        return Task<T>(std::coroutine_handle<TaskPromise>::from_promise(*this));
    }
    template <class U = T>
    requires std::is_convertible_v<U&&, T>
    void return_value(U&& value) noexcept(std::is_nothrow_constructible_v<T, U&&>) {
        value_.emplace(std::forward<U>(value));
    }
    /// The value, moved out; rethrows what the Task threw.
    T result() {
        rethrowIfFailed();
        return std::move(*value_);
    }

  private:
    std::optional<T> value_;
};

template <>
class TaskPromise<void> : public PromiseBase {
  public:
    Task<void> get_return_object() noexcept;
    void return_void() const noexcept {}
    void result() const { rethrowIfFailed(); }
};

/// co_await task: starts the Task on this thread, in the awaiting Task's job.
template <class T>
class TaskAwaiter {
  public:
    TaskAwaiter(Task<T>&& task, JobContext& ctx) noexcept : task_(std::move(task)), ctx_(ctx) {}

    bool await_ready() const {
        if (!task_) throw std::invalid_argument("pullsched: co_await on an empty Task");
        return false;
    }
    std::coroutine_handle<> await_suspend(std::coroutine_handle<> awaiting) noexcept {
        auto& p = task_.frame_.promise();
        p.ctx_ = &ctx_;
        p.continuation_ = awaiting;
        return task_.frame_;
    }
    T await_resume() { return task_.frame_.promise().result(); }

  private:
    Task<T> task_;  ///< owns the frame until the co_await's end
    JobContext& ctx_;
};

}  // namespace detail
}  // namespace pullsched
