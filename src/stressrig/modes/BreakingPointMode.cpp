// --mode=breaking-point: the highest stress at which a graph's adapted schedule still
// holds, searched on each backend of --backends (pullsched alone by default) the same way:
// measure (one search per backend), then present every backend in detail and side by side.
// Widens the stress until a probe breaks and bisects to the resolution; a logistic fit of the
// fail fraction over all probes adds the stress at 50 % failure with a 95 % confidence
// interval, and the theoretical limit and the ideal run (the same search on a simulated run
// that costs nothing) put both in proportion. Deadlines only when every backend has them.
#include <algorithm>
#include <cmath>
#include <optional>

#include <fmt/format.h>

#include "analysis/BreakingPointProbe.hpp"
#include "analysis/BreakingPointSearch.hpp"
#include "analysis/FailFractionFit.hpp"
#include "analysis/IdealBreakingPoint.hpp"
#include "backends/BackendComparison.hpp"
#include "backends/BackendRegistry.hpp"
#include "backends/BackendSetup.hpp"
#include "cli/BackendOptions.hpp"
#include "cli/ExecutionOptions.hpp"
#include "cli/GraphOptions.hpp"
#include "cli/MemoryRefusal.hpp"
#include "cli/PlacementOption.hpp"
#include "cli/RunnerConfigFromOptions.hpp"
#include "cli/ScheduleOptions.hpp"
#include "cli/UsageError.hpp"
#include "format/Units.hpp"
#include "load/CompletionLimit.hpp"
#include "load/JobBody.hpp"
#include "load/MemoryEstimate.hpp"
#include "load/Progress.hpp"
#include "load/ScheduledGraphRun.hpp"
#include "load/StopRequest.hpp"
#include "measure/JobTimePerUnit.hpp"
#include "measure/RunInstrument.hpp"
#include "modes/Mode.hpp"
#include "pullsched/testchain/GraphStatistics.hpp"
#include "pullsched/testchain/LevelSchedule.hpp"
#include "report/BreakingPointPlot.hpp"
#include "report/GraphRunsTrace.hpp"
#include "report/MetricCatalogue.hpp"
#include "report/MissingValues.hpp"
#include "report/RunPictures.hpp"
#include "report/TextFormat.hpp"
#include "report/TimelinePlot.hpp"

namespace pullsched::rig {

using namespace pullsched::testchain;

namespace {

/// The reference's thresholds were set for jobs of this size.
constexpr Duration kReferenceLoad = 500us;
constexpr Duration kReferenceFailDelta = 2ms, kReferenceSdevLimit = 2ms, kReferenceDeltaLimit = 4ms;
/// The highest probe that held, with the jobs of its last run, for the timeline.
struct HoldingTimeline {
    double stress = 0;
    std::size_t runs = 0;
    std::vector<TimelineJob> jobs;
};

/// Incomplete-run warnings listed one by one; the rest are summed up.
constexpr std::size_t kProbeWarnings = 6;

Duration fromMs(double v) {
    return Duration{static_cast<Duration::rep>(std::llround(v * 1e6))};
}
std::string stressText(double s) {
    return textOr(s, [](double x) { return fmt::format("{:.3f}", x); });
}

/// The breaking stress of a run that costs nothing, with the jobs as planned and with the
/// jobs as long as they were measured to be (the fair reference when the calibration drifted).
struct IdealReference {
    IdealBreakingPoint planned;
    std::optional<IdealBreakingPoint> measured;
    std::optional<Duration> unit;  ///< measured time of one weight unit
    std::optional<double> drift;   ///< unit / planned − 1

    /// `planned`: the search with the jobs as planned, when the caller already made it.
    static IdealReference search(const TestChainGraph& graph, WeightPolicy policy, unsigned C,
                                 Duration load, Duration lifeWindow, const BreakThresholds& th,
                                 const JobTimePerUnit& jobs,
                                 std::optional<IdealBreakingPoint> planned = std::nullopt) {
        IdealReference r{
            planned ? *planned
                    : IdealBreakingPoint::search(graph, policy, C, load, load, lifeWindow, th),
            std::nullopt, jobs.perUnit(), jobs.driftFrom(load)};
        if (r.unit)
            r.measured =
                IdealBreakingPoint::search(graph, policy, C, load, *r.unit, lifeWindow, th);
        return r;
    }
    double stress() const { return measured ? measured->stress : planned.stress; }
};

std::string idealStressText(const IdealBreakingPoint& ideal) {
    if (ideal.probes == 0) return "n/a (not simulated: the search was interrupted)";
    return std::isnan(ideal.stress) ? fmt::format("n/a (no simulated probe broke up to stress {})",
                                                  stressText(ideal.low))
                                    : stressText(ideal.stress);
}

/// The ideal run's lines of the report: what it is and, measured against it, the scheduler.
std::vector<std::string> idealLines(const IdealReference& ideal, Duration load, unsigned C,
                                    double breaking) {
    std::vector<std::string> lines;
    std::string measured;
    if (ideal.measured)
        measured = fmt::format(
            ", {} with the jobs as long as measured ({} per weight unit, planned {}, {:+.1f} %)",
            idealStressText(*ideal.measured), Units::formatDuration(*ideal.unit),
            Units::formatDuration(load), 100.0 * *ideal.drift);
    lines.push_back(fmt::format(
        "  ideal run stress {} with the jobs as planned{}: where a run with no scheduling "
        "cost, jobs taken in start order on {} workers, stops holding (simulated, the same "
        "search and thresholds){}",
        idealStressText(ideal.planned), measured, C,
        std::isnan(breaking) || std::isnan(ideal.stress())
            ? std::string()
            : fmt::format("; breaking / ideal = {:.2f}", breaking / ideal.stress())));
    if (breaking > ideal.stress())
        lines.push_back(
            "  note: the breaking stress lies beyond the ideal run's: the scheduler's order (a "
            "released successor runs on the worker that released it) beat start order on this "
            "graph, or most runs of a probe were luckier than the simulated one");
    return lines;
}

/// Job bodies that ran this much longer or shorter than planned move the breaking stress
/// by about as much; say so.
constexpr double kJobTimeDrift = 0.05;

std::optional<std::string> jobTimeWarning(const IdealReference& ideal, Duration load) {
    const std::optional<double>& drift = ideal.drift;
    if (!drift || std::abs(*drift) <= kJobTimeDrift || !ideal.measured) return std::nullopt;
    return fmt::format(
        "the jobs took {} per weight unit, {:+.1f} % against the calibrated {}: every probe's "
        "schedule was {} than planned, and the breaking stress moves by about as much; "
        "compare it with the ideal run's with the jobs as measured ({})",
        Units::formatDuration(*ideal.unit), 100 * *drift, Units::formatDuration(load),
        *drift > 0 ? "tighter" : "looser", idealStressText(*ideal.measured));
}

nlohmann::json idealJson(const IdealBreakingPoint& ideal) {
    return {{"breaking_stress", jsonNumber(ideal.stress)},
            {"bracket_low", ideal.low},
            {"bracket_high", jsonNumber(ideal.high)},
            {"probes", ideal.probes}};
}

nlohmann::json idealJson(const IdealReference& ideal) {
    nlohmann::json j = {
        {"jobs_as_planned", idealJson(ideal.planned)},
        {"jobs_as_measured", ideal.measured ? idealJson(*ideal.measured) : nlohmann::json(nullptr)},
        {"measured_unit_us",
         ideal.unit ? nlohmann::json(toUs(*ideal.unit)) : nlohmann::json(nullptr)}};
    return j;
}

nlohmann::json probeJson(const ProbeStatistics& p) {
    return {{"stress", p.stress},
            {"runs", p.runs},
            {"incomplete_runs", p.incomplete},
            {"failed_runs", p.failed},
            {"fail_fraction", jsonNumber(p.failFraction)},
            {"broken", p.broken},
            {"mean_delta_ms", jsonNumber(p.meanDeltaMs)},
            {"sdev_ms", jsonNumber(p.sdevMs)},
            {"mean_runtime_ms", jsonNumber(p.meanRuntimeMs)},
            {"expected_ms", jsonNumber(p.expectedMs)}};
}

std::string probeLine(const ProbeStatistics& p) {
    return fmt::format(
        "stress {}: {} of {} runs failed ({}), {} incomplete, mean delta {}, "
        "sdev {}, mean runtime {} (planned {}) -> {}",
        stressText(p.stress), p.failed, p.runs, percentText(p.failFraction, 0), p.incomplete,
        msText(p.meanDeltaMs, true), msText(p.sdevMs), msText(p.meanRuntimeMs),
        msText(p.expectedMs), p.broken ? "broken" : "holds");
}

/// The run a trace shows (--trace-json): the last run of the lowest probe that broke, or
/// without one the last run of the highest probe that held.
struct TracedProbe {
    double stress = 0;
    bool broken = false;
    std::size_t runs = 0;  ///< of the probe
    BackendRun run;
};

/// One backend's search, probe by probe: the measure step's output.
struct BackendSearch {
    std::string name;
    bool instrumented = false;
    /// Files of this backend: "" for the first of --backends (the names a result of
    /// pullsched alone always had), "-<name>" for the others.
    std::string suffix;
    std::string startTimes;
    BreakingPointSearch search;
    std::vector<ProbeStatistics> probes;
    std::vector<std::vector<ProbeRun>> probeRuns;  ///< per probe, its runs
    std::size_t runs = 0;                          ///< measured runs of all probes
    JobTimePerUnit jobTime;                        ///< what the jobs really took
    HoldingTimeline shown;                         ///< instrumented backends only
    std::optional<TracedProbe> traced;             ///< with --trace-json
    std::string stopReason;                        ///< the search ended before converging
    std::vector<std::string> failures;
    bool partial = false;  ///< a stop request ended the search

    double breaking() const { return search.converged() ? search.estimate() : kMissing; }
    /// The probe at exactly `stress`, if there was one.
    const ProbeStatistics* at(double stress) const {
        for (const ProbeStatistics& p : probes)
            if (p.stress == stress) return &p;
        return nullptr;
    }
    std::size_t incompleteRuns() const {
        std::size_t n = 0;
        for (const ProbeStatistics& q : probes)
            n += q.incomplete;
        return n;
    }
};

/// A search evaluated: the fit over its probes and its ideal run.
struct SearchAnalysis {
    FailFractionFit fit;
    IdealReference ideal;
};

class BreakingPointMode final : public Mode {
  public:
    BreakingPointMode() { sched_.reps = 20; }

    std::string_view name() const override { return "breaking-point"; }
    std::vector<FigureSource> figures() const override {
        return {{"breaking_stress"}, {"breaking_to_ideal"}, {"breaking_to_limit"}};
    }
    std::vector<std::string> selectorLabels() const override { return backends_.names(); }
    std::string_view summary() const override {
        return "the highest stress whose adapted schedule still holds, with a confidence "
               "interval";
    }
    void declare(OptionTable& t) override {
        graph_.declare(t);
        exec_.declare(t);
        placement_.declare(t);
        sched_.declare(t, false);  // the search chooses the stress
        backends_.declare(t);
        t.group("Breaking point");
        t.choice("thresholds", thresholds_, {"scaled", "reference"},
                 "scaled: the reference's durations x load / 500us; reference: as set for "
                 "500us jobs (2ms / 2ms / 4ms)");
        t.optionalDuration("fail-delta", failDelta_, 1us, 1h,
                           "a run fails if it ends later than planned by more than this",
                           "2ms, scaled");
        t.number("break-fail-fraction", breakFail_, 0, 1,
                 "a probe is broken if more runs than this fail ...");
        t.number("fail-fraction", fail_, 0, 1,
                 "... or if more than this fail with sdev and mean delta over their limits");
        t.optionalDuration("sdev-limit", sdevLimit_, 1us, 1h,
                           "sdev of the run times for the second rule", "2ms, scaled");
        t.optionalDuration("delta-limit", deltaLimit_, 1us, 1h,
                           "mean delta (runtime - planned) for the second rule", "4ms, scaled");
        t.group("Traces");
        t.flag("trace-json", traceJson_,
               "write <name>-trace.json (<name>-<backend>-trace.json for the others of "
               "--backends): the last run of the breaking probe (the lowest stress that broke; "
               "without one the highest that held), every job on the track of the thread that "
               "ran it (ui.perfetto.dev, chrome://tracing); every backend");
    }
    void validate(const OptionTable& t) override {
        graph_.validate(t);
        refuseIfTooLarge({graph_.nodes, kProbeBytesPerNode},
                         fmt::format("--nodes={}", graph_.nodes));
        if (sched_.schedule != "adapted")
            throw UsageError(
                "--mode=breaking-point searches the stress of the adapted schedule; "
                "--schedule=default does not apply");
        if (t.given("level"))
            throw UsageError(
                "--mode=breaking-point searches the stress of the adapted schedule; --level "
                "(of --schedule=default) does not apply");
        // a backend that cannot do what an option asks is named, not measured otherwise
        sched_.refuseLifeWindowWithout(t, backends_);
        placement_.refuseIgnoredBy(t, backends_);
    }

    ModeResult run(RunContext& ctx) override;

  private:
    /// What every step reads: the graph, the thresholds and the theoretical limit.
    struct Plan {
        const TestChainGraph& graph;
        WeightPolicy policy;
        unsigned concurrency;
        const JobBody& body;
        BreakThresholds thresholds;
        double scale;  ///< of the reference's thresholds
        Duration lowerBound;
        double unitEndMs;  ///< the schedule's end at stress 1
        double limitStress;
    };

    BreakThresholds thresholdsFor(double scale) const;
    /// The life window the runs are held to: none unless every backend has deadlines.
    Duration lifeWindow() const { return deadlines_.on ? sched_.lifeWindow : Duration::zero(); }
    // measure
    BackendSearch searchBackend(RunContext& ctx, const Plan& p, const std::string& name) const;
    bool probe(RunContext& ctx, const Plan& p, BackendSearch& b, double stress,
               RunInstrument* instrument) const;
    void keepTrace(BackendSearch& b, const BackendSeries& s) const;
    // analyse
    SearchAnalysis analyse(const ModeResult& r, const Plan& p, const BackendSearch& b,
                           const IdealBreakingPoint& planned) const;
    // present: every backend in detail, then side by side
    void present(ModeResult& r, const Plan& p, const std::vector<BackendSearch>& searches) const;
    void headerText(ModeResult& r, const Plan& p) const;
    void backendWarnings(ModeResult& r, const BackendSearch& b, const IdealReference& ideal) const;
    void backendTables(ModeResult& r, const Plan& p, const BackendSearch& b,
                       const SearchAnalysis& a) const;
    void backendPlots(ModeResult& r, const Plan& p, const BackendSearch& b,
                      const SearchAnalysis& a) const;
    void backendText(ModeResult& r, const Plan& p, const BackendSearch& b,
                     const SearchAnalysis& a) const;
    void traceFile(ModeResult& r, const Plan& p, const BackendSearch& b) const;
    std::string backendVerdict(const ModeResult& r, const Plan& p, const BackendSearch& b,
                               const SearchAnalysis& a) const;
    nlohmann::json backendJson(const Plan& p, const BackendSearch& b,
                               const SearchAnalysis& a) const;
    void commonJson(ModeResult& r, const Plan& p, const IdealBreakingPoint& planned) const;
    void sideBySide(ModeResult& r, const Plan& p, const std::vector<BackendSearch>& searches,
                    const std::vector<SearchAnalysis>& analyses) const;

    GraphOptions graph_;
    ExecutionOptions exec_;
    PlacementOption placement_;
    ScheduleOptions sched_;
    BackendOptions backends_;
    std::string thresholds_ = "scaled";
    std::optional<Duration> failDelta_, sdevLimit_, deltaLimit_;
    double breakFail_ = 0.99, fail_ = 0.55;
    bool traceJson_ = false;
    BackendOptions::DeadlineChoice deadlines_;  ///< set by run()
};

BreakThresholds BreakingPointMode::thresholdsFor(double scale) const {
    auto threshold = [&](const std::optional<Duration>& given, Duration reference) {
        return given ? toMs(*given) : toMs(reference) * scale;
    };
    return {threshold(failDelta_, kReferenceFailDelta), threshold(sdevLimit_, kReferenceSdevLimit),
            threshold(deltaLimit_, kReferenceDeltaLimit), breakFail_, fail_};
}

ModeResult BreakingPointMode::run(RunContext& ctx) {
    ctx.progress.note(memoryNote({graph_.nodes, kProbeBytesPerNode}, availableMemory()));
    const TestChainGraph graph = graph_.graph(ctx.stop.predicate());
    const WeightPolicy policy = graph_.rulesFor().schedulingWeightPolicy();
    const unsigned C = sched_.plannedConcurrency(exec_.machineParallelism());
    const Duration load = exec_.load;
    deadlines_ = backends_.deadlines(sched_.lifeWindow);

    // the theoretical limit: the stress at which the schedule ends at the lower bound
    const Duration lowerBound = GraphStatistics(graph, policy).lowerBound(C, load);
    LevelSchedule unit(graph, policy);
    unit.adapt(1.0, C, load);
    const double unitEndMs = toMs(unit.expectedEnd());
    const double limitStress = lowerBound.count() > 0 ? unitEndMs / toMs(lowerBound) : kMissing;
    sched_.checkLength(
        fromMs(unitEndMs / BreakingPointSearch().limits().start));  // nothing run yet
    const double scale =
        thresholds_ == "scaled" ? double(load.count()) / double(kReferenceLoad.count()) : 1.0;

    ModeResult r;
    r.name = fmt::format("breaking-point-{}-{}", graph_.label(), graph.size());
    const JobBody body(exec_.loadKind, &ctx.progress);
    r.calibration = body.json();
    const Plan p{graph, policy,     C,         body,       thresholdsFor(scale),
                 scale, lowerBound, unitEndMs, limitStress};
    std::vector<BackendSearch> searches;
    for (const std::string& name : backends_.names()) {
        searches.push_back(searchBackend(ctx, p, name));
        searches.back().suffix = searches.size() == 1 ? "" : "-" + name;
        if (!searches.back().failures.empty()) break;  // a failure ends the comparison
    }
    for (const BackendSearch& b : searches) {
        for (const std::string& f : b.failures)
            r.failures.push_back(f);
        r.partial = r.partial || b.partial;
    }
    r.systemFailure = !r.failures.empty();
    present(r, p, searches);
    return r;
}

// ---- measure

/// One backend's search: probes of --reps runs each, widening the stress until a probe
/// breaks, then bisecting. An instrumented backend is observed (for the timeline of the
/// highest probe that held).
BackendSearch BreakingPointMode::searchBackend(RunContext& ctx, const Plan& p,
                                               const std::string& name) const {
    BackendSearch b;
    b.name = name;
    b.instrumented = BackendRegistry::find(name).instrumented;
    std::optional<RunInstrument> instrument;
    if (b.instrumented) instrument.emplace(exec_.workers, p.graph.size());
    while (const std::optional<double> s = b.search.next()) {
        if (ctx.stop.requested()) {
            b.partial = true;
            break;
        }
        if (!probe(ctx, p, b, *s, instrument ? &*instrument : nullptr)) break;
        b.search.record(b.probes.back().broken);
    }
    return b;
}

/// One probe at `stress`; false if the search ends with it. A run with expired jobs is
/// incomplete (a result); one past its completion limit ends the search.
bool BreakingPointMode::probe(RunContext& ctx, const Plan& p, BackendSearch& b, double stress,
                              RunInstrument* instrument) const {
    LevelSchedule schedule(p.graph, p.policy);
    schedule.adapt(stress, p.concurrency, exec_.load);
    schedule.lifeWindow(lifeWindow());
    if (schedule.expectedEnd() > sched_.maxSchedule) {
        b.stopReason = fmt::format(
            "search stopped: the probe at stress {} would take {} (over --max-schedule={})",
            stressText(stress), durationText(schedule.expectedEnd()),
            durationText(sched_.maxSchedule));
        return false;
    }
    BackendSetup setup = backendSetup(exec_.workers, placement_.placement(), exec_.load,
                                      p.body.load(), p.policy, p.concurrency);
    setup.deadlines = deadlines_.on;
    setup.observer = instrument;
    const CompletionLimit limit =
        completionLimit(RunnerConfig{}, schedule.expectedEnd(),
                        GraphStatistics(p.graph, p.policy).work(exec_.load), lifeWindow());
    setup.completionLimit = limit.total();
    setup.schedule = std::move(schedule);
    SeriesPlan plan;
    plan.reps = sched_.reps;
    plan.warmup = backends_.warmup;
    plan.judge = scheduledRunFailure;
    plan.beforeMeasured = [&] {  // the warm-up is not observed
        if (instrument) instrument->reset();
    };
    std::vector<int> workers;  // of the last run, for the timeline
    plan.afterRun = [&](const BackendRun&) {
        if (!instrument) return;
        workers.assign(p.graph.size(), -1);
        for (std::size_t i = 0; i < workers.size(); ++i)
            workers[i] = instrument->workerOf(i);
        instrument->reset();
    };
    const BackendSeries s = measureSeries(b.name, p.graph, setup, plan, ctx.stop);
    b.startTimes = std::string(graphStartTimesName(s.startTimes));
    std::vector<ProbeRun> outcomes;
    for (const BackendRun& run : s.runs) {
        b.jobTime.add(run.result);
        outcomes.push_back({runComplete(run.result) ? toMs(run.result.runTime) : kMissing,
                            toMs(run.result.expectedEnd), run.result.expired > 0});
    }
    std::string failure = s.failure, late;
    if (!s.runs.empty() && s.runs.back().result.timedOut) {
        const RunFinding f =
            lateRunFinding(s.runs.back().result, limit, s.runs.back().pendingAfterCancel);
        failure = f.failure;
        late = f.late;
    }
    if (!failure.empty())
        b.failures.push_back(fmt::format("{}, stress {}: {}", b.name, stressText(stress), failure));
    if (!outcomes.empty()) {
        b.probes.push_back(ProbeStatistics::of(stress, outcomes, p.thresholds));
        b.probeRuns.push_back(outcomes);
        b.runs += outcomes.size();
        keepTrace(b, s);
        if (instrument && !s.cutRun && !b.probes.back().broken && stress >= b.shown.stress)
            b.shown = {
                stress, s.runs.size(),
                timelineJobsOf(
                    s.runs.back().result, [&](std::size_t n) { return workers[n]; }, lifeWindow())};
        ctx.progress.note(
            fmt::format("{} probe {}: {}", b.name, b.probes.size(), probeLine(b.probes.back())));
    }
    if (!failure.empty()) return false;
    if (s.interrupted || s.runs.empty()) {
        b.partial = true;
        return false;
    }
    if (!late.empty()) {  // the scheduler was shut down: no further probe
        b.stopReason =
            fmt::format("search stopped: a run at stress {} {}", stressText(stress), late);
        return false;
    }
    return true;
}

/// Keeps the last run of the probe just recorded if it is the one to trace (see
/// TracedProbe): one run is held, however many probes the search makes.
void BreakingPointMode::keepTrace(BackendSearch& b, const BackendSeries& s) const {
    if (!traceJson_ || s.runs.empty()) return;
    const ProbeStatistics& q = b.probes.back();
    const std::optional<TracedProbe>& t = b.traced;
    const bool shows =
        !t || (q.broken ? !t->broken || q.stress < t->stress : !t->broken && q.stress > t->stress);
    if (shows) b.traced = TracedProbe{q.stress, q.broken, s.runs.size(), s.runs.back()};
}

// ---- analyse

/// The logistic fit over every run of every probe, and where the schedule stops holding
/// with no scheduling cost at all, with the jobs as long as this backend ran them. The
/// simulation takes seconds on a large graph: a stopped search skips it.
SearchAnalysis BreakingPointMode::analyse(const ModeResult& r, const Plan& p,
                                          const BackendSearch& b,
                                          const IdealBreakingPoint& planned) const {
    std::vector<StressOutcomes> counts;
    for (const ProbeStatistics& probe : b.probes)
        counts.push_back({probe.stress, probe.runs, probe.failed});
    return {FailFractionFit::fit(counts),
            r.partial ? IdealReference{}
                      : IdealReference::search(p.graph, p.policy, p.concurrency, exec_.load,
                                               lifeWindow(), p.thresholds, b.jobTime, planned)};
}

// ---- present

void BreakingPointMode::present(ModeResult& r, const Plan& p,
                                const std::vector<BackendSearch>& searches) const {
    headerText(r, p);
    const IdealBreakingPoint planned =
        r.partial ? IdealBreakingPoint{}
                  : IdealBreakingPoint::search(p.graph, p.policy, p.concurrency, exec_.load,
                                               exec_.load, lifeWindow(), p.thresholds);
    commonJson(r, p, planned);
    std::vector<SearchAnalysis> analyses;
    nlohmann::json byBackend = nlohmann::json::object();
    std::string verdict;
    for (const BackendSearch& b : searches) {
        analyses.push_back(analyse(r, p, b, planned));
        const SearchAnalysis& a = analyses.back();
        backendWarnings(r, b, a.ideal);
        backendTables(r, p, b, a);
        backendPlots(r, p, b, a);
        backendText(r, p, b, a);
        if (traceJson_) traceFile(r, p, b);
        if (!verdict.empty()) verdict += "; ";
        verdict += (searches.size() > 1 ? b.name + ": " : "") + backendVerdict(r, p, b, a);
        nlohmann::json detail = backendJson(p, b, a);
        if (b.suffix.empty())
            for (const auto& [k, v] : detail.items())
                r.result[k] = v;
        byBackend[b.name] = std::move(detail);
    }
    r.result["backends"] = std::move(byBackend);
    sideBySide(r, p, searches, analyses);
    if (r.systemFailure) verdict = "scheduler FAILED: " + r.failures.front();
    if (r.partial && !r.systemFailure) verdict += " (partial: stopped on request)";
    r.verdict = verdict;
}

void BreakingPointMode::headerText(ModeResult& r, const Plan& p) const {
    const BreakThresholds& th = p.thresholds;
    r.text.push_back(fmt::format(
        "Breaking point: pattern {} ({} nodes, seed {}, hash {}), {} workers, planned "
        "concurrency {}, load {}, {} runs per probe after {} warm-up{}; backends: {}",
        graph_.label(), p.graph.size(), p.graph.seed(),
        fmt::format("0x{:016X}", p.graph.graphHash()), exec_.workers, p.concurrency,
        durationText(exec_.load), sched_.reps, backends_.warmup,
        placementNote(placement_.placement()), BackendOptions::listText(backends_.names())));
    r.text.push_back(fmt::format(
        "  thresholds ({}): a run fails if incomplete, if a job expired, or if it ends more "
        "than {} late; a probe breaks if more than {} of its runs fail, or more than {} "
        "with sdev > {} and mean delta > {}",
        thresholds_ == "scaled"
            ? fmt::format("scaled x{:.3g} from the reference's 500µs jobs", p.scale)
            : "the reference's",
        msText(th.failDeltaMs), percentText(th.breakFailFraction, 0),
        percentText(th.failFraction, 0), msText(th.sdevLimitMs), msText(th.deltaLimitMs)));
    r.text.push_back("  " + deadlines_.why);
    const std::vector<std::string> unobserved = backends_.lacking(&BackendInfo::instrumented);
    if (!unobserved.empty())
        r.text.push_back(fmt::format("  not instrumented: {} (no timeline of the workers)",
                                     BackendOptions::listText(unobserved)));
}

void BreakingPointMode::backendWarnings(ModeResult& r, const BackendSearch& b,
                                        const IdealReference& ideal) const {
    const std::string who = b.name + ": ";
    std::size_t listed = 0, more = 0, moreRuns = 0;
    for (const ProbeStatistics& p : b.probes) {
        if (!p.incomplete) continue;
        if (listed++ < kProbeWarnings) {
            r.warnings.push_back(fmt::format(
                "{}stress {}: {} of {} runs incomplete (jobs expired or were cancelled): "
                "excluded from mean delta, sdev and mean runtime, counted as failed",
                who, stressText(p.stress), p.incomplete, p.runs));
        } else {
            ++more;
            moreRuns += p.incomplete;
        }
    }
    if (more)
        r.warnings.push_back(
            fmt::format("{}{} more probes with {} incomplete runs in all (column \"incomplete "
                        "runs\")",
                        who, more, moreRuns));
    if (!b.stopReason.empty()) r.warnings.push_back(who + b.stopReason);
    if (const std::optional<std::string> w = jobTimeWarning(ideal, exec_.load))
        r.warnings.push_back(who + *w);
}

void BreakingPointMode::backendTables(ModeResult& r, const Plan& p, const BackendSearch& b,
                                      const SearchAnalysis& a) const {
    const FailFractionFit& fit = a.fit;
    const double breaking = b.breaking();
    CsvTable table({"probe", "stress", "runs", "incomplete runs", "failed runs", "fail fraction",
                    "broken", "mean delta ms", "sdev ms", "mean runtime ms", "expected ms",
                    "fitted fail fraction"});
    for (std::size_t i = 0; i < b.probes.size(); ++i) {
        const ProbeStatistics& q = b.probes[i];
        table.addRow({double(i + 1), q.stress, double(q.runs), double(q.incomplete),
                      double(q.failed), q.failFraction, q.broken ? 1.0 : 0.0, q.meanDeltaMs,
                      q.sdevMs, q.meanRuntimeMs, q.expectedMs, fit.failProbability(q.stress)});
    }
    table.setComment("backend", b.name);
    table.setComment("breaking stress",
                     fmt::format("{} in [{}, {}]", stressText(breaking), stressText(b.search.low()),
                                 stressText(b.search.high())));
    table.setComment(
        "fail fraction fit",
        fit.fitted ? fmt::format("50 % at stress {}, 95 % CI [{}, {}]", stressText(fit.stress50),
                                 stressText(fit.low), stressText(fit.high))
                   : "n/a: " + fit.reason);
    table.setComment("limit stress", stressText(p.limitStress));
    table.setComment("ideal run stress", stressText(a.ideal.stress()));
    table.setComment("units", "stress: planned speed-up factor; times in ms; fractions 0..1");
    table.setComment("incomplete runs",
                     "jobs expired or were cancelled: no runtime (empty cells), counted as "
                     "failed");
    r.tables.push_back({b.suffix, table});

    CsvTable runsTable({"probe", "stress", "run", MetricCatalogue::csvHeader("runtime"),
                        "expected ms", "delta ms", "complete", "failed"});
    for (std::size_t i = 0; i < b.probeRuns.size(); ++i)
        for (std::size_t k = 0; k < b.probeRuns[i].size(); ++k) {
            const ProbeRun& run = b.probeRuns[i][k];
            runsTable.addRow({double(i + 1), b.probes[i].stress, double(k + 1), run.runtimeMs,
                              run.expectedMs, run.runtimeMs - run.expectedMs,
                              std::isnan(run.runtimeMs) ? 0.0 : 1.0,
                              ProbeStatistics::runFailed(run, p.thresholds) ? 1.0 : 0.0});
        }
    runsTable.setComment("backend", b.name);
    r.tables.push_back({b.suffix + "-runs", runsTable});
}

void BreakingPointMode::backendPlots(ModeResult& r, const Plan& p, const BackendSearch& b,
                                     const SearchAnalysis& a) const {
    const FailFractionFit& fit = a.fit;
    const unsigned W = exec_.workers;
    if (!b.probes.empty()) {
        BreakingPointPicture pic;
        for (const ProbeStatistics& q : b.probes)
            pic.probes.push_back(
                {q.stress, q.meanRuntimeMs, q.expectedMs, q.failFraction, q.broken});
        if (fit.fitted) {
            double lo = b.probes.front().stress, hi = lo;
            for (const ProbeStatistics& q : b.probes) {
                lo = std::min(lo, q.stress);
                hi = std::max(hi, q.stress);
            }
            for (int i = 0; i <= 100; ++i) {
                const double s = lo + (hi - lo) * i / 100.0;
                pic.fittedCurve.emplace_back(s, fit.failProbability(s));
            }
        }
        pic.breakingStress = b.breaking();
        pic.fit50 = fit.fitted ? fit.stress50 : kMissing;
        pic.ciLow = fit.fitted ? fit.low : kMissing;
        pic.ciHigh = fit.fitted ? fit.high : kMissing;
        pic.limitStress = p.limitStress;
        pic.idealStress = a.ideal.stress();
        pic.title = fmt::format(
            "breaking point {} ({} nodes) on {}, {} workers, load {}, {} runs "
            "per probe",
            graph_.label(), p.graph.size(), b.name, W, Units::formatDuration(exec_.load, true),
            sched_.reps);
        r.plots.push_back({b.suffix, breakingPointPlot(pic)});
    }
    if (!b.shown.jobs.empty()) {
        TimelineOptions to;
        to.workers = W;
        to.title = fmt::format(
            "timeline of the last of {} runs at stress {} (the highest probe that held): "
            "{} ({} nodes) on {}, {} workers",
            b.shown.runs, stressText(b.shown.stress), graph_.label(), p.graph.size(), b.name, W);
        r.plots.push_back({b.suffix + "-timeline", TimelinePlot::plot(b.shown.jobs, to)});
    }
}

/// The traced probe's run, every job on its thread's track, and a line saying which.
void BreakingPointMode::traceFile(ModeResult& r, const Plan& p, const BackendSearch& b) const {
    if (!b.traced) {
        r.text.push_back("  trace            not written: no probe ran");
        return;
    }
    const TracedProbe& t = *b.traced;
    const std::string which =
        fmt::format("the last of {} runs at stress {} ({})", t.runs, stressText(t.stress),
                    t.broken ? "the breaking probe: the lowest stress that broke"
                             : "no probe broke: the highest that held");
    r.text.push_back("  trace            " + which);
    const TracedGraphRun run{fmt::format("stress {}, run {}", stressText(t.stress), t.runs), t.run};
    const GraphRunsTraceText trace =
        graphRunsTrace(fmt::format("stressrig breaking-point {} on {} ({} nodes, {} workers)",
                                   graph_.label(), b.name, p.graph.size(), exec_.workers),
                       exec_.workers, {&run, 1},
                       {{"mode", "breaking-point"},
                        {"backend", b.name},
                        {"pattern", graph_.label()},
                        {"probe", which}});
    r.files.push_back({b.suffix + "-trace.json", trace.text});
}

/// The search's outcome: its bracket, the logistic fit, the limit and the ideal run.
std::vector<std::string> searchLines(const BackendSearch& b, const FailFractionFit& fit) {
    std::vector<std::string> text;
    const BreakingPointSearch& search = b.search;
    if (search.converged())
        text.push_back(fmt::format(
            "  breaking stress  {}   bisection bracket [{}, {}] ({} probes, resolution {})",
            stressText(b.breaking()), stressText(search.low()), stressText(search.high()),
            b.probes.size(), search.limits().resolution));
    else if (search.bracketed())
        text.push_back(
            fmt::format("  breaking stress  n/a: between {} and {}, the search stopped before the "
                        "resolution {} ({} probes)",
                        stressText(search.low()), stressText(search.high()),
                        search.limits().resolution, b.probes.size()));
    else
        text.push_back(fmt::format("  breaking stress  n/a: no probe broke up to stress {}",
                                   stressText(search.low())));
    if (fit.fitted)
        text.push_back(fmt::format(
            "  logistic fit     50 % of runs fail at stress {}, 95 % CI [{}, {}] (profile "
            "likelihood over {} runs at {} stresses{})",
            stressText(fit.stress50), stressText(fit.low), stressText(fit.high), fit.runs,
            fit.stresses, fit.separated ? "; the transition is sharper than the probes" : ""));
    else
        text.push_back(fmt::format("  logistic fit     n/a: {}", fit.reason));
    return text;
}

void BreakingPointMode::backendText(ModeResult& r, const Plan& p, const BackendSearch& b,
                                    const SearchAnalysis& a) const {
    const BreakThresholds& th = p.thresholds;
    const double breaking = b.breaking();
    const double ratio = breaking / p.limitStress;
    r.text.push_back(fmt::format("{} ({} start times):", b.name, b.startTimes));
    for (std::string& line : searchLines(b, a.fit))
        r.text.push_back(std::move(line));
    r.text.push_back(fmt::format(
        "  theoretical limit stress {}: there the schedule ends at the lower bound {} = "
        "max(work / {}, critical path); breaking / limit = {}",
        stressText(p.limitStress), durationText(p.lowerBound), p.concurrency,
        textOr(ratio, [](double x) { return fmt::format("{:.2f}", x); })));
    for (std::string& line : idealLines(a.ideal, exec_.load, p.concurrency, breaking))
        r.text.push_back(std::move(line));
    if (ratio > 1)
        r.text.push_back(fmt::format(
            "  note: the breaking stress lies beyond the theoretical limit: runs there end "
            "later than planned, by up to {} (--fail-delta), which the thresholds accept",
            msText(th.failDeltaMs)));
    if (a.fit.fitted && b.search.bracketed())
        r.text.push_back(
            "  (the bisection calls a probe broken at the thresholds above, the fit gives "
            "the stress at which half of the runs fail; the two measure different points)");
    const ProbeStatistics* holding = b.search.low() > 0 ? b.at(b.search.low()) : nullptr;
    const ProbeStatistics* broken = b.search.bracketed() ? b.at(b.search.high()) : nullptr;
    if (holding) r.text.push_back("  highest holding: " + probeLine(*holding));
    if (broken) r.text.push_back("  lowest broken:   " + probeLine(*broken));
    r.text.push_back(fmt::format("  {} runs in {} probes, {} incomplete", b.runs, b.probes.size(),
                                 b.incompleteRuns()));
    if (b.partial)
        r.text.push_back(fmt::format("  stopped on request after {} probes", b.probes.size()));
}

std::string BreakingPointMode::backendVerdict(const ModeResult& r, const Plan& p,
                                              const BackendSearch& b,
                                              const SearchAnalysis& a) const {
    const BreakingPointSearch& search = b.search;
    const FailFractionFit& fit = a.fit;
    const double breaking = b.breaking();
    const double ratio = breaking / p.limitStress;
    const double ofIdeal = a.ideal.stress();
    std::string v;
    if (search.converged())
        v = fmt::format(
            "breaking stress {} (bracket {}..{}{}), {} of the theoretical limit {}, {} of "
            "the ideal run's {}",
            stressText(breaking), stressText(search.low()), stressText(search.high()),
            fit.fitted
                ? fmt::format("; 50 % failure at {}, 95 % CI {}..{}", stressText(fit.stress50),
                              stressText(fit.low), stressText(fit.high))
                : "",
            percentText(ratio, 0), stressText(p.limitStress), percentText(breaking / ofIdeal, 0),
            stressText(ofIdeal));
    else if (search.bracketed())
        v = fmt::format("breaking stress between {} and {} (search not narrowed)",
                        stressText(search.low()), stressText(search.high()));
    else if (b.probes.empty())
        v = "no probe completed";
    else
        v = fmt::format("no breaking point up to stress {}", stressText(search.low()));
    if (!r.systemFailure && search.converged() && ratio > 1)
        v += " (beyond the limit: the thresholds accept runs that end late)";
    return v;
}

/// One backend's search under the keys a result of one backend always had: each
/// backend's entry holds them, and the top level repeats those of the first of --backends.
nlohmann::json BreakingPointMode::backendJson(const Plan& p, const BackendSearch& b,
                                              const SearchAnalysis& a) const {
    const FailFractionFit& fit = a.fit;
    const double breaking = b.breaking();
    nlohmann::json j;
    j["start_times"] = b.startTimes;
    j["instrumented"] = b.instrumented;
    j["found"] = b.search.bracketed();
    j["converged"] = b.search.converged();
    j["breaking_stress"] = jsonNumber(breaking);
    j["bracket_low"] = b.search.low();
    j["bracket_high"] = jsonNumber(b.search.high());
    j["resolution"] = b.search.limits().resolution;
    j["fit"] = {{"fitted", fit.fitted},
                {"reason", fit.reason},
                {"stress_50", jsonNumber(fit.stress50)},
                {"ci95_low", jsonNumber(fit.low)},
                {"ci95_high", jsonNumber(fit.high)},
                // infinite when separated: null, with "separated": true
                {"slope_per_ln_stress",
                 std::isinf(fit.slope) ? nlohmann::json(nullptr) : jsonNumber(fit.slope)},
                {"separated", fit.separated},
                {"runs", fit.runs},
                {"failed_runs", fit.failed}};
    j["breaking_to_limit"] = jsonNumber(breaking / p.limitStress);
    j["ideal"] = idealJson(a.ideal);
    j["breaking_to_ideal"] = jsonNumber(breaking / a.ideal.stress());
    j["probes"] = b.probes.size();
    j["runs"] = b.runs;
    j["incomplete_runs"] = b.incompleteRuns();
    const ProbeStatistics* holding = b.search.low() > 0 ? b.at(b.search.low()) : nullptr;
    const ProbeStatistics* broken = b.search.bracketed() ? b.at(b.search.high()) : nullptr;
    j["highest_holding"] = holding ? probeJson(*holding) : nlohmann::json(nullptr);
    j["lowest_broken"] = broken ? probeJson(*broken) : nlohmann::json(nullptr);
    nlohmann::json list = nlohmann::json::array();
    for (const ProbeStatistics& q : b.probes)
        list.push_back(probeJson(q));
    j["probe_list"] = list;
    // the instrument's: the stress of the probe the timeline shows, null without one
    j["timeline_stress"] =
        b.shown.jobs.empty() ? nlohmann::json(nullptr) : nlohmann::json(b.shown.stress);
    return j;
}

/// Keys every result has, whatever its backends.
void BreakingPointMode::commonJson(ModeResult& r, const Plan& p,
                                   const IdealBreakingPoint& planned) const {
    const BreakThresholds& th = p.thresholds;
    nlohmann::json& j = r.result;
    j["pattern"] = graph_.label();
    j["nodes"] = p.graph.size();
    j["seed"] = p.graph.seed();
    j["hash"] = fmt::format("0x{:016X}", p.graph.graphHash());
    j["workers"] = exec_.workers;
    j["concurrency"] = p.concurrency;
    j["load_us"] = toUs(exec_.load);
    j["reps_per_probe"] = sched_.reps;
    j["warmup_runs_per_probe"] = backends_.warmup;
    j["limit_stress"] = jsonNumber(p.limitStress);
    j["ideal_jobs_as_planned"] = idealJson(planned);
    j["lower_bound_ms"] = toMs(p.lowerBound);
    j["unit_schedule_ms"] = p.unitEndMs;
    j["thresholds"] = {{"mode", thresholds_},
                       {"scale", p.scale},
                       {"fail_delta_ms", th.failDeltaMs},
                       {"sdev_limit_ms", th.sdevLimitMs},
                       {"delta_limit_ms", th.deltaLimitMs},
                       {"break_fail_fraction", th.breakFailFraction},
                       {"fail_fraction", th.failFraction}};
    j["deadlines"] = deadlines_.on;
    j["deadlines_reason"] = deadlines_.why;
    j["top_level_backend"] = backends_.names().front();
}

/// The backends side by side: a line, a row and a point each.
void BreakingPointMode::sideBySide(ModeResult& r, const Plan& p,
                                   const std::vector<BackendSearch>& searches,
                                   const std::vector<SearchAnalysis>& analyses) const {
    CsvTable summary;
    summary.addColumn("backend #");
    summary.addColumn("backend", CsvTable::Kind::Text);
    for (const char* c : {"breaking stress", "bracket low", "bracket high", "theoretical limit",
                          "ideal run, its jobs as measured", "probes", "runs"})
        summary.addColumn(c);
    std::string numbered;
    for (std::size_t i = 0; i < searches.size(); ++i) {
        const BackendSearch& b = searches[i];
        const BreakingPointSearch& search = b.search;
        const double breaking = b.breaking(), ofIdeal = analyses[i].ideal.stress();
        summary.addRow({double(i + 1), b.name, breaking, search.low(), search.high(), p.limitStress,
                        ofIdeal, double(search.probes()), double(b.runs)});
        numbered += fmt::format("{}{} {}", i ? ", " : "", i + 1, b.name);
        r.text.push_back(fmt::format(
            "  {:<10} breaking stress {}   bracket [{}, {}] ({} probes, {} runs){}", b.name,
            search.converged() ? stressText(breaking) : std::string("n/a"),
            stressText(search.low()), search.bracketed() ? stressText(search.high()) : "n/a",
            search.probes(), b.runs,
            search.converged() && p.limitStress > 0
                ? fmt::format(", {:.0f} % of the limit{}", 100 * breaking / p.limitStress,
                              ofIdeal > 0
                                  ? fmt::format(", {:.0f} % of the ideal run's {}",
                                                100 * breaking / ofIdeal, stressText(ofIdeal))
                                  : std::string())
                : std::string()));
    }
    PlotOptions po;
    po.title = fmt::format(
        "{} ({} nodes), {} workers: breaking stress per backend (x: backend # in the table)",
        graph_.label(), p.graph.size(), exec_.workers);
    po.xLabel = fmt::format("backend # ({})", numbered);
    po.yLabel = "stress";
    po.style = "points pt 7 ps 1.5";  // backends are categories: no line between them
    po.xTicStep = 1;
    r.plots.push_back(
        {"-backends",
         GnuplotScript::tablePlot(
             summary, "backend #",
             {"breaking stress", "theoretical limit", "ideal run, its jobs as measured"}, {}, po)});
    r.tables.push_back({"-backends", std::move(summary)});
}

}  // namespace

std::unique_ptr<Mode> makeBreakingPointMode() {
    return std::make_unique<BreakingPointMode>();
}

}  // namespace pullsched::rig
