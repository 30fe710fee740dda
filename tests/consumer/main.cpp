// Posts a few jobs, one depending on the others, and checks that they all ran.
#include <pullsched/scheduler/Scheduler.hpp>

#include <atomic>
#include <cstdio>

int main() {
    pullsched::Scheduler sched({.workers = 2});
    std::atomic<int> ran{0};
    auto a = sched.post([&] { ran.fetch_add(1); });
    auto b = sched.post([&] { ran.fetch_add(1); }, {.start = sched.now()});
    auto c = sched.post([&] { ran.fetch_add(1); }, {}, {a, b});
    sched.drain();
    const bool ok =
        ran.load() == 3 && c.state() == pullsched::JobState::Completed && sched.stats().balanced();
    std::printf("pullsched %s: %d jobs ran, %s\n", pullsched::Scheduler::version().data(),
                ran.load(), ok ? "ok" : "FAILED");
    return ok ? 0 : 1;
}
