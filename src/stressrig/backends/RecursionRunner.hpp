#pragma once
// A backend's recursion capability: running work that its own jobs create (Recursion.hpp),
// each backend in its own idiom, so that the rig compares what a user of that runtime
// would write: pullsched posts from the job (postDetached) and sums with join counters,
// or, in its coroutine idiom (pullsched-coro), spawns Tasks and co_awaits them; oneTBB
// runs a task_group per call and waits in it; OpenMP creates tasks and waits with
// taskwait; Boost.Asio and the pool post from the handler and sum with join counters.
//
//   std::unique_ptr<RecursionRunner> r = BackendRegistry::recursionRunner("tbb");
//   r->prepare(workers);                        // untimed: threads, arena
//   std::atomic<bool> abandon{false};             // another thread may set it
//   RecursionRun run = r->run({RecursionKind::Fib, 25}, abandon);   // timed
//   run.abandoned || run.result == expectedResult(shape)
//
// run() returns when the result is there and every job of the run has ended; it is
// repeatable and must not be called concurrently with itself. A run of fib:40 takes
// seconds, so every inner call reads `abandon` (one relaxed load of a line nobody writes
// during the run) and, once it is set, spawns nothing more: the run ends soon, abandoned,
// with a wrong result.
//
// The loop shapes (loop:N, loop1us:N) go through the same run(): the runner fills a
// counter per index with 0, times runLoop() (each backend's parallel loop idiom: pullsched
// parallelFor, oneTBB parallel_for, OpenMP parallel for, Asio and the pool chunks posted
// with a join count) and returns as result the indices that ran exactly once. A loop reads
// no stop flag (Recursion.hpp bounds its length): an abandoned run starts none.

#include <atomic>
#include <cstdint>
#include <string_view>
#include <vector>

#include "backends/BackendInfo.hpp"
#include "backends/LoopWork.hpp"
#include "backends/Recursion.hpp"
#include "pullsched/testchain/Duration.hpp"

namespace pullsched::rig {

struct RecursionRun {
    testchain::Duration wall{0};  ///< from the root's spawn to the result and the last job's end
    std::uint64_t result = 0;
    bool abandoned = false;  ///< `abandon` was set during the run: no figure, no result
};

class RecursionRunner {
  public:
    explicit RecursionRunner(const BackendInfo& info) noexcept : info_(&info) {}
    virtual ~RecursionRunner() = default;
    RecursionRunner(const RecursionRunner&) = delete;
    RecursionRunner& operator=(const RecursionRunner&) = delete;

    const BackendInfo& info() const noexcept { return *info_; }
    /// One sentence: how a user of this runtime writes the recursion (--help, JSON).
    virtual std::string_view idiom() const noexcept = 0;
    /// One sentence: how it writes the parallel loop.
    virtual std::string_view loopIdiom() const noexcept = 0;
    /// `workers` threads run the jobs, the calling thread waits (oneTBB's and OpenMP's
    /// calling thread is one of the `workers`, as their arenas and teams count it).
    virtual void prepare(unsigned workers) = 0;
    /// The work units of 1 us of the calibrated CPU load (ComputationalLoad::unitsFor), which
    /// every iteration of loop1us:N spins; a loop1us run before this throws std::logic_error.
    void setMicrosecondUnits(std::uint64_t units) noexcept { microsecondUnits_ = units; }
    RecursionRun run(const RecursionShape& shape, const std::atomic<bool>& abandon);

  protected:
    virtual RecursionRun runRecursion(const RecursionShape& shape,
                                      const std::atomic<bool>& abandon) = 0;
    /// Every iteration of `work` once, in this runtime's loop idiom; returns when all have
    /// ended. Throws std::logic_error when not prepared.
    virtual void runLoop(const LoopWork& work) = 0;

  private:
    RecursionRun runLoopShape(const RecursionShape& shape, const std::atomic<bool>& abandon);

    const BackendInfo* info_;
    std::uint64_t microsecondUnits_ = 0;
    std::vector<std::uint32_t> counters_;  ///< the loop's out[], kept from run to run
};

}  // namespace pullsched::rig
