// SchedulerConfig::spreadWorkers through the scheduler: two busy workers forced onto one
// CPU (each pins itself there from a job) do not stay there; one moves to another CPU and
// gets the process's whole CPU set back. A post to parked workers steers them off the
// poster's CPU, and each has the whole set again once it runs. Switched off, or with
// pinned workers, nobody moves and nobody is steered.
#include "pullsched/scheduler/Scheduler.hpp"

#include <gtest/gtest.h>

#if defined(__linux__)
#include <sched.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "CpuSets.hpp"

using namespace pullsched;

using pullsched::test::callingThreadCpus;

namespace {

/// Runs one job on each of the two workers at once (each waits for the other), calling
/// `onWorker` in both.
template <class F>
void onBothWorkers(Scheduler& sched, F onWorker) {
    std::atomic<int> arrived{0};
    for (int i = 0; i < 2; ++i) {
        sched.postDetached([&] {
            onWorker();
            arrived.fetch_add(1);
            while (arrived.load() < 2)
                std::this_thread::yield();
        });
    }
    sched.drain();
}

/// Both workers pinned to `cpu`, then batches of 2000 jobs of 2 us (4 ms of work each, so
/// both stay busy, sharing the CPU, well past CpuSpread's 500 us) until a worker moved or
/// `maxBatches` ran. Returns the moves, and the CPU sets the workers have afterwards.
std::uint64_t crowdOneCpu(Scheduler& sched, int cpu, int maxBatches,
                          std::vector<std::vector<int>>& setsAfter) {
    onBothWorkers(sched, [cpu] {
        cpu_set_t one;
        CPU_ZERO(&one);
        CPU_SET(cpu, &one);
        sched_setaffinity(0, sizeof one, &one);
    });
    const auto busy = [] {
        const auto t0 = std::chrono::steady_clock::now();
        while (std::chrono::steady_clock::now() - t0 < std::chrono::microseconds(2)) {
        }
    };
    for (int b = 0; b < maxBatches && sched.stats().spreadMoves == 0; ++b) {
        for (int i = 0; i < 2000; ++i)
            sched.postDetached(busy);
        sched.drain();
    }
    std::mutex m;
    setsAfter.clear();
    onBothWorkers(sched, [&] {
        std::vector<int> cpus = callingThreadCpus();
        std::lock_guard lock(m);
        setsAfter.push_back(std::move(cpus));
    });
    return sched.stats().spreadMoves;
}

/// Waits (untimed: as long as it takes) until both workers of an idle scheduler parked,
/// then posts one job from this thread and drains. Returns the steers that post made.
std::uint64_t postToParkedWorkers(Scheduler& sched) {
    while (sched.stats().parks < 2)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    std::this_thread::sleep_for(std::chrono::milliseconds(20));  // past parking()
    const std::uint64_t before = sched.stats().spreadSteers;
    sched.postDetached([] {});
    sched.drain();
    return sched.stats().spreadSteers - before;
}
}  // namespace

TEST(SchedulerSpread, TwoBusyWorkersOnOneCpuDoNotStayThere) {
    const std::vector<int> cpus = callingThreadCpus();
    if (cpus.size() < 2) GTEST_SKIP() << "needs two CPUs";
    SchedulerConfig cfg;
    cfg.helpWhileWaiting = false;  // the jobs look at the workers' CPUs
    cfg.workers = 2;
    Scheduler sched(cfg);
    std::vector<std::vector<int>> sets;
    // Bounded only so that a broken spread fails instead of hanging: one batch suffices.
    EXPECT_GE(crowdOneCpu(sched, cpus[0], 200, sets), 1u);
    ASSERT_EQ(sets.size(), 2u);
    EXPECT_TRUE(sets[0] == cpus || sets[1] == cpus)
        << "the worker that moved has the process's whole CPU set again";
}

TEST(SchedulerSpread, SwitchedOffOrPinnedNobodyMovesNorIsSteered) {
    const std::vector<int> cpus = callingThreadCpus();
    if (cpus.size() < 2) GTEST_SKIP() << "needs two CPUs";
    for (const bool pinned : {false, true}) {
        SchedulerConfig cfg;
        cfg.helpWhileWaiting = false;  // the jobs look at the workers' CPUs
        cfg.workers = 2;
        if (pinned) {
            cfg.pinWorkers = WorkerPinning::FirstCpus;
        } else {
            cfg.spreadWorkers = false;
        }
        Scheduler sched(cfg);
        EXPECT_EQ(postToParkedWorkers(sched), 0u) << (pinned ? "pinned" : "off");
        std::vector<std::vector<int>> sets;
        EXPECT_EQ(crowdOneCpu(sched, cpus[0], 3, sets), 0u) << (pinned ? "pinned" : "off");
        ASSERT_EQ(sets.size(), 2u);
        EXPECT_EQ(sets[0], std::vector<int>{cpus[0]}) << "still where the job put it";
        EXPECT_EQ(sets[1], std::vector<int>{cpus[0]});
    }
}

TEST(SchedulerSpread, APostSteersParkedWorkersAndTheyGetTheWholeSetBack) {
    const std::vector<int> cpus = callingThreadCpus();
    if (cpus.size() < 2) GTEST_SKIP() << "needs two CPUs";
    SchedulerConfig cfg;
    cfg.helpWhileWaiting = false;  // the jobs look at the workers' CPUs
    cfg.workers = 2;
    Scheduler sched(cfg);
    EXPECT_GE(postToParkedWorkers(sched), 1u) << "the poster kept the woken worker off its CPU";
    std::mutex m;
    std::vector<std::vector<int>> sets;
    onBothWorkers(sched, [&] {
        std::vector<int> mine = callingThreadCpus();
        std::lock_guard lock(m);
        sets.push_back(std::move(mine));
    });
    ASSERT_EQ(sets.size(), 2u);
    EXPECT_EQ(sets[0], cpus) << "a woken worker runs on the whole allowed set";
    EXPECT_EQ(sets[1], cpus);
}

#endif
