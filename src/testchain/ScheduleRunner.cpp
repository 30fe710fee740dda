#include "pullsched/testchain/ScheduleRunner.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>

namespace pullsched::testchain {

namespace {

constexpr auto kPollInterval = std::chrono::milliseconds{5};
constexpr auto kFaultWaitLimit = std::chrono::seconds{5};
/// Nodes prepared between two polls of the stop predicate in the constructor.
constexpr std::size_t kStopCheckNodes = std::size_t{1} << 16;

}  // namespace

Statistics statsDelta(const Statistics& after, const Statistics& before) noexcept {
    Statistics d = after;
    d.submitted = after.submitted - before.submitted;
    d.completed = after.completed - before.completed;
    d.failed = after.failed - before.failed;
    d.expired = after.expired - before.expired;
    d.cancelled = after.cancelled - before.cancelled;
    d.dispatches = after.dispatches - before.dispatches;
    d.continuations = after.continuations - before.continuations;
    d.tokenAcquisitions = after.tokenAcquisitions - before.tokenAcquisitions;
    d.tokenContention = after.tokenContention - before.tokenContention;
    d.backoffSleeps = after.backoffSleeps - before.backoffSleeps;
    d.backoffSleepTime = after.backoffSleepTime - before.backoffSleepTime;
    d.parks = after.parks - before.parks;
    d.wakeups = after.wakeups - before.wakeups;
    return d;  // pending, maxQueueDepth, queueDepth: the "after" gauges
}

/// Everything the jobs of a run touch. Written by the runner thread before the planning
/// jobs are posted and read by it after every job reached a final state; in between,
/// each node job writes only its own node's hash and its own slots, and the planning jobs
/// (sequential) write the handles and post counts.
struct ScheduleRunner::State {
    Scheduler* sched = nullptr;
    TestChainGraph graph;
    std::optional<ComputationalLoad> load;
    Duration timeBase{0};
    std::size_t chunkSize = 64;
    bool deadlines = true;
    std::uint64_t tagBase = 0;
    JobGroup group;  ///< every job of a run joins it (empty: none)
    std::optional<Fault::Edge> dropEdge;
    std::optional<std::size_t> skipNode;

    // Per node, fixed for the runner's lifetime.
    std::vector<std::uint32_t> weight;  ///< effective weight
    std::vector<Duration> start;        ///< schedule.nodeStart
    std::vector<Duration> deadline;     ///< schedule.nodeDeadline

    // Per run.
    TimePoint anchor{};
    std::vector<JobHandle> handles;  ///< written by the planning jobs
    std::vector<std::uint8_t> posts;
    std::vector<Duration> began;  ///< written by the node's own job
    std::vector<Duration> ended;
    std::string planningError;  ///< written by a failing planning job
    std::atomic<std::size_t> exitsRemaining{0};
    std::atomic<bool> faultSuccDone{false};
    std::atomic<bool> stopping{false};  ///< the run was interrupted: post and run nothing more
    std::mutex mutex;
    std::condition_variable exitsDoneCv;
    bool exitsDone = false;  ///< guarded by mutex

    explicit State(const TestChainGraph& g) : graph(g) {}
};

namespace {

using State = ScheduleRunner::State;

void runNode(State& st, std::uint32_t i) {
    if (st.stopping.load(std::memory_order_relaxed)) return;  // interrupted: skip the work
    const TimePoint t0 = st.sched->now();
    if (st.dropEdge && st.dropEdge->pred == i) {
        // Fault: force the order the dropped edge allows, succ before pred.
        const auto limit = SteadyClock::now() + kFaultWaitLimit;
        while (!st.faultSuccDone.load(std::memory_order_acquire) && SteadyClock::now() < limit)
            std::this_thread::yield();
    }
    const std::size_t w = st.weight[i];
    if (w > 0 && st.load) st.load->invoke(w, st.timeBase);
    Node& node = st.graph.node(i);
    node.calculate(st.graph.nodes());
    const TimePoint t1 = st.sched->now();
    st.began[i] = t0 - st.anchor;
    st.ended[i] = t1 - st.anchor;
    if (st.dropEdge && st.dropEdge->succ == i)
        st.faultSuccDone.store(true, std::memory_order_release);
    if (node.isExit() && st.exitsRemaining.fetch_sub(1, std::memory_order_acq_rel) == 1) {
        std::lock_guard lock(st.mutex);
        st.exitsDone = true;
        st.exitsDoneCv.notify_all();
    }
}

void planChunk(const std::shared_ptr<State>& owner, std::size_t chunk) {
    State& st = *owner;
    const std::size_t n = st.graph.size();
    const std::size_t lo = chunk * st.chunkSize;
    const std::size_t hi = std::min(n, lo + st.chunkSize);
    try {
        std::array<JobHandle, FanList::kCapacity> preds;
        for (std::size_t i = lo; i < hi; ++i) {
            // One chunk may hold a whole graph: an interruption must not wait for it.
            if (st.stopping.load(std::memory_order_relaxed)) return;
            if (st.skipNode == i) continue;
            std::size_t np = 0;
            for (std::uint32_t p : st.graph.node(i).predecessors()) {
                if (st.skipNode == p) continue;
                if (st.dropEdge && st.dropEdge->pred == p && st.dropEdge->succ == i) continue;
                preds[np++] = st.handles[p];
            }
            JobOptions opts;
            opts.start = st.anchor + st.start[i];
            opts.deadline = st.deadlines ? st.anchor + st.deadline[i] : kNoDeadline;
            opts.tag = st.tagBase + i;
            if (st.group) opts.group = st.group;
            const auto idx = static_cast<std::uint32_t>(i);
            st.handles[i] = st.sched->post([owner, idx] { runNode(*owner, idx); }, opts,
                                           std::span<const JobHandle>(preds.data(), np));
            ++st.posts[i];
            for (std::size_t k = 0; k < np; ++k)
                preds[k] = JobHandle{};
        }
    } catch (const std::exception& e) {
        st.planningError = "planning chunk " + std::to_string(chunk) + ": " + e.what();
        throw;
    } catch (...) {
        st.planningError = "planning chunk " + std::to_string(chunk) + ": unknown exception";
        throw;
    }
}

/// Clears what the previous run left: node hashes, post counts, timings, the exit count.
/// No job of this runner is pending when it is called.
void resetRunState(State& st) {
    st.graph.clearNodeHashes();
    std::fill(st.posts.begin(), st.posts.end(), std::uint8_t{0});
    std::fill(st.began.begin(), st.began.end(), JobTiming::kNotRun);
    std::fill(st.ended.begin(), st.ended.end(), JobTiming::kNotRun);
    st.planningError.clear();
    std::size_t exits = 0;
    for (std::size_t i = 0; i < st.graph.size(); ++i)
        if (st.graph.node(i).isExit() && st.skipNode != i) ++exits;
    st.exitsRemaining.store(exits, std::memory_order_relaxed);
    st.faultSuccDone.store(false, std::memory_order_relaxed);
    st.stopping.store(false, std::memory_order_relaxed);
    st.exitsDone = exits == 0;
}

/// One planning job per chunk at its start, each after the previous one: the chunks are
/// planned in order, as a planner that posts its schedule piece by piece does.
std::vector<JobHandle> postPlanningJobs(Scheduler& sched, const std::shared_ptr<State>& owner,
                                        const std::vector<Duration>& planStart) {
    std::vector<JobHandle> plans(planStart.size());
    for (std::size_t k = 0; k < plans.size(); ++k) {
        JobOptions opts;
        opts.start = owner->anchor + planStart[k];
        opts.tag = ScheduleRunner::kPlanningTag | k;
        if (owner->group) opts.group = owner->group;
        auto job = [owner, k] { planChunk(owner, k); };
        if (k == 0)
            plans[k] = sched.post(job, opts);
        else
            plans[k] = sched.post(job, opts, {plans[k - 1]});
    }
    return plans;
}

struct WaitOutcome {
    bool interrupted = false;
    bool timedOut = false;
    bool planningFailed = false;
};

/// Waits until every planning job and every posted node job reached a final state, the
/// stop predicate asks, or the completion limit passes. The last exit wakes the waiter;
/// polling covers runs where some exit never completes.
WaitOutcome waitUntilFinal(State& st, const std::vector<JobHandle>& plans, Duration completionLimit,
                           const StopPredicate& stop) {
    WaitOutcome out;
    const std::size_t n = st.graph.size();
    const auto limitAt = saturatingAdd(SteadyClock::now(), completionLimit);
    std::size_t planCursor = 0;
    std::size_t nodeCursor = 0;
    unsigned spins = 0;
    for (;;) {
        while (planCursor < plans.size() && plans[planCursor].done()) {
            if (plans[planCursor].state() != JobState::Completed) out.planningFailed = true;
            ++planCursor;
        }
        if (planCursor == plans.size()) {
            while (nodeCursor < n && (!st.handles[nodeCursor] || st.handles[nodeCursor].done()))
                ++nodeCursor;
            if (nodeCursor == n) return out;
        }
        if (stop && stop()) {
            st.stopping.store(true, std::memory_order_relaxed);
            out.interrupted = true;
            return out;
        }
        if (SteadyClock::now() >= limitAt) {
            out.timedOut = true;
            return out;
        }
        std::unique_lock lock(st.mutex);
        if (st.exitsDone || out.planningFailed) {
            // Only the scheduler's final bookkeeping (or jobs cut off from the exits) left.
            lock.unlock();
            if (++spins < 1000)
                std::this_thread::yield();
            else
                std::this_thread::sleep_for(std::chrono::microseconds{100});
        } else {
            st.exitsDoneCv.wait_until(lock, std::min(SteadyClock::now() + kPollInterval, limitAt),
                                      [&] { return st.exitsDone; });
        }
    }
}

/// Adds a finished job's final state to the run's counts.
void countFinalState(JobState state, RunResult& r) {
    switch (state) {
        case JobState::Completed:
            ++r.completedJobs;
            break;
        case JobState::Failed:
            ++r.failed;
            break;
        case JobState::Expired:
            ++r.expired;
            break;
        default:
            ++r.cancelled;
            break;
    }
}

/// Every handle is final (acquired), so the jobs' writes are visible: each node's timing
/// and state into r, the run's end (the last exit's), completion and the hash check.
void collectJobs(State& st, RunResult& r, bool planningFailed) {
    const std::size_t n = st.graph.size();
    r.jobs.resize(n);
    bool exitsCompleted = !planningFailed;
    Duration lastEnd{0};
    for (std::size_t i = 0; i < n; ++i) {
        JobTiming& j = r.jobs[i];
        const Node& node = st.graph.node(i);
        j.node = static_cast<std::uint32_t>(i);
        j.level = static_cast<std::uint32_t>(node.level);
        j.weight = st.weight[i];
        j.scheduledStart = st.start[i];
        j.actualStart = st.began[i];
        j.end = st.ended[i];
        j.posts = st.posts[i];
        j.posted = static_cast<bool>(st.handles[i]);
        r.nodesPosted += st.posts[i];
        if (!j.posted) {
            if (node.isExit() && st.skipNode != i) exitsCompleted = false;  // never planned
            continue;
        }
        j.state = st.handles[i].state();
        countFinalState(j.state, r);
        if (node.isExit()) {
            if (j.state == JobState::Completed)
                lastEnd = std::max(lastEnd, j.end);
            else
                exitsCompleted = false;
        }
        st.handles[i] = JobHandle{};
    }
    r.completed = exitsCompleted;
    r.runTime = lastEnd;
    r.actualHash = st.graph.graphHash();
    r.hashOk = r.actualHash == r.expectedHash;
}

}  // namespace

ScheduleRunner::ScheduleRunner(Scheduler& scheduler, const TestChainGraph& graph,
                               RunnerConfig config)
    : ScheduleRunner(scheduler, graph, LevelSchedule(graph, config.policy), config) {}

ScheduleRunner::ScheduleRunner(Scheduler& scheduler, const TestChainGraph& graph,
                               LevelSchedule schedule, RunnerConfig config)
    : sched_(scheduler),
      schedule_(std::move(schedule)),
      config_(std::move(config)),
      stats_(graph, config_.policy, config_.stop),
      state_(std::make_shared<State>(graph)) {
    const std::size_t n = graph.size();
    if (schedule_.size() != n)
        throw std::invalid_argument("ScheduleRunner: schedule is for a graph of another size");
    if (config_.chunkSize == 0)
        throw std::invalid_argument("ScheduleRunner: chunkSize must be > 0");
    if (config_.load && !config_.load->isCalibrated())
        throw std::invalid_argument("ScheduleRunner: the load is not calibrated");
    if (config_.completionLimit <= Duration{0})
        throw std::invalid_argument("ScheduleRunner: completionLimit must be > 0");
    const Fault& f = config_.fault;
    if (f.skipNode && *f.skipNode >= n)
        throw std::invalid_argument("ScheduleRunner: fault.skipNode out of range");
    if (f.dropEdge) {
        const auto& e = *f.dropEdge;
        if (e.pred >= n || e.succ >= n)
            throw std::invalid_argument("ScheduleRunner: fault.dropEdge out of range");
        const auto& ps = graph.node(e.succ).predecessors();
        if (std::find(ps.begin(), ps.end(), e.pred) == ps.end())
            throw std::invalid_argument("ScheduleRunner: fault.dropEdge is not an edge");
        if (f.skipNode == e.pred || f.skipNode == e.succ)
            throw std::invalid_argument("ScheduleRunner: fault.dropEdge touches fault.skipNode");
    }

    throwIfStopped(config_.stop);  // after the copy of a possibly huge graph
    State& st = *state_;
    st.sched = &sched_;
    st.load = config_.load;
    st.timeBase = config_.timeBase;
    st.chunkSize = config_.chunkSize;
    st.deadlines = config_.deadlines;
    st.tagBase = config_.tagBase;
    st.group = config_.group;
    st.dropEdge = f.dropEdge;
    st.skipNode = f.skipNode;
    st.weight.resize(n);
    st.start.resize(n);
    st.deadline.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        if (i % kStopCheckNodes == 0) throwIfStopped(config_.stop);
        st.weight[i] =
            static_cast<std::uint32_t>(effectiveWeight(graph.node(i).weight, config_.policy));
        st.start[i] = schedule_.nodeStart(i);
        st.deadline[i] = schedule_.nodeDeadline(i);
    }
    st.handles.resize(n);
    st.posts.resize(n);
    st.began.resize(n);
    st.ended.resize(n);

    st.graph.recalculate(config_.stop);
    expectedHash_ = st.graph.graphHash();
    throwIfStopped(config_.stop);

    // Planning job k: its chunk's earliest node start, moved back by the span of
    // planningLevelsAhead levels and by the pre-roll; never before planning job k-1.
    const std::size_t chunks = planningJobCount();
    planStart_.resize(chunks);
    const Duration pre = preRoll();
    for (std::size_t k = 0; k < chunks; ++k) {
        const std::size_t lo = k * config_.chunkSize;
        const std::size_t hi = std::min(n, lo + config_.chunkSize);
        std::size_t first = lo;
        for (std::size_t i = lo; i < hi; ++i)
            if (st.start[i] < st.start[first]) first = i;
        const std::size_t lvl = graph.node(first).level;
        const std::size_t from =
            lvl >= config_.planningLevelsAhead ? lvl - config_.planningLevelsAhead : 0;
        const Duration ahead = schedule_.levelStart(lvl) - schedule_.levelStart(from);
        Duration at = st.start[first] - ahead - pre;
        if (k > 0) at = std::max(at, planStart_[k - 1]);
        planStart_[k] = at;
    }
}

ScheduleRunner::~ScheduleRunner() = default;

const TestChainGraph& ScheduleRunner::graph() const noexcept {
    return state_->graph;
}

Duration ScheduleRunner::preRoll() const noexcept {
    return config_.planningStep * static_cast<Duration::rep>(config_.chunkSize);
}

std::size_t ScheduleRunner::planningJobCount() const noexcept {
    return (schedule_.size() + config_.chunkSize - 1) / config_.chunkSize;
}

Duration ScheduleRunner::planningStart(std::size_t chunk) const {
    return planStart_.at(chunk);
}

Duration ScheduleRunner::lowerBound(std::size_t workers) const {
    return stats_.lowerBound(workers, config_.timeBase);
}

RunResult ScheduleRunner::run() {
    if (broken_)
        throw std::logic_error("ScheduleRunner: an earlier run timed out or was interrupted");
    State& st = *state_;
    resetRunState(st);

    RunResult r;
    r.expectedHash = expectedHash_;
    r.expectedEnd = schedule_.expectedEnd();
    r.workers = sched_.workerCount();
    r.lowerBound = lowerBound(config_.parallelism ? config_.parallelism : r.workers);
    r.nodes = st.graph.size();
    r.planningJobs = planningJobCount();

    const Statistics before = sched_.stats();
    if (config_.stop && config_.stop()) {  // nothing posted yet: the runner stays usable
        r.interrupted = true;
        return r;
    }
    st.anchor = saturatingAdd(sched_.now(), saturatingAdd(preRoll(), config_.anchorDelay));
    r.anchor = st.anchor;

    std::vector<JobHandle> plans = postPlanningJobs(sched_, state_, planStart_);
    const WaitOutcome waited = waitUntilFinal(st, plans, config_.completionLimit, config_.stop);
    r.interrupted = waited.interrupted;
    r.timedOut = waited.timedOut;
    if (r.timedOut || r.interrupted) {
        // Jobs may still run. Each holds the state through a shared_ptr, so it lives until
        // this runner and the last job have let go (finalising a job, cancelled ones
        // included, releases its callable). The runner refuses further runs: the graph's
        // hashes belong to the unfinished one.
        broken_ = true;
        plans.clear();
        if (r.timedOut) r.error = "run did not complete within the completion limit";
        r.stats = statsDelta(sched_.stats(), before);
        return r;
    }
    if (waited.planningFailed)
        r.error = st.planningError.empty() ? "a planning job did not complete" : st.planningError;
    collectJobs(st, r, waited.planningFailed);
    plans.clear();
    r.stats = statsDelta(sched_.stats(), before);
    return r;
}

std::vector<RunResult> ScheduleRunner::runReps(std::size_t reps, bool stopOnFailure) {
    std::vector<RunResult> out;
    out.reserve(reps);
    for (std::size_t i = 0; i < reps; ++i) {
        out.push_back(run());
        if (out.back().timedOut || out.back().interrupted || (stopOnFailure && !out.back().ok()))
            break;
    }
    return out;
}

}  // namespace pullsched::testchain
