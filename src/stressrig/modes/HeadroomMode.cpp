// --mode=headroom: how much of the machine the scheduler can use, in two parts.
//
// Copies: k = 1 … --max-copies parallel copies of a fixed CPU-bound job chain, each on its
// own single-worker scheduler (independent like k separate processes). Per k: CPU % of
// the machine, time until all copies are done (median of kReps), efficiency t(1)/t(k).
// An ideal machine keeps 1.0 up to its core count.
// Load: the scheduler itself (--workers) under open load in steps of 10 % … 100 % of its
// nominal capacity workers / --load, each held --hold: throughput, CPU and lateness per
// step. The maximum sustained load is the highest step of the contiguous run from the
// first whose mean lateness stays within 2 x max(low-load value, 50 µs noise floor) and
// whose drops stay within --drop-threshold.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "analysis/LoadTestAnalysis.hpp"
#include "backends/BackendRegistry.hpp"
#include "backends/StreamRateStep.hpp"
#include "backends/StreamRunner.hpp"
#include "cli/BackendOptions.hpp"
#include "cli/ExecutionOptions.hpp"
#include "cli/RateStepOptions.hpp"
#include "cli/UsageError.hpp"
#include "format/Units.hpp"
#include "load/JobBody.hpp"
#include "load/LoadRunTypes.hpp"
#include "load/Progress.hpp"
#include "load/StopRequest.hpp"
#include "measure/Environment.hpp"
#include "measure/ProcessSampler.hpp"
#include "modes/Mode.hpp"
#include "report/HeadroomPlots.hpp"
#include "report/LatenessCells.hpp"
#include "report/MetricCatalogue.hpp"
#include "report/MissingValues.hpp"
#include "report/PerBackendResult.hpp"
#include "report/StreamTrace.hpp"
#include "report/TextFormat.hpp"

namespace pullsched::rig {

namespace {

constexpr int kReps = 3;
constexpr int kLoadSteps = 10;
constexpr double kSustainFactor = 2.0;
/// Below ~50 µs, mean lateness is OS wake-up noise, not load: one late wake-up doubles
/// a few-microsecond low-load value without the scheduler being any closer to its limit.
constexpr double kNoiseFloorNs = 50'000;
constexpr std::size_t kMinChainJobs = 10;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kMiB = 1024.0 * 1024.0;

double seconds(Duration d) {
    return std::chrono::duration<double>(d).count();
}

/// One copy: a chain of jobs, each submitting the next when done; a stop request ends it.
struct Chain {
    StreamRunner* runner = nullptr;
    const testchain::ComputationalLoad* load = nullptr;
    const StopRequest* stop = nullptr;
    Duration jobLoad{0};
    std::size_t remaining = 0;

    void next() {
        if (remaining == 0 || stop->requested()) return;
        --remaining;
        runner->submit(pullsched::SteadyClock::now(), [this] {
            load->invoke(jobLoad);
            next();
        });
    }
};

struct CopiesRun {
    double seconds = 0;
    double machineCpuPercent = 0;
};

/// k copies of the chain at once, each on its own one-worker `backend`; time until all
/// are done and machine CPU % meanwhile.
CopiesRun runCopies(const std::string& backend, unsigned k, std::size_t jobs, Duration jobLoad,
                    const testchain::ComputationalLoad& load, unsigned cores,
                    const StopRequest& stop) {
    std::vector<std::unique_ptr<StreamRunner>> runners;
    std::vector<Chain> chains(k);
    for (unsigned i = 0; i < k; ++i) {
        runners.push_back(BackendRegistry::streamRunner(backend));
        runners.back()->start(1, Placement::Spread);
        chains[i] = Chain{runners.back().get(), &load, &stop, jobLoad, jobs};
    }
    const auto s0 = ProcessSampler::snapshot();
    for (auto& c : chains)
        c.next();
    for (auto& r : runners)
        r->drain(Duration::max(), &stop);
    const auto s1 = ProcessSampler::snapshot();
    for (auto& r : runners)
        r->stop();
    return {std::chrono::duration<double>(s1.wall - s0.wall).count(),
            ProcessSampler::cpuPercent(s0, s1) / cores};
}

struct LoadStep {
    double fraction = 0;
    StepResult r;
    bool dropsOver = false;  ///< drops above --drop-threshold: not sustained
};

/// The maximum sustained load of the steps and the figures it was judged by.
struct Sustained {
    std::optional<std::size_t> index;  ///< the highest step of the sustained run
    double lowLoadUs = kNaN;           ///< mean lateness of the lowest step
    double boundUs = kNaN;             ///< the mean lateness a sustained step stays within

    bool covers(std::size_t step) const { return index && step <= *index; }
};

/// The contiguous run of steps from the first whose mean lateness stays within
/// kSustainFactor x max(low-load value, noise floor); a step without measurement or with
/// drops over the threshold is not sustained (NaN ends the run).
Sustained sustainedLoad(const std::vector<LoadStep>& steps) {
    std::vector<double> meanNs;
    for (const LoadStep& s : steps)
        meanNs.push_back(s.dropsOver || s.r.lateness.count() == 0 ? kNaN : s.r.lateness.mean());
    Sustained sustained;
    sustained.index = loadtest::maxSustainedIndex(meanNs, kSustainFactor, kNoiseFloorNs);
    sustained.lowLoadUs = steps.empty() ? kNaN : meanLatenessUs(steps.front().r.lateness);
    sustained.boundUs = std::isnan(sustained.lowLoadUs)
                            ? kNaN
                            : kSustainFactor * std::max(sustained.lowLoadUs, kNoiseFloorNs / 1e3);
    return sustained;
}

class HeadroomMode final : public Mode {
  public:
    std::string_view name() const override { return "headroom"; }
    std::vector<FigureSource> figures() const override {
        return {{"max_sustained_rate"}, {"max_sustained_capacity"}, {"capacity"}};
    }
    std::vector<std::string> selectorLabels() const override { return backends_.labels(); }
    std::string_view summary() const override {
        return "parallel copies' efficiency, and lateness vs load up to the scheduler's capacity";
    }
    void declare(OptionTable& t) override {
        exec_.declare(t, "time per job (copies' chain jobs and the load steps)");
        t.group("Copies");
        t.optionalCount("max-copies", maxCopies_, 1, 256, "copies k = 1 .. this",
                        "2 x hardware threads");
        t.duration("copy-work", copyWork_, 1ms, 1min,
                   "work of one copy's chain (at least 10 jobs of --load)");
        steps_.declare(t, "100ms");
        t.text("stages", stages_, "STAGES",
               "not accepted here: the load steps are the ladder (use --mode=open --stages)");
        backends_.declareStreamList(
            t, "schedulers that each run the copies and the load steps, one after the other");
        t.group("Traces");
        t.flag("trace-json", traceJson_,
               fmt::format("write <name>-trace.json (<name>-<backend>-trace.json with several "
                           "backends): one load step's first {} arrivals, one track per thread "
                           "that ran them (ui.perfetto.dev, chrome://tracing): the maximum "
                           "sustained load, without one the lowest step; every backend",
                           kTracedArrivals));
    }
    void validate(const OptionTable& t) override {
        // Each load step holds one fraction of the capacity on a fresh scheduler and is
        // judged by its lateness as a whole; a rate changing inside a step would judge a
        // mixture of loads, and the steps already are the ladder. Recovery after a spike
        // is what open and soak measure with --stages.
        if (t.given("stages"))
            throw UsageError(
                "--stages does not apply to --mode=headroom: its load steps hold 10 % ... 100 % "
                "of the nominal capacity each on a fresh scheduler, so a rate changing inside a "
                "step would judge a mix of loads; use --mode=open --stages (or soak) for ramps, "
                "spikes and recovery");
    }

    ModeResult run(RunContext& ctx) override {
        JobBody body(exec_.loadKind, &ctx.progress);
        return runOnEachBackend("headroom", backends_.names(), ctx.stop,
                                [&](const std::string& b) { return runOn(ctx, body, b); });
    }

  private:
    ModeResult runOn(RunContext& ctx, const JobBody& body, const std::string& backend) const {
        const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
        const std::size_t chainJobs = std::max<std::size_t>(
            kMinChainJobs, static_cast<std::size_t>(seconds(copyWork_) / seconds(exec_.load)));
        bool stopped = false;
        std::vector<loadtest::HeadroomRow> copies =
            measureCopies(ctx, body, backend, cores, chainJobs, stopped);
        loadtest::computeEfficiency(copies);
        const double capacity = exec_.workers / seconds(exec_.load);
        const Duration window = steps_.window(std::chrono::milliseconds{100});
        const std::vector<LoadStep> steps =
            measureLoad(ctx, body, backend, capacity, window, stopped);

        ModeResult r;
        r.name = "headroom";
        r.calibration = body.json();
        r.partial = stopped;
        report(r, copies, steps, cores, chainJobs, capacity, window);
        if (traceJson_) traceFile(r, backend, steps, sustainedLoad(steps));
        return r;
    }

    /// k = 1 .. max copies, the median of kReps runs each; a k without all its repetitions
    /// (a stop request) is not reported and sets `stopped`.
    std::vector<loadtest::HeadroomRow> measureCopies(RunContext& ctx, const JobBody& body,
                                                     const std::string& backend, unsigned cores,
                                                     std::size_t chainJobs, bool& stopped) const {
        const unsigned maxCopies = maxCopies_.value_or(2 * cores);
        std::vector<loadtest::HeadroomRow> copies;
        for (unsigned k = 1; k <= maxCopies && !stopped; ++k) {
            std::vector<CopiesRun> reps;
            for (int i = 0; i < kReps; ++i) {
                if (ctx.stop.requested()) {
                    stopped = true;
                    break;
                }
                reps.push_back(
                    runCopies(backend, k, chainJobs, exec_.load, body.load(), cores, ctx.stop));
            }
            if (ctx.stop.requested()) stopped = true;  // the last repetition was cut short
            if (stopped) break;  // a k without all its repetitions is not reported
            std::sort(reps.begin(), reps.end(),
                      [](const CopiesRun& a, const CopiesRun& b) { return a.seconds < b.seconds; });
            const CopiesRun& med = reps[kReps / 2];
            copies.push_back({k, med.machineCpuPercent, med.seconds, 0});
            ctx.progress.progress(k, maxCopies,
                                  fmt::format("{} copies: {}", k, durationText(med.seconds, 1e9)));
        }
        return copies;
    }

    /// Open load in kLoadSteps steps up to `capacity`; a step cut short by a stop request
    /// measures nothing comparable and sets `stopped`.
    std::vector<LoadStep> measureLoad(RunContext& ctx, const JobBody& body,
                                      const std::string& backend, double capacity, Duration window,
                                      bool& stopped) const {
        std::vector<LoadStep> steps;
        for (int i = 1; i <= kLoadSteps && !stopped; ++i) {
            if (ctx.stop.requested()) {
                stopped = true;
                break;
            }
            LoadStep s;
            s.fraction = i / static_cast<double>(kLoadSteps);
            RateStepConfig cfg =
                steps_.step(s.fraction * capacity, exec_.workers, exec_.load, window);
            if (traceJson_) cfg.tracedArrivals = kTracedArrivals;
            s.r = runRateStep(*BackendRegistry::streamRunner(backend), cfg, body.load(), &ctx.stop);
            if (s.r.interrupted) {  // a step cut short measures nothing comparable
                stopped = true;
                break;
            }
            s.dropsOver = steps_.dropsOver(s.r.m.drops, s.r.m.jobs);
            ctx.progress.progress(
                static_cast<std::size_t>(i), kLoadSteps,
                fmt::format("{:.0f} % of capacity: machine CPU {:.0f} % (of {} cores), mean "
                            "lateness {}",
                            100 * s.fraction, s.r.cpuPercent / ctx.environment.cores,
                            ctx.environment.cores, usText(meanLatenessUs(s.r.lateness))));
            steps.push_back(std::move(s));
            dropStaleTraces(steps);
        }
        return steps;
    }

    /// Only the step a trace will show keeps its arrivals: the highest sustained step so
    /// far, without one the lowest (the sustained run only grows at its top).
    static void dropStaleTraces(std::vector<LoadStep>& steps) {
        const std::size_t shown = sustainedLoad(steps).index.value_or(0);
        for (std::size_t i = 0; i < steps.size(); ++i)
            if (i != shown) steps[i].r.traced = {};
    }

    void traceFile(ModeResult& r, const std::string& backend, const std::vector<LoadStep>& steps,
                   const Sustained& sustained) const {
        if (steps.empty()) {
            r.text.push_back("Trace: not written, no load step ran to its end");
            return;
        }
        const std::size_t shown = sustained.index.value_or(0);
        const StepResult& m = steps[shown].r;
        const std::string which = fmt::format(
            "load step {} of {}, {:.0f} % of capacity at {} ({})", shown + 1, steps.size(),
            100 * steps[shown].fraction, Units::formatRate(m.m.offeredRate),
            sustained.index ? "the maximum sustained load" : "none sustained: the lowest step");
        r.text.push_back(fmt::format("Trace: {}; {} of its {} arrivals, those that ran", which,
                                     m.traced.size(), m.m.jobs));
        r.files.push_back({"-trace.json",
                           streamTraceText(backend, m.traced,
                                           {{"mode", "headroom"},
                                            {"step", which},
                                            {"workers", std::to_string(exec_.workers)},
                                            {"traced", fmt::format("the first {} arrivals that ran",
                                                                   m.traced.size())}})});
    }

    void report(ModeResult& r, const std::vector<loadtest::HeadroomRow>& copies,
                const std::vector<LoadStep>& steps, unsigned cores, std::size_t chainJobs,
                double capacity, Duration window) const {
        const Sustained sustained = sustainedLoad(steps);
        const CsvTable ct = copiesTable(copies);
        r.tables.push_back({"-copies", ct});
        if (!copies.empty())
            r.plots.push_back(
                {"-copies", headroomCopiesPlot(ct, fmt::format("headroom: k copies of a {}-job "
                                                               "chain, one worker each",
                                                               chainJobs))});
        const CsvTable lt = loadTable(steps, sustained, cores);
        r.tables.push_back({"-load", lt});
        if (const auto y = columnsWithData(lt, {MetricCatalogue::csvHeader("lateness_mean"),
                                                MetricCatalogue::csvHeader("lateness_p99")});
            !y.empty())
            r.plots.push_back(
                {"-load", headroomLoadPlot(
                              lt, y,
                              fmt::format("scheduler ({} workers): lateness, throughput and CPU "
                                          "over the offered load",
                                          exec_.workers),
                              std::chrono::duration<double, std::micro>(window).count())});
        r.result = resultJson(copies, steps, sustained, cores, chainJobs, capacity, window);
        r.text = copiesLines(copies, cores, chainJobs);
        for (std::string& line : loadLines(steps, sustained, cores, capacity, window))
            r.text.push_back(std::move(line));
        r.verdict = verdict(copies, steps, sustained);
        r.overload = !steps.empty() && !sustained.index && !std::isnan(sustained.lowLoadUs);
        std::size_t unmeasured = 0, withDrops = 0;
        for (const LoadStep& s : steps) {
            if (s.r.lateness.count() == 0) ++unmeasured;
            if (s.dropsOver) ++withDrops;
        }
        if (unmeasured > 0)
            r.warnings.push_back(
                fmt::format("{} of {} load steps measured no job's lateness (n/a): raise --hold or "
                            "--deadline-window",
                            unmeasured, steps.size()));
        if (withDrops > 0)
            r.warnings.push_back(fmt::format(
                "{} of {} load steps dropped over {:g}% of their jobs (missed the deadline of {})",
                withDrops, steps.size(), 100 * steps_.dropThreshold, durationText(window)));
    }

    static CsvTable copiesTable(const std::vector<loadtest::HeadroomRow>& copies) {
        CsvTable ct(
            {"copies", "machine cpu %", "time s", MetricCatalogue::csvHeader("efficiency")});
        for (const auto& c : copies)
            ct.addRow({static_cast<double>(c.copies), c.cpuPercent, c.seconds, c.efficiency});
        return ct;
    }

    static CsvTable loadTable(const std::vector<LoadStep>& steps, const Sustained& sustained,
                              unsigned cores) {
        const auto figure = [](std::string_view name) { return MetricCatalogue::csvHeader(name); };
        CsvTable lt({"capacity %", figure("offered_rate"), figure("throughput"),
                     figure("jobs_posted"), figure("jobs_measured"), figure("jobs_expired"),
                     "cpu %", "machine cpu %", "rss MiB", figure("lateness_mean"),
                     figure("lateness_p50"), figure("lateness_p99"), figure("lateness_max"),
                     "sustained"});
        for (std::size_t i = 0; i < steps.size(); ++i) {
            const LoadStep& s = steps[i];
            const StepResult& m = s.r;
            lt.addRow({100 * s.fraction, m.m.offeredRate, m.m.achievedRate,
                       static_cast<double>(m.m.jobs), static_cast<double>(m.measured),
                       static_cast<double>(m.m.drops), m.cpuPercent, m.cpuPercent / cores,
                       static_cast<double>(m.rssBytes) / kMiB, meanLatenessUs(m.lateness),
                       percentileLatenessUs(m.lateness, 50), percentileLatenessUs(m.lateness, 99),
                       percentileLatenessUs(m.lateness, 100), sustained.covers(i) ? 1.0 : 0.0});
        }
        return lt;
    }

    nlohmann::json resultJson(const std::vector<loadtest::HeadroomRow>& copies,
                              const std::vector<LoadStep>& steps, const Sustained& sustained,
                              unsigned cores, std::size_t chainJobs, double capacity,
                              Duration window) const {
        nlohmann::json jc = nlohmann::json::array();
        for (const auto& c : copies)
            jc.push_back({{"copies", c.copies},
                          {"machine_cpu_percent", c.cpuPercent},
                          {"time_s", c.seconds},
                          {"efficiency", c.efficiency}});
        nlohmann::json jl = nlohmann::json::array();
        for (std::size_t i = 0; i < steps.size(); ++i) {
            const LoadStep& s = steps[i];
            const StepResult& m = s.r;
            jl.push_back({{"capacity_percent", 100 * s.fraction},
                          {"offered_rate_per_s", m.m.offeredRate},
                          {"achieved_rate_per_s", jsonNumber(m.m.achievedRate)},
                          {"jobs_posted", m.m.jobs},
                          {"jobs_measured", m.measured},
                          {"jobs_expired", m.m.drops},
                          {"drops_over_threshold", s.dropsOver},
                          {"cpu_percent", jsonNumber(m.cpuPercent)},
                          {"machine_cpu_percent", jsonNumber(m.cpuPercent / cores)},
                          {"rss_mib", static_cast<double>(m.rssBytes) / kMiB},
                          {"lateness", histogramJson(m.lateness)},
                          {"sustained", sustained.covers(i)}});
        }
        const auto& top = sustained.index;
        nlohmann::json j;
        j["cores"] = cores;
        j["chain_jobs"] = chainJobs;
        j["repetitions"] = kReps;
        j["copies"] = jc;
        j["capacity_per_s"] = capacity;
        j["warmup_per_step_us"] = toUs(steps_.warm());
        j["deadline_window_us"] = toUs(window);
        j["load"] = jl;
        j["sustain_bound_us"] = jsonNumber(sustained.boundUs);
        j["max_sustained_rate_per_s"] =
            top ? nlohmann::json(steps[*top].r.m.offeredRate) : nlohmann::json(nullptr);
        j["max_sustained_capacity_percent"] =
            top ? nlohmann::json(100 * steps[*top].fraction) : nlohmann::json(nullptr);
        return j;
    }

    std::vector<std::string> copiesLines(const std::vector<loadtest::HeadroomRow>& copies,
                                         unsigned cores, std::size_t chainJobs) const {
        std::vector<std::string> text;
        text.push_back(fmt::format(
            "Compute headroom: {} cores; k copies of a {}-job chain of {} jobs, one single-worker "
            "scheduler each (median of {})",
            cores, chainJobs, durationText(exec_.load), kReps));
        text.push_back(
            fmt::format("(mach. CPU%: the rig's CPU time over the wall time of all {} "
                        "cores; 100 % = every core busy)",
                        cores));
        text.push_back(
            fmt::format("{:>6} {:>10} {:>10} {:>10}", "copies", "mach. CPU%", "time", "t(1)/t(k)"));
        for (const auto& c : copies)
            text.push_back(fmt::format("{:>6} {:>10.0f} {:>10} {:>10.2f}", c.copies, c.cpuPercent,
                                       durationText(c.seconds, 1e9), c.efficiency));
        text.push_back("");
        return text;
    }

    std::vector<std::string> loadLines(const std::vector<LoadStep>& steps,
                                       const Sustained& sustained, unsigned cores, double capacity,
                                       Duration window) const {
        std::vector<std::string> text;
        text.push_back(fmt::format(
            "Scheduler, {} workers, open load in steps of its capacity {} (hold {}, deadline "
            "window {}):",
            exec_.workers, Units::formatRate(capacity), durationText(steps_.hold),
            window > Duration{0} ? durationText(window) : std::string("none")));
        text.push_back(fmt::format("{:>10} {:>10} {:>10} {:>7} {:>10} {:>10}", "offered",
                                   "achieved", "mach. CPU%", "drops", "mean late", "p99 late"));
        for (std::size_t i = 0; i < steps.size(); ++i) {
            const StepResult& m = steps[i].r;
            text.push_back(fmt::format(
                "{:>10} {:>10} {:>10.0f} {:>7} {:>10} {:>10}{}", Units::formatRate(m.m.offeredRate),
                textOr(m.m.achievedRate, [](double v) { return Units::formatRate(v); }),
                m.cpuPercent / cores, m.m.drops, usText(meanLatenessUs(m.lateness)),
                usText(percentileLatenessUs(m.lateness, 99)),
                sustained.index && i == *sustained.index ? "   <- maximum sustained load" : ""));
        }
        const std::string rule = fmt::format(
            "mean lateness <= {:g} x max(low-load value {}, noise floor {}), drops <= {:g}%",
            kSustainFactor, usText(sustained.lowLoadUs),
            durationText(std::chrono::nanoseconds{static_cast<long>(kNoiseFloorNs)}),
            100 * steps_.dropThreshold);
        if (const auto& top = sustained.index)
            text.push_back(fmt::format("Maximum sustained load ({}): {} ({:.0f} % of capacity)",
                                       rule, Units::formatRate(steps[*top].r.m.offeredRate),
                                       100 * steps[*top].fraction));
        else
            text.push_back(
                fmt::format("Maximum sustained load: undetermined ({}; the lowest step {})", rule,
                            steps.empty()                     ? "did not run"
                            : std::isnan(sustained.lowLoadUs) ? "measured no lateness"
                                                              : "dropped too many jobs"));
        return text;
    }

    static std::string verdict(const std::vector<loadtest::HeadroomRow>& copies,
                               const std::vector<LoadStep>& steps, const Sustained& sustained) {
        std::string verdict = "maximum sustained load undetermined";
        if (const auto& top = sustained.index)
            verdict = fmt::format("maximum sustained load {} ({:.0f} % of capacity)",
                                  Units::formatRate(steps[*top].r.m.offeredRate),
                                  100 * steps[*top].fraction);
        if (!copies.empty())
            verdict +=
                fmt::format("; {} cop{} at efficiency {:.2f}", copies.back().copies,
                            copies.back().copies == 1 ? "y" : "ies", copies.back().efficiency);
        return verdict;
    }

    ExecutionOptions exec_;
    BackendOptions backends_;
    std::optional<unsigned> maxCopies_;
    Duration copyWork_ = std::chrono::milliseconds{200};
    RateStepOptions steps_;
    std::string stages_;  ///< only to refuse --stages with a reason
    bool traceJson_ = false;
};

}  // namespace

std::unique_ptr<Mode> makeHeadroomMode() {
    return std::make_unique<HeadroomMode>();
}

}  // namespace pullsched::rig
