// Posts a few jobs, one depending on the others, and a Task that awaits a job; checks
// that they all ran.
#include <pullsched/scheduler/Scheduler.hpp>

#include <atomic>
#include <cstdio>

namespace {
pullsched::Task<int> twice(pullsched::Scheduler& s, int v) {
    co_return 2 * co_await s.post([v] { return v; });
}
}  // namespace

int main() {
    pullsched::Scheduler sched({.workers = 2});
    std::atomic<int> ran{0};
    auto a = sched.post([&] { ran.fetch_add(1); });
    auto b = sched.post([&] { ran.fetch_add(1); }, {.start = sched.now()});
    auto c = sched.post([&] { ran.fetch_add(1); }, {}, {a, b});
    const int doubled = sched.spawn(twice(sched, 21)).get();
    sched.drain();
    const bool ok = ran.load() == 3 && c.state() == pullsched::JobState::Completed &&
                    doubled == 42 && sched.stats().balanced();
    std::printf("pullsched %s: %d jobs ran, %s\n", pullsched::Scheduler::version().data(),
                ran.load(), ok ? "ok" : "FAILED");
    return ok ? 0 : 1;
}
