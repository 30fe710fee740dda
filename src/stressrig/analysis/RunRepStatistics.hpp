#pragma once
// What one repetition of a scheduled graph run says, and what the repetitions say
// together: only reps in which every job completed give a runtime.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "analysis/SampleStatistics.hpp"
#include "measure/LatencyHistogram.hpp"
#include "pullsched/testchain/RunResult.hpp"

namespace pullsched::rig {

/// The outcome of one rep. A rep is complete when every node job completed; only then
/// does it have a runtime (and delta, efficiency) and only then is its graph hash
/// meaningful. Expired and cancelled jobs are a measurement (the schedule was not
/// kept); failed, lost or doubled jobs and a hash mismatch are correctness failures.
struct RunRepOutcome {
    enum class Hash { Ok, Mismatch, NotChecked };

    unsigned rep = 0;
    std::size_t nodes = 0;
    std::size_t completed = 0, failed = 0, expired = 0, cancelled = 0;
    std::size_t lost = 0;     ///< never reached a final state, or never posted
    std::size_t doubled = 0;  ///< posted more than once
    bool timedOut = false;
    /// Cut short by a stop request: its unfinished jobs were cancelled on purpose, so
    /// what it lacks is neither a failure nor a measurement.
    bool interrupted = false;
    std::string error;  ///< the runner's reason when the run did not complete
    /// A timed-out rep whose jobs all reached a final state once the rig shut the
    /// scheduler down (lateRunFinding): lateness, a result, not a failure.
    std::string late;
    Hash hash = Hash::NotChecked;
    std::uint64_t expectedHash = 0, actualHash = 0;

    double runtimeMs = kMissing;   ///< anchor to the end of the last exit job
    double expectedMs = kMissing;  ///< the schedule's planned end
    double lowerBoundMs = kMissing;
    double deltaMs = kMissing;     ///< runtime − expected
    double efficiency = kMissing;  ///< lower bound / runtime
    double avgConcurrency = kMissing;
    double latenessP50Us = kMissing;  ///< over the jobs that ran; missing when too few
    double latenessP99Us = kMissing;

    bool complete() const noexcept {
        return !timedOut && error.empty() && completed == nodes && lost == 0 && doubled == 0;
    }
    /// "complete", "incomplete", "interrupted" or "timed out".
    const char* stateText() const noexcept;
    /// A correctness failure of the scheduler in this rep, as one line; empty if none.
    std::string failure() const;
    /// "ok", "mismatch" or "not checked".
    static const char* text(Hash h) noexcept;
};

/// Evaluates one run. `avgConcurrency` comes from the rep's instrument (NaN if none ran);
/// `interrupted`: the scheduler was shut down during the run on a stop request.
RunRepOutcome evaluateRunRep(unsigned rep, const testchain::RunResult& run, double avgConcurrency,
                             bool interrupted = false);

/// The reps together: runtimes over the complete reps only; job counts over the reps
/// that ran to their end (a rep cut short by a stop request is only counted).
struct RunRepSummary {
    std::size_t reps = 0, complete = 0;
    std::size_t interrupted = 0;  ///< reps cut short by a stop request, not in the figures
    std::size_t jobs = 0, completed = 0, failed = 0, expired = 0, cancelled = 0, lost = 0,
                doubled = 0;
    std::size_t hashOk = 0, hashMismatch = 0;
    std::size_t failedReps = 0;  ///< reps with a correctness failure
    SampleStatistics runtimeMs, deltaMs, efficiency, avgConcurrency;
    double expectedMs = kMissing, lowerBoundMs = kMissing;  ///< the plan (same every rep)

    std::size_t incomplete() const noexcept { return reps - complete; }
    /// Jobs that did not run because of the schedule: expired + cancelled.
    std::size_t missed() const noexcept { return expired + cancelled; }
    bool systemFailure() const noexcept { return failedReps > 0; }
    static RunRepSummary of(const std::vector<RunRepOutcome>& reps);
};

}  // namespace pullsched::rig
