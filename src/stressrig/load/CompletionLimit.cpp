#include "load/CompletionLimit.hpp"

#include <fmt/format.h>

#include "format/Units.hpp"

namespace pullsched::rig {

namespace {

/// `d` x `k`, clamped to the range of Duration (k >= 0).
Duration saturatingTimes(Duration d, std::int64_t k) {
    std::int64_t product = 0;
    if (__builtin_mul_overflow(d.count(), k, &product))
        return d.count() > 0 ? Duration::max() : Duration::min();
    return Duration{product};
}

}  // namespace

CompletionLimit completionLimit(const testchain::RunnerConfig& runner, Duration plannedEnd,
                                Duration work, Duration lifeWindow) {
    // The runner's limit counts from run(): the anchor lies a pre-roll (and any delay) later.
    const Duration preRoll = saturatingAdd(
        saturatingTimes(runner.planningStep, static_cast<std::int64_t>(runner.chunkSize)),
        runner.anchorDelay);
    CompletionLimit l;
    l.plannedEnd = saturatingAdd(preRoll, plannedEnd);
    const Duration scale = saturatingAdd(saturatingAdd(plannedEnd, work), lifeWindow);
    l.margin =
        saturatingAdd(kCompletionMarginBase, saturatingTimes(scale, kCompletionMarginFactor));
    return l;
}

RunFinding lateRunFinding(const testchain::RunResult& run, const CompletionLimit& limit,
                          std::uint64_t pendingAfterShutdown) {
    RunFinding f;
    if (!run.timedOut) return f;
    const Statistics& s = run.stats;  // planning jobs included
    f.late = fmt::format(
        "did not finish within {} of its planned end ({}): {} of {} posted jobs had ended; "
        "the rig stopped waiting and cancelled what had not started",
        Units::formatDuration(limit.margin), Units::formatDuration(limit.plannedEnd),
        s.completed + s.failed + s.expired + s.cancelled, s.submitted);
    if (pendingAfterShutdown > 0)
        f.failure = fmt::format(
            "{} jobs missing from the scheduler's accounting: still pending after its "
            "shutdown, although the run {}",
            pendingAfterShutdown, f.late);
    return f;
}

}  // namespace pullsched::rig
