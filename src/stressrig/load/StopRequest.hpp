#pragma once
// Ctrl-C and SIGTERM as a request to stop: long runs poll it, stop within a second, and
// the reporter writes what was measured, marked partial.

#include <atomic>
#include <chrono>
#include <cstddef>

#include "pullsched/testchain/StopCheck.hpp"

namespace pullsched::rig {

/// A request to stop a run early. Modes poll requested() in their loops (and wait
/// through sleepFor(), which wakes early), so a stop takes effect within ~100 ms.
///
/// watchSignals() installs SIGINT/SIGTERM handlers with SA_RESETHAND: the first signal
/// asks for a clean stop, a second one ends the process the ordinary way. The handler
/// can only reach a process-wide flag; that flag is the rig's one piece of global
/// state, written by the handler alone.
class StopRequest {
  public:
    StopRequest() = default;
    StopRequest(const StopRequest&) = delete;
    StopRequest& operator=(const StopRequest&) = delete;

    /// Route SIGINT / SIGTERM into this request (main only).
    void watchSignals();
    /// Ask for a stop without a signal (tests, a mode's own time limit). sig is the
    /// signal to report (SIGINT or SIGTERM), or 0 for none.
    void request(int sig = 0) noexcept { local_.store(sig ? sig : -1, std::memory_order_relaxed); }

    bool requested() const noexcept { return signal() != 0; }
    /// The signal that asked to stop (SIGINT, SIGTERM), -1 for request(0), 0 for none.
    int signal() const noexcept;
    /// 130 for SIGINT, 143 for SIGTERM (128 + signal), 0 without a signal.
    int exitCode() const noexcept;
    /// Sleeps `d` in slices of at most 50 ms; true if a stop was requested meanwhile.
    bool sleepFor(std::chrono::nanoseconds d) const;
    /// requested() as the predicate testchain's long work polls (graph generation, runs).
    /// The request must outlive it.
    testchain::StopPredicate predicate() const {
        return [this] { return requested(); };
    }

    /// What a stopped run still makes and writes of work that grows with the graph (per-job
    /// tables, their pictures, the DOT graph): tables up to this many rows (jobs), files up
    /// to this many bytes. Beyond, it is left out with a note: a stop asks for the end
    /// within a second, and a stopped run writes what it measured.
    static constexpr std::size_t kStoppedRunRows = 100'000;
    static constexpr std::size_t kStoppedRunBytes = std::size_t{8} << 20;

    /// predicate() for work of `rows` rows or jobs that is dropped on a stop; none (never
    /// stops) within kStoppedRunRows, where finishing costs less than stopping would save.
    testchain::StopPredicate predicateBeyond(std::size_t rows) const {
        if (rows <= kStoppedRunRows) return {};
        return predicate();
    }

  private:
    std::atomic<int> local_{0};
    bool watching_ = false;
};

}  // namespace pullsched::rig
