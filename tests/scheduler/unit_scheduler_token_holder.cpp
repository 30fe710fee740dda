// The grooming-token holder never waits for a lock: it collects the due jobs, drops the
// token, and only then hands them out. Every queue lock counts a wait by the token holder
// (Statistics::tokenHolderWaits); this load makes those locks as contended as we can.
#include "pullsched/scheduler/Scheduler.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

using namespace std::chrono_literals;
using namespace pullsched;

TEST(SchedulerTokenHolder, NeverWaitsForAQueueLockUnderContention) {
    SchedulerConfig cfg;
    cfg.workers = 8;  // more workers than cores: lock holders get preempted
    Scheduler sched(cfg);
    constexpr int kPosters = 3, kRounds = 200, kPerRound = 4000;
    std::atomic<std::uint64_t> ran{0};
    std::vector<std::thread> posters;
    for (int p = 0; p < kPosters; ++p) {
        posters.emplace_back([&, p] {
            for (int r = 0; r < kRounds; ++r) {
                // A batch that becomes due at once (the token holder hands all of it out)
                // beside a stream of untimed jobs through the same ready queue.
                const TimePoint start = sched.now() + 200us;
                for (int i = 0; i < kPerRound; ++i) {
                    JobOptions o;
                    if ((i + p) % 2 == 0) o.start = start;
                    sched.postDetached([&] { ran.fetch_add(1, std::memory_order_relaxed); }, o);
                }
            }
        });
    }
    for (auto& t : posters)
        t.join();
    sched.drain();
    const Statistics s = sched.stats();
    EXPECT_EQ(ran.load(), std::uint64_t{kPosters} * kRounds * kPerRound);
    EXPECT_EQ(s.tokenHolderWaits, 0u);
}
