#pragma once
// Small helpers shared by the scheduler's tests: recording the order jobs ran in, and
// telling when shutdown() has closed the scheduler to other threads.

#include <atomic>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

#include "pullsched/scheduler/Scheduler.hpp"

namespace pullsched::testkit {

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
