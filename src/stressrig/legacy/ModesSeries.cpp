// --mode=breaking-point (spec §2) and --mode=param-range (spec §3).
#include <algorithm>
#include <cmath>
#include <iostream>
#include <optional>
#include <random>

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <nlohmann/json.hpp>

#include "ModeSupport.hpp"
#include "pullsched/scheduler/Scheduler.hpp"
#include "report/CsvTable.hpp"
#include "report/GnuplotScript.hpp"
#include "analysis/LinearRegression.hpp"
#include "legacy/Modes.hpp"
#include "report/Progress.hpp"
#include "legacy/ReportWriter.hpp"
#include "legacy/RigSetup.hpp"
#include "measure/RunInstrument.hpp"
#include "report/Units.hpp"
#include "cli/UsageError.hpp"
#include "pullsched/testchain/GraphStatistics.hpp"
#include "pullsched/testchain/LevelSchedule.hpp"
#include "pullsched/testchain/ScheduleRunner.hpp"

namespace fs = std::filesystem;

namespace pullsched::rig {

using namespace pullsched::testchain;
using detail::hashHex;
using detail::ms;
using detail::us;

// ---------------------------------------------------------------- breaking point

namespace {

constexpr double kUpperStart = 1.7;   // first probe (the reference's upper end)
constexpr double kResolution = 0.01;  // bisect until the bracket is this narrow
constexpr double kStressCap = 64.0;   // widening gives up here
constexpr Duration kReferenceLoad = std::chrono::microseconds{500};

struct Thresholds {
    Duration failDelta, sdevLimit, deltaLimit;
    double breakFail, fail;
    double scale = 1.0;
};

struct Probe {
    double stress = 0;
    std::size_t runs = 0;
    double failFraction = 0;
    double meanDelta = 0;    // ms
    double sdev = 0;         // ms, of the run times (n-1)
    double meanRuntime = 0;  // ms
    double expected = 0;     // ms
    bool broken = false;
    bool ok = true;               // every run completed and verified (deadline misses aside)
    std::size_t expiredRuns = 0;  // runs with jobs past their deadline (count as fails)
    std::string error;
};

Probe probe(Scheduler& sched, const TestChainGraph& graph, const RunnerConfig& rc, double stress,
            unsigned concurrency, const RigOptions& opt, const Thresholds& th,
            WeightPolicy policy) {
    LevelSchedule schedule(graph, policy);
    schedule.adapt(stress, concurrency, opt.load);
    schedule.lifeWindow(opt.lifeWindow);
    ScheduleRunner runner(sched, graph, schedule, rc);
    const std::vector<testchain::RunResult> runs = runner.runReps(opt.reps, false);
    Probe p;
    p.stress = stress;
    p.runs = runs.size();
    p.expected = ms(schedule.expectedEnd());
    std::size_t fails = 0;
    double sum = 0, sumDelta = 0;
    for (const testchain::RunResult& r : runs) {
        // Expired jobs (and the successors they cancel) are a timing failure: the run
        // fails, the search goes on. Anything else that is not ok() means the scheduler
        // computed a wrong result (or timed out): that ends the search.
        const bool missed = r.expired > 0;
        if (!r.ok() && !(missed && r.failed == 0 && !r.timedOut)) {
            p.ok = false;
            p.error = !r.error.empty() ? r.error
                      : !r.hashOk      ? fmt::format("hash mismatch: got {}, expected {}",
                                                     hashHex(r.actualHash), hashHex(r.expectedHash))
                                       : fmt::format("{} failed, {} expired, {} cancelled jobs",
                                                     r.failed, r.expired, r.cancelled);
        }
        if (missed) ++p.expiredRuns;
        const Duration delta = r.runTime - r.expectedEnd;
        if (missed || delta > th.failDelta) ++fails;
        sum += ms(r.runTime);
        sumDelta += ms(delta);
    }
    const double n = double(std::max<std::size_t>(runs.size(), 1));
    p.meanRuntime = sum / n;
    p.meanDelta = sumDelta / n;
    double sq = 0;
    for (const testchain::RunResult& r : runs)
        sq += std::pow(ms(r.runTime) - p.meanRuntime, 2);
    p.sdev = runs.size() > 1 ? std::sqrt(sq / double(runs.size() - 1)) : 0.0;
    p.failFraction = double(fails) / n;
    p.broken =
        p.failFraction > th.breakFail ||
        (p.failFraction > th.fail && p.sdev > ms(th.sdevLimit) && p.meanDelta > ms(th.deltaLimit));
    return p;
}

}  // namespace

int runBreakingPointMode(const RigOptions& opt) {
    if (opt.schedule == "default")
        throw UsageError(
            "--mode=breaking-point varies the adapted schedule's stress; drop --level / "
            "--schedule=default");
    RigSetup setup(opt);
    const TestChainGraph graph = setup.graph();
    const unsigned W = opt.primaryWorkers();
    Progress progress(opt.quiet || opt.json, "breaking-point");

    Thresholds th{opt.failDelta, opt.sdevLimit, opt.deltaLimit, opt.breakFailFraction,
                  opt.failFraction};
    if (opt.scaleThresholds) {
        th.scale = double(opt.load.count()) / double(kReferenceLoad.count());
        auto scaled = [&](Duration d) {
            return Duration{static_cast<Duration::rep>(std::llround(double(d.count()) * th.scale))};
        };
        th.failDelta = scaled(th.failDelta);
        th.sdevLimit = scaled(th.sdevLimit);
        th.deltaLimit = scaled(th.deltaLimit);
    }

    ReportWriter out(opt, fmt::format("breaking-point-{}-{}", setup.label(), graph.size()));
    const ComputationalLoad& load = setup.load(&progress);
    out.addConfiguration("calibration", setup.calibrationText());
    out.addConfiguration("graph hash", hashHex(graph.graphHash()));
    out.addConfiguration(
        "thresholds",
        fmt::format("fail if delta > {}; broken if fail > {} or (fail > {}, sdev > {}, "
                    "mean delta > {}){}",
                    Units::formatDuration(th.failDelta, true), th.breakFail, th.fail,
                    Units::formatDuration(th.sdevLimit, true),
                    Units::formatDuration(th.deltaLimit, true),
                    opt.scaleThresholds ? fmt::format(" (scaled x{:.3g})", th.scale) : ""));

    // single-threaded reference time and the theoretical limit
    TestChainGraph refGraph = graph;
    ComputationalLoad refLoad = load;
    const auto t0 = std::chrono::steady_clock::now();
    refGraph.performGraphSynchronously(opt.load, refLoad, setup.policy());
    const double referenceMs = ms(std::chrono::steady_clock::now() - t0);
    const GraphStatistics stats(graph, setup.policy());
    const unsigned C = opt.scheduleConcurrency();  // planned parallelism
    const Duration lowerBound = stats.lowerBound(C, opt.load);
    LevelSchedule unit(graph, setup.policy());
    unit.adapt(1.0, C, opt.load);
    const double limitStress = lowerBound.count() > 0
                                   ? double(unit.expectedEnd().count()) / double(lowerBound.count())
                                   : 0.0;

    SchedulerConfig cfg;
    cfg.workers = W;
    Scheduler sched(cfg);
    RunnerConfig rc;
    rc.timeBase = opt.load;
    rc.load = load;
    rc.policy = setup.policy();
    rc.deadlines = opt.lifeWindow > Duration::zero();

    std::vector<Probe> probes;
    bool failedRun = false;
    std::string failure;
    auto doProbe = [&](double s) -> const Probe& {
        probes.push_back(probe(sched, graph, rc, s, C, opt, th, setup.policy()));
        const Probe& p = probes.back();
        if (!p.ok && !failedRun) {
            failedRun = true;
            failure = p.error;
        }
        progress.note(fmt::format(
            "probe {:>2}: stress {:.4f}  fail {:5.1f}%  mean delta {:+.3f} ms  "
            "sdev {:.3f} ms{}  -> {}",
            probes.size(), s, 100 * p.failFraction, p.meanDelta, p.sdev,
            p.expiredRuns ? fmt::format("  ({} runs with expired jobs)", p.expiredRuns) : "",
            p.broken ? "broken" : "holds"));
        return p;
    };

    // upper end first, widened until it breaks
    double lo = 0, hi = kUpperStart;
    bool found = true;
    while (!failedRun && !doProbe(hi).broken) {
        lo = hi;
        if (hi >= kStressCap) {
            found = false;
            break;
        }
        hi = std::min(hi * 2, kStressCap);
    }
    // bisect down to the resolution
    while (found && !failedRun && hi - lo > kResolution) {
        const double mid = (lo + hi) / 2;
        if (doProbe(mid).broken)
            hi = mid;
        else
            lo = mid;
    }

    // figures: averaged over the last three probes (they lie at the breaking point)
    const std::size_t k = std::min<std::size_t>(3, probes.size());
    Probe avg;
    for (std::size_t i = probes.size() - k; i < probes.size(); ++i) {
        avg.failFraction += probes[i].failFraction / double(k);
        avg.meanDelta += probes[i].meanDelta / double(k);
        avg.sdev += probes[i].sdev / double(k);
        avg.meanRuntime += probes[i].meanRuntime / double(k);
        avg.expected += probes[i].expected / double(k);
    }
    const double stress = found ? (lo + hi) / 2 : hi;
    // The bisection bracket is only as good as each probe's verdict; the transition zone
    // is the wider, more honest interval: from the highest stress below the bracket at
    // which fewer than 10 % of the runs failed, up to the lowest broken stress.
    double zoneLow = 0, zoneHigh = hi;
    for (const Probe& p : probes) {
        if (p.stress <= lo && p.failFraction < 0.1) zoneLow = std::max(zoneLow, p.stress);
        if (p.broken) zoneHigh = std::min(zoneHigh, p.stress);
    }

    // ---- files
    CsvTable table({"probe", "stress", "broken", "fail fraction", "mean delta ms", "sdev ms",
                    "mean runtime ms", "expected ms"});
    for (std::size_t i = 0; i < probes.size(); ++i) {
        const Probe& p = probes[i];
        table.addRow({double(i + 1), p.stress, p.broken ? 1.0 : 0.0, p.failFraction, p.meanDelta,
                      p.sdev, p.meanRuntime, p.expected});
    }
    table.setComment("breaking stress",
                     fmt::format("{:.4f} in [{:.4f}, {:.4f}], transition zone [{:.4f}, {:.4f}]",
                                 stress, lo, hi, zoneLow, zoneHigh));
    table.setComment("limit stress", fmt::format("{:.4f}", limitStress));
    out.writeCsv(table);
    PlotOptions po;
    po.title = fmt::format(
        "breaking point {} ({} nodes), {} workers, load {}: stress {:.3f} (limit {:.3f})",
        setup.label(), graph.size(), W, Units::formatDuration(opt.load, true), stress, limitStress);
    po.style = "points";
    po.yLabel = "time (ms)";
    po.y2Label = "fail fraction";
    out.writePlot(GnuplotScript::tablePlot(table, "stress", {"mean runtime ms", "expected ms"},
                                           {"fail fraction"}, po));

    // ---- report
    if (opt.json) {
        nlohmann::json j;
        j["pattern"] = setup.label();
        j["nodes"] = graph.size();
        j["seed"] = graph.seed();
        j["hash"] = hashHex(graph.graphHash());
        j["workers"] = W;
        j["load_us"] = us(opt.load);
        j["reps"] = opt.reps;
        j["found"] = found;
        j["stress"] = stress;
        j["stress_low"] = lo;
        j["stress_high"] = hi;
        j["transition_low"] = zoneLow;
        j["transition_high"] = zoneHigh;
        j["stress_limit"] = limitStress;
        j["delta_ms"] = avg.meanDelta;
        j["sdev_ms"] = avg.sdev;
        j["runtime_ms"] = avg.meanRuntime;
        j["expected_ms"] = avg.expected;
        j["fail_fraction"] = avg.failFraction;
        j["reference_ms"] = referenceMs;
        j["lower_bound_ms"] = ms(lowerBound);
        j["probes"] = probes.size();
        j["hash_ok"] = !failedRun;
        if (failedRun) j["error"] = failure;
        j["thresholds"] = {{"fail_delta_ms", ms(th.failDelta)},
                           {"sdev_limit_ms", ms(th.sdevLimit)},
                           {"delta_limit_ms", ms(th.deltaLimit)},
                           {"break_fail_fraction", th.breakFail},
                           {"fail_fraction", th.fail},
                           {"scale", th.scale}};
        detail::printJsonReport(j, setup, opt, out);
    } else {
        auto& o = std::cout;
        fmt::print(o,
                   "Breaking point: pattern {} ({} nodes, seed {}, hash {}), {} workers, load {}, "
                   "{} reps per probe\n",
                   setup.label(), graph.size(), graph.seed(), hashHex(graph.graphHash()), W,
                   Units::formatDuration(opt.load), opt.reps);
        for (const auto& [key, value] : out.configuration())
            fmt::print(o, "  # {}: {}\n", key, value);
        if (failedRun) fmt::print(o, "  RUN FAILED: {}\n", failure);
        if (found)
            fmt::print(
                o,
                "  breaking stress  {:.3f}   bracket [{:.4f}, {:.4f}] ({} probes, resolution {})\n",
                stress, lo, hi, probes.size(), kResolution);
        else
            fmt::print(o, "  no breaking point up to stress {:.1f}\n", hi);
        fmt::print(o,
                   "  transition zone  [{:.4f}, {:.4f}]  (last stress with < 10 % failed runs .. "
                   "first broken)\n",
                   zoneLow, zoneHigh);
        fmt::print(o,
                   "  theoretical limit stress {:.3f}  (expected end = lower bound {:.3f} ms = "
                   "max(work/{}, critical path))\n",
                   limitStress, ms(lowerBound), W);
        fmt::print(o, "  mean delta       {:+.3f} ms   (runtime - expected; last {} probes)\n",
                   avg.meanDelta, k);
        fmt::print(o, "  sdev             {:.3f} ms\n", avg.sdev);
        fmt::print(o, "  mean runtime     {:.3f} ms    expected {:.3f} ms\n", avg.meanRuntime,
                   avg.expected);
        fmt::print(o, "  fail fraction    {:.1f} %\n", 100 * avg.failFraction);
        fmt::print(o, "  single-threaded  {:.3f} ms  (performGraphSynchronously)\n", referenceMs);
        out.printSummary(o);
    }
    return failedRun ? 1 : 0;
}

// ---------------------------------------------------------------- parameter series

int runParamRangeMode(const RigOptions& opt) {
    const double lowD = std::ceil(opt.from), highD = std::floor(opt.to);
    if (lowD < 2 || highD > 1e6)
        throw UsageError(fmt::format(
            "invalid --from={} --to={}: the job counts must lie in 2..1000000", opt.from, opt.to));
    if (highD <= lowD)
        throw UsageError(
            fmt::format("invalid --from={} --to={}: need two different job counts for a series",
                        opt.from, opt.to));
    const auto low = static_cast<std::size_t>(lowD), high = static_cast<std::size_t>(highD);
    const unsigned count = opt.points ? opt.points : 20;
    if (count < 2) throw UsageError("invalid --points: at least 2");

    RigSetup setup(opt);
    (void)setup.graph(low);  // validates the pattern at the smallest size
    const unsigned W = opt.primaryWorkers();
    Progress progress(opt.quiet || opt.json, "param-range");

    // sample points: both ends, the rest drawn (reproducibly) from the seed
    std::mt19937_64 rng(opt.sampleSeed);
    std::vector<std::size_t> points{low, high};
    while (points.size() < count)
        points.push_back(low + rng() % (high - low + 1));

    ReportWriter out(opt, fmt::format("param-range-{}", setup.label()));
    const ComputationalLoad& load = setup.load(&progress);
    out.addConfiguration("calibration", setup.calibrationText());
    out.addConfiguration("sample seed", fmt::format("{}", opt.sampleSeed));
    out.addConfiguration("series",
                         fmt::format("{} points, {}..{} jobs, all due at once", count, low, high));

    RunInstrument instrument(W, high);
    SchedulerConfig cfg;
    cfg.workers = W;
    cfg.observer = &instrument;
    Scheduler sched(cfg);

    struct Row {
        double x, time, conc, jobtime, impeded;
    };
    std::vector<Row> rows;
    bool failedRun = false;
    std::string failure;
    for (std::size_t i = 0; i < points.size(); ++i) {
        const std::size_t n = points[i];
        const TestChainGraph graph = setup.graph(n);
        LevelSchedule schedule(graph, setup.policy());
        schedule.useDefault(Duration{0});  // every level due at once: a load peak
        RunnerConfig rc;
        rc.timeBase = opt.load;
        rc.load = load;
        rc.policy = setup.policy();
        rc.deadlines = false;
        rc.chunkSize = n;  // one planning job posts the whole peak
        ScheduleRunner runner(sched, graph, schedule, rc);
        instrument.reset();
        const testchain::RunResult r = runner.run();
        sched.drainFor(std::chrono::seconds{10});
        if (!r.ok() && !failedRun) {
            failedRun = true;
            failure = fmt::format("{} jobs: {}", n,
                                  !r.error.empty() ? r.error
                                  : !r.hashOk      ? std::string("hash mismatch")
                                                   : std::string("failed/expired/cancelled jobs"));
        }
        const IncidenceStatistic st = instrument.evaluate();
        const double acts = double(std::max<std::size_t>(st.activations, 1));
        rows.push_back({double(n), ms(st.coveredTime), st.avgConcurrency, us(st.activeTime) / acts,
                        us(st.timeAtConc(0) + st.timeAtConc(1)) / acts});
        progress.progress(i + 1, points.size(),
                          fmt::format("{} jobs: {:.3f} ms, concurrency {:.2f}", n, rows.back().time,
                                      rows.back().conc));
        if (r.timedOut) break;
    }
    std::stable_sort(rows.begin(), rows.end(),
                     [](const Row& a, const Row& b) { return a.x < b.x; });

    CsvTable table({"load size", "result time", "concurrency", "avg jobtime", "avg impeded"});
    std::vector<double> xs, ys;
    double concSum = 0;
    for (const Row& r : rows) {
        table.addRow({r.x, r.time, r.conc, r.jobtime, r.impeded});
        xs.push_back(r.x);
        ys.push_back(r.time);
        concSum += r.conc;
    }
    const double meanConc = rows.empty() ? 0 : concSum / double(rows.size());
    std::optional<LinearRegression> model;
    try {
        model.emplace(xs, ys);
    } catch (const std::invalid_argument&) {
    }
    if (model) table.setComment("model", model->format());
    table.setComment("mean concurrency", fmt::format("{:.3f}", meanConc));
    out.writeCsv(table);
    if (model) {
        PlotOptions po;
        po.title = fmt::format("load peak: {} jobs of {}, {} workers", setup.label(),
                               Units::formatDuration(opt.load, true), W);
        po.xLabel = "load size (jobs)";
        po.yLabel = "result time (ms)";
        po.y2Label = "avg jobtime (us)";
        out.writePlot(GnuplotScript::parameterSeries(table, *model, po));
    }
    // isolated unit jobs: ideal gradient = job time / workers
    const double ideal = ms(opt.load) / double(W);

    if (opt.json) {
        nlohmann::json j;
        j["pattern"] = setup.label();
        j["workers"] = W;
        j["load_us"] = us(opt.load);
        j["sample_seed"] = opt.sampleSeed;
        j["gradient"] = model ? model->gradient() : 0.0;
        j["socket"] = model ? model->socket() : 0.0;
        j["correlation"] = model ? model->correlation() : 0.0;
        j["max_delta"] = model ? model->maxDelta() : 0.0;
        j["sigma"] = model ? model->sigma() : 0.0;
        j["mean_concurrency"] = meanConc;
        j["ideal_gradient"] = ideal;
        j["hash_ok"] = !failedRun;
        if (failedRun) j["error"] = failure;
        nlohmann::json pts = nlohmann::json::array();
        for (const Row& r : rows)
            pts.push_back({{"load size", r.x},
                           {"result time", r.time},
                           {"concurrency", r.conc},
                           {"avg jobtime", r.jobtime},
                           {"avg impeded", r.impeded}});
        j["points"] = pts;
        detail::printJsonReport(j, setup, opt, out);
    } else {
        auto& o = std::cout;
        fmt::print(o,
                   "Parameter series: pattern {}, {}..{} jobs of {}, {} workers, {} points "
                   "(sample seed {})\n",
                   setup.label(), low, high, Units::formatDuration(opt.load), W, rows.size(),
                   opt.sampleSeed);
        fmt::print(o, "  {:>10} {:>12} {:>12} {:>12} {:>12}\n", "load size", "result ms",
                   "concurrency", "jobtime us", "impeded us");
        for (const Row& r : rows)
            fmt::print(o, "  {:>10.0f} {:>12.3f} {:>12.3f} {:>12.1f} {:>12.1f}\n", r.x, r.time,
                       r.conc, r.jobtime, r.impeded);
        if (model) fmt::print(o, "{} ∅concurrency: {:.2f}\n", model->format(), meanConc);
        fmt::print(o, "  (ideal gradient for unit jobs: {:.3g} ms per job = load / workers)\n",
                   ideal);
        if (failedRun) fmt::print(o, "  RUN FAILED: {}\n", failure);
        out.printSummary(o);
    }
    return failedRun ? 1 : 0;
}

}  // namespace pullsched::rig
