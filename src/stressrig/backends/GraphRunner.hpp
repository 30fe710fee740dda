#pragma once
// A backend's graph capability: one way of executing a TestChainGraph (pullsched, oneTBB,
// OpenMP, Boost.Asio, a plain pool), so that the rig can run the same graph with the
// same job bodies and the same worker count on each of them.
//
// Usage
// -----
//   std::unique_ptr<GraphRunner> b = BackendRegistry::graphRunner("tbb");
//   BackendSetup setup = backendSetup(workers, placement, timeBase, body.load(), policy, P);
//   b->prepare(graph, setup);            // untimed: threads, graph copy, node objects
//   for (int i = 0; i < warmUp; ++i) b->run();      // excluded from the figures
//   BackendRun r = b->run();             // timed: one execution of the whole graph
//   r.ok(); r.result.runTime; r.result.jobs[i].lateness(); r.executions[i] ...
//
// Rules every runner follows (a fair comparison):
// - prepare() does everything that can be done before the clock starts (threads, the
//   backend's own copy of the graph, its node objects and edges, the expected hash).
//   With BackendSetup::planInRun, building the graph moves into run()'s timed region:
//   pullsched posts every node (in batches of 1024, PostBatch), oneTBB constructs its
//   nodes and edges. OpenMP creates its
//   tasks and their depend clauses in run() either way, and Boost.Asio and the pool keep
//   no graph beyond a predecessor count per node that every run resets: for those three
//   the two timings are the same.
// - run() is repeatable: it clears the node hashes, executes every node exactly once in
//   dependency order and returns when every node job has ended (or the completion limit
//   passed). It must not be called concurrently with itself.
// - A node job: wait for its start time if the backend has no timed start of its own
//   (StartTimes::HeldByRig), then run effectiveWeight × timeBase of the calibrated load,
//   then Node::calculate on the backend's graph, recording its start and end.
// - Every run is verified twice: the graph hash against the single-threaded
//   recalculation, and the per-node execution count (an isolated node has no
//   predecessor, so its hash cannot show that it was skipped or run twice).

#include <cstdint>
#include <ostream>
#include <string_view>

#include "backends/BackendInfo.hpp"
#include "backends/BackendRun.hpp"
#include "backends/BackendSetup.hpp"
#include "pullsched/testchain/Duration.hpp"
#include "pullsched/testchain/TestChainGraph.hpp"

namespace pullsched::rig {

using testchain::Duration;

class GraphRunner {
  public:
    /// `info`: the backend's registry entry (static storage), whose name it carries.
    explicit GraphRunner(const BackendInfo& info) noexcept : info_(&info) {}
    virtual ~GraphRunner() = default;
    GraphRunner(const GraphRunner&) = delete;
    GraphRunner& operator=(const GraphRunner&) = delete;

    const BackendInfo& info() const noexcept { return *info_; }
    std::string_view name() const noexcept { return info_->name; }
    StartTimes startTimes() const noexcept { return info_->startTimes; }
    /// One sentence on how this backend honours start times (--help, JSON "start_times").
    std::string_view startTimesText() const noexcept { return info_->graphStartTimesText; }

    /// Untimed: builds the threads and the backend's own copy of the graph. May be called
    /// again for another graph or setup. Throws std::invalid_argument for an uncalibrated
    /// load, 0 workers or a schedule of another size.
    virtual void prepare(const testchain::TestChainGraph& graph, const BackendSetup& setup) = 0;
    /// One execution of the prepared graph (see the rules above). Throws std::logic_error
    /// if not prepared or after a run that timed out.
    virtual BackendRun run() = 0;

    /// Hash of the single-threaded recalculation of the prepared graph.
    virtual std::uint64_t expectedHash() const = 0;

    /// Instrumented backends built with trace points: the scheduler's trace dump of the
    /// runs so far. False if the backend has none.
    virtual bool writeTraceDump(std::ostream& /*out*/) const { return false; }

  private:
    const BackendInfo* info_;
};

}  // namespace pullsched::rig
