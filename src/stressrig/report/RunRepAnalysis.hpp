#pragma once
// The run mode's measured reps and their analysis: what each backend's reps were (the
// measure step's plain data) and, pure and without threads, each rep's outcome, the
// warnings of reps past their completion limit, and the lateness of every job that ran.

#include <cstddef>
#include <string>
#include <vector>

#include "analysis/RunRepStatistics.hpp"
#include "backends/BackendComparison.hpp"
#include "load/CompletionLimit.hpp"
#include "measure/IncidenceCount.hpp"
#include "measure/LatencyHistogram.hpp"
#include "report/CsvTable.hpp"

namespace pullsched::rig {

/// One backend's measured reps with what the instrument saw in each (an instrumented
/// backend measured in detail): the measure step's plain data.
struct MeasuredBackend {
    BackendSeries series;
    std::vector<IncidenceStatistic> stats;   ///< per rep, the cut one last; empty if not observed
    std::vector<std::vector<int>> workerOf;  ///< per rep: each node's worker, -1 if none seen
    /// Per observed rep: active workers over time ("time ms", "concurrency"); empty when no
    /// job of the rep ran. The picture shows the rep the timeline shows.
    std::vector<CsvTable> timelines;
    IncidenceStatistic lastStat;  ///< of the last rep that ran jobs

    /// The measured runs, then the one a stop cut short.
    std::vector<const BackendRun*> reps() const {
        std::vector<const BackendRun*> out;
        for (const BackendRun& r : series.runs)
            out.push_back(&r);
        if (series.cutRun) out.push_back(&*series.cutRun);
        return out;
    }
    bool observed(std::size_t rep) const { return rep < stats.size(); }
};

/// What the mode measured: the graph's figures and each backend's reps.
struct RunMeasurement {
    std::string hash;  ///< of the single-threaded recalculation
    Duration planned{0};
    Duration lowerBound{0};
    CompletionLimit limit;
    bool deadlines = false;
    std::vector<MeasuredBackend> backends;
};

/// The reps of one backend evaluated: the analyse step's output (pure, no threads).
struct RepAnalysis {
    std::vector<RunRepOutcome> outcomes;
    std::vector<std::string> warnings;  ///< "rep 2 did not finish within ..."
    LatencyHistogram lateness;          ///< every job that ran, of every rep
    RunRepSummary summary;
};

/// Each rep's outcome; a rep past its completion limit is a result (late) unless the
/// scheduler lost jobs from its accounting (then its outcome carries that failure). A job
/// that ran twice or never ran unaccounted for is a failure on any backend
/// (exactlyOnceFailure).
RepAnalysis analyseReps(const MeasuredBackend& m, const CompletionLimit& limit);

}  // namespace pullsched::rig
