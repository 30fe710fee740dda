// --mode=run: one graph run on its schedule --reps times; every job of every rep is
// reported with its state, and only reps in which every job completed give a runtime.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <optional>
#include <sstream>
#include <thread>

#include <fmt/format.h>

#include "analysis/RunRepStatistics.hpp"
#include "backends/BackendComparison.hpp"
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
#include "load/SchedulerFactory.hpp"
#include "load/StopRequest.hpp"
#include "measure/Environment.hpp"
#include "measure/LatencyHistogram.hpp"
#include "measure/RunInstrument.hpp"
#include "modes/Mode.hpp"
#include "pullsched/scheduler/Scheduler.hpp"
#include "pullsched/testchain/DotWriter.hpp"
#include "pullsched/testchain/GraphStatistics.hpp"
#include "pullsched/testchain/LevelSchedule.hpp"
#include "pullsched/testchain/RuleParser.hpp"
#include "pullsched/testchain/ScheduleRunner.hpp"
#include "report/LatencyReport.hpp"
#include "report/MissingValues.hpp"
#include "report/RunPictures.hpp"
#include "report/ScheduledRunTrace.hpp"
#include "report/TraceDumpReport.hpp"

namespace pullsched::rig {

using namespace pullsched::testchain;

namespace {

/// Text of a duration in milliseconds that may be missing.
std::string durText(double milliseconds) {
    return textOr(milliseconds, [](double v) {
        return Units::formatDuration(Duration{static_cast<std::int64_t>(std::llround(v * 1e6))});
    });
}
std::string plural(std::size_t n, const char* word) {
    return fmt::format("{} {}{}", n, word, n == 1 ? "" : "s");
}

/// Rows "time ms","concurrency" of the instrumented timeline, relative to `origin`.
CsvTable concurrencyTimeline(const IncidenceCount& count, TimePoint origin) {
    CsvTable t({"time ms", "concurrency"});
    std::vector<int> open(count.slots(), 0);
    int active = 0;
    t.addRow({0.0, 0.0});
    for (const IncidenceCount::Event& e : count.timeline()) {
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
    for (const char* c : {"runtime ms", "expected ms", "lower bound ms", "delta ms", "efficiency",
                          "avg concurrency", "lateness p50 us", "lateness p99 us", "completed",
                          "failed", "expired", "cancelled", "lost"})
        t.addColumn(c);
    t.addColumn("hash", CsvTable::Kind::Text);
    return t;
}

class RunMode final : public Mode {
  public:
    std::string_view name() const override { return "run"; }
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
               "write <name>-trace.json: every job of every rep with its state, one track per "
               "worker (ui.perfetto.dev, chrome://tracing)");
        t.optionalCount("rep", timelineRep_, 1, 1000000,
                        "the rep drawn in the timeline picture and marked in the DOT graph",
                        "the median rep by run time");
        t.flag("trace-dump", traceDump_,
               "write <name>-trace-dump.txt: the scheduler's trace points (builds with "
               "-DPULLSCHED_TRACE=ON)");
    }
    void validate(const OptionTable& t) override {
        graph_.validate();
        refuseIfTooLarge({graph_.nodes, kRunBytesPerNode}, fmt::format("--nodes={}", graph_.nodes));
        if (sched_.schedule == "default" && t.given("stress"))
            throw UsageError(
                "--stress applies to --schedule=adapted; --schedule=default places "
                "level l at l x --level");
        if (sched_.schedule != "default" && t.given("level"))
            throw UsageError(
                "--level applies to --schedule=default; the adapted schedule is "
                "set by --stress and --concurrency");
        if (backends_.comparing() && (traceJson_ || traceDump_))
            throw UsageError(
                "--trace-json and --trace-dump trace pullsched's workers: they need "
                "--backends=pullsched");
        if (timelineRep_ && *timelineRep_ > sched_.reps)
            throw UsageError(
                fmt::format("--rep={} is beyond --reps={}", *timelineRep_, sched_.reps));
        if (traceDump_ && !Scheduler::traceCompiledIn())
            throw UsageError(
                "--trace-dump needs a build with trace points: configure with "
                "-DPULLSCHED_TRACE=ON (this build has none)");
    }

    ModeResult run(RunContext& ctx) override;

  private:
    /// --backends other than pullsched alone: the same graph and schedule on each backend.
    ModeResult runBackends(RunContext& ctx, const TestChainGraph& graph, const RuleSet& rules,
                           const LevelSchedule& schedule, unsigned concurrency);

    GraphOptions graph_;
    ExecutionOptions exec_;
    PlacementOption placement_;
    ScheduleOptions sched_;
    BackendOptions backends_;
    bool traceJson_ = false;
    bool traceDump_ = false;
    std::optional<unsigned> timelineRep_;
};

ModeResult RunMode::run(RunContext& ctx) {
    ctx.progress.note(memoryNote({graph_.nodes, kRunBytesPerNode}, availableMemory()));
    const TestChainGraph graph = graph_.graph(ctx.stop.predicate());
    const RuleSet rules = graph_.rulesFor();
    const WeightPolicy policy = rules.schedulingWeightPolicy();
    const unsigned W = exec_.workers;
    const unsigned C = sched_.plannedConcurrency(exec_.machineParallelism());
    const std::size_t N = graph.size();

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
            sched_.reps, Units::formatDuration(planned),
            Units::formatDuration(planned * sched_.reps),
            Units::formatDuration(sched_.maxSchedule)));
    if (backends_.comparing()) return runBackends(ctx, graph, rules, schedule, C);

    ModeResult res;
    res.name = fmt::format("run-{}-{}", graph_.label(), N);
    const JobBody body(exec_.loadKind, &ctx.progress);
    res.calibration = body.json();

    const GraphStatistics stats(graph, policy);
    RunInstrument instrument(W, N);
    Scheduler scheduler(schedulerConfig(W, placement_.placement(), &instrument, N + N / 64 + 16));
    RunnerConfig rc = runnerConfig(exec_, sched_, body.load(), policy, C);
    // A run that is merely late must not count as lost: allow far more than the plan.
    const CompletionLimit limit =
        completionLimit(rc, planned, stats.work(exec_.load), sched_.lifeWindow);
    rc.completionLimit = limit.total();
    ScheduleRunner runner(scheduler, graph, schedule, rc);
    const std::string hash = fmt::format("0x{:016X}", runner.expectedHash());

    CsvTable jobs = jobsTable();
    CsvTable reps = repsTable();
    LatencyHistogram lateness;
    std::vector<RunRepOutcome> outcomes;
    std::optional<ScheduledRunTrace> trace;
    if (traceJson_)
        trace.emplace(fmt::format("stressrig run {} ({} nodes, {} workers)", graph_.label(), N, W),
                      W);
    CsvTable timeline;
    IncidenceStatistic lastStat;
    const bool deadlines = sched_.lifeWindow > Duration::zero();

    for (unsigned rep = 1; rep <= sched_.reps; ++rep) {
        if (ctx.stop.requested()) {
            res.partial = true;
            break;
        }
        instrument.reset();
        // A rep may be long: on a stop request the watcher cancels what has not started,
        // so the rep ends within a job's time and is reported as interrupted.
        std::atomic<bool> cut{false};
        RunResult r;
        {
            std::jthread watcher([&](std::stop_token done) {
                while (!done.stop_requested()) {
                    if (ctx.stop.requested()) {
                        cut = true;
                        scheduler.shutdown(ShutdownMode::Cancel);
                        return;
                    }
                    std::this_thread::sleep_for(std::chrono::milliseconds{20});
                }
            });
            r = runner.run();
        }  // the watcher is joined here
        RunFinding late;
        if (r.timedOut) {
            // Its jobs are still with the scheduler: cancel what has not started, then see
            // whether every job is accounted for.
            scheduler.shutdown(ShutdownMode::Cancel);
            late = lateRunFinding(r, limit, scheduler.stats().pending);
        } else if (!cut) {
            scheduler.drainFor(std::chrono::seconds{10});  // every onJobEnd is in
        }
        const IncidenceStatistic st = instrument.evaluate();
        RunRepOutcome o =
            evaluateRunRep(rep, r, st.activations ? st.avgConcurrency : kMissing, cut);
        if (r.timedOut && late.failure.empty()) {
            o.late = late.late;
            o.lost = 0;  // cancelled by the shutdown, not lost
            res.warnings.push_back(fmt::format("rep {} {}", rep, late.late));
        } else if (!late.failure.empty()) {
            o.error = late.failure;
        }
        outcomes.push_back(o);

        if (r.timedOut) {  // no job states: list the nodes as unfinished
            for (std::size_t i = 0; i < N; ++i)
                jobs.addRow({double(rep), double(i), double(graph.node(i).level),
                             double(effectiveWeight(graph.node(i).weight, policy)),
                             std::string("unfinished"), kMissing, toMs(schedule.nodeStart(i)),
                             deadlines ? toMs(schedule.nodeDeadline(i)) : kMissing, kMissing,
                             kMissing, kMissing, kMissing});
        }
        for (const JobTiming& j : r.jobs) {
            const bool ran = j.ran();
            if (ran) lateness.record(j.lateness());
            const int w = instrument.workerOf(j.node);
            jobs.addRow({double(rep), double(j.node), double(j.level), double(j.weight),
                         j.posted ? std::string(toString(j.state)) : std::string("not posted"),
                         ran && w >= 0 ? double(w) : kMissing, toMs(j.scheduledStart),
                         deadlines ? toMs(schedule.nodeDeadline(j.node)) : kMissing,
                         ran ? toMs(j.actualStart) : kMissing, ran ? toMs(j.end) : kMissing,
                         ran ? toUs(j.lateness()) : kMissing, ran ? toUs(j.runTime()) : kMissing});
        }
        reps.addRow({double(rep), std::string(o.stateText()), o.runtimeMs, o.expectedMs,
                     o.lowerBoundMs, o.deltaMs, o.efficiency, o.avgConcurrency, o.latenessP50Us,
                     o.latenessP99Us, double(o.completed), double(o.failed), double(o.expired),
                     double(o.cancelled), double(o.lost),
                     std::string(RunRepOutcome::text(o.hash))});
        if (trace) trace->addRep(rep, r, [&](std::size_t n) { return instrument.workerOf(n); });
        if (st.activations) {
            timeline = concurrencyTimeline(instrument.incidence(), r.anchor);
            lastStat = st;
        }
        ctx.progress.progress(
            rep, sched_.reps,
            o.complete()
                ? fmt::format("runtime {}, planned {}", durText(o.runtimeMs), durText(o.expectedMs))
                : fmt::format("incomplete: {} expired, {} cancelled, {} failed{}", o.expired,
                              o.cancelled, o.failed, o.timedOut ? ", timed out" : ""));
        if (r.timedOut) break;  // the runner cannot run again
        if (cut) {
            res.partial = true;
            break;
        }
    }

    const RunRepSummary s = RunRepSummary::of(outcomes);
    const std::size_t runReps = s.reps;  // reps that ran to their end
    const double expectedMs = toMs(planned);
    const double lowerBoundMs = toMs(runner.lowerBound(C));

    // ---- text
    const std::string scheduleText =
        sched_.schedule == "default"
            ? fmt::format("default, level {}", Units::formatDuration(sched_.level))
            : fmt::format("adapted, stress {}, concurrency {}", sched_.stress, C);
    auto& text = res.text;
    text.push_back(
        fmt::format("stressrig run: pattern {} ({} nodes, seed {}, hash {}), {} workers, "
                    "load {} ({}){}",
                    graph_.label(), N, graph.seed(), hash, W, Units::formatDuration(exec_.load),
                    exec_.loadKind, placementNote(placement_.placement())));
    text.push_back(fmt::format(
        "schedule: {}; life window {}; reps {} of {}{}; calibration: {}", scheduleText,
        deadlines ? Units::formatDuration(sched_.lifeWindow) : std::string("none"), runReps,
        sched_.reps, s.interrupted ? fmt::format(" (+{} interrupted)", s.interrupted) : "",
        body.text()));
    text.push_back(fmt::format("  expected time    {:>10}", durText(expectedMs)));
    if (s.runtimeMs.count > 1)
        text.push_back(
            fmt::format("  actual time      {:>10}  (mean of {} complete reps, min {}, "
                        "max {}, sdev {})",
                        durText(s.runtimeMs.mean), s.runtimeMs.count, durText(s.runtimeMs.min),
                        durText(s.runtimeMs.max), durText(s.runtimeMs.sdev)));
    else
        text.push_back(fmt::format("  actual time      {:>10}{}", durText(s.runtimeMs.mean),
                                   s.runtimeMs.count == 0 ? "  (no rep completed every job)" : ""));
    text.push_back(
        fmt::format("  delta            {:>10}  (actual - expected)", durText(s.deltaMs.mean)));
    text.push_back(fmt::format("  lower bound      {:>10}  = max(work / {}, critical path)",
                               durText(lowerBoundMs), C));
    text.push_back(
        fmt::format("  efficiency       {:>10}  (lower bound / actual)",
                    textOr(s.efficiency.mean, [](double v) { return fmt::format("{:.3f}", v); })));
    text.push_back(fmt::format(
        "  avg concurrency  {:>10}{}",
        textOr(s.avgConcurrency.mean, [](double v) { return fmt::format("{:.2f}", v); }),
        lastStat.activations
            ? fmt::format("  (max {}, impeded {} in the last rep that ran jobs)",
                          lastStat.maxConcurrency, Units::formatDuration(lastStat.impededTime))
            : std::string("  (no job ran)")));
    text.push_back(fmt::format("  lateness         {}", percentileLine(lateness)));
    text.push_back(
        fmt::format("  jobs             {} of {} completed; {} expired, {} cancelled, "
                    "{} failed{}",
                    s.completed, s.jobs, s.expired, s.cancelled, s.failed,
                    s.lost ? fmt::format(", {} lost", s.lost) : std::string()));
    text.push_back(fmt::format("  deadline misses  {} of {} jobs", s.expired, s.jobs));
    for (const RunRepOutcome& o : outcomes)
        if (o.interrupted && !o.complete())
            text.push_back(
                fmt::format("  interrupted rep {}: {} of {} jobs completed before the stop, "
                            "{} cancelled by it, {} expired, {} not posted",
                            o.rep, o.completed, o.nodes, o.cancelled, o.expired, o.lost));
    std::string hashText;
    if (runReps == 0)
        hashText = "not checked: nothing ran";
    else if (s.hashMismatch)
        hashText = fmt::format("FAILED: mismatch in {} of {} reps with every job completed",
                               s.hashMismatch, runReps);
    else if (s.hashOk == runReps)
        hashText = fmt::format("ok ({})", plural(runReps, "rep"));
    else
        hashText = fmt::format("{}not checked: {} expired, {} cancelled ({} of {} reps)",
                               s.hashOk ? fmt::format("ok in {}; ", plural(s.hashOk, "rep")) : "",
                               plural(s.expired, "job"), s.cancelled, runReps - s.hashOk, runReps);
    text.push_back(fmt::format("  hash check       {}", hashText));
    if (s.missed() > 0 && deadlines)
        text.push_back(fmt::format(
            "  note: a job not started within its life window ({}) expires and its successors are "
            "cancelled; fewer workers than cores, a lower --stress or a longer --life-window "
            "(0s = none) avoid that",
            Units::formatDuration(sched_.lifeWindow)));

    // ---- warnings, failures, verdict
    if (s.incomplete() > 0 && runReps > 0)
        res.warnings.push_back(
            fmt::format("{} of {} reps incomplete: excluded from runtime, delta and efficiency",
                        s.incomplete(), runReps));
    for (const RunRepOutcome& o : outcomes)
        if (std::string f = o.failure(); !f.empty()) res.failures.push_back(std::move(f));
    res.systemFailure = s.systemFailure();

    const std::optional<double> loadNow = Environment::loadAverage();
    const bool busy = ctx.environment.busy() || (loadNow && *loadNow > ctx.environment.cores / 2.0);
    std::string verdict;
    if (res.systemFailure) {
        verdict = fmt::format("FAILED: {}", res.failures.front());
    } else if (runReps == 0) {
        verdict = "no rep ran to its end; the jobs that ran before the stop are in the tables";
    } else if (s.missed() == 0 && s.complete == runReps) {
        verdict = fmt::format(
            "{} completed, no deadline missed, hash ok; runtime {} vs {} planned, "
            "efficiency {}",
            plural(runReps, "rep"), durText(s.runtimeMs.mean), durText(expectedMs),
            textOr(s.efficiency.mean, [](double v) { return fmt::format("{:.3f}", v); }));
        if (busy)
            verdict +=
                "; the machine was busy, so times and lateness include competition "
                "for the CPU";
    } else {
        verdict = fmt::format(
            "deadline misses in {} of {} reps (the schedule was not kept): {} "
            "of {} jobs expired, {} cancelled after them; hash not checked: {}",
            s.incomplete(), runReps, s.expired, s.jobs, s.cancelled,
            s.expired ? plural(s.expired, "job") + " expired"
                      : plural(s.cancelled, "job") + " cancelled");
        if (s.complete > 0)
            verdict += fmt::format("; {} complete, hash ok", plural(s.complete, "rep"));
        if (busy)
            verdict += "; the machine was busy, so the misses include competition for the CPU";
    }
    if (res.partial)
        verdict = fmt::format("stopped after {} of {} reps{}; {}", runReps, sched_.reps,
                              s.interrupted ? " (the rep under way was cut short and is not "
                                              "counted)"
                                            : "",
                              verdict);
    res.verdict = verdict;

    // ---- result JSON
    nlohmann::json& j = res.result;
    j["pattern"] = graph_.label();
    j["rules"] = RuleParser::toString(rules);
    j["seed"] = graph.seed();
    j["nodes"] = N;
    j["max_fan"] = graph.maxFan();
    j["levels"] = graph.levels();
    j["graph_hash"] = hash;
    j["workers"] = W;
    j["concurrency"] = C;
    j["schedule"] = sched_.schedule;
    j["planned_schedule_ms"] = toMs(planned);
    j["reps_planned"] = sched_.reps;
    j["reps_run"] = runReps;
    j["reps_interrupted"] = s.interrupted;
    j["reps_complete"] = s.complete;
    j["reps_incomplete"] = s.incomplete();
    j["expected_ms"] = expectedMs;
    j["lower_bound_ms"] = lowerBoundMs;
    j["runtime_ms"] = jsonNumber(s.runtimeMs.mean);
    j["runtime_min_ms"] = jsonNumber(s.runtimeMs.min);
    j["runtime_max_ms"] = jsonNumber(s.runtimeMs.max);
    j["runtime_sdev_ms"] = jsonNumber(s.runtimeMs.sdev);
    j["delta_ms"] = jsonNumber(s.deltaMs.mean);
    j["efficiency"] = jsonNumber(s.efficiency.mean);
    j["avg_concurrency"] = jsonNumber(s.avgConcurrency.mean);
    j["max_concurrency_last_rep"] = lastStat.maxConcurrency;
    const nlohmann::json latenessJson = histogramJson(lateness);
    for (const auto& [k, v] : latenessJson.items())
        j["lateness_" + k] = v;
    j["jobs_total"] = s.jobs;
    j["jobs_completed"] = s.completed;
    j["jobs_failed"] = s.failed;
    j["jobs_expired"] = s.expired;
    j["jobs_cancelled"] = s.cancelled;
    j["jobs_lost"] = s.lost;
    j["jobs_doubled"] = s.doubled;
    j["deadline_misses"] = s.expired;
    j["hash_check"] = s.hashMismatch                   ? "mismatch"
                      : runReps && s.hashOk == runReps ? "ok"
                      : s.hashOk                       ? "partly checked"
                                                       : "not checked";
    j["hash_ok_reps"] = s.hashOk;
    j["hash_mismatch_reps"] = s.hashMismatch;

    // ---- files
    ResultTable jobsFile{"", std::move(jobs)};
    jobsFile.table.setComment("graph hash", hash);
    jobsFile.table.setComment("state",
                              "completed | failed | expired | cancelled (never ran: "
                              "times empty); unfinished = the rep timed out");
    if (auto picture = runTimeline(jobsFile.table, timelineRep_, graph_.label(), N, W, exec_.load))
        res.plots.push_back({"", std::move(*picture)});
    res.files.push_back({".dot",
                         runGraphDot(graph, jobsFile.table, timelineRep_, graph_.label(), W),
                         ResultFile::Kind::Dot});
    res.tables.push_back(std::move(jobsFile));
    res.tables.push_back({"-reps", std::move(reps)});
    if (timeline.rowCount() > 1) {
        res.plots.push_back(
            {"-concurrency", runConcurrencyPlot(timeline, W, lastStat.avgConcurrency)});
        res.tables.push_back({"-concurrency", std::move(timeline)});
    }
    if (trace) {
        trace->setMetadata("graph hash", hash);
        trace->setMetadata("pattern", graph_.label());
        trace->setMetadata("schedule", scheduleText);
        res.files.push_back({"-trace.json", trace->text()});
        j["trace_job_events"] = trace->jobEvents();
    }
    if (traceDump_) {
        std::ostringstream dump;
        if (scheduler.writeTraceDump(dump)) {
            res.files.push_back({"-trace-dump.txt", dump.str()});
            // The dump read back as people look at it: worker lanes and a Perfetto trace.
            const TraceDump parsed = TraceDump::parse(dump.str());
            res.plots.push_back(
                {"-trace-dump",
                 parsed.lanesPlot(
                     fmt::format("scheduler trace dump: {} on {} workers ({} events, {} dropped)",
                                 graph_.label(), W, parsed.events().size(), parsed.dropped()))});
            res.files.push_back({"-trace-dump.json", parsed.chromeTrace()});
            j["trace_dump_events"] = parsed.events().size();
            j["trace_dump_dropped"] = parsed.dropped();
            j["trace_dump_counts"] = parsed.counts();
            if (parsed.dropped() > 0)
                res.warnings.push_back(fmt::format(
                    "the trace dump dropped {} events (buffers full): its tail is incomplete",
                    parsed.dropped()));
        } else
            res.warnings.push_back("the scheduler wrote no trace dump");
    }
    return res;
}

ModeResult RunMode::runBackends(RunContext& ctx, const TestChainGraph& graph, const RuleSet& rules,
                                const LevelSchedule& schedule, unsigned C) {
    const WeightPolicy policy = rules.schedulingWeightPolicy();
    const unsigned W = exec_.workers;
    const std::size_t N = graph.size();
    const std::vector<std::string> names = backends_.names();

    ModeResult res;
    res.name = fmt::format("run-{}-{}", graph_.label(), N);
    const JobBody body(exec_.loadKind, &ctx.progress);
    res.calibration = body.json();
    const GraphStatistics stats(graph, policy);

    BackendSetup setup;
    setup.placement = placement_.placement();
    setup.workers = W;
    setup.timeBase = exec_.load;
    setup.load = body.load();
    setup.policy = policy;
    setup.schedule = schedule;
    setup.parallelism = C;
    setup.deadlines = false;  // only pullsched could expire a job: all run the same work
    setup.completionLimit =
        completionLimit(RunnerConfig{}, schedule.expectedEnd(), stats.work(exec_.load)).total();
    const std::vector<BackendSeries> series = compareBackends(
        names, graph, setup, sched_.reps, backends_.warmup, ctx.stop, &ctx.progress);

    TestChainGraph reference = graph;
    reference.recalculate();
    const std::string hash = fmt::format("0x{:016X}", reference.graphHash());
    const Duration planned = schedule.expectedEnd();
    const Duration lowerBound = stats.lowerBound(C, exec_.load);

    // ---- text
    const std::string scheduleText =
        sched_.schedule == "default"
            ? fmt::format("default, level {}", Units::formatDuration(sched_.level))
            : fmt::format("adapted, stress {}, concurrency {}", sched_.stress, C);
    std::string nameList;
    for (const std::string& n : names)
        nameList += (nameList.empty() ? "" : ", ") + n;
    auto& text = res.text;
    text.push_back(fmt::format(
        "stressrig run: pattern {} ({} nodes, seed {}, hash {}), {} workers, load {} ({}); "
        "backends: {}",
        graph_.label(), N, graph.seed(), hash, W, Units::formatDuration(exec_.load), exec_.loadKind,
        nameList));
    text.push_back(fmt::format(
        "schedule: {}; {} measured reps per backend after {} warm-up; no deadlines (only "
        "pullsched could expire a job); calibration: {}",
        scheduleText, sched_.reps, backends_.warmup, body.text()));
    text.push_back(fmt::format("  expected time {}, lower bound {} = max(work / {}, critical path)",
                               Units::formatDuration(planned), Units::formatDuration(lowerBound),
                               C));
    for (std::string& line : backendsText(series))
        text.push_back(std::move(line));

    // ---- failures, verdict
    for (const BackendSeries& s : series) {
        if (!s.failure.empty()) res.failures.push_back(s.name + ": " + s.failure);
        if (s.interrupted) res.partial = true;
    }
    res.systemFailure = !res.failures.empty();
    if (res.systemFailure) {
        res.verdict = "FAILED: " + res.failures.front();
    } else {
        const BackendSeries* fastest = nullptr;
        for (const BackendSeries& s : series)
            if (!std::isnan(s.runtimeMs().median) &&
                (!fastest || s.runtimeMs().median < fastest->runtimeMs().median))
                fastest = &s;
        res.verdict =
            fmt::format("{} backends ran every job exactly once, hash ok{}", series.size(),
                        fastest ? fmt::format("; fastest median runtime: {} ({:.3f} ms)",
                                              fastest->name, fastest->runtimeMs().median)
                                : std::string());
        if (ctx.environment.busy())
            res.verdict += "; the machine was busy, so the times include competition for the CPU";
    }

    // ---- result JSON
    nlohmann::json& j = res.result;
    j["pattern"] = graph_.label();
    j["rules"] = RuleParser::toString(rules);
    j["seed"] = graph.seed();
    j["nodes"] = N;
    j["levels"] = graph.levels();
    j["graph_hash"] = hash;
    j["workers"] = W;
    j["concurrency"] = C;
    j["schedule"] = sched_.schedule;
    j["planned_schedule_ms"] = toMs(planned);
    j["expected_ms"] = toMs(planned);
    j["lower_bound_ms"] = toMs(lowerBound);
    j["reps_planned"] = sched_.reps;
    j["warmup_runs_per_backend"] = backends_.warmup;
    j["deadlines"] = false;
    j["backends"] = backendsJson(series);

    // ---- tables and pictures: all backends together
    CsvTable jobs;
    for (const char* c : {"node", "level", "weight", "scheduled ms"})
        jobs.addColumn(c);
    for (const BackendSeries& s : series)
        for (const char* c : {"start ms", "end ms", "lateness us"})
            jobs.addColumn(fmt::format("{} {}", s.name, c));
    for (std::size_t i = 0; i < N; ++i) {
        std::vector<CsvTable::Cell> row{double(i), double(graph.node(i).level),
                                        double(effectiveWeight(graph.node(i).weight, policy)),
                                        toMs(schedule.nodeStart(i))};
        for (const BackendSeries& s : series) {
            const bool has = !s.runs.empty() && s.runs.back().result.jobs.size() == N &&
                             s.runs.back().result.jobs[i].ran();
            const JobTiming* jt = has ? &s.runs.back().result.jobs[i] : nullptr;
            row.push_back(jt ? toMs(jt->actualStart) : kMissing);
            row.push_back(jt ? toMs(jt->end) : kMissing);
            row.push_back(jt ? toUs(jt->lateness()) : kMissing);
        }
        jobs.addRow(std::move(row));
    }
    jobs.setComment("graph hash", hash);
    jobs.setComment("rows", "every node; times of each backend's last measured rep");
    CsvTable reps;
    reps.addColumn("rep");
    for (const BackendSeries& s : series)
        reps.addColumn(s.name + " runtime ms");
    for (unsigned rep = 1; rep <= sched_.reps; ++rep) {
        std::vector<CsvTable::Cell> row{double(rep)};
        for (const BackendSeries& s : series) {
            const bool has = rep <= s.runs.size() && s.runs[rep - 1].result.completed;
            row.push_back(has ? toMs(s.runs[rep - 1].result.runTime) : kMissing);
        }
        reps.addRow(std::move(row));
    }

    std::vector<std::string> startColumns{"scheduled ms"};
    std::vector<std::string> runtimeColumns;
    for (const BackendSeries& s : series) {
        startColumns.push_back(s.name + " start ms");
        runtimeColumns.push_back(s.name + " runtime ms");
    }
    PlotOptions po;
    po.title = fmt::format("{} ({} nodes), {} workers, load {}: schedule vs. start per backend",
                           graph_.label(), N, W, Units::formatDuration(exec_.load, true));
    po.xLabel = "node";
    po.yLabel = "time since anchor (ms)";
    po.style = "points";
    res.plots.push_back({"", GnuplotScript::tablePlot(jobs, "node", startColumns, {}, po)});
    PlotOptions pr;
    pr.title =
        fmt::format("{} ({} nodes), {} workers: runtime per rep and backend", graph_.label(), N, W);
    pr.xLabel = "rep";
    pr.yLabel = "runtime (ms)";
    res.plots.push_back({"-reps", GnuplotScript::tablePlot(reps, "rep", runtimeColumns, {}, pr)});
    res.tables.push_back({"", std::move(jobs)});
    res.tables.push_back({"-reps", std::move(reps)});
    res.tables.push_back({"-backends", backendsTable(series)});
    std::ostringstream dot;
    DotWriter::write(dot, graph);
    res.files.push_back({".dot", dot.str(), ResultFile::Kind::Dot});
    return res;
}

}  // namespace

std::unique_ptr<Mode> makeRunMode() {
    return std::make_unique<RunMode>();
}

}  // namespace pullsched::rig
