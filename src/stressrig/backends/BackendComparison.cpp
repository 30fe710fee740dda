#include "backends/BackendComparison.hpp"

#include <sstream>

#include <fmt/format.h>

#include "backends/BackendRegistry.hpp"
#include "format/Units.hpp"
#include "load/ScheduledGraphRun.hpp"
#include "load/StopRequest.hpp"
#include "pullsched/testchain/StopCheck.hpp"

namespace pullsched::rig {

std::string backendRunFailure(const BackendRun& run) {
    if (run.result.interrupted) return {};  // cut short on purpose: says nothing
    if (std::string f = correctnessFailure(run.result); !f.empty()) return f;
    if (!run.result.completed) return "not every exit job completed";
    if (!run.result.hashOk)
        return fmt::format("hash mismatch: got 0x{:016X}, expected 0x{:016X}",
                           run.result.actualHash, run.result.expectedHash);
    if (!run.exactlyOnce())
        return fmt::format("{} jobs never ran, {} ran more than once", run.missed, run.repeated);
    return {};
}

std::string scheduledRunFailure(const BackendRun& run) {
    if (std::string f = correctnessFailure(run.result); !f.empty()) return f;
    return exactlyOnceFailure(run);
}

std::string exactlyOnceFailure(const BackendRun& run) {
    if (run.result.interrupted || run.result.timedOut) return {};
    // jobs never posted have no execution either: the run's accounting says so
    std::size_t unposted = 0;
    for (const testchain::JobTiming& j : run.result.jobs)
        unposted += j.posted ? 0 : 1;
    const std::size_t notRun = run.result.expired + run.result.cancelled + unposted;
    if (run.repeated > 0 || run.missed > notRun)
        return fmt::format(
            "{} jobs never ran without expiring or being cancelled, {} ran more "
            "than once",
            run.missed > notRun ? run.missed - notRun : 0, run.repeated);
    return {};
}

std::size_t BackendSeries::hashOkRuns() const {
    std::size_t n = 0;
    for (const BackendRun& r : runs)
        n += r.result.hashOk ? 1 : 0;
    return n;
}

std::size_t BackendSeries::exactlyOnceRuns() const {
    std::size_t n = 0;
    for (const BackendRun& r : runs)
        n += r.exactlyOnce() ? 1 : 0;
    return n;
}

SampleStatistics BackendSeries::runtimeMs() const {
    std::vector<double> v;
    for (const BackendRun& r : runs)
        if (r.result.completed) v.push_back(toMs(r.result.runTime));
    return SampleStatistics::of(v);
}

SampleStatistics BackendSeries::efficiency() const {
    std::vector<double> v;
    for (const BackendRun& r : runs)
        if (r.result.completed && r.result.runTime > Duration{0})
            v.push_back(toMs(r.result.lowerBound) / toMs(r.result.runTime));
    return SampleStatistics::of(v);
}

SampleStatistics BackendSeries::startWaitMs() const {
    std::vector<double> v;
    for (const BackendRun& r : runs)
        if (!r.result.timedOut) v.push_back(toMs(r.startWait));
    return SampleStatistics::of(v);
}

LatencyHistogram BackendSeries::lateness() const {
    LatencyHistogram h;
    for (const BackendRun& r : runs)
        for (const testchain::JobTiming& j : r.result.jobs)
            if (j.ran()) h.record(j.lateness());
    return h;
}

std::size_t BackendSeries::pastDeadline(const testchain::LevelSchedule& schedule) const {
    std::size_t n = 0;
    for (const BackendRun& r : runs)
        for (const testchain::JobTiming& j : r.result.jobs)
            if (j.ran() && j.end > schedule.nodeDeadline(j.node)) ++n;
    return n;
}

namespace {

/// Warm-up runs, not counted: they end at the first failure, a stop or a timeout.
void warmUp(GraphRunner& b, BackendSeries& s, const SeriesPlan& plan, const StopRequest& stop) {
    for (unsigned w = 0; w < plan.warmup && s.failure.empty() && !stop.requested(); ++w) {
        const BackendRun r = b.run();
        if (r.result.interrupted) break;  // the measured loop sees the stop
        ++s.warmups;
        s.failure = plan.judge ? plan.judge(r) : backendRunFailure(r);
        if (!s.failure.empty()) s.failure = "warm-up: " + s.failure;
        if (r.result.timedOut) break;
    }
}

/// The measured runs; true if the series may go on after `run`.
bool keepRun(BackendSeries& s, BackendRun run, const SeriesPlan& plan) {
    if (plan.afterRun) plan.afterRun(run);
    if (run.result.interrupted) {  // no figure: kept apart
        s.cutRun = std::move(run);
        s.interrupted = true;
        return false;
    }
    s.failure = plan.judge ? plan.judge(run) : backendRunFailure(run);
    const bool timedOut = run.result.timedOut;
    s.runs.push_back(std::move(run));
    return !timedOut;
}

}  // namespace

BackendSeries measureSeries(const std::string& name, const testchain::TestChainGraph& graph,
                            const BackendSetup& setup, const SeriesPlan& plan,
                            const StopRequest& stop) {
    BackendSeries s;
    s.name = name;
    if (stop.requested()) {
        s.interrupted = true;
        return s;
    }
    std::unique_ptr<GraphRunner> b = BackendRegistry::graphRunner(name);
    s.startTimes = b->startTimes();
    s.startTimesText = std::string(b->startTimesText());
    BackendSetup stoppable = setup;
    stoppable.stop = stop.predicate();  // a stop ends a long run early
    try {
        b->prepare(graph, stoppable);
    } catch (const testchain::Stopped&) {  // while a large graph was being prepared
        s.interrupted = true;
        return s;
    }
    warmUp(*b, s, plan, stop);
    if (plan.beforeMeasured) plan.beforeMeasured();
    for (std::size_t i = 0; i < plan.reps && s.failure.empty(); ++i) {
        if (stop.requested()) {
            s.interrupted = true;
            break;
        }
        if (!keepRun(s, b->run(), plan)) break;
    }
    if (plan.traceDump) {
        std::ostringstream dump;
        if (b->writeTraceDump(dump)) s.traceDump = dump.str();
    }
    return s;
}

}  // namespace pullsched::rig
