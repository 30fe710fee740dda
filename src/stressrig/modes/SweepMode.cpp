// --mode=sweep: held steps of offered load (jobs/s) for one or more worker counts, each
// step classified stable / burst / failure, all worker counts in one table.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "analysis/LoadClassifier.hpp"
#include "analysis/LoadTestAnalysis.hpp"
#include "backends/BackendRegistry.hpp"
#include "backends/StreamRateStep.hpp"
#include "cli/BackendOptions.hpp"
#include "cli/PlacementOption.hpp"
#include "cli/RateStepOptions.hpp"
#include "cli/UsageError.hpp"
#include "format/Units.hpp"
#include "load/JobBody.hpp"
#include "load/LoadRunTypes.hpp"
#include "load/Progress.hpp"
#include "load/StopRequest.hpp"
#include "modes/Mode.hpp"
#include "report/LatenessCells.hpp"
#include "report/MetricCatalogue.hpp"
#include "report/MissingValues.hpp"
#include "report/PerBackendResult.hpp"
#include "report/StreamTrace.hpp"
#include "report/SweepPlot.hpp"
#include "report/TextFormat.hpp"

namespace pullsched::rig {

namespace {

constexpr double kMiB = 1024.0 * 1024.0;
constexpr std::size_t kMaxSteps = 1000;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

double seconds(Duration d) {
    return std::chrono::duration<double>(d).count();
}

struct SweepRow {
    unsigned workers = 0;
    StepResult step;
    StepVerdict verdict;
    bool interrupted = false;  ///< stopped during its hold: shown, not classified
};

struct WorkerLevels {
    unsigned workers = 0;
    SweepSummary summary;
    std::size_t stepsRun = 0;
    std::size_t stepsSkipped = 0;  ///< above the first failure
};

nlohmann::json rateOrNull(const std::optional<double>& r) {
    return r ? nlohmann::json(*r) : nlohmann::json(nullptr);
}
std::string rateOrNone(const std::optional<double>& r) {
    return r ? Units::formatRate(*r) : std::string("none");
}

class SweepMode final : public Mode {
  public:
    std::string_view name() const override { return "sweep"; }
    std::vector<FigureSource> figures() const override {
        return {{"highest_stable_rate", "levels[workers].highest_stable_per_s"},
                {"first_failure_rate", "levels[workers].first_failure_per_s"},
                {"steps_run", "levels[workers].steps_run"}};
    }
    std::vector<std::string> selectorLabels() const override {
        std::vector<std::string> labels;
        for (const unsigned w : workers_)
            labels.push_back(fmt::format("workers={}", w));
        for (std::string& b : backends_.labels())
            labels.push_back(std::move(b));
        return labels;
    }
    std::string_view summary() const override {
        return "offered-rate steps per worker count: stable / burst / failure levels";
    }
    void declare(OptionTable& t) override {
        t.group("Execution");
        t.countList("workers", workers_, 1, 1024, "worker counts to sweep, e.g. 1,2,4");
        t.duration("load", load_, 100ns, 10s, "time per job");
        t.choice("load-kind", loadKind_, {"cpu", "memory"}, "computational load of a job");
        placement_.declare(t);
        t.group("Sweep");
        t.rate("from", from_, 0.001, 1e9, "first offered rate");
        t.rate("to", to_, 0.001, 1e9, "last offered rate (included)");
        t.rate("step", step_, 0.001, 1e9,
               "rate increment; unset (0/s): 5 evenly spaced rates from --from to --to");
        t.duration("limit", limit_, 1ns, 1h, "p99 lateness limit of a stable step");
        t.duration("max-schedule", maxSchedule_, 1ms, 7 * 24h,
                   "refuse sweeps whose holds add up to more than this");
        steps_.declare(t, "100 x --limit");
        backends_.declareStreamList(
            t, "schedulers that each run the whole sweep, one after the other");
        t.group("Traces");
        t.flag("trace-json", traceJson_,
               fmt::format("write <name>-trace.json (<name>-<backend>-trace.json with several "
                           "backends): one step's first {} arrivals, one track per thread that "
                           "ran them (ui.perfetto.dev, chrome://tracing): the last stable step "
                           "of the table, without one the first step; every backend",
                           kTracedArrivals));
    }

    void validate(const OptionTable& t) override {
        placement_.refuseIgnoredBy(t, backends_);
        if (to_ < from_)
            throw UsageError(fmt::format("--to={} is below --from={}", Units::formatRate(to_),
                                         Units::formatRate(from_)));
        rates_ = loadtest::sweepRates(from_, to_, step_);  // step 0 (unset): 5 rates
        if (rates_.empty()) throw UsageError("--from, --to and --step give no rate");
        if (rates_.size() > kMaxSteps)
            throw UsageError(fmt::format("{} steps from --from to --to (at most {}): raise --step",
                                         rates_.size(), kMaxSteps));
        if (rates_.back() * seconds(steps_.hold) > 2e9)
            throw UsageError("--to x --hold is over 2e9 jobs in one step: lower --to or --hold");
        const Duration planned = steps_.hold * static_cast<long>(rates_.size() * workers_.size());
        if (planned > maxSchedule_)
            throw UsageError(fmt::format(
                "the sweep would hold load for {} (over --max-schedule={}): lower --hold or the "
                "number of steps, or raise --max-schedule",
                Units::formatDuration(planned), Units::formatDuration(maxSchedule_)));
    }

    ModeResult run(RunContext& ctx) override {
        JobBody body(loadKind_, &ctx.progress);
        return runOnEachBackend("sweep", backends_.names(), ctx.stop,
                                [&](const std::string& b) { return runOn(ctx, body, b); });
    }

  private:
    ModeResult runOn(RunContext& ctx, const JobBody& body, const std::string& backend) const {
        const Duration window = steps_.window(100 * limit_);
        ClassifierLimits limits;
        limits.latenessLimit = limit_;
        limits.dropThreshold = steps_.dropThreshold;
        const LoadClassifier classifier(limits);

        SweepState state;
        state.total = rates_.size() * workers_.size();
        std::vector<WorkerLevels> levels;
        for (unsigned w : workers_) {
            if (state.stopped) break;
            const WorkerLevels lv =
                measureWorkers(ctx, body, backend, classifier, w, window, state);
            if (lv.stepsRun > 0) levels.push_back(lv);
        }

        ModeResult r;
        r.name = "sweep";
        r.calibration = body.json();
        r.partial = state.stopped;
        report(r, state.rows, levels, window, limits);
        if (traceJson_) traceFile(r, backend, state);
        return r;
    }

    /// The step whose arrivals a trace shows: the last stable step so far, else the first.
    struct TracedStep {
        std::size_t row = 0;  ///< of the table, from 0
        bool stable = false;
        std::vector<MeasuredJob> jobs;
    };

    /// The rows measured so far, the progress and whether a stop request ended the sweep.
    struct SweepState {
        std::vector<SweepRow> rows;
        std::size_t done = 0, total = 0;
        bool stopped = false;
        std::optional<TracedStep> traced;  ///< with --trace-json
    };

    /// Keeps the trace of `row` (about to be the table's next) if it is the step to show;
    /// only one step's arrivals are held at a time, however long the sweep.
    void keepTrace(SweepState& state, SweepRow& row) const {
        const bool stable = row.verdict.loadClass == LoadClass::Stable;
        if (traceJson_ && (!state.traced || stable))
            state.traced = TracedStep{state.rows.size(), stable, std::move(row.step.traced)};
        row.step.traced = {};
    }

    void traceFile(ModeResult& r, const std::string& backend, const SweepState& state) const {
        if (!state.traced) {
            r.text.push_back("Trace: not written, no step ran to its end");
            return;
        }
        const TracedStep& t = *state.traced;
        const SweepRow& row = state.rows[t.row];
        const std::string which =
            fmt::format("step {} of the table, {} workers at {} ({})", t.row + 1, row.workers,
                        Units::formatRate(row.step.m.offeredRate),
                        t.stable ? "the last stable step" : "no step was stable: the first step");
        r.text.push_back(fmt::format("Trace: {}; {} of its {} arrivals, those that ran", which,
                                     t.jobs.size(), row.step.m.jobs));
        r.files.push_back({"-trace.json",
                           streamTraceText(backend, t.jobs,
                                           {{"mode", "sweep"},
                                            {"step", which},
                                            {"workers", std::to_string(row.workers)},
                                            {"traced", fmt::format("the first {} arrivals that ran",
                                                                   t.jobs.size())}})});
    }

    /// The rates in turn on `workers` workers, each step classified; the first failure
    /// ends them (beyond it nothing new is learnt), a step cut short ends the sweep.
    WorkerLevels measureWorkers(RunContext& ctx, const JobBody& body, const std::string& backend,
                                const LoadClassifier& classifier, unsigned workers, Duration window,
                                SweepState& state) const {
        WorkerLevels lv;
        lv.workers = workers;
        std::vector<StepMeasurement> measured;
        for (double rate : rates_) {
            if (ctx.stop.requested()) {
                state.stopped = true;
                break;
            }
            SweepRow row;
            row.workers = workers;
            RateStepConfig step = steps_.step(rate, workers, load_, window);
            step.placement = placement_.placement();
            if (traceJson_) step.tracedArrivals = kTracedArrivals;
            row.step =
                runRateStep(*BackendRegistry::streamRunner(backend), step, body.load(), &ctx.stop);
            row.interrupted = row.step.interrupted;
            if (row.interrupted) {
                row.step.traced = {};  // a step cut short is not shown
                row.verdict = {LoadClass::Burst, "stopped during the hold: not classified"};
                state.rows.push_back(std::move(row));
                state.stopped = true;
                break;
            }
            row.verdict = classifier.classify(row.step.m);
            keepTrace(state, row);
            measured.push_back(row.step.m);
            ++lv.stepsRun;
            ctx.progress.progress(
                ++state.done, state.total,
                fmt::format("{} workers, {}: {} ({})", workers, Units::formatRate(rate),
                            toString(row.verdict.loadClass), row.verdict.reason));
            const bool failed = row.verdict.loadClass == LoadClass::Failure;
            state.rows.push_back(std::move(row));
            if (failed) {  // beyond the first failure nothing new is learnt
                lv.stepsSkipped = rates_.size() - measured.size();
                state.done += lv.stepsSkipped;
                break;
            }
        }
        lv.summary = classifier.summarize(measured);
        return lv;
    }

    static std::string className(const SweepRow& row) {
        return row.interrupted ? "interrupted" : std::string(toString(row.verdict.loadClass));
    }

    /// Offered load as a share of the nominal capacity workers / --load.
    double utilisationPercent(double rate, unsigned workers) const {
        return 100 * rate * seconds(load_) / workers;
    }

    void report(ModeResult& r, const std::vector<SweepRow>& rows,
                const std::vector<WorkerLevels>& levels, Duration window,
                const ClassifierLimits& limits) const {
        r.tables.push_back({"", stepTable(rows)});
        std::vector<SweepPoint> points;
        for (const SweepRow& row : rows)
            points.push_back({row.workers, row.step.m.offeredRate, row.step.m.achievedRate,
                              percentileLatenessUs(row.step.lateness, 99), className(row)});
        if (!points.empty())
            r.plots.push_back(
                {"", sweepPlot(points, toUs(limits.latenessLimit),
                               fmt::format("sweep: jobs of {}, {} workers: achieved rate, p99 "
                                           "lateness and class per offered rate",
                                           Units::formatDuration(load_, true),
                                           fmt::join(workers_, "/")))});
        r.result = resultJson(rows, levels, window, limits);
        r.text = textLines(rows, levels, window, limits);
        std::size_t withDrops = 0, unmeasured = 0;
        for (const SweepRow& row : rows) {
            if (row.step.m.drops > 0) ++withDrops;
            if (row.step.lateness.count() == 0) ++unmeasured;
        }
        if (withDrops > 0)
            r.warnings.push_back(fmt::format(
                "{} of {} steps dropped jobs (missed their deadline of {}): see the drops column",
                withDrops, rows.size(), durationText(window)));
        if (unmeasured > 0)
            r.warnings.push_back(fmt::format(
                "{} of {} steps measured no job's lateness (n/a): not classified stable",
                unmeasured, rows.size()));
        r.verdict = verdict(levels);
        // a step over the lateness limit or dropping jobs: amber, whatever else held
        r.overload = std::any_of(rows.begin(), rows.end(), [](const SweepRow& row) {
            return !row.interrupted && row.verdict.loadClass != LoadClass::Stable;
        });
    }

    static double dropPercent(const StepMeasurement& m) {
        return m.jobs > 0 ? 100.0 * static_cast<double>(m.drops) / static_cast<double>(m.jobs)
                          : kNaN;
    }

    /// Every worker count in one table.
    CsvTable stepTable(const std::vector<SweepRow>& rows) const {
        CsvTable t;
        using namespace std::string_literals;
        const auto figure = [](std::string_view name) { return MetricCatalogue::csvHeader(name); };
        for (std::string c : {"workers"s,
                              figure("offered_rate"),
                              figure("throughput"),
                              "utilisation %"s,
                              "cpu %"s,
                              "rss MiB"s,
                              figure("jobs_posted"),
                              figure("jobs_measured"),
                              figure("jobs_expired"),
                              "drop %"s,
                              figure("jobs_failed"),
                              "posted late"s,
                              figure("lateness_mean"),
                              figure("lateness_p50"),
                              figure("lateness_p99"),
                              figure("lateness_max"),
                              "backlog end"s,
                              "backlog after drain"s,
                              "drained"s,
                              "drain ms"s})
            t.addColumn(std::move(c));
        t.addColumn("class", CsvTable::Kind::Text);
        t.addColumn("reason", CsvTable::Kind::Text);
        for (const SweepRow& row : rows) {
            const StepResult& s = row.step;
            const StepMeasurement& m = s.m;
            t.addRow({static_cast<double>(row.workers),
                      m.offeredRate,
                      m.achievedRate,
                      utilisationPercent(m.offeredRate, row.workers),
                      s.cpuPercent,
                      static_cast<double>(s.rssBytes) / kMiB,
                      static_cast<double>(m.jobs),
                      static_cast<double>(s.measured),
                      static_cast<double>(m.drops),
                      dropPercent(m),
                      static_cast<double>(m.failures),
                      static_cast<double>(s.postedLate),
                      meanLatenessUs(s.lateness),
                      percentileLatenessUs(s.lateness, 50),
                      percentileLatenessUs(s.lateness, 99),
                      percentileLatenessUs(s.lateness, 100),
                      m.backlogEnd,
                      m.backlogAfterDrain.value_or(kNaN),
                      m.drained.value_or(true) ? 1.0 : 0.0,
                      toUs(s.drainTime) / 1e3,
                      className(row),
                      row.verdict.reason});
        }
        return t;
    }

    nlohmann::json stepJson(const SweepRow& row) const {
        const StepResult& s = row.step;
        const StepMeasurement& m = s.m;
        return {{"workers", row.workers},
                {"offered_rate_per_s", m.offeredRate},
                {"achieved_rate_per_s", jsonNumber(m.achievedRate)},
                {"utilisation_percent", utilisationPercent(m.offeredRate, row.workers)},
                {"cpu_percent", jsonNumber(s.cpuPercent)},
                {"rss_mib", static_cast<double>(s.rssBytes) / kMiB},
                {"jobs_posted", m.jobs},
                {"jobs_measured", s.measured},
                {"jobs_expired", m.drops},
                {"drop_percent", jsonNumber(dropPercent(m))},
                {"jobs_failed", m.failures},
                {"posted_late", s.postedLate},
                {"lateness", histogramJson(s.lateness)},
                {"backlog_end", m.backlogEnd},
                {"backlog_after_drain", jsonNumber(m.backlogAfterDrain.value_or(kNaN))},
                {"drained", m.drained.value_or(true)},
                {"drain_ms", toUs(s.drainTime) / 1e3},
                {"class", className(row)},
                {"reason", row.verdict.reason}};
    }

    nlohmann::json resultJson(const std::vector<SweepRow>& rows,
                              const std::vector<WorkerLevels>& levels, Duration window,
                              const ClassifierLimits& limits) const {
        nlohmann::json j;
        j["rates_per_s"] = rates_;
        j["workers"] = workers_;
        j["warmup_per_step_us"] = toUs(steps_.warm());
        j["deadline_window_us"] = toUs(window);
        j["drain_limit_us"] = toUs(steps_.drainLimit(window));
        j["lateness_limit_us"] = toUs(limits.latenessLimit);
        j["drop_threshold_percent"] = 100 * limits.dropThreshold;
        j["failure_drop_percent"] = 100 * std::max(limits.dropFraction, limits.dropThreshold);
        j["backlog_bound"] = limits.backlogBound;
        j["steps"] = nlohmann::json::array();
        for (const SweepRow& row : rows)
            j["steps"].push_back(stepJson(row));
        j["levels"] = nlohmann::json::array();
        for (const WorkerLevels& lv : levels)
            j["levels"].push_back({{"workers", lv.workers},
                                   {"highest_stable_per_s", rateOrNull(lv.summary.highestStable)},
                                   {"highest_burst_per_s", rateOrNull(lv.summary.highestBurst)},
                                   {"first_failure_per_s", rateOrNull(lv.summary.firstFailure)},
                                   {"consistent", lv.summary.consistent},
                                   {"steps_run", lv.stepsRun},
                                   {"steps_skipped", lv.stepsSkipped}});
        return j;
    }

    std::vector<std::string> textLines(const std::vector<SweepRow>& rows,
                                       const std::vector<WorkerLevels>& levels, Duration window,
                                       const ClassifierLimits& limits) const {
        std::vector<std::string> text;
        text.push_back(fmt::format(
            "Sweep: jobs of {}, hold {} (first {} not measured), {} arrivals, deadline window {}",
            durationText(load_), durationText(steps_.hold), durationText(steps_.warm()),
            steps_.arrival, window > Duration{0} ? durationText(window) : std::string("none")));
        text.push_back(fmt::format(
            "Stable: keeps up (achieved >= {:g} x offered), p99 lateness <= {}, drops <= {:g}% of "
            "the jobs; burst: over a limit but drains; failure: drops over {:g}%, failed jobs or "
            "no drain",
            limits.keepUpRatio, durationText(limits.latenessLimit), 100 * limits.dropThreshold,
            100 * std::max(limits.dropFraction, limits.dropThreshold)));
        text.push_back("");
        text.push_back(
            fmt::format("{:>4} {:>10} {:>10} {:>6} {:>6} {:>8} {:>8} {:>7} {:>10} "
                        "{:>10} {:>8}  {}",
                        "W", "offered", "achieved", "util%", "CPU%", "RSS MiB", "jobs", "drops",
                        "mean late", "p99 late", "backlog", "class"));
        for (const SweepRow& row : rows) {
            const StepResult& s = row.step;
            const StepMeasurement& m = s.m;
            text.push_back(fmt::format(
                "{:>4} {:>10} {:>10} {:>6.0f} {:>6.0f} {:>8.1f} {:>8} {:>7} {:>10} "
                "{:>10} {:>8.0f}  "
                "{} ({})",
                row.workers, Units::formatRate(m.offeredRate),
                textOr(m.achievedRate, [](double v) { return Units::formatRate(v); }),
                utilisationPercent(m.offeredRate, row.workers), s.cpuPercent,
                static_cast<double>(s.rssBytes) / kMiB, m.jobs, m.drops,
                usText(meanLatenessUs(s.lateness)), usText(percentileLatenessUs(s.lateness, 99)),
                m.backlogEnd, className(row), row.verdict.reason));
        }
        std::vector<StepMeasurement> measured;
        std::vector<unsigned> workers;
        for (const SweepRow& row : rows) {
            measured.push_back(row.step.m);
            workers.push_back(row.workers);
        }
        if (std::string note =
                achievedAboveOfferedNote(measured, workers, steps_.arrival == "poisson");
            !note.empty())
            text.push_back(std::move(note));
        text.push_back("");
        text.push_back("Levels:");
        for (const WorkerLevels& lv : levels) {
            const SweepSummary& s = lv.summary;
            text.push_back(fmt::format(
                "  {} worker{}: highest stable {}, highest burst {}, first failure {}{}{}",
                lv.workers, lv.workers == 1 ? "" : "s", rateOrNone(s.highestStable),
                rateOrNone(s.highestBurst), rateOrNone(s.firstFailure),
                lv.stepsSkipped ? fmt::format(" ({} higher rates skipped)", lv.stepsSkipped) : "",
                s.consistent ? "" : "; not monotonic: repeat with a longer --hold"));
        }
        return text;
    }

    /// "2 workers: stable up to 400/s, failing from 600/s; ..." or "no step completed".
    static std::string verdict(const std::vector<WorkerLevels>& levels) {
        std::vector<std::string> verdicts;
        for (const WorkerLevels& lv : levels) {
            const SweepSummary& s = lv.summary;
            std::string v = fmt::format("{} worker{}: ", lv.workers, lv.workers == 1 ? "" : "s");
            v += s.highestStable
                     ? fmt::format("stable up to {}", Units::formatRate(*s.highestStable))
                     : std::string("no stable step");
            if (s.firstFailure)
                v += fmt::format(", failing from {}", Units::formatRate(*s.firstFailure));
            verdicts.push_back(std::move(v));
        }
        return verdicts.empty() ? "no step completed"
                                : fmt::format("{}", fmt::join(verdicts, "; "));
    }

    std::vector<unsigned> workers_{2};
    PlacementOption placement_;
    BackendOptions backends_;
    Duration load_ = std::chrono::microseconds{500};
    std::string loadKind_ = "cpu";
    double from_ = 1000, to_ = 5000, step_ = 0;
    Duration limit_ = std::chrono::milliseconds{1};
    Duration maxSchedule_ = std::chrono::hours{1};
    RateStepOptions steps_;
    std::vector<double> rates_;  ///< from validate()
    bool traceJson_ = false;
};

}  // namespace

std::unique_ptr<Mode> makeSweepMode() {
    return std::make_unique<SweepMode>();
}

}  // namespace pullsched::rig
