// Jobs that return a value: post() gives a JobHandleOf<T> whose get() waits (helping) and
// returns the value, rethrows what the job threw, and throws JobNotRun for a job that
// was cancelled or expired. A typed handle names its job as a predecessor like any.
#include "pullsched/scheduler/Scheduler.hpp"

#include <gtest/gtest.h>

#include <array>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "SchedulerTestKit.hpp"

using namespace std::chrono_literals;
using namespace pullsched;
using testkit::HeldWorkers;
using testkit::withWorkers;

TEST(SchedulerValues, GetReturnsTheValue) {
    Scheduler sched(withWorkers(2));
    auto answer = sched.post([] { return 42; });
    static_assert(std::is_same_v<decltype(answer), JobHandleOf<int>>);
    static_assert(std::is_same_v<decltype(sched.post([] {})), JobHandle>);
    EXPECT_EQ(answer.get(), 42);
    EXPECT_EQ(answer.get(), 42);  // again: the value stays with the handle
    auto text = sched.post([] { return std::string(100, 'x'); });
    EXPECT_EQ(text.get().size(), 100u);
    auto big = sched.post([] {  // larger than the inline storage: on the heap
        std::array<int, 64> a{};
        a[63] = 7;
        return a;
    });
    EXPECT_EQ(big.get()[63], 7);
    auto owned = sched.post([] { return std::make_unique<int>(5); });  // move-only
    std::unique_ptr<int> taken = std::move(owned.get());
    EXPECT_EQ(*taken, 5);
}

TEST(SchedulerValues, ValueLivesUntilTheLastHandleGoes) {
    Scheduler sched(withWorkers(1));
    auto shared = std::make_shared<int>(1);
    std::weak_ptr<int> watch = shared;
    auto h = sched.post([s = std::move(shared)] { return s; });
    EXPECT_EQ(*h.get(), 1);
    // get() returns once the job is final; the worker may still hold the record then.
    // After drain() the scheduler holds none: the handles alone decide.
    sched.drain();
    JobHandle plain = h;  // a plain copy keeps the record, and with it the value
    h = {};
    EXPECT_FALSE(watch.expired());
    plain = {};
    EXPECT_TRUE(watch.expired());
    // postDetached keeps no value: it is dropped as the job ends.
    auto detached = std::make_shared<int>(2);
    std::weak_ptr<int> watchDetached = detached;
    sched.postDetached([d = std::move(detached)] { return d; });
    sched.drain();
    EXPECT_TRUE(watchDetached.expired());
}

TEST(SchedulerValues, GetRethrowsTheJobsException) {
    Scheduler sched(withWorkers(1));
    auto h = sched.post([]() -> int { throw std::runtime_error("no value today"); });
    EXPECT_THROW(
        {
            try {
                (void)h.get();
            } catch (const std::runtime_error& e) {
                EXPECT_STREQ(e.what(), "no value today");
                throw;
            }
        },
        std::runtime_error);
    EXPECT_EQ(h.state(), JobState::Failed);
}

TEST(SchedulerValues, CancelledAndExpiredJobsThrowJobNotRun) {
    ManualClock clock;
    Scheduler sched(withWorkers(1, &clock));
    HeldWorkers held(sched, 1);
    auto cancelled = sched.post([] { return 1; });
    EXPECT_TRUE(sched.cancel(cancelled));
    try {
        (void)cancelled.get();
        FAIL() << "no exception";
    } catch (const JobNotRun& e) {
        EXPECT_EQ(e.state(), JobState::Cancelled);
        EXPECT_NE(std::string(e.what()).find("cancelled"), std::string::npos);
    }
    const TimePoint t = clock.now();
    auto expired = sched.post([] { return 2; }, {.start = t + 1ms, .deadline = t + 2ms});
    held.release();
    clock.advance(5ms);
    sched.wake();
    try {
        (void)expired.get();
        FAIL() << "no exception";
    } catch (const JobNotRun& e) {
        EXPECT_EQ(e.state(), JobState::Expired);
    }
}

// A typed handle is a predecessor like any; inside the successor its value is final, so
// get() returns at once. Inside a job, get() on a job that is not final is refused.
TEST(SchedulerValues, PredecessorValuesFromInsideAJob) {
    Scheduler sched(withWorkers(2));
    auto two = sched.post([] { return 2; });
    auto six = sched.post([two] { return two.get() * 3; }, {}, {two});
    EXPECT_EQ(six.get(), 6);
    auto never = sched.post([] { return 0; }, {.start = sched.now() + 1h});
    auto refused = sched.post([never] { return never.get(); });
    EXPECT_THROW((void)refused.get(), std::logic_error);
    EXPECT_TRUE(sched.cancel(never));
}
