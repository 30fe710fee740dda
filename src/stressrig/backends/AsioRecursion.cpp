// Boost.Asio: a handler posts its children to the thread_pool (asio::post) and leaves its
// sum to a JoinCounter; the run ends when the count of posted handlers not yet ended
// falls to zero. The loop shapes: the range in four chunks per thread, each a handler
// (PostedLoop.hpp), joined by the same count.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <utility>

#include <boost/asio/post.hpp>
#include <boost/asio/thread_pool.hpp>

#include "backends/BackendFactories.hpp"
#include "backends/PostedLoop.hpp"
#include "backends/PostedRecursion.hpp"
#include "backends/RecursionRunner.hpp"

namespace pullsched::rig {

namespace {

class AsioRecursion final : public RecursionRunner {
  public:
    using RecursionRunner::RecursionRunner;
    std::string_view idiom() const noexcept override {
        return "a handler posts its children to the thread_pool and leaves its sum to a join "
               "counter; the caller waits until no posted handler is open";
    }
    std::string_view loopIdiom() const noexcept override {
        return "the range cut into four chunks per thread, each a handler posted to the "
               "thread_pool; the caller waits until no posted handler is open";
    }
    ~AsioRecursion() override {
        if (pool_) pool_->join();
    }
    void prepare(unsigned workers) override {
        if (workers == 0) throw std::invalid_argument("asio recursion: 0 workers");
        if (pool_) pool_->join();
        pool_.emplace(workers);
        workers_ = workers;
    }

  protected:
    RecursionRun runRecursion(const RecursionShape& shape,
                              const std::atomic<bool>& abandon) override {
        if (!pool_) throw std::logic_error("asio recursion: not prepared");
        return runCountedRecursion(post_, abandon, shape, mutex_, ended_,
                                   [this] { return open_.load(std::memory_order_acquire) == 0; });
    }

    void runLoop(const LoopWork& work) override {
        if (workers_ == 0) throw std::logic_error("asio loop: not prepared");
        postLoopChunks(post_, work, workers_);
        waitAllEnded(mutex_, ended_, [this] { return open_.load(std::memory_order_acquire) == 0; });
    }

  private:
    struct Post {
        AsioRecursion* self;
        template <class F>
        void operator()(F&& f) {
            self->open_.fetch_add(1, std::memory_order_relaxed);
            boost::asio::post(*self->pool_, [self = self, f = std::forward<F>(f)]() mutable {
                f();
                if (self->open_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
                    std::lock_guard lock(self->mutex_);  // the waiter sees it or waits
                    self->ended_.notify_all();
                }
            });
        }
    };
    std::optional<boost::asio::thread_pool> pool_;
    unsigned workers_ = 0;
    std::atomic<long> open_{0};  ///< handlers posted and not ended
    std::mutex mutex_;
    std::condition_variable ended_;
    Post post_{this};
};

}  // namespace

std::unique_ptr<RecursionRunner> makeAsioRecursionRunner(const BackendInfo& info) {
    return std::make_unique<AsioRecursion>(info);
}

}  // namespace pullsched::rig
