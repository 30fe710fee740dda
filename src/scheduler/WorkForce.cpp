#include "detail/WorkForce.hpp"

#include <string>
#include <vector>

#if defined(__linux__)
#include <pthread.h>
#include <sched.h>
#include <sys/prctl.h>
#endif

namespace pullsched::detail {

namespace {
/// The CPUs this process may run on, in order (empty where unknown).
std::vector<int> allowedCpus() {
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
}  // namespace

void WorkForce::start(unsigned count, bool lowTimerSlack, WorkerPinning pinning,
                      std::function<void(unsigned)> body) {
    std::vector<int> cpus = pinning == WorkerPinning::None ? std::vector<int>{} : allowedCpus();
    const bool fits =
        pinning == WorkerPinning::OnePerCpu ? cpus.size() == count : cpus.size() >= count;
    if (!fits) cpus.clear();  // let the OS place them
    threads_.reserve(count);
    for (unsigned i = 0; i < count; ++i) {
        const int cpu = cpus.empty() ? -1 : cpus[i];
        threads_.emplace_back([i, lowTimerSlack, cpu, body] {
#if defined(__linux__)
            if (lowTimerSlack) prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0);
            if (cpu >= 0) {
                cpu_set_t one;
                CPU_ZERO(&one);
                CPU_SET(cpu, &one);
                pthread_setaffinity_np(pthread_self(), sizeof one, &one);  // best effort
            }
            const std::string name = "pullsched-w" + std::to_string(i);
            pthread_setname_np(pthread_self(), name.c_str());
#else
            (void)lowTimerSlack;
            (void)cpu;
#endif
            body(i);
        });
    }
}

void WorkForce::join() {
    for (std::thread& t : threads_) {
        if (t.joinable()) t.join();
    }
    threads_.clear();
}

}  // namespace pullsched::detail
