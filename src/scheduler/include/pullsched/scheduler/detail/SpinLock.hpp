#pragma once
// A test-and-test-and-set lock for critical sections of a few instructions (a job's
// successor list), where a mutex's syscall path would cost more than the work.

#include <atomic>
#include <thread>

#include "pullsched/scheduler/detail/CpuRelax.hpp"

namespace pullsched::detail {

class SpinLock {
  public:
    void lock() noexcept {
        for (unsigned spins = 0;; ++spins) {
            if (!locked_.exchange(true, std::memory_order_acquire)) return;
            while (locked_.load(std::memory_order_relaxed)) {
                // 64 pauses (~2 us here) are far longer than the critical sections this
                // lock guards (a few instructions): a holder still inside after them was
                // preempted. An argument; not tuned.
                if (++spins > 64) {
                    std::this_thread::yield();  // holder was preempted; let it run
                    spins = 0;
                } else {
                    cpuRelax();
                }
            }
        }
    }
    bool try_lock() noexcept {
        return !locked_.load(std::memory_order_relaxed) &&
               !locked_.exchange(true, std::memory_order_acquire);
    }
    void unlock() noexcept { locked_.store(false, std::memory_order_release); }

  private:
    std::atomic<bool> locked_{false};
};

}  // namespace pullsched::detail
