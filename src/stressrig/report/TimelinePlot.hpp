#pragma once
// The timeline of one scheduled graph run as people look at runs (TFProf, Perfetto):
// one lane per worker, one bar per job coloured by its lateness or final state, the
// planned starts marked, and the jobs that never ran on a lane of their own.

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "report/CsvTable.hpp"
#include "report/GnuplotScript.hpp"

namespace pullsched::rig {

/// One job of the run; times in ms since the run's anchor, NaN where missing.
struct TimelineJob {
    std::size_t node = 0;
    std::string state;  ///< completed | failed | expired | cancelled | anything else
    int worker = -1;    ///< lane; -1 = did not run (or the worker is unknown)
    double scheduledMs = 0;
    double startMs = 0;     ///< NaN if the body never ran
    double endMs = 0;       ///< NaN if the body never ran
    double deadlineMs = 0;  ///< NaN without a life window
};

/// How a job is drawn; the class is also the "class" column of the script's data.
enum class TimelineClass {
    OnTime = 0,     ///< completed, started less than `lateUs` after its planned start
    Late = 1,       ///< completed, started `lateUs`..`veryLateUs` late
    VeryLate = 2,   ///< completed, started `veryLateUs` or more late
    Failed = 3,     ///< its body ran and threw
    Expired = 4,    ///< not started within its life window (never ran)
    Cancelled = 5,  ///< cancelled after a predecessor expired or on shutdown (never ran)
    Other = 6,      ///< not posted, unfinished, or ran on an unknown worker
};

struct TimelineOptions {
    std::string title;     ///< first title line, e.g. "timeline of rep 3 of 5: burst, 2 workers"
    std::string verdict;   ///< second title line: what this run shows
    unsigned workers = 1;  ///< lanes 0..workers−1 (idle workers keep their lane)
    double lateUs = 100;   ///< lateness at which a started job counts as late
    double veryLateUs = 1000;  ///< ... and as very late
};

class TimelinePlot {
  public:
    static TimelineClass classify(const TimelineJob& job, const TimelineOptions& options);
    /// Bars for the jobs that ran, planned-start marks for all, expired and cancelled
    /// jobs as marks (with their life window) on the lane "not run" above the workers.
    /// The verdict line is summary() unless the options carry one. `stop` is polled every
    /// testchain::kStopPollItems jobs here and in the functions below (a run of millions
    /// of jobs takes seconds to draw); testchain::Stopped is thrown when it asks.
    static GnuplotScript plot(const std::vector<TimelineJob>& jobs, const TimelineOptions& options,
                              const testchain::StopPredicate& stop = {});

    /// The jobs of `rep` in the run mode's per-job table (columns rep, node, state,
    /// worker, scheduled ms, deadline ms, start ms, end ms).
    static std::vector<TimelineJob> jobsOfRep(const CsvTable& jobs, unsigned rep,
                                              const testchain::StopPredicate& stop = {});
    /// The rep whose span (last end or planned start of its jobs) is the median of all
    /// reps in the table (the lower one of two middles); nullopt for an empty table.
    static std::optional<unsigned> medianRep(const CsvTable& jobs,
                                             const testchain::StopPredicate& stop = {});
    /// The timeline of a run mode's rep: `rep`, or the median one if not given (nullopt
    /// if the table has no such rep). The title gets "rep N of M" in front of
    /// `options.title`; the verdict line counts the rep's jobs by class and gives its
    /// span and largest lateness, unless `options.verdict` is set.
    static std::optional<GnuplotScript> ofRunTable(const CsvTable& jobs,
                                                   std::optional<unsigned> rep,
                                                   TimelineOptions options,
                                                   const testchain::StopPredicate& stop = {});
    /// One line on the jobs: kept or not, counts by class, last end, largest lateness.
    static std::string summary(const std::vector<TimelineJob>& jobs,
                               const TimelineOptions& options);
    /// Text of a class for the legend, with the thresholds.
    static std::string className(TimelineClass c, const TimelineOptions& options);
};

}  // namespace pullsched::rig
