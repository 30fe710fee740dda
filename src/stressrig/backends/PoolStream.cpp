// pool as a job stream: a mutex + condition-variable FIFO served by `workers` threads;
// the generator pushes each job at its arrival time. The floor every scheduler must beat.
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "backends/BackendFactories.hpp"
#include "backends/StreamRunner.hpp"

namespace pullsched::rig {

namespace {

class PoolStream final : public StreamRunner {
  public:
    using StreamRunner::StreamRunner;
    ~PoolStream() override { stopOnDestruction(); }

  protected:
    void launch(unsigned workers, Placement /*pullsched only*/) override {
        for (unsigned i = 0; i < workers; ++i)
            threads_.emplace_back([this] { serve(); });
    }
    void post(pullsched::TimePoint, pullsched::TimePoint, StreamJob job) override {
        {
            std::lock_guard lock(mutex_);
            queue_.push_back(std::move(job));
        }
        wake_.notify_one();
    }
    void shutdown() override {
        {
            std::lock_guard lock(mutex_);
            closing_ = true;
        }
        wake_.notify_all();
        for (std::thread& t : threads_)
            t.join();
        threads_.clear();
    }

  private:
    void serve() {
        std::unique_lock lock(mutex_);
        for (;;) {
            wake_.wait(lock, [this] { return closing_ || !queue_.empty(); });
            if (queue_.empty()) return;  // closing and nothing left
            StreamJob job = std::move(queue_.front());
            queue_.pop_front();
            lock.unlock();
            job();
            lock.lock();
        }
    }

    std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<StreamJob> queue_;
    bool closing_ = false;
    std::vector<std::thread> threads_;
};

}  // namespace

std::unique_ptr<StreamRunner> makePoolStreamRunner(const BackendInfo& info) {
    return std::make_unique<PoolStream>(info);
}

}  // namespace pullsched::rig
