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

#include <atomic>
#include <cstdint>
#include <string_view>

#include "backends/BackendInfo.hpp"
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
    /// `workers` threads run the jobs, the calling thread waits (oneTBB's and OpenMP's
    /// calling thread is one of the `workers`, as their arenas and teams count it).
    virtual void prepare(unsigned workers) = 0;
    virtual RecursionRun run(const RecursionShape& shape, const std::atomic<bool>& abandon) = 0;

  private:
    const BackendInfo* info_;
};

}  // namespace pullsched::rig
