// pullsched in its coroutine idiom (docs/coroutines.md), "pullsched-coro" in --mode=spawn:
// a call is a Task. fib spawns fib(n-1) as a job, co_awaits fib(n-2) inline and then the
// spawned handle; skynet spawns nine children, runs the tenth inline and co_awaits the
// nine one by one. A Task that awaits a job not yet final ends its slice and is resumed as
// a job when the job ends, so no thread waits. Threads as RecursionSchedulerConfig.hpp
// says: the caller spawns the root and helps in get().
// skynet's shape, measured (ns per call, medians of six interleaved rounds of 5 runs, load
// average about 7 on 2 cores; nine spawned + one inline / ten spawned, awaited one by one
// / ten spawned, one whenAll): 2 threads skynet-5 80 / 126 / 125, skynet-6 108 / 114 /
// 142; 1 thread 122 / 99 / 123, 123 / 110 / 136, within the spread. The last child
// inline is also fib's shape. The loop shapes: parallelFor, as `pullsched` runs them (a
// flat loop spawns no Task).
#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <utility>

#include "backends/BackendFactories.hpp"
#include "backends/RecursionRunner.hpp"
#include "backends/RecursionSchedulerConfig.hpp"
#include "pullsched/scheduler/ParallelFor.hpp"
#include "pullsched/scheduler/Scheduler.hpp"

namespace pullsched::rig {

namespace {

// Once `abandon` is set, a call spawns nothing and returns 0 (RecursionRunner.hpp). The
// parameters are copied into each frame: `s` and `abandon` outlive the run.
Task<std::uint64_t> fibTask(Scheduler& s, const std::atomic<bool>& abandon, unsigned n) {
    if (n < 2) co_return n;
    if (abandon.load(std::memory_order_relaxed)) co_return 0;
    auto a = s.spawn(fibTask(s, abandon, n - 1));
    const std::uint64_t b = co_await fibTask(s, abandon, n - 2);
    co_return co_await a + b;
}

/// `levels` below this call; its leaves are num, num + 1, ..., num + 10^levels - 1.
Task<std::uint64_t> skynetTask(Scheduler& s, const std::atomic<bool>& abandon, std::uint64_t num,
                               unsigned levels) {
    if (levels == 0) co_return num;
    if (abandon.load(std::memory_order_relaxed)) co_return 0;
    const std::uint64_t step = powerOfTen(levels - 1);
    std::array<JobHandleOf<std::uint64_t>, 9> kids;
    for (unsigned i = 0; i < kids.size(); ++i)
        kids[i] = s.spawn(skynetTask(s, abandon, num + i * step, levels - 1));
    std::uint64_t sum = co_await skynetTask(s, abandon, num + 9 * step, levels - 1);
    for (const JobHandleOf<std::uint64_t>& k : kids)
        sum += co_await k;  // the first may suspend; the later ones are mostly final by then
    co_return sum;
}

class PullschedCoroutineRecursion final : public RecursionRunner {
  public:
    using RecursionRunner::RecursionRunner;
    std::string_view idiom() const noexcept override {
        return "a call is a Task (C++20 coroutine): it spawns its children as jobs (fib: "
               "fib(n-1); skynet: nine of ten), co_awaits the last one inline and then the "
               "spawned handles, its job suspended and resumed when they end, so no thread "
               "waits; the caller is one of the threads: it spawns the root and helps in get() "
               "(with one thread: one worker, the caller waits)";
    }
    std::string_view loopIdiom() const noexcept override {
        return "parallelFor(0, n, body) with its default grain and wait() on the loop's handle, "
               "in which the caller helps, as pullsched runs it";
    }
    void prepare(unsigned workers) override {
        scheduler_ =
            std::make_unique<Scheduler>(recursionSchedulerConfig(workers, "pullsched-coro"));
    }

  protected:
    RecursionRun runRecursion(const RecursionShape& shape,
                              const std::atomic<bool>& abandon) override {
        if (!scheduler_) throw std::logic_error("pullsched-coro recursion: not prepared");
        Scheduler& s = *scheduler_;
        RecursionRun r;
        const auto t0 = SteadyClock::now();
        Task<std::uint64_t> root = shape.kind == RecursionKind::Fib
                                       ? fibTask(s, abandon, shape.size)
                                       : skynetTask(s, abandon, 0, shape.size);
        r.result = s.spawn(std::move(root)).get();
        s.drain();  // the root's value is there; every job's end is, too (RecursionRunner.hpp)
        r.wall = std::chrono::duration_cast<testchain::Duration>(SteadyClock::now() - t0);
        r.abandoned = abandon.load(std::memory_order_relaxed);
        return r;
    }
    void runLoop(const LoopWork& work) override {
        if (!scheduler_) throw std::logic_error("pullsched-coro loop: not prepared");
        scheduler_->wait(scheduler_->parallelFor(std::size_t{0}, work.out.size(),
                                                 [work](std::size_t i) { work.iteration(i); }));
    }

  private:
    std::unique_ptr<Scheduler> scheduler_;
};

}  // namespace

std::unique_ptr<RecursionRunner> makePullschedCoroutineRecursionRunner(const BackendInfo& info) {
    return std::make_unique<PullschedCoroutineRecursion>(info);
}

}  // namespace pullsched::rig
