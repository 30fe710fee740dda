// A thread in drain() runs queued untimed jobs while it waits (helpWhileWaiting, on by
// default); switched off, it never runs one. The workers are held inside a job, so which
// thread ran what is the scheduler's choice alone; checked by thread ids and counts.
#include "pullsched/scheduler/Scheduler.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

#include "SchedulerTestKit.hpp"
#include "detail/ThreadAffinity.hpp"

using namespace std::chrono_literals;
using namespace pullsched;
using testkit::HeldWorkers;

namespace {

/// Where each job ran: the calling thread or another.
class Threads {
  public:
    explicit Threads(std::thread::id caller) : caller_(caller) {}
    void note() {
        if (std::this_thread::get_id() == caller_) {
            onCaller_.fetch_add(1);
        } else {
            elsewhere_.fetch_add(1);
        }
    }
    int onCaller() const { return onCaller_.load(); }
    int elsewhere() const { return elsewhere_.load(); }

  private:
    std::thread::id caller_;
    std::atomic<int> onCaller_{0}, elsewhere_{0};
};

SchedulerConfig config(unsigned workers, bool help) {
    SchedulerConfig cfg;
    cfg.workers = workers;
    cfg.helpWhileWaiting = help;
    return cfg;
}

}  // namespace

TEST(SchedulerHelpingDrain, OnByDefault) {
    EXPECT_TRUE(SchedulerConfig{}.helpWhileWaiting);
}

// The workers are held until every other job ran. So every job runs on the thread in
// drain(), including what the jobs post and what they release, and drain() returns.
TEST(SchedulerHelpingDrain, HeldWorkersLeaveTheJobsToTheWaitingThread) {
    Scheduler sched(config(2, true));
    HeldWorkers held(sched, 2);
    Threads threads(std::this_thread::get_id());
    constexpr int kJobs = 50;
    constexpr int kAll = 2 * kJobs - 1;  // each posts one more, the last has a predecessor
    std::atomic<int> done{0};
    const auto ran = [&] {
        threads.note();
        if (done.fetch_add(1) + 1 == kAll) held.release();
    };
    const JobHandle first = sched.post([&] {
        ran();
        sched.postDetached(ran);  // posted from a helped job
    });
    for (int i = 1; i < kJobs - 1; ++i)
        sched.postDetached([&] {
            ran();
            sched.postDetached(ran);
        });
    const JobHandle preds[] = {first};
    sched.postDetached(ran, {}, preds);  // released by a helped job
    ASSERT_TRUE(held.drained(sched)) << "nobody ran the jobs";
    EXPECT_EQ(threads.onCaller(), kAll);
    EXPECT_EQ(threads.elsewhere(), 0);
    const Statistics s = sched.stats();
    EXPECT_TRUE(s.balanced());
    EXPECT_EQ(s.pending, 0u);
    EXPECT_EQ(s.completed, s.submitted);
}

// Several threads helping at once, more than the scheduler has counter blocks for helpers
// (the others count on the shared block): every job they ran is counted once in stats(),
// and every drain() returns, though the helpers' own finalisations do not look for a
// drain() to wake until they stop helping.
TEST(SchedulerHelpingDrain, JobsRunByManyHelpingThreadsAreCountedOnce) {
    constexpr int kThreads = 6;
    constexpr int kJobsEach = 300;
    constexpr int kAll = kThreads * kJobsEach;
    for (int rep = 0; rep < 5; ++rep) {
        Scheduler sched(config(2, true));
        HeldWorkers held(sched, 2);
        std::atomic<int> ran{0};
        std::atomic<int> drained{0};
        std::vector<std::thread> threads;
        for (int t = 0; t < kThreads; ++t)
            threads.emplace_back([&] {
                for (int i = 0; i < kJobsEach; ++i)
                    sched.postDetached([&] {
                        if (ran.fetch_add(1) + 1 == kAll) held.release();
                    });
                if (sched.drainFor(std::chrono::seconds(60))) drained.fetch_add(1);
            });
        for (auto& t : threads)
            t.join();
        held.release();  // only if a drain() failed: the last job releases them
        EXPECT_EQ(drained.load(), kThreads) << "rep " << rep;
        EXPECT_EQ(ran.load(), kAll);
        const Statistics s = sched.stats();
        EXPECT_EQ(s.completed, static_cast<std::uint64_t>(kAll + 2)) << "rep " << rep;
        EXPECT_EQ(s.dispatches, s.completed);
        EXPECT_EQ(s.submitted, s.completed);
        EXPECT_EQ(s.pending, 0u);
        EXPECT_TRUE(s.balanced());
    }
}

namespace {
// Switched off, the waiting thread runs nothing: with the workers held, a bounded wait
// ends with the jobs still queued, and once released the workers run them all.
void expectTheWaitingThreadRunsNothing(const SchedulerConfig& cfg) {
    Scheduler sched(cfg);
    HeldWorkers held(sched, cfg.workers);
    Threads threads(std::this_thread::get_id());
    constexpr int kJobs = 20;
    for (int i = 0; i < kJobs; ++i)
        sched.postDetached([&] { threads.note(); });
    EXPECT_FALSE(sched.drainFor(20ms));  // a bound on the wait, not a timed assertion
    EXPECT_EQ(threads.onCaller() + threads.elsewhere(), 0);
    held.release();
    sched.drain();
    EXPECT_EQ(threads.onCaller(), 0);
    EXPECT_EQ(threads.elsewhere(), kJobs);
    EXPECT_TRUE(sched.stats().balanced());
}
}  // namespace

TEST(SchedulerHelpingDrain, SwitchedOffTheWaitingThreadRunsNothing) {
    expectTheWaitingThreadRunsNothing(config(1, false));
}

// Pinned workers promise the CPUs jobs run on: the waiting thread does not help.
TEST(SchedulerHelpingDrain, WithPinnedWorkersTheWaitingThreadRunsNothing) {
    SchedulerConfig cfg = config(1, true);
    cfg.pinWorkers = WorkerPinning::FirstCpus;
    expectTheWaitingThreadRunsNothing(cfg);
}

// A helped job's failure, expiry and refused drain() are counted as on a worker; its
// drain() and shutdown() are refused (it would wait for itself).
TEST(SchedulerHelpingDrain, HelpedJobsKeepTheAccountingAndTheMisuseRules) {
    ManualClock clock;
    SchedulerConfig cfg = config(1, true);
    cfg.clock = &clock;
    Scheduler sched(cfg);
    HeldWorkers held(sched, 1);
    std::atomic<int> refused{0};
    const JobHandle failing = sched.post([] { throw std::runtime_error("boom"); });
    const JobHandle expiring = sched.post([] {}, {.deadline = clock.now() + 1ms});
    clock.advance(2ms);
    sched.postDetached([&] {
        try {
            ASSERT_TRUE(held.drained(sched)) << "nobody ran the releasing job";
        } catch (const std::logic_error&) {
            refused.fetch_add(1);
        }
        try {
            sched.shutdown(ShutdownMode::Cancel);
        } catch (const std::logic_error&) {
            refused.fetch_add(1);
        }
        held.release();
    });
    sched.drain();
    EXPECT_EQ(refused.load(), 2);
    EXPECT_EQ(failing.state(), JobState::Failed);
    EXPECT_EQ(expiring.state(), JobState::Expired);
    const Statistics s = sched.stats();
    EXPECT_EQ(s.failed, 1u);
    EXPECT_EQ(s.expired, 1u);
    EXPECT_EQ(s.completed, 2u);  // the held worker's job and the refusing one
    EXPECT_TRUE(s.balanced());
    EXPECT_EQ(s.pending, 0u);
}

// Timed jobs are left to the workers, in (start, sequence) order, even while the waiting
// thread runs the untimed ones.
TEST(SchedulerHelpingDrain, TimedJobsStayWithTheWorkersInOrder) {
    ManualClock clock;
    SchedulerConfig cfg = config(1, true);
    cfg.clock = &clock;
    Scheduler sched(cfg);
    HeldWorkers held(sched, 1);
    testkit::RunOrder runs;
    Threads threads(std::this_thread::get_id());
    const TimePoint t = clock.now();
    for (int id = 0; id < 40; ++id)
        sched.postDetached(
            [&runs, &threads, id] {
                threads.note();
                runs.add(id);
            },
            {.start = t - std::chrono::milliseconds(40 - id)});  // due, in id order
    sched.postDetached([&] { held.release(); });
    ASSERT_TRUE(held.drained(sched)) << "nobody ran the releasing job";
    EXPECT_EQ(threads.onCaller(), 0);
    EXPECT_EQ(threads.elsewhere(), 40);
    std::vector<int> expected(40);
    for (int id = 0; id < 40; ++id)
        expected[id] = id;
    EXPECT_EQ(runs.order(), expected);
}

// Shutdown while a thread helps in drain(): every job ends exactly once and the books
// balance (the helper's posts are announced like posts from outside).
TEST(SchedulerHelpingDrain, ShutdownWhileAThreadHelpsBalancesTheBooks) {
    for (int rep = 0; rep < 20; ++rep) {
        Scheduler sched(config(2, true));
        std::atomic<int> ran{0};
        for (int i = 0; i < 200; ++i)
            sched.postDetached([&] {
                ran.fetch_add(1);
                sched.postDetached([&] { ran.fetch_add(1); });
            });
        std::thread helper([&] { sched.drain(); });
        const ShutdownReport report = sched.shutdown(ShutdownMode::Cancel);
        helper.join();
        const Statistics s = sched.stats();
        EXPECT_TRUE(s.balanced());
        EXPECT_EQ(s.pending, 0u);
        EXPECT_EQ(static_cast<std::uint64_t>(ran.load()) + report.cancelled, s.submitted);
    }
}

namespace {
// Rule E of the wake protocol: with fewer workers than CPUs, a thread asleep in drain() or
// wait() is woken for untimed jobs that a timed job releases while every worker is busy.
// The one worker runs the gate and then one of its two released jobs, which waits (up to
// 10 s) for the other to start: only the waiting thread can start it.
class SleepingHelper : public ::testing::TestWithParam<bool> {};
}  // namespace

TEST_P(SleepingHelper, IsWokenForJobsATimedGateReleases) {
    if (pullsched::detail::processCpus().size() < 2) GTEST_SKIP() << "needs two CPUs";
    const bool viaWait = GetParam();
    Scheduler sched(config(1, true));
    Threads threads(std::this_thread::get_id());
    std::atomic<int> started{0};
    std::atomic<bool> lonely{false};
    const auto meet = [&] {
        threads.note();
        started.fetch_add(1);
        const auto limit = std::chrono::steady_clock::now() + 10s;
        while (started.load() < 2)
            if (std::chrono::steady_clock::now() > limit) return lonely.store(true);
    };
    const JobHandle gate = sched.post([] {}, {.start = sched.now() + 20ms});
    const JobHandle preds[] = {gate};
    const JobHandle a = sched.post(meet, {}, preds);
    const JobHandle b = sched.post(meet, {}, preds);
    if (viaWait) {
        sched.wait({a, b});  // asleep here before the gate is due
    } else {
        sched.drain();
    }
    EXPECT_FALSE(lonely.load()) << "the waiting thread slept through the released jobs";
    EXPECT_EQ(threads.onCaller(), 1);
    EXPECT_EQ(threads.elsewhere(), 1);
}

INSTANTIATE_TEST_SUITE_P(DrainOrWait, SleepingHelper, ::testing::Bool(),
                         [](const auto& info) { return info.param ? "Wait" : "Drain"; });

// A thread in wait() that runs the last job itself counts it on its own counters, whose
// finalisation does not look for a drain() to wake; it looks once as it stops helping.
// Here nobody else could: the worker ended its job before the last one, and the job's end
// notifies only wait()'s signal. Without that look the drain() below sleeps to its bound.
TEST(SchedulerHelpingDrain, AWaitThatRanTheLastJobWakesASleepingDrain) {
    Scheduler sched(config(1, true));
    HeldWorkers held(sched, 1);
    std::atomic<bool> started{false}, go{false};
    const JobHandle last = sched.post([&] {
        started = true;
        while (!go.load())
            std::this_thread::yield();
    });
    std::atomic<bool> waited{false};
    std::thread waiter([&] { waited = sched.waitFor(last, std::chrono::seconds(60)); });
    while (!started.load())  // the waiter took it: nothing is queued any more
        std::this_thread::yield();
    // drainFor() at its bound still returns true (the jobs are done by then), so the
    // drainer notes whether it returned well before it: a hang turned into a failure.
    std::atomic<bool> drained{false};
    std::thread drainer([&] {
        const auto bound = std::chrono::seconds(60);
        const auto began = std::chrono::steady_clock::now();
        const bool done = sched.drainFor(bound);
        drained = done && std::chrono::steady_clock::now() - began < bound / 2;
    });
    // Time for the drainer to find nothing queued and fall asleep (a bound on the set-up,
    // not an assertion: a drainer still awake sees the end itself and the test still passes).
    std::this_thread::sleep_for(50ms);
    held.release();
    while (sched.stats().completed < 1)  // the worker's held job ended: it is idle again
        std::this_thread::yield();
    go = true;
    waiter.join();
    drainer.join();
    EXPECT_TRUE(waited.load());
    EXPECT_TRUE(drained.load()) << "drain() slept to its bound: not woken when the last job ended";
    EXPECT_TRUE(sched.stats().balanced());
}

// threadIndex() numbers the threads that run a scheduler's jobs: each worker below
// workerCount(), a helping caller from there on, all below threadSlots(); outside a job of
// this scheduler it is empty. Per-thread scratch indexed by it is never shared.
TEST(SchedulerHelpingDrain, ThreadIndexNumbersWorkersAndHelpersApart) {
    Scheduler sched(config(2, true));
    EXPECT_FALSE(sched.threadIndex().has_value()) << "not inside a job";
    ASSERT_EQ(sched.threadSlots(), sched.workerCount() + 4u);
    std::vector<std::atomic<int>> inUse(sched.threadSlots());
    std::atomic<int> outOfRange{0}, empty{0}, shared{0}, onCaller{0};
    std::mutex m;
    std::map<std::thread::id, std::set<unsigned>> indicesOf;
    const std::thread::id caller = std::this_thread::get_id();
    for (int i = 0; i < 2000; ++i)
        sched.postDetached([&] {
            const std::optional<unsigned> k = sched.threadIndex();
            if (!k) {
                empty.fetch_add(1);
                return;
            }
            if (*k >= sched.threadSlots()) {
                outOfRange.fetch_add(1);
                return;
            }
            if (inUse[*k].fetch_add(1) != 0) shared.fetch_add(1);
            for (int spin = 0; spin < 200; ++spin)  // a moment in which a sharer would show
                std::atomic_signal_fence(std::memory_order_seq_cst);
            inUse[*k].fetch_sub(1);
            const bool isCaller = std::this_thread::get_id() == caller;
            if (isCaller && *k < sched.workerCount()) outOfRange.fetch_add(1);
            if (isCaller) onCaller.fetch_add(1);
            std::lock_guard lock(m);
            indicesOf[std::this_thread::get_id()].insert(*k);
        });
    sched.drain();
    EXPECT_EQ(empty.load(), 0);
    EXPECT_EQ(outOfRange.load(), 0) << "a helper numbered as a worker, or beyond the slots";
    EXPECT_EQ(shared.load(), 0) << "two threads ran jobs under one index at once";
    for (const auto& [thread, indices] : indicesOf)
        if (thread != caller) {
            EXPECT_EQ(indices.size(), 1u) << "a worker keeps its index";
        }
    EXPECT_FALSE(sched.threadIndex().has_value());
}
