// pullsched: this project's scheduler. With a schedule it is driven by the ScheduleRunner
// exactly as the rig's own modes drive it, start times native (a job's start time in the
// scheduler). As fast as possible, it runs the graph the way the other backends do: every
// node posted untimed with its predecessors, behind a gate, so that building the graph is
// not timed (the others build theirs in prepare()); the run's clock starts at the gate.
// The gate's start leaves room for the posting as the previous run measured it
// (GateLead.hpp): the workers idle until then, and a long idle slows the run that follows.
// Threads that run jobs: `workers`, as in every backend. With planInRun that is
// `workers - 1` workers and the caller, which posts the graph and then helps run its
// (untimed) jobs in drain(), as oneTBB's caller builds its graph and runs it in a slot of
// its arena (with one thread, an observer or pinned workers the caller cannot help:
// `workers` workers). A prebuilt graph runs on `workers` workers while the caller sleeps
// in drain(): behind its timed gate a helping caller is woken for the released jobs, but
// only after the gate's worker, and it is the weaker second thread there (1 us jobs,
// 1 worker + caller against 2 workers: burst-64 0.079-0.097 against 0.050 ms,
// chains-1024 0.61-0.70 against 0.55). On a schedule every job is timed, which only
// workers run: `workers` workers.
// With BackendSetup::planInRun the posting is timed as well: planning + execution, the
// graph posted in batches (PostBatch) as a planner would. With BackendSetup::prebuiltBatch
// the prebuilt graph is one PostBatch built before the clock and submitted at its start, no
// gate, on the same threads: the two prebuilt figures differ by what the gate costs.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <ostream>
#include <stdexcept>
#include <thread>
#include <utility>
#include <vector>

#include "backends/BackendFactories.hpp"
#include "backends/GateLead.hpp"
#include "backends/GraphJobs.hpp"
#include "backends/GraphRunner.hpp"
#include "load/SchedulerFactory.hpp"
#include "pullsched/scheduler/Observer.hpp"
#include "pullsched/scheduler/PostBatch.hpp"
#include "pullsched/scheduler/Scheduler.hpp"
#include "pullsched/testchain/ScheduleRunner.hpp"

namespace pullsched::rig {

using namespace pullsched::testchain;

namespace {

/// Counts how often each node job started (tag = node id) and notes the worker that
/// started it, and forwards every event to the caller's observer. The runner's job bodies
/// are its own, so the scheduler's job start is where the count can be taken.
class ExecutionCounter final : public Observer {
  public:
    void reset(std::size_t nodes, Observer* next) {
        nodes_ = nodes;
        next_ = next;
        counts_ = std::make_unique<std::atomic<std::uint32_t>[]>(nodes);
        workers_ = std::make_unique<std::atomic<std::int32_t>[]>(nodes);
        clear();
    }
    void clear() noexcept {
        for (std::size_t i = 0; i < nodes_; ++i) {
            counts_[i].store(0, std::memory_order_relaxed);
            workers_[i].store(-1, std::memory_order_relaxed);
        }
    }
    std::uint32_t count(std::size_t node) const noexcept {
        return counts_[node].load(std::memory_order_relaxed);
    }
    /// The worker that last started the node's job; -1 if none.
    std::int32_t worker(std::size_t node) const noexcept {
        return workers_[node].load(std::memory_order_relaxed);
    }

    void onJobStart(unsigned w, const JobEvent& e) override {
        if ((e.tag & ScheduleRunner::kPlanningTag) == 0 && e.tag < nodes_) {
            counts_[e.tag].fetch_add(1, std::memory_order_relaxed);
            workers_[e.tag].store(static_cast<std::int32_t>(w), std::memory_order_relaxed);
        }
        if (next_) next_->onJobStart(w, e);
    }
    void onJobEnd(unsigned w, const JobEvent& e) override {
        if (next_) next_->onJobEnd(w, e);
    }
    void onWorkerActive(unsigned w) override {
        if (next_) next_->onWorkerActive(w);
    }
    void onWorkerIdle(unsigned w) override {
        if (next_) next_->onWorkerIdle(w);
    }
    void onTokenAcquired(unsigned w) override {
        if (next_) next_->onTokenAcquired(w);
    }
    void onTokenContended(unsigned w) override {
        if (next_) next_->onTokenContended(w);
    }
    void onSleep(unsigned w, SleepKind k, Duration planned) override {
        if (next_) next_->onSleep(w, k, planned);
    }

  private:
    std::size_t nodes_ = 0;
    Observer* next_ = nullptr;
    std::unique_ptr<std::atomic<std::uint32_t>[]> counts_;
    std::unique_ptr<std::atomic<std::int32_t>[]> workers_;
};

class PullschedBackend final : public GraphRunner {
  public:
    using GraphRunner::GraphRunner;
    void prepare(const TestChainGraph& graph, const BackendSetup& setup) override {
        if (setup.workers == 0) throw std::invalid_argument("pullsched backend: 0 workers");
        runner_.reset();  // before the scheduler it uses
        handles_.clear();
        scheduler_.reset();
        broken_ = false;
        lastPosting_ = Duration::zero();  // a new graph: its posting not measured yet
        gateEarly_ = false;
        const std::size_t n = graph.size();
        counter_.reset(n, setup.observer);
        completionLimit_ = setup.completionLimit;
        // Only a scheduled run counts executions through the observer. As fast as possible,
        // the job bodies count them (as for every backend), and an observer would cost each
        // job two virtual calls and a clock read that no other backend pays.
        Observer* observer = setup.schedule ? &counter_ : setup.observer;
        // `workers` threads run the jobs (see the comment at the top): the caller is one of
        // them only when it plans in the run, where it can help from its last post on.
        const std::size_t records = n + n / 64 + 16;
        const bool callerRuns = !setup.schedule && setup.planInRun;
        scheduler_ = std::make_unique<Scheduler>(
            callerRuns ? helpingCallerConfig(setup.workers, setup.placement, observer, records)
                       : schedulerConfig(setup.workers, setup.placement, observer, records));
        RunnerConfig rc;
        rc.timeBase = setup.timeBase;
        rc.load = setup.load;
        rc.policy = setup.policy;
        rc.parallelism = setup.parallelism;
        rc.completionLimit = setup.completionLimit;
        stop_ = setup.stop;
        drainEvents_ = setup.observer != nullptr;
        // The runner polls the stop while it prepares a large graph. During a run the
        // watcher of runScheduled() cancels through the scheduler instead, so that every
        // job of a cut run keeps its final state.
        preparing_ = true;
        if (stop_) rc.stop = [this] { return preparing_ && stop_(); };
        if (setup.schedule) {
            rc.deadlines = setup.deadlines;
            if (setup.planningChunk) rc.chunkSize = setup.planningChunk;
            runner_ = std::make_unique<ScheduleRunner>(*scheduler_, graph, *setup.schedule, rc);
            preparing_ = false;
        } else {
            rc.stop = stop_;
            jobs_.prepare(graph, setup, /*waitInJob=*/false, GraphJobs::Completion::OwnWait);
            handles_.assign(n, JobHandle{});
            planInRun_ = setup.planInRun;
            prebuiltBatch_ = setup.prebuiltBatch && !setup.planInRun;
        }
    }

    /// As fast as possible: the graph posted untimed behind a timed gate job; the gate
    /// starts the run's clock. The gate's start leaves room for the posting (a run whose
    /// posting overran it would only have part of its posting timed). With planInRun the
    /// posting is timed: no gate, the clock starts before the first post. With
    /// prebuiltBatch: one batch built untimed, submitted as the clock starts.
    BackendRun runGated() {
        if (broken_) throw std::logic_error("pullsched backend: an earlier run timed out");
        jobs_.beginRun();
        std::uint32_t timedBuilds = 0;
        Duration lead{0};
        const bool gated = !planInRun_ && !prebuiltBatch_;
        if (planInRun_) {
            postAsBatch();
            ++timedBuilds;
        } else if (prebuiltBatch_) {
            PostBatch batch = scheduler_->batch(jobs_.size());
            postRange(batch, 0, jobs_.size());
            // The batch holds its jobs until submit(): no handle is needed past the posting
            // (as behind the gate, below).
            std::fill(handles_.begin(), handles_.end(), JobHandle{});
            jobs_.restartClock();
            batch.submit();
        } else {
            const TimePoint postingBegan = scheduler_->now();
            posted_.store(false, std::memory_order_relaxed);
            lead = gateLead(lastPosting_, std::exchange(gateEarly_, false), jobs_.size());
            const JobHandle gate = scheduler_->post(
                [this] {
                    jobs_.restartClock();
                    if (!posted_.load(std::memory_order_acquire)) gateEarly_ = true;
                },
                {.start = saturatingAdd(postingBegan, lead)});
            postEach(gate);
            // Only the posting needs the handles. Let go of them before the run, as a
            // planner that keeps no handle does: a job the scheduler alone holds ends
            // without its successor lock, and releases a last predecessor count with a
            // store. (Planned in the run they go after it: that would be timed there.)
            std::fill(handles_.begin(), handles_.end(), JobHandle{});
            posted_.store(true, std::memory_order_release);
            lastPosting_ = scheduler_->now() - postingBegan;
        }
        // Waits the scheduler's own way, as every backend does (oneTBB: wait_for_all): a
        // thread in drain() no longer counts as a busy poster whose CPU a woken worker
        // must avoid. drain() returns when every job is final, its body included.
        const bool done = scheduler_->drainFor(completionLimit_);
        if (!done) broken_ = true;
        BackendRun out = jobs_.finish(!done);
        out.timedGraphBuilds = timedBuilds;
        if (gated) {
            out.gateLead = lead;
            out.posting = lastPosting_;
            out.gateEarly = gateEarly_;  // the gate job ran: drain() saw it end
        }
        if (done) std::fill(handles_.begin(), handles_.end(), JobHandle{});
        return out;
    }

    /// The handles of node i's predecessors, posted before it (index order is topological).
    void handlesOfPredecessors(std::size_t i, std::vector<JobHandle>& preds) const {
        preds.clear();
        for (const std::uint32_t p : jobs_.graph().node(i).predecessors())
            preds.push_back(handles_[p]);
    }

    /// Every node posted on its own, the start nodes behind `gate`.
    void postEach(const JobHandle& gate) {
        std::vector<JobHandle> preds;
        for (std::size_t i = 0; i < jobs_.size(); ++i) {
            handlesOfPredecessors(i, preds);
            if (preds.empty()) preds.push_back(gate);
            const auto node = static_cast<std::uint32_t>(i);
            handles_[i] =
                scheduler_->post([this, node] { jobs_.runNode(node); }, {.tag = node}, preds);
        }
    }

    /// Planning timed (BackendSetup::planInRun): the way a planner posts a graph with this
    /// scheduler, in batches (PostBatch) of kPlanningBatch nodes, so that running overlaps
    /// planning; the clock runs from the first post.
    void postAsBatch() {
        const std::size_t n = jobs_.size();
        for (std::size_t from = 0; from < n; from += kPlanningBatch) {
            const std::size_t to = std::min(n, from + kPlanningBatch);
            PostBatch batch = scheduler_->batch(to - from);
            postRange(batch, from, to);
            batch.submit();
        }
    }

    /// Nodes [from, to) into `batch`, their predecessors posted before them.
    void postRange(PostBatch& batch, std::size_t from, std::size_t to) {
        std::vector<JobHandle> preds;
        for (std::size_t i = from; i < to; ++i) {
            handlesOfPredecessors(i, preds);
            const auto node = static_cast<std::uint32_t>(i);
            handles_[i] = batch.post([this, node] { jobs_.runNode(node); }, {.tag = node}, preds);
        }
    }

    /// Nodes per batch when planning is timed: a few thousand, as the scheduler's guide
    /// says (one batch of a 100 000-job graph ran nothing until its end and was slower
    /// than single posts on scheduler_bench's FanOutIn; batches of 1024 were not).
    static constexpr std::size_t kPlanningBatch = 1024;

    /// On its schedule. A stop request cancels what has not started (the run then ends
    /// with every job final, marked interrupted); a run past its limit has what has not
    /// started cancelled too. Either leaves the scheduler shut down: the runner is spent.
    BackendRun runScheduled() {
        if (broken_) throw std::logic_error("pullsched backend: an earlier run ended early");
        counter_.clear();
        BackendRun out;
        std::atomic<bool> cut{false};
        {
            std::jthread watcher([&](std::stop_token done) {
                while (stop_ && !done.stop_requested()) {
                    if (stop_()) {
                        cut = true;
                        scheduler_->shutdown(ShutdownMode::Cancel);
                        return;
                    }
                    std::this_thread::sleep_for(std::chrono::milliseconds{20});
                }
            });
            out.result = runner_->run();
        }  // the watcher is joined here
        if (cut || out.result.interrupted || out.result.timedOut) {
            broken_ = true;
            scheduler_->shutdown(ShutdownMode::Cancel);
            out.result.interrupted = out.result.interrupted || cut;
            out.pendingAfterCancel = scheduler_->stats().pending;
            if (out.result.timedOut) return out;
        } else if (drainEvents_) {
            scheduler_->drainFor(std::chrono::seconds{10});  // every onJobEnd is in
        }
        countNodeJobs(out);
        return out;
    }

    BackendRun run() override {
        if (!runner_ && jobs_.prepared()) return runGated();
        if (!runner_) throw std::logic_error("pullsched backend: run() before prepare()");
        return runScheduled();
    }

    bool writeTraceDump(std::ostream& out) const override {
        return scheduler_ && scheduler_->writeTraceDump(out);
    }

    /// Every job that counts is final (the runner waited for all handles, or the shutdown
    /// cancelled them), and a job starts before its body, so the counts and the workers
    /// are complete.
    void countNodeJobs(BackendRun& out) const {
        const std::size_t n = runner_->graph().size();
        out.executions.resize(n);
        out.lanes.resize(n);
        for (std::size_t i = 0; i < n; ++i) {
            out.executions[i] = counter_.count(i);
            out.lanes[i] = counter_.worker(i);
        }
        countExecutions(out);
    }

    std::uint64_t expectedHash() const override {
        if (!runner_ && jobs_.prepared()) return jobs_.expectedHash();
        if (!runner_) throw std::logic_error("pullsched backend: not prepared");
        return runner_->expectedHash();
    }

    ~PullschedBackend() override {
        runner_.reset();
        handles_.clear();
        scheduler_.reset();  // joins the workers before the counter and the jobs go
    }

  private:
    ExecutionCounter counter_;  // outlives the scheduler that calls it
    GraphJobs jobs_;            // as fast as possible: the graph, its bodies, the run's records
    std::vector<JobHandle> handles_;
    bool broken_ = false;
    bool preparing_ = false;           // the runner's own stop check applies (see prepare())
    bool drainEvents_ = false;         // an observer wants every onJobEnd before run() returns
    bool planInRun_ = false;           // posting inside the timed region (BackendSetup::planInRun)
    bool prebuiltBatch_ = false;       // one batch submitted at the clock's start, no gate
    Duration lastPosting_{0};          // how long the last run's posting took (see GateLead.hpp)
    std::atomic<bool> posted_{false};  // the gate job reads it on a worker
    bool gateEarly_ = false;           // written by the gate job, read after drain()
    StopPredicate stop_;
    Duration completionLimit_{0};
    std::unique_ptr<Scheduler> scheduler_;
    std::unique_ptr<ScheduleRunner> runner_;
};

}  // namespace

std::unique_ptr<GraphRunner> makePullschedGraphRunner(const BackendInfo& info) {
    return std::make_unique<PullschedBackend>(info);
}

}  // namespace pullsched::rig
