// Steady state posts and runs jobs without touching the heap: records, queue nodes and
// successor lists are pooled and keep their capacity. A counting operator new makes
// any per-job allocation fail this test.
#include "pullsched/scheduler/Scheduler.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>
#include <vector>

namespace {
std::atomic<bool> counting{false};
std::atomic<std::uint64_t> allocations{0};
}  // namespace

// The replacement pairs malloc with free by construction; GCC cannot see that.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"

void* operator new(std::size_t n) {
    if (counting.load(std::memory_order_relaxed))
        allocations.fetch_add(1, std::memory_order_relaxed);
    if (void* p = std::malloc(n ? n : 1)) return p;
    throw std::bad_alloc();
}
void operator delete(void* p) noexcept {
    std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
    std::free(p);
}

using namespace std::chrono_literals;
using namespace pullsched;

namespace {
/// One round: independent jobs, a chain, a fan-out/fan-in, jobs with values and timed jobs.
void round(Scheduler& sched, std::atomic<int>& ran, std::vector<JobHandle>& fan) {
    for (int i = 0; i < 500; ++i)
        sched.postDetached([&ran] { ran.fetch_add(1); });
    JobHandle prev = sched.post([&ran] { ran.fetch_add(1); });
    for (int i = 0; i < 200; ++i)
        prev = sched.post([&ran] { ran.fetch_add(1); }, {}, {prev});
    JobHandle root = sched.post([&ran] { ran.fetch_add(1); });
    fan.clear();  // keeps its capacity
    for (int i = 0; i < 100; ++i)
        fan.push_back(sched.post([&ran] { ran.fetch_add(1); }, {}, {root}));
    sched.postDetached([&ran] { ran.fetch_add(1); }, {}, fan);
    // Values that fit the record's inline storage live there: get() allocates nothing.
    struct Pair {
        std::uint64_t a, b;
    };
    for (int i = 0; i < 50; ++i) {
        JobHandleOf<Pair> value = sched.post([&ran] {
            ran.fetch_add(1);
            return Pair{1, 2};
        });
        if (value.get().b != 2) std::abort();
    }
    const TimePoint t = sched.now() + 200us;
    for (int i = 0; i < 100; ++i)
        sched.postDetached([&ran] { ran.fetch_add(1); }, {.start = t});
    sched.drain();
}
}  // namespace

TEST(SchedulerAllocation, SteadyStateAllocatesNothingPerJob) {
    std::atomic<int> ran{0};
    std::vector<JobHandle> fan;
    fan.reserve(128);
    SchedulerConfig cfg;
    cfg.workers = 2;
    Scheduler sched(cfg);
    for (int i = 0; i < 5; ++i)
        round(sched, ran, fan);  // warm-up: pools reach their size
    const int before = ran.load();
    allocations = 0;
    counting = true;
    for (int i = 0; i < 20; ++i)
        round(sched, ran, fan);
    counting = false;
    EXPECT_EQ(ran.load() - before, 20 * (500 + 201 + 101 + 1 + 50 + 100));
    EXPECT_EQ(allocations.load(), 0u) << "heap allocations while posting ~18000 jobs";
}

namespace {
Task<long> fib(Scheduler& s, int n) {
    if (n < 2) co_return n;
    auto a = s.spawn(fib(s, n - 1));
    const long b = co_await fib(s, n - 2);
    co_return co_await a + b;
}
}  // namespace

// Tasks too: a warm frame cache gives every frame, the pool every record. One worker, so
// that frames are made and freed on one thread (a frame freed on another thread joins that
// thread's cache: with several, a thread that makes more frames than it frees goes to the
// heap); only the root frame, made on this thread, comes from the heap each round.
TEST(SchedulerAllocation, WarmTasksAllocateNothingButTheirRootFrame) {
    if (!PULLSCHED_FRAME_CACHE) GTEST_SKIP() << "frame cache off in this build";
    SchedulerConfig cfg;
    cfg.workers = 1;
    cfg.helpWhileWaiting = false;
    Scheduler sched(cfg);
    constexpr int kRounds = 20;
    for (int i = 0; i < 5; ++i)
        ASSERT_EQ(sched.spawn(fib(sched, 15)).get(), 610);  // warm-up
    allocations = 0;
    counting = true;
    for (int i = 0; i < kRounds; ++i)
        if (sched.spawn(fib(sched, 15)).get() != 610) std::abort();
    counting = false;
    EXPECT_LE(allocations.load(), std::uint64_t{kRounds})
        << "heap allocations while running " << kRounds << " x fib(15) (1973 frames each)";
    sched.drain();
}
