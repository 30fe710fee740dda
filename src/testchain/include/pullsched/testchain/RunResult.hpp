#pragma once
// What one scheduled run of a TestChainGraph produced (see ScheduleRunner.hpp).

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "pullsched/scheduler/JobState.hpp"
#include "pullsched/scheduler/Statistics.hpp"
#include "pullsched/scheduler/Time.hpp"
#include "pullsched/testchain/Duration.hpp"

namespace pullsched::testchain {

/// Times of one node job, as offsets from the run's anchor (scheduler clock).
struct JobTiming {
    /// actualStart / end of a job whose body never ran (expired, cancelled, not posted).
    static constexpr Duration kNotRun = Duration::min();

    std::uint32_t node = 0;
    std::uint32_t level = 0;
    std::uint32_t weight = 0;        ///< effective weight (after the WeightPolicy)
    Duration scheduledStart{0};      ///< schedule.nodeStart(node)
    Duration actualStart = kNotRun;  ///< first thing the job body did
    Duration end = kNotRun;          ///< last thing the job body did (after calculate)
    /// Final state; meaningless (Cancelled) if !posted.
    JobState state = JobState::Cancelled;
    bool posted = false;     ///< false only for a node skipped by the fault hook
    std::uint8_t posts = 0;  ///< how often the planning posted it (1 unless broken)

    bool ran() const noexcept { return actualStart != kNotRun; }
    /// actualStart − scheduledStart (≥ 0 for a correct scheduler). Only if ran().
    Duration lateness() const noexcept { return actualStart - scheduledStart; }
    Duration runTime() const noexcept { return end - actualStart; }  ///< only if ran()
};

/// Counter differences after − before; gauges (pending, queueDepth, maxQueueDepth) are
/// the "after" values. On a scheduler shared with other work, that work is included.
Statistics statsDelta(const Statistics& after, const Statistics& before) noexcept;

struct RunResult {
    // --- verdict -------------------------------------------------------------
    /// Every exit node completed within the limit (failed/expired/cancelled jobs make it
    /// false, since some exit then never completes).
    bool completed = false;
    bool timedOut = false;  ///< the completion limit passed (the runner is then unusable)
    /// A stop request cut the run short: no job state was read, no figure is complete
    /// (the runner is then unusable).
    bool interrupted = false;
    bool hashOk = false;  ///< actualHash == expectedHash
    /// completed && hashOk && no failed/expired/cancelled job.
    bool ok() const noexcept {
        return completed && hashOk && failed == 0 && expired == 0 && cancelled == 0;
    }
    std::string error;  ///< why not completed (planning error, timeout), else empty

    std::uint64_t expectedHash = 0;  ///< single-threaded recomputation (recalculate())
    std::uint64_t actualHash = 0;    ///< graphHash() after the run

    // --- times ---------------------------------------------------------------
    TimePoint anchor{};  ///< schedule start (scheduler clock); all offsets are from here
    /// anchor → end of the last exit job (0 if no exit completed).
    Duration runTime{0};
    Duration expectedEnd{0};  ///< schedule.expectedEnd()
    /// max(work / workers, critical path) for the scheduler's worker count.
    Duration lowerBound{0};
    unsigned workers = 0;

    // --- counts --------------------------------------------------------------
    std::size_t nodes = 0;
    std::size_t planningJobs = 0;  ///< = ceil(nodes / chunkSize)
    std::size_t nodesPosted = 0;   ///< node posts in total (== nodes unless a node is skipped)
    std::size_t completedJobs = 0;
    std::size_t failed = 0;
    std::size_t expired = 0;
    std::size_t cancelled = 0;

    /// Per node job, index = node id. Pre-sized before the run; bodies only store.
    std::vector<JobTiming> jobs;
    /// Scheduler statistics over the run (includes the planning jobs).
    Statistics stats{};
};

}  // namespace pullsched::testchain
