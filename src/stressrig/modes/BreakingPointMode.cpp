// --mode=breaking-point: the highest stress at which a graph's adapted schedule still
// holds. Widens the stress until a probe breaks and bisects to the resolution; a logistic
// fit of the fail fraction over all probes adds the stress at 50 % failure with a 95 %
// confidence interval, and the theoretical limit and the ideal run (the same search on a
// simulated run that costs nothing) put both in proportion.
#include <algorithm>
#include <cmath>
#include <optional>

#include <fmt/format.h>

#include "analysis/BreakingPointProbe.hpp"
#include "analysis/BreakingPointSearch.hpp"
#include "analysis/FailFractionFit.hpp"
#include "analysis/IdealBreakingPoint.hpp"
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
#include "load/JobBody.hpp"
#include "load/MemoryEstimate.hpp"
#include "load/Progress.hpp"
#include "load/ScheduledGraphRun.hpp"
#include "load/SchedulerFactory.hpp"
#include "load/StopRequest.hpp"
#include "measure/JobTimePerUnit.hpp"
#include "measure/RunInstrument.hpp"
#include "modes/Mode.hpp"
#include "pullsched/testchain/GraphStatistics.hpp"
#include "pullsched/testchain/LevelSchedule.hpp"
#include "report/MissingValues.hpp"
#include "report/RunPictures.hpp"
#include "report/TimelinePlot.hpp"
#include "report/VerdictPlots.hpp"

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
/// A duration in ms as text; "n/a" when missing; `sign` adds '+' to positive values.
std::string dur(double v, bool sign = false) {
    return textOr(v, [&](double x) {
        return fmt::format("{}{}", sign && x >= 0 ? "+" : "", Units::formatDuration(fromMs(x)));
    });
}
std::string stressText(double s) {
    return textOr(s, [](double x) { return fmt::format("{:.3f}", x); });
}
std::string percent(double f) {
    return textOr(f, [](double x) { return fmt::format("{:.0f} %", 100 * x); });
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
        stressText(p.stress), p.failed, p.runs, percent(p.failFraction), p.incomplete,
        dur(p.meanDeltaMs, true), dur(p.sdevMs), dur(p.meanRuntimeMs), dur(p.expectedMs),
        p.broken ? "broken" : "holds");
}

class BreakingPointMode final : public Mode {
  public:
    BreakingPointMode() { sched_.reps = 20; }

    std::string_view name() const override { return "breaking-point"; }
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
    }
    void validate(const OptionTable& t) override {
        graph_.validate();
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
    }

    ModeResult run(RunContext& ctx) override {
        ctx.progress.note(memoryNote({graph_.nodes, kProbeBytesPerNode}, availableMemory()));
        const TestChainGraph graph = graph_.graph(ctx.stop.predicate());
        const WeightPolicy policy = graph_.rulesFor().schedulingWeightPolicy();
        const unsigned W = exec_.workers;
        const unsigned C = sched_.plannedConcurrency(exec_.machineParallelism());
        const Duration load = exec_.load;
        BreakingPointSearch search;

        // the theoretical limit: the stress at which the schedule ends at the lower bound
        const GraphStatistics stats(graph, policy);
        const Duration lowerBound = stats.lowerBound(C, load);
        LevelSchedule unit(graph, policy);
        unit.adapt(1.0, C, load);
        const double unitEndMs = toMs(unit.expectedEnd());
        const double limitStress = lowerBound.count() > 0 ? unitEndMs / toMs(lowerBound) : kMissing;
        sched_.checkLength(fromMs(unitEndMs / search.limits().start));  // nothing run yet

        const double scale =
            thresholds_ == "scaled" ? double(load.count()) / double(kReferenceLoad.count()) : 1.0;
        auto threshold = [&](const std::optional<Duration>& given, Duration reference) {
            return given ? toMs(*given) : toMs(reference) * scale;
        };
        const BreakThresholds th{threshold(failDelta_, kReferenceFailDelta),
                                 threshold(sdevLimit_, kReferenceSdevLimit),
                                 threshold(deltaLimit_, kReferenceDeltaLimit), breakFail_, fail_};

        ModeResult r;
        r.name = fmt::format("breaking-point-{}-{}", graph_.label(), graph.size());
        const JobBody body(exec_.loadKind, &ctx.progress);
        r.calibration = body.json();
        if (backends_.comparing())
            return runBackends(ctx, std::move(r), body, graph, policy, C, th, limitStress,
                               lowerBound);
        JobTimePerUnit jobTime;  // what the jobs really took, for the ideal run
        // the instrument only tells which worker ran a job, for the timeline picture
        RunInstrument instrument(W, graph.size());
        Scheduler scheduler(
            schedulerConfig(W, placement_.placement(), &instrument, graph.size() + 64));
        const RunnerConfig rc = runnerConfig(exec_, sched_, body.load(), policy, C);

        std::vector<ProbeStatistics> probes;
        std::vector<std::vector<ProbeRun>> probeRuns;
        HoldingTimeline shown;
        std::string stopReason;
        while (const std::optional<double> s = search.next()) {
            if (ctx.stop.requested()) {
                r.partial = true;
                break;
            }
            LevelSchedule schedule(graph, policy);
            schedule.adapt(*s, C, load);
            schedule.lifeWindow(sched_.lifeWindow);
            if (schedule.expectedEnd() > sched_.maxSchedule) {
                stopReason = fmt::format(
                    "search stopped: the probe at stress {} would take {} (over "
                    "--max-schedule={})",
                    stressText(*s), Units::formatDuration(schedule.expectedEnd()),
                    Units::formatDuration(sched_.maxSchedule));
                break;
            }
            instrument.reset();
            const CompletionLimit limit =
                completionLimit(rc, schedule.expectedEnd(), stats.work(load), sched_.lifeWindow);
            const ScheduledGraphRuns runs =
                runScheduledGraph(scheduler, graph, schedule, rc, sched_.reps, ctx.stop, limit);
            std::vector<ProbeRun> outcomes;
            for (const RunResult& run : runs.runs) {
                if (run.interrupted) continue;  // cut short: no figure
                jobTime.add(run);
                outcomes.push_back({runComplete(run) ? toMs(run.runTime) : kMissing,
                                    toMs(run.expectedEnd), run.expired > 0});
            }
            if (!runs.failure.empty()) {
                r.systemFailure = true;
                r.failures.push_back(fmt::format("stress {}: {}", stressText(*s), runs.failure));
            }
            if (!outcomes.empty()) {
                probes.push_back(ProbeStatistics::of(*s, outcomes, th));
                probeRuns.push_back(outcomes);
                if (!probes.back().broken && *s >= shown.stress && !runs.runs.empty() &&
                    !runs.runs.back().interrupted)
                    shown = {
                        *s, runs.runs.size(),
                        timelineJobsOf(
                            runs.runs.back(), [&](std::size_t n) { return instrument.workerOf(n); },
                            sched_.lifeWindow)};
                ctx.progress.note(
                    fmt::format("probe {}: {}", probes.size(), probeLine(probes.back())));
            }
            if (r.systemFailure) break;
            if (runs.interrupted) {
                r.partial = true;
                break;
            }
            if (!runs.late.empty()) {  // the scheduler was shut down: no further probe
                stopReason =
                    fmt::format("search stopped: a run at stress {} {}", stressText(*s), runs.late);
                break;
            }
            search.record(probes.back().broken);
        }

        // the logistic fit over every run of every probe
        std::vector<StressOutcomes> counts;
        std::size_t totalRuns = 0, incomplete = 0;
        for (const ProbeStatistics& p : probes) {
            counts.push_back({p.stress, p.runs, p.failed});
            totalRuns += p.runs;
            incomplete += p.incomplete;
        }
        const FailFractionFit fit = FailFractionFit::fit(counts);
        // A bracket the search could not narrow (stopped early) gives no estimate.
        const double breaking = search.converged() ? search.estimate() : kMissing;
        const double ratio = breaking / limitStress;
        // where the schedule stops holding with no scheduling cost at all
        // The simulation takes seconds on a large graph: a stopped search skips it.
        const IdealReference ideal =
            r.partial
                ? IdealReference{}
                : IdealReference::search(graph, policy, C, load, sched_.lifeWindow, th, jobTime);
        const double ofIdeal = ideal.stress();
        const double toIdeal = breaking / ofIdeal;

        // ---- warnings
        std::size_t listed = 0, more = 0, moreRuns = 0;
        for (const ProbeStatistics& p : probes) {
            if (!p.incomplete) continue;
            if (listed++ < kProbeWarnings) {
                r.warnings.push_back(fmt::format(
                    "stress {}: {} of {} runs incomplete (jobs expired or were cancelled): "
                    "excluded from mean delta, sdev and mean runtime, counted as failed",
                    stressText(p.stress), p.incomplete, p.runs));
            } else {
                ++more;
                moreRuns += p.incomplete;
            }
        }
        if (more)
            r.warnings.push_back(fmt::format(
                "{} more probes with {} incomplete runs in all (column \"incomplete runs\")", more,
                moreRuns));
        if (!stopReason.empty()) r.warnings.push_back(stopReason);
        if (const std::optional<std::string> w = jobTimeWarning(ideal, load))
            r.warnings.push_back(*w);

        // ---- tables and plot
        CsvTable table({"probe", "stress", "runs", "incomplete runs", "failed runs",
                        "fail fraction", "broken", "mean delta ms", "sdev ms", "mean runtime ms",
                        "expected ms", "fitted fail fraction"});
        for (std::size_t i = 0; i < probes.size(); ++i) {
            const ProbeStatistics& p = probes[i];
            table.addRow({double(i + 1), p.stress, double(p.runs), double(p.incomplete),
                          double(p.failed), p.failFraction, p.broken ? 1.0 : 0.0, p.meanDeltaMs,
                          p.sdevMs, p.meanRuntimeMs, p.expectedMs, fit.failProbability(p.stress)});
        }
        table.setComment("breaking stress",
                         fmt::format("{} in [{}, {}]", stressText(breaking),
                                     stressText(search.low()), stressText(search.high())));
        table.setComment("fail fraction fit",
                         fit.fitted ? fmt::format("50 % at stress {}, 95 % CI [{}, {}]",
                                                  stressText(fit.stress50), stressText(fit.low),
                                                  stressText(fit.high))
                                    : "n/a: " + fit.reason);
        table.setComment("limit stress", stressText(limitStress));
        table.setComment("ideal run stress", stressText(ofIdeal));
        table.setComment("units", "stress: planned speed-up factor; times in ms; fractions 0..1");
        table.setComment("incomplete runs",
                         "jobs expired or were cancelled: no runtime (empty cells), counted as "
                         "failed");
        r.tables.push_back({"", table});

        CsvTable runsTable({"probe", "stress", "run", "runtime ms", "expected ms", "delta ms",
                            "complete", "failed"});
        for (std::size_t i = 0; i < probeRuns.size(); ++i)
            for (std::size_t k = 0; k < probeRuns[i].size(); ++k) {
                const ProbeRun& run = probeRuns[i][k];
                runsTable.addRow({double(i + 1), probes[i].stress, double(k + 1), run.runtimeMs,
                                  run.expectedMs, run.runtimeMs - run.expectedMs,
                                  std::isnan(run.runtimeMs) ? 0.0 : 1.0,
                                  ProbeStatistics::runFailed(run, th) ? 1.0 : 0.0});
            }
        r.tables.push_back({"-runs", runsTable});

        if (!probes.empty()) {
            BreakingPointPicture pic;
            for (const ProbeStatistics& p : probes)
                pic.probes.push_back(
                    {p.stress, p.meanRuntimeMs, p.expectedMs, p.failFraction, p.broken});
            if (fit.fitted) {
                double lo = probes.front().stress, hi = lo;
                for (const ProbeStatistics& p : probes) {
                    lo = std::min(lo, p.stress);
                    hi = std::max(hi, p.stress);
                }
                for (int i = 0; i <= 100; ++i) {
                    const double s = lo + (hi - lo) * i / 100.0;
                    pic.fittedCurve.emplace_back(s, fit.failProbability(s));
                }
            }
            pic.breakingStress = breaking;
            pic.fit50 = fit.fitted ? fit.stress50 : kMissing;
            pic.ciLow = fit.fitted ? fit.low : kMissing;
            pic.ciHigh = fit.fitted ? fit.high : kMissing;
            pic.limitStress = limitStress;
            pic.idealStress = ofIdeal;
            pic.title = fmt::format(
                "breaking point {} ({} nodes), {} workers, load {}, {} runs "
                "per probe",
                graph_.label(), graph.size(), W, Units::formatDuration(load, true), sched_.reps);
            r.plots.push_back({"", breakingPointPlot(pic)});
        }
        if (!shown.jobs.empty()) {
            TimelineOptions to;
            to.workers = W;
            to.title = fmt::format(
                "timeline of the last of {} runs at stress {} (the highest probe that held): "
                "{} ({} nodes), {} workers",
                shown.runs, stressText(shown.stress), graph_.label(), graph.size(), W);
            r.plots.push_back({"-timeline", TimelinePlot::plot(shown.jobs, to)});
        }

        // ---- text
        const std::string hash = fmt::format("0x{:016X}", graph.graphHash());
        r.text.push_back(fmt::format(
            "Breaking point: pattern {} ({} nodes, seed {}, hash {}), {} workers, planned "
            "concurrency {}, load {}, {} runs per probe{}",
            graph_.label(), graph.size(), graph.seed(), hash, W, C, Units::formatDuration(load),
            sched_.reps, placementNote(placement_.placement())));
        r.text.push_back(fmt::format(
            "  thresholds ({}): a run fails if incomplete, if a job expired, or if it ends more "
            "than {} late; a probe breaks if more than {} of its runs fail, or more than {} "
            "with sdev > {} and mean delta > {}",
            thresholds_ == "scaled"
                ? fmt::format("scaled x{:.3g} from the reference's 500µs jobs", scale)
                : "the reference's",
            dur(th.failDeltaMs), percent(th.breakFailFraction), percent(th.failFraction),
            dur(th.sdevLimitMs), dur(th.deltaLimitMs)));
        if (search.converged())
            r.text.push_back(fmt::format(
                "  breaking stress  {}   bisection bracket [{}, {}] ({} probes, resolution {})",
                stressText(breaking), stressText(search.low()), stressText(search.high()),
                probes.size(), search.limits().resolution));
        else if (search.bracketed())
            r.text.push_back(fmt::format(
                "  breaking stress  n/a: between {} and {}, the search stopped before the "
                "resolution {} ({} probes)",
                stressText(search.low()), stressText(search.high()), search.limits().resolution,
                probes.size()));
        else
            r.text.push_back(fmt::format("  breaking stress  n/a: no probe broke up to stress {}",
                                         stressText(search.low())));
        if (fit.fitted)
            r.text.push_back(fmt::format(
                "  logistic fit     50 % of runs fail at stress {}, 95 % CI [{}, {}] (profile "
                "likelihood over {} runs at {} stresses{})",
                stressText(fit.stress50), stressText(fit.low), stressText(fit.high), fit.runs,
                fit.stresses, fit.separated ? "; the transition is sharper than the probes" : ""));
        else
            r.text.push_back(fmt::format("  logistic fit     n/a: {}", fit.reason));
        r.text.push_back(fmt::format(
            "  theoretical limit stress {}: there the schedule ends at the lower bound {} = "
            "max(work / {}, critical path); breaking / limit = {}",
            stressText(limitStress), Units::formatDuration(lowerBound), C,
            textOr(ratio, [](double x) { return fmt::format("{:.2f}", x); })));
        for (std::string& line : idealLines(ideal, load, C, breaking))
            r.text.push_back(std::move(line));
        if (ratio > 1)
            r.text.push_back(fmt::format(
                "  note: the breaking stress lies beyond the theoretical limit: runs there end "
                "later than planned, by up to {} (--fail-delta), which the thresholds accept",
                dur(th.failDeltaMs)));
        if (fit.fitted && search.bracketed())
            r.text.push_back(
                "  (the bisection calls a probe broken at the thresholds above, the fit gives "
                "the stress at which half of the runs fail; the two measure different points)");
        auto at = [&](double stress) -> const ProbeStatistics* {
            for (const ProbeStatistics& p : probes)
                if (p.stress == stress) return &p;
            return nullptr;
        };
        const ProbeStatistics* holding = search.low() > 0 ? at(search.low()) : nullptr;
        const ProbeStatistics* broken = search.bracketed() ? at(search.high()) : nullptr;
        if (holding) r.text.push_back("  highest holding: " + probeLine(*holding));
        if (broken) r.text.push_back("  lowest broken:   " + probeLine(*broken));
        r.text.push_back(fmt::format("  {} runs in {} probes, {} incomplete", totalRuns,
                                     probes.size(), incomplete));
        if (r.partial)
            r.text.push_back(fmt::format("  stopped on request after {} probes", probes.size()));

        if (r.systemFailure)
            r.verdict = "scheduler FAILED: " + r.failures.front();
        else if (search.converged())
            r.verdict = fmt::format(
                "breaking stress {} (bracket {}..{}{}), {} of the theoretical limit {}, {} of "
                "the ideal run's {}",
                stressText(breaking), stressText(search.low()), stressText(search.high()),
                fit.fitted
                    ? fmt::format("; 50 % failure at {}, 95 % CI {}..{}", stressText(fit.stress50),
                                  stressText(fit.low), stressText(fit.high))
                    : "",
                percent(ratio), stressText(limitStress), percent(toIdeal), stressText(ofIdeal));
        else if (search.bracketed())
            r.verdict = fmt::format("breaking stress between {} and {} (search not narrowed)",
                                    stressText(search.low()), stressText(search.high()));
        else if (probes.empty())
            r.verdict = "no probe completed";
        else
            r.verdict = fmt::format("no breaking point up to stress {}", stressText(search.low()));
        if (!r.systemFailure && search.converged() && ratio > 1)
            r.verdict += " (beyond the limit: the thresholds accept runs that end late)";
        if (r.partial && !r.systemFailure) r.verdict += " (partial: stopped on request)";

        // ---- JSON
        nlohmann::json& j = r.result;
        j["pattern"] = graph_.label();
        j["nodes"] = graph.size();
        j["seed"] = graph.seed();
        j["hash"] = hash;
        j["workers"] = W;
        j["concurrency"] = C;
        j["load_us"] = std::chrono::duration<double, std::micro>(load).count();
        j["reps_per_probe"] = sched_.reps;
        j["found"] = search.bracketed();
        j["converged"] = search.converged();
        j["breaking_stress"] = jsonNumber(breaking);
        j["bracket_low"] = search.low();
        j["bracket_high"] = jsonNumber(search.high());
        j["resolution"] = search.limits().resolution;
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
        j["limit_stress"] = jsonNumber(limitStress);
        j["breaking_to_limit"] = jsonNumber(ratio);
        j["ideal"] = idealJson(ideal);
        j["breaking_to_ideal"] = jsonNumber(toIdeal);
        j["lower_bound_ms"] = toMs(lowerBound);
        j["unit_schedule_ms"] = unitEndMs;
        j["probes"] = probes.size();
        j["runs"] = totalRuns;
        j["incomplete_runs"] = incomplete;
        j["highest_holding"] = holding ? probeJson(*holding) : nlohmann::json(nullptr);
        j["lowest_broken"] = broken ? probeJson(*broken) : nlohmann::json(nullptr);
        j["thresholds"] = {{"mode", thresholds_},
                           {"scale", scale},
                           {"fail_delta_ms", th.failDeltaMs},
                           {"sdev_limit_ms", th.sdevLimitMs},
                           {"delta_limit_ms", th.deltaLimitMs},
                           {"break_fail_fraction", th.breakFailFraction},
                           {"fail_fraction", th.failFraction}};
        nlohmann::json list = nlohmann::json::array();
        for (const ProbeStatistics& p : probes)
            list.push_back(probeJson(p));
        j["probe_list"] = list;
        return r;
    }

  private:
    /// --backends other than pullsched alone: one search per backend, the same thresholds,
    /// no deadlines (only pullsched could expire a job), so a run fails by ending late.
    ModeResult runBackends(RunContext& ctx, ModeResult r, const JobBody& body,
                           const TestChainGraph& graph, WeightPolicy policy, unsigned C,
                           const BreakThresholds& th, double limitStress, Duration lowerBound);

    GraphOptions graph_;
    ExecutionOptions exec_;
    PlacementOption placement_;
    ScheduleOptions sched_;
    BackendOptions backends_;
    std::string thresholds_ = "scaled";
    std::optional<Duration> failDelta_, sdevLimit_, deltaLimit_;
    double breakFail_ = 0.99, fail_ = 0.55;
};

ModeResult BreakingPointMode::runBackends(RunContext& ctx, ModeResult r, const JobBody& body,
                                          const TestChainGraph& graph, WeightPolicy policy,
                                          unsigned C, const BreakThresholds& th, double limitStress,
                                          Duration lowerBound) {
    const std::vector<std::string> names = backends_.names();
    const unsigned W = exec_.workers;
    BackendSetup setup;
    setup.placement = placement_.placement();
    setup.workers = W;
    setup.timeBase = exec_.load;
    setup.load = body.load();
    setup.policy = policy;
    setup.parallelism = C;
    const Duration work = GraphStatistics(graph, policy).work(exec_.load);

    CsvTable summary;
    summary.addColumn("backend #");
    summary.addColumn("backend", CsvTable::Kind::Text);
    for (const char* c : {"breaking stress", "bracket low", "bracket high", "theoretical limit",
                          "ideal run, its jobs as measured", "probes", "runs"})
        summary.addColumn(c);
    CsvTable probesTable;
    probesTable.addColumn("backend", CsvTable::Kind::Text);
    for (const char* c : {"stress", "runs", "failed runs", "fail fraction", "mean runtime ms",
                          "expected ms", "mean delta ms", "sdev ms", "broken"})
        probesTable.addColumn(c);
    nlohmann::json byBackend = nlohmann::json::object();
    r.text.push_back(fmt::format(
        "Breaking point per backend: pattern {} ({} nodes), {} workers, planned concurrency {}, "
        "load {}, {} runs per probe; no deadlines: a run fails if it ends more than {} late; "
        "theoretical limit: stress {}",
        graph_.label(), graph.size(), W, C, Units::formatDuration(exec_.load), sched_.reps,
        dur(th.failDeltaMs), stressText(limitStress)));
    // no deadlines here, as for the backends; per backend with its jobs' measured times
    const IdealBreakingPoint planned =
        IdealBreakingPoint::search(graph, policy, C, exec_.load, exec_.load, Duration::zero(), th);
    r.text.push_back(fmt::format(
        "  ideal run stress {} with the jobs as planned: where a run with no scheduling cost, "
        "jobs taken in start order on {} workers, stops holding (simulated; per backend below "
        "with the jobs as long as they were measured in its runs)",
        idealStressText(planned), C));
    for (std::size_t b = 0; b < names.size() && !r.systemFailure; ++b) {
        BreakingPointSearch search;
        std::size_t runs = 0;
        std::string startTimes;
        nlohmann::json list = nlohmann::json::array();
        JobTimePerUnit jobTime;
        while (const std::optional<double> s = search.next()) {
            if (ctx.stop.requested()) {
                r.partial = true;
                break;
            }
            LevelSchedule schedule(graph, policy);
            schedule.adapt(*s, C, exec_.load);
            if (schedule.expectedEnd() > sched_.maxSchedule) break;
            setup.schedule = schedule;
            setup.completionLimit =
                completionLimit(RunnerConfig{}, schedule.expectedEnd(), work).total();
            const std::vector<BackendSeries> series =
                compareBackends({names[b]}, graph, setup, sched_.reps, backends_.warmup, ctx.stop);
            const BackendSeries& bs = series.front();
            startTimes = std::string(toString(bs.startTimes));
            if (!bs.failure.empty()) {
                r.systemFailure = true;
                r.failures.push_back(
                    fmt::format("{}, stress {}: {}", names[b], stressText(*s), bs.failure));
                break;
            }
            if (bs.runs.empty()) {
                r.partial = true;
                break;
            }
            std::vector<ProbeRun> outcomes;
            for (const BackendRun& run : bs.runs) {
                jobTime.add(run.result);
                outcomes.push_back({run.result.completed ? toMs(run.result.runTime) : kMissing,
                                    toMs(run.result.expectedEnd), false});
            }
            runs += outcomes.size();
            const ProbeStatistics p = ProbeStatistics::of(*s, outcomes, th);
            probesTable.addRow({names[b], p.stress, double(p.runs), double(p.failed),
                                p.failFraction, p.meanRuntimeMs, p.expectedMs, p.meanDeltaMs,
                                p.sdevMs, p.broken ? 1.0 : 0.0});
            list.push_back(probeJson(p));
            ctx.progress.note(fmt::format("{} probe {}: {}", names[b], list.size(), probeLine(p)));
            if (bs.interrupted) {
                r.partial = true;
                break;
            }
            search.record(p.broken);
        }
        const double breaking = search.converged() ? search.estimate() : kMissing;
        const IdealReference ideal = IdealReference::search(graph, policy, C, exec_.load,
                                                            Duration::zero(), th, jobTime, planned);
        const double ofIdeal = ideal.stress();
        summary.addRow({double(b + 1), names[b], breaking, search.low(), search.high(), limitStress,
                        ofIdeal, double(search.probes()), double(runs)});
        byBackend[names[b]] = {{"start_times", startTimes},
                               {"found", search.bracketed()},
                               {"converged", search.converged()},
                               {"breaking_stress", jsonNumber(breaking)},
                               {"bracket_low", search.low()},
                               {"bracket_high", jsonNumber(search.high())},
                               {"breaking_to_limit", jsonNumber(breaking / limitStress)},
                               {"ideal", idealJson(ideal)},
                               {"breaking_to_ideal", jsonNumber(breaking / ofIdeal)},
                               {"probes", search.probes()},
                               {"runs", runs},
                               {"probe_list", list}};
        r.text.push_back(fmt::format(
            "  {:<10} breaking stress {}   bracket [{}, {}] ({} probes, {} runs){}", names[b],
            search.converged() ? stressText(breaking) : std::string("n/a"),
            stressText(search.low()), search.bracketed() ? stressText(search.high()) : "n/a",
            search.probes(), runs,
            search.converged() && limitStress > 0
                ? fmt::format(", {:.0f} % of the limit{}", 100 * breaking / limitStress,
                              ofIdeal > 0
                                  ? fmt::format(", {:.0f} % of the ideal run's {}",
                                                100 * breaking / ofIdeal, stressText(ofIdeal))
                                  : std::string())
                : std::string()));
    }
    if (r.systemFailure)
        r.verdict = "FAILED: " + r.failures.front();
    else
        r.verdict = fmt::format(
            "breaking stress of {} backends beside the theoretical limit {} and the ideal "
            "run's {} (jobs as planned)",
            names.size(), stressText(limitStress), stressText(planned.stress));

    PlotOptions po;
    po.title = fmt::format(
        "{} ({} nodes), {} workers: breaking stress per backend (x: backend # "
        "in the table)",
        graph_.label(), graph.size(), W);
    std::string numbered;
    for (std::size_t b = 0; b < names.size(); ++b)
        numbered += fmt::format("{}{} {}", b ? ", " : "", b + 1, names[b]);
    po.xLabel = fmt::format("backend # ({})", numbered);
    po.yLabel = "stress";
    po.style = "points pt 7 ps 1.5";  // backends are categories: no line between them
    po.xTicStep = 1;
    r.plots.push_back({"", GnuplotScript::tablePlot(summary, "backend #",
                                                    {"breaking stress", "theoretical limit",
                                                     "ideal run, its jobs as measured"},
                                                    {}, po)});
    r.tables.push_back({"", std::move(summary)});
    r.tables.push_back({"-probes", std::move(probesTable)});

    nlohmann::json& j = r.result;
    j["pattern"] = graph_.label();
    j["nodes"] = graph.size();
    j["workers"] = W;
    j["concurrency"] = C;
    j["load_us"] = toUs(exec_.load);
    j["reps_per_probe"] = sched_.reps;
    j["limit_stress"] = jsonNumber(limitStress);
    j["ideal_jobs_as_planned"] = idealJson(planned);
    j["lower_bound_ms"] = toMs(lowerBound);
    j["deadlines"] = false;
    j["backends"] = byBackend;
    return r;
}

}  // namespace

std::unique_ptr<Mode> makeBreakingPointMode() {
    return std::make_unique<BreakingPointMode>();
}

}  // namespace pullsched::rig
