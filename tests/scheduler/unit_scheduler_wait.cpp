// Scheduler::wait / waitFor: returns exactly when the named jobs are final, not when
// everything is; the waiting thread helps run untimed jobs; from inside a job it refuses
// to block. Decided by held workers, the injected clock and job states, never by timing.
#include "pullsched/scheduler/Scheduler.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <functional>
#include <list>
#include <memory>
#include <ranges>
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

// A range that makes its handles as it is read (a transform view posting a job per
// element): each handle dies at once, so wait() must hold them, or the records it waits
// for are recycled and never become final.
TEST(SchedulerWait, ARangeThatMakesItsHandles) {
    Scheduler sched(config(2));
    std::atomic<int> ran{0};
    auto fresh = std::views::iota(0, 200) | std::views::transform([&](int) {
                     return sched.post([&ran] { ran.fetch_add(1); });
                 });
    EXPECT_TRUE(sched.waitFor(fresh, 60s));  // the bound only turns a hang into a failure
    EXPECT_EQ(ran.load(), 200);
    auto more = std::views::iota(0, 50) | std::views::transform([&](int) {
                    return sched.post([&ran] { ran.fetch_add(1); });
                });
    sched.wait(more);
    EXPECT_EQ(ran.load(), 250);
}

namespace {

/// A job of `a` waits for a job of `b` whose only worker is held, so the waiting thread
/// runs b's job itself; that job calls `call` on `a`, which would wait for the job of `a`
/// below it on the same stack. Returns what `call` threw (empty if it returned).
std::string calledFromAJobHelpedAbove(const std::function<void(Scheduler&)>& call) {
    Scheduler a(config(1)), b(config(1));
    HeldWorkers heldB(b, 1);
    std::string error = "returned";
    JobHandle outer = a.post([&] {
        JobHandle inner = b.post([&] {
            try {
                call(a);
            } catch (const std::logic_error& e) {
                error = e.what();
            }
        });
        b.wait(inner);
    });
    a.wait(outer);
    heldB.release();
    b.drain();
    EXPECT_EQ(outer.state(), JobState::Completed);
    return error;
}

}  // namespace

// A thread remembers every scheduler it runs a job of, not only the innermost: helping
// b's wait inside a's job, a's waits are still refused (they used to hang, or return false
// at their limit).
TEST(SchedulerWait, HelpingAnotherSchedulerKeepsTheRefusalsOfTheFirst) {
    EXPECT_NE(calledFromAJobHelpedAbove([](Scheduler& a) {
                  (void)a.drainFor(2s);
              }).find("drain() called from inside a job of the same scheduler"),
              std::string::npos);
    EXPECT_NE(calledFromAJobHelpedAbove([](Scheduler& a) {
                  JobHandle never = a.post([] {}, {.start = a.now() + 1h});
                  const bool final = a.waitFor(never, 2s);
                  (void)a.cancel(never);
                  (void) final;
              }).find("wait() called from inside a job of the same scheduler"),
              std::string::npos);
    EXPECT_NE(calledFromAJobHelpedAbove([](Scheduler& a) {
                  JobGroup g = a.group();
                  JobHandle never = a.post([] {}, {.start = a.now() + 1h, .group = g});
                  const bool final = g.waitFor(2s);
                  (void)a.cancel(never);
                  (void) final;
              }).find("wait() called from inside a job of the same scheduler"),
              std::string::npos);
}

// drain() and shutdown() without a limit: they used to hang for ever here.
TEST(SchedulerWait, HelpingAnotherSchedulerRefusesDrainAndShutdownOfTheFirst) {
    EXPECT_NE(calledFromAJobHelpedAbove([](Scheduler& a) {
                  a.drain();
              }).find("drain() called from inside a job of the same scheduler"),
              std::string::npos);
    EXPECT_NE(calledFromAJobHelpedAbove([](Scheduler& a) {
                  (void)a.shutdown(ShutdownMode::Cancel);
              }).find("shutdown() called from inside a job of the same scheduler"),
              std::string::npos);
}

// Destroying a scheduler while other threads wait in it (wait(), get(), a group's wait(),
// drain()): the destructor's shutdown ends their jobs, and it lets them leave before it
// frees what they sleep on (under AddressSanitizer, a use-after-free before).
TEST(SchedulerWait, DestroyedWhileOtherThreadsWaitInIt) {
    auto owned = std::make_unique<Scheduler>(config(1));
    Scheduler* sched = owned.get();
    JobGroup g = sched->group();
    JobHandle never = sched->post([] {}, {.start = sched->now() + 1h});
    JobHandleOf<int> value = sched->post([] { return 7; }, {.start = sched->now() + 1h});
    sched->postDetached([] {}, {.start = sched->now() + 1h, .group = g});
    std::atomic<int> inside{0};
    std::vector<std::thread> waiters;
    waiters.emplace_back([&] { inside.fetch_add(1), sched->wait(never); });
    waiters.emplace_back([&] {
        inside.fetch_add(1);
        EXPECT_THROW((void)value.get(), JobNotRun);
    });
    waiters.emplace_back([&] { inside.fetch_add(1), g.wait(); });
    waiters.emplace_back([&] { inside.fetch_add(1), sched->drain(); });
    while (inside.load() < 4)
        std::this_thread::yield();
    std::this_thread::sleep_for(50ms);  // most likely asleep by now; nothing asserts it
    owned.reset();
    for (std::thread& t : waiters)
        t.join();
    EXPECT_EQ(never.state(), JobState::Cancelled);
    EXPECT_EQ(value.state(), JobState::Cancelled);
    EXPECT_EQ(g.stats().cancelled, 1u);
}
