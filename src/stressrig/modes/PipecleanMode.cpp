// --mode=pipeclean: every preset pattern once, quickly, in series; a correctness check.
//
// All patterns run on one scheduler, each pattern's jobs in a JobGroup of their own: the
// pattern is waited for alone, and the group's ledger is held against what the runner
// posted and saw complete, so that a job lost or counted twice shows.
//
// The exit status depends only on correctness: a failed job, a job posted twice, jobs
// missing from the scheduler's accounting, or a graph hash that differs from the
// single-threaded recomputation on a run in which every job completed. Jobs that expired
// (only with --life-window) and a run that outlasted its completion limit (its planned end
// plus a margin that grows with the plan and the work) are measurements: their run's hash
// is not checked. Timing oddities — a pattern whose longest job took over kOutlierFactor x
// the median over the patterns, or a job that ran over kJobOverrunFactor x its nominal
// time — are flagged as warnings, since a busy machine produces them without any fault.
#include <algorithm>
#include <chrono>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "analysis/LoadTestAnalysis.hpp"
#include "analysis/PatternCheck.hpp"
#include "cli/ExecutionOptions.hpp"
#include "cli/GraphOptions.hpp"
#include "cli/MemoryRefusal.hpp"
#include "cli/PlacementOption.hpp"
#include "cli/RunnerConfigFromOptions.hpp"
#include "cli/ScheduleOptions.hpp"
#include "format/Units.hpp"
#include "load/CompletionLimit.hpp"
#include "load/JobBody.hpp"
#include "load/MemoryEstimate.hpp"
#include "load/Progress.hpp"
#include "load/SchedulerFactory.hpp"
#include "load/StopRequest.hpp"
#include "modes/Mode.hpp"
#include "pullsched/scheduler/Scheduler.hpp"
#include "pullsched/testchain/GraphStatistics.hpp"
#include "pullsched/testchain/LevelSchedule.hpp"
#include "pullsched/testchain/Presets.hpp"
#include "pullsched/testchain/ScheduleRunner.hpp"
#include "report/LatenessCells.hpp"
#include "report/MissingValues.hpp"
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
    unsigned workers = 0;
    Duration work{0}, expectedEnd{0};
    double runTimeMs = kNaN;                       ///< missing when no exit completed
    double maxJobUs = kNaN, maxLatenessUs = kNaN;  ///< missing when no job ran
    double maxOverrun = kNaN;                      ///< max over jobs of run time / nominal time
    bool outlier = false;
    std::vector<std::string> warnings;
    bool interrupted = false;  ///< a stop request cut the pattern short: no figure
    GroupStatistics ledger;    ///< the scheduler's count of the pattern's jobs (its group)
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
                   "machine cannot expire jobs");
    }

    void validate(const OptionTable&) override {
        refuseIfTooLarge({graph_.nodes, kPatternBytesPerNode},
                         fmt::format("--nodes={}", graph_.nodes));
    }

    ModeResult run(RunContext& ctx) override {
        ctx.progress.note(memoryNote({graph_.nodes, kPatternBytesPerNode}, availableMemory()));
        JobBody body(exec_.loadKind, &ctx.progress);
        const auto& presets = presetList();
        std::vector<PatternResult> results;
        bool stopped = false;
        std::string interruptedIn;  ///< the pattern a stop request cut short
        Scheduler sched(schedulerConfig(exec_.workers, placement_.placement()));
        for (std::size_t p = 0; p < presets.size(); ++p) {
            if (ctx.stop.requested()) {
                stopped = true;
                break;
            }
            PatternResult pr = runPattern(sched, std::string(presets[p].name), body, ctx.stop);
            if (pr.interrupted) {
                stopped = true;
                interruptedIn = pr.pattern;
                break;
            }
            results.push_back(std::move(pr));
            ctx.progress.progress(
                p + 1, presets.size(),
                fmt::format("{}: {}", results.back().pattern, outcomeText(results.back())));
        }
        sched.shutdown(ShutdownMode::Cancel);  // what a stop left behind never starts
        flagOutliers(results);

        ModeResult r;
        r.name = "pipeclean";
        r.calibration = body.json();
        r.partial = stopped;
        report(r, results, presets.size());
        if (!interruptedIn.empty())
            r.text.push_back(
                fmt::format("interrupted during pattern {}: not reported", interruptedIn));
        return r;
    }

  private:
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

    PatternResult runPattern(Scheduler& sched, const std::string& name, const JobBody& body,
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

        RunnerConfig rc = runnerConfig(exec_, sched_, body.load(), policy, exec_.workers);
        const JobGroup group = sched.group();
        rc.group = group;
        LevelSchedule schedule(graph, policy);
        schedule.useDefault(sched_.level);
        if (sched_.lifeWindow > Duration{0}) schedule.lifeWindow(sched_.lifeWindow);
        const CompletionLimit limit =
            completionLimit(rc, schedule.expectedEnd(), pr.work, sched_.lifeWindow);
        rc.completionLimit = limit.total();
        rc.stop = stop.predicate();
        RunResult run;
        try {
            ScheduleRunner runner(sched, graph, schedule, rc);
            run = runner.run();
        } catch (const Stopped&) {
            pr.interrupted = true;
            return pr;
        } catch (const std::exception& e) {
            group.cancel();  // whatever was posted before the error never starts
            pr.note = e.what();
            return pr;
        }
        pr.interrupted = run.interrupted;
        if (pr.interrupted) return pr;  // run() shuts the scheduler down
        RunFinding late;
        if (run.timedOut) {
            // Its jobs are still with the scheduler: what has not started is cancelled. Every
            // start time has passed, so the group ends once its running jobs finish.
            group.cancel();
            (void)group.waitFor(kCompletionMarginBase);
            late = lateRunFinding(run, limit, group.stats().pending);
        } else {
            group.wait();  // the runner saw every job final; the group's ledger counts each end
        }
        pr.ledger = group.stats();
        recordRun(pr, run, late);
        return pr;
    }

    /// What the runner posted and saw complete, for the group's ledger; nullopt after a
    /// timeout (the runner read no job state then).
    static std::optional<PostedJobs> postedJobs(const RunResult& run) {
        if (run.timedOut) return std::nullopt;
        const std::size_t jobs = run.nodesPosted + run.planningJobs;
        // without a planning error, every planning job completed
        if (!run.error.empty()) return PostedJobs{jobs, std::nullopt};
        return PostedJobs{jobs, run.completedJobs + run.planningJobs};
    }

    /// The figures of a run that ended, and its judgement.
    void recordRun(PatternResult& pr, const RunResult& run, const RunFinding& late) const {
        pr.nodes = run.nodes;
        pr.workers = run.workers;
        pr.completed = run.completedJobs;
        pr.failed = run.failed;
        pr.expired = run.expired;
        pr.cancelled = run.cancelled;
        pr.expectedEnd = run.expectedEnd;
        pr.expectedHash = run.expectedHash;
        pr.actualHash = run.actualHash;
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

        const std::string lost =
            late.failure.empty() ? ledgerMismatch(pr.ledger, postedJobs(run)) : late.failure;
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

    void report(ModeResult& r, const std::vector<PatternResult>& results,
                std::size_t presetCount) const {
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
                                   "pipeclean: longest job and largest lateness per pattern")});
        }
        nlohmann::json patterns = nlohmann::json::array();
        for (const PatternResult& pr : results)
            patterns.push_back(patternJson(pr));
        nlohmann::json& j = r.result;
        j["patterns_total"] = presetCount;
        j["patterns_run"] = results.size();
        j["failures"] = t.failures;
        j["not_checked"] = t.unchecked + t.late;
        j["late"] = t.late;
        j["warnings"] = t.warnings;
        j["patterns"] = patterns;
        for (std::string& line : textLines(results, presetCount))
            r.text.push_back(std::move(line));
        addFindings(r, results, t);
    }

    static CsvTable patternTable(const std::vector<PatternResult>& results) {
        CsvTable t;
        t.addColumn("pattern", CsvTable::Kind::Text);
        for (const char* c : {"nodes", "levels", "workers", "completed", "failed", "expired",
                              "cancelled", "hash_ok", "work_ms", "expected_end_ms", "run_time_ms",
                              "max_job_us", "max_lateness_us", "max_overrun", "outlier"})
            t.addColumn(c);
        t.addColumn("expected_hash", CsvTable::Kind::Text);
        t.addColumn("actual_hash", CsvTable::Kind::Text);
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
                {"completed", pr.completed},
                {"failed", pr.failed},
                {"expired", pr.expired},
                {"cancelled", pr.cancelled},
                {"work_ms", toMs(pr.work)},
                {"expected_end_ms", toMs(pr.expectedEnd)},
                {"run_time_ms", jsonNumber(pr.runTimeMs)},
                {"max_job_us", jsonNumber(pr.maxJobUs)},
                {"max_lateness_us", jsonNumber(pr.maxLatenessUs)},
                {"max_overrun", jsonNumber(pr.maxOverrun)},
                {"outlier", pr.outlier},
                {"warnings", pr.warnings},
                {"ledger", ledgerJson(pr.ledger)}};
    }

    /// The scheduler's count of a pattern's jobs, planning jobs included.
    static nlohmann::json ledgerJson(const GroupStatistics& g) {
        return {{"submitted", g.submitted}, {"completed", g.completed}, {"failed", g.failed},
                {"expired", g.expired},     {"cancelled", g.cancelled}, {"pending", g.pending}};
    }

    std::vector<std::string> textLines(const std::vector<PatternResult>& results,
                                       std::size_t presetCount) const {
        std::vector<std::string> text;
        text.push_back(fmt::format(
            "Pipeclean: {} patterns, {} nodes each, jobs of {} x weight, {} workers, level {}, {}",
            presetCount, graph_.nodes, durationText(exec_.load), exec_.workers,
            durationText(sched_.level),
            sched_.lifeWindow > Duration{0} ? "life window " + durationText(sched_.lifeWindow)
                                            : std::string("no deadlines")));
        text.push_back(fmt::format("{:<10} {:>6} {:>9} {:>9} {:>9} {:>9} {:>7} {:>5}  {}",
                                   "pattern", "nodes", "work", "run", "max job", "max late",
                                   "expired", "hash", "result"));
        for (const PatternResult& pr : results) {
            text.push_back(fmt::format("{:<10} {:>6} {:>9} {:>9} {:>9} {:>9} {:>7} {:>5}  {}",
                                       pr.pattern, pr.nodes, durationText(pr.work),
                                       msText(pr.runTimeMs), usText(pr.maxJobUs),
                                       usText(pr.maxLatenessUs), pr.expired + pr.cancelled,
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
};

}  // namespace

std::unique_ptr<Mode> makePipecleanMode() {
    return std::make_unique<PipecleanMode>();
}

}  // namespace pullsched::rig
