#pragma once
// Test helper: CPU sets as sorted lists (Linux).

#include <sched.h>

#include <vector>

namespace pullsched::test {

inline std::vector<int> cpusOf(const cpu_set_t& set) {
    std::vector<int> cpus;
    for (int c = 0; c < CPU_SETSIZE; ++c)
        if (CPU_ISSET(c, &set)) cpus.push_back(c);
    return cpus;
}

/// The CPUs the calling thread may run on (on the test's main thread: the process's).
inline std::vector<int> callingThreadCpus() {
    cpu_set_t set;
    CPU_ZERO(&set);
    sched_getaffinity(0, sizeof set, &set);
    return cpusOf(set);
}

}  // namespace pullsched::test
