// openmp: OpenMP tasks with depend clauses (libgomp). One thread of a parallel region of
// `workers` threads creates one task per node in index order (a topological order): the
// task names its own dependency object as `out` and each predecessor's as `in`, so the
// runtime starts it when they are done. The dependency objects are one byte per node:
// `depend` needs an addressable object per node, and nothing ever reads or writes them.
#include <memory>
#include <vector>

#include <omp.h>

#include "backends/BackendFactories.hpp"
#include "backends/GraphJobs.hpp"
#include "backends/GraphRunner.hpp"

namespace pullsched::rig {

using namespace pullsched::testchain;

namespace {

class OpenMpBackend final : public GraphRunner {
  public:
    using GraphRunner::GraphRunner;
    void prepare(const TestChainGraph& graph, const BackendSetup& setup) override {
        jobs_.prepare(graph, setup, /*waitInJob*/ true, GraphJobs::Completion::OwnWait);
        const std::size_t n = graph.size();
        predecessorsFrom_.assign(n + 1, 0);
        predecessors_.clear();
        for (std::size_t i = 0; i < n; ++i) {
            for (std::uint32_t p : graph.node(i).predecessors())
                predecessors_.push_back(p);
            predecessorsFrom_[i + 1] = predecessors_.size();
        }
        dependency_ = std::make_unique<char[]>(n);
        workers_ = static_cast<int>(setup.workers);
        // Start the team once outside the timing (libgomp keeps its threads).
#pragma omp parallel num_threads(workers_)
        {}
    }

    BackendRun run() override {
        jobs_.beginRun();  // throws if not prepared
        const int n = static_cast<int>(jobs_.size());
        // GCC 12 does not count the use inside depend(iterator(...)) and warns.
        [[maybe_unused]] char* dep = dependency_.get();
        const std::uint32_t* preds = predecessors_.data();
        const std::size_t* from = predecessorsFrom_.data();
        GraphJobs* jobs = &jobs_;
#pragma omp parallel num_threads(workers_)
#pragma omp single
        for (int i = 0; i < n; ++i) {
            const std::uint32_t* p = preds + from[i];
            const int np = static_cast<int>(from[i + 1] - from[i]);
#pragma omp task firstprivate(i) depend(iterator(k = 0 : np), in : dep[p[k]]) depend(out : dep[i])
            jobs->runNode(static_cast<std::uint32_t>(i));
        }
        // The parallel region's end waited for every task.
        BackendRun out = jobs_.finish(false);
        out.timedGraphBuilds = 1;  // the tasks, created above
        return out;
    }

    std::uint64_t expectedHash() const override {
        return jobs_.expectedHash();
    }

  private:
    GraphJobs jobs_;
    std::vector<std::uint32_t> predecessors_;    ///< all predecessor lists, concatenated
    std::vector<std::size_t> predecessorsFrom_;  ///< node i's list: [from[i], from[i+1])
    std::unique_ptr<char[]> dependency_;         ///< one addressable object per node
    int workers_ = 1;
};

}  // namespace

std::unique_ptr<GraphRunner> makeOpenMpGraphRunner(const BackendInfo& info) {
    return std::make_unique<OpenMpBackend>(info);
}

}  // namespace pullsched::rig
