// cancel() against a worker starting the job, 10^5 randomized trials: every job either
// ran or was cancelled, never both and never neither, cancel() said which, and the
// accounting balances. Jobs are untimed, due-timed or behind a predecessor; the canceller
// waits a random number of yields first, so the race falls at every stage of a job's path.
#include "pullsched/scheduler/Scheduler.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <random>
#include <thread>
#include <vector>

using namespace pullsched;

TEST(SchedulerCancelRace, EveryJobRunsOrIsCancelledExactlyOnce) {
    constexpr int kBatches = 100;
    constexpr int kPerBatch = 1000;
    Scheduler sched({.workers = 2});
    std::mt19937 rng(20261126);
    std::uint64_t cancelledTotal = 0, ranTotal = 0;
    for (int batch = 0; batch < kBatches; ++batch) {
        auto ran = std::make_unique<std::atomic<int>[]>(kPerBatch);
        std::vector<JobHandle> jobs(kPerBatch);
        std::vector<int> delays(kPerBatch);
        for (int& d : delays)
            d = static_cast<int>(rng() % 4);
        std::vector<char> said(kPerBatch);
        std::atomic<int> posted{0};
        // Cancels each job as soon as it is posted, while the workers may be starting it.
        std::thread canceller([&] {
            for (int i = 0; i < kPerBatch; ++i) {
                while (posted.load(std::memory_order_acquire) <= i)
                    std::this_thread::yield();
                for (int d = 0; d < delays[i]; ++d)
                    std::this_thread::yield();
                said[i] = sched.cancel(jobs[i]) ? 1 : 0;
            }
        });
        for (int i = 0; i < kPerBatch; ++i) {
            auto work = [&ran, i] { ran[i].fetch_add(1, std::memory_order_relaxed); };
            switch (rng() % 3) {
                case 0:
                    jobs[i] = sched.post(work);
                    break;
                case 1:
                    jobs[i] = sched.post(work, {.start = sched.now()});
                    break;
                default:
                    jobs[i] = sched.post(work, {}, {sched.post([] {})});
            }
            posted.store(i + 1, std::memory_order_release);
        }
        canceller.join();
        sched.wait(jobs);
        for (int i = 0; i < kPerBatch; ++i) {
            const int r = ran[i].load();
            const JobState s = jobs[i].state();
            ASSERT_EQ(r + said[i], 1) << "batch " << batch << " job " << i;
            ASSERT_EQ(s, said[i] ? JobState::Cancelled : JobState::Completed);
            cancelledTotal += static_cast<std::uint64_t>(said[i]);
            ranTotal += static_cast<std::uint64_t>(r);
        }
    }
    sched.drain();
    const Statistics s = sched.stats();
    EXPECT_EQ(s.submitted, s.completed + s.failed + s.expired + s.cancelled + s.pending);
    EXPECT_EQ(s.pending, 0u);
    EXPECT_EQ(s.cancelled, cancelledTotal);
    EXPECT_EQ(ranTotal + cancelledTotal, std::uint64_t{kBatches} * kPerBatch);
    // Both sides of the race happened (a run of 10^5 trials that never raced tests nothing).
    EXPECT_GT(cancelledTotal, 0u);
    EXPECT_GT(ranTotal, 0u);
    std::printf("cancelled %llu of %d\n", static_cast<unsigned long long>(cancelledTotal),
                kBatches * kPerBatch);
}
