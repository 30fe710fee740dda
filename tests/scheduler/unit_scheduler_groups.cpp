// JobGroup: wait for a group's jobs only, cancel the ones that have not started (running
// ones finish and can ask cancelled()), and count them with the scheduler's invariant.
// Decided by held workers, the injected clock and counts, never by timing.
#include "pullsched/scheduler/Scheduler.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <thread>

#include "SchedulerTestKit.hpp"

using namespace std::chrono_literals;
using namespace pullsched;
using testkit::expectBalanced;
using testkit::HeldWorkers;
using testkit::withWorkers;

TEST(SchedulerGroups, WaitIsForTheGroupsJobsOnly) {
    Scheduler sched(withWorkers(2));
    HeldWorkers held(sched, 1);  // not in the group: still running when the wait ends
    JobGroup group = sched.group();
    std::atomic<int> ran{0};
    for (int i = 0; i < 50; ++i)
        sched.postDetached([&] { ran.fetch_add(1); }, {.group = group});
    group.wait();
    EXPECT_EQ(ran.load(), 50);
    const GroupStatistics s = group.stats();
    EXPECT_EQ(s.submitted, 50u);
    EXPECT_EQ(s.completed, 50u);
    EXPECT_EQ(s.pending, 0u);
    // The held job is still open (a worker that ran a group job may not have published
    // its end to the scheduler's ledger yet: the group's ledger is exact, this one at least 1).
    EXPECT_GE(sched.stats().pending, 1u);
    held.release();
    sched.drain();
}

// Queued, timed and waiting jobs of the group are cancelled (a dependent outside the
// group with them); nothing of it runs; both ledgers balance.
TEST(SchedulerGroups, CancelStopsWhatHasNotStarted) {
    ManualClock clock;
    Scheduler sched(withWorkers(1, &clock));
    HeldWorkers held(sched, 1);
    JobGroup group = sched.group();
    std::atomic<int> ran{0};
    auto work = [&] { ran.fetch_add(1); };
    JobHandle first = sched.post(work, {.group = group});
    for (int i = 0; i < 9; ++i)
        sched.postDetached(work, {.group = group});
    sched.postDetached(work, {.start = clock.now() + 10ms, .group = group});
    sched.postDetached(work, {.group = group}, {first});
    JobHandle outside = sched.post(work, {}, {first});
    group.cancel();
    EXPECT_TRUE(group.cancelled());
    sched.postDetached(work, {.group = group});  // joins a cancelled group: cancelled too
    held.release();
    clock.advance(10ms);
    sched.wake();
    group.wait();
    sched.drain();
    EXPECT_EQ(ran.load(), 0);
    EXPECT_EQ(outside.state(), JobState::Cancelled);
    const GroupStatistics g = group.stats();
    EXPECT_EQ(g.submitted, 13u);
    EXPECT_EQ(g.cancelled, 13u);
    EXPECT_EQ(g.pending, 0u);
    expectBalanced(g);
    const Statistics s = sched.stats();
    EXPECT_EQ(s.cancelled, 14u);
    EXPECT_EQ(s.completed, 1u);  // the held job
    EXPECT_EQ(s.pending, 0u);
}

// A cancelled group's timed job whose deadline has passed when the queue reaches it ends
// Cancelled, not Expired: the cancel came first.
TEST(SchedulerGroups, CancelledTimedJobPastItsDeadlineEndsCancelled) {
    ManualClock clock;
    Scheduler sched(withWorkers(1, &clock));
    JobGroup group = sched.group();
    const TimePoint t = clock.now();
    JobHandle h = sched.post([] {}, {.start = t + 1ms, .deadline = t + 2ms, .group = group});
    group.cancel();
    clock.advance(5ms);
    sched.wake();
    group.wait();
    EXPECT_EQ(h.state(), JobState::Cancelled);
    const GroupStatistics g = group.stats();
    EXPECT_EQ(g.cancelled, 1u);
    EXPECT_EQ(g.expired, 0u);
    expectBalanced(g);
}

TEST(SchedulerGroups, RunningJobsFinishAndSeeTheCancel) {
    Scheduler sched(withWorkers(1));
    JobGroup group = sched.group();
    std::atomic<bool> started{false};
    std::atomic<int> polls{0};
    JobHandle job = sched.post(
        [&] {
            started = true;
            while (!group.cancelled())
                polls.fetch_add(1);
        },
        {.group = group});
    while (!started.load())
        std::this_thread::yield();
    group.cancel();
    group.wait();
    EXPECT_EQ(job.state(), JobState::Completed);
    EXPECT_EQ(group.stats().completed, 1u);
    EXPECT_EQ(group.stats().cancelled, 0u);
}

TEST(SchedulerGroups, CountsEveryOutcome) {
    ManualClock clock;
    Scheduler sched(withWorkers(1, &clock));
    JobGroup group = sched.group();
    const TimePoint t = clock.now();
    sched.postDetached([] {}, {.group = group});
    JobHandle failing = sched.post([] { throw std::runtime_error("no"); }, {.group = group});
    sched.postDetached([] {}, {.group = group}, {failing});  // cancelled
    sched.postDetached([] {}, {.start = t + 1ms, .deadline = t + 2ms, .group = group});
    clock.advance(5ms);  // past the deadline: expires
    sched.wake();
    group.wait();
    const GroupStatistics g = group.stats();
    EXPECT_EQ(g.submitted, 4u);
    EXPECT_EQ(g.completed, 1u);
    EXPECT_EQ(g.failed, 1u);
    EXPECT_EQ(g.cancelled, 1u);
    EXPECT_EQ(g.expired, 1u);
    EXPECT_EQ(g.pending, 0u);
}

TEST(SchedulerGroups, WaitInsideAJobOfTheGroupIsRefused) {
    Scheduler sched(withWorkers(2));
    JobGroup group = sched.group();
    JobHandle job = sched.post([&] { group.wait(); }, {.group = group});
    sched.wait(job);
    ASSERT_EQ(job.state(), JobState::Failed);
    EXPECT_THROW(std::rethrow_exception(job.error()), std::logic_error);
}

TEST(SchedulerGroups, MisuseIsRefused) {
    Scheduler sched(withWorkers(1)), other(withWorkers(1));
    JobGroup foreign = other.group();
    EXPECT_THROW(sched.post([] {}, {.group = foreign}), std::invalid_argument);
    JobGroup empty;
    EXPECT_FALSE(empty);
    EXPECT_THROW(empty.wait(), std::logic_error);
    EXPECT_THROW((void)empty.stats(), std::logic_error);
    EXPECT_EQ(foreign.stats().submitted, 0u);
}

// The group outlives its scheduler: its counts stay readable.
TEST(SchedulerGroups, OutlivesItsScheduler) {
    JobGroup group;
    {
        Scheduler sched(withWorkers(1));
        group = sched.group();
        sched.wait(sched.post([] {}, {.group = group}));
        sched.postDetached([] {}, {.start = sched.now() + 1h, .group = group});
    }  // shutdown cancels the timed one
    const GroupStatistics g = group.stats();
    EXPECT_EQ(g.submitted, 2u);
    EXPECT_EQ(g.completed, 1u);
    EXPECT_EQ(g.cancelled, 1u);
    EXPECT_EQ(g.pending, 0u);
}
