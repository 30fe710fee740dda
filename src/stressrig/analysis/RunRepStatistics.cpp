#include "analysis/RunRepStatistics.hpp"

#include <chrono>

#include <fmt/format.h>

#include "analysis/PercentileSupport.hpp"

namespace pullsched::rig {

using testchain::JobTiming;
using testchain::RunResult;

namespace {

double ms(std::chrono::nanoseconds d) {
    return std::chrono::duration<double, std::milli>(d).count();
}

}  // namespace

const char* RunRepOutcome::text(Hash h) noexcept {
    switch (h) {
        case Hash::Ok:
            return "ok";
        case Hash::Mismatch:
            return "mismatch";
        case Hash::NotChecked:
            break;
    }
    return "not checked";
}

const char* RunRepOutcome::stateText() const noexcept {
    if (complete()) return "complete";
    if (interrupted) return "interrupted";
    return timedOut ? "timed out" : "incomplete";
}

std::string RunRepOutcome::failure() const {
    std::string why;
    if (interrupted && !complete()) {
        // Posting into a scheduler shut down on purpose fails the planning and leaves
        // nodes unposted; only a node job that failed or ran twice still says something.
        if (failed)
            why = fmt::format("rep {}: {} job{} failed", rep, failed, failed == 1 ? "" : "s");
        if (doubled)
            why += fmt::format("{}rep {}: {} job{} posted more than once", why.empty() ? "" : "; ",
                               rep, doubled, doubled == 1 ? "" : "s");
        return why;
    }
    auto add = [&](const std::string& s) { why += (why.empty() ? "" : "; ") + s; };
    // A late rep (every job final once the rig shut the scheduler down) is a result: its
    // runner's "did not complete within the limit" is what `late` reports.
    if (timedOut && late.empty())
        add(fmt::format("rep {}: {} (jobs lost or stuck)", rep, error));
    else if (!error.empty() && !timedOut)
        add(fmt::format("rep {}: {}", rep, error));
    if (failed) add(fmt::format("rep {}: {} job{} failed", rep, failed, failed == 1 ? "" : "s"));
    if (lost) add(fmt::format("rep {}: {} job{} lost", rep, lost, lost == 1 ? "" : "s"));
    if (doubled)
        add(fmt::format("rep {}: {} job{} posted more than once", rep, doubled,
                        doubled == 1 ? "" : "s"));
    if (hash == Hash::Mismatch)
        add(
            fmt::format("rep {}: hash mismatch with every job completed: got 0x{:016X}, expected "
                        "0x{:016X}",
                        rep, actualHash, expectedHash));
    return why;
}

RunRepOutcome evaluateRunRep(unsigned rep, const RunResult& r, double avgConcurrency,
                             bool interrupted) {
    RunRepOutcome o;
    o.rep = rep;
    o.interrupted = interrupted;
    o.nodes = r.nodes;
    o.timedOut = r.timedOut;
    o.error = r.error;
    o.expectedMs = ms(r.expectedEnd);
    o.lowerBoundMs = ms(r.lowerBound);
    o.expectedHash = r.expectedHash;
    o.actualHash = r.actualHash;
    if (r.timedOut) {  // the runner kept no job states: none can be counted as final
        o.lost = r.nodes;
        return o;
    }
    o.completed = r.completedJobs;
    o.failed = r.failed;
    o.expired = r.expired;
    o.cancelled = r.cancelled;
    LatencyHistogram lateness;
    for (const JobTiming& j : r.jobs) {
        if (!j.posted) ++o.lost;
        if (j.posts > 1) ++o.doubled;
        if (j.ran()) lateness.record(j.lateness());
    }
    if (lateness.count() > 0) o.avgConcurrency = avgConcurrency;
    if (percentileSupported(50, lateness.count()))
        o.latenessP50Us = static_cast<double>(lateness.percentile(50)) / 1e3;
    if (percentileSupported(99, lateness.count()))
        o.latenessP99Us = static_cast<double>(lateness.percentile(99)) / 1e3;
    if (o.complete() && r.completed) {
        o.hash = r.hashOk ? RunRepOutcome::Hash::Ok : RunRepOutcome::Hash::Mismatch;
        o.runtimeMs = ms(r.runTime);
        o.deltaMs = o.runtimeMs - o.expectedMs;
        if (o.runtimeMs > 0) o.efficiency = o.lowerBoundMs / o.runtimeMs;
    }
    return o;
}

RunRepSummary RunRepSummary::of(const std::vector<RunRepOutcome>& reps) {
    RunRepSummary s;
    std::vector<double> runtime, delta, efficiency, concurrency;
    for (const RunRepOutcome& o : reps) {
        if (!o.failure().empty()) ++s.failedReps;
        if (o.interrupted && !o.complete()) {
            ++s.interrupted;
            continue;
        }
        ++s.reps;
        if (o.complete() && o.hash != RunRepOutcome::Hash::NotChecked) ++s.complete;
        s.jobs += o.nodes;
        s.completed += o.completed;
        s.failed += o.failed;
        s.expired += o.expired;
        s.cancelled += o.cancelled;
        s.lost += o.lost;
        s.doubled += o.doubled;
        if (o.hash == RunRepOutcome::Hash::Ok) ++s.hashOk;
        if (o.hash == RunRepOutcome::Hash::Mismatch) ++s.hashMismatch;
        runtime.push_back(o.runtimeMs);
        delta.push_back(o.deltaMs);
        efficiency.push_back(o.efficiency);
        concurrency.push_back(o.avgConcurrency);
        s.expectedMs = o.expectedMs;
        s.lowerBoundMs = o.lowerBoundMs;
    }
    s.runtimeMs = SampleStatistics::of(runtime);
    s.deltaMs = SampleStatistics::of(delta);
    s.efficiency = SampleStatistics::of(efficiency);
    s.avgConcurrency = SampleStatistics::of(concurrency);
    return s;
}

}  // namespace pullsched::rig
