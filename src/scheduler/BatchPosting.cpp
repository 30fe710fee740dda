#include <algorithm>
#include <stdexcept>
#include <utility>
#include <vector>

#include "detail/BatchState.hpp"
#include "detail/GroupState.hpp"
#include "detail/SchedulerCore.hpp"
#include "pullsched/scheduler/PostBatch.hpp"
#include "pullsched/scheduler/Scheduler.hpp"

// Posting many jobs at once (PostBatch). While a batch is open its records are nobody
// else's: a job naming another of the batch is a plain append to its successor list and a
// plain increment of its gate, no lock and no atomic read-modify-write. submit() then does
// once for the batch what post() does per job: announce itself to shutdown(), count the
// jobs, and publish the ready ones in one queue operation with one wake check.

namespace pullsched {

using detail::BatchState;
using detail::JobRecord;

namespace {

/// The open batch behind `state`, or a std::logic_error saying why there is none.
BatchState& openState(const std::unique_ptr<BatchState>& state) {
    if (!state) throw std::logic_error("pullsched: use of a moved-from PostBatch");
    if (state->submitted) throw std::logic_error("pullsched: PostBatch used after submit()");
    return *state;
}

/// A plain increment: the record is private to its batch until submit().
void raiseGate(JobRecord* rec) noexcept {
    rec->gate.store(rec->gate.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
}

/// Whether `target` is `from` or one of its successors, directly or not (within an open
/// batch, whose successor lists are private).
bool reaches(const BatchState& b, JobRecord* from, JobRecord* target) {
    std::vector<bool> seen(b.records.size());
    std::vector<JobRecord*> todo{from};
    while (!todo.empty()) {
        JobRecord* r = todo.back();
        todo.pop_back();
        if (r == target) return true;
        const std::size_t i = BatchState::indexOf(r);
        if (seen[i]) continue;
        seen[i] = true;
        r->forEachSuccessor([&](JobRecord* s) { todo.push_back(s); });
    }
    return false;
}

}  // namespace

[[noreturn]] void Scheduler::throwForeignPredecessor(const detail::JobRecord& pred) {
    if (detail::inOpenBatch(pred))
        throw std::invalid_argument(
            "pullsched: predecessor belongs to a batch that was not submitted yet");
    throw std::invalid_argument("pullsched: predecessor belongs to another scheduler");
}

PostBatch Scheduler::batch(std::size_t expectedJobs) {
    return PostBatch(core_->openBatch(expectedJobs));
}

PostBatch::PostBatch(std::unique_ptr<BatchState> state) noexcept : state_(std::move(state)) {}

PostBatch::PostBatch(PostBatch&&) noexcept = default;

PostBatch& PostBatch::operator=(PostBatch&& other) noexcept {
    if (this != &other) {
        PostBatch discarded(std::move(*this));  // an unsubmitted batch is discarded
        state_ = std::move(other.state_);
    }
    return *this;
}

PostBatch::~PostBatch() {
    if (!state_) return;
    if (!state_->submitted) state_->core.discardBatch(*state_);
    detail::SchedulerCore& core = state_->core;
    core.recycleBatch(std::move(state_));
}

std::size_t PostBatch::size() const noexcept {
    return state_ ? state_->records.size() : 0;
}

void PostBatch::validate(const BatchState& b, const JobOptions& opts,
                         std::span<const JobHandle> preds) {
    if (opts.start != kAsap && opts.deadline != kNoDeadline && opts.deadline < opts.start)
        throw std::invalid_argument("pullsched: job deadline lies before its start time");
    if (opts.group.state && opts.group.state->owner != b.core.id())
        throw std::invalid_argument("pullsched: JobOptions::group belongs to another scheduler");
    for (const JobHandle& p : preds) {
        if (!p) throw std::invalid_argument("pullsched: empty JobHandle given as predecessor");
        if (b.owns(p.rec_)) continue;
        if (detail::inOpenBatch(*p.rec_))
            throw std::invalid_argument(
                "pullsched: predecessor belongs to another batch that was not submitted yet");
        if (p.rec_->pool != b.pool)
            throw std::invalid_argument("pullsched: predecessor belongs to another scheduler");
    }
}

JobRecord* PostBatch::acquire(const JobOptions& opts, std::span<const JobHandle> preds,
                              bool withHandle) {
    BatchState& b = openState(state_);
    validate(b, opts, preds);
    JobRecord* rec = b.core.acquireBatched(b, opts);
    if (withHandle) rec->refs.store(2, std::memory_order_relaxed);  // nobody else's yet
    return rec;
}

void PostBatch::dropLast() noexcept {
    JobRecord* rec = state_->records.back();
    state_->records.pop_back();
    rec->refs.store(1, std::memory_order_relaxed);  // no handle was made
    if (rec->group) detail::releaseRef(std::exchange(rec->group, nullptr));
    detail::releaseRef(rec);
}

/// A predecessor in the batch: a plain append and increment. One outside it (the
/// scheduler's): referenced until submit() wires it, counted in the gate now.
void PostBatch::link(JobRecord* rec, std::span<const JobHandle> preds) {
    BatchState& b = *state_;
    for (const JobHandle& p : preds) {
        JobRecord* pred = p.rec_;
        if (b.owns(pred)) {
            pred->addSuccessor(rec);
        } else {
            b.external.push_back({rec, pred});
            detail::addRef(pred);
        }
        raiseGate(rec);
    }
}

JobHandle PostBatch::placeholder() {
    return JobHandle(acquire({}, {}, true));
}

JobRecord* PostBatch::beginFill(const JobHandle& placeholder, const JobOptions& opts,
                                std::span<const JobHandle> preds) {
    BatchState& b = openState(state_);
    if (!placeholder || !b.owns(placeholder.rec_) || placeholder.rec_->task)
        throw std::invalid_argument(
            "pullsched: fill() needs an unfilled placeholder of this batch");
    JobRecord* rec = placeholder.rec_;
    for (const JobHandle& p : preds) {
        if (p && b.owns(p.rec_) && reaches(b, rec, p.rec_))
            throw std::invalid_argument(
                "pullsched: fill() would make a cycle: a predecessor depends on the placeholder");
    }
    validate(b, opts, preds);
    rec->start = opts.start;
    rec->deadline = opts.deadline;
    rec->tag = opts.tag;
    // A fill() before this one failed (its work's copy threw) after it took its group.
    if (detail::GroupState* left = std::exchange(rec->group, nullptr)) detail::releaseRef(left);
    if ((rec->group = opts.group.state)) addRef(rec->group);  // counted in it at submit()
    return rec;
}

void PostBatch::submit() {
    BatchState& b = openState(state_);
    try {
        for (const JobRecord* rec : b.records)
            if (!rec->task)
                throw std::logic_error(
                    "pullsched: PostBatch::submit() with a placeholder never filled");
        b.core.submitBatch(b);
    } catch (...) {
        b.core.discardBatch(b);
        b.submitted = true;
        throw;
    }
    b.submitted = true;
}

}  // namespace pullsched

namespace pullsched::detail {

std::unique_ptr<BatchState> SchedulerCore::openBatch(std::size_t expectedJobs) {
    std::unique_ptr<BatchState> batch = batchStock_.take();
    if (!batch) batch = std::make_unique<BatchState>(*this, pool_.get());
    batch->records.reserve(expectedJobs);
    return batch;
}

namespace {
/// Lists longer than this are freed rather than kept for the next batch (8-16 KB each).
constexpr std::size_t kKeptListLength = 1024;

template <class T>
void emptyList(std::vector<T>& list) noexcept {
    if (list.capacity() > kKeptListLength) {
        list = {};
    } else {
        list.clear();
    }
}
}  // namespace

void BatchState::reset() noexcept {
    emptyList(records);
    emptyList(ready);
    emptyList(timed);
    emptyList(doomed);
    emptyList(external);
    emptyList(wiring);
    submitted = false;
}

BatchStock::~BatchStock() {
    delete kept_.exchange(nullptr, std::memory_order_acquire);
}

std::unique_ptr<BatchState> BatchStock::take() noexcept {
    if (!kept_.load(std::memory_order_relaxed)) return nullptr;  // skip the exchange
    return std::unique_ptr<BatchState>(kept_.exchange(nullptr, std::memory_order_acquire));
}

void BatchStock::give(std::unique_ptr<BatchState> state) noexcept {
    state->reset();
    delete kept_.exchange(state.release(), std::memory_order_acq_rel);
}

/// From the worker's cache on a worker, else from the batch's own (one pool lock per 32).
/// The options were validated (PostBatch::validate).
JobRecord* SchedulerCore::acquireBatched(BatchState& batch, const JobOptions& opts) {
    RecordCache* bound = RecordCache::bound();
    JobRecord* rec = bound && bound->pool() == pool_.get() ? bound->take() : batch.cache.take();
    rec->start = opts.start;
    rec->deadline = opts.deadline;
    rec->tag = opts.tag;
    rec->seq = kOpenBatchSeq | batch.records.size();  // marked, its index until submit()
    rec->refs.store(1, std::memory_order_relaxed);    // the scheduler's
    rec->gate.store(1, std::memory_order_relaxed);    // the batch's guard
    try {
        batch.records.push_back(rec);
    } catch (...) {
        releaseRef(rec);
        throw;
    }
    if ((rec->group = opts.group.state)) addRef(rec->group);  // counted in it at submit()
    return rec;
}

void SchedulerCore::submitBatch(BatchState& batch) {
    if (batch.records.empty()) return;
    if (!onOwnWorker()) {
        // As acquire(): announced, then checked, once for the whole batch.
        outsidePosts_.fetch_add(1, std::memory_order_seq_cst);
        spread_.notePost();
        if (closed_.load(std::memory_order_seq_cst)) {
            endOutsidePost();
            throw std::logic_error("pullsched: PostBatch::submit() after shutdown() began");
        }
    }
    struct EndPost {
        SchedulerCore* core;
        ~EndPost() { core->endOutsidePost(); }
    } endPost{this};
    wireBatch(batch);
    countBatch(batch);
    openBatchGates(batch);
    publishBatch(batch);
}

/// One accounting update for the batch, before any of its jobs can end: sequence numbers
/// in the order posted (timed jobs need them; on a worker its untimed posts are counted on
/// its own line instead, as submit() does per job). The records become the scheduler's.
void SchedulerCore::countBatch(BatchState& batch) {
    Worker* w = callingWorker();
    std::uint64_t counted = batch.records.size();
    if (w) {
        const auto untimed = static_cast<std::uint64_t>(
            std::count_if(batch.records.begin(), batch.records.end(),
                          [](const JobRecord* r) { return r->start == kAsap; }));
        if (untimed > 0) WorkerCounters::bump(w->counters.posted, untimed);
        counted -= untimed;
    }
    std::uint64_t seq = counted > 0 ? seq_.fetch_add(counted, std::memory_order_relaxed) : 0;
    for (JobRecord* rec : batch.records) {
        if (rec->group) rec->group->submitted.fetch_add(1, std::memory_order_seq_cst);
        rec->seq = w && rec->start == kAsap ? 0 : seq++;
    }
}

/// Wire the predecessors outside the batch: their notifications were counted in the gates
/// when posted; one that ended already is noted, to be settled with the batch's guard (or
/// dooms the job). Its finalisation may lower a gate from now on, but the guard stays.
void SchedulerCore::wireBatch(BatchState& batch) {
    batch.wiring.clear();
    if (batch.external.empty()) return;
    batch.wiring.resize(batch.records.size());
    for (const BatchState::ExternalEdge& e : batch.external) {
        JobRecord* p = e.pred;
        {
            std::lock_guard lock(p->succLock);
            if (!p->closed) {
                p->addSuccessor(e.job);
                batch.wiring[BatchState::indexOf(e.job)].open = true;  // until countBatch
            } else {
                ++batch.wiring[BatchState::indexOf(e.job)].ended;
                if (p->state.load(std::memory_order_acquire) != JobState::Completed)
                    e.job->doomed.store(true, std::memory_order_relaxed);
            }
        }
        releaseRef(p);
    }
    batch.external.clear();
}

/// Take the batch's guard (and the ended outside predecessors) off every gate, in two
/// passes. First the gates without an open outside predecessor, with a plain store: only
/// this thread can change them yet, as every job that could lower one (a job of the batch)
/// is still held by its guard. Then the gates with one, by read-modify-write: once such a
/// guard is off, the outside predecessor's end may release the job at once, and it may run
/// and lower the gates of its successors in the batch while this loop goes on (so a plain
/// store there could lose that notification).
void SchedulerCore::openBatchGates(BatchState& batch) {
    const bool wired = !batch.wiring.empty();
    batch.ready.clear();
    batch.timed.clear();
    batch.doomed.clear();
    batch.ready.reserve(batch.records.size());  // one allocation, not one per doubling
    auto opened = [&batch](JobRecord* rec) {
        if (rec->doomed.load(std::memory_order_relaxed)) {
            batch.doomed.push_back(rec);
        } else {
            (rec->start == kAsap ? batch.ready : batch.timed).push_back(rec);
        }
    };
    for (std::size_t i = 0; i < batch.records.size(); ++i) {
        if (wired && batch.wiring[i].open) continue;
        JobRecord* rec = batch.records[i];
        const std::int32_t left =
            rec->gate.load(std::memory_order_relaxed) - 1 - (wired ? batch.wiring[i].ended : 0);
        rec->gate.store(left, std::memory_order_relaxed);
        if (left == 0) opened(rec);
    }
    for (std::size_t i = 0; wired && i < batch.records.size(); ++i) {
        if (!batch.wiring[i].open) continue;
        JobRecord* rec = batch.records[i];
        const std::int32_t settle = 1 + batch.wiring[i].ended;
        if (rec->gate.fetch_sub(settle, std::memory_order_acq_rel) == settle) opened(rec);
    }
}

/// The jobs whose gate opened, in one push per queue and one wake decision each: untimed
/// ones where a post from this thread would go (see releasePosted), timed ones into the
/// entrance, waking for the earliest of them.
void SchedulerCore::publishBatch(BatchState& batch) {
    Worker* w = callingWorker();
    const bool helper = !w && onOwnWorker();  // a thread in drain() running a job
    for (JobRecord* rec : batch.ready)
        rec->state.store(JobState::Scheduled, std::memory_order_relaxed);
    TimePoint earliest = kNoDeadline;
    for (JobRecord* rec : batch.timed) {
        rec->state.store(JobState::Scheduled, std::memory_order_relaxed);
        earliest = std::min(earliest, rec->start);
    }
    const std::size_t shared = batch.timed.size() + (w || helper ? 0 : batch.ready.size());
    if (shared > 0) queued_.fetch_add(static_cast<std::int64_t>(shared), std::memory_order_relaxed);
    if (const std::size_t n = batch.ready.size(); n > 0) {
        if (w) {
            w->posted.pushAll(batch.ready.data(), n);
            const auto pushes = static_cast<std::uint32_t>(n);
            if (std::exchange(w->postedPushes, w->postedPushes + pushes) == 0) wakeForDueWork(w);
        } else if (helper) {
            helperPosted_.pushAll(batch.ready.data(), n);
            const auto pushes = static_cast<std::uint32_t>(n);
            if (std::exchange(tlWorker_.helperPushes, tlWorker_.helperPushes + pushes) == 0)
                wakeForDueWork(nullptr);
        } else {
            ready_.pushAll(batch.ready.data(), n);
            wakeForDueWork(nullptr);
        }
    }
    if (!batch.timed.empty()) {
        // Read before pushing: once pushed, a worker may run and recycle them.
        const bool due = earliest <= now();
        entrance_.pushAll(batch.timed.data(), batch.timed.size());
        wakeForTimedPost(due, WakeProtocol::ticks(earliest), w);
    }
    for (JobRecord* rec : batch.doomed)
        finalize(rec, JobState::Cancelled, nullptr);
}

void SchedulerCore::discardBatch(BatchState& batch) noexcept {
    for (const BatchState::ExternalEdge& e : batch.external)
        releaseRef(e.pred);
    batch.external.clear();
    for (JobRecord* rec : batch.records) {
        rec->task.reset();
        rec->seq = 0;  // unmarked: a later post naming it finds it closed, and is cancelled
        if (rec->group) releaseRef(std::exchange(rec->group, nullptr));  // never counted in it
        rec->closed = true;
        rec->state.store(JobState::Cancelled, std::memory_order_release);
    }
    for (JobRecord* rec : batch.records)
        releaseRef(rec);  // the scheduler's reference
    batch.records.clear();
}

}  // namespace pullsched::detail
