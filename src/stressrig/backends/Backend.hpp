#pragma once
// The contract of a scheduler backend: one way of executing a TestChainGraph (pullsched,
// oneTBB, OpenMP, Boost.Asio, a plain pool), so that the rig can run the same graph with
// the same job bodies and the same worker count on each of them.
//
// Usage
// -----
//   std::unique_ptr<Backend> b = BackendRegistry::make("tbb");
//   BackendSetup setup;                  // workers, timeBase, load, policy, schedule
//   setup.workers = 4;
//   setup.load = body.load();            // calibrated; nullopt = empty jobs
//   b->prepare(graph, setup);            // untimed: threads, graph copy, node objects
//   for (int i = 0; i < warmUp; ++i) b->run();      // excluded from the figures
//   BackendRun r = b->run();             // timed: one execution of the whole graph
//   r.ok(); r.result.runTime; r.result.jobs[i].lateness(); r.executions[i] ...
//
// Rules every backend follows (a fair comparison):
// - prepare() does everything that can be done before the clock starts (threads, the
//   backend's own copy of the graph, its node objects and edges, the expected hash).
// - run() is repeatable: it clears the node hashes, executes every node exactly once in
//   dependency order and returns when every node job has ended (or the completion limit
//   passed). It must not be called concurrently with itself.
// - A node job: wait for its start time if the backend has no timed start of its own
//   (StartTimes::WaitInJob), then run effectiveWeight × timeBase of the calibrated load,
//   then Node::calculate on the backend's graph, recording its start and end.
// - Every run is verified twice: the graph hash against the single-threaded
//   recalculation, and the per-node execution count (an isolated node has no
//   predecessor, so its hash cannot show that it was skipped or run twice).

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "pullsched/testchain/ComputationalLoad.hpp"
#include "pullsched/testchain/Duration.hpp"
#include "pullsched/testchain/LevelSchedule.hpp"
#include "pullsched/testchain/RunResult.hpp"
#include "pullsched/testchain/StopCheck.hpp"
#include "pullsched/testchain/TestChainGraph.hpp"
#include "pullsched/testchain/WeightPolicy.hpp"

namespace pullsched {
class Observer;
}

#include "load/Placement.hpp"

namespace pullsched::rig {

using testchain::Duration;

/// How a backend honours the start times of a schedule.
enum class StartTimes {
    /// The backend itself holds a job back until its start (pullsched: start time of a
    /// job; Asio: a steady_timer armed when the job's last predecessor ended).
    Native,
    /// The backend has no timed start: the adapter's job, once dispatched, sleeps until
    /// shortly before its start and spins the rest, occupying its worker meanwhile. That
    /// occupation is counted in BackendRun::startWait.
    WaitInJob,
};

/// Everything a backend run needs besides the graph. Fixed between prepare() calls.
struct BackendSetup {
    unsigned workers = 2;  ///< worker threads (TBB: arena concurrency incl. the caller)
    Duration timeBase = std::chrono::microseconds{100};  ///< busy time per unit weight
    std::optional<testchain::ComputationalLoad> load{};  ///< calibrated; nullopt = empty jobs
    testchain::WeightPolicy policy = testchain::WeightPolicy::Raw;
    /// Start times per node. nullopt = as fast as possible: every start at 0, no waiting.
    std::optional<testchain::LevelSchedule> schedule{};
    /// P of RunResult::lowerBound = max(work / P, critical path); 0 = workers.
    std::size_t parallelism = 0;
    /// Wall-clock limit of one run; a run over it is timedOut and the backend broken.
    Duration completionLimit = std::chrono::seconds{60};
    /// pullsched only: deadline = start + the schedule's life window (the other backends
    /// cannot expire a job). Off by default so that all backends run the same work.
    bool deadlines = false;
    /// pullsched only: where its workers run.
    Placement placement = Placement::Spread;
    /// Polled while a run goes on: once it asks, jobs that have not begun skip their work,
    /// the run ends early with result.interrupted, and the backend is spent.
    testchain::StopPredicate stop{};
    /// pullsched only: an observer of the scheduler (e.g. the rig's RunInstrument); must
    /// outlive the backend. Job tags are node ids (planning jobs carry a high tag bit).
    Observer* observer = nullptr;
};

/// What one run of a backend produced.
struct BackendRun {
    /// The run in the scheduler-independent form the modes already evaluate: jobs[i]
    /// (scheduled/actual start and end as offsets from the anchor), runTime (anchor to the
    /// end of the last exit job), lowerBound, expectedEnd, hashes, completedJobs. For a
    /// backend other than pullsched planningJobs is 0, every job counts as posted once,
    /// state Completed if its body ran, and `stats` is empty.
    testchain::RunResult result;
    /// Per node: how often its body ran in this run (1 for a correct backend).
    std::vector<std::uint32_t> executions;
    std::size_t missed = 0;    ///< nodes whose body never ran
    std::size_t repeated = 0;  ///< nodes whose body ran more than once
    /// Σ over jobs of the time a dispatched job spent waiting for its start time inside
    /// its worker (StartTimes::WaitInJob adapters; 0 for native timed starts and for
    /// runs without a schedule).
    Duration startWait{0};

    bool exactlyOnce() const noexcept { return missed == 0 && repeated == 0; }
    /// Completed, hash ok, every node exactly once.
    bool ok() const noexcept { return result.ok() && exactlyOnce(); }
};

class Backend {
  public:
    virtual ~Backend() = default;
    /// Registry name: "pullsched", "tbb", "openmp", "asio", "pool".
    virtual std::string_view name() const noexcept = 0;
    virtual StartTimes startTimes() const noexcept = 0;
    /// One sentence on how this backend honours start times (--help, JSON "start_times").
    virtual std::string_view startTimesText() const noexcept = 0;

    /// Untimed: builds the threads and the backend's own copy of the graph. May be called
    /// again for another graph or setup. Throws std::invalid_argument for an uncalibrated
    /// load, 0 workers or a schedule of another size.
    virtual void prepare(const testchain::TestChainGraph& graph, const BackendSetup& setup) = 0;
    /// One execution of the prepared graph (see the rules above). Throws std::logic_error
    /// if not prepared or after a run that timed out.
    virtual BackendRun run() = 0;

    /// Hash of the single-threaded recalculation of the prepared graph.
    virtual std::uint64_t expectedHash() const = 0;
};

/// Fills executions-derived counts (missed, repeated) from `executions`.
inline void countExecutions(BackendRun& run) noexcept {
    run.missed = 0;
    run.repeated = 0;
    for (std::uint32_t e : run.executions) {
        if (e == 0) ++run.missed;
        if (e > 1) ++run.repeated;
    }
}

/// "native" / "wait-in-job" (JSON and tables).
constexpr std::string_view toString(StartTimes s) noexcept {
    return s == StartTimes::Native ? "native" : "wait-in-job";
}

}  // namespace pullsched::rig
