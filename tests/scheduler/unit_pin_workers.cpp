// SchedulerConfig::pinWorkers: worker i runs on the i-th CPU the process may use when the
// policy allows for the worker count (OnePerCpu: exactly as many workers as CPUs;
// FirstCpus: when they fit); otherwise, or with None, the workers keep the process's set.
#include "pullsched/scheduler/Scheduler.hpp"

#include <gtest/gtest.h>

#if defined(__linux__)
#include <sched.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "CpuSets.hpp"

using namespace pullsched;

using pullsched::test::cpusOf;

namespace {

std::vector<int> processCpus() {
    cpu_set_t set;
    CPU_ZERO(&set);
    EXPECT_EQ(sched_getaffinity(0, sizeof set, &set), 0);
    return cpusOf(set);
}

/// The CPU sets the workers' threads have, as seen from jobs (enough jobs that each
/// worker runs some: a job that waits for all to have started).
std::set<std::vector<int>> workerCpuSets(unsigned workers, WorkerPinning pin) {
    SchedulerConfig cfg;
    cfg.workers = workers;
    cfg.pinWorkers = pin;
    cfg.helpWhileWaiting = false;  // the jobs look at the workers' CPUs
    Scheduler sched(cfg);
    std::mutex m;
    std::set<std::vector<int>> seen;
    std::atomic<unsigned> arrived{0};
    for (unsigned i = 0; i < workers; ++i) {
        sched.postDetached([&] {
            cpu_set_t set;
            CPU_ZERO(&set);
            sched_getaffinity(0, sizeof set, &set);
            {
                std::lock_guard lock(m);
                seen.insert(cpusOf(set));
            }
            // Hold this worker until every job started, so each job runs on its own worker.
            arrived.fetch_add(1);
            while (arrived.load() < workers)
                std::this_thread::yield();
        });
    }
    sched.drain();
    return seen;
}

/// Every worker on a CPU of its own, the first `workers` CPUs of the process, in order.
void expectPinned(const std::set<std::vector<int>>& seen, unsigned workers,
                  const std::vector<int>& cpus) {
    ASSERT_EQ(seen.size(), workers) << "every worker on a CPU set of its own";
    std::set<int> used;
    for (const auto& s : seen) {
        ASSERT_EQ(s.size(), 1u) << "a pinned worker may run on exactly one CPU";
        used.insert(s[0]);
    }
    for (unsigned i = 0; i < workers; ++i)
        EXPECT_TRUE(used.count(cpus[i])) << "the first CPUs the process may use, in order";
}
}  // namespace

TEST(PinWorkers, FirstCpusPinsWhenTheWorkersFit) {
    const std::vector<int> cpus = processCpus();
    const unsigned workers = static_cast<unsigned>(std::min<std::size_t>(cpus.size(), 2));
    expectPinned(workerCpuSets(workers, WorkerPinning::FirstCpus), workers, cpus);
    const auto tooMany = static_cast<unsigned>(cpus.size() + 1);
    EXPECT_EQ(workerCpuSets(tooMany, WorkerPinning::FirstCpus), std::set<std::vector<int>>{cpus});
}

TEST(PinWorkers, OnePerCpuPinsOnlyWhenTheCountsMatch) {
    const std::vector<int> cpus = processCpus();
    const auto all = static_cast<unsigned>(cpus.size());
    expectPinned(workerCpuSets(all, WorkerPinning::OnePerCpu), all, cpus);
    EXPECT_EQ(workerCpuSets(all + 1, WorkerPinning::OnePerCpu), std::set<std::vector<int>>{cpus});
    if (all > 1) {
        EXPECT_EQ(workerCpuSets(all - 1, WorkerPinning::OnePerCpu),
                  std::set<std::vector<int>>{cpus});
    }
}

/// The default worker count counts the thread that waits in drain(): one per CPU the
/// thread may use, less one, at least one. Asked on threads limited to 1, 2 and all CPUs.
TEST(DefaultWorkers, OnePerCpuLessTheCaller) {
    const std::vector<int> cpus = processCpus();
    const auto countOn = [](std::vector<int> allowed) {
        std::size_t count = 0, configured = 0;
        std::thread([&] {
            cpu_set_t set;
            CPU_ZERO(&set);
            for (const int c : allowed)
                CPU_SET(c, &set);
            ASSERT_EQ(sched_setaffinity(0, sizeof set, &set), 0);
            count = defaultWorkerCount();
            configured = SchedulerConfig{}.workers;
        }).join();
        EXPECT_EQ(configured, count) << "SchedulerConfig's default";
        return count;
    };
    EXPECT_EQ(countOn({cpus[0]}), 1U) << "one CPU: still one worker";
    if (cpus.size() >= 2) {
        EXPECT_EQ(countOn({cpus[0], cpus[1]}), 1U) << "two: one + the caller";
    }
    if (cpus.size() >= 3) {
        EXPECT_EQ(countOn({cpus[0], cpus[1], cpus[2]}), 2U);
    }
    EXPECT_EQ(countOn(cpus), std::max<std::size_t>(1, cpus.size() - 1));
}

TEST(PinWorkers, NoneLeavesTheProcessCpuSet) {
    const std::vector<int> cpus = processCpus();
    EXPECT_EQ(SchedulerConfig{}.pinWorkers, WorkerPinning::None) << "the default";
    EXPECT_EQ(workerCpuSets(static_cast<unsigned>(cpus.size()), WorkerPinning::None),
              std::set<std::vector<int>>{cpus});
}
#endif
