// Limits at the ends of the time range: drainFor(Duration::max()) waits for pending work
// (it used to overflow now + limit and give up at once), negative limits return at once
// with the right answer, and a job at TimePoint::max() under a manual clock far in the
// past neither wraps nor keeps a worker busy. Nothing here asserts on elapsed time.
#include <gtest/gtest.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <fstream>
#include <string>
#include <thread>

#include "pullsched/scheduler/Scheduler.hpp"

using namespace std::chrono_literals;
using namespace pullsched;

namespace {

pid_t currentThreadId() {
    return static_cast<pid_t>(syscall(SYS_gettid));
}

/// Whether thread `tid` of this process is blocked in the kernel (state S).
bool blockedInKernel(pid_t tid) {
    std::ifstream in("/proc/self/task/" + std::to_string(tid) + "/stat");
    std::string stat;
    std::getline(in, stat);
    const auto paren = stat.rfind(')');  // the name may contain anything; the state follows
    return paren != std::string::npos && paren + 2 < stat.size() && stat[paren + 2] == 'S';
}

/// A job that runs until the test lets it finish.
struct Gate {
    std::atomic<bool> open{false};
    void wait() { open.wait(false); }
    void release() {
        open.store(true);
        open.notify_all();
    }
};

}  // namespace

TEST(SchedulerTimeLimits, DrainForTheLongestLimitWaitsForPendingWork) {
    Scheduler sched;
    Gate gate;
    JobHandle job = sched.post([&] { gate.wait(); });
    std::atomic<bool> returned{false};
    const pid_t caller = currentThreadId();
    // Lets the job finish once the caller sleeps inside drainFor, or once drainFor came
    // back (the old behaviour): the order of events, not a time, decides the outcome.
    std::thread releaser([&] {
        while (!returned.load() && !blockedInKernel(caller))
            std::this_thread::yield();
        gate.release();
    });
    const bool drained = sched.drainFor(Duration::max());
    returned.store(true);
    releaser.join();
    EXPECT_TRUE(drained) << "drainFor(Duration::max()) gave up with work pending";
    EXPECT_EQ(job.state(), JobState::Completed);
    EXPECT_EQ(sched.stats().pending, 0u);
}

TEST(SchedulerTimeLimits, NegativeAndZeroLimitsReturnAtOnceWithTheRightAnswer) {
    Scheduler sched;
    Gate gate;
    JobHandle job = sched.post([&] { gate.wait(); });
    EXPECT_FALSE(sched.drainFor(Duration::min()));
    EXPECT_FALSE(sched.drainFor(-1ns));
    EXPECT_FALSE(sched.drainFor(0ns));
    EXPECT_FALSE(job.done());
    gate.release();
    sched.drain();
    EXPECT_TRUE(sched.drainFor(Duration::min()));  // nothing pending: true, at once
    EXPECT_TRUE(sched.drainFor(-1ns));
    EXPECT_TRUE(sched.drainFor(0ns));
    EXPECT_TRUE(sched.drainFor(Duration::max()));
}

// A manual clock near TimePoint::min() and a job at TimePoint::max(): the distance between
// them does not fit in a Duration. Read wrapped, the head looked overdue, and the worker
// that groomed it dispatched (found nothing), groomed, dispatched ... for ever instead of
// sleeping towards it. Counted, not timed: some worker must begin a tend-next sleep.
TEST(SchedulerTimeLimits, JobAtTheEndOfTimeUnderAClockAtItsStart) {
    struct TendCounter final : Observer {
        std::atomic<unsigned> sleeps{0};
        std::atomic<bool> negative{false};
        void onSleep(unsigned, SleepKind kind, Duration planned) override {
            if (kind != SleepKind::TendNext) return;
            if (planned < Duration::zero()) negative.store(true);
            sleeps.fetch_add(1);
        }
    } tends;
    ManualClock clock(TimePoint::min() + 1h);
    SchedulerConfig cfg;
    cfg.clock = &clock;
    cfg.observer = &tends;
    Scheduler sched(cfg);
    JobHandle job = sched.post([] {}, {.start = TimePoint::max()});
    // A hang here is the failure; the guard only ends it.
    const auto guard = SteadyClock::now() + 60s;
    while (tends.sleeps.load() == 0 && SteadyClock::now() < guard)
        std::this_thread::sleep_for(1ms);
    EXPECT_GT(tends.sleeps.load(), 0u)
        << "no worker slept towards the head: spun on a wrapped distance";
    EXPECT_FALSE(tends.negative.load());
    EXPECT_FALSE(sched.drainFor(0ns));
    EXPECT_EQ(job.state(), JobState::Scheduled);

    clock.advance(Duration::max());  // saturates at TimePoint::max(): the job is due
    clock.advance(Duration::max());
    EXPECT_EQ(sched.now(), TimePoint::max());
    sched.wake();
    sched.drain();
    EXPECT_EQ(job.state(), JobState::Completed);
}
