#pragma once
// What post() returns: a counted reference to a job, to name it as a predecessor and to
// ask how it ended.

#include <exception>
#include <stdexcept>
#include <utility>

#include "pullsched/scheduler/JobState.hpp"
#include "pullsched/scheduler/detail/JobRef.hpp"

namespace pullsched {

class Scheduler;
class PostBatch;
namespace detail {
class SchedulerCore;
struct HandleAccess;
}  // namespace detail

/// Cheap to copy (one atomic increment). The job's record stays alive while a handle
/// exists, so state() and error() can be asked after the job ended: a live handle pins
/// its record, 192 bytes (three cache lines, pooled), and what the job captured beyond
/// the record's 48 inline bytes until the job ended (its value, for a JobHandleOf,
/// until the last handle goes). Drop handles you no longer need; postDetached() makes none.
///
/// An empty handle (default-constructed or moved from) names no job: `operator bool` is
/// false, and state(), done(), error() and tag() throw std::logic_error.
class JobHandle {
  public:
    JobHandle() noexcept = default;
    JobHandle(const JobHandle& o) noexcept : rec_(o.rec_) {
        if (rec_) detail::addRef(rec_);
    }
    JobHandle(JobHandle&& o) noexcept : rec_(std::exchange(o.rec_, nullptr)) {}
    JobHandle& operator=(JobHandle o) noexcept {
        std::swap(rec_, o.rec_);
        return *this;
    }
    ~JobHandle() {
        if (rec_) detail::releaseRef(rec_);
    }

    explicit operator bool() const noexcept { return rec_ != nullptr; }

    JobState state() const { return record().state.load(std::memory_order_acquire); }
    bool done() const { return isFinal(state()); }
    /// The exception a Failed job threw; null otherwise. Valid once done().
    std::exception_ptr error() const { return state() == JobState::Failed ? rec_->error : nullptr; }
    std::uint64_t tag() const { return record().tag; }

  protected:
    explicit JobHandle(detail::JobRecord* adopted) noexcept : rec_(adopted) {}
    detail::JobRecord* rec_ = nullptr;

  private:
    friend class Scheduler;
    friend class PostBatch;
    friend class detail::SchedulerCore;
    friend struct detail::HandleAccess;  // what co_await on a handle reads (Task)
    const detail::JobRecord& record() const {
        if (!rec_) throw std::logic_error("pullsched: query on an empty JobHandle");
        return *rec_;
    }
};

}  // namespace pullsched
