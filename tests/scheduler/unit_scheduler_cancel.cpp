// Scheduler::cancel: a job that has not started ends Cancelled at once (behind its gate,
// queued, or at the head of the time queue), its dependents with it; a started or ended
// job is left alone; the accounting balances. Decided by held workers and the injected
// clock, never by timing.
#include "pullsched/scheduler/Scheduler.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "SchedulerTestKit.hpp"

using namespace std::chrono_literals;
using namespace pullsched;
using testkit::expectBalanced;
using testkit::HeldWorkers;
using testkit::RunOrder;
using testkit::withWorkers;

TEST(SchedulerCancel, QueuedJobAndItsDependents) {
    Scheduler sched(withWorkers(1));
    HeldWorkers held(sched, 1);
    std::atomic<int> ran{0};
    JobHandle job = sched.post([&] { ran.fetch_add(1); });
    JobHandle dependent = sched.post([&] { ran.fetch_add(1); }, {}, {job});
    EXPECT_EQ(job.state(), JobState::Scheduled);
    EXPECT_TRUE(sched.cancel(job));
    EXPECT_EQ(job.state(), JobState::Cancelled);  // at once, while the worker is held
    EXPECT_EQ(dependent.state(), JobState::Cancelled);
    EXPECT_FALSE(sched.cancel(job));  // once
    EXPECT_FALSE(sched.cancel(dependent));
    const Statistics mid = sched.stats();
    EXPECT_EQ(mid.cancelled, 2u);
    EXPECT_EQ(mid.pending, 1u);  // the held job
    expectBalanced(mid);
    held.release();
    sched.drain();
    EXPECT_EQ(ran.load(), 0);
    const Statistics end = sched.stats();
    EXPECT_EQ(end.completed, 1u);
    EXPECT_EQ(end.cancelled, 2u);
    EXPECT_EQ(end.pending, 0u);
    expectBalanced(end);
}

// Behind a closed gate: final at once, though its predecessor still runs; the
// predecessor's later notification finds it final and leaves it so.
TEST(SchedulerCancel, JobWaitingForAPredecessor) {
    Scheduler sched(withWorkers(1));
    std::atomic<bool> go{false};
    std::atomic<int> ran{0};
    JobHandle pred = sched.post([&] {
        while (!go.load())
            std::this_thread::yield();
    });
    JobHandle job = sched.post([&] { ran.fetch_add(1); }, {}, {pred});
    JobHandle after = sched.post([&] { ran.fetch_add(1); }, {}, {job});
    EXPECT_TRUE(sched.cancel(job));
    EXPECT_EQ(job.state(), JobState::Cancelled);
    EXPECT_EQ(after.state(), JobState::Cancelled);
    EXPECT_TRUE(sched.waitFor(job, Duration::zero()));
    go = true;
    sched.drain();
    EXPECT_EQ(pred.state(), JobState::Completed);
    EXPECT_EQ(job.state(), JobState::Cancelled);
    EXPECT_EQ(ran.load(), 0);
    const Statistics s = sched.stats();
    EXPECT_EQ(s.completed, 1u);
    EXPECT_EQ(s.cancelled, 2u);
    EXPECT_EQ(s.pending, 0u);
}

TEST(SchedulerCancel, StartedOrEndedJobsAreLeftAlone) {
    Scheduler sched(withWorkers(1));
    std::atomic<bool> go{false}, started{false};
    JobHandle running = sched.post([&] {
        started = true;
        while (!go.load())
            std::this_thread::yield();
    });
    while (!started.load())
        std::this_thread::yield();
    EXPECT_FALSE(sched.cancel(running));
    go = true;
    sched.wait(running);
    EXPECT_EQ(running.state(), JobState::Completed);
    EXPECT_FALSE(sched.cancel(running));
    EXPECT_EQ(sched.stats().cancelled, 0u);
}

// The head of the time queue is cancelled: it stays there as a tombstone, so the others
// keep their (start, sequence) order and the workers their grooming protocol.
TEST(SchedulerCancel, TimeQueueHeadKeepsTheOrderOfTheOthers) {
    ManualClock clock;
    Scheduler sched(withWorkers(1, &clock));
    RunOrder order;
    const TimePoint t = clock.now();
    JobHandle head = sched.post(order.recorder(1), {.start = t + 10ms});
    sched.post(order.recorder(2), {.start = t + 10ms});
    JobHandle dependent = sched.post(order.recorder(9), {}, {head});
    sched.post(order.recorder(3), {.start = t + 20ms});
    sched.post(order.recorder(4), {.start = t + 20ms});
    EXPECT_TRUE(sched.cancel(head));
    EXPECT_EQ(head.state(), JobState::Cancelled);
    EXPECT_EQ(dependent.state(), JobState::Cancelled);
    clock.advance(30ms);
    sched.wake();
    sched.drain();
    EXPECT_EQ(order.order(), (std::vector<int>{2, 3, 4}));
    const Statistics s = sched.stats();
    EXPECT_EQ(s.completed, 3u);
    EXPECT_EQ(s.cancelled, 2u);
    EXPECT_EQ(s.pending, 0u);
    EXPECT_EQ(s.queueDepth, 0u);
}

// A cancelled job's tombstone is still queued at shutdown: counted once, not twice.
TEST(SchedulerCancel, TombstoneAtShutdownIsNotCountedAgain) {
    ManualClock clock;
    Statistics s;
    {
        Scheduler sched(withWorkers(1, &clock));
        JobHandle far = sched.post([] {}, {.start = clock.now() + 1h});
        JobHandle other = sched.post([] {}, {.start = clock.now() + 1h});
        EXPECT_TRUE(sched.cancel(far));
        const ShutdownReport r = sched.shutdown(ShutdownMode::Cancel);
        EXPECT_EQ(r.cancelled, 1u);  // `other`
        s = sched.stats();
        EXPECT_EQ(other.state(), JobState::Cancelled);
    }
    EXPECT_EQ(s.submitted, 2u);
    EXPECT_EQ(s.cancelled, 2u);
    EXPECT_EQ(s.pending, 0u);
}

TEST(SchedulerCancel, FromInsideAJob) {
    Scheduler sched(withWorkers(2));
    HeldWorkers held(sched, 1);
    std::atomic<int> ran{0};
    JobHandle victim = sched.post([&] { ran.fetch_add(1); }, {.start = sched.now() + 1h});
    std::atomic<bool> cancelled{false};
    JobHandle canceller = sched.post([&] { cancelled = sched.cancel(victim); });
    sched.wait({canceller, victim});
    EXPECT_TRUE(cancelled.load());
    EXPECT_EQ(victim.state(), JobState::Cancelled);
    held.release();
    sched.drain();
    EXPECT_EQ(ran.load(), 0);
    expectBalanced(sched.stats());
}
