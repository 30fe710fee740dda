#include "analysis/PatternCheck.hpp"

#include <string_view>

#include <fmt/format.h>

namespace pullsched::rig {

std::string hashText(std::uint64_t hash) {
    return fmt::format("0x{:016X}", hash);
}

PatternCheck checkPattern(const PatternRunFacts& run) {
    PatternCheck c;
    // a run with expired or cancelled jobs cannot be hash-checked
    const std::size_t notRun = run.expired + run.cancelled;
    if (run.failed > 0) {
        c.note = fmt::format("{} jobs failed", run.failed);
    } else if (run.postedTwice > 0) {
        c.note = fmt::format("{} jobs posted more than once", run.postedTwice);
    } else if (!run.lostJobs.empty()) {
        c.note = run.lostJobs;
    } else if (run.timedOut) {
        c.outcome = PatternOutcome::Late;
        c.note = run.late;
    } else if (notRun > 0) {
        c.outcome = PatternOutcome::Expired;
        c.note = fmt::format("hash not checked: {} jobs expired, {} cancelled", run.expired,
                             run.cancelled);
    } else if (!run.completed) {
        c.note = run.error.empty() ? std::string("the run did not complete") : run.error;
    } else {
        c.hashChecked = true;
        c.hashOk = run.hashOk;
        if (run.hashOk)
            c.outcome = PatternOutcome::Ok;
        else
            c.note = fmt::format("hash mismatch: got {}, expected {}", hashText(run.actualHash),
                                 hashText(run.expectedHash));
    }
    return c;
}

std::string ExecutionFinding::text() const {
    std::string t;
    auto add = [&t](std::size_t n, std::string_view what) {
        if (n > 0) t += fmt::format("{}{} jobs {}", t.empty() ? "" : "; ", n, what);
    };
    add(lost, "never ran although none was dropped by the scheduler");
    add(repeated, "ran more than once");
    add(droppedButRan, "ran although counted expired or cancelled");
    add(uncounted, "without an execution count");
    return t;
}

ExecutionFinding checkExecutions(const std::vector<testchain::JobTiming>& jobs,
                                 const std::vector<std::uint32_t>& executions, bool ownStates) {
    ExecutionFinding f;
    for (std::size_t i = 0; i < jobs.size(); ++i) {
        if (i >= executions.size()) {
            f.uncounted += jobs[i].posted;
            continue;
        }
        const std::uint32_t e = executions[i];
        const bool dropped = ownStates && (jobs[i].state == JobState::Expired ||
                                           jobs[i].state == JobState::Cancelled);
        if (e > 1) ++f.repeated;
        if (e == 0 && jobs[i].posted && !dropped) ++f.lost;
        if (e > 0 && dropped) ++f.droppedButRan;
    }
    return f;
}

std::string ledgerMismatch(const GroupStatistics& g, const std::optional<PostedJobs>& posted) {
    const std::uint64_t ended = g.completed + g.failed + g.expired + g.cancelled;
    if (g.pending > 0)
        return fmt::format("{} of {} jobs still pending in the scheduler after the run ended",
                           g.pending, g.submitted);
    if (ended != g.submitted)
        return fmt::format(
            "the scheduler's ledger does not balance: {} submitted, {} ended ({} completed, {} "
            "failed, {} expired, {} cancelled)",
            g.submitted, ended, g.completed, g.failed, g.expired, g.cancelled);
    if (!posted) return {};
    if (g.submitted != posted->submitted)
        return fmt::format("the scheduler counted {} jobs submitted, the run posted {}",
                           g.submitted, posted->submitted);
    if (posted->completed && g.completed != *posted->completed)
        return fmt::format("the scheduler counted {} jobs completed, the run saw {}", g.completed,
                           *posted->completed);
    return {};
}

}  // namespace pullsched::rig
