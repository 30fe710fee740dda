// pullsched in the continuation idiom: a job posts its children from the job
// (postDetached), which keeps them with its worker, newest first, and idle workers steal
// the oldest. Threads as RecursionSchedulerConfig.hpp says: the caller posts the root and
// helps in drain().
// The loop shapes: parallelFor with its default grain (four chunks per thread, the helping
// caller counted), waited for with wait(), in which the caller helps as in drain().
#include <atomic>
#include <chrono>
#include <memory>
#include <stdexcept>
#include <utility>

#include "backends/BackendFactories.hpp"
#include "backends/PostedRecursion.hpp"
#include "backends/RecursionRunner.hpp"
#include "backends/RecursionSchedulerConfig.hpp"
#include "pullsched/scheduler/ParallelFor.hpp"
#include "pullsched/scheduler/Scheduler.hpp"

namespace pullsched::rig {

namespace {

class PullschedRecursion final : public RecursionRunner {
  public:
    using RecursionRunner::RecursionRunner;
    std::string_view idiom() const noexcept override {
        return "a job posts its children with postDetached (kept by its worker, newest first; idle "
               "workers steal the oldest) and leaves its sum to a join counter; the caller is one "
               "of the threads: it posts the root and helps in drain() (with one thread: one "
               "worker, the caller waits)";
    }
    std::string_view loopIdiom() const noexcept override {
        return "parallelFor(0, n, body) with its default grain (four chunks per thread that runs "
               "jobs) and wait() on the loop's handle, in which the caller helps";
    }
    void prepare(unsigned workers) override {
        scheduler_ = std::make_unique<Scheduler>(recursionSchedulerConfig(workers, "pullsched"));
        post_ = Post{scheduler_.get()};
    }

  protected:
    RecursionRun runRecursion(const RecursionShape& shape,
                              const std::atomic<bool>& abandon) override {
        if (!scheduler_) throw std::logic_error("pullsched recursion: not prepared");
        RecursionRun r;
        const auto t0 = SteadyClock::now();
        postRecursion(post_, abandon, shape, &r.result);
        scheduler_->drain();
        r.wall = std::chrono::duration_cast<testchain::Duration>(SteadyClock::now() - t0);
        r.abandoned = abandon.load(std::memory_order_relaxed);
        return r;
    }
    void runLoop(const LoopWork& work) override {
        if (!scheduler_) throw std::logic_error("pullsched loop: not prepared");
        scheduler_->wait(scheduler_->parallelFor(std::size_t{0}, work.out.size(),
                                                 [work](std::size_t i) { work.iteration(i); }));
    }

  private:
    struct Post {
        Scheduler* scheduler = nullptr;
        template <class F>
        void operator()(F&& f) {
            scheduler->postDetached(std::forward<F>(f));
        }
    };
    std::unique_ptr<Scheduler> scheduler_;
    Post post_;
};

}  // namespace

std::unique_ptr<RecursionRunner> makePullschedRecursionRunner(const BackendInfo& info) {
    return std::make_unique<PullschedRecursion>(info);
}

}  // namespace pullsched::rig
