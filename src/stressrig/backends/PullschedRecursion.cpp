// pullsched: a job posts its children from the job (postDetached), which keeps them with
// its worker, newest first, and idle workers steal the oldest. Threads that run jobs:
// `workers`, as in every backend, the caller counted as oneTBB's and OpenMP's count theirs:
// `workers - 1` workers and the caller, which posts the root and helps in drain()
// (helpWhileWaiting), so the recursion starts on a running thread as it does in oneTBB's
// arena. With one thread the caller cannot help (a scheduler has a worker): one worker,
// and the caller waits. Measured against `workers` workers and a caller that only waits
// (--settle=20ms, medians of 7 runs, 2 threads, two sets): fib-15 96-119 -> 65-76 ns per
// call, skynet-3 171-195 -> 96-108, fib-25 and skynet-5 alike within their spread.
#include <atomic>
#include <chrono>
#include <memory>
#include <stdexcept>
#include <utility>

#include "backends/BackendFactories.hpp"
#include "backends/PostedRecursion.hpp"
#include "backends/RecursionRunner.hpp"
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
    void prepare(unsigned workers) override {
        if (workers == 0) throw std::invalid_argument("pullsched recursion: 0 workers");
        SchedulerConfig cfg;
        const bool callerHelps = workers > 1;
        cfg.workers = callerHelps ? workers - 1 : workers;
        cfg.helpWhileWaiting = callerHelps;
        scheduler_ = std::make_unique<Scheduler>(cfg);
        post_ = Post{scheduler_.get()};
    }
    RecursionRun run(const RecursionShape& shape, const std::atomic<bool>& abandon) override {
        if (!scheduler_) throw std::logic_error("pullsched recursion: not prepared");
        RecursionRun r;
        const auto t0 = SteadyClock::now();
        postRecursion(post_, abandon, shape, &r.result);
        scheduler_->drain();
        r.wall = std::chrono::duration_cast<testchain::Duration>(SteadyClock::now() - t0);
        r.abandoned = abandon.load(std::memory_order_relaxed);
        return r;
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
