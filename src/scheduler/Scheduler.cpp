#include "pullsched/scheduler/Scheduler.hpp"

#include <stdexcept>

#include "detail/SchedulerCore.hpp"

namespace pullsched {

void detail::waitForValue(Scheduler& sched, const JobHandle& job) {
    sched.wait(job);
}

void detail::throwForeignAwait() {
    throw std::invalid_argument(
        "pullsched: a Task awaited a JobHandle of another scheduler (a Task may await only "
        "jobs of the scheduler it was spawned on)");
}

void detail::requestResume(Scheduler& sched, detail::JobRecord* self,
                           const detail::ResumeRequest& request) {
    if (request.timedOn && request.timedOn != &sched)
        throw std::logic_error(
            "pullsched: a Task awaited another scheduler's at()/after(); it resumes only on "
            "the scheduler it was spawned on");
    for (const JobHandle& h : request.after) {
        const detail::JobRecord* rec = detail::HandleAccess::record(h);
        if (!rec) throw std::invalid_argument("pullsched: a Task awaited an empty JobHandle");
        if (rec->pool != sched.pool_) detail::throwForeignAwait();
        if (detail::inOpenBatch(*rec))
            throw std::invalid_argument(
                "pullsched: a Task awaited a JobHandle of a batch not submitted yet");
        if (rec == self)
            throw std::logic_error("pullsched: a Task awaited the handle of its own job");
    }
    sched.core_->requestResume(self, request.after, request.start);
}

Scheduler::Scheduler(const SchedulerConfig& cfg)
    : core_(std::make_unique<detail::SchedulerCore>(cfg)), pool_(core_->pool()) {}

Scheduler::~Scheduler() = default;  // the core's destructor shuts down in the configured mode

void Scheduler::drain() {
    core_->drain();
}

bool Scheduler::drainFor(Duration limit) {
    return core_->drainUntil(saturatingAdd(SteadyClock::now(), limit));
}

bool Scheduler::waitFor(const JobHandle& job, Duration limit) {
    detail::JobRecord* const one[] = {checkedRecord(job)};
    return waitRecords(one, limit);
}

bool Scheduler::waitRecords(std::span<detail::JobRecord* const> jobs, Duration limit) {
    return core_->waitUntil(jobs, saturatingAdd(SteadyClock::now(), limit));
}

bool Scheduler::cancel(const JobHandle& job) {
    return core_->cancel(checkedRecord(job));
}

ShutdownReport Scheduler::shutdown(ShutdownMode mode) {
    return core_->shutdown(mode);
}

void Scheduler::wake() {
    core_->wake();
}

Statistics Scheduler::stats() const {
    return core_->stats();
}

std::uint64_t Scheduler::queueDepth() const noexcept {
    return core_->queueDepth();
}

TimePoint Scheduler::now() const noexcept {
    return core_->now();
}

unsigned Scheduler::workerCount() const noexcept {
    return core_->workerCount();
}

std::optional<unsigned> Scheduler::threadIndex() const noexcept {
    return core_->threadIndex();
}

unsigned Scheduler::threadSlots() const noexcept {
    return core_->threadSlots();
}

bool Scheduler::writeTraceDump(std::ostream& out) const {
    return core_->writeTraceDump(out);
}

detail::JobRecord* Scheduler::acquireRecord(const JobOptions& opts) {
    return core_->acquire(opts);
}

void Scheduler::abandonRecord(detail::JobRecord* rec) noexcept {
    core_->abandon(rec);
}

void Scheduler::submitRecord(detail::JobRecord* rec, std::span<const JobHandle> preds) {
    core_->submit(rec, preds);
}

}  // namespace pullsched
