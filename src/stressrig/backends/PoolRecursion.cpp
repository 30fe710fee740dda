// The pool: `workers` threads take jobs from one FIFO under one mutex; a job posts its
// children into the same FIFO and leaves its sum to a JoinCounter. The floor. The loop
// shapes: the range in four chunks per thread, each a job (PostedLoop.hpp).
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <utility>
#include <vector>

#include "backends/BackendFactories.hpp"
#include "backends/PostedLoop.hpp"
#include "backends/PostedRecursion.hpp"
#include "backends/RecursionRunner.hpp"

namespace pullsched::rig {

namespace {

class PoolRecursion final : public RecursionRunner {
  public:
    using RecursionRunner::RecursionRunner;
    std::string_view idiom() const noexcept override {
        return "a job puts its children into the pool's one FIFO (one mutex) and leaves its sum to "
               "a join counter; the caller waits until no job is open";
    }
    std::string_view loopIdiom() const noexcept override {
        return "the range cut into four chunks per thread, each a job in the pool's one FIFO; "
               "the caller waits until no job is open";
    }
    ~PoolRecursion() override { stopThreads(); }
    void prepare(unsigned workers) override {
        if (workers == 0) throw std::invalid_argument("pool recursion: 0 workers");
        stopThreads();
        stop_ = false;
        for (unsigned w = 0; w < workers; ++w)
            threads_.emplace_back([this] { work(); });
        workers_ = workers;
    }

  protected:
    RecursionRun runRecursion(const RecursionShape& shape,
                              const std::atomic<bool>& abandon) override {
        if (threads_.empty()) throw std::logic_error("pool recursion: not prepared");
        return runCountedRecursion(post_, abandon, shape, mutex_, ended_,
                                   [this] { return open_ == 0; });
    }

    void runLoop(const LoopWork& work) override {
        if (workers_ == 0) throw std::logic_error("pool loop: not prepared");
        postLoopChunks(post_, work, workers_);
        waitAllEnded(mutex_, ended_, [this] { return open_ == 0; });
    }

  private:
    struct Post {
        PoolRecursion* self;
        template <class F>
        void operator()(F&& f) {
            {
                std::lock_guard lock(self->mutex_);
                self->queue_.emplace_back(std::forward<F>(f));
                ++self->open_;
            }
            self->ready_.notify_one();
        }
    };

    void work() {
        std::unique_lock lock(mutex_);
        for (;;) {
            ready_.wait(lock, [&] { return stop_ || !queue_.empty(); });
            if (stop_) return;
            std::function<void()> job = std::move(queue_.front());
            queue_.pop_front();
            lock.unlock();
            job();
            lock.lock();
            if (--open_ == 0) ended_.notify_all();
        }
    }

    void stopThreads() {
        {
            std::lock_guard lock(mutex_);
            stop_ = true;
        }
        ready_.notify_all();
        for (std::thread& t : threads_)
            t.join();
        threads_.clear();
    }

    std::mutex mutex_;
    std::condition_variable ready_, ended_;
    std::deque<std::function<void()>> queue_;  ///< guarded by mutex_
    long open_ = 0;                            ///< jobs queued or running; guarded by mutex_
    bool stop_ = false;                        ///< guarded by mutex_
    std::vector<std::thread> threads_;
    unsigned workers_ = 0;
    Post post_{this};
};

}  // namespace

std::unique_ptr<RecursionRunner> makePoolRecursionRunner(const BackendInfo& info) {
    return std::make_unique<PoolRecursion>(info);
}

}  // namespace pullsched::rig
