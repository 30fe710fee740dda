// pool: the floor every scheduler must beat. N threads take node ids from one FIFO queue
// under one mutex and condition variable; each node has an atomic count of unfinished
// predecessors, and the job that brings a count to 0 queues that successor.
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "backends/BackendFactories.hpp"
#include "backends/CountDownRun.hpp"
#include "backends/GraphJobs.hpp"
#include "backends/GraphRunner.hpp"
#include "backends/PredecessorCounts.hpp"

namespace pullsched::rig {

using namespace pullsched::testchain;

namespace {

class PoolBackend final : public GraphRunner {
  public:
    using GraphRunner::GraphRunner;
    ~PoolBackend() override { stopThreads(); }

    void prepare(const TestChainGraph& graph, const BackendSetup& setup) override {
        stopThreads();
        jobs_.prepare(graph, setup, /*waitInJob*/ true, GraphJobs::Completion::CountDown);
        counts_.prepare(jobs_.graph());
        stop_ = false;
        for (unsigned w = 0; w < setup.workers; ++w)
            threads_.emplace_back([this] { work(); });
    }

    BackendRun run() override {
        return runCountingDown("pool", jobs_, counts_, broken_, [this] {
            {
                std::lock_guard lock(mutex_);
                counts_.forEachRoot([&](std::uint32_t root) { queue_.push_back(root); });
            }
            ready_.notify_all();
        });
    }

    std::uint64_t expectedHash() const override { return jobs_.expectedHash(); }

  private:
    void work() {
        std::vector<std::uint32_t> released;
        for (;;) {
            std::uint32_t node;
            {
                std::unique_lock lock(mutex_);
                ready_.wait(lock, [&] { return stop_ || !queue_.empty(); });
                if (stop_) return;
                node = queue_.front();
                queue_.pop_front();
            }
            jobs_.runNode(node);
            released.clear();
            counts_.ended(jobs_.graph(), node, [&](std::uint32_t s) { released.push_back(s); });
            if (released.empty()) continue;
            {
                std::lock_guard lock(mutex_);
                queue_.insert(queue_.end(), released.begin(), released.end());
            }
            if (released.size() == 1)
                ready_.notify_one();
            else
                ready_.notify_all();
        }
    }

    void stopThreads() {
        {
            std::lock_guard lock(mutex_);
            stop_ = true;
            queue_.clear();
        }
        ready_.notify_all();
        for (std::thread& t : threads_)
            t.join();
        threads_.clear();
        broken_ = false;
    }

    GraphJobs jobs_;
    PredecessorCounts counts_;
    std::mutex mutex_;
    std::condition_variable ready_;
    std::deque<std::uint32_t> queue_;  ///< guarded by mutex_
    bool stop_ = false;                ///< guarded by mutex_
    bool broken_ = false;
    std::vector<std::thread> threads_;
};

}  // namespace

std::unique_ptr<GraphRunner> makePoolGraphRunner(const BackendInfo& info) {
    return std::make_unique<PoolBackend>(info);
}

}  // namespace pullsched::rig
