#include "detail/ThreadAffinity.hpp"

#if defined(__linux__)
#include <sched.h>
#endif

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
#if defined(__linux__)
    cpu_set_t set;
    CPU_ZERO(&set);
    for (const int c : cpus)
        CPU_SET(c, &set);
    return sched_setaffinity(0, sizeof set, &set) == 0;
#else
    (void)cpus;
    return false;
#endif
}

}  // namespace pullsched::detail
