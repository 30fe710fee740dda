// Scheduler::wait / waitFor: returns exactly when the named jobs are final, not when
// everything is; the waiting thread helps run untimed jobs; from inside a job it refuses
// to block. Decided by held workers, the injected clock and job states, never by timing.
#include "pullsched/scheduler/Scheduler.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <list>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "SchedulerTestKit.hpp"

using namespace std::chrono_literals;
using namespace pullsched;
using testkit::HeldWorkers;

namespace {

SchedulerConfig config(unsigned workers, bool help = true, const ClockSource* clock = nullptr) {
    SchedulerConfig cfg;
    cfg.workers = workers;
    cfg.helpWhileWaiting = help;
    cfg.clock = clock;
    return cfg;
}

}  // namespace

// Every worker is held, so the job waited for can only run on the waiting thread: wait()
// returns with it final while the held jobs (posted earlier) are not.
TEST(SchedulerWait, HelpsAndReturnsBeforeOtherJobsEnd) {
    Scheduler sched(config(2));
    HeldWorkers held(sched, 2);
    const auto caller = std::this_thread::get_id();
    std::thread::id ranOn;
    JobHandle job = sched.post([&] { ranOn = std::this_thread::get_id(); });
    sched.wait(job);
    EXPECT_EQ(job.state(), JobState::Completed);
    EXPECT_EQ(ranOn, caller);
    EXPECT_EQ(sched.stats().pending, 2u);  // the held jobs
    held.release();
    sched.drain();
}

// Without helping, the only worker is held: the waiter cannot return until it is let go.
TEST(SchedulerWait, WithoutHelpingWaitsForTheWorkers) {
    Scheduler sched(config(1, false));
    HeldWorkers held(sched, 1);
    std::atomic<int> ran{0};
    JobHandle job = sched.post([&] { ran.fetch_add(1); });
    EXPECT_FALSE(sched.waitFor(job, Duration::zero()));
    std::atomic<bool> returned{false};
    std::thread waiter([&] {
        sched.wait(job);
        returned = true;
    });
    EXPECT_FALSE(returned.load());  // cannot have: the job has not run
    EXPECT_EQ(ran.load(), 0);
    held.release();
    waiter.join();
    EXPECT_TRUE(returned.load());
    EXPECT_EQ(job.state(), JobState::Completed);
    EXPECT_EQ(ran.load(), 1);
}

// A timed job is the workers' (helping takes untimed jobs only): the wait ends when the
// injected clock reaches its start and a worker ran it.
TEST(SchedulerWait, TimedJobEndsTheWaitAtItsStart) {
    ManualClock clock;
    Scheduler sched(config(1, true, &clock));
    JobHandle job = sched.post([] {}, {.start = clock.now() + 10ms});
    EXPECT_FALSE(sched.waitFor(job, Duration::zero()));
    std::atomic<bool> returned{false};
    std::thread waiter([&] {
        sched.wait(job);
        returned = true;
    });
    EXPECT_FALSE(returned.load());
    EXPECT_EQ(job.state(), JobState::Scheduled);
    clock.advance(10ms);
    sched.wake();
    waiter.join();
    EXPECT_EQ(job.state(), JobState::Completed);
}

TEST(SchedulerWait, AnyRangeOfHandles) {
    Scheduler sched(config(2));
    std::atomic<int> ran{0};
    std::list<JobHandle> jobs;  // not contiguous
    for (int i = 0; i < 100; ++i)
        jobs.push_back(sched.post([&] { ran.fetch_add(1); }));
    sched.wait(jobs);
    for (const JobHandle& j : jobs)
        EXPECT_TRUE(j.done());
    EXPECT_EQ(ran.load(), 100);
    JobHandle a = sched.post([] {}), b = sched.post([] {});
    EXPECT_TRUE(sched.waitFor({a, b}, 60s));
    EXPECT_TRUE(a.done() && b.done());
}

TEST(SchedulerWait, FailedAndCancelledJobsAreFinalToo) {
    Scheduler sched(config(1));
    JobHandle failing = sched.post([] { throw std::runtime_error("no"); });
    JobHandle dependent = sched.post([] {}, {}, {failing});
    sched.wait({failing, dependent});
    EXPECT_EQ(failing.state(), JobState::Failed);
    EXPECT_EQ(dependent.state(), JobState::Cancelled);
}

// Inside a job: its predecessors are final, so waiting for them returns; waiting for a
// job that is not final throws (the job fails with that error) instead of blocking.
TEST(SchedulerWait, InsideAJobOnlyFinalJobs) {
    Scheduler sched(config(2));
    HeldWorkers held(sched, 1);
    JobHandle pred = sched.post([] {});
    std::atomic<bool> waited{false};
    JobHandle onPred = sched.post([&] { sched.wait(pred), waited = true; }, {}, {pred});
    sched.wait(onPred);
    EXPECT_TRUE(waited.load());
    EXPECT_EQ(onPred.state(), JobState::Completed);

    JobHandle never = sched.post([] {}, {.start = sched.now() + 1h});
    JobHandle refused = sched.post([&] { sched.wait(never); });
    sched.wait(refused);
    ASSERT_EQ(refused.state(), JobState::Failed);
    try {
        std::rethrow_exception(refused.error());
    } catch (const std::logic_error& e) {
        EXPECT_NE(std::string(e.what()).find("inside a job"), std::string::npos) << e.what();
    }
    held.release();
    EXPECT_TRUE(sched.cancel(never));
    sched.drain();
}

TEST(SchedulerWait, RejectsEmptyAndForeignHandles) {
    Scheduler sched(config(1)), other(config(1));
    EXPECT_THROW(sched.wait(JobHandle{}), std::invalid_argument);
    JobHandle foreign = other.post([] {});
    EXPECT_THROW(sched.wait(foreign), std::invalid_argument);
    EXPECT_THROW((void)sched.cancel(foreign), std::invalid_argument);
    other.wait(foreign);
}
