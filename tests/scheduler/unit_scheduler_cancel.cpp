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

namespace {

/// Grow the record pool well past its initial capacity, so that a trim has records to
/// give back to the heap, and end every job.
void growThePool(Scheduler& sched, int jobs) {
    HeldWorkers held(sched, 1);
    for (int i = 0; i < jobs; ++i)
        sched.postDetached([] {});
    held.release();
    sched.drain();
}

/// Move the injected clock on, a duty cycle at a time, until a grooming pass trimmed the
/// pool (the burst's period must lie behind the trim's memory first) and the head at
/// `head` is `ahead` away. Only counts are waited for: no time is asserted.
void trimThePool(Scheduler& sched, ManualClock& clock, TimePoint head, Duration ahead) {
    const std::uint64_t before = sched.stats().jobRecords;
    const Duration step = 100ms;
    while (sched.stats().jobRecords >= before) {
        ASSERT_LT(clock.now() + step, head - ahead) << "the pool was never trimmed";
        const std::uint64_t passes = sched.stats().tokenAcquisitions;
        clock.advance(step);
        while (sched.stats().tokenAcquisitions < passes + 2) {
            sched.wake();
            std::this_thread::yield();
        }
    }
    clock.advance(saturatingSub(head - ahead, clock.now()));
    sched.wake();
}

/// Let the tender sleep towards its head and groom again, asking whether the head leads to
/// a fan-out, a few times (counted by grooming passes).
void letTheTenderLook(Scheduler& sched, int passes) {
    const std::uint64_t start = sched.stats().tokenAcquisitions;
    while (sched.stats().tokenAcquisitions < start + static_cast<std::uint64_t>(passes))
        std::this_thread::yield();
}

SchedulerConfig smallPoolOnManualClock(ManualClock& clock) {
    SchedulerConfig cfg = withWorkers(1, &clock);
    cfg.initialJobCapacity = 64;  // so that a trim frees nearly every record of the burst
    return cfg;
}

}  // namespace

// A cancelled timed job stays queued as a tombstone until its start. Its successors were
// cancelled with it and their records went back to the heap with the pool's trim; the
// tender that looks at the head for a fan-out must not follow the tombstone's list (a
// heap-use-after-free under AddressSanitizer before the look-ahead stopped at final jobs).
TEST(SchedulerCancel, TombstoneAtTheHeadLeadsNowhere) {
    ManualClock clock;
    Scheduler sched(smallPoolOnManualClock(clock));
    growThePool(sched, 20000);
    const TimePoint t = clock.now();
    JobHandle head = sched.post([] {}, {.start = t + 10s});
    JobHandle first = sched.post([] {}, {}, {head});
    JobHandle second = sched.post([] {}, {}, {first});
    JobHandle third = sched.post([] {}, {}, {first});
    EXPECT_TRUE(sched.cancel(head));
    EXPECT_EQ(second.state(), JobState::Cancelled);
    first = second = third = JobHandle{};      // their records go back to the pool
    trimThePool(sched, clock, t + 10s, 10ms);  // the head 10 ms ahead: tended, not due
    letTheTenderLook(sched, 5);
    clock.advance(1s);
    sched.wake();
    sched.drain();
    const Statistics s = sched.stats();
    EXPECT_EQ(s.completed, 20000u + 1u);  // the growth and the held worker's job
    EXPECT_EQ(s.cancelled, 4u);
    EXPECT_EQ(s.pending, 0u);
    expectBalanced(s);
}

// The same behind a live head: a successor cancelled while its timed predecessor waits
// stays on the predecessor's list (its record held until the predecessor notifies it),
// but the chain behind it is gone; the look-ahead stops at the cancelled job.
TEST(SchedulerCancel, CancelledJobBehindATimedHeadLeadsNowhere) {
    ManualClock clock;
    Scheduler sched(smallPoolOnManualClock(clock));
    growThePool(sched, 20000);
    const TimePoint t = clock.now();
    std::atomic<int> ran{0};
    JobHandle head = sched.post([&] { ran.fetch_add(1); }, {.start = t + 10s});
    JobHandle first = sched.post([&] { ran.fetch_add(1); }, {}, {head});
    JobHandle second = sched.post([&] { ran.fetch_add(1); }, {}, {first});
    JobHandle third = sched.post([&] { ran.fetch_add(1); }, {}, {second});
    EXPECT_TRUE(sched.cancel(first));
    EXPECT_EQ(third.state(), JobState::Cancelled);
    first = second = third = JobHandle{};
    trimThePool(sched, clock, t + 10s, 10ms);
    letTheTenderLook(sched, 5);
    clock.advance(1s);
    sched.wake();
    sched.drain();
    EXPECT_EQ(head.state(), JobState::Completed);
    EXPECT_EQ(ran.load(), 1);
    const Statistics s = sched.stats();
    EXPECT_EQ(s.cancelled, 3u);
    EXPECT_EQ(s.pending, 0u);
    expectBalanced(s);
}
