// Volume: millions of jobs of every kind through one scheduler, with more workers than
// cores and several posting threads. Asserts correctness only (exactly once, order,
// accounting); `make stress` runs it, `make test` does not (it takes tens of seconds).
#include "pullsched/scheduler/Scheduler.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <random>
#include <thread>
#include <vector>

using namespace std::chrono_literals;
using namespace pullsched;

TEST(SchedulerVolume, MillionsOfMixedJobsRunExactlyOnceAndBalance) {
    constexpr int kPosters = 3, kRounds = 200, kPerRound = 16000;
    SchedulerConfig cfg;
    cfg.workers = 6;
    Scheduler sched(cfg);
    std::atomic<std::uint64_t> ran{0}, orderViolations{0};
    std::vector<std::thread> posters;
    for (int p = 0; p < kPosters; ++p) {
        posters.emplace_back([&, p] {
            std::mt19937_64 rng(1000 + p);
            std::vector<JobHandle> recent;
            for (int r = 0; r < kRounds; ++r) {
                for (int i = 0; i < kPerRound; ++i) {
                    const unsigned kind = rng() % 4;
                    if (kind == 0 || recent.empty()) {  // independent, sometimes timed
                        JobOptions o;
                        if (rng() % 8 == 0)
                            o.start = sched.now() + std::chrono::microseconds(rng() % 500);
                        recent.push_back(
                            sched.post([&] { ran.fetch_add(1, std::memory_order_relaxed); }, o));
                    } else {  // depends on up to three recent jobs, which must have completed
                        std::vector<JobHandle> preds;
                        for (unsigned k = 0, n = 1 + rng() % 3; k < n; ++k)
                            preds.push_back(recent[rng() % recent.size()]);
                        auto check = preds;
                        recent.push_back(sched.post(
                            [&, check] {
                                for (const JobHandle& h : check)
                                    if (h.state() != JobState::Completed)
                                        orderViolations.fetch_add(1);
                                ran.fetch_add(1, std::memory_order_relaxed);
                            },
                            {}, preds));
                    }
                    if (recent.size() > 64) recent.erase(recent.begin(), recent.begin() + 32);
                }
                ASSERT_TRUE(sched.drainFor(120s)) << "poster " << p << " round " << r;
            }
        });
    }
    for (auto& t : posters)
        t.join();
    sched.drain();
    const Statistics s = sched.stats();
    const std::uint64_t total = std::uint64_t{kPosters} * kRounds * kPerRound;
    EXPECT_EQ(s.submitted, total);
    EXPECT_EQ(s.completed, total);
    EXPECT_EQ(ran.load(), total);
    EXPECT_EQ(orderViolations.load(), 0u);
    EXPECT_TRUE(s.balanced());
    EXPECT_EQ(s.pending, 0u);
}
