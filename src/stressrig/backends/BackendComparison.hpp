#pragma once
// The same graph and schedule on several backends, one after another: each backend is
// prepared (untimed), warmed up (runs not counted), then runs `reps` measured runs, then
// is destroyed before the next starts, so no backend's idle threads compete with another.
// Every run is verified (hash and exactly-once); the first failed run ends its series.

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "analysis/SampleStatistics.hpp"
#include "backends/GraphRunner.hpp"
#include "measure/LatencyHistogram.hpp"
#include "pullsched/testchain/LevelSchedule.hpp"

namespace pullsched::rig {

class StopRequest;

/// The measured runs of one backend.
struct BackendSeries {
    std::string name;
    StartTimes startTimes = StartTimes::Native;
    std::string startTimesText;
    std::vector<BackendRun> runs;  ///< measured runs (warm-up excluded)
    /// The run a stop request cut short: it counts in no figure, but its jobs are final
    /// and a mode may list them.
    std::optional<BackendRun> cutRun;
    std::string traceDump;     ///< SeriesPlan::traceDump and the backend has one, else empty
    unsigned warmups = 0;      ///< warm-up runs done
    bool interrupted = false;  ///< a stop request ended the series early
    std::string failure;       ///< the first correctness failure, else empty

    std::size_t hashOkRuns() const;
    std::size_t exactlyOnceRuns() const;
    SampleStatistics runtimeMs() const;    ///< completed runs only
    SampleStatistics efficiency() const;   ///< lower bound / runtime
    SampleStatistics startWaitMs() const;  ///< Σ in-job start wait per run
    LatencyHistogram lateness() const;     ///< actual − scheduled start, all jobs of all runs
    /// Jobs of all runs that ended later than `schedule.nodeDeadline()`: read from the end
    /// times, since only pullsched could expire a job (jobs that never ran have no end).
    std::size_t pastDeadline(const testchain::LevelSchedule& schedule) const;
};

/// Why a backend run is not correct ("" if it is): the runner's error, a timeout, a hash
/// mismatch, or a job that did not run exactly once.
std::string backendRunFailure(const BackendRun& run);

/// The same for a run on a schedule that may be overloaded: expired and cancelled jobs
/// (which never ran) and a run past its completion limit are results, not failures
/// (correctnessFailure); a job that ran twice, or never ran without expiring or being
/// cancelled, is one (exactlyOnceFailure).
std::string scheduledRunFailure(const BackendRun& run);
/// The exactly-once part of scheduledRunFailure(): the execution counts say what the hash
/// cannot (an isolated job skipped or run twice), on every backend.
std::string exactlyOnceFailure(const BackendRun& run);

/// How one backend's series is run.
struct SeriesPlan {
    std::size_t reps = 1;
    unsigned warmup = 0;
    /// Why a run is a failure ("" if it is not), warm-up runs included; the first failure
    /// ends the series and is its `failure`. Unset: backendRunFailure(). A mode sets its own
    /// where a run is judged otherwise (with deadlines an expired job is a result, not a
    /// failure: scheduledRunFailure()).
    std::function<std::string(const BackendRun&)> judge{};
    bool traceDump = false;  ///< keep the backend's trace dump after the last run
    /// Called once after the warm-up runs, before the first measured run (e.g. to clear
    /// what an observer saw of the warm-up).
    std::function<void()> beforeMeasured{};
    /// Called after each measured run, the one a stop cut short included, before the next
    /// starts (e.g. to read and reset an observer).
    std::function<void(const BackendRun&)> afterRun{};
};

/// Runs `graph` on the backend `name` (see the file comment).
BackendSeries measureSeries(const std::string& name, const testchain::TestChainGraph& graph,
                            const BackendSetup& setup, const SeriesPlan& plan,
                            const StopRequest& stop);

}  // namespace pullsched::rig
