// The API's edges: empty handles, waiting on the scheduler from inside its own jobs,
// observers that throw. Each has a defined, documented behaviour.
#include "pullsched/scheduler/Scheduler.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <cstddef>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

using namespace std::chrono_literals;
using namespace pullsched;

namespace {

template <class F>
std::string logicErrorOf(F&& f) {
    try {
        f();
    } catch (const std::logic_error& e) {
        return e.what();
    }
    return "(no std::logic_error)";
}

}  // namespace

TEST(SchedulerMisuse, EmptyHandleThrowsLogicErrorOnEveryQuery) {
    const JobHandle empty;
    EXPECT_FALSE(empty);
    const std::string expected = "pullsched: query on an empty JobHandle";
    EXPECT_EQ(logicErrorOf([&] { (void)empty.state(); }), expected);
    EXPECT_EQ(logicErrorOf([&] { (void)empty.done(); }), expected);
    EXPECT_EQ(logicErrorOf([&] { (void)empty.error(); }), expected);
    EXPECT_EQ(logicErrorOf([&] { (void)empty.tag(); }), expected);
}

TEST(SchedulerMisuse, MovedFromHandleIsEmpty) {
    Scheduler sched;
    JobHandle a = sched.post([] {}, {.tag = 7});
    JobHandle b = std::move(a);
    EXPECT_FALSE(a);  // NOLINT(bugprone-use-after-move): the documented moved-from state
    EXPECT_THROW((void)a.state(), std::logic_error);
    sched.drain();
    EXPECT_EQ(b.tag(), 7u);
    EXPECT_TRUE(b.done());
}

TEST(SchedulerMisuse, DrainInsideAJobThrowsInsteadOfDeadlocking) {
    Scheduler sched;
    std::string message;
    JobHandle job = sched.post([&] { message = logicErrorOf([&] { sched.drain(); }); });
    ASSERT_TRUE(sched.drainFor(60s)) << "drain() inside a job deadlocked";
    EXPECT_EQ(message,
              "pullsched: drain() called from inside a job of the same scheduler "
              "(it would wait for itself)");
    EXPECT_EQ(job.state(), JobState::Completed);

    std::string forMessage;
    sched.post([&] { forMessage = logicErrorOf([&] { sched.drainFor(1ms); }); });
    ASSERT_TRUE(sched.drainFor(60s));
    EXPECT_EQ(forMessage,
              "pullsched: drain() called from inside a job of the same scheduler "
              "(it would wait for itself)");
}

TEST(SchedulerMisuse, ShutdownInsideAJobThrowsInsteadOfDeadlocking) {
    Scheduler sched;
    std::string message;
    sched.post([&] { message = logicErrorOf([&] { sched.shutdown(ShutdownMode::Drain); }); });
    ASSERT_TRUE(sched.drainFor(60s)) << "shutdown() inside a job deadlocked";
    EXPECT_EQ(message,
              "pullsched: shutdown() called from inside a job of the same scheduler "
              "(it would wait for itself)");
    // The scheduler still works, and shuts down normally from outside.
    JobHandle later = sched.post([] {});
    sched.drain();
    EXPECT_EQ(later.state(), JobState::Completed);
    EXPECT_EQ(sched.shutdown(ShutdownMode::Cancel).cancelled, 0u);
}

TEST(SchedulerMisuse, DrainOfAnotherSchedulerInsideAJobIsAllowed) {
    Scheduler outer, inner;
    std::atomic<bool> innerRan{false};
    outer.post([&] {
        inner.post([&] { innerRan.store(true); });
        inner.drain();
    });
    outer.drain();
    EXPECT_TRUE(innerRan.load());
}

namespace {
class ThrowingObserver final : public Observer {
  public:
    void onJobStart(unsigned, const JobEvent&) override { throw std::runtime_error("start"); }
    void onJobEnd(unsigned, const JobEvent&) override { throw std::runtime_error("end"); }
    void onWorkerActive(unsigned) override { throw 1; }
    void onWorkerIdle(unsigned) override { throw 2; }
    void onTokenAcquired(unsigned) override { throw std::runtime_error("token"); }
    void onTokenContended(unsigned) override { throw std::runtime_error("contended"); }
    void onSleep(unsigned, SleepKind, Duration) override { throw std::runtime_error("sleep"); }
};
}  // namespace

TEST(SchedulerMisuse, ObserverExceptionsAreCaughtAndCounted) {
    ThrowingObserver observer;
    SchedulerConfig cfg;
    cfg.observer = &observer;
    Scheduler sched(cfg);
    std::atomic<int> ran{0};
    for (int i = 0; i < 1000; ++i)
        sched.postDetached([&] { ran.fetch_add(1); });
    sched.post([&] { ran.fetch_add(1); }, {.start = sched.now() + 2ms});
    sched.drain();
    const Statistics s = sched.stats();
    EXPECT_EQ(ran.load(), 1001);
    EXPECT_EQ(s.completed, 1001u);  // the jobs' outcomes are theirs, not the observer's
    EXPECT_TRUE(s.balanced());
    // Every job start and end threw at least, and each was counted.
    EXPECT_GE(s.observerExceptions, 2002u);
}

// A handle kept past its scheduler, offered to a new scheduler built in the very same
// storage (and, most of the time, with its machinery at the freed machinery's address:
// the owner check compared that address and accepted 188 of 200 such handles). Refused
// every time, whether its job completed (the dependent would have run) or was cancelled.
TEST(SchedulerMisuse, StaleHandleIsRefusedByANewSchedulerAtTheSameAddress) {
    alignas(Scheduler) std::byte storage[sizeof(Scheduler)];
    const SchedulerConfig cfg{.workers = 1};
    Scheduler* sched = ::new (storage) Scheduler(cfg);
    int accepted = 0;
    std::atomic<int> dependentsRun{0};
    std::vector<JobHandle> stale;
    for (int round = 0; round < 200; ++round) {
        // Alternately a completed and a cancelled (never started) predecessor.
        const bool complete = round % 2 == 0;
        JobHandle old = sched->post([] {}, {.start = complete ? kAsap : TimePoint::max()});
        if (complete) sched->drain();
        sched->~Scheduler();  // cancels the timed job
        EXPECT_TRUE(old.done());
        sched = ::new (storage) Scheduler(cfg);
        ASSERT_EQ(static_cast<void*>(sched), static_cast<void*>(storage));
        bool took = false;
        try {
            sched->post([&] { dependentsRun.fetch_add(1); }, {}, {old});
            took = true;
            ++accepted;
        } catch (const std::invalid_argument& e) {
            EXPECT_STREQ(e.what(), "pullsched: predecessor belongs to another scheduler");
        }
        sched->drain();
        EXPECT_EQ(sched->stats().submitted, took ? 1u : 0u);
        if (round % 50 == 0) stale.push_back(old);  // some outlive several schedulers
        for (const JobHandle& h : stale)
            EXPECT_THROW(sched->post([] {}, {}, {h}), std::invalid_argument);
    }
    sched->~Scheduler();
    EXPECT_EQ(accepted, 0) << "stale handles accepted as predecessors";
    EXPECT_EQ(dependentsRun.load(), 0);
}
