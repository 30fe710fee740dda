#pragma once
// What the adapters of the foreign backends (tbb, openmp, asio, pool) share: the
// backend's own copy of the graph, the node job body and the bookkeeping of one run.
// Each adapter only decides *when* runNode(i) is called; everything that is measured is
// done here, the same way for each of them.

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "backends/GraphRunner.hpp"
#include "pullsched/scheduler/Time.hpp"

namespace pullsched::rig {

class GraphJobs {
  public:
    /// How an adapter learns that a run is complete.
    enum class Completion {
        OwnWait,    ///< the backend's own wait returns when every job ended (oneTBB's
                    ///< wait_for_all, the end of an OpenMP region, pullsched's drain)
        CountDown,  ///< the adapter calls waitAll(), for backends without such a wait
    };

    /// Untimed. `waitInJob`: runNode() waits for the node's start time (adapters without a
    /// timed start). Throws std::invalid_argument for 0 workers, an uncalibrated load or a
    /// schedule of another size.
    void prepare(const testchain::TestChainGraph& graph, const BackendSetup& setup, bool waitInJob,
                 Completion completion);
    bool prepared() const noexcept { return prepared_; }

    /// Starts a run: clears hashes and records, anchor = now. Throws std::logic_error if
    /// not prepared.
    void beginRun();
    /// Moves the anchor to now: for an adapter that posts its graph behind a gate after
    /// beginRun(), called by the gate, before any node job can run.
    void restartClock() noexcept;
    /// The node job: (wait for the start,) load, calculate, record. Thread-safe for
    /// distinct nodes; a node's predecessors must have ended (happens-before) first.
    void runNode(std::uint32_t node) noexcept;
    /// Completion::CountDown only (std::logic_error otherwise): blocks until every node
    /// job ended once or the completion limit passed; true if all ended. Only the exit
    /// nodes count down: every node is an ancestor of an exit, and a node starts after its
    /// predecessors ended, so the last exit's end follows every job's. A counter written
    /// by every job costs each job a cache-line transfer whenever two threads run the
    /// graph (45 ns of a ~100 ns empty job, measured), so backends with a wait of their
    /// own (which counts in its own way) pay none, and the others only per exit.
    bool waitAll();
    /// The run's result. `timedOut`: some job may still run, so no job is read. A run that
    /// setup.stop cut short is `interrupted`, its jobs unread as well.
    BackendRun finish(bool timedOut);

    const testchain::TestChainGraph& graph() const noexcept { return graph_; }
    std::size_t size() const noexcept { return graph_.size(); }
    unsigned workers() const noexcept { return workers_; }
    bool scheduled() const noexcept { return scheduled_; }
    TimePoint anchor() const noexcept { return anchor_; }
    /// The node's start as a time point of this run (anchor + schedule offset).
    TimePoint startAt(std::uint32_t node) const noexcept { return anchor_ + start_[node]; }
    std::uint64_t expectedHash() const noexcept { return expectedHash_; }

  private:
    /// A node job's end: the countdown over the exits (Completion::CountDown).
    void endNode(std::uint32_t node) noexcept;

    bool prepared_ = false;
    testchain::TestChainGraph graph_{2, 1};
    std::optional<testchain::ComputationalLoad> load_;
    Duration timeBase_{0};
    unsigned workers_ = 0;
    bool waitInJob_ = false;
    bool countDown_ = false;
    bool scheduled_ = false;
    Duration completionLimit_{0};
    Duration lowerBound_{0};
    Duration expectedEnd_{0};
    std::uint64_t expectedHash_ = 0;
    std::vector<std::uint32_t> weight_;  ///< effective weight per node
    std::ptrdiff_t exits_ = 0;           ///< exit nodes, when counting down (waitAll)
    std::vector<Duration> start_;        ///< per node, offset from the anchor

    // Per run. Each job writes only its own node's slots.
    TimePoint anchor_{};
    std::unique_ptr<std::atomic<std::uint32_t>[]> executions_;
    /// What a node job notes of itself, in one place: one cache line of the rig's per job
    /// besides its execution count, not one per figure (each more line costs a transfer
    /// between the cores whenever neighbouring nodes run on two threads, and adds to every
    /// backend's cost).
    struct NodeRun {
        Duration began = testchain::JobTiming::kNotRun;
        Duration ended = testchain::JobTiming::kNotRun;
        Duration waited{0};
        std::thread::id ranBy;  ///< the thread that ran the job; {} if none
    };
    std::vector<NodeRun> runs_;
    std::atomic<std::ptrdiff_t> remaining_{0};  ///< exits still to end
    std::mutex mutex_;
    std::condition_variable doneCv_;
    bool done_ = false;  ///< guarded by mutex_
    testchain::StopPredicate stop_;
    std::atomic<bool> stopping_{false};  ///< the run was interrupted: skip what has not begun
    std::jthread watcher_;               ///< polls stop_ during a run
};

/// Waits until `t`: sleeps until shortly before, then spins (a sleep alone would wake
/// tens of microseconds late).
void waitUntil(TimePoint t) noexcept;

}  // namespace pullsched::rig
