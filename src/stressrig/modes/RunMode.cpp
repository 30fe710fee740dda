// --mode=run: one graph on its schedule --reps times, on each backend of --backends
// (pullsched alone by default), in three steps, the same for every backend. Measure: each
// backend through its GraphRunner, warmed up as --backend-warmup says, an instrumented one
// observed rep by rep. Analyse: each rep's outcome (only reps in which every job completed
// give a runtime). Present: every backend in detail (every job of every rep with its state)
// and side by side. What a backend cannot do decides, never how many run: deadlines only
// when every backend has them, the worker of each job only where it is observed.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <optional>
#include <thread>

#include <fmt/format.h>

#include "analysis/RunRepStatistics.hpp"
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
#include "load/StopRequest.hpp"
#include "measure/Environment.hpp"
#include "measure/LatencyHistogram.hpp"
#include "measure/RunInstrument.hpp"
#include "modes/Mode.hpp"
#include "modes/ModeFigures.hpp"
#include "pullsched/scheduler/Scheduler.hpp"
#include "pullsched/testchain/DotWriter.hpp"
#include "pullsched/testchain/GraphStatistics.hpp"
#include "pullsched/testchain/LevelSchedule.hpp"
#include "pullsched/testchain/RuleParser.hpp"
#include "pullsched/testchain/ScheduleRunner.hpp"
#include "report/BackendComparisonReport.hpp"
#include "report/BackendSeriesJson.hpp"
#include "report/LatencyReport.hpp"
#include "report/MetricCatalogue.hpp"
#include "report/MissingValues.hpp"
#include "report/RunPictures.hpp"
#include "report/RunRepAnalysis.hpp"
#include "report/ScheduledRunTrace.hpp"
#include "report/TextFormat.hpp"
#include "report/TraceDumpReport.hpp"

namespace pullsched::rig {

using namespace pullsched::testchain;

namespace {

std::string plural(std::size_t n, const char* word) {
    return fmt::format("{} {}{}", n, word, n == 1 ? "" : "s");
}

/// Rows "time ms","concurrency" of the instrumented timeline, relative to `origin`.
CsvTable concurrencyTimeline(const IncidenceCount& count, TimePoint origin,
                             const StopPredicate& stop) {
    CsvTable t({"time ms", "concurrency"});
    std::vector<int> open(count.slots(), 0);
    int active = 0;
    t.addRow({0.0, 0.0});
    const std::vector<IncidenceCount::Event> events = count.timeline(stop);
    for (std::size_t i = 0; i < events.size(); ++i) {
        pollStop(stop, i);
        const IncidenceCount::Event& e = events[i];
        int& o = open[e.slot];
        const int before = active;
        if (e.leave) {
            if (o > 0 && --o == 0) --active;
        } else if (o++ == 0) {
            ++active;
        }
        if (active != before) t.addRow({toMs(e.when - origin), static_cast<double>(active)});
    }
    return t;
}

/// The per-job table: every node of every rep, with its final state; times of jobs
/// whose body never ran are missing.
CsvTable jobsTable() {
    CsvTable t;
    for (const char* c : {"rep", "node", "level", "weight"})
        t.addColumn(c);
    t.addColumn("state", CsvTable::Kind::Text);
    for (const char* c : {"worker", "scheduled ms", "deadline ms", "start ms", "end ms",
                          "lateness us", "runtime us"})
        t.addColumn(c);
    return t;
}

CsvTable repsTable() {
    CsvTable t;
    t.addColumn("rep");
    t.addColumn("state", CsvTable::Kind::Text);
    using namespace std::string_literals;
    const auto figure = [](std::string_view name) { return MetricCatalogue::csvHeader(name); };
    for (std::string c : {figure("runtime"), "expected ms"s, "lower bound ms"s, "delta ms"s,
                          figure("efficiency"), "avg concurrency"s, figure("lateness_p50"),
                          figure("lateness_p99"), figure("jobs_completed"), figure("jobs_failed"),
                          figure("jobs_expired"), figure("jobs_cancelled"), figure("jobs_lost")})
        t.addColumn(std::move(c));
    t.addColumn("hash", CsvTable::Kind::Text);
    return t;
}

/// Reads what the instrument saw in the rep that just ended, then resets it. When `stop`
/// asks, the rep stays unobserved (no workers, no concurrency): a stop ends the series,
/// so no later rep is observed either.
void observeRep(MeasuredBackend& m, RunInstrument& instrument, const RunResult& run,
                std::size_t nodes, const StopPredicate& stop) {
    try {
        const IncidenceStatistic st = instrument.evaluate(stop);
        std::vector<int> workers(nodes);
        for (std::size_t i = 0; i < nodes; ++i)
            workers[i] = instrument.workerOf(i);
        CsvTable timeline;
        if (st.activations)
            timeline = concurrencyTimeline(instrument.incidence(), run.anchor, stop);
        m.stats.push_back(st);
        m.workerOf.push_back(std::move(workers));
        m.timelines.push_back(std::move(timeline));
        if (st.activations) m.lastStat = st;
    } catch (const Stopped&) {
    }
    instrument.reset();
}

/// One backend's reps evaluated, with what its registry entry says it can show.
struct BackendReps {
    const MeasuredBackend& measured;
    RepAnalysis analysis;
    bool instrumented = false;
    /// Files of this backend: "" for the first of --backends (the names a result of
    /// pullsched alone always had), "-<name>" for the others.
    std::string suffix;

    const std::string& name() const { return measured.series.name; }
};

class RunMode final : public Mode {
  public:
    std::string_view name() const override { return "run"; }
    std::vector<FigureSource> figures() const override {
        // a backend without deadlines expires no job: beside one there are no expired
        // jobs, only jobs that ended past their deadline (refusedFigures)
        std::vector<FigureSource> f{{"efficiency"}, {"runtime"}};
        if (backends_.lacking(&BackendInfo::deadlines).empty()) f.push_back({"jobs_expired"});
        f.push_back({"past_deadline"});
        return withLateness(LatenessAt::Flat, std::move(f));
    }
    std::vector<std::string> selectorLabels() const override { return backends_.names(); }
    std::vector<FigureRefusal> refusedFigures() const override {
        const std::vector<std::string> without = backends_.lacking(&BackendInfo::deadlines);
        if (without.empty()) return {};
        missesRefusal_ = fmt::format(
            "{} {} no deadlines, so no job expires and jobs_expired says nothing; "
            "past_deadline counts the jobs that ended after their deadline, e.g. "
            "past_deadline[{}]<=5",
            BackendOptions::listText(without), without.size() == 1 ? "has" : "have",
            backends_.names().front());
        return {{"jobs_expired", missesRefusal_}};
    }
    std::string_view summary() const override {
        return "runs one graph on its schedule (--reps times); every job with its state";
    }
    void declare(OptionTable& t) override {
        graph_.declare(t);
        exec_.declare(t);
        placement_.declare(t);
        sched_.declare(t);
        backends_.declare(t);
        t.group("Traces");
        t.flag("trace-json", traceJson_,
               "write <name>-trace.json (<name>-<backend>-trace.json for the others of "
               "--backends): every job of every rep with its state, one track per worker of an "
               "instrumented backend, per thread that ran jobs of any other "
               "(ui.perfetto.dev, chrome://tracing); every backend");
        t.optionalCount("rep", timelineRep_, 1, 1000000,
                        "the rep drawn in the timeline picture and marked in the DOT graph",
                        "the median rep by run time");
        t.flag("trace-dump", traceDump_,
               "write <name>-trace-dump.txt: the scheduler's trace points (builds with "
               "-DPULLSCHED_TRACE=ON)");
    }
    void validate(const OptionTable& t) override;

    ModeResult run(RunContext& ctx) override;

  private:
    /// What every step reads: the graph, its schedule and the job body.
    struct Plan {
        const TestChainGraph& graph;
        const RuleSet& rules;
        WeightPolicy policy;
        const LevelSchedule& schedule;
        unsigned concurrency;
        const JobBody& body;
    };

    LevelSchedule plannedSchedule(const TestChainGraph& graph, WeightPolicy policy,
                                  unsigned concurrency) const;
    std::string scheduleText(unsigned concurrency) const;

    // measure
    RunMeasurement measure(RunContext& ctx, const Plan& p) const;
    MeasuredBackend measureBackend(RunContext& ctx, const Plan& p, const std::string& name,
                                   BackendSetup setup) const;

    // present: every backend in detail, then side by side
    void present(RunContext& ctx, ModeResult& res, const Plan& p, const RunMeasurement& m,
                 const std::vector<BackendReps>& backends) const;
    void headerText(ModeResult& res, const Plan& p, const RunMeasurement& m) const;
    void backendText(ModeResult& res, const Plan& p, const RunMeasurement& m,
                     const BackendReps& b) const;
    std::string backendVerdict(const RunMeasurement& m, const BackendReps& b,
                               bool perJobFiles) const;
    std::string verdict(RunContext& ctx, const ModeResult& res, const RunMeasurement& m,
                        const std::vector<BackendReps>& backends, bool perJobFiles) const;
    /// False when a stop left the per-job files out.
    bool backendFiles(RunContext& ctx, ModeResult& res, const Plan& p, const RunMeasurement& m,
                      const BackendReps& b, nlohmann::json& detail) const;
    void traceDumpFiles(ModeResult& res, const std::string& suffix, const std::string& dump,
                        nlohmann::json& detail) const;
    void sideBySideFiles(RunContext& ctx, ModeResult& res, const Plan& p,
                         const std::vector<BackendSeries>& series) const;

    /// The schedule whose deadlines the jobs' end times are held to; nullptr with
    /// --life-window=0s (no deadlines).
    const LevelSchedule* deadlinesOf(const Plan& p) const {
        return sched_.lifeWindow > Duration::zero() ? &p.schedule : nullptr;
    }

    /// Keys every result has, whatever its backends.
    void commonJson(ModeResult& res, const Plan& p, const RunMeasurement& m) const;

    GraphOptions graph_;
    ExecutionOptions exec_;
    PlacementOption placement_;
    ScheduleOptions sched_;
    BackendOptions backends_;
    bool traceJson_ = false;
    bool traceDump_ = false;
    std::optional<unsigned> timelineRep_;
    BackendOptions::DeadlineChoice deadlines_;  ///< set by run()
    mutable std::string missesRefusal_;         ///< refusedFigures()' reason, kept alive
};

void RunMode::validate(const OptionTable& t) {
    graph_.validate(t);
    refuseIfTooLarge({graph_.nodes, kRunBytesPerNode}, fmt::format("--nodes={}", graph_.nodes));
    if (sched_.schedule == "default" && t.given("stress"))
        throw UsageError(
            "--stress applies to --schedule=adapted; --schedule=default places "
            "level l at l x --level");
    if (sched_.schedule != "default" && t.given("level"))
        throw UsageError(
            "--level applies to --schedule=default; the adapted schedule is "
            "set by --stress and --concurrency");
    // a backend that cannot do what an option asks is named, not measured otherwise
    sched_.refuseLifeWindowWithout(t, backends_);
    placement_.refuseIgnoredBy(t, backends_);
    const std::vector<std::string> unobserved = backends_.lacking(&BackendInfo::instrumented);
    if (traceDump_ && unobserved.size() == backends_.names().size())
        throw UsageError(fmt::format(
            "--trace-dump writes the trace points of an instrumented backend's scheduler: {} {} "
            "not instrumented ({} is; --trace-json traces every backend)",
            BackendOptions::listText(unobserved), unobserved.size() == 1 ? "is" : "are",
            BackendOptions::withCapability(&BackendInfo::instrumented)));
    if (timelineRep_ && *timelineRep_ > sched_.reps)
        throw UsageError(fmt::format("--rep={} is beyond --reps={}", *timelineRep_, sched_.reps));
    if (traceDump_ && !Scheduler::traceCompiledIn())
        throw UsageError(
            "--trace-dump needs a build with trace points: configure with "
            "-DPULLSCHED_TRACE=ON (this build has none)");
}

std::vector<BackendSeries> seriesOf(const RunMeasurement& m) {
    std::vector<BackendSeries> out;
    for (const MeasuredBackend& b : m.backends)
        out.push_back(b.series);
    return out;
}

LevelSchedule RunMode::plannedSchedule(const TestChainGraph& graph, WeightPolicy policy,
                                       unsigned C) const {
    LevelSchedule schedule(graph, policy);
    if (sched_.schedule == "default")
        schedule.useDefault(sched_.level);
    else
        schedule.adapt(sched_.stress, C, exec_.load);
    schedule.lifeWindow(sched_.lifeWindow);
    const Duration planned = schedule.expectedEnd();
    sched_.checkLength(planned);  // before anything runs: exit 2, nothing written
    if (sched_.reps > 1 && planned * sched_.reps > sched_.maxSchedule)
        throw UsageError(fmt::format(
            "{} reps of {} would take {} (over --max-schedule={}): lower --reps, or raise "
            "--max-schedule",
            sched_.reps, durationText(planned), durationText(planned * sched_.reps),
            durationText(sched_.maxSchedule)));
    return schedule;
}

std::string RunMode::scheduleText(unsigned C) const {
    return sched_.schedule == "default"
               ? fmt::format("default, level {}", durationText(sched_.level))
               : fmt::format("adapted, stress {}, concurrency {}", sched_.stress, C);
}

ModeResult RunMode::run(RunContext& ctx) {
    ctx.progress.note(memoryNote({graph_.nodes, kRunBytesPerNode}, availableMemory()));
    const TestChainGraph graph = graph_.graph(ctx.stop.predicate());
    const RuleSet rules = graph_.rulesFor();
    const WeightPolicy policy = rules.schedulingWeightPolicy();
    const unsigned C = sched_.plannedConcurrency(exec_.machineParallelism());
    const LevelSchedule schedule = plannedSchedule(graph, policy, C);
    deadlines_ = backends_.deadlines(sched_.lifeWindow);

    ModeResult res;
    res.name = fmt::format("run-{}-{}", graph_.label(), graph.size());
    const JobBody body(exec_.loadKind, &ctx.progress);
    res.calibration = body.json();
    const Plan p{graph, rules, policy, schedule, C, body};

    const RunMeasurement m = measure(ctx, p);
    std::vector<BackendReps> backends;
    for (const MeasuredBackend& b : m.backends)
        backends.push_back({b, analyseReps(b, m.limit),
                            BackendRegistry::find(b.series.name).instrumented,
                            backends.empty() ? "" : "-" + b.series.name});
    present(ctx, res, p, m, backends);
    return res;
}

// ---- measure

/// Every backend of --backends in turn, on the same graph, schedule and job body. Each
/// keeps the schedule's deadlines when all of them can (BackendOptions::deadlines); else
/// none does, and the jobs that ended past theirs are counted from the end times
/// (past_deadline).
RunMeasurement RunMode::measure(RunContext& ctx, const Plan& p) const {
    const GraphStatistics stats(p.graph, p.policy, ctx.stop.predicate());
    RunMeasurement m;
    m.planned = p.schedule.expectedEnd();
    m.lowerBound = stats.lowerBound(p.concurrency, exec_.load);
    m.deadlines = deadlines_.on;
    // A run that is merely late must not count as lost: allow far more than the plan.
    m.limit = completionLimit(RunnerConfig{}, m.planned, stats.work(exec_.load),
                              m.deadlines ? sched_.lifeWindow : Duration::zero());
    TestChainGraph reference = p.graph;
    reference.recalculate(ctx.stop.predicate());
    m.hash = fmt::format("0x{:016X}", reference.graphHash());

    BackendSetup setup = backendSetup(exec_.workers, placement_.placement(), exec_.load,
                                      p.body.load(), p.policy, p.concurrency);
    setup.schedule = p.schedule;
    setup.deadlines = m.deadlines;
    setup.completionLimit = m.limit.total();
    for (const std::string& name : backends_.names())
        m.backends.push_back(measureBackend(ctx, p, name, setup));
    return m;
}

/// One backend's warm-up and measured reps, an instrumented one observed rep by rep. A rep
/// with expired jobs is a result; a correctness failure ends the series (each kept rep is
/// judged from its outcome by analyseReps).
MeasuredBackend RunMode::measureBackend(RunContext& ctx, const Plan& p, const std::string& name,
                                        BackendSetup setup) const {
    const std::size_t N = p.graph.size();
    MeasuredBackend m;
    std::optional<RunInstrument> instrument;
    if (BackendRegistry::find(name).instrumented) {
        instrument.emplace(exec_.workers, N);
        setup.observer = &*instrument;
    }
    SeriesPlan plan;
    plan.reps = sched_.reps;
    plan.warmup = backends_.warmup;
    plan.judge = scheduledRunFailure;
    plan.traceDump = traceDump_ && instrument;
    plan.beforeMeasured = [&] {  // the warm-up is not observed
        if (instrument) instrument->reset();
    };
    unsigned rep = 0;
    plan.afterRun = [&](const BackendRun& run) {
        ++rep;
        if (instrument) observeRep(m, *instrument, run.result, N, ctx.stop.predicateBeyond(N));
        const double conc = !m.stats.empty() && m.stats.back().activations
                                ? m.stats.back().avgConcurrency
                                : kMissing;
        const RunRepOutcome o = evaluateRunRep(rep, run.result, conc, run.result.interrupted);
        ctx.progress.progress(
            rep, sched_.reps,
            o.complete()
                ? fmt::format("{}: runtime {}, planned {}", name, msText(o.runtimeMs),
                              msText(o.expectedMs))
                : fmt::format("{}: incomplete: {} expired, {} cancelled, {} failed{}", name,
                              o.expired, o.cancelled, o.failed, o.timedOut ? ", timed out" : ""));
    };
    m.series = measureSeries(name, p.graph, setup, plan, ctx.stop);
    ctx.progress.note(fmt::format("{}: {} runs after {} warm-up, runtime median {}{}", name,
                                  m.series.runs.size(), m.series.warmups,
                                  msText(m.series.runtimeMs().median),
                                  m.series.failure.empty() ? "" : ", FAILED: " + m.series.failure));
    return m;
}

// ---- present

std::string hashCheckText(const RunRepSummary& s) {
    const std::size_t runReps = s.reps;
    if (runReps == 0) return "not checked: no rep ran to its end";
    if (s.hashMismatch)
        return fmt::format("FAILED: mismatch in {} of {} reps with every job completed",
                           s.hashMismatch, runReps);
    if (s.hashOk == runReps) return fmt::format("ok ({})", plural(runReps, "rep"));
    return fmt::format("{}not checked: {} expired, {} cancelled ({} of {} reps)",
                       s.hashOk ? fmt::format("ok in {}; ", plural(s.hashOk, "rep")) : "",
                       plural(s.expired, "job"), s.cancelled, runReps - s.hashOk, runReps);
}

/// The figures of the reps: actual time, delta, lower bound, efficiency, concurrency.
std::vector<std::string> detailFigures(const RunRepSummary& s, const RunMeasurement& m,
                                       const BackendReps& b, unsigned C) {
    std::vector<std::string> text;
    text.push_back(fmt::format("  expected time    {:>10}", durationText(m.planned)));
    if (s.runtimeMs.count > 1)
        text.push_back(
            fmt::format("  actual time      {:>10}  (mean of {} complete reps, min {}, "
                        "max {}, sdev {})",
                        msText(s.runtimeMs.mean), s.runtimeMs.count, msText(s.runtimeMs.min),
                        msText(s.runtimeMs.max), msText(s.runtimeMs.sdev)));
    else
        text.push_back(fmt::format("  actual time      {:>10}{}", msText(s.runtimeMs.mean),
                                   s.runtimeMs.count == 0 ? "  (no rep completed every job)" : ""));
    text.push_back(
        fmt::format("  delta            {:>10}  (actual - expected)", msText(s.deltaMs.mean)));
    text.push_back(fmt::format("  lower bound      {:>10}  = max(work / {}, critical path)",
                               durationText(m.lowerBound), C));
    text.push_back(
        fmt::format("  efficiency       {:>10}  (lower bound / actual)",
                    textOr(s.efficiency.mean, [](double v) { return fmt::format("{:.3f}", v); })));
    const IncidenceStatistic& last = b.measured.lastStat;
    if (b.instrumented)
        text.push_back(fmt::format(
            "  avg concurrency  {:>10}{}",
            textOr(s.avgConcurrency.mean, [](double v) { return fmt::format("{:.2f}", v); }),
            last.activations
                ? fmt::format("  (mean of {}; max {}, impeded {} in the last rep that ran jobs)",
                              plural(s.avgConcurrency.count, "rep"), last.maxConcurrency,
                              durationText(last.impededTime))
                : std::string("  (no job ran)")));
    return text;
}

void RunMode::headerText(ModeResult& res, const Plan& p, const RunMeasurement& m) const {
    auto& text = res.text;
    text.push_back(fmt::format(
        "stressrig run: pattern {} ({} nodes, seed {}, hash {}), {} workers, load {} ({}){}; "
        "backends: {}",
        graph_.label(), p.graph.size(), p.graph.seed(), m.hash, exec_.workers,
        durationText(exec_.load), exec_.loadKind, placementNote(placement_.placement()),
        BackendOptions::listText(backends_.names())));
    text.push_back(
        fmt::format("schedule: {}; {} measured reps per backend after {} warm-up; calibration: {}",
                    scheduleText(p.concurrency), sched_.reps, backends_.warmup, p.body.text()));
    text.push_back("  " + deadlines_.why);
    const std::vector<std::string> unobserved = backends_.lacking(&BackendInfo::instrumented);
    if (!unobserved.empty())
        text.push_back(fmt::format(
            "  not instrumented: {} (no worker of each job, concurrency or timeline; a trace "
            "shows the thread that ran each job)",
            BackendOptions::listText(unobserved)));
}

/// One backend's reps in detail.
void RunMode::backendText(ModeResult& res, const Plan& p, const RunMeasurement& m,
                          const BackendReps& b) const {
    const RunRepSummary& s = b.analysis.summary;
    auto& text = res.text;
    text.push_back(fmt::format(
        "{}: reps {} of {}{}", b.name(), s.reps, sched_.reps,
        s.interrupted ? fmt::format(" (+{} interrupted)", s.interrupted) : std::string()));
    for (std::string& line : detailFigures(s, m, b, p.concurrency))
        text.push_back(std::move(line));
    text.push_back(fmt::format("  lateness         {}", percentileLine(b.analysis.lateness)));
    // The counts below are of the reps that ran to their end; with none, saying "0 of 0"
    // beside an interrupted rep's thousands of jobs would contradict it.
    if (s.reps == 0) {
        text.push_back(
            "  jobs             no rep ran to its end, so none is counted here"
            " (what ran before the stop is below)");
    } else {
        text.push_back(
            fmt::format("  jobs             {} of {} completed; {} expired, {} cancelled, "
                        "{} failed{}",
                        s.completed, s.jobs, s.expired, s.cancelled, s.failed,
                        s.lost ? fmt::format(", {} lost", s.lost) : std::string()));
        text.push_back(fmt::format("  jobs expired     {} of {} jobs", s.expired, s.jobs));
        if (const LevelSchedule* deadlines = deadlinesOf(p))
            text.push_back(fmt::format(
                "  past deadline    {} of {} jobs that ran ended after their deadline",
                b.measured.series.pastDeadline(*deadlines), b.measured.series.lateness().count()));
    }
    for (const RunRepOutcome& o : b.analysis.outcomes)
        if (o.interrupted && !o.complete())
            text.push_back(
                fmt::format("  interrupted rep {}: {} of {} jobs completed before the stop, "
                            "{} cancelled by it, {} expired, {} not posted",
                            o.rep, o.completed, o.nodes, o.cancelled, o.expired, o.lost));
    text.push_back(fmt::format("  hash check       {}", hashCheckText(s)));
    if (s.missed() > 0 && m.deadlines)
        text.push_back(fmt::format(
            "  note: a job not started within its life window ({}) expires and its successors are "
            "cancelled; fewer workers than cores, a lower --stress or a longer --life-window "
            "(0s = none) avoid that",
            durationText(sched_.lifeWindow)));
}

/// One backend's outcome for the verdict.
std::string RunMode::backendVerdict(const RunMeasurement& m, const BackendReps& b,
                                    bool perJobFiles) const {
    const RunRepSummary& s = b.analysis.summary;
    const std::size_t runReps = s.reps;
    if (runReps == 0)
        return perJobFiles
                   ? "no rep ran to its end; the jobs that ran before the stop are in the tables"
                   : "no rep ran to its end; the jobs that ran before the stop are counted, "
                     "their table is left out";
    if (s.missed() == 0 && s.complete == runReps)
        return fmt::format(
            "{} completed, no deadline missed, hash ok; runtime {} vs {} planned, efficiency {}",
            plural(runReps, "rep"), msText(s.runtimeMs.mean), durationText(m.planned),
            textOr(s.efficiency.mean, [](double v) { return fmt::format("{:.3f}", v); }));
    std::string v = fmt::format(
        "deadline misses in {} of {} reps (the schedule was not kept): {} of {} jobs expired, "
        "{} cancelled after them; hash not checked: {}",
        s.incomplete(), runReps, s.expired, s.jobs, s.cancelled,
        s.expired ? plural(s.expired, "job") + " expired"
                  : plural(s.cancelled, "job") + " cancelled");
    if (s.complete > 0) v += fmt::format("; {} complete, hash ok", plural(s.complete, "rep"));
    return v;
}

/// Each backend's outcome (named when there are several), the fastest of several, and
/// what a busy machine or a stop did to them.
std::string RunMode::verdict(RunContext& ctx, const ModeResult& res, const RunMeasurement& m,
                             const std::vector<BackendReps>& backends, bool perJobFiles) const {
    if (res.systemFailure) return fmt::format("FAILED: {}", res.failures.front());
    std::string v;
    const BackendReps* fastest = nullptr;
    bool missed = false;
    for (const BackendReps& b : backends) {
        if (!v.empty()) v += "; ";
        v += (backends.size() > 1 ? b.name() + ": " : "") + backendVerdict(m, b, perJobFiles);
        const double median = b.analysis.summary.runtimeMs.median;
        if (!std::isnan(median) &&
            (!fastest || median < fastest->analysis.summary.runtimeMs.median))
            fastest = &b;
        missed = missed || b.analysis.summary.missed() > 0;
    }
    if (backends.size() > 1 && fastest)
        v += fmt::format("; fastest median runtime: {} ({})", fastest->name(),
                         msText(fastest->analysis.summary.runtimeMs.median));
    if (ctx.environment.busyNow())
        v += missed ? "; the machine was busy, so the misses include competition for the CPU"
                    : "; the machine was busy, so times and lateness include competition for "
                      "the CPU";
    if (res.partial) {
        for (const BackendReps& b : backends)
            if (b.measured.series.interrupted)
                return fmt::format("stopped after {} of {} reps{}; {}", b.analysis.summary.reps,
                                   sched_.reps,
                                   b.analysis.summary.interrupted
                                       ? " (the rep under way was cut short and is not counted)"
                                       : "",
                                   v);
    }
    return v;
}

/// The reps' figures under the keys a result of one backend always had: each backend's
/// entry holds them, and the top level repeats those of the first of --backends.
nlohmann::json repsJson(const BackendReps& b) {
    const RunRepSummary& s = b.analysis.summary;
    nlohmann::json j;
    j["instrumented"] = b.instrumented;
    j["reps_run"] = s.reps;
    j["reps_interrupted"] = s.interrupted;
    j["reps_complete"] = s.complete;
    j["reps_incomplete"] = s.incomplete();
    j["runtime_ms"] = jsonNumber(s.runtimeMs.mean);
    j["runtime_min_ms"] = jsonNumber(s.runtimeMs.min);
    j["runtime_max_ms"] = jsonNumber(s.runtimeMs.max);
    j["runtime_sdev_ms"] = jsonNumber(s.runtimeMs.sdev);
    j["delta_ms"] = jsonNumber(s.deltaMs.mean);
    j["efficiency"] = jsonNumber(s.efficiency.mean);
    // the instrument's: an uninstrumented backend has none (null, not 0)
    j["avg_concurrency"] = jsonNumber(s.avgConcurrency.mean);
    j["max_concurrency_last_rep"] = b.instrumented
                                        ? nlohmann::json(b.measured.lastStat.maxConcurrency)
                                        : nlohmann::json(nullptr);
    const nlohmann::json latenessJson = histogramJson(b.analysis.lateness);
    for (const auto& [k, v] : latenessJson.items())
        j["lateness_" + k] = v;
    j["jobs_posted"] = s.jobs;
    j["jobs_completed"] = s.completed;
    j["jobs_failed"] = s.failed;
    j["jobs_expired"] = s.expired;
    j["jobs_cancelled"] = s.cancelled;
    j["jobs_lost"] = s.lost;
    j["jobs_repeated"] = s.doubled;
    j["hash_check"] = s.hashMismatch                 ? "mismatch"
                      : s.reps && s.hashOk == s.reps ? "ok"
                      : s.hashOk                     ? "partly checked"
                                                     : "not checked";
    j["hash_ok_reps"] = s.hashOk;
    j["hash_mismatch_reps"] = s.hashMismatch;
    return j;
}

void RunMode::present(RunContext& ctx, ModeResult& res, const Plan& p, const RunMeasurement& m,
                      const std::vector<BackendReps>& backends) const {
    headerText(res, p, m);
    commonJson(res, p, m);
    nlohmann::json byBackend = nlohmann::json::object();
    bool perJobFiles = true;
    for (const BackendReps& b : backends) {
        const RunRepSummary& s = b.analysis.summary;
        backendText(res, p, m, b);
        const std::string who = b.name() + ": ";
        for (const std::string& w : b.analysis.warnings)
            res.warnings.push_back(who + w);
        if (s.incomplete() > 0 && s.reps > 0)
            res.warnings.push_back(fmt::format(
                "{}{} of {} reps incomplete: excluded from runtime, delta and efficiency", who,
                s.incomplete(), s.reps));
        std::size_t before = res.failures.size();
        for (const RunRepOutcome& o : b.analysis.outcomes)
            if (std::string f = o.failure(); !f.empty()) res.failures.push_back(who + f);
        // a failed warm-up left no rep to say it
        if (res.failures.size() == before && !b.measured.series.failure.empty())
            res.failures.push_back(who + b.measured.series.failure);
        res.partial = res.partial || b.measured.series.interrupted;
        res.overload = res.overload || s.missed() > 0;  // the schedule was not kept
        nlohmann::json detail = repsJson(b);
        perJobFiles = backendFiles(ctx, res, p, m, b, detail) && perJobFiles;
        nlohmann::json entry = seriesJson(b.measured.series, deadlinesOf(p));
        for (const auto& [k, v] : detail.items())
            entry[k] = v;  // the reps' figures over the series' (complete reps only)
        byBackend[b.name()] = std::move(entry);
        if (b.suffix.empty())
            for (const auto& [k, v] : detail.items())
                res.result[k] = v;
    }
    res.result["backends"] = std::move(byBackend);
    const std::vector<BackendSeries> series = seriesOf(m);
    for (std::string& line : backendsText(series, deadlinesOf(p)))
        res.text.push_back(std::move(line));
    res.systemFailure = !res.failures.empty();
    sideBySideFiles(ctx, res, p, series);
    res.verdict = verdict(ctx, res, m, backends, perJobFiles);
}

/// Every node of every rep with its final state and worker.
CsvTable detailJobs(const MeasuredBackend& b, const LevelSchedule& schedule,
                    const TestChainGraph& graph, WeightPolicy policy, bool deadlines,
                    const StopPredicate& stop) {
    CsvTable jobs = jobsTable();
    const std::vector<const BackendRun*> reps = b.reps();
    for (std::size_t k = 0; k < reps.size(); ++k) {
        const RunResult& r = reps[k]->result;
        const auto rep = static_cast<double>(k + 1);
        if (r.timedOut)  // no job states: list the nodes as unfinished
            for (std::size_t i = 0; i < graph.size(); ++i) {
                pollStop(stop, jobs.rowCount());
                jobs.addRow({rep, double(i), double(graph.node(i).level),
                             double(effectiveWeight(graph.node(i).weight, policy)),
                             std::string("unfinished"), kMissing, toMs(schedule.nodeStart(i)),
                             deadlines ? toMs(schedule.nodeDeadline(i)) : kMissing, kMissing,
                             kMissing, kMissing, kMissing});
            }
        for (const JobTiming& j : r.jobs) {
            pollStop(stop, jobs.rowCount());
            const bool ran = j.ran();
            const int w = b.observed(k) ? b.workerOf[k][j.node] : -1;
            jobs.addRow({rep, double(j.node), double(j.level), double(j.weight),
                         j.posted ? std::string(toString(j.state)) : std::string("not posted"),
                         ran && w >= 0 ? double(w) : kMissing, toMs(j.scheduledStart),
                         deadlines ? toMs(schedule.nodeDeadline(j.node)) : kMissing,
                         ran ? toMs(j.actualStart) : kMissing, ran ? toMs(j.end) : kMissing,
                         ran ? toUs(j.lateness()) : kMissing, ran ? toUs(j.runTime()) : kMissing});
        }
    }
    return jobs;
}

CsvTable detailReps(const RepAnalysis& a) {
    CsvTable reps = repsTable();
    for (const RunRepOutcome& o : a.outcomes)
        reps.addRow({double(o.rep), std::string(o.stateText()), o.runtimeMs, o.expectedMs,
                     o.lowerBoundMs, o.deltaMs, o.efficiency, o.avgConcurrency, o.latenessP50Us,
                     o.latenessP99Us, double(o.completed), double(o.failed), double(o.expired),
                     double(o.cancelled), double(o.lost),
                     std::string(RunRepOutcome::text(o.hash))});
    return reps;
}

/// The trace of every rep of a backend, one track per worker where it is observed, else
/// per thread that ran jobs (BackendRun::lanes).
std::string traceText(const MeasuredBackend& b, const std::string& title, unsigned workers,
                      const std::vector<std::pair<std::string, std::string>>& metadata,
                      const StopPredicate& stop, std::size_t& events) {
    const std::vector<const BackendRun*> reps = b.reps();
    std::int32_t top = -1;  // a thread beyond the workers needs a track of its own
    for (std::size_t k = 0; k < reps.size(); ++k)
        if (!b.observed(k))
            for (const std::int32_t lane : reps[k]->lanes)
                top = std::max(top, lane);
    ScheduledRunTrace trace(title, std::max(workers, static_cast<unsigned>(top + 1)),
                            b.observed(0) ? "worker" : "thread");
    for (std::size_t k = 0; k < reps.size(); ++k) {
        throwIfStopped(stop);
        const BackendRun& run = *reps[k];
        trace.addRep(static_cast<unsigned>(k + 1), run.result, [&](std::size_t n) {
            if (b.observed(k)) return b.workerOf[k][n];
            return n < run.lanes.size() ? static_cast<int>(run.lanes[n]) : -1;
        });
    }
    for (const auto& [key, value] : metadata)
        trace.setMetadata(key, value);
    throwIfStopped(stop);
    events = trace.jobEvents();
    return trace.text();
}

/// One backend's per-job files (jobs table, timeline, concurrency, trace; the DOT graph for
/// the first) and its reps table, named with its suffix; its trace keys go into `detail`.
bool RunMode::backendFiles(RunContext& ctx, ModeResult& res, const Plan& p, const RunMeasurement& m,
                           const BackendReps& b, nlohmann::json& detail) const {
    const MeasuredBackend& mb = b.measured;
    const std::string& sfx = b.suffix;
    const std::size_t N = p.graph.size();
    const unsigned W = exec_.workers;
    // The files that grow with the jobs, made in full before any goes into the result: a
    // stop past a stopped run's budget leaves them all out.
    const std::size_t jobRows = N * std::max<std::size_t>(mb.reps().size(), 1);
    const StopPredicate stop = ctx.stop.predicateBeyond(jobRows);
    std::vector<ResultPlot> plots;
    std::vector<ResultFile> files;
    std::optional<ResultTable> jobsFile, concurrencyFile;
    std::optional<std::size_t> traceEvents;
    const bool traced = traceJson_;
    try {
        throwIfStopped(stop);
        jobsFile =
            ResultTable{sfx, detailJobs(mb, p.schedule, p.graph, p.policy, m.deadlines, stop)};
        CsvTable& jobs = jobsFile->table;
        jobs.setComment("backend", b.name());
        jobs.setComment("graph hash", m.hash);
        jobs.setComment("state",
                        "completed | failed | expired | cancelled (never ran: "
                        "times empty); unfinished = the rep timed out");
        if (!b.instrumented)
            jobs.setComment("worker", "not observed: the backend is not instrumented");
        if (b.instrumented)  // the timeline's lanes are the workers
            if (auto picture =
                    runTimeline(jobs, timelineRep_, graph_.label(), N, W, exec_.load, stop))
                plots.push_back({sfx, std::move(*picture)});
        if (sfx.empty())  // one graph: its states as the first backend ran it
            files.push_back({".dot",
                             runGraphDot(p.graph, jobs, timelineRep_, graph_.label(), W, stop),
                             ResultFile::Kind::Dot});
        // The concurrency picture shows the rep the timeline shows, with that rep's mean.
        if (const std::optional<unsigned> shown =
                timelineRep_ ? timelineRep_ : TimelinePlot::medianRep(jobs, stop);
            shown && *shown >= 1 && *shown <= mb.timelines.size() &&
            mb.timelines[*shown - 1].rowCount() > 1) {
            const CsvTable& timeline = mb.timelines[*shown - 1];
            ConcurrencyPicture what{W,
                                    *shown,
                                    static_cast<unsigned>(mb.reps().size()),
                                    timelineRep_ ? "--rep" : "the median by run time",
                                    mb.stats[*shown - 1].avgConcurrency,
                                    ctx.environment.cores};
            plots.push_back({sfx + "-concurrency", runConcurrencyPlot(timeline, what, stop)});
            concurrencyFile = ResultTable{sfx + "-concurrency", timeline};
            concurrencyFile->table.setComment("rep", std::to_string(*shown));
        }
        if (traced) {
            std::size_t events = 0;
            files.push_back({sfx + "-trace.json",
                             traceText(mb,
                                       fmt::format("stressrig run {} on {} ({} nodes, {} workers)",
                                                   graph_.label(), b.name(), N, W),
                                       W,
                                       {{"graph hash", m.hash},
                                        {"pattern", graph_.label()},
                                        {"backend", b.name()},
                                        {"schedule", scheduleText(p.concurrency)}},
                                       stop, events)});
            traceEvents = events;
        }
    } catch (const Stopped&) {
        plots.clear();
        files.clear();
        jobsFile.reset();
        concurrencyFile.reset();
        traceEvents.reset();
        res.warnings.push_back(fmt::format(
            "{}: the per-job files (jobs table, timeline, concurrency timeline, DOT graph{}) not "
            "written: the run was stopped, and they hold {} job rows, more than the {} a stopped "
            "run writes",
            b.name(), traced ? ", trace JSON" : "", jobRows, StopRequest::kStoppedRunRows));
    }
    const bool made = jobsFile.has_value();
    for (ResultPlot& plot : plots)
        res.plots.push_back(std::move(plot));
    for (ResultFile& file : files)
        res.files.push_back(std::move(file));
    if (jobsFile) res.tables.push_back(std::move(*jobsFile));
    res.tables.push_back({sfx + "-reps", detailReps(b.analysis)});
    if (concurrencyFile) res.tables.push_back(std::move(*concurrencyFile));
    if (traceEvents) detail["trace_job_events"] = *traceEvents;
    if (traceDump_ && b.instrumented) traceDumpFiles(res, sfx, mb.series.traceDump, detail);
    return made;
}

/// The scheduler's trace dump, and the dump read back as people look at it: worker lanes
/// and a Perfetto trace.
void RunMode::traceDumpFiles(ModeResult& res, const std::string& suffix, const std::string& dump,
                             nlohmann::json& detail) const {
    if (dump.empty()) {
        res.warnings.push_back("the scheduler wrote no trace dump");
        return;
    }
    res.files.push_back({suffix + "-trace-dump.txt", dump});
    const TraceDump parsed = TraceDump::parse(dump);
    res.plots.push_back(
        {suffix + "-trace-dump",
         parsed.lanesPlot(fmt::format(
             "scheduler trace dump: {} on {} workers ({} events, {} dropped)", graph_.label(),
             exec_.workers, parsed.events().size(), parsed.dropped()))});
    res.files.push_back({suffix + "-trace-dump.json", parsed.chromeTrace()});
    detail["trace_dump_events"] = parsed.events().size();
    detail["trace_dump_dropped"] = parsed.dropped();
    detail["trace_dump_counts"] = parsed.counts();
    if (parsed.dropped() > 0)
        res.warnings.push_back(
            fmt::format("the trace dump dropped {} events (buffers full): its tail is incomplete",
                        parsed.dropped()));
}

void RunMode::commonJson(ModeResult& res, const Plan& p, const RunMeasurement& m) const {
    nlohmann::json& j = res.result;
    j["pattern"] = graph_.label();
    j["rules"] = RuleParser::toString(p.rules);
    j["seed"] = p.graph.seed();
    j["nodes"] = p.graph.size();
    j["max_fan"] = p.graph.maxFan();
    j["levels"] = p.graph.levels();
    j["graph_hash"] = m.hash;
    j["workers"] = exec_.workers;
    j["concurrency"] = p.concurrency;
    j["schedule"] = sched_.schedule;
    j["planned_schedule_ms"] = toMs(m.planned);
    j["expected_ms"] = toMs(m.planned);  // the same figure under the name other modes use
    j["lower_bound_ms"] = toMs(m.lowerBound);
    j["reps_planned"] = sched_.reps;
    j["warmup_runs_per_backend"] = backends_.warmup;
    j["deadlines"] = m.deadlines;
    j["deadlines_reason"] = deadlines_.why;
    j["top_level_backend"] = backends_.names().front();
}

/// Each backend's last measured rep node by node: the start times side by side.
CsvTable startsTable(const std::vector<BackendSeries>& series, const TestChainGraph& graph,
                     const LevelSchedule& schedule, const StopPredicate& stop) {
    const std::size_t N = graph.size();
    CsvTable jobs;
    jobs.addColumn("node");
    jobs.addColumn("scheduled ms");
    for (const BackendSeries& s : series)
        jobs.addColumn(fmt::format("{} start ms", s.name));
    for (std::size_t i = 0; i < N; ++i) {
        pollStop(stop, i);
        std::vector<CsvTable::Cell> row{double(i), toMs(schedule.nodeStart(i))};
        for (const BackendSeries& s : series) {
            const bool has = !s.runs.empty() && s.runs.back().result.jobs.size() == N &&
                             s.runs.back().result.jobs[i].ran();
            row.push_back(has ? toMs(s.runs.back().result.jobs[i].actualStart) : kMissing);
        }
        jobs.addRow(std::move(row));
    }
    return jobs;
}

/// The runtime of every rep of each backend.
CsvTable runtimePerRep(const std::vector<BackendSeries>& series, unsigned reps) {
    CsvTable repsTable;
    repsTable.addColumn("rep");
    for (const BackendSeries& s : series)
        repsTable.addColumn(s.name + " runtime ms");
    for (unsigned rep = 1; rep <= reps; ++rep) {
        std::vector<CsvTable::Cell> row{double(rep)};
        for (const BackendSeries& s : series) {
            const bool has = rep <= s.runs.size() && s.runs[rep - 1].result.completed;
            row.push_back(has ? toMs(s.runs[rep - 1].result.runTime) : kMissing);
        }
        repsTable.addRow(std::move(row));
    }
    return repsTable;
}

/// The backends side by side: a row each, their runtimes per rep and their start times.
void RunMode::sideBySideFiles(RunContext& ctx, ModeResult& res, const Plan& p,
                              const std::vector<BackendSeries>& series) const {
    const std::size_t N = p.graph.size();
    const unsigned W = exec_.workers;
    res.tables.push_back({"-backends", backendsTable(series, deadlinesOf(p))});
    std::vector<std::string> runtimeColumns;
    for (const BackendSeries& s : series)
        runtimeColumns.push_back(s.name + " runtime ms");
    PlotOptions pr;
    pr.title =
        fmt::format("{} ({} nodes), {} workers: runtime per rep and backend", graph_.label(), N, W);
    pr.xLabel = "rep";
    pr.yLabel = "runtime (ms)";
    res.plots.push_back({"-runtimes", GnuplotScript::tablePlot(runtimePerRep(series, sched_.reps),
                                                               "rep", runtimeColumns, {}, pr)});
    // grows with the graph: left out on a stop past the budget
    try {
        const StopPredicate stop = ctx.stop.predicateBeyond(N);
        throwIfStopped(stop);
        const CsvTable starts = startsTable(series, p.graph, p.schedule, stop);
        std::vector<std::string> startColumns{"scheduled ms"};
        for (const BackendSeries& s : series)
            startColumns.push_back(s.name + " start ms");
        PlotOptions po;
        po.title = fmt::format("{} ({} nodes), {} workers, load {}: schedule vs. start per backend",
                               graph_.label(), N, W, Units::formatDuration(exec_.load, true));
        po.xLabel = "node";
        po.yLabel = "time since anchor (ms)";
        po.style = "points";
        res.plots.push_back(
            {"-starts", GnuplotScript::tablePlot(starts, "node", startColumns, {}, po, stop)});
    } catch (const Stopped&) {
        res.warnings.push_back(fmt::format(
            "the start times per backend not drawn: the run was stopped, and they hold {} "
            "nodes, more than the {} a stopped run writes",
            N, StopRequest::kStoppedRunRows));
    }
}

}  // namespace

std::unique_ptr<Mode> makeRunMode() {
    return std::make_unique<RunMode>();
}

}  // namespace pullsched::rig
