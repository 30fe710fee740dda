#include "report/RunRepAnalysis.hpp"

#include <fmt/format.h>

#include "report/MissingValues.hpp"

namespace pullsched::rig {

using testchain::JobTiming;
using testchain::RunResult;

RepAnalysis analyseReps(const MeasuredBackend& m, const CompletionLimit& limit) {
    RepAnalysis a;
    const std::vector<const BackendRun*> reps = m.reps();
    for (std::size_t i = 0; i < reps.size(); ++i) {
        const RunResult& r = reps[i]->result;
        const bool observed = m.observed(i) && m.stats[i].activations;
        RunRepOutcome o =
            evaluateRunRep(static_cast<unsigned>(i + 1), r,
                           observed ? m.stats[i].avgConcurrency : kMissing, r.interrupted);
        if (std::string f = exactlyOnceFailure(*reps[i]); !f.empty() && o.error.empty())
            o.error = std::move(f);
        if (r.timedOut) {
            const RunFinding late = lateRunFinding(r, limit, reps[i]->pendingAfterCancel);
            if (late.failure.empty()) {
                o.late = late.late;
                o.lost = 0;  // cancelled by the shutdown, not lost
                a.warnings.push_back(fmt::format("rep {} {}", i + 1, late.late));
            } else {
                o.error = late.failure;
            }
        }
        for (const JobTiming& j : r.jobs)
            if (j.ran()) a.lateness.record(j.lateness());
        a.outcomes.push_back(std::move(o));
    }
    a.summary = RunRepSummary::of(a.outcomes);
    return a;
}

}  // namespace pullsched::rig
