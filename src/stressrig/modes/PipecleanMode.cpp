// --mode=pipeclean: every preset pattern once, quickly, in series, on each backend of
// --backends: a correctness check.
//
// Every pattern runs through the backend contract (GraphRunner) on its level schedule and
// is waited for alone. Its run is verified as every backend's is: how often each node's
// body ran against the job's final state (a job lost or run twice) and the graph hash.
//
// The exit status depends only on correctness: a failed job, a job posted twice, a job
// lost or run twice, jobs still pending after a cut run, or a graph hash that differs from
// the single-threaded recomputation on a run in which every job completed. Jobs that
// expired (only with --life-window) and a run that outlasted its completion limit (its
// planned end plus a margin that grows with the plan and the work) are measurements: their
// run's hash is not checked. Timing oddities — a pattern whose longest job took over
// kOutlierFactor x the median over the patterns, or a job that ran over kJobOverrunFactor x
// its nominal time — are flagged as warnings, since a busy machine produces them without
// any fault.
//
// Deadlines: a graph run needs them native (BackendInfo::deadlines, pullsched alone). An
// explicit --life-window with a backend without them is a usage error; a default life
// window applies only when every backend has them (the result says which).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "analysis/LoadTestAnalysis.hpp"
#include "analysis/PatternCheck.hpp"
#include "backends/BackendRegistry.hpp"
#include "backends/BackendSetup.hpp"
#include "cli/BackendOptions.hpp"
#include "cli/ExecutionOptions.hpp"
#include "cli/GraphOptions.hpp"
#include "cli/MemoryRefusal.hpp"
#include "cli/PlacementOption.hpp"
#include "cli/ScheduleOptions.hpp"
#include "cli/UsageError.hpp"
#include "format/Units.hpp"
#include "load/CompletionLimit.hpp"
#include "load/JobBody.hpp"
#include "load/MemoryEstimate.hpp"
#include "load/Progress.hpp"
#include "load/StopRequest.hpp"
#include "modes/Mode.hpp"
#include "pullsched/testchain/GraphStatistics.hpp"
#include "pullsched/testchain/LevelSchedule.hpp"
#include "pullsched/testchain/Presets.hpp"
#include "report/GraphRunsTrace.hpp"
#include "report/MetricCatalogue.hpp"
#include "report/MissingValues.hpp"
#include "report/PerBackendResult.hpp"
#include "report/PipecleanPlot.hpp"
#include "report/TextFormat.hpp"

namespace pullsched::rig {

using namespace pullsched::testchain;

namespace {

constexpr double kOutlierFactor = 5.0;
constexpr double kJobOverrunFactor = 10.0;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

using Outcome = PatternOutcome;

struct PatternResult {
    std::string pattern;
    Outcome outcome = Outcome::Failed;
    std::string note;  ///< why failed / not checked
    bool hashChecked = false, hashOk = false;
    std::uint64_t expectedHash = 0, actualHash = 0;
    std::size_t nodes = 0, levels = 0, completed = 0, failed = 0, expired = 0, cancelled = 0;
    std::size_t postedTwice = 0;
    /// The per-node execution counts; nullopt when the run's jobs were not read (timeout).
    std::optional<ExecutionFinding> executions;
    unsigned workers = 0;
    Duration work{0}, expectedEnd{0};
    double runTimeMs = kNaN;                       ///< missing when no exit completed
    double maxJobUs = kNaN, maxLatenessUs = kNaN;  ///< missing when no job ran
    double maxOverrun = kNaN;                      ///< max over jobs of run time / nominal time
    bool outlier = false;
    std::vector<std::string> warnings;
    bool interrupted = false;  ///< a stop request cut the pattern short: no figure
    /// The scheduler's count of the run's jobs, planning jobs included; nullopt for a
    /// backend that keeps none.
    std::optional<Statistics> ledger;
    std::optional<BackendRun> traced;  ///< the run, kept for --trace-json
};

class PipecleanMode final : public Mode {
  public:
    PipecleanMode() {
        exec_.load = std::chrono::microseconds{100};  // quick by default
        sched_.lifeWindow = Duration{0};  // no deadlines: slowness must not look like a fault
    }
    std::string_view name() const override { return "pipeclean"; }
    std::vector<FigureSource> figures() const override { return {{"failures"}, {"late"}}; }
    std::string_view summary() const override {
        return "every preset pattern once, quickly: a correctness check (hashes, lost jobs)";
    }
    void declare(OptionTable& t) override {
        t.group("Graph");
        t.size("nodes", graph_.nodes, 2, 100'000, "nodes of each pattern's graph");
        t.optionalU64("seed", graph_.seed, "graph seed = node 0's hash", "each preset's");
        t.optionalCount("fan", graph_.fan, 1, 16, "maxFan of the generator", "each preset's");
        exec_.declare(t, "job base time per unit weight");
        placement_.declare(t);
        t.group("Schedule");
        t.duration("level", sched_.level, 1us, 10s, "level l starts at l x this");
        t.duration("life-window", sched_.lifeWindow, 0ns, 1h,
                   "deadline = scheduled start + this; 0s = no deadlines, so that a slow "
                   "machine cannot expire jobs (needs backends with deadlines)");
        t.group("Backends");
        backends_.declareList(t, backendsHelp());
        t.group("Traces");
        t.flag("trace-json", traceJson_,
               "write <name>-trace.json (<name>-<backend>-trace.json with several backends): "
               "every pattern's run, one after the other, every job on the track of the thread "
               "that ran it (ui.perfetto.dev, chrome://tracing); every backend");
    }

    void validate(const OptionTable& t) override {
        refuseIfTooLarge({graph_.nodes, kPatternBytesPerNode},
                         fmt::format("--nodes={}", graph_.nodes));
        placement_.refuseIgnoredBy(t, backends_);
        sched_.refuseLifeWindowWithout(t, backends_);
        // the default: all or none, so that every backend runs the same work
        const BackendOptions::DeadlineChoice d = backends_.deadlines(sched_.lifeWindow);
        deadlines_ = d.on;
        deadlinesReason_ = d.why;
    }

    ModeResult run(RunContext& ctx) override {
        ctx.progress.note(memoryNote({graph_.nodes, kPatternBytesPerNode}, availableMemory()));
        JobBody body(exec_.loadKind, &ctx.progress);
        const std::vector<std::string> names = backends_.names();
        std::vector<BackendResult> parts;
        for (const std::string& n : names) {
            if (!parts.empty() && ctx.stop.requested()) break;
            parts.push_back({n, runOn(ctx, body, n)});
        }
        const std::size_t ran = parts.size();
        ModeResult m = combineBackendResults("pipeclean", std::move(parts));
        if (ran < names.size()) {  // a stop between backends: the rest did not run
            m.partial = true;
            m.text.push_back(fmt::format("stopped before {}: not run", names[ran]));
        }
        return m;
    }

  private:
    /// --backends: each backend's start times, and which have deadlines.
    static std::string backendsHelp() {
        std::string help =
            "schedulers that each run every pattern on its schedule, one after the other, "
            "comma-separated, or all:";
        for (const BackendInfo& b : BackendRegistry::all())
            help +=
                fmt::format("{} {} ({} start times{})",
                            b.name == BackendRegistry::all().front().name ? "" : ",", b.name,
                            graphStartTimesName(b.startTimes), b.deadlines ? ", deadlines" : "");
        return help +
               ". wait-in-job: the job sleeps, then spins until its start, holding its thread. "
               "--life-window above 0 needs backends with deadlines (they drop a job not "
               "started by its deadline themselves)";
    }

    /// Every pattern on `backend`, presented alone.
    ModeResult runOn(RunContext& ctx, const JobBody& body, const std::string& backend) const {
        const BackendInfo& info = BackendRegistry::find(backend);
        const auto& presets = presetList();
        std::vector<PatternResult> results;
        bool stopped = false;
        std::string interruptedIn;  ///< the pattern a stop request cut short
        for (std::size_t p = 0; p < presets.size(); ++p) {
            if (ctx.stop.requested()) {
                stopped = true;
                break;
            }
            PatternResult pr = runPattern(info, std::string(presets[p].name), body, ctx.stop);
            if (pr.interrupted) {
                stopped = true;
                interruptedIn = pr.pattern;
                break;
            }
            results.push_back(std::move(pr));
            ctx.progress.progress(p + 1, presets.size(),
                                  fmt::format("{}: {}: {}", backend, results.back().pattern,
                                              outcomeText(results.back())));
        }
        flagOutliers(results);

        ModeResult r;
        r.name = "pipeclean";
        r.calibration = body.json();
        r.partial = stopped;
        report(r, results, presets.size(), backend);
        if (traceJson_) traceFile(r, results, backend);
        if (!interruptedIn.empty())
            r.text.push_back(
                fmt::format("interrupted during pattern {}: not reported", interruptedIn));
        return r;
    }

    static std::string outcomeText(const PatternResult& pr) {
        switch (pr.outcome) {
            case Outcome::Ok:
                return pr.warnings.empty() ? "ok" : "ok, timing warning";
            case Outcome::Expired:
                return "measured (" + pr.note + ")";
            case Outcome::Late:
                return "late: " + pr.note;
            case Outcome::Failed:
                return "FAILED: " + pr.note;
        }
        return "?";
    }

    /// On a runner of its own: nothing of one pattern's run (threads, the backend's copy of
    /// the graph, jobs a timed-out run left) reaches the next, as a run that timed out
    /// leaves its runner unable to run again.
    PatternResult runPattern(const BackendInfo& info, const std::string& name, const JobBody& body,
                             const StopRequest& stop) const {
        PatternResult pr;
        pr.pattern = name;
        std::optional<TestChainGraph> generated;
        try {
            generated.emplace(graph_.presetGraph(name, graph_.nodes, stop.predicate()));
        } catch (const Stopped&) {
            pr.interrupted = true;
            return pr;
        }
        const TestChainGraph& graph = *generated;
        const WeightPolicy policy = graph_.rulesFor(name).schedulingWeightPolicy();
        pr.levels = graph.levels();
        pr.work = GraphStatistics(graph, policy).work(exec_.load);

        LevelSchedule schedule(graph, policy);
        schedule.useDefault(sched_.level);
        if (deadlines_) schedule.lifeWindow(sched_.lifeWindow);
        // A run that is merely late must not count as lost: allow far more than the plan.
        const CompletionLimit limit =
            completionLimit(RunnerConfig{}, schedule.expectedEnd(), pr.work,
                            deadlines_ ? sched_.lifeWindow : Duration{0});
        BackendSetup setup = backendSetup(exec_.workers, placement_.placement(), exec_.load,
                                          body.load(), policy, exec_.workers);
        setup.schedule = std::move(schedule);
        setup.deadlines = deadlines_;
        setup.completionLimit = limit.total();
        setup.stop = stop.predicate();
        BackendRun run;
        try {
            const std::unique_ptr<GraphRunner> runner = BackendRegistry::graphRunner(info.name);
            runner->prepare(graph, setup);
            run = runner->run();
        } catch (const Stopped&) {
            pr.interrupted = true;
            return pr;
        } catch (const std::exception& e) {
            pr.note = e.what();
            return pr;
        }
        pr.interrupted = run.result.interrupted;
        if (pr.interrupted) return pr;
        recordRun(pr, run, info, limit);
        if (traceJson_) pr.traced = std::move(run);
        return pr;
    }

    /// Every pattern's run in one trace, each a span of its own named after the pattern.
    void traceFile(ModeResult& r, const std::vector<PatternResult>& results,
                   const std::string& backend) const {
        std::vector<TracedGraphRun> runs;
        for (const PatternResult& pr : results)
            if (pr.traced) runs.push_back({"pattern " + pr.pattern, *pr.traced});
        r.text.push_back(
            fmt::format("Trace: every pattern's run, {} of {}", runs.size(), results.size()));
        r.files.push_back(
            {"-trace.json",
             graphRunsTrace(fmt::format("stressrig pipeclean on {} ({} nodes per pattern, {} "
                                        "workers)",
                                        backend, graph_.nodes, exec_.workers),
                            exec_.workers, runs,
                            {{"mode", "pipeclean"},
                             {"backend", backend},
                             {"runs", "every pattern, one after the other"}})
                 .text});
    }

    /// The figures of a run that ended, and its judgement.
    void recordRun(PatternResult& pr, const BackendRun& out, const BackendInfo& info,
                   const CompletionLimit& limit) const {
        const RunResult& run = out.result;
        // pullsched's job states are its scheduler's; for the others the rig labels a node
        // that never ran cancelled, which checkExecutions counts as lost instead
        const bool ownStates = info.instrumented;
        pr.nodes = run.nodes;
        pr.workers = run.workers;
        pr.completed = run.completedJobs;
        pr.failed = run.failed;
        pr.expired = run.expired;
        pr.cancelled = ownStates ? run.cancelled : 0;
        pr.expectedEnd = run.expectedEnd;
        pr.expectedHash = run.expectedHash;
        pr.actualHash = run.actualHash;
        if (ownStates) pr.ledger = run.stats;
        if (run.completed) pr.runTimeMs = toMs(run.runTime);
        double maxJob = -1, maxLate = -1, overrun = -1;
        for (const JobTiming& j : run.jobs) {
            if (j.posts > 1) ++pr.postedTwice;
            if (!j.ran()) continue;
            maxJob = std::max(maxJob, toUs(j.runTime()));
            maxLate = std::max(maxLate, toUs(j.lateness()));
            if (j.weight > 0)
                overrun = std::max(overrun, toUs(j.runTime()) / toUs(j.weight * exec_.load));
        }
        if (maxJob >= 0) pr.maxJobUs = maxJob;
        if (maxLate >= 0) pr.maxLatenessUs = maxLate;
        if (overrun >= 0) pr.maxOverrun = overrun;

        // A timed-out run's jobs are not read: only what its scheduler still held counts.
        RunFinding late = lateRunFinding(run, limit, out.pendingAfterCancel);
        if (run.timedOut && !ownStates)
            late.late = fmt::format(
                "did not finish within {} of its planned end ({}): the rig stopped waiting "
                "(this backend cannot cancel its jobs, nor count them)",
                durationText(limit.margin), durationText(limit.plannedEnd));
        if (!run.timedOut) pr.executions = checkExecutions(run.jobs, out.executions, ownStates);
        const std::string lost = !late.failure.empty() ? late.failure
                                 : pr.executions       ? pr.executions->text()
                                                       : "";
        const PatternCheck check = checkPattern(
            {pr.failed, pr.postedTwice, pr.expired, pr.cancelled, lost, late.late, run.timedOut,
             run.completed, run.error, run.hashOk, run.expectedHash, run.actualHash});
        pr.outcome = check.outcome;
        pr.note = check.note;
        pr.hashChecked = check.hashChecked;
        pr.hashOk = check.hashOk;
        if (pr.maxOverrun > kJobOverrunFactor)
            pr.warnings.push_back(
                fmt::format("a job ran {:.1f} x its nominal time", pr.maxOverrun));
    }

    void flagOutliers(std::vector<PatternResult>& results) const {
        std::vector<double> maxJobs;
        std::vector<std::size_t> index;
        for (std::size_t i = 0; i < results.size(); ++i)
            if (!std::isnan(results[i].maxJobUs)) {
                maxJobs.push_back(results[i].maxJobUs);
                index.push_back(i);
            }
        const auto out = loadtest::outliers(maxJobs, kOutlierFactor, toUs(exec_.load));
        for (std::size_t k = 0; k < out.size(); ++k) {
            if (!out[k]) continue;
            PatternResult& pr = results[index[k]];
            pr.outlier = true;
            pr.warnings.push_back(
                fmt::format("outlier: max job time {} > {:g} x the median of the "
                            "patterns",
                            usText(pr.maxJobUs), kOutlierFactor));
        }
    }

    static std::string resultText(const PatternResult& pr) {
        switch (pr.outcome) {
            case Outcome::Ok:
                return pr.warnings.empty() ? "ok" : "warning";
            case Outcome::Expired:
                return "not checked";
            case Outcome::Late:
                return "late";
            case Outcome::Failed:
                return "FAILED";
        }
        return "?";
    }

    /// The patterns counted by outcome.
    struct Tally {
        std::size_t failures = 0, unchecked = 0, late = 0;
        std::size_t expired = 0;  ///< jobs expired or cancelled, over every pattern
        std::size_t warnings = 0, warnedPatterns = 0;
    };
    static Tally tally(const std::vector<PatternResult>& results) {
        Tally t;
        for (const PatternResult& pr : results) {
            t.warnedPatterns += !pr.warnings.empty();
            t.failures += pr.outcome == Outcome::Failed;
            t.late += pr.outcome == Outcome::Late;
            t.unchecked += pr.outcome == Outcome::Expired;
            t.expired += pr.expired + pr.cancelled;
            t.warnings += pr.warnings.size();
        }
        return t;
    }

    void report(ModeResult& r, const std::vector<PatternResult>& results, std::size_t presetCount,
                const std::string& backend) const {
        const Tally t = tally(results);
        r.tables.push_back({"", patternTable(results)});
        if (!results.empty()) {
            std::vector<std::string> names;
            std::vector<double> jobUs, lateUs;
            for (const PatternResult& pr : results) {
                names.push_back(pr.pattern);
                jobUs.push_back(pr.maxJobUs);
                lateUs.push_back(pr.maxLatenessUs);
            }
            r.plots.push_back(
                {"", pipecleanPlot(names, jobUs, lateUs,
                                   "pipeclean on " + backend +
                                       ": longest job and largest lateness per pattern")});
        }
        nlohmann::json patterns = nlohmann::json::array();
        for (const PatternResult& pr : results)
            patterns.push_back(patternJson(pr));
        nlohmann::json& j = r.result;
        j["backend"] = backend;
        j["deadlines"] = deadlines_;
        j["deadlines_reason"] = deadlinesReason_;
        j["patterns_total"] = presetCount;
        j["patterns_run"] = results.size();
        j["failures"] = t.failures;
        j["not_checked"] = t.unchecked + t.late;
        j["late"] = t.late;
        j["warnings"] = t.warnings;
        j["patterns"] = patterns;
        for (std::string& line : textLines(results, presetCount, backend))
            r.text.push_back(std::move(line));
        addFindings(r, results, t);
    }

    static CsvTable patternTable(const std::vector<PatternResult>& results) {
        CsvTable t;
        t.addColumn("pattern", CsvTable::Kind::Text);
        const auto figure = [](std::string_view name) { return MetricCatalogue::csvHeader(name); };
        for (const std::string& c :
             {std::string("nodes"), std::string("levels"), std::string("workers"),
              figure("jobs_completed"), figure("jobs_failed"), figure("jobs_expired"),
              figure("jobs_cancelled"), std::string("hash ok"), figure("work"),
              std::string("expected end ms"), figure("runtime"), std::string("max job us"),
              figure("lateness_max"), std::string("max overrun"), std::string("outlier")})
            t.addColumn(c);
        t.addColumn("expected hash", CsvTable::Kind::Text);
        t.addColumn("actual hash", CsvTable::Kind::Text);
        t.addColumn("result", CsvTable::Kind::Text);
        t.addColumn("note", CsvTable::Kind::Text);
        for (const PatternResult& pr : results) {
            const double hashCell = pr.hashChecked ? (pr.hashOk ? 1.0 : 0.0) : kNaN;
            t.addRow({pr.pattern,
                      static_cast<double>(pr.nodes),
                      static_cast<double>(pr.levels),
                      static_cast<double>(pr.workers),
                      static_cast<double>(pr.completed),
                      static_cast<double>(pr.failed),
                      static_cast<double>(pr.expired),
                      static_cast<double>(pr.cancelled),
                      hashCell,
                      toMs(pr.work),
                      toMs(pr.expectedEnd),
                      pr.runTimeMs,
                      pr.maxJobUs,
                      pr.maxLatenessUs,
                      pr.maxOverrun,
                      pr.outlier ? 1.0 : 0.0,
                      hashText(pr.expectedHash),
                      pr.hashChecked ? hashText(pr.actualHash) : std::string(),
                      resultText(pr),
                      pr.note});
        }
        return t;
    }

    static nlohmann::json patternJson(const PatternResult& pr) {
        return {{"pattern", pr.pattern},
                {"result", resultText(pr)},
                {"note", pr.note},
                {"hash_checked", pr.hashChecked},
                {"hash_ok", pr.hashChecked ? nlohmann::json(pr.hashOk) : nlohmann::json(nullptr)},
                {"expected_hash", hashText(pr.expectedHash)},
                {"actual_hash", pr.hashChecked ? nlohmann::json(hashText(pr.actualHash))
                                               : nlohmann::json(nullptr)},
                {"nodes", pr.nodes},
                {"levels", pr.levels},
                {"workers", pr.workers},
                {"jobs_completed", pr.completed},
                {"jobs_failed", pr.failed},
                {"jobs_expired", pr.expired},
                {"jobs_cancelled", pr.cancelled},
                {"work_ms", toMs(pr.work)},
                {"expected_end_ms", toMs(pr.expectedEnd)},
                {"run_time_ms", jsonNumber(pr.runTimeMs)},
                {"max_job_us", jsonNumber(pr.maxJobUs)},
                {"max_lateness_us", jsonNumber(pr.maxLatenessUs)},
                {"max_overrun", jsonNumber(pr.maxOverrun)},
                {"outlier", pr.outlier},
                {"warnings", pr.warnings},
                {"jobs_lost", countJson(pr.executions, &ExecutionFinding::lost)},
                {"jobs_repeated", countJson(pr.executions, &ExecutionFinding::repeated)},
                {"ledger", pr.ledger ? ledgerJson(*pr.ledger) : nlohmann::json(nullptr)}};
    }

    /// A count of the execution check; null when the run's jobs were not read.
    static nlohmann::json countJson(const std::optional<ExecutionFinding>& f,
                                    std::size_t ExecutionFinding::*count) {
        return f ? nlohmann::json((*f).*count) : nlohmann::json(nullptr);
    }

    /// The scheduler's count of a run's jobs, planning jobs included. Pending: submitted
    /// and in no final state; counted from the final states, which the scheduler counts
    /// before a job's handle shows it final (its own pending gauge lags behind them).
    static nlohmann::json ledgerJson(const Statistics& s) {
        const std::uint64_t ended = s.completed + s.failed + s.expired + s.cancelled;
        return {{"jobs_posted", s.submitted},
                {"jobs_completed", s.completed},
                {"jobs_failed", s.failed},
                {"jobs_expired", s.expired},
                {"jobs_cancelled", s.cancelled},
                {"pending", s.submitted - std::min(ended, s.submitted)}};
    }

    /// The scheduler's ledger in a word: "ok" when every posted job ended, else how many
    /// are pending; "n/a" for a backend without one.
    static std::string ledgerText(const std::optional<Statistics>& s) {
        if (!s) return "n/a";
        const std::uint64_t ended = s->completed + s->failed + s->expired + s->cancelled;
        return ended == s->submitted
                   ? "ok"
                   : fmt::format("{} open", s->submitted - std::min(ended, s->submitted));
    }

    std::vector<std::string> textLines(const std::vector<PatternResult>& results,
                                       std::size_t presetCount, const std::string& backend) const {
        std::vector<std::string> text;
        text.push_back(
            fmt::format("Pipeclean on {}: {} patterns, {} nodes each, jobs of {} x weight, {} "
                        "workers, level {}",
                        backend, presetCount, graph_.nodes, durationText(exec_.load), exec_.workers,
                        durationText(sched_.level)));
        text.push_back(deadlinesReason_);
        const char* row = "{:<10} {:>6} {:>9} {:>9} {:>9} {:>9} {:>7} {:>5} {:>8} {:>7} {:>5}  {}";
        text.push_back(fmt::format(fmt::runtime(row), "pattern", "nodes", "work", "run", "max job",
                                   "max late", "expired", "lost", "repeated", "ledger", "hash",
                                   "result"));
        const auto count = [](const std::optional<ExecutionFinding>& f,
                              std::size_t ExecutionFinding::*n) {
            return f ? std::to_string((*f).*n) : std::string("n/a");
        };
        for (const PatternResult& pr : results) {
            text.push_back(fmt::format(
                fmt::runtime(row), pr.pattern, pr.nodes, durationText(pr.work),
                msText(pr.runTimeMs), usText(pr.maxJobUs), usText(pr.maxLatenessUs),
                pr.expired + pr.cancelled, count(pr.executions, &ExecutionFinding::lost),
                count(pr.executions, &ExecutionFinding::repeated), ledgerText(pr.ledger),
                !pr.hashChecked ? "n/a"
                : pr.hashOk     ? "ok"
                                : "BAD",
                outcomeText(pr)));
            for (const std::string& w : pr.warnings)
                text.push_back("    warning: " + w);
        }
        return text;
    }

    /// Failures, warnings and the verdict.
    static void addFindings(ModeResult& r, const std::vector<PatternResult>& results,
                            const Tally& t) {
        for (const PatternResult& pr : results)
            if (pr.outcome == Outcome::Failed)
                r.failures.push_back(fmt::format("pattern {}: {}", pr.pattern, pr.note));
        r.systemFailure = t.failures > 0;
        if (t.unchecked > 0)
            r.warnings.push_back(fmt::format(
                "{} of {} patterns had expired or cancelled jobs ({} in all): hash not checked",
                t.unchecked, results.size(), t.expired));
        if (t.late > 0)
            r.warnings.push_back(fmt::format(
                "{} of {} patterns did not finish within their completion limit: hash not "
                "checked (lateness is a result, not a lost job)",
                t.late, results.size()));
        if (t.warnings > 0)
            r.warnings.push_back(
                fmt::format("{} timing warning(s): outliers are flagged, they do "
                            "not fail the run",
                            t.warnings));
        if (t.failures > 0)
            r.verdict = fmt::format("FAILED: {} of {} patterns failed a correctness check",
                                    t.failures, results.size());
        else
            r.verdict = fmt::format(
                "no correctness failure in {} patterns: {} hash-verified{}{}{}", results.size(),
                results.size() - t.unchecked - t.late,
                t.unchecked ? fmt::format(", {} not checked (jobs expired)", t.unchecked) : "",
                t.late ? fmt::format(", {} not checked (did not finish within their completion "
                                     "limit)",
                                     t.late)
                       : "",
                t.warnedPatterns ? fmt::format("; {} with timing warnings", t.warnedPatterns) : "");
    }

    GraphOptions graph_;
    ExecutionOptions exec_;
    PlacementOption placement_;
    ScheduleOptions sched_;
    BackendOptions backends_;
    bool deadlines_ = false;       ///< the jobs get deadlines (decided in validate())
    std::string deadlinesReason_;  ///< why they do or do not, in one line
    bool traceJson_ = false;
};

}  // namespace

std::unique_ptr<Mode> makePipecleanMode() {
    return std::make_unique<PipecleanMode>();
}

}  // namespace pullsched::rig
