// Timed jobs leave in (start, sequence) order, also when they are posted already due.
// One worker is held busy while jobs are posted and a manual clock moves, so the order
// is decided by the scheduler alone; nothing here depends on wall-clock speed.
#include "pullsched/scheduler/Scheduler.hpp"

#include "SchedulerTestKit.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <random>
#include <thread>
#include <vector>

using namespace std::chrono_literals;
using namespace pullsched;

namespace {

using testkit::RunOrder;

/// Keeps the only worker inside a job until released.
class BusyWorker {
  public:
    explicit BusyWorker(Scheduler& sched) {
        handle_ = sched.post([this] {
            running_.store(true);
            while (!released_.load())
                std::this_thread::yield();
        });
        while (!running_.load())
            std::this_thread::yield();
    }
    void release() { released_.store(true); }

  private:
    std::atomic<bool> running_{false}, released_{false};
    JobHandle handle_;
};

SchedulerConfig oneWorker(const ManualClock& clock) {
    SchedulerConfig c;
    c.workers = 1;
    c.clock = &clock;
    c.helpWhileWaiting = false;  // one thread runs the jobs: the order is the scheduler's
    return c;
}

}  // namespace

TEST(SchedulerOrder, EqualStartKeepsSubmissionOrderWhenTheSecondIsPostedLate) {
    ManualClock clock;
    Scheduler sched(oneWorker(clock));
    RunOrder runs;
    BusyWorker busy(sched);
    const TimePoint t = clock.now() + 10ms;
    sched.post(runs.recorder(1), {.start = t});
    clock.advance(20ms);  // t has passed: the next post is due at once
    sched.post(runs.recorder(2), {.start = t});
    busy.release();
    sched.drain();
    EXPECT_EQ(runs.order(), (std::vector<int>{1, 2}));
}

TEST(SchedulerOrder, AnOverdueEarlierStartRunsBeforeALaterStartPostedBefore) {
    ManualClock clock;
    Scheduler sched(oneWorker(clock));
    RunOrder runs;
    BusyWorker busy(sched);
    const TimePoint t = clock.now();
    sched.post(runs.recorder(2), {.start = t - 1ms});  // due when posted
    sched.post(runs.recorder(1), {.start = t - 2ms});  // due, and earlier
    busy.release();
    sched.drain();
    EXPECT_EQ(runs.order(), (std::vector<int>{1, 2}));
}

TEST(SchedulerOrder, ManyTimedJobsPostedInRandomOrderRunByStartThenSequence) {
    ManualClock clock;
    Scheduler sched(oneWorker(clock));
    RunOrder runs;
    BusyWorker busy(sched);
    constexpr int kJobs = 500;
    const TimePoint base = clock.now();
    std::mt19937 rng(7);
    struct Key {
        TimePoint start;
        int id;
    };
    std::vector<Key> keys;
    for (int id = 0; id < kJobs; ++id) {
        // Starts in the past, now, and the future, with many ties.
        const TimePoint start = base + std::chrono::milliseconds(int(rng() % 40) - 20);
        keys.push_back({start, id});
        sched.post(runs.recorder(id), {.start = start});
        if (id == kJobs / 2) clock.advance(5ms);  // some of the later posts become overdue
    }
    clock.advance(30ms);  // everything is due
    busy.release();
    sched.wake();
    sched.drain();
    std::stable_sort(keys.begin(), keys.end(),
                     [](const Key& a, const Key& b) { return a.start < b.start; });
    std::vector<int> expected;
    for (const Key& k : keys)
        expected.push_back(k.id);
    EXPECT_EQ(runs.order(), expected);
}

TEST(SchedulerOrder, AsapJobsKeepTheirFifoOrder) {
    ManualClock clock;
    Scheduler sched(oneWorker(clock));
    RunOrder runs;
    BusyWorker busy(sched);
    for (int id = 0; id < 100; ++id)
        sched.post(runs.recorder(id));
    busy.release();
    sched.drain();
    std::vector<int> expected(100);
    for (int id = 0; id < 100; ++id)
        expected[id] = id;
    EXPECT_EQ(runs.order(), expected);
}

// A worker whose every job releases the next onto its own queue never runs out of own
// work; a post from another thread (here: a thread started and joined inside a job, so
// that it posts while the stream runs; a post from the job itself would stay with the
// worker) takes the shared FIFO and must still get its turn. Every 64th take moves the shared
// FIFO's jobs to the back of the own queue, so the post runs within a few dozen jobs, long before
// the stream ends; without that it would run last. One worker: the order is the scheduler's alone.
TEST(SchedulerOrder, AWorkerBusyWithItsOwnReleasesStillRunsOtherPosts) {
    ManualClock clock;
    Scheduler sched(oneWorker(clock));
    RunOrder runs;
    constexpr int kStream = 1000;
    constexpr int kOutside = -1;
    BusyWorker busy(sched);
    // Link i's successors: a side job (released first: the continuation) and link i + 1
    // (onto the own queue). Link 10 posts the outside job.
    JobHandle link = sched.post(runs.recorder(0));
    for (int i = 1; i < kStream; ++i) {
        const JobHandle pred[] = {link};
        sched.postDetached([] {}, {}, pred);
        if (i == 10) {
            link = sched.post(
                [&sched, &runs] {
                    runs.recorder(10)();
                    std::thread([&] { sched.postDetached(runs.recorder(kOutside)); }).join();
                },
                {}, pred);
        } else {
            link = sched.post(runs.recorder(i), {}, pred);
        }
    }
    link = JobHandle{};
    busy.release();
    sched.drain();
    const std::vector<int> order = runs.order();
    ASSERT_EQ(order.size(), static_cast<std::size_t>(kStream + 1));
    const auto outside = std::ranges::find(order, kOutside) - order.begin();
    EXPECT_LT(outside, 10 + 100) << "the outside post waited for the stream";
    // The links themselves stay in order.
    std::vector<int> links;
    std::ranges::copy_if(order, std::back_inserter(links), [](int id) { return id >= 0; });
    EXPECT_TRUE(std::ranges::is_sorted(links));
}
