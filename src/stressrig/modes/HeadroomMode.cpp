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
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "analysis/LoadTestAnalysis.hpp"
#include "cli/ExecutionOptions.hpp"
#include "cli/RateStepOptions.hpp"
#include "format/Units.hpp"
#include "load/JobBody.hpp"
#include "load/LoadRuns.hpp"
#include "load/Progress.hpp"
#include "load/SchedulerFactory.hpp"
#include "load/StopRequest.hpp"
#include "measure/Environment.hpp"
#include "measure/ProcessSampler.hpp"
#include "modes/Mode.hpp"
#include "pullsched/scheduler/Scheduler.hpp"
#include "report/LatenessCells.hpp"
#include "report/MissingValues.hpp"
#include "report/VerdictPlots.hpp"

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

/// One copy: a chain of jobs, each posting the next when done; a stop request ends it.
struct Chain {
    pullsched::Scheduler* sched = nullptr;
    const testchain::ComputationalLoad* load = nullptr;
    const StopRequest* stop = nullptr;
    Duration jobLoad{0};
    std::size_t remaining = 0;

    void next() {
        if (remaining == 0 || stop->requested()) return;
        --remaining;
        sched->postDetached([this] {
            load->invoke(jobLoad);
            next();
        });
    }
};

struct CopiesRun {
    double seconds = 0;
    double machineCpuPercent = 0;
};

/// k copies of the chain at once; time until all are done and machine CPU % meanwhile.
CopiesRun runCopies(unsigned k, std::size_t jobs, Duration jobLoad,
                    const testchain::ComputationalLoad& load, unsigned cores,
                    const StopRequest& stop) {
    std::vector<std::unique_ptr<pullsched::Scheduler>> scheds;
    std::vector<Chain> chains(k);
    for (unsigned i = 0; i < k; ++i) {
        scheds.push_back(
            std::make_unique<pullsched::Scheduler>(schedulerConfig(1, Placement::Spread)));
        chains[i] = Chain{scheds.back().get(), &load, &stop, jobLoad, jobs};
    }
    const auto s0 = ProcessSampler::snapshot();
    for (auto& c : chains)
        c.next();
    for (auto& s : scheds)
        s->drain();
    const auto s1 = ProcessSampler::snapshot();
    return {std::chrono::duration<double>(s1.wall - s0.wall).count(),
            ProcessSampler::cpuPercent(s0, s1) / cores};
}

struct LoadStep {
    double fraction = 0;
    StepResult r;
    bool dropsOver = false;  ///< drops above --drop-threshold: not sustained
};

class HeadroomMode final : public Mode {
  public:
    std::string_view name() const override { return "headroom"; }
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
    }

    ModeResult run(RunContext& ctx) override {
        JobBody body(exec_.loadKind, &ctx.progress);
        const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
        const unsigned maxCopies = maxCopies_.value_or(2 * cores);
        const std::size_t chainJobs = std::max<std::size_t>(
            kMinChainJobs, static_cast<std::size_t>(seconds(copyWork_) / seconds(exec_.load)));
        bool stopped = false;

        std::vector<loadtest::HeadroomRow> copies;
        for (unsigned k = 1; k <= maxCopies && !stopped; ++k) {
            std::vector<CopiesRun> reps;
            for (int i = 0; i < kReps; ++i) {
                if (ctx.stop.requested()) {
                    stopped = true;
                    break;
                }
                reps.push_back(runCopies(k, chainJobs, exec_.load, body.load(), cores, ctx.stop));
            }
            if (ctx.stop.requested()) stopped = true;  // the last repetition was cut short
            if (stopped) break;  // a k without all its repetitions is not reported
            std::sort(reps.begin(), reps.end(),
                      [](const CopiesRun& a, const CopiesRun& b) { return a.seconds < b.seconds; });
            const CopiesRun& med = reps[kReps / 2];
            copies.push_back({k, med.machineCpuPercent, med.seconds, 0});
            ctx.progress.progress(k, maxCopies,
                                  fmt::format("{} copies: {}", k,
                                              Units::formatDuration(std::chrono::nanoseconds{
                                                  std::llround(med.seconds * 1e9)})));
        }
        loadtest::computeEfficiency(copies);

        const double capacity = exec_.workers / seconds(exec_.load);
        const Duration window = steps_.window(std::chrono::milliseconds{100});
        std::vector<LoadStep> steps;
        for (int i = 1; i <= kLoadSteps && !stopped; ++i) {
            if (ctx.stop.requested()) {
                stopped = true;
                break;
            }
            LoadStep s;
            s.fraction = i / static_cast<double>(kLoadSteps);
            s.r = runRateStep(steps_.step(s.fraction * capacity, exec_.workers, exec_.load, window),
                              body.load(), &ctx.stop);
            if (s.r.interrupted) {  // a step cut short measures nothing comparable
                stopped = true;
                break;
            }
            s.dropsOver = steps_.dropsOver(s.r.m.drops, s.r.m.jobs);
            ctx.progress.progress(
                static_cast<std::size_t>(i), kLoadSteps,
                fmt::format("{:.0f} % of capacity: CPU {:.0f} %, mean lateness {}",
                            100 * s.fraction, s.r.cpuPercent,
                            durationTextUs(meanLatenessUs(s.r.lateness))));
            steps.push_back(std::move(s));
        }

        ModeResult r;
        r.name = "headroom";
        r.calibration = body.json();
        r.partial = stopped;
        report(r, copies, steps, cores, chainJobs, capacity, window);
        return r;
    }

  private:
    void report(ModeResult& r, const std::vector<loadtest::HeadroomRow>& copies,
                const std::vector<LoadStep>& steps, unsigned cores, std::size_t chainJobs,
                double capacity, Duration window) const {
        // Mean lateness per step, as ns; a step without measurement or with drops over the
        // threshold is not sustained (NaN ends the contiguous run).
        std::vector<double> meanNs;
        for (const LoadStep& s : steps)
            meanNs.push_back(s.dropsOver || s.r.lateness.count() == 0 ? kNaN : s.r.lateness.mean());
        const auto sustained = loadtest::maxSustainedIndex(meanNs, kSustainFactor, kNoiseFloorNs);
        const double lowLoadUs = steps.empty() ? kNaN : meanLatenessUs(steps.front().r.lateness);
        const double boundUs = std::isnan(lowLoadUs)
                                   ? kNaN
                                   : kSustainFactor * std::max(lowLoadUs, kNoiseFloorNs / 1e3);

        // --- copies
        CsvTable ct({"copies", "machine_cpu_percent", "time_s", "efficiency"});
        nlohmann::json jc = nlohmann::json::array();
        for (const auto& c : copies) {
            ct.addRow({static_cast<double>(c.copies), c.cpuPercent, c.seconds, c.efficiency});
            jc.push_back({{"copies", c.copies},
                          {"machine_cpu_percent", c.cpuPercent},
                          {"time_s", c.seconds},
                          {"efficiency", c.efficiency}});
        }
        r.tables.push_back({"-copies", ct});
        if (!copies.empty()) {
            PlotOptions pc;
            pc.title =
                fmt::format("headroom: k copies of a {}-job chain, one worker each", chainJobs);
            r.plots.push_back({"-copies", headroomCopiesPlot(ct, pc.title)});
        }

        // --- load steps
        CsvTable lt({"capacity_percent", "offered_rate_per_s", "achieved_rate_per_s", "jobs",
                     "measured", "drops", "cpu_percent", "machine_cpu_percent", "rss_mib",
                     "lateness_mean_us", "lateness_p50_us", "lateness_p99_us", "lateness_max_us",
                     "sustained"});
        nlohmann::json jl = nlohmann::json::array();
        std::size_t unmeasured = 0, withDrops = 0;
        for (std::size_t i = 0; i < steps.size(); ++i) {
            const LoadStep& s = steps[i];
            const StepResult& m = s.r;
            const bool within = sustained && i <= *sustained;
            if (m.lateness.count() == 0) ++unmeasured;
            if (s.dropsOver) ++withDrops;
            lt.addRow({100 * s.fraction, m.m.offeredRate, m.m.achievedRate,
                       static_cast<double>(m.m.jobs), static_cast<double>(m.measured),
                       static_cast<double>(m.m.drops), m.cpuPercent, m.cpuPercent / cores,
                       static_cast<double>(m.rssBytes) / kMiB, meanLatenessUs(m.lateness),
                       percentileLatenessUs(m.lateness, 50), percentileLatenessUs(m.lateness, 99),
                       percentileLatenessUs(m.lateness, 100), within ? 1.0 : 0.0});
            jl.push_back({{"capacity_percent", 100 * s.fraction},
                          {"offered_rate_per_s", m.m.offeredRate},
                          {"achieved_rate_per_s", jsonNumber(m.m.achievedRate)},
                          {"jobs", m.m.jobs},
                          {"measured", m.measured},
                          {"drops", m.m.drops},
                          {"drops_over_threshold", s.dropsOver},
                          {"cpu_percent", jsonNumber(m.cpuPercent)},
                          {"machine_cpu_percent", jsonNumber(m.cpuPercent / cores)},
                          {"rss_mib", static_cast<double>(m.rssBytes) / kMiB},
                          {"lateness", histogramJson(m.lateness)},
                          {"sustained", within}});
        }
        r.tables.push_back({"-load", lt});
        if (const auto y = columnsWithData(lt, {"lateness_mean_us", "lateness_p99_us"});
            !y.empty()) {
            PlotOptions pl;
            pl.title = fmt::format("scheduler ({} workers): lateness and throughput vs CPU load",
                                   exec_.workers);
            pl.title = fmt::format("scheduler ({} workers): lateness and CPU over the offered load",
                                   exec_.workers);
            r.plots.push_back({"-load", headroomLoadPlot(lt, y, pl.title)});
        }

        nlohmann::json& j = r.result;
        j["cores"] = cores;
        j["chain_jobs"] = chainJobs;
        j["repetitions"] = kReps;
        j["copies"] = jc;
        j["capacity_per_s"] = capacity;
        j["warmup_per_step_us"] = toUs(steps_.warm());
        j["deadline_window_us"] = toUs(window);
        j["load"] = jl;
        j["sustain_bound_us"] = jsonNumber(boundUs);
        j["max_sustained_rate_per_s"] =
            sustained ? nlohmann::json(steps[*sustained].r.m.offeredRate) : nlohmann::json(nullptr);
        j["max_sustained_capacity_percent"] =
            sustained ? nlohmann::json(100 * steps[*sustained].fraction) : nlohmann::json(nullptr);

        // --- text
        r.text.push_back(fmt::format(
            "Compute headroom: {} cores; k copies of a {}-job chain of {} jobs, one single-worker "
            "scheduler each (median of {})",
            cores, chainJobs, Units::formatDuration(exec_.load), kReps));
        r.text.push_back(
            fmt::format("{:>6} {:>10} {:>10} {:>10}", "copies", "mach. CPU%", "time", "t(1)/t(k)"));
        for (const auto& c : copies)
            r.text.push_back(fmt::format(
                "{:>6} {:>10.0f} {:>10} {:>10.2f}", c.copies, c.cpuPercent,
                Units::formatDuration(std::chrono::nanoseconds{std::llround(c.seconds * 1e9)}),
                c.efficiency));
        r.text.push_back("");
        r.text.push_back(fmt::format(
            "Scheduler, {} workers, open load in steps of its capacity {} (hold {}, deadline "
            "window {}):",
            exec_.workers, Units::formatRate(capacity), Units::formatDuration(steps_.hold),
            window > Duration{0} ? Units::formatDuration(window) : std::string("none")));
        r.text.push_back(fmt::format("{:>10} {:>10} {:>10} {:>7} {:>10} {:>10}", "offered",
                                     "achieved", "mach. CPU%", "drops", "mean late", "p99 late"));
        for (std::size_t i = 0; i < steps.size(); ++i) {
            const StepResult& m = steps[i].r;
            r.text.push_back(fmt::format(
                "{:>10} {:>10} {:>10.0f} {:>7} {:>10} {:>10}{}", Units::formatRate(m.m.offeredRate),
                textOr(m.m.achievedRate, [](double v) { return Units::formatRate(v); }),
                m.cpuPercent / cores, m.m.drops, durationTextUs(meanLatenessUs(m.lateness)),
                durationTextUs(percentileLatenessUs(m.lateness, 99)),
                sustained && i == *sustained ? "   <- maximum sustained load" : ""));
        }
        const std::string rule = fmt::format(
            "mean lateness <= {:g} x max(low-load value {}, noise floor {}), drops <= {:g}%",
            kSustainFactor, durationTextUs(lowLoadUs),
            Units::formatDuration(std::chrono::nanoseconds{static_cast<long>(kNoiseFloorNs)}),
            100 * steps_.dropThreshold);
        if (sustained) {
            r.text.push_back(fmt::format("Maximum sustained load ({}): {} ({:.0f} % of capacity)",
                                         rule, Units::formatRate(steps[*sustained].r.m.offeredRate),
                                         100 * steps[*sustained].fraction));
            r.verdict = fmt::format("maximum sustained load {} ({:.0f} % of capacity)",
                                    Units::formatRate(steps[*sustained].r.m.offeredRate),
                                    100 * steps[*sustained].fraction);
        } else {
            r.text.push_back(
                fmt::format("Maximum sustained load: undetermined ({}; the lowest step {})", rule,
                            steps.empty()           ? "did not run"
                            : std::isnan(lowLoadUs) ? "measured no lateness"
                                                    : "dropped too many jobs"));
            r.verdict = "maximum sustained load undetermined";
        }
        if (!copies.empty())
            r.verdict +=
                fmt::format("; {} cop{} at efficiency {:.2f}", copies.back().copies,
                            copies.back().copies == 1 ? "y" : "ies", copies.back().efficiency);
        if (unmeasured > 0)
            r.warnings.push_back(
                fmt::format("{} of {} load steps measured no job's lateness (n/a): raise --hold or "
                            "--deadline-window",
                            unmeasured, steps.size()));
        if (withDrops > 0)
            r.warnings.push_back(fmt::format(
                "{} of {} load steps dropped over {:g}% of their jobs (missed the deadline of {})",
                withDrops, steps.size(), 100 * steps_.dropThreshold,
                Units::formatDuration(window)));
    }

    ExecutionOptions exec_;
    std::optional<unsigned> maxCopies_;
    Duration copyWork_ = std::chrono::milliseconds{200};
    RateStepOptions steps_;
};

}  // namespace

std::unique_ptr<Mode> makeHeadroomMode() {
    return std::make_unique<HeadroomMode>();
}

}  // namespace pullsched::rig
