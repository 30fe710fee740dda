// Shutdown racing posts from other threads: every post either throws std::logic_error or
// its job reaches a final state, and the accounting balances after every shutdown.
#include "pullsched/scheduler/Scheduler.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <thread>
#include <vector>

using namespace std::chrono_literals;
using namespace pullsched;

namespace {

struct RaceOutcome {
    std::size_t posted = 0;
    std::size_t unfinished = 0;  ///< handles whose job never reached a final state
    Statistics stats;
};

/// Posters post until post() throws; meanwhile shutdown() is called. The sleep only
/// places shutdown somewhere inside the posting; nothing asserts on time.
RaceOutcome raceShutdownAgainstPosts(ShutdownMode mode, unsigned posters, bool timed) {
    SchedulerConfig cfg;
    cfg.workers = 2;
    cfg.initialJobCapacity = 256;
    Scheduler sched(cfg);
    std::vector<std::vector<JobHandle>> handles(posters);
    std::atomic<unsigned> started{0};
    std::vector<std::thread> threads;
    for (unsigned p = 0; p < posters; ++p) {
        threads.emplace_back([&, p] {
            started.fetch_add(1);
            JobOptions o;
            try {
                for (std::uint64_t i = 0;; ++i) {
                    if (timed) o.start = sched.now() + std::chrono::microseconds(i % 50);
                    handles[p].push_back(sched.post([] {}, o));
                }
            } catch (const std::logic_error&) {
            }
        });
    }
    while (started.load() < posters)
        std::this_thread::yield();
    std::this_thread::sleep_for(1ms);
    sched.shutdown(mode);
    for (auto& t : threads)
        t.join();

    RaceOutcome r;
    r.stats = sched.stats();
    for (const auto& list : handles) {
        r.posted += list.size();
        for (const JobHandle& h : list)
            if (!h.done()) ++r.unfinished;
    }
    return r;
}

void expectEveryPostFinalised(ShutdownMode mode, unsigned posters, bool timed) {
    constexpr int kIterations = 60;
    for (int i = 0; i < kIterations; ++i) {
        const RaceOutcome r = raceShutdownAgainstPosts(mode, posters, timed);
        ASSERT_EQ(r.unfinished, 0u) << "iteration " << i << " of " << r.posted << " posts";
        ASSERT_EQ(r.stats.pending, 0u) << "iteration " << i;
        ASSERT_EQ(r.stats.submitted, r.posted) << "iteration " << i;
        ASSERT_EQ(r.stats.submitted,
                  r.stats.completed + r.stats.failed + r.stats.expired + r.stats.cancelled)
            << "iteration " << i;
        if (mode == ShutdownMode::Drain) {
            ASSERT_EQ(r.stats.completed, r.posted) << "Drain runs what it accepted";
        }
    }
}

}  // namespace

TEST(SchedulerShutdownRace, CancelFinalisesEveryAcceptedPost) {
    expectEveryPostFinalised(ShutdownMode::Cancel, 1, false);
}

TEST(SchedulerShutdownRace, DrainRunsEveryAcceptedPost) {
    expectEveryPostFinalised(ShutdownMode::Drain, 1, false);
}

TEST(SchedulerShutdownRace, ManyPostersWithTimedJobsBothModes) {
    expectEveryPostFinalised(ShutdownMode::Cancel, 3, true);
    expectEveryPostFinalised(ShutdownMode::Drain, 3, true);
}

TEST(SchedulerShutdownRace, PostAfterShutdownThrowsAndCountsNothing) {
    Scheduler sched;
    sched.shutdown(ShutdownMode::Drain);
    try {
        sched.post([] {});
        FAIL() << "expected std::logic_error";
    } catch (const std::logic_error& e) {
        EXPECT_STREQ(e.what(), "pullsched: post() after shutdown() began");
    }
    EXPECT_EQ(sched.stats().submitted, 0u);
    EXPECT_EQ(sched.stats().pending, 0u);
}
