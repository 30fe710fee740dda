#include "detail/WorkForce.hpp"

#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "detail/ThreadAffinity.hpp"

#if defined(__linux__)
#include <pthread.h>
#include <sys/prctl.h>
#endif

namespace pullsched::detail {

void WorkForce::start(unsigned count, bool lowTimerSlack, WorkerPinning pinning,
                      std::function<void(unsigned)> body) {
    std::vector<int> cpus = pinning == WorkerPinning::None ? std::vector<int>{} : processCpus();
    const bool fits =
        pinning == WorkerPinning::OnePerCpu ? cpus.size() == count : cpus.size() >= count;
    if (!fits) cpus.clear();  // let the OS place them
    threads_.reserve(count);
    for (unsigned i = 0; i < count; ++i) {
        const int cpu = cpus.empty() ? -1 : cpus[i];
        std::function<void()> run = [i, lowTimerSlack, cpu, body] {
#if defined(__linux__)
            if (lowTimerSlack) prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0);
            if (cpu >= 0) bindCallingThread({&cpu, 1});  // best effort
            const std::string name = "pullsched-w" + std::to_string(i);
            pthread_setname_np(pthread_self(), name.c_str());
#else
            (void)lowTimerSlack;
            (void)cpu;
#endif
            body(i);
        };
        try {
            // Reserved above: the push cannot throw and drop a running thread.
            threads_.push_back(starter_ ? starter_(i, std::move(run))
                                        : std::thread(std::move(run)));
        } catch (const std::system_error& e) {
            throw std::system_error(e.code(), "pullsched: could not start worker thread " +
                                                  std::to_string(i + 1) + " of " +
                                                  std::to_string(count) + " (" + std::to_string(i) +
                                                  " started)");
        }
    }
}

void WorkForce::join() {
    for (std::thread& t : threads_) {
        if (t.joinable()) t.join();
    }
    threads_.clear();
}

}  // namespace pullsched::detail
