#pragma once
// Runs a TestChainGraph on a pullsched::Scheduler according to a LevelSchedule (spec §7).
//
// API summary
// -----------
//   pullsched::Scheduler sched({.workers = 2});
//   auto graph = TestChainGraph::generate(preset("burst"), 64);
//   ComputationalLoad load;            // optional: without it the jobs are empty
//   load.calibrate(CalibrationCache::fromEnvironment());
//   LevelSchedule schedule(graph, WeightPolicy::Raw);
//   schedule.adapt(/*stress*/ 1.0, /*concurrency*/ 2, 500us);   // or useDefault(1ms)
//
//   ScheduleRunner runner(sched, graph, schedule,
//                         {.timeBase = 500us, .load = load, .policy = WeightPolicy::Raw});
//   RunResult r = runner.run();        // one run: clear hashes, plan, wait, verify
//   r.ok(); r.hashOk; r.runTime; r.expectedEnd; r.lowerBound; r.jobs[i].lateness() ...
//   std::vector<RunResult> rs = runner.runReps(10);   // R runs, each cleared + verified
//
// RunnerConfig (all optional):
//   timeBase          job of weight w runs load.invoke(w, timeBase)          (100 µs)
//   load              std::optional<ComputationalLoad>, copied; nullopt = empty jobs
//   policy            WeightPolicy for the job weights and the lower bound    (Raw)
//   chunkSize         nodes posted per planning job                          (64)
//   planningStep      pre-roll = chunkSize × planningStep                    (100 µs)
//   planningLevelsAhead  a chunk is planned this many levels before its first node's
//                     level starts, minus the pre-roll                        (2)
//   anchorDelay       anchor = scheduler.now() + preRoll + anchorDelay       (0)
//   deadlines         true: deadline = anchor + schedule.nodeDeadline(i) (its lifeWindow);
//                     false: no deadline                                     (true)
//   completionLimit   wall-clock limit for one run; then timedOut           (60 s)
//   stop              StopPredicate polled by the constructor and while a run waits;
//                     then the run is cut short (interrupted)               (none)
//   parallelism       P of RunResult::lowerBound = max(work / P, critical path);
//                     0: the scheduler's worker count                       (0)
//   tagBase           node job tag = tagBase + node id; planning job tag =
//                     kPlanningTag | chunk index                              (0)
//   group             the JobGroup every job of a run joins, planning jobs included, so
//                     that a caller sharing the scheduler can wait for, cancel and count
//                     one run's jobs alone                                    (none)
//   fault             deliberate fault injection for tests (see Fault)
//
// Mechanics: run() posts ceil(N / chunkSize) planning jobs up front, chained as
// predecessors of each other (planning is sequential), planning job k at
//   anchor + max(plan(k−1), nodeStart(first of k) − (levels-ahead span) − preRoll).
// Planning job k posts its chunk's node jobs in index order: start nodes as free jobs
// with their start time, every other node with its predecessors' handles and its start
// time (released by the last predecessor, not before its start). A node job runs
// effectiveWeight × timeBase of load, then Node::calculate (folds predecessor hashes),
// then records its times (pre-sized vectors; nothing is allocated in a node job).
// run() returns when every planning job and every posted node job reached a final state:
// the last exit job wakes it through an atomic countdown over the exits; a 5 ms poll of
// the handles catches runs where an exit expires or is cancelled. No drain(): the
// scheduler may be shared and reused. Then the graph hash is compared with the
// single-threaded recomputation (computed once in the constructor via recalculate()).
// The handles of all nodes are held until the run ends (their records stay allocated).
//
// The runner works on its own copy of the graph (graph() gives it, with the hashes of
// the last run). One run at a time per runner; run() blocks the calling thread, which
// must not be a worker of the scheduler. If a run times out, its jobs may still be
// pending: they share ownership of the run state, so it stays valid until the last of
// them is finalised, and the runner refuses further runs (run() throws std::logic_error).
//
// Stop: when config.stop asks during a run (polled with the 5 ms wait), no planning job
// posts another node, node jobs that begin from then on skip their work, and run()
// returns at once with `interrupted` (no job state read; the runner is spent as after a
// timeout). Jobs not yet started stay with the scheduler: the caller cancels them with
// Scheduler::shutdown(ShutdownMode::Cancel), by destroying it, or through config.group. A stop
// while the constructor prepares a large graph throws Stopped.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "pullsched/scheduler/Scheduler.hpp"
#include "pullsched/testchain/ComputationalLoad.hpp"
#include "pullsched/testchain/Duration.hpp"
#include "pullsched/testchain/GraphStatistics.hpp"
#include "pullsched/testchain/LevelSchedule.hpp"
#include "pullsched/testchain/RunResult.hpp"
#include "pullsched/testchain/StopCheck.hpp"
#include "pullsched/testchain/TestChainGraph.hpp"
#include "pullsched/testchain/WeightPolicy.hpp"

namespace pullsched::testchain {

/// Deliberate faults, to show that the hash check catches what a broken scheduler would do.
struct Fault {
    /// A dependency edge pred → succ that is left out when succ is posted. To make the
    /// effect deterministic (not a race), the job of `pred` then waits (up to 5 s) until
    /// the job of `succ` ended, so succ always folds pred's still-cleared hash. pred must
    /// not be a start node (a start node's hash never changes, so nothing is visible) and
    /// the scheduler needs ≥ 2 workers. Throws std::invalid_argument if the edge does not
    /// exist.
    struct Edge {
        std::size_t pred = 0;
        std::size_t succ = 0;
    };
    std::optional<Edge> dropEdge{};
    /// A node that is never posted; its successors are posted without it (they fold its
    /// cleared hash). Its JobTiming has posted == false; it counts in none of the states.
    std::optional<std::size_t> skipNode{};
};

struct RunnerConfig {
    Duration timeBase = std::chrono::microseconds{100};
    std::optional<ComputationalLoad> load{};  ///< copied; nullopt = empty jobs
    WeightPolicy policy = WeightPolicy::Raw;
    std::size_t chunkSize = 64;
    Duration planningStep = std::chrono::microseconds{100};
    std::size_t planningLevelsAhead = 2;
    Duration anchorDelay{0};
    bool deadlines = true;
    Duration completionLimit = std::chrono::seconds{60};
    StopPredicate stop{};  ///< called on the runner's thread only
    std::size_t parallelism = 0;
    std::uint64_t tagBase = 0;
    JobGroup group{};  ///< empty: the jobs join no group
    Fault fault{};
};

class ScheduleRunner {
  public:
    /// Tag bit of planning jobs (tag = kPlanningTag | chunk index).
    static constexpr std::uint64_t kPlanningTag = std::uint64_t{1} << 63;

    /// Copies graph and schedule; computes the expected hash. The scheduler must outlive
    /// the runner. Throws std::invalid_argument for a schedule of another size, chunkSize 0,
    /// an uncalibrated load or a bad fault; Stopped when config.stop asks meanwhile.
    ScheduleRunner(Scheduler& scheduler, const TestChainGraph& graph, LevelSchedule schedule,
                   RunnerConfig config = {});
    /// Default schedule (level l at l × 1 ms) for config.policy.
    ScheduleRunner(Scheduler& scheduler, const TestChainGraph& graph, RunnerConfig config = {});
    ~ScheduleRunner();
    ScheduleRunner(const ScheduleRunner&) = delete;
    ScheduleRunner& operator=(const ScheduleRunner&) = delete;

    /// One run: clear hashes, plan and run the whole graph, wait for all exits, verify.
    RunResult run();
    /// `reps` runs in a row, each cleared and verified. Stops after a run that is not
    /// ok() when stopOnFailure (and always after a timeout or an interruption).
    std::vector<RunResult> runReps(std::size_t reps, bool stopOnFailure = false);

    std::uint64_t expectedHash() const noexcept { return expectedHash_; }
    /// The runner's graph; after a run, its node hashes are those the run computed.
    const TestChainGraph& graph() const noexcept;
    const LevelSchedule& schedule() const noexcept { return schedule_; }
    const RunnerConfig& config() const noexcept { return config_; }
    /// chunkSize × planningStep.
    Duration preRoll() const noexcept;
    std::size_t planningJobCount() const noexcept;
    /// Planning job k's start, offset from the anchor (may be negative: before the anchor).
    Duration planningStart(std::size_t chunk) const;
    /// max(work / P, critical path) with the runner's policy and timeBase.
    Duration lowerBound(std::size_t workers) const;
    bool broken() const noexcept { return broken_; }  ///< a run timed out or was interrupted

    struct State;  // per-runner run state shared with the jobs (ScheduleRunner.cpp)

  private:
    Scheduler& sched_;
    LevelSchedule schedule_;
    RunnerConfig config_;
    std::uint64_t expectedHash_ = 0;
    std::vector<Duration> planStart_;  ///< per chunk, offset from the anchor
    GraphStatistics stats_;            ///< for the lower bound
    std::shared_ptr<State> state_;
    bool broken_ = false;
};

}  // namespace pullsched::testchain
