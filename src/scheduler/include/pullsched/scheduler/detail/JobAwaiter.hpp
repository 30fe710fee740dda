#pragma once
// How a Task suspends its job: an awaitable that must wait (for jobs, or until a time)
// asks the scheduler to run the job again then, and the job's slice ends. One awaiter
// serves every kind of such awaitable (a handle, whenAll, Scheduler::at/after).

#include <coroutine>
#include <span>
#include <type_traits>
#include <utility>

#include "pullsched/scheduler/JobHandle.hpp"
#include "pullsched/scheduler/Time.hpp"
#include "pullsched/scheduler/detail/JobRecord.hpp"

namespace pullsched {

class Scheduler;

namespace detail {

/// The record behind a handle, for the awaitables (JobHandle keeps it to its friends).
struct HandleAccess {
    static JobRecord* record(const JobHandle& h) noexcept { return h.rec_; }
};

/// The job a chain of Tasks runs as: the spawned Task's, shared by the Tasks it awaits
/// inline. Lives in the spawned Task's promise.
struct JobContext {
    Scheduler* sched = nullptr;
    JobRecord* rec = nullptr;
    const JobPool* pool = nullptr;  ///< the scheduler's: whose handles the Task may await
    /// The innermost Task of the chain, suspended: what the job's next slice resumes.
    std::coroutine_handle<> resumeAt;
};

/// When a suspended job runs again: once every job in `after` is final, not before `start`.
struct ResumeRequest {
    std::span<const JobHandle> after;
    TimePoint start = kAsap;
    /// The scheduler whose clock `start` is on (Scheduler::at); null: the job's own.
    const Scheduler* timedOn = nullptr;
};

/// Validates the request (handles of the job's scheduler, not the job itself; a time on
/// its clock) and hands it to the scheduler, which acts on it once the slice returned.
/// Throws std::invalid_argument or std::logic_error; then nothing was requested.
void requestResume(Scheduler& sched, JobRecord* self, const ResumeRequest& request);
/// std::invalid_argument: a Task awaited a handle of another scheduler.
[[noreturn]] void throwForeignAwait();

/// Awaitables a Task may suspend on besides another Task and a handle: each says whether
/// it must wait (`ready()`), for what (`request()`), and what the co_await gives
/// (`result()`). Set to true by each such type (Scheduler::at's, whenAll's).
template <class A>
inline constexpr bool isJobAwaitable = false;

template <class A>
concept JobAwaitable = isJobAwaitable<std::remove_cvref_t<A>>;

/// The awaiter of one co_await in a Task: holds the awaitable in the frame until the job
/// resumes (the request's handles point into it).
template <class A>
class JobAwaiter {
  public:
    JobAwaiter(A&& awaitable, JobContext& ctx) noexcept(std::is_nothrow_move_constructible_v<A>)
        : awaitable_(std::move(awaitable)), ctx_(ctx) {}

    /// Handles already final are checked here, the others by requestResume: a handle of
    /// another scheduler is refused either way, not only when it happens not to be final.
    bool await_ready() {
        if (!awaitable_.ready()) return false;
        for (const JobHandle& h : awaitable_.request().after)
            if (HandleAccess::record(h)->pool != ctx_.pool) throwForeignAwait();
        return true;
    }
    /// Requests first: when it throws, the coroutine resumes with the exception at once.
    void await_suspend(std::coroutine_handle<> suspended) {
        requestResume(*ctx_.sched, ctx_.rec, awaitable_.request());
        ctx_.resumeAt = suspended;
    }
    decltype(auto) await_resume() { return awaitable_.result(); }

  private:
    A awaitable_;
    JobContext& ctx_;
};

}  // namespace detail
}  // namespace pullsched
