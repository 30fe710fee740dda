// Dependency order on graphs: every job starts after all its predecessors ended, once.
#include "pullsched/scheduler/Scheduler.hpp"

#include "SchedulerTestKit.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <list>
#include <random>
#include <span>
#include <stdexcept>
#include <thread>
#include <vector>

using namespace std::chrono_literals;
using namespace pullsched;

namespace {

struct Graph {
    std::vector<std::vector<int>> preds;
};

Graph randomDag(int n, int maxPreds, std::uint64_t seed) {
    Graph g;
    g.preds.resize(n);
    std::mt19937_64 rng(seed);
    for (int i = 1; i < n; ++i) {
        const int k = static_cast<int>(rng() % (maxPreds + 1));
        for (int j = 0; j < k; ++j) {
            const int p = static_cast<int>(rng() % i);
            if (std::find(g.preds[i].begin(), g.preds[i].end(), p) == g.preds[i].end())
                g.preds[i].push_back(p);
        }
    }
    return g;
}

/// Runs the graph; a logical clock stamps each job's start and end, so the check is
/// about order, never about time. `dropHandles`: the roots wait behind a gate job that
/// opens only after every handle is gone, so each job ends with the scheduler's reference
/// alone (the finalisation that needs no lock and releases a last count with a store).
void runAndCheck(const Graph& g, unsigned workers, bool timedStarts, bool dropHandles = false) {
    const int n = static_cast<int>(g.preds.size());
    std::atomic<std::uint64_t> tick{0};
    std::vector<std::uint64_t> started(n, 0), ended(n, 0);
    std::vector<std::atomic<int>> runs(n);
    SchedulerConfig cfg;
    cfg.workers = workers;
    Scheduler sched(cfg);
    std::vector<JobHandle> handles(n);
    std::atomic<bool> open{false};
    JobHandle gate;
    if (dropHandles)
        gate = sched.post([&] {
            while (!open.load(std::memory_order_acquire))
                std::this_thread::yield();
        });
    const TimePoint base = sched.now();
    for (int i = 0; i < n; ++i) {
        std::vector<JobHandle> preds;
        for (int p : g.preds[i])
            preds.push_back(handles[p]);
        if (preds.empty() && gate) preds.push_back(gate);
        JobOptions opts;
        if (timedStarts) opts.start = base + std::chrono::microseconds(i % 97);
        handles[i] = sched.post(
            [&, i] {
                runs[i].fetch_add(1);
                started[i] = tick.fetch_add(1) + 1;
                ended[i] = tick.fetch_add(1) + 1;
            },
            opts, preds);
    }
    if (dropHandles) {
        std::fill(handles.begin(), handles.end(), JobHandle{});
        gate = JobHandle{};
        open.store(true, std::memory_order_release);
    }
    sched.drain();
    for (int i = 0; i < n; ++i) {
        ASSERT_EQ(runs[i].load(), 1) << "job " << i;
        if (!dropHandles) {
            ASSERT_EQ(handles[i].state(), JobState::Completed);
        }
        for (int p : g.preds[i])
            ASSERT_LT(ended[p], started[i]) << "job " << i << " started before pred " << p;
    }
    const Statistics s = sched.stats();
    EXPECT_EQ(s.completed, static_cast<std::uint64_t>(n + (dropHandles ? 1 : 0)));
    EXPECT_TRUE(s.balanced());
    EXPECT_EQ(s.pending, 0u);
}

class DagOrder : public ::testing::TestWithParam<std::tuple<unsigned, std::uint64_t>> {};
}  // namespace

TEST_P(DagOrder, PredecessorsEndBeforeSuccessorsStart) {
    auto [workers, seed] = GetParam();
    runAndCheck(randomDag(3000, 4, seed), workers, false);
}

TEST_P(DagOrder, AlsoWithStartTimes) {
    auto [workers, seed] = GetParam();
    runAndCheck(randomDag(1500, 3, seed + 100), workers, true);
}

TEST_P(DagOrder, AlsoWithEveryHandleGoneBeforeTheRun) {
    auto [workers, seed] = GetParam();
    runAndCheck(randomDag(3000, 4, seed + 200), workers, false, true);
}

INSTANTIATE_TEST_SUITE_P(Workers, DagOrder,
                         ::testing::Combine(::testing::Values(1u, 2u, 8u),
                                            ::testing::Values(1u, 2u, 3u)));

TEST(SchedulerDag, LongChainRunsInOrder) {
    constexpr int n = 20000;
    Graph g;
    g.preds.resize(n);
    for (int i = 1; i < n; ++i)
        g.preds[i] = {i - 1};
    runAndCheck(g, 2, false);
}

TEST(SchedulerDag, FanOutFanIn) {
    constexpr int width = 1000;
    Graph g;
    g.preds.resize(width + 2);
    for (int i = 1; i <= width; ++i)
        g.preds[i] = {0};
    for (int i = 1; i <= width; ++i)
        g.preds[width + 1].push_back(i);
    runAndCheck(g, 2, false);
}

TEST(SchedulerDag, PredecessorAlreadyCompletedDoesNotBlock) {
    Scheduler sched;
    JobHandle a = sched.post([] {});
    sched.drain();
    ASSERT_EQ(a.state(), JobState::Completed);
    std::atomic<bool> ran{false};
    JobHandle b = sched.post([&] { ran = true; }, {}, {a});
    sched.drain();
    EXPECT_TRUE(ran.load());
    EXPECT_EQ(b.state(), JobState::Completed);
}

TEST(SchedulerDag, SuccessorsCanBePostedFromInsideAPredecessor) {
    Scheduler sched;
    std::atomic<int> order{0};
    int first = 0, second = 0;
    JobHandle a;
    std::atomic<bool> posted{false};
    a = sched.post([&] { first = ++order; });
    sched.post([&] {
        // a is running or done; wiring to it must work either way
        JobHandle b = sched.post([&] { second = ++order; }, {}, {a});
        posted = true;
    });
    sched.drain();
    EXPECT_TRUE(posted.load());
    EXPECT_EQ(first, 1);
    EXPECT_EQ(second, 2);
}

// A job whose handles are all gone by the time it ends is finalised without its successor
// lock (nobody can name it any more): the successors wired through those handles before
// they went must still be released, each once, after it; and a job posted from a job
// with no predecessor (its gate opened without a read-modify-write) runs once too.
TEST(SchedulerDag, SuccessorsWiredThroughHandlesGoneBeforeTheJobEndedStillRun) {
    for (int rep = 0; rep < 50; ++rep) {
        Scheduler sched(testkit::withWorkers(2));
        std::atomic<bool> handlesGone{false};
        std::atomic<int> order{0};
        std::atomic<int> aEnded{0}, bStarted{0}, bRuns{0}, cRuns{0}, childRuns{0};
        JobHandle a = sched.post([&] {
            while (!handlesGone.load(std::memory_order_acquire))
                std::this_thread::yield();
            sched.postDetached([&] { childRuns.fetch_add(1); });
            aEnded = ++order;
        });
        JobHandle b = sched.post(
            [&] {
                bStarted = ++order;
                bRuns.fetch_add(1);
            },
            {}, {a});
        sched.postDetached([&] { cRuns.fetch_add(1); }, {}, {a, b});
        a = JobHandle{};
        b = JobHandle{};
        handlesGone.store(true, std::memory_order_release);
        ASSERT_TRUE(sched.drainFor(std::chrono::seconds(60))) << "rep " << rep;
        EXPECT_EQ(bRuns.load(), 1);
        EXPECT_EQ(cRuns.load(), 1);
        EXPECT_EQ(childRuns.load(), 1);
        EXPECT_LT(aEnded.load(), bStarted.load()) << "rep " << rep;
        const Statistics st = sched.stats();
        EXPECT_EQ(st.completed, 4u);
        EXPECT_TRUE(st.balanced());
    }
}

// A worker that releases many successors keeps the first as its continuation and queues
// the rest on its own queue, from which the other workers steal: each must still run once,
// after the root and before the join, also with more workers than cores.
TEST(SchedulerDag, RepeatedWorkerReleasedFanOutsRunEachJobOnce) {
    constexpr int width = 500;
    Graph g;
    g.preds.resize(width + 2);
    for (int i = 1; i <= width; ++i)
        g.preds[i] = {0};
    for (int i = 1; i <= width; ++i)
        g.preds[width + 1].push_back(i);
    for (int rep = 0; rep < 20; ++rep)
        runAndCheck(g, 4, false);
}

// Shutdown(Cancel) while a worker holds released jobs on its own queue: every job ends
// exactly once (run or cancelled, never both, never neither) and the books balance.
TEST(SchedulerDag, CancelReachesJobsQueuedOnAWorkersOwnQueue) {
    constexpr int width = 2000;
    for (int rep = 0; rep < 5; ++rep) {
        Scheduler sched({.workers = 1});
        std::atomic<bool> closed{false};
        std::vector<std::atomic<int>> runs(width);
        // The root holds the only worker until shutdown has begun (a post from another
        // thread is refused from then on), then releases the whole fan-out at once.
        JobHandle root = sched.post([&] {
            while (!closed.load())
                std::this_thread::yield();
        });
        std::vector<JobHandle> fan;
        for (int i = 0; i < width; ++i)
            fan.push_back(sched.post([&runs, i] { runs[i].fetch_add(1); }, {}, {root}));
        std::thread prober = testkit::probeUntilClosed(sched, closed);
        const ShutdownReport report = sched.shutdown(ShutdownMode::Cancel);
        prober.join();
        int ran = 0, cancelled = 0;
        for (int i = 0; i < width; ++i) {
            ASSERT_LE(runs[i].load(), 1) << "job " << i;
            const JobState s = fan[i].state();
            if (s == JobState::Completed) {
                ASSERT_EQ(runs[i].load(), 1) << "job " << i;
                ++ran;
            } else {
                ASSERT_EQ(s, JobState::Cancelled) << "job " << i;
                ASSERT_EQ(runs[i].load(), 0) << "job " << i;
                ++cancelled;
            }
        }
        EXPECT_EQ(ran + cancelled, width);
        const Statistics st = sched.stats();
        EXPECT_EQ(st.pending, 0u);
        EXPECT_TRUE(st.balanced());
        EXPECT_GE(report.cancelled, static_cast<std::uint64_t>(cancelled));
    }
}

// Predecessors from any range of handles, typed ones included, and an initializer list
// for postDetached.
TEST(SchedulerDag, PredecessorsFromAnyRange) {
    Scheduler sched({.workers = std::size_t{2}});
    std::list<JobHandle> list{sched.post([] {}), sched.post([] {})};
    std::vector<JobHandleOf<int>> typed{sched.post([] { return 1; }), sched.post([] { return 2; })};
    JobHandle afterList = sched.post([] {}, {}, list);
    JobHandle afterTyped = sched.post([] {}, {}, typed);
    std::atomic<int> ran{0};
    sched.postDetached([&] { ran.fetch_add(1); }, {}, {afterList, afterTyped});
    sched.postDetached([&] { ran.fetch_add(1); }, {}, list);
    sched.drain();
    EXPECT_EQ(afterList.state(), JobState::Completed);
    EXPECT_EQ(afterTyped.state(), JobState::Completed);
    EXPECT_EQ(ran.load(), 2);
}

// A predecessor named twice is one edge in effect: the job runs once, after it; a failed
// or cancelled duplicate cancels it once. In a batch, too.
TEST(SchedulerDag, ADuplicatePredecessorActsAsOne) {
    ManualClock clock;
    Scheduler sched(testkit::withWorkers(2, &clock));
    std::atomic<int> ran{0};
    const JobHandle gate = sched.post([] {}, {.start = clock.now() + 1s});
    const JobHandle twice = sched.post([&] { ran.fetch_add(1); }, {}, {gate, gate, gate});
    EXPECT_FALSE(sched.waitFor(twice, 0s)) << "it waits for the gate";
    clock.advance(1s);
    sched.wake();
    sched.wait(twice);
    EXPECT_EQ(ran.load(), 1);
    EXPECT_EQ(twice.state(), JobState::Completed);

    const JobHandle failed = sched.post([] { throw std::runtime_error("x"); });
    const JobHandle doomed = sched.post([&] { ran.fetch_add(1); }, {}, {failed, failed});
    sched.wait(doomed);
    EXPECT_EQ(doomed.state(), JobState::Cancelled);

    PostBatch batch = sched.batch();
    const JobHandle a = batch.post([&] { ran.fetch_add(1); });
    const JobHandle b = batch.post([&] { ran.fetch_add(1); }, {}, {a, a, gate, gate});
    batch.submit();
    sched.wait(b);
    sched.drain();
    EXPECT_EQ(ran.load(), 3);
    const Statistics s = sched.stats();
    EXPECT_EQ(s.cancelled, 1u);
    EXPECT_TRUE(s.balanced());
}

// Predecessors without the options placeholder: a list, a vector or a span as the second
// argument are predecessors (a failed one cancels the job, deterministically), `{}` is
// nothing at all; and a job waits for a predecessor behind a start time.
TEST(SchedulerDag, PredecessorsNeedNoOptionsPlaceholder) {
    ManualClock clock;
    Scheduler sched(testkit::withWorkers(1, &clock));
    std::atomic<int> ran{0};
    const JobHandle failed = sched.post([] { throw std::runtime_error("x"); });
    const std::vector<JobHandle> list{failed};
    const JobHandle fromList = sched.post([&] { ran.fetch_add(1); }, {failed});
    const JobHandle fromVector = sched.post([&] { ran.fetch_add(1); }, list);
    const JobHandle fromSpan =
        sched.post([&] { ran.fetch_add(1); }, std::span<const JobHandle>(list));
    const JobHandleOf<int> typed = sched.post([] { return 7; }, {failed});
    sched.postDetached([&] { ran.fetch_add(1); }, {failed});
    sched.postDetached([&] { ran.fetch_add(1); }, list);
    const JobHandle none = sched.post([&] { ran.fetch_add(1); }, {});
    const JobHandle gate = sched.post([] {}, {.start = clock.now() + 1s});
    const JobHandle afterGate = sched.post([&] { ran.fetch_add(1); }, {gate});
    EXPECT_FALSE(sched.waitFor(afterGate, 0s)) << "it waits for the gate";
    clock.advance(1s);
    sched.wake();
    sched.drain();
    for (const JobHandle& h : {fromList, fromVector, fromSpan, JobHandle(typed)})
        EXPECT_EQ(h.state(), JobState::Cancelled);
    EXPECT_EQ(none.state(), JobState::Completed);
    EXPECT_EQ(afterGate.state(), JobState::Completed);
    EXPECT_EQ(ran.load(), 2) << "only the job without predecessors and the gated one ran";
    EXPECT_EQ(sched.stats().cancelled, 6u);
}
