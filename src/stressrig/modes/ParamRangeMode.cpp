// --mode=param-range: a parameter series of load peaks. For job counts drawn between
// --from and --to, a graph of that size runs with every level due at once; the result
// times are fitted with a line (the Model) and compared with the ideal gradient.
#include <algorithm>
#include <cmath>
#include <optional>
#include <random>
#include <stdexcept>

#include <fmt/format.h>

#include "analysis/LinearRegression.hpp"
#include "analysis/SampleStatistics.hpp"
#include "analysis/SeriesModel.hpp"
#include "backends/BackendComparison.hpp"
#include "cli/BackendOptions.hpp"
#include "cli/ExecutionOptions.hpp"
#include "cli/GraphOptions.hpp"
#include "cli/MemoryRefusal.hpp"
#include "cli/PlacementOption.hpp"
#include "cli/UsageError.hpp"
#include "format/SignificantDigits.hpp"
#include "format/Units.hpp"
#include "load/JobBody.hpp"
#include "load/MemoryEstimate.hpp"
#include "load/Progress.hpp"
#include "load/ScheduledGraphRun.hpp"
#include "load/SchedulerFactory.hpp"
#include "load/StopRequest.hpp"
#include "measure/RunInstrument.hpp"
#include "modes/Mode.hpp"
#include "pullsched/testchain/GraphStatistics.hpp"
#include "pullsched/testchain/LevelSchedule.hpp"
#include "report/MissingValues.hpp"

namespace pullsched::rig {

using namespace pullsched::testchain;

namespace {

/// A duration given in `unitNs` nanoseconds as text; "n/a" when missing.
std::string dur(double v, double unitNs) {
    return textOr(v, [&](double x) {
        return Units::formatDuration(
            Duration{static_cast<Duration::rep>(std::llround(x * unitNs))});
    });
}

/// Largest instrument buffer a series may allocate.
constexpr double kInstrumentLimitMiB = 1024;

/// One measured point of the series; NaN figures: the run was incomplete.
struct Point {
    std::size_t jobs = 0;
    std::uint64_t graphHash = 0;
    double timeMs = kMissing, concurrency = kMissing, jobtimeUs = kMissing, impededUs = kMissing;
    std::string missingWhy;  ///< why the figures are missing
};

class ParamRangeMode final : public Mode {
  public:
    std::string_view name() const override { return "param-range"; }
    std::string_view summary() const override {
        return "load peaks of growing size: result time over job count, fitted with a line";
    }
    void declare(OptionTable& t) override {
        graph_.declare(t, false);  // the series chooses the sizes
        exec_.declare(t, "time per unit weight of a job");
        placement_.declare(t);
        t.group("Parameter series");
        t.size("from", from_, 2, 1'000'000, "smallest load peak in jobs (graph nodes)");
        t.size("to", to_, 2, 1'000'000, "largest load peak in jobs");
        t.count("points", points_, 2, 100'000,
                "measured points: both ends, the rest drawn between them");
        t.u64("sample-seed", sampleSeed_, "seed of the drawn points");
        backends_.declare(t);
    }
    void validate(const OptionTable&) override {
        graph_.validate();
        if (to_ <= from_)
            throw UsageError(fmt::format(
                "invalid --from={} --to={}: need a larger --to for a series", from_, to_));
        refuseIfTooLarge({to_, kPeakBytesPerNode}, fmt::format("--to={}", to_));
        // The instrument keeps room for every job on every worker (RunInstrument).
        const double mib = double(exec_.workers) * double(2 * to_ + 16) *
                           double(sizeof(IncidenceCount::Event)) / (1024.0 * 1024.0);
        if (mib > kInstrumentLimitMiB)
            throw UsageError(fmt::format(
                "--to={} with --workers={} needs {:.0f} MiB of instrument buffers (limit {:.0f} "
                "MiB): lower --to or --workers",
                to_, exec_.workers, mib, kInstrumentLimitMiB));
    }

    ModeResult run(RunContext& ctx) override {
        ctx.progress.note(memoryNote({to_, kPeakBytesPerNode}, availableMemory()));
        (void)graph_.graph(from_,
                           ctx.stop.predicate());  // a bad pattern fails before anything runs
        const WeightPolicy policy = graph_.rulesFor().schedulingWeightPolicy();
        const unsigned W = exec_.workers;
        const unsigned P = exec_.machineParallelism();

        // both ends, the rest drawn (reproducibly) from the seed
        std::mt19937_64 rng(sampleSeed_);
        std::vector<std::size_t> sizes{from_, to_};
        while (sizes.size() < points_)
            sizes.push_back(from_ + rng() % (to_ - from_ + 1));

        if (backends_.comparing()) return runBackends(ctx, sizes, policy, P);

        ModeResult r;
        r.name = fmt::format("param-range-{}", graph_.label());
        const JobBody body(exec_.loadKind, &ctx.progress);
        r.calibration = body.json();
        RunInstrument instrument(W, to_);
        Scheduler scheduler(schedulerConfig(W, placement_.placement(), &instrument, to_ + 64));

        std::vector<Point> points;
        std::string stoppedLate;
        for (std::size_t i = 0; i < sizes.size(); ++i) {
            const std::size_t n = sizes[i];
            const std::optional<TestChainGraph> generated = pointGraph(n, ctx.stop, r);
            if (!generated) break;
            const TestChainGraph& graph = *generated;
            LevelSchedule schedule(graph, policy);
            schedule.useDefault(Duration{0});  // every level due at once: a load peak
            RunnerConfig rc;
            rc.timeBase = exec_.load;
            rc.load = body.load();
            rc.policy = policy;
            rc.deadlines = false;
            rc.chunkSize = n;  // one planning job posts the whole peak
            rc.parallelism = P;
            instrument.reset();
            const CompletionLimit limit = completionLimit(
                rc, schedule.expectedEnd(), GraphStatistics(graph, policy).work(exec_.load));
            const ScheduledGraphRuns runs =
                runScheduledGraph(scheduler, graph, schedule, rc, 1, ctx.stop, limit);
            if (runs.runs.empty() || runs.interrupted) {
                r.partial = true;
                break;
            }
            scheduler.drainFor(std::chrono::seconds{10});  // every observer bracket closed
            const RunResult& run = runs.runs.front();
            Point p;
            p.jobs = n;
            p.graphHash = graph.graphHash();
            const IncidenceStatistic st = instrument.evaluate();
            if (!runs.failure.empty()) {
                r.systemFailure = true;
                r.failures.push_back(fmt::format("{} jobs: {}", n, runs.failure));
                p.missingWhy = runs.failure;
            } else if (!runs.late.empty()) {
                p.missingWhy = runs.late;
            } else if (!runComplete(run)) {
                p.missingWhy = fmt::format("hash not checked: {} jobs expired, {} cancelled",
                                           run.expired, run.cancelled);
            } else if (!st.complete()) {
                p.missingWhy = fmt::format("{} instrument events lost", st.droppedEvents);
            } else if (st.activations == 0) {
                p.missingWhy = "no job was seen running";
            } else {
                const double acts = double(st.activations);
                p.timeMs = toMs(st.coveredTime);
                p.concurrency = st.avgConcurrency;
                p.jobtimeUs = toUs(st.activeTime) / acts;
                p.impededUs = toUs(st.impededTime) / acts;
            }
            points.push_back(p);
            ctx.progress.progress(i + 1, sizes.size(),
                                  fmt::format("{} jobs: {}, concurrency {}", n, dur(p.timeMs, 1e6),
                                              textOr(p.concurrency, [](double c) {
                                                  return fmt::format("{:.2f}", c);
                                              })));
            if (r.systemFailure) break;
            if (runs.schedulerShutDown) {  // after a timeout: no further point on it
                stoppedLate =
                    fmt::format("series stopped after the {} jobs point, which {}", n, runs.late);
                break;
            }
        }
        std::stable_sort(points.begin(), points.end(),
                         [](const Point& a, const Point& b) { return a.jobs < b.jobs; });

        // ---- model over the complete points
        CsvTable table({"load size", "result time", "concurrency", "avg jobtime", "avg impeded"});
        std::vector<SeriesPoint> series;
        for (const Point& p : points) {
            table.addRow({double(p.jobs), p.timeMs, p.concurrency, p.jobtimeUs, p.impededUs});
            series.push_back({double(p.jobs), p.timeMs, p.concurrency});
        }
        const SeriesModel fitted = SeriesModel::fit(series);
        const std::optional<LinearRegression>& model = fitted.line;
        const std::string noModel = "n/a (" + fitted.why + ")";
        const double meanConc = fitted.meanConcurrency;
        const std::size_t missing = fitted.missing;
        // Ideal: the mean work per job spread over the parallelism the machine gives.
        const double idealMsPerJob = idealMsPerJobOf(policy, P, ctx.stop);

        if (missing)
            r.warnings.push_back(fmt::format(
                "{} of {} points incomplete: excluded from the model and the mean concurrency",
                missing, points.size()));
        for (const Point& p : points)
            if (!p.missingWhy.empty())
                r.warnings.push_back(fmt::format("{} jobs: {}", p.jobs, p.missingWhy));

        table.setComment("units",
                         "load size: jobs (graph nodes); result time: ms; concurrency: workers "
                         "busy on average; avg jobtime: us per job; avg impeded: us per job with "
                         "fewer than two workers busy");
        table.setComment("sample seed", fmt::format("{}", sampleSeed_));
        table.setComment(
            "series", fmt::format("{} points, {}..{} jobs, all due at once", points_, from_, to_));
        table.setComment("model", model ? model->format() : noModel);
        table.setComment("mean concurrency",
                         textOr(meanConc, [](double c) { return fmt::format("{:.3f}", c); }));
        table.setComment("ideal gradient", fmt::format("{:.6g} ms per job", idealMsPerJob));
        if (missing)
            table.setComment("incomplete points", fmt::format("{} (empty cells)", missing));
        r.tables.push_back({"", table});
        if (model) {
            PlotOptions po;
            po.title = fmt::format("load peak: {} jobs of {}, {} workers", graph_.label(),
                                   Units::formatDuration(exec_.load, true), W);
            po.xLabel = "load size (jobs)";
            po.yLabel = "result time (ms)";
            po.y2Label = "avg jobtime (us)";
            r.plots.push_back(
                {"", GnuplotScript::parameterSeries(
                         table, *model, po, {},
                         std::isnan(idealMsPerJob) ? std::optional<double>{} : idealMsPerJob)});
        }

        // ---- text
        r.text.push_back(fmt::format(
            "Parameter series: pattern {}, {}..{} jobs of {}, {} workers, {} of {} points "
            "(sample seed {}), every job due at once",
            graph_.label(), from_, to_, Units::formatDuration(exec_.load), W, points.size(),
            points_, sampleSeed_));
        r.text.push_back(fmt::format("  {:>10} {:>12} {:>12} {:>12} {:>12}", "load size",
                                     "result time", "concurrency", "avg jobtime", "avg impeded"));
        for (const Point& p : points)
            r.text.push_back(fmt::format(
                "  {:>10} {:>12} {:>12} {:>12} {:>12}", p.jobs, dur(p.timeMs, 1e6),
                textOr(p.concurrency, [](double c) { return fmt::format("{:.3f}", c); }),
                dur(p.jobtimeUs, 1e3), dur(p.impededUs, 1e3)));
        const std::string concText =
            textOr(meanConc, [](double c) { return fmt::format("{:.2f}", c); });
        if (model)
            r.text.push_back(fmt::format("{} ∅concurrency: {}", model->format(), concText));
        else
            r.text.push_back(fmt::format("Model: {} ∅concurrency: {}", noModel, concText));
        r.text.push_back(fmt::format(
            "  (p in jobs, result time in ms; ideal gradient {} per job = mean work per job / "
            "{} workers the machine gives{})",
            dur(idealMsPerJob, 1e6), P,
            model ? fmt::format(", measured {} per job", dur(model->gradient(), 1e6)) : ""));
        if (r.partial)
            r.text.push_back(fmt::format("  stopped on request after {} points", points.size()));
        if (!stoppedLate.empty()) r.text.push_back("  " + stoppedLate);
        if (r.systemFailure)
            r.verdict = "scheduler FAILED: " + r.failures.front();
        else if (model)
            r.verdict =
                fmt::format("{} per job (ideal {}), offset {}, corr {}",
                            dur(model->gradient(), 1e6), dur(idealMsPerJob, 1e6),
                            dur(model->socket(), 1e6), formatSignificant(model->correlation(), 3));
        else
            r.verdict = "no model: " + noModel;
        if (!stoppedLate.empty() && !r.systemFailure) r.verdict += "; " + stoppedLate;
        if (r.partial && !r.systemFailure) r.verdict += " (partial: stopped on request)";

        // ---- JSON
        nlohmann::json& j = r.result;
        j["pattern"] = graph_.label();
        j["workers"] = W;
        j["parallelism"] = P;
        j["load_us"] = toUs(exec_.load);
        j["sample_seed"] = sampleSeed_;
        j["points_planned"] = points_;
        j["points_measured"] = points.size();
        j["points_incomplete"] = missing;
        const double nan = kMissing;
        j["gradient_ms_per_job"] = jsonNumber(model ? model->gradient() : nan);
        j["socket_ms"] = jsonNumber(model ? model->socket() : nan);
        j["correlation"] = jsonNumber(model ? model->correlation() : nan);
        j["max_delta_ms"] = jsonNumber(model ? model->maxDelta() : nan);
        j["sigma_ms"] = jsonNumber(model ? model->sigma() : nan);
        j["model"] = model ? nlohmann::json(model->format()) : nlohmann::json(nullptr);
        j["mean_concurrency"] = jsonNumber(meanConc);
        j["ideal_gradient_ms_per_job"] = jsonNumber(idealMsPerJob);
        nlohmann::json list = nlohmann::json::array();
        for (const Point& p : points)
            list.push_back({{"load_size_jobs", p.jobs},
                            {"graph_hash", fmt::format("0x{:016X}", p.graphHash)},
                            {"result_time_ms", jsonNumber(p.timeMs)},
                            {"concurrency", jsonNumber(p.concurrency)},
                            {"avg_jobtime_us", jsonNumber(p.jobtimeUs)},
                            {"avg_impeded_us", jsonNumber(p.impededUs)}});
        j["points"] = list;
        return r;
    }

  private:
    /// The graph of the next point; nullopt, and the result partial, on a stop request
    /// (polled while it is generated, from its start).
    std::optional<TestChainGraph> pointGraph(std::size_t n, const StopRequest& stop,
                                             ModeResult& r) const {
        std::optional<TestChainGraph> g = graph_.graphUnlessStopped(n, stop.predicate());
        if (!g) r.partial = true;
        return g;
    }

    /// The mean work per job of the largest graph spread over the parallelism the machine
    /// gives; missing when a stop request ends its generation.
    double idealMsPerJobOf(WeightPolicy policy, unsigned P, const StopRequest& stop) const {
        const std::optional<TestChainGraph> largest =
            graph_.graphUnlessStopped(to_, stop.predicate());
        if (!largest) return kMissing;
        return toMs(GraphStatistics(*largest, policy).work(exec_.load)) / double(to_) / double(P);
    }

    /// --backends other than pullsched alone: each point runs on every backend; the figures
    /// come from the jobs' own start and end times (the same way for every backend).
    ModeResult runBackends(RunContext& ctx, const std::vector<std::size_t>& sizes,
                           WeightPolicy policy, unsigned P);

    GraphOptions graph_;
    ExecutionOptions exec_;
    PlacementOption placement_;
    BackendOptions backends_;
    std::size_t from_ = 10, to_ = 100;
    unsigned points_ = 20;
    std::uint64_t sampleSeed_ = 42;
};

/// Result time (first job start to last job end), concurrency (busy time / result time)
/// and mean job time of one run, from the jobs' own times.
Point pointOf(const BackendRun& run, std::size_t jobs) {
    Point p;
    p.jobs = jobs;
    p.graphHash = run.result.actualHash;
    Duration first = Duration::max(), last = Duration::min(), busy{0};
    std::size_t ran = 0;
    for (const JobTiming& j : run.result.jobs) {
        if (!j.ran()) continue;
        first = std::min(first, j.actualStart);
        last = std::max(last, j.end);
        busy += j.runTime();
        ++ran;
    }
    if (ran == 0 || last <= first) {
        p.missingWhy = "no job was seen running";
        return p;
    }
    p.timeMs = toMs(last - first);
    p.concurrency = toMs(busy) / p.timeMs;
    p.jobtimeUs = toUs(busy) / double(ran);
    return p;
}

ModeResult ParamRangeMode::runBackends(RunContext& ctx, const std::vector<std::size_t>& sizes,
                                       WeightPolicy policy, unsigned P) {
    const std::vector<std::string> names = backends_.names();
    const unsigned W = exec_.workers;
    ModeResult r;
    r.name = fmt::format("param-range-{}", graph_.label());
    const JobBody body(exec_.loadKind, &ctx.progress);
    r.calibration = body.json();
    BackendSetup setup;
    setup.placement = placement_.placement();
    setup.workers = W;
    setup.timeBase = exec_.load;
    setup.load = body.load();
    setup.policy = policy;
    setup.parallelism = P;  // no schedule: every job due at once, a load peak

    std::vector<std::vector<Point>> points(names.size());  // [backend][point]
    std::vector<std::string> startTimes(names.size());
    for (std::size_t i = 0; i < sizes.size() && !r.systemFailure; ++i) {
        const std::size_t n = sizes[i];
        const std::optional<TestChainGraph> generated = pointGraph(n, ctx.stop, r);
        if (!generated) break;
        const TestChainGraph& graph = *generated;
        setup.completionLimit = completionLimit(RunnerConfig{}, Duration{0},
                                                GraphStatistics(graph, policy).work(exec_.load))
                                    .total();
        const std::vector<BackendSeries> series =
            compareBackends(names, graph, setup, 1, backends_.warmup, ctx.stop);
        for (std::size_t b = 0; b < series.size(); ++b) {
            const BackendSeries& s = series[b];
            startTimes[b] = std::string(toString(s.startTimes));
            if (s.runs.empty()) {  // stopped before it ran: the point stays, empty
                r.partial = true;
                Point p;
                p.jobs = n;
                p.missingWhy = "interrupted";
                points[b].push_back(p);
                continue;
            }
            Point p = pointOf(s.runs.front(), n);
            if (!s.failure.empty()) {
                r.systemFailure = true;
                r.failures.push_back(fmt::format("{}, {} jobs: {}", s.name, n, s.failure));
                p = Point{};
                p.jobs = n;
                p.missingWhy = s.failure;
            }
            points[b].push_back(p);
        }
        ctx.progress.progress(i + 1, sizes.size(), fmt::format("{} jobs", n));
    }

    const double idealMsPerJob = idealMsPerJobOf(policy, P, ctx.stop);

    // One column group per backend, one row per load size (points in drawing order).
    CsvTable table;
    table.addColumn("load size");
    for (const std::string& n : names)
        for (const char* c : {"result time", "concurrency", "avg jobtime", "model"})
            table.addColumn(fmt::format("{} {}", n, c));
    std::vector<SeriesModel> models;
    nlohmann::json backendsJsonObj = nlohmann::json::object();
    for (std::size_t b = 0; b < names.size(); ++b) {
        std::vector<SeriesPoint> sp;
        for (const Point& p : points[b])
            sp.push_back({double(p.jobs), p.timeMs, p.concurrency});
        models.push_back(SeriesModel::fit(sp));
        const std::optional<LinearRegression>& m = models.back().line;
        nlohmann::json list = nlohmann::json::array();
        for (const Point& p : points[b])
            list.push_back({{"load_size_jobs", p.jobs},
                            {"result_time_ms", jsonNumber(p.timeMs)},
                            {"concurrency", jsonNumber(p.concurrency)},
                            {"avg_jobtime_us", jsonNumber(p.jobtimeUs)}});
        backendsJsonObj[names[b]] = {
            {"start_times", startTimes[b]},
            {"gradient_ms_per_job", jsonNumber(m ? m->gradient() : kMissing)},
            {"socket_ms", jsonNumber(m ? m->socket() : kMissing)},
            {"correlation", jsonNumber(m ? m->correlation() : kMissing)},
            {"model", m ? nlohmann::json(m->format()) : nlohmann::json(nullptr)},
            {"mean_concurrency", jsonNumber(models.back().meanConcurrency)},
            {"points_incomplete", models.back().missing},
            {"points", list}};
    }
    const std::size_t rows = points.empty() ? 0 : points.front().size();
    std::vector<std::size_t> order(rows);
    for (std::size_t k = 0; k < rows; ++k)
        order[k] = k;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return points.front()[a].jobs < points.front()[b].jobs;
    });
    for (std::size_t k : order) {
        std::vector<CsvTable::Cell> row{double(points.front()[k].jobs)};
        for (std::size_t b = 0; b < names.size(); ++b) {
            const bool has = k < points[b].size();
            const Point p = has ? points[b][k] : Point{};
            const std::optional<LinearRegression>& m = models[b].line;
            row.push_back(p.timeMs);
            row.push_back(p.concurrency);
            row.push_back(p.jobtimeUs);
            row.push_back(m ? m->socket() + m->gradient() * double(points.front()[k].jobs)
                            : kMissing);
        }
        table.addRow(std::move(row));
    }
    table.setComment("units",
                     "load size: jobs; result time: ms (first job start to last job end); "
                     "concurrency: busy time / result time; avg jobtime: us; model: the fitted "
                     "line in ms");
    table.setComment("ideal gradient", fmt::format("{:.6g} ms per job", idealMsPerJob));
    std::vector<std::string> yColumns;
    for (const std::string& n : names) {
        yColumns.push_back(n + " result time");
        yColumns.push_back(n + " model");
    }
    PlotOptions po;
    po.title = fmt::format(
        "load peak: {} jobs of {}, {} workers, per backend (points: measured, "
        "lines: fitted)",
        graph_.label(), Units::formatDuration(exec_.load, true), W);
    po.xLabel = "load size (jobs)";
    po.yLabel = "result time (ms)";
    po.style = "linespoints";
    r.plots.push_back({"", GnuplotScript::tablePlot(table, "load size", yColumns, {}, po)});
    r.tables.push_back({"", std::move(table)});

    r.text.push_back(fmt::format(
        "Parameter series: pattern {}, {}..{} jobs of {}, {} workers, {} points, every job due "
        "at once; ideal gradient {} per job",
        graph_.label(), from_, to_, Units::formatDuration(exec_.load), W, rows,
        dur(idealMsPerJob, 1e6)));
    for (std::size_t b = 0; b < names.size(); ++b) {
        const std::optional<LinearRegression>& m = models[b].line;
        r.text.push_back(fmt::format(
            "  {:<10} {} ∅concurrency: {}", names[b],
            m ? m->format() : "Model: n/a (" + models[b].why + ")",
            textOr(models[b].meanConcurrency, [](double c) { return fmt::format("{:.2f}", c); })));
    }
    if (r.systemFailure)
        r.verdict = "FAILED: " + r.failures.front();
    else
        r.verdict = fmt::format(
            "{} backends measured on {} points; every run hash ok and exactly "
            "once",
            names.size(), rows);

    nlohmann::json& j = r.result;
    j["pattern"] = graph_.label();
    j["workers"] = W;
    j["parallelism"] = P;
    j["load_us"] = toUs(exec_.load);
    j["sample_seed"] = sampleSeed_;
    j["points_planned"] = points_;
    j["points_measured"] = rows;
    j["ideal_gradient_ms_per_job"] = jsonNumber(idealMsPerJob);
    j["backends"] = backendsJsonObj;
    return r;
}

}  // namespace

std::unique_ptr<Mode> makeParamRangeMode() {
    return std::make_unique<ParamRangeMode>();
}

}  // namespace pullsched::rig
