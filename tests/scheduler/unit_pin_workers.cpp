// SchedulerConfig::pinWorkers: worker i runs on the i-th CPU the process may use, when the
// workers fit; otherwise (or when off) the workers keep the process's CPU set.
#include "pullsched/scheduler/Scheduler.hpp"

#include <gtest/gtest.h>

#if defined(__linux__)
#include <sched.h>

#include <atomic>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

using namespace pullsched;

namespace {
std::vector<int> cpusOf(const cpu_set_t& set) {
    std::vector<int> cpus;
    for (int c = 0; c < CPU_SETSIZE; ++c)
        if (CPU_ISSET(c, &set)) cpus.push_back(c);
    return cpus;
}

std::vector<int> processCpus() {
    cpu_set_t set;
    CPU_ZERO(&set);
    EXPECT_EQ(sched_getaffinity(0, sizeof set, &set), 0);
    return cpusOf(set);
}

/// The CPU sets the workers' threads have, as seen from jobs (enough jobs that each
/// worker runs some: a job that waits for all to have started).
std::set<std::vector<int>> workerCpuSets(unsigned workers, bool pin) {
    SchedulerConfig cfg;
    cfg.workers = workers;
    cfg.pinWorkers = pin;
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
}  // namespace

TEST(PinWorkers, EachWorkerGetsItsOwnCpuWhenTheyFit) {
    const std::vector<int> cpus = processCpus();
    const unsigned workers = static_cast<unsigned>(std::min<std::size_t>(cpus.size(), 2));
    const auto seen = workerCpuSets(workers, true);
    ASSERT_EQ(seen.size(), workers) << "every worker on a CPU set of its own";
    std::set<int> used;
    for (const auto& s : seen) {
        ASSERT_EQ(s.size(), 1u) << "a pinned worker may run on exactly one CPU";
        used.insert(s[0]);
    }
    for (unsigned i = 0; i < workers; ++i)
        EXPECT_TRUE(used.count(cpus[i])) << "the first CPUs the process may use, in order";
}

TEST(PinWorkers, OffOrTooManyWorkersLeaveTheProcessCpuSet) {
    const std::vector<int> cpus = processCpus();
    EXPECT_EQ(workerCpuSets(2, false), std::set<std::vector<int>>{cpus});
    const auto tooMany = static_cast<unsigned>(cpus.size() + 1);
    EXPECT_EQ(workerCpuSets(tooMany, true), std::set<std::vector<int>>{cpus});
}
#endif
