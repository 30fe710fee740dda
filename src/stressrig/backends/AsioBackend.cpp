// asio: a Boost.Asio thread_pool of `workers` threads. Start nodes are posted when the
// run begins; a node whose last predecessor ended is posted by that predecessor's job,
// or, if its start time is still ahead, handed to its own steady_timer, which posts it
// at its start: real timed starts, without occupying a thread while waiting.
#include <memory>
#include <vector>

#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/thread_pool.hpp>

#include "backends/BackendFactories.hpp"
#include "backends/CountDownRun.hpp"
#include "backends/GraphJobs.hpp"
#include "backends/GraphRunner.hpp"
#include "backends/PredecessorCounts.hpp"

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
        counts_.prepare(jobs_.graph());
        const std::size_t n = graph.size();
        pool_ = std::make_unique<asio::thread_pool>(setup.workers);
        timers_.clear();
        if (jobs_.scheduled()) {
            timers_.reserve(n);
            for (std::size_t i = 0; i < n; ++i)
                timers_.push_back(std::make_unique<asio::steady_timer>(pool_->get_executor()));
        }
    }

    BackendRun run() override {
        return runCountingDown("asio", jobs_, counts_, broken_, [this] {
            counts_.forEachRoot([this](std::uint32_t root) { release(root); });
        });
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
        counts_.ended(jobs_.graph(), node, [this](std::uint32_t s) { release(s); });
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
    PredecessorCounts counts_;
    std::unique_ptr<asio::thread_pool> pool_;
    std::vector<std::unique_ptr<asio::steady_timer>> timers_;  ///< per node, if scheduled
    bool broken_ = false;
};

}  // namespace

std::unique_ptr<GraphRunner> makeAsioGraphRunner(const BackendInfo& info) {
    return std::make_unique<AsioBackend>(info);
}

}  // namespace pullsched::rig
