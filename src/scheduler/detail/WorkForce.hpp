#pragma once
// The worker threads. Only lifetime and thread set-up live here; what a worker does is
// SchedulerCore::workerLoop.

#include <functional>
#include <thread>
#include <vector>

namespace pullsched::detail {

class WorkForce {
  public:
    WorkForce() = default;
    WorkForce(const WorkForce&) = delete;
    WorkForce& operator=(const WorkForce&) = delete;
    ~WorkForce() { join(); }

    /// Start `count` threads running body(index). With lowTimerSlack, each thread asks the
    /// OS for 1 us timer slack (Linux), since the default 50 us makes every sleep late.
    /// With pin, thread i is bound to the i-th CPU the process may use, if count does not
    /// exceed their number (see SchedulerConfig::pinWorkers).
    void start(unsigned count, bool lowTimerSlack, bool pin, std::function<void(unsigned)> body);
    void join();
    unsigned size() const noexcept { return static_cast<unsigned>(threads_.size()); }

  private:
    std::vector<std::thread> threads_;
};

}  // namespace pullsched::detail
