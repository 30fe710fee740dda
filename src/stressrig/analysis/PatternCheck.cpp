#include "analysis/PatternCheck.hpp"

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

}  // namespace pullsched::rig
