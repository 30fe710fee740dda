#include "detail/ThreadAffinity.hpp"

#include <algorithm>
#include <thread>

#include "pullsched/scheduler/Config.hpp"

#if defined(__linux__)
#include <sched.h>
#include <unistd.h>
#endif

namespace pullsched {

std::size_t defaultWorkerCount() noexcept {
    std::size_t cpus = 0;
#if defined(__linux__)
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) == 0)
        cpus = static_cast<std::size_t>(CPU_COUNT(&set));
#endif
    if (cpus == 0) cpus = std::thread::hardware_concurrency();
    if (cpus == 0) cpus = 2;  // unknown: the caller and one worker
    return std::max<std::size_t>(1, cpus - 1);
}

}  // namespace pullsched

namespace pullsched::detail {

std::vector<int> processCpus() {
    std::vector<int> cpus;
#if defined(__linux__)
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) == 0) {
        for (int c = 0; c < CPU_SETSIZE; ++c)
            if (CPU_ISSET(c, &set)) cpus.push_back(c);
    }
#endif
    return cpus;
}

bool bindCallingThread(std::span<const int> cpus) noexcept {
    return bindThread(0, cpus);
}

bool bindThread(int tid, std::span<const int> cpus, int except) noexcept {
#if defined(__linux__)
    cpu_set_t set;
    CPU_ZERO(&set);
    bool any = false;
    for (const int c : cpus) {
        if (c == except || c < 0 || c >= CPU_SETSIZE) continue;
        CPU_SET(c, &set);
        any = true;
    }
    return any && sched_setaffinity(tid, sizeof set, &set) == 0;
#else
    (void)tid;
    (void)cpus;
    (void)except;
    return false;
#endif
}

int currentThreadId() noexcept {
#if defined(__linux__)
    return static_cast<int>(gettid());
#else
    return 0;
#endif
}

}  // namespace pullsched::detail
