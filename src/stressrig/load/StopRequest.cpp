#include "load/StopRequest.hpp"

#include <csignal>
#include <thread>

#include "pullsched/scheduler/Time.hpp"

namespace pullsched::rig {

namespace {

// Written only by the signal handler (async-signal-safe: a lock-free atomic store).
std::atomic<int> signalled{0};
static_assert(std::atomic<int>::is_always_lock_free);

extern "C" void onStopSignal(int sig) {
    signalled.store(sig, std::memory_order_relaxed);
}

}  // namespace

void StopRequest::watchSignals() {
    struct sigaction sa {};
    sa.sa_handler = &onStopSignal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESETHAND;  // a second Ctrl-C ends the process at once
    sigaction(SIGINT, &sa, nullptr);
    sigaction(SIGTERM, &sa, nullptr);
    watching_ = true;
}

int StopRequest::signal() const noexcept {
    if (watching_)
        if (const int s = signalled.load(std::memory_order_relaxed)) return s;
    return local_.load(std::memory_order_relaxed);
}

int StopRequest::exitCode() const noexcept {
    const int s = signal();
    return s > 0 ? 128 + s : 0;
}

bool StopRequest::sleepFor(std::chrono::nanoseconds d) const {
    using namespace std::chrono;
    // Saturated: sleepFor(nanoseconds::max()) waits for the stop, it does not return at once.
    const auto end = pullsched::saturatingAdd(steady_clock::now(), d);
    while (!requested()) {
        const auto now = steady_clock::now();
        if (now >= end) return false;
        std::this_thread::sleep_for(std::min<nanoseconds>(end - now, milliseconds{50}));
    }
    return true;
}

}  // namespace pullsched::rig
