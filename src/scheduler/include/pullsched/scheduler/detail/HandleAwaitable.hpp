#pragma once
// co_await on a job's handle inside a Task: the Task's job suspends until the job is
// final, then the co_await gives its value (rethrows its exception; throws JobNotRun if it
// ended without running). Also what whenAll reads its handles' outcomes with.

#include <exception>
#include <span>
#include <type_traits>
#include <utility>

#include "pullsched/scheduler/JobHandle.hpp"
#include "pullsched/scheduler/JobHandleOf.hpp"
#include "pullsched/scheduler/JobState.hpp"
#include "pullsched/scheduler/detail/JobAwaiter.hpp"
#include "pullsched/scheduler/detail/JobRecord.hpp"
#include "pullsched/scheduler/detail/JobRef.hpp"

namespace pullsched::detail {

/// What awaiting a final job gives: `R` is `T&` (the value in the record, as get() gives
/// it, for a handle the Task holds), `T` (for a handle the awaitable holds: moved out when
/// it holds the record's last reference, or when T cannot be copied; else copied), or
/// void. Throws what the job threw, or JobNotRun.
template <class R>
R outcomeOf(const JobHandle& h) {
    JobRecord* rec = HandleAccess::record(h);
    const JobState s = rec->state.load(std::memory_order_acquire);
    if (s == JobState::Failed) std::rethrow_exception(rec->error);
    if (s != JobState::Completed) throw JobNotRun(s);
    if constexpr (std::is_reference_v<R>) {
        return rec->task.template value<std::remove_reference_t<R>>();
    } else if constexpr (!std::is_void_v<R>) {
        R& v = rec->task.template value<R>();
        if constexpr (std::is_copy_constructible_v<R>) {
            if (!soleReference(rec)) return v;
        }
        return std::move(v);
    }
}

/// The awaitable behind `co_await handle`. `Owned`: it holds the handle (an rvalue was
/// awaited), else the Task's own handle, which outlives the co_await.
template <class R, bool Owned>
class AwaitHandle {
  public:
    using Held = std::conditional_t<Owned, JobHandle, const JobHandle*>;
    explicit AwaitHandle(Held h) noexcept : held_(std::move(h)) {}

    bool ready() const { return handle().done(); }  // throws for an empty handle
    ResumeRequest request() const noexcept { return {std::span<const JobHandle>(&handle(), 1)}; }
    R result() const { return outcomeOf<R>(handle()); }

  private:
    const JobHandle& handle() const noexcept {
        if constexpr (Owned) {
            return held_;
        } else {
            return *held_;
        }
    }
    Held held_;
};

}  // namespace pullsched::detail
