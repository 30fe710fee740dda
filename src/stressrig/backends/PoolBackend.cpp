// pool: the floor every scheduler must beat. N threads take node ids from one FIFO queue
// under one mutex and condition variable; each node has an atomic count of unfinished
// predecessors, and the job that brings a count to 0 queues that successor.
#include <atomic>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "backends/BackendFactories.hpp"
#include "backends/GraphJobs.hpp"
#include "backends/GraphRunner.hpp"

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
        const std::size_t n = graph.size();
        predecessors_.resize(n);
        for (std::size_t i = 0; i < n; ++i)
            predecessors_[i] = static_cast<std::uint32_t>(graph.node(i).predecessors().size());
        pending_ = std::make_unique<std::atomic<std::uint32_t>[]>(n);
        stop_ = false;
        for (unsigned w = 0; w < setup.workers; ++w)
            threads_.emplace_back([this] { work(); });
    }

    BackendRun run() override {
        if (broken_) throw std::logic_error("pool backend: an earlier run timed out");
        jobs_.beginRun();  // throws if not prepared
        const std::size_t n = jobs_.size();
        for (std::size_t i = 0; i < n; ++i)
            pending_[i].store(predecessors_[i], std::memory_order_relaxed);
        {
            std::lock_guard lock(mutex_);
            for (std::size_t i = 0; i < n; ++i)
                if (predecessors_[i] == 0) queue_.push_back(static_cast<std::uint32_t>(i));
        }
        ready_.notify_all();
        const bool done = jobs_.waitAll();
        if (!done) broken_ = true;
        BackendRun out = jobs_.finish(!done);
        out.timedGraphBuilds = 1;  // the predecessor counts, set above
        return out;
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
            for (std::uint32_t s : jobs_.graph().node(node).successors())
                if (pending_[s].fetch_sub(1, std::memory_order_acq_rel) == 1) released.push_back(s);
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
    std::vector<std::uint32_t> predecessors_;
    std::unique_ptr<std::atomic<std::uint32_t>[]> pending_;
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
