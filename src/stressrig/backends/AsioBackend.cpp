// asio: a Boost.Asio thread_pool of `workers` threads. Start nodes are posted when the
// run begins; a node whose last predecessor ended is posted by that predecessor's job,
// or, if its start time is still ahead, handed to its own steady_timer, which posts it
// at its start: real timed starts, without occupying a thread while waiting.
#include <atomic>
#include <memory>
#include <vector>

#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/thread_pool.hpp>

#include "backends/BackendFactories.hpp"
#include "backends/GraphJobs.hpp"
#include "backends/GraphRunner.hpp"

namespace pullsched::rig {

using namespace pullsched::testchain;
namespace asio = boost::asio;

namespace {

class AsioBackend final : public GraphRunner {
  public:
    using GraphRunner::GraphRunner;
    ~AsioBackend() override { stopPool(); }

    void prepare(const TestChainGraph& graph, const BackendSetup& setup) override {
        stopPool();
        jobs_.prepare(graph, setup, /*waitInJob*/ false, GraphJobs::Completion::CountDown);
        const std::size_t n = graph.size();
        predecessors_.resize(n);
        for (std::size_t i = 0; i < n; ++i)
            predecessors_[i] = static_cast<std::uint32_t>(graph.node(i).predecessors().size());
        pending_ = std::make_unique<std::atomic<std::uint32_t>[]>(n);
        pool_ = std::make_unique<asio::thread_pool>(setup.workers);
        timers_.clear();
        if (jobs_.scheduled()) {
            timers_.reserve(n);
            for (std::size_t i = 0; i < n; ++i)
                timers_.push_back(std::make_unique<asio::steady_timer>(pool_->get_executor()));
        }
    }

    BackendRun run() override {
        if (broken_) throw std::logic_error("asio backend: an earlier run timed out");
        jobs_.beginRun();  // throws if not prepared
        const std::size_t n = jobs_.size();
        for (std::size_t i = 0; i < n; ++i)
            pending_[i].store(predecessors_[i], std::memory_order_relaxed);
        for (std::size_t i = 0; i < n; ++i)
            if (predecessors_[i] == 0) release(static_cast<std::uint32_t>(i));
        const bool done = jobs_.waitAll();
        if (!done) broken_ = true;
        BackendRun out = jobs_.finish(!done);
        out.timedGraphBuilds = 1;  // the predecessor counts, set above
        return out;
    }

    std::uint64_t expectedHash() const override { return jobs_.expectedHash(); }

  private:
    /// The node is ready: run it now, or at its start.
    void release(std::uint32_t node) {
        if (jobs_.scheduled()) {
            const TimePoint due = jobs_.startAt(node);
            if (due > SteadyClock::now()) {
                asio::steady_timer& t = *timers_[node];
                t.expires_at(due);
                t.async_wait([this, node](const boost::system::error_code& ec) {
                    if (!ec) execute(node);
                });
                return;
            }
        }
        asio::post(*pool_, [this, node] { execute(node); });
    }

    void execute(std::uint32_t node) {
        jobs_.runNode(node);
        for (std::uint32_t s : jobs_.graph().node(node).successors())
            if (pending_[s].fetch_sub(1, std::memory_order_acq_rel) == 1) release(s);
    }

    void stopPool() {
        if (pool_) {
            pool_->stop();
            pool_->join();
        }
        timers_.clear();
        pool_.reset();
        broken_ = false;
    }

    GraphJobs jobs_;
    std::vector<std::uint32_t> predecessors_;
    std::unique_ptr<std::atomic<std::uint32_t>[]> pending_;
    std::unique_ptr<asio::thread_pool> pool_;
    std::vector<std::unique_ptr<asio::steady_timer>> timers_;  ///< per node, if scheduled
    bool broken_ = false;
};

}  // namespace

std::unique_ptr<GraphRunner> makeAsioGraphRunner(const BackendInfo& info) {
    return std::make_unique<AsioBackend>(info);
}

}  // namespace pullsched::rig
