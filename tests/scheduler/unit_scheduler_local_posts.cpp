// Untimed jobs posted from inside a job stay with the worker that runs it: that worker
// takes the newest first (depth first), other workers steal the oldest. So a recursion
// that spawns its children holds about depth x branching jobs per worker, not a whole
// level of its tree. Timed posts from jobs keep their (start, sequence) order. Orders are
// checked with one worker (the scheduler's choice alone), bounds as counts, never times.
#include "pullsched/scheduler/Scheduler.hpp"

#include "SchedulerTestKit.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <random>
#include <stdexcept>
#include <thread>
#include <vector>

using namespace std::chrono_literals;
using namespace pullsched;

namespace {

using testkit::RunOrder;

/// Jobs posted and not yet at the end of their body, and the most there ever were.
class LiveJobs {
  public:
    void posted() {
        const int now = live_.fetch_add(1) + 1;
        int seen = peak_.load();
        while (now > seen && !peak_.compare_exchange_weak(seen, now)) {
        }
    }
    void ended() { live_.fetch_sub(1); }
    int peak() const { return peak_.load(); }

  private:
    std::atomic<int> live_{0}, peak_{0};
};

/// A binary recursion of `depth` levels: every inner job posts two children and a
/// continuation that depends on them (handles and a gate for each, as a planner would).
/// Counts every job it runs in `runs` (by its number in the tree, heap order) and the
/// live jobs in `live`.
struct Spawner {
    Scheduler& sched;
    LiveJobs& live;
    std::vector<std::atomic<int>>& runs;
    std::atomic<int>& continuations;

    void spawn(int node, int levels) {
        live.posted();
        sched.postDetached([this, node, levels] { body(node, levels); });
    }
    void body(int node, int levels) {
        runs[node].fetch_add(1);
        if (levels > 0) {
            live.posted();
            live.posted();
            const JobHandle preds[] = {
                sched.post([this, node, levels] { body(2 * node + 1, levels - 1); }),
                sched.post([this, node, levels] { body(2 * node + 2, levels - 1); }),
            };
            live.posted();
            sched.postDetached(
                [this] {
                    continuations.fetch_add(1);
                    live.ended();
                },
                {}, preds);
        }
        live.ended();
    }
};

/// Runs a Spawner recursion of `levels` to its end.
struct Recursion {
    LiveJobs live;
    std::vector<std::atomic<int>> runs;
    std::atomic<int> continuations{0};

    Recursion(Scheduler& sched, int levels) : runs((std::size_t{2} << levels) - 1) {
        Spawner spawner{sched, live, runs, continuations};
        spawner.spawn(0, levels);
        sched.drain();
    }
};

SchedulerConfig workersOnly(unsigned n) {
    SchedulerConfig cfg;
    cfg.workers = n;
    return cfg;
}

/// One worker and nobody else runs jobs (the thread in drain() does not help), so the
/// order jobs run in is the order the scheduler hands them out.
SchedulerConfig oneThread() {
    SchedulerConfig cfg = workersOnly(1);
    cfg.helpWhileWaiting = false;
    return cfg;
}

}  // namespace

// One worker: jobs posted from a job run newest first, after the job that posted them.
TEST(SchedulerLocalPosts, OneWorkerTakesAJobsPostsNewestFirst) {
    Scheduler sched(oneThread());
    RunOrder runs;
    constexpr int kPosts = 200;  // more than the fairness period (every 64th take)
    sched.post([&] {
        runs.add(-1);
        for (int id = 0; id < kPosts; ++id)
            sched.postDetached([&runs, id] { runs.add(id); });
    });
    sched.drain();
    std::vector<int> expected{-1};
    for (int id = kPosts - 1; id >= 0; --id)
        expected.push_back(id);
    EXPECT_EQ(runs.order(), expected);
}

// Depth first: a job's posts run before its older sibling's, recursively.
TEST(SchedulerLocalPosts, NestedPostsRunDepthFirst) {
    Scheduler sched(oneThread());
    RunOrder runs;
    sched.post([&] {
        runs.add(0);
        sched.postDetached([&] { runs.add(1); });
        sched.postDetached([&] {
            runs.add(2);
            sched.postDetached([&] { runs.add(21); });
            sched.postDetached([&] { runs.add(22); });
        });
    });
    sched.drain();
    EXPECT_EQ(runs.order(), (std::vector<int>{0, 2, 22, 21, 1}));
}

// Two workers: every job of a recursion posted from jobs runs exactly once (the other
// worker steals from the posting worker's queue), and the books balance.
TEST(SchedulerLocalPosts, JobsPostedFromJobsRunExactlyOnceWithTwoWorkers) {
    constexpr int kLevels = 12;
    constexpr int kNodes = (1 << (kLevels + 1)) - 1;
    for (int rep = 0; rep < 5; ++rep) {
        Scheduler sched(workersOnly(2));
        Recursion r(sched, kLevels);
        for (int i = 0; i < kNodes; ++i)
            ASSERT_EQ(r.runs[i].load(), 1) << "node " << i;
        EXPECT_EQ(r.continuations.load(), (1 << kLevels) - 1);
        const Statistics s = sched.stats();
        EXPECT_TRUE(s.balanced());
        EXPECT_EQ(s.pending, 0u);
        EXPECT_EQ(s.completed, s.submitted);
        EXPECT_EQ(s.submitted, static_cast<std::uint64_t>(kNodes + (1 << kLevels) - 1));
    }
}

// Memory in proportion to depth x workers: a recursion of 2^17 - 1 calls (plus a
// continuation per inner call) never holds more than a few jobs per level and worker.
// Taken breadth first (the shared FIFO) it held a whole level, tens of thousands. The
// pool's record count (no trimming: the duty cycle is an hour) bounds the peak too.
TEST(SchedulerLocalPosts, RecursiveSpawningHoldsJobsInProportionToDepth) {
    constexpr int kLevels = 16;
    for (const unsigned workers : {1u, 2u}) {
        SchedulerConfig cfg = workersOnly(workers);
        cfg.initialJobCapacity = 64;
        cfg.dutyCycle = std::chrono::hours(1);
        Scheduler sched(cfg);
        Recursion r(sched, kLevels);
        ASSERT_EQ(r.continuations.load(), (1 << kLevels) - 1);
        // Per level and worker: a queued sibling and a waiting continuation, plus the
        // batch a steal may move (at most 32) and the job running.
        const int bound = static_cast<int>(workers) * (4 * kLevels + 40);
        EXPECT_LE(r.live.peak(), bound) << workers << " workers";
        // Records: the live ones, up to 64 in each worker's cache and one pool growth
        // step (256); breadth first needed over 30 000.
        EXPECT_LE(sched.stats().jobRecords, 64u + 256u + 2u * 64u * workers + bound)
            << workers << " workers";
    }
}

// Timed jobs posted from a job leave in (start, sequence) order, also those already due
// when posted; the untimed ones it posts run first (untimed counts as the earliest start),
// newest first.
TEST(SchedulerLocalPosts, TimedPostsFromAJobKeepStartThenSequenceOrder) {
    ManualClock clock;
    SchedulerConfig cfg = oneThread();
    cfg.clock = &clock;
    Scheduler sched(cfg);
    RunOrder runs;
    constexpr int kTimed = 300;
    struct Key {
        TimePoint start;
        int id;
    };
    std::vector<Key> keys;
    std::atomic<bool> posted{false};
    const TimePoint base = clock.now();
    sched.post([&] {
        std::mt19937 rng(11);
        for (int id = 0; id < kTimed; ++id) {
            // Past, now and future starts, with many ties.
            const TimePoint start = base + std::chrono::milliseconds(int(rng() % 40) - 20);
            keys.push_back({start, id});
            sched.postDetached([&runs, id] { runs.add(id); }, {.start = start});
            if (id % 50 == 0) sched.postDetached([&runs, id] { runs.add(-1 - id); });
        }
        posted = true;
    });
    while (!posted.load())
        std::this_thread::yield();
    clock.advance(30ms);  // everything is due
    sched.wake();
    sched.drain();
    std::stable_sort(keys.begin(), keys.end(),
                     [](const Key& a, const Key& b) { return a.start < b.start; });
    std::vector<int> timed, expected;
    for (const Key& k : keys)
        expected.push_back(k.id);
    const std::vector<int> order = runs.order();
    std::ranges::copy_if(order, std::back_inserter(timed), [](int id) { return id >= 0; });
    EXPECT_EQ(timed, expected);
    // The untimed posts ran first, newest first: the only worker was busy in the poster.
    ASSERT_GE(order.size(), 6u);
    EXPECT_EQ(std::vector<int>(order.begin(), order.begin() + 6),
              (std::vector<int>{-251, -201, -151, -101, -51, -1}));
}

// Shutdown(Cancel) while a job's posts wait on its worker's queue: each ends exactly once
// (run or cancelled) and the books balance.
TEST(SchedulerLocalPosts, CancelReachesJobsPostedFromAJob) {
    constexpr int kPosts = 1000;
    for (int rep = 0; rep < 5; ++rep) {
        Scheduler sched(workersOnly(1));
        std::vector<std::atomic<int>> runs(kPosts);
        std::atomic<bool> posted{false}, closed{false};
        sched.post([&] {
            for (int i = 0; i < kPosts; ++i)
                sched.postDetached([&runs, i] { runs[i].fetch_add(1); });
            posted = true;
            while (!closed.load())  // hold the worker until shutdown has begun
                std::this_thread::yield();
        });
        while (!posted.load())
            std::this_thread::yield();
        std::thread closer = testkit::probeUntilClosed(sched, closed);
        const ShutdownReport report = sched.shutdown(ShutdownMode::Cancel);
        closer.join();
        int ran = 0;
        for (int i = 0; i < kPosts; ++i) {
            ASSERT_LE(runs[i].load(), 1);
            ran += runs[i].load();
        }
        const Statistics s = sched.stats();
        EXPECT_TRUE(s.balanced());
        EXPECT_EQ(s.pending, 0u);
        EXPECT_GE(report.cancelled + static_cast<std::uint64_t>(ran), std::uint64_t{kPosts});
    }
}
