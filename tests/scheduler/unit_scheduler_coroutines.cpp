// Tasks (C++20 coroutines) as jobs: values and exceptions through co_await and get(),
// cancellation at a suspension, timed resumption in (start, sequence) order on an injected
// clock, no frame left behind by shutdown, random fork-join trees, and the accounting of a
// suspended Task (one pending job; drain() waits for it). Nothing here asserts a duration:
// waits are bounded only to turn a hang into a failure.
#include "pullsched/scheduler/Scheduler.hpp"

#include "SchedulerTestKit.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <tuple>
#include <variant>
#include <vector>

#include "pullsched/scheduler/detail/FrameCache.hpp"

using namespace std::chrono_literals;
using namespace pullsched;

namespace {

using testkit::expectBalanced;
using testkit::RunOrder;
using testkit::withWorkers;

/// Counts the frames alive: each Task below holds one of these as a local.
struct Alive {
    explicit Alive(std::atomic<int>& n) : count(n) { count.fetch_add(1); }
    ~Alive() { count.fetch_sub(1); }
    Alive(const Alive&) = delete;
    Alive& operator=(const Alive&) = delete;
    std::atomic<int>& count;
};

Task<long> fib(Scheduler& s, int n) {
    if (n < 2) co_return n;
    auto a = s.spawn(fib(s, n - 1));
    const long b = co_await fib(s, n - 2);
    co_return co_await a + b;
}

/// Until `pred` holds; fails the test (instead of hanging) after a minute.
template <class Pred>
bool eventually(Pred&& pred) {
    const auto limit = std::chrono::steady_clock::now() + 60s;
    while (!pred()) {
        if (std::chrono::steady_clock::now() > limit) return false;
        std::this_thread::yield();
    }
    return true;
}

/// A job that runs until released: something a Task can be suspended on for as long as a
/// test needs.
class Gate {
  public:
    explicit Gate(Scheduler& s)
        : handle_(s.post([this] {
              running_ = true;
              while (!open_.load())
                  std::this_thread::yield();
          })) {
        EXPECT_TRUE(eventually([this] { return running_.load(); }));
    }
    void open() { open_ = true; }
    const JobHandle& handle() const { return handle_; }

  private:
    std::atomic<bool> running_{false}, open_{false};
    JobHandle handle_;
};

}  // namespace

// ---------------------------------------------------------------- values and exceptions

TEST(SchedulerCoroutines, FibComputesItsValueThroughSpawnAndInlineAwaits) {
    Scheduler sched(withWorkers(2));
    auto h = sched.spawn(fib(sched, 15));
    sched.wait(h);
    EXPECT_EQ(h.state(), JobState::Completed);
    EXPECT_EQ(h.get(), 610);
    EXPECT_EQ(sched.spawn(fib(sched, 1)).get(), 1);
    sched.drain();
    expectBalanced(sched.stats());
}

TEST(SchedulerCoroutines, OneWorkerAndAHelpingCallerComputeFibToo) {
    SchedulerConfig cfg = withWorkers(1);
    cfg.helpWhileWaiting = true;  // the caller's get() runs slices beside the one worker
    Scheduler sched(cfg);
    EXPECT_EQ(sched.spawn(fib(sched, 18)).get(), 2584);
    sched.drain();
    const Statistics s = sched.stats();
    EXPECT_EQ(s.pending, 0u);
    EXPECT_EQ(s.completed, s.submitted);
}

TEST(SchedulerCoroutines, VoidTasksRunAndTheirHandlesComplete) {
    Scheduler sched(withWorkers(2));
    std::atomic<int> steps{0};
    auto inner = [&]() -> Task<> {
        steps.fetch_add(1);
        co_return;
    };
    auto outer = [&]() -> Task<> {
        co_await inner();               // inline
        co_await sched.spawn(inner());  // a job, awaited through its JobHandle
        JobHandle h = sched.post([&] { steps.fetch_add(1); });
        co_await h;
        steps.fetch_add(1);
    };
    JobHandle h = sched.spawn(outer());
    sched.wait(h);
    EXPECT_EQ(h.state(), JobState::Completed);
    EXPECT_EQ(steps.load(), 4);
}

TEST(SchedulerCoroutines, AwaitingAHandleGivesItsValueAndAnRvalueHandleMovesItOut) {
    Scheduler sched(withWorkers(2));
    auto task = [&]() -> Task<std::string> {
        JobHandleOf<std::string> kept = sched.post([] { return std::string("kept"); });
        std::string& ref = co_await kept;  // the value in the record, as get() gives it
        std::string moved = co_await sched.post([] { return std::string(100, 'x'); });
        EXPECT_EQ(&ref, &kept.get());
        co_return ref + ":" + std::to_string(moved.size());
    };
    EXPECT_EQ(sched.spawn(task()).get(), "kept:100");
}

TEST(SchedulerCoroutines, WhenAllGivesATupleInArgumentOrderAndAVectorForARange) {
    Scheduler sched(withWorkers(2));
    auto task = [&]() -> Task<long> {
        auto [a, nothing, b] = co_await whenAll(sched.spawn(fib(sched, 10)), sched.post([] {}),
                                                sched.spawn(fib(sched, 12)));
        static_assert(std::is_same_v<decltype(nothing), std::monostate>);
        std::vector<JobHandleOf<long>> parts;
        for (int n = 0; n < 10; ++n)
            parts.push_back(sched.spawn(fib(sched, n)));
        const std::vector<long> values = co_await whenAll(parts);
        co_return a * 1000 + b + std::accumulate(values.begin(), values.end(), 0L);
    };
    // fib(0..9) sum to 88.
    EXPECT_EQ(sched.spawn(task()).get(), 55 * 1000 + 144 + 88);
}

TEST(SchedulerCoroutines, ExceptionsPropagateThroughEveryKindOfAwaitAndGet) {
    Scheduler sched(withWorkers(2));
    auto thrower = [](Scheduler&) -> Task<int> {
        throw std::runtime_error("boom");
        co_return 0;
    };
    auto task = [&]() -> Task<int> {
        int caught = 0;
        try {
            (void)co_await thrower(sched);  // inline
        } catch (const std::runtime_error&) {
            caught += 1;
        }
        try {
            (void)co_await sched.spawn(thrower(sched));  // a Task's job
        } catch (const std::runtime_error&) {
            caught += 10;
        }
        try {
            co_await sched.post([] { throw std::logic_error("posted"); });  // a plain job
        } catch (const std::logic_error&) {
            caught += 100;
        }
        try {  // the first failure in argument order, once all are final
            (void)co_await whenAll(sched.post([] { return 1; }),
                                   sched.post([]() -> int { throw std::out_of_range("2nd"); }),
                                   sched.post([]() -> int { throw std::logic_error("3rd"); }));
        } catch (const std::out_of_range&) {
            caught += 1000;
        }
        co_return caught;
    };
    EXPECT_EQ(sched.spawn(task()).get(), 1111);
    auto failing = sched.spawn(thrower(sched));
    EXPECT_THROW(failing.get(), std::runtime_error);
    EXPECT_EQ(failing.state(), JobState::Failed);
    sched.drain();
    const Statistics s = sched.stats();
    EXPECT_EQ(s.failed, 5u);  // two thrower jobs, three plain ones (both of whenAll's)
    expectBalanced(s);
}

TEST(SchedulerCoroutines, MisuseThrowsInsideTheTask) {
    Scheduler sched(withWorkers(2));
    Scheduler other(withWorkers(1));
    JobHandle foreignDone = other.post([] {});
    other.wait(foreignDone);
    JobHandle foreignLater = other.post([] {}, {.start = other.now() + 1h});
    auto task = [&]() -> Task<int> {
        int caught = 0;
        for (const JobHandle* foreign : {&foreignDone, &foreignLater}) {
            try {  // refused whether final or not
                co_await *foreign;
            } catch (const std::invalid_argument&) {
                caught += 1;
            }
        }
        try {
            co_await other.after(0ns);
        } catch (const std::logic_error&) {
            caught += 10;
        }
        try {
            co_await JobHandle{};
        } catch (const std::logic_error&) {
            caught += 100;
        }
        JobHandle later = sched.post([] {}, {.start = sched.now() + 1h});
        try {
            sched.wait(later);  // a job still may not wait
        } catch (const std::logic_error&) {
            caught += 1000;
        }
        sched.cancel(later);
        co_return caught;
    };
    EXPECT_EQ(sched.spawn(task()).get(), 1112);
    EXPECT_THROW(sched.spawn(Task<int>{}), std::invalid_argument);
    other.cancel(foreignLater);
}

// ---------------------------------------------------------------- cancellation

TEST(SchedulerCoroutines, SpawnOptionsActAsForPostBeforeTheFirstSlice) {
    ManualClock clock;
    Scheduler sched(withWorkers(2, &clock));
    std::atomic<int> frames{0}, started{0};
    auto task = [&]() -> Task<int> {
        Alive alive(frames);
        started.fetch_add(1);
        co_await sched.after(1h);  // a resumption has no deadline: it does not expire
        co_return 7;
    };
    // Past its deadline at its start: Expired, its frame destroyed, never started.
    auto late = sched.spawn(task(), {.start = clock.now() + 1ms, .deadline = clock.now() + 2ms});
    // A predecessor that failed: Cancelled, as a post would be.
    JobHandle failed = sched.post([] { throw std::runtime_error("x"); });
    auto doomed = sched.spawn(task(), {}, {failed});
    // Starts in time, then outlives its deadline while suspended.
    auto suspended = sched.spawn(task(), {.deadline = clock.now() + 2ms});
    ASSERT_TRUE(eventually([&] { return doomed.done() && started.load() == 1; }));
    clock.advance(10ms);
    sched.wake();
    ASSERT_TRUE(eventually([&] { return late.done(); }));
    clock.advance(2h);
    sched.wake();
    sched.drain();
    EXPECT_EQ(late.state(), JobState::Expired);
    EXPECT_EQ(doomed.state(), JobState::Cancelled);
    EXPECT_EQ(suspended.get(), 7);
    EXPECT_THROW(late.get(), JobNotRun);
    EXPECT_EQ(started.load(), 1);
    EXPECT_EQ(frames.load(), 0);
}

TEST(SchedulerCoroutines, CancellingTheGroupOfASuspendedTaskEndsItAtItsNextResumption) {
    Scheduler sched(withWorkers(2));
    std::atomic<int> frames{0};
    std::atomic<bool> resumed{false};
    Gate gate(sched);
    JobGroup group = sched.group();
    auto task = [&]() -> Task<int> {
        Alive alive(frames);
        co_await gate.handle();
        resumed = true;
        co_return 1;
    };
    auto h = sched.spawn(task(), {.group = group});
    // Another Task, outside the group, awaits the cancelled one.
    auto watcher = [&]() -> Task<int> {
        try {
            co_return co_await h;
        } catch (const JobNotRun& e) {
            co_return e.state() == JobState::Cancelled ? -1 : -2;
        }
    };
    auto w = sched.spawn(watcher());
    ASSERT_TRUE(eventually([&] { return h.state() == JobState::Waiting; }));
    group.cancel();
    gate.open();
    EXPECT_EQ(w.get(), -1);
    EXPECT_EQ(h.state(), JobState::Cancelled);
    EXPECT_THROW(h.get(), JobNotRun);
    sched.drain();
    EXPECT_FALSE(resumed.load());
    EXPECT_EQ(frames.load(), 0);
    const GroupStatistics g = group.stats();
    EXPECT_EQ(g.cancelled, 1u);  // the resumption; the first slice completed
    EXPECT_EQ(g.completed, 1u);
    EXPECT_EQ(g.pending, 0u);
    expectBalanced(g);
    expectBalanced(sched.stats());
}

TEST(SchedulerCoroutines, CancellingTheHandleOfASuspendedTaskEndsItAtOnce) {
    Scheduler sched(withWorkers(2));
    std::atomic<int> frames{0};
    std::atomic<bool> resumed{false};
    Gate gate(sched);
    auto child = [&]() -> Task<> {
        Alive alive(frames);
        co_await gate.handle();
        resumed = true;
    };
    auto task = [&]() -> Task<> {
        Alive alive(frames);
        co_await child();  // suspended inside an inline Task: both frames go
        resumed = true;
    };
    JobHandle h = sched.spawn(task());
    ASSERT_TRUE(eventually([&] { return h.state() == JobState::Waiting; }));
    EXPECT_TRUE(sched.cancel(h));
    EXPECT_EQ(h.state(), JobState::Cancelled);
    EXPECT_EQ(frames.load(), 0);  // destroyed by the cancel
    EXPECT_FALSE(sched.cancel(h));
    gate.open();
    sched.drain();
    EXPECT_FALSE(resumed.load());
    const Statistics s = sched.stats();
    EXPECT_EQ(s.cancelled, 1u);
    EXPECT_EQ(s.pending, 0u);
    expectBalanced(s);
}

TEST(SchedulerCoroutines, ARunningSliceIsNotCancelledButItsNextOneIs) {
    Scheduler sched(withWorkers(2));
    std::atomic<bool> inSlice{false}, leave{false}, resumed{false};
    JobGroup group = sched.group();
    auto task = [&]() -> Task<> {
        inSlice = true;
        while (!leave.load())
            std::this_thread::yield();
        co_await sched.after(0ns);
        resumed = true;
    };
    JobHandle h = sched.spawn(task(), {.group = group});
    ASSERT_TRUE(eventually([&] { return inSlice.load(); }));
    EXPECT_FALSE(sched.cancel(h));  // it runs
    group.cancel();
    leave = true;
    sched.wait(h);
    EXPECT_EQ(h.state(), JobState::Cancelled);
    EXPECT_FALSE(resumed.load());
}

// ---------------------------------------------------------------- time

// One worker on a manual clock: the first slice runs at once (untimed), then every
// resumption is a timed job among posted ones, in (start, sequence) order, its sequence
// taken when its slice ended.
TEST(SchedulerCoroutines, TimedResumptionsKeepStartSequenceOrderWithPostedTimedJobs) {
    ManualClock clock;
    SchedulerConfig cfg = withWorkers(1, &clock);
    cfg.helpWhileWaiting = false;  // one thread runs the jobs: the order is the scheduler's
    Scheduler sched(cfg);
    RunOrder order;
    const TimePoint t = clock.now();
    sched.post(order.recorder(1), {.start = t + 1ms});
    auto task = [&]() -> Task<> {
        order.add(10);
        co_await sched.at(t + 2ms);
        order.add(2);
        co_await sched.at(t + 4ms);  // sequenced after 5, posted while it was suspended
        order.add(4);
        co_await sched.after(-1h);  // long past, yet behind every due timed job posted before
        order.add(7);
    };
    JobHandle h = sched.spawn(task());
    // Scheduled again after the first slice ran: the resumption has its sequence number.
    ASSERT_TRUE(eventually([&] { return !order.order().empty(); }));
    ASSERT_TRUE(eventually([&] { return h.state() == JobState::Scheduled; }));
    sched.post(order.recorder(3), {.start = t + 2ms});  // same start, later sequence
    sched.post(order.recorder(5), {.start = t + 4ms});
    sched.post(order.recorder(6), {.start = t + 4ms});
    clock.advance(10ms);
    sched.wake();
    sched.drain();
    EXPECT_EQ(order.order(), (std::vector<int>{10, 1, 2, 3, 5, 6, 4, 7}));
    EXPECT_EQ(h.state(), JobState::Completed);
}

namespace {

// Coroutines are free functions here: a lambda's captures live in its closure, which a
// temporary lambda would take with it while the Task is suspended.
Task<> suspendOnce(Scheduler& s, JobHandle timed, TimePoint at, bool onHandle,
                   std::atomic<int>& done) {
    if (onHandle) {
        co_await timed;
    } else {
        co_await s.at(at);
    }
    done.fetch_add(1);
}

}  // namespace

TEST(SchedulerCoroutines, SuspendedTasksHoldNoWorker) {
    ManualClock clock;
    SchedulerConfig cfg = withWorkers(1, &clock);
    cfg.helpWhileWaiting = false;
    Scheduler sched(cfg);
    const TimePoint later = clock.now() + 1h;
    JobHandle timed = sched.post([] {}, {.start = later});
    std::atomic<int> done{0};
    std::vector<JobHandle> tasks;
    for (int i = 0; i < 50; ++i)
        tasks.push_back(sched.spawn(suspendOnce(sched, timed, later, i % 2 != 0, done)));
    // 50 suspended Tasks and one worker: a plain job still runs.
    std::atomic<bool> ran{false};
    JobHandle plain = sched.post([&] { ran = true; });
    ASSERT_TRUE(sched.waitFor(plain, 60s));
    EXPECT_TRUE(ran.load());
    EXPECT_EQ(done.load(), 0);
    clock.advance(2h);
    sched.wake();
    sched.drain();
    EXPECT_EQ(done.load(), 50);
}

// ---------------------------------------------------------------- shutdown

namespace {

/// Tasks suspended every way: on a far timed job's handle, on a time, inside an inline
/// Task, on whenAll. Returns their handles.
Task<int> leaf(Scheduler& s, JobHandle timed, TimePoint far, std::atomic<int>& frames, int k) {
    Alive alive(frames);
    if (k % 2) {
        co_await timed;
    } else {
        co_await s.at(far);
    }
    co_return k;
}

Task<int> node(Scheduler& s, JobHandle timed, TimePoint far, std::atomic<int>& frames,
               std::atomic<int>& finished, int k) {
    Alive alive(frames);
    const int v = co_await leaf(s, timed, far, frames, k);
    auto [a, b] = co_await whenAll(s.spawn(leaf(s, timed, far, frames, k + 1)),
                                   s.spawn(leaf(s, timed, far, frames, k + 2)));
    finished.fetch_add(1);
    co_return v + a + b;
}

std::vector<JobHandle> suspendMany(Scheduler& sched, TimePoint far, std::atomic<int>& frames,
                                   std::atomic<int>& finished) {
    JobHandle timed = sched.post([] {}, {.start = far});
    std::vector<JobHandle> handles;
    for (int i = 0; i < 20; ++i)
        handles.push_back(sched.spawn(node(sched, timed, far, frames, finished, i)));
    return handles;
}

}  // namespace

TEST(SchedulerCoroutines, ShutdownCancelDestroysEverySuspendedFrame) {
    ManualClock clock;
    std::atomic<int> frames{0}, finished{0};
    std::vector<JobHandle> handles;
    Statistics s;
    {
        Scheduler sched(withWorkers(2, &clock));
        handles = suspendMany(sched, clock.now() + 1h, frames, finished);
        ASSERT_TRUE(eventually([&] { return frames.load() == 40; }));  // 20 Tasks, each inline
        const ShutdownReport r = sched.shutdown(ShutdownMode::Cancel);
        EXPECT_GE(r.cancelled, 21u);  // the timed job and the 20 Tasks at least
        s = sched.stats();
    }
    EXPECT_EQ(frames.load(), 0);
    EXPECT_EQ(finished.load(), 0);
    for (const JobHandle& h : handles)
        EXPECT_EQ(h.state(), JobState::Cancelled);
    EXPECT_EQ(s.pending, 0u);
    expectBalanced(s);
}

TEST(SchedulerCoroutines, TheDestructorCancelsSuspendedTasksToo) {
    ManualClock clock;
    std::atomic<int> frames{0}, finished{0};
    {
        Scheduler sched(withWorkers(1, &clock));
        (void)suspendMany(sched, clock.now() + 1h, frames, finished);
        ASSERT_TRUE(eventually([&] { return frames.load() == 40; }));
    }
    EXPECT_EQ(frames.load(), 0);
    EXPECT_EQ(finished.load(), 0);
}

TEST(SchedulerCoroutines, ShutdownDrainResumesEverySuspendedTaskToItsEnd) {
    ManualClock clock;
    std::atomic<int> frames{0}, finished{0};
    std::vector<JobHandle> handles;
    {
        SchedulerConfig cfg = withWorkers(2, &clock);
        cfg.shutdownMode = ShutdownMode::Drain;
        Scheduler sched(cfg);
        handles = suspendMany(sched, clock.now() + 1h, frames, finished);
        ASSERT_TRUE(eventually([&] { return frames.load() == 40; }));
        std::atomic<bool> shutDown{false};
        std::thread stopper([&] {
            sched.shutdown(ShutdownMode::Drain);
            shutDown = true;
        });
        clock.advance(2h);  // Drain waits for the timed resumptions: let them come due
        while (!shutDown.load()) {
            sched.wake();
            std::this_thread::yield();
        }
        stopper.join();
        const Statistics s = sched.stats();
        EXPECT_EQ(s.cancelled, 0u);
        EXPECT_EQ(s.pending, 0u);
        expectBalanced(s);
    }
    EXPECT_EQ(frames.load(), 0);
    EXPECT_EQ(finished.load(), 20);
    for (const JobHandle& h : handles)
        EXPECT_EQ(h.state(), JobState::Completed);
}

// ---------------------------------------------------------------- accounting

TEST(SchedulerCoroutines, ASuspendedTaskIsOnePendingJobAndDrainWaitsForIt) {
    Scheduler sched(withWorkers(2));
    Gate gate(sched);
    std::atomic<bool> after{false};
    auto task = [&]() -> Task<> {
        co_await gate.handle();
        after = true;
    };
    JobHandle h = sched.spawn(task());
    // The gate's job and the suspended Task: two pending jobs, nothing else.
    ASSERT_TRUE(eventually([&] {
        const Statistics now = sched.stats();
        return h.state() == JobState::Waiting && now.completed == 1 && now.pending == 2;
    }));
    EXPECT_FALSE(sched.drainFor(0ns));
    EXPECT_FALSE(after.load());
    Statistics s = sched.stats();
    EXPECT_EQ(s.submitted, 3u);  // the gate, the first slice, the resumption
    EXPECT_EQ(s.completed, 1u);  // the first slice
    expectBalanced(s);
    gate.open();
    sched.drain();
    EXPECT_TRUE(after.load());
    EXPECT_TRUE(h.done());
    s = sched.stats();
    EXPECT_EQ(s.submitted, 3u);
    EXPECT_EQ(s.completed, 3u);
    EXPECT_EQ(s.pending, 0u);
}

// A random recursive tree (each node's parent drawn uniformly among the nodes before it:
// depth about ln n), visited by Tasks that reach their children every way: spawned and
// awaited one by one, inline, and spawned together for one whenAll. Each node's value is
// its subtree's sum, checked at the root and counted at every node.
TEST(SchedulerCoroutines, RandomForkJoinTreesSumTheirValues) {
    constexpr int kNodes = 100'000;  // ~0.3 s, ~2 s under TSan on 2 cores
    for (const unsigned seed : {1u, 2u}) {
        std::mt19937 rng(seed);
        std::vector<std::vector<int>> children(kNodes);
        std::vector<std::uint64_t> value(kNodes);
        for (int i = 0; i < kNodes; ++i) {
            value[i] = rng() % 1000;
            if (i > 0) children[std::uniform_int_distribution<int>(0, i - 1)(rng)].push_back(i);
        }
        const std::uint64_t expected =
            std::accumulate(value.begin(), value.end(), std::uint64_t{0});
        std::atomic<int> visited{0};
        SchedulerConfig cfg = withWorkers(seed == 1 ? 2 : 1);
        cfg.helpWhileWaiting = seed != 1;  // the second tree also runs slices on the caller
        Scheduler sched(cfg);
        struct Visit {
            Scheduler& s;
            const std::vector<std::vector<int>>& children;
            const std::vector<std::uint64_t>& value;
            std::atomic<int>& visited;
            Task<std::uint64_t> operator()(int node) const {
                visited.fetch_add(1, std::memory_order_relaxed);
                std::uint64_t sum = value[node];
                std::vector<JobHandleOf<std::uint64_t>> together;
                std::vector<JobHandleOf<std::uint64_t>> oneByOne;
                for (std::size_t k = 0; k < children[node].size(); ++k) {
                    const int child = children[node][k];
                    switch ((node + k) % 3) {
                        case 0:
                            sum += co_await (*this)(child);
                            break;
                        case 1:
                            oneByOne.push_back(s.spawn((*this)(child)));
                            break;
                        default:
                            together.push_back(s.spawn((*this)(child)));
                    }
                }
                for (const auto& h : oneByOne)
                    sum += co_await h;
                if (!together.empty()) {
                    for (const std::uint64_t v : co_await whenAll(together))
                        sum += v;
                }
                co_return sum;
            }
        };
        const Visit visit{sched, children, value, visited};  // outlives every Task it makes
        auto root = sched.spawn(visit(0));
        EXPECT_EQ(root.get(), expected) << "seed " << seed;
        sched.drain();
        EXPECT_EQ(visited.load(), kNodes);
        const Statistics s = sched.stats();
        EXPECT_EQ(s.pending, 0u);
        EXPECT_EQ(s.completed, s.submitted);
    }
}

// ---------------------------------------------------------------- frames

TEST(SchedulerCoroutines, FrameCacheReusesAFreedBlockOfTheSameClass) {
    if (!PULLSCHED_FRAME_CACHE) GTEST_SKIP() << "frame cache off in this build";
    using detail::FrameCache;
    void* a = FrameCache::allocate(100);
    FrameCache::deallocate(a, 100);
    void* b = FrameCache::allocate(120);  // the same 128-byte class
    EXPECT_EQ(a, b);
    FrameCache::deallocate(b, 120);
    void* big = FrameCache::allocate(FrameCache::kLargest + 1);  // not cached
    FrameCache::deallocate(big, FrameCache::kLargest + 1);
    // A thread keeps at most kKeptBytes per class.
    std::thread([] {
        std::vector<void*> blocks;
        for (int i = 0; i < 5000; ++i)
            blocks.push_back(FrameCache::allocate(64));
        for (void* p : blocks)
            FrameCache::deallocate(p, 64);
        EXPECT_EQ(FrameCache::keptOnThisThread(), FrameCache::kKeptBytes / 64);
    }).join();
}
