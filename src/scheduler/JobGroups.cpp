#include <stdexcept>
#include <utility>

#include "detail/SchedulerCore.hpp"
#include "pullsched/scheduler/Scheduler.hpp"

// Groups of jobs (JobGroup): a shared GroupState counts the group's jobs and carries its
// cancelled flag. A job holds a reference to its group from post until it is final, and
// is counted in it when posted (submit) and when it ends (endInGroup, from finalize).
// Cancelling a group only sets the flag: it keeps no list of its jobs, so each not-started
// job is cancelled where it would start (run, runOnCaller), and the queues, the time
// queue's order and the grooming token are untouched.

namespace pullsched {

namespace detail {

GroupStatistics GroupState::stats() const noexcept {
    GroupStatistics s;
    const std::uint64_t e = ended.load(std::memory_order_seq_cst);
    s.completed = completed.load(std::memory_order_relaxed);
    s.failed = failed.load(std::memory_order_relaxed);
    s.expired = expired.load(std::memory_order_relaxed);
    s.cancelled = cancelledJobs.load(std::memory_order_relaxed);
    s.submitted = submitted.load(std::memory_order_seq_cst);
    s.pending = s.submitted - e;
    return s;
}

bool GroupState::noteEnd(JobState outcome) noexcept {
    auto& counter = outcome == JobState::Completed ? completed
                    : outcome == JobState::Failed  ? failed
                    : outcome == JobState::Expired ? expired
                                                   : cancelledJobs;
    counter.fetch_add(1, std::memory_order_relaxed);
    ended.fetch_add(1, std::memory_order_seq_cst);
    return waiters.load(std::memory_order_seq_cst) != 0;
}

GroupState* SchedulerCore::makeGroup() {
    return new GroupState(this, id_);
}

/// After the job's final state was stored: a group waiter that returns sees it final.
void SchedulerCore::endInGroup(JobRecord* job, JobState outcome) noexcept {
    GroupState* group = std::exchange(job->group, nullptr);
    if (group->noteEnd(outcome)) jobEndSignal_.notifyAll();
    releaseRef(group);
}

}  // namespace detail

JobGroup Scheduler::group() {
    return JobGroup(core_->makeGroup());
}

JobGroup::JobGroup(const JobGroup& o) noexcept : state_(o.state_) {
    if (state_) detail::addRef(state_);
}
JobGroup::JobGroup(JobGroup&& o) noexcept : state_(std::exchange(o.state_, nullptr)) {}
JobGroup& JobGroup::operator=(JobGroup o) noexcept {
    std::swap(state_, o.state_);
    return *this;
}
JobGroup::~JobGroup() {
    if (state_) detail::releaseRef(state_);
}

detail::GroupState& JobGroup::state() const {
    if (!state_) throw std::logic_error("pullsched: use of an empty JobGroup");
    return *state_;
}

void JobGroup::wait() const {
    (void)waitFor(Duration::max());
}
bool JobGroup::waitFor(Duration limit) const {
    detail::GroupState& g = state();
    return g.core->waitGroupUntil(g, saturatingAdd(SteadyClock::now(), limit));
}
void JobGroup::cancel() const {
    state().cancelled.store(true, std::memory_order_relaxed);
}
bool JobGroup::cancelled() const {
    return state().cancelled.load(std::memory_order_relaxed);
}
GroupStatistics JobGroup::stats() const {
    return state().stats();
}

}  // namespace pullsched
