#include "detail/WorkForce.hpp"

#include <string>

#if defined(__linux__)
#include <pthread.h>
#include <sys/prctl.h>
#endif

namespace pullsched::detail {

void WorkForce::start(unsigned count, bool lowTimerSlack, std::function<void(unsigned)> body) {
    threads_.reserve(count);
    for (unsigned i = 0; i < count; ++i) {
        threads_.emplace_back([i, lowTimerSlack, body] {
#if defined(__linux__)
            if (lowTimerSlack) prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0);
            const std::string name = "pullsched-w" + std::to_string(i);
            pthread_setname_np(pthread_self(), name.c_str());
#else
            (void)lowTimerSlack;
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
