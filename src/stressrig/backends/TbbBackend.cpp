// tbb: oneTBB's flow graph. One continue_node per graph node, one make_edge per edge (a
// continue_node fires once all its predecessors have signalled), the whole graph inside
// a task_arena of `workers` slots (the calling thread takes one of them).
#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

#include <oneapi/tbb/flow_graph.h>
#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/task_arena.h>

#include "backends/BackendFactories.hpp"
#include "backends/GraphJobs.hpp"
#include "backends/GraphRunner.hpp"

namespace pullsched::rig {

using namespace pullsched::testchain;
namespace flow = oneapi::tbb::flow;

namespace {

class TbbBackend final : public GraphRunner {
  public:
    using GraphRunner::GraphRunner;
    ~TbbBackend() override { release(); }

    void prepare(const TestChainGraph& graph, const BackendSetup& setup) override {
        release();
        jobs_.prepare(graph, setup, /*waitInJob*/ true, GraphJobs::Completion::OwnWait);
        // Without this, oneTBB caps its thread pool at the hardware concurrency.
        control_ = std::make_unique<oneapi::tbb::global_control>(
            oneapi::tbb::global_control::max_allowed_parallelism,
            std::max<std::size_t>(setup.workers, oneapi::tbb::info::default_concurrency()));
        arena_ = std::make_unique<oneapi::tbb::task_arena>(static_cast<int>(setup.workers));
        planInRun_ = setup.planInRun;
        if (!planInRun_) arena_->execute([&] { buildGraph(); });
    }

    BackendRun run() override {
        if (planInRun_ && arena_) arena_->execute([&] { dropGraph(); });  // untimed
        jobs_.beginRun();                                                 // throws if not prepared
        const std::uint32_t buildsBefore = builds_;
        arena_->execute([&] {
            if (planInRun_) buildGraph();
            for (std::uint32_t s : starts_)
                nodes_[s]->try_put(flow::continue_msg{});
            graph_->wait_for_all();
        });
        // wait_for_all returned: every node that was triggered has ended. A node that
        // never ran shows as missed, not as a hang.
        BackendRun out = jobs_.finish(false);
        out.timedGraphBuilds = builds_ - buildsBefore;
        return out;
    }

    std::uint64_t expectedHash() const override { return jobs_.expectedHash(); }

  private:
    /// One continue_node per node, one edge per dependency; inside the arena (a graph
    /// attaches to the arena it is constructed in).
    void buildGraph() {
        const TestChainGraph& graph = jobs_.graph();
        graph_ = std::make_unique<flow::graph>();
        const std::size_t n = graph.size();
        nodes_.reserve(n);
        for (std::size_t i = 0; i < n; ++i) {
            const auto id = static_cast<std::uint32_t>(i);
            nodes_.push_back(std::make_unique<flow::continue_node<flow::continue_msg>>(
                *graph_, [this, id](const flow::continue_msg&) {
                    jobs_.runNode(id);
                    return flow::continue_msg{};
                }));
            if (graph.node(i).isStart()) starts_.push_back(id);
        }
        for (std::size_t i = 0; i < n; ++i)
            for (std::uint32_t p : graph.node(i).predecessors())
                flow::make_edge(*nodes_[p], *nodes_[i]);
        ++builds_;
    }

    void dropGraph() {
        if (graph_) graph_->wait_for_all();
        nodes_.clear();
        starts_.clear();
        graph_.reset();
    }

    void release() {
        if (arena_) arena_->execute([&] { dropGraph(); });
        arena_.reset();
        control_.reset();
    }

    GraphJobs jobs_;
    std::unique_ptr<oneapi::tbb::global_control> control_;
    std::unique_ptr<oneapi::tbb::task_arena> arena_;
    std::unique_ptr<flow::graph> graph_;
    std::vector<std::unique_ptr<flow::continue_node<flow::continue_msg>>> nodes_;
    std::vector<std::uint32_t> starts_;
    bool planInRun_ = false;
    std::uint32_t builds_ = 0;  ///< buildGraph() calls (BackendRun::timedGraphBuilds)
};

}  // namespace

std::unique_ptr<GraphRunner> makeTbbGraphRunner(const BackendInfo& info) {
    return std::make_unique<TbbBackend>(info);
}

}  // namespace pullsched::rig
