#pragma once
// The worker threads. Only lifetime and thread set-up live here; what a worker does is
// SchedulerCore::workerLoop.

#include <functional>
#include <thread>
#include <utility>
#include <vector>

#include "pullsched/scheduler/Config.hpp"

namespace pullsched::detail {

class WorkForce {
  public:
    /// Starts one thread running `run`; empty means std::thread. Per instance, so a test
    /// can make the n-th start fail without touching anything process-wide.
    using ThreadStarter = std::function<std::thread(unsigned index, std::function<void()> run)>;

    explicit WorkForce(ThreadStarter starter = {}) : starter_(std::move(starter)) {}
    WorkForce(const WorkForce&) = delete;
    WorkForce& operator=(const WorkForce&) = delete;
    ~WorkForce() { join(); }

    /// Start `count` threads running body(index). With lowTimerSlack, each thread asks the
    /// OS for 1 us timer slack (Linux), since the default 50 us makes every sleep late.
    /// Pinning binds thread i to the i-th CPU the process may use, when the policy allows
    /// for this count (see WorkerPinning).
    /// When a thread cannot be created, throws std::system_error saying how many started;
    /// those keep running (size() counts them) until the caller stops and join()s them.
    void start(unsigned count, bool lowTimerSlack, WorkerPinning pinning,
               std::function<void(unsigned)> body);
    void join();
    unsigned size() const noexcept { return static_cast<unsigned>(threads_.size()); }

  private:
    ThreadStarter starter_;
    std::vector<std::thread> threads_;
};

}  // namespace pullsched::detail
