#pragma once
// Small helpers shared by the scheduler's tests: recording the order jobs ran in, holding
// the workers inside jobs, and telling when shutdown() has closed the scheduler to other
// threads.

#include <atomic>
#include <chrono>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "pullsched/scheduler/Scheduler.hpp"

namespace pullsched::testkit {

/// `workers` workers, optionally on an injected clock; everything else the default.
inline SchedulerConfig withWorkers(unsigned workers, const ClockSource* clock = nullptr) {
    SchedulerConfig cfg;
    cfg.workers = workers;
    cfg.clock = clock;
    return cfg;
}

/// The ledger's invariant, for the scheduler's Statistics and a group's alike.
template <class Ledger>
void expectBalanced(const Ledger& s) {
    EXPECT_EQ(s.submitted, s.completed + s.failed + s.expired + s.cancelled + s.pending);
}

/// The ids of the jobs that ran, in the order they ran.
class RunOrder {
  public:
    auto recorder(int id) {
        return [this, id] { add(id); };
    }
    void add(int id) {
        std::lock_guard lock(mutex_);
        order_.push_back(id);
    }
    std::vector<int> order() {
        std::lock_guard lock(mutex_);
        return order_;
    }

  private:
    std::mutex mutex_;
    std::vector<int> order_;
};

/// Holds every worker inside a job until release(); the jobs count as posted work.
class HeldWorkers {
  public:
    HeldWorkers(Scheduler& sched, unsigned workers) {
        for (unsigned i = 0; i < workers; ++i)
            sched.postDetached([this] {
                running_.fetch_add(1);
                while (!released_.load())
                    std::this_thread::yield();
            });
        while (running_.load() < workers)
            std::this_thread::yield();
    }
    void release() { released_.store(true); }
    /// drain() with a bound that only turns a hang into a failure (nobody ran the job that
    /// releases the workers); releases them either way, so the scheduler can shut down.
    bool drained(Scheduler& sched) {
        const bool done = sched.drainFor(std::chrono::seconds(60));
        release();
        return done;
    }

  private:
    std::atomic<unsigned> running_{0};
    std::atomic<bool> released_{false};
};

/// A thread that posts empty jobs from outside until the scheduler refuses them (shutdown()
/// has begun), then sets `closed`. Join it after shutdown().
inline std::thread probeUntilClosed(Scheduler& sched, std::atomic<bool>& closed) {
    return std::thread([&sched, &closed] {
        while (true) {
            try {
                sched.post([] {});
            } catch (const std::logic_error&) {
                closed = true;
                return;
            }
            std::this_thread::yield();
        }
    });
}

}  // namespace pullsched::testkit
