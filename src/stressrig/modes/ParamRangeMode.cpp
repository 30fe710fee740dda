// --mode=param-range: a parameter series of load peaks. For job counts drawn between
// --from and --to, a graph of that size runs with every level due at once on each backend
// of --backends (pullsched alone by default); the result times are fitted with a line (the
// Model) and compared with the ideal gradient. Measure (each point judged at once: a
// failure ends the series), then present one backend in detail or several side by side.
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
#include "backends/BackendRegistry.hpp"
#include "backends/BackendSetup.hpp"
#include "cli/BackendOptions.hpp"
#include "cli/ExecutionOptions.hpp"
#include "cli/GraphOptions.hpp"
#include "cli/MemoryRefusal.hpp"
#include "cli/PlacementOption.hpp"
#include "cli/UsageError.hpp"
#include "format/SignificantDigits.hpp"
#include "format/Units.hpp"
#include "load/CompletionLimit.hpp"
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
#include "report/LoadPeakPoint.hpp"
#include "report/MissingValues.hpp"
#include "report/TextFormat.hpp"

namespace pullsched::rig {

using namespace pullsched::testchain;

namespace {

/// Largest instrument buffer a series may allocate.
constexpr double kInstrumentLimitMiB = 1024;

class ParamRangeMode final : public Mode {
  public:
    std::string_view name() const override { return "param-range"; }
    std::vector<FigureSource> figures() const override { return {{"gradient"}, {"correlation"}}; }
    std::vector<std::string> selectorLabels() const override { return backends_.names(); }
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
    void validate(const OptionTable& t) override {
        graph_.validate(t);
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

    ModeResult run(RunContext& ctx) override;

  private:
    /// What every step reads.
    struct Plan {
        WeightPolicy policy;
        unsigned parallelism;
        std::vector<std::size_t> sizes;  ///< in drawing order
        const JobBody& body;
    };
    /// One backend's points, in drawing order (the measure step's output).
    struct BackendPoints {
        std::string name;
        std::string startTimes;
        std::vector<LoadPeakPoint> points;
    };
    struct Measurement {
        std::vector<BackendPoints> backends;
        std::string stoppedLate;  ///< the series ended after a run past its limit
    };

    std::vector<std::size_t> drawSizes() const;
    BackendSetup pointSetup(const TestChainGraph& graph, const Plan& p,
                            CompletionLimit& limit) const;
    // measure (each point judged at once: a failure ends the series)
    Measurement measure(RunContext& ctx, ModeResult& r, const Plan& p) const;
    void measurePoint(RunContext& ctx, ModeResult& r, const Plan& p, const TestChainGraph& graph,
                      Measurement& m, RunInstrument* instrument) const;
    // present: one backend in detail, several side by side
    void presentDetail(RunContext& ctx, ModeResult& r, const Plan& p, const Measurement& m) const;
    void detailText(ModeResult& r, const Plan& p, const std::vector<LoadPeakPoint>& points,
                    const SeriesModel& fitted, double idealMsPerJob,
                    const std::string& stoppedLate) const;
    void detailJson(ModeResult& r, const Plan& p, const std::vector<LoadPeakPoint>& points,
                    const SeriesModel& fitted, double idealMsPerJob) const;
    CsvTable detailTable(const std::vector<LoadPeakPoint>& points, const SeriesModel& fitted,
                         double idealMsPerJob) const;
    /// Keys every result has, one backend or several.
    void seriesJson(ModeResult& r, const Plan& p, std::size_t measured,
                    double idealMsPerJob) const {
        nlohmann::json& j = r.result;
        j["pattern"] = graph_.label();
        j["workers"] = exec_.workers;
        j["parallelism"] = p.parallelism;
        j["load_us"] = toUs(exec_.load);
        j["sample_seed"] = sampleSeed_;
        j["points_planned"] = points_;
        j["points_measured"] = measured;
        j["ideal_gradient_ms_per_job"] = jsonNumber(idealMsPerJob);
    }
    void presentComparison(RunContext& ctx, ModeResult& r, const Plan& p,
                           const Measurement& m) const;
    CsvTable comparisonTable(const Measurement& m, const std::vector<SeriesModel>& models,
                             double idealMsPerJob) const;
    nlohmann::json comparisonBackendsJson(const Measurement& m,
                                          const std::vector<SeriesModel>& models) const;

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

    GraphOptions graph_;
    ExecutionOptions exec_;
    PlacementOption placement_;
    BackendOptions backends_;
    std::size_t from_ = 10, to_ = 100;
    unsigned points_ = 20;
    std::uint64_t sampleSeed_ = 42;
};

// ---- measure

std::vector<std::size_t> ParamRangeMode::drawSizes() const {
    // both ends, the rest drawn (reproducibly) from the seed
    std::mt19937_64 rng(sampleSeed_);
    std::vector<std::size_t> sizes{from_, to_};
    while (sizes.size() < points_)
        sizes.push_back(from_ + rng() % (to_ - from_ + 1));
    return sizes;
}

ModeResult ParamRangeMode::run(RunContext& ctx) {
    ctx.progress.note(memoryNote({to_, kPeakBytesPerNode}, availableMemory()));
    (void)graph_.graph(from_, ctx.stop.predicate());  // a bad pattern fails before anything runs
    ModeResult r;
    r.name = fmt::format("param-range-{}", graph_.label());
    const std::vector<std::size_t> sizes = drawSizes();
    const JobBody body(exec_.loadKind, &ctx.progress);
    r.calibration = body.json();
    const Plan p{graph_.rulesFor().schedulingWeightPolicy(), exec_.machineParallelism(), sizes,
                 body};
    const Measurement m = measure(ctx, r, p);
    if (backends_.comparing())
        presentComparison(ctx, r, p, m);
    else
        presentDetail(ctx, r, p, m);
    return r;
}

/// Every job due at once, a load peak. Alone, pullsched runs it on its schedule (every
/// level due at 0, one planning job posting the whole peak) and is observed; compared,
/// every backend runs it as fast as possible, its graph built untimed.
BackendSetup ParamRangeMode::pointSetup(const TestChainGraph& graph, const Plan& p,
                                        CompletionLimit& limit) const {
    BackendSetup setup = backendSetup(exec_.workers, placement_.placement(), exec_.load,
                                      p.body.load(), p.policy, p.parallelism);
    const Duration work = GraphStatistics(graph, p.policy).work(exec_.load);
    if (backends_.comparing()) {
        limit = completionLimit(RunnerConfig{}, Duration{0}, work);
    } else {
        LevelSchedule schedule(graph, p.policy);
        schedule.useDefault(Duration{0});
        RunnerConfig rc;
        rc.chunkSize = graph.size();
        limit = completionLimit(rc, schedule.expectedEnd(), work);
        setup.schedule = std::move(schedule);
        setup.planningChunk = graph.size();
    }
    setup.completionLimit = limit.total();
    return setup;
}

ParamRangeMode::Measurement ParamRangeMode::measure(RunContext& ctx, ModeResult& r,
                                                    const Plan& p) const {
    Measurement m;
    for (const std::string& name : backends_.names())
        m.backends.push_back({name, "", {}});
    std::optional<RunInstrument> instrument;
    if (!backends_.comparing() && BackendRegistry::find(m.backends.front().name).instrumented)
        instrument.emplace(exec_.workers, to_);
    for (std::size_t i = 0; i < p.sizes.size(); ++i) {
        const std::optional<TestChainGraph> graph = pointGraph(p.sizes[i], ctx.stop, r);
        if (!graph) break;
        const std::size_t before = m.backends.front().points.size();
        measurePoint(ctx, r, p, *graph, m, instrument ? &*instrument : nullptr);
        if (m.backends.front().points.size() == before) break;  // stopped: nothing kept
        const LoadPeakPoint& last = m.backends.front().points.back();
        ctx.progress.progress(
            i + 1, p.sizes.size(),
            backends_.comparing()
                ? fmt::format("{} jobs", last.jobs)
                : fmt::format(
                      "{} jobs: {}, concurrency {}", last.jobs, msText(last.timeMs),
                      textOr(last.concurrency, [](double c) { return fmt::format("{:.2f}", c); })));
        if (r.systemFailure || !m.stoppedLate.empty()) break;
    }
    return m;
}

/// The point on each backend. Alone, a point a stop cut short is not kept; compared, it
/// stays, empty.
void ParamRangeMode::measurePoint(RunContext& ctx, ModeResult& r, const Plan& p,
                                  const TestChainGraph& graph, Measurement& m,
                                  RunInstrument* instrument) const {
    const std::size_t n = graph.size();
    const bool detail = !backends_.comparing();
    CompletionLimit limit;
    BackendSetup setup = pointSetup(graph, p, limit);
    setup.observer = instrument;
    IncidenceStatistic stat;
    SeriesPlan plan;
    plan.warmup = detail ? 0 : backends_.warmup;
    if (detail) plan.judge = [](const BackendRun& run) { return correctnessFailure(run.result); };
    plan.afterRun = [&](const BackendRun&) {
        if (!instrument) return;
        stat = instrument->evaluate();
        instrument->reset();
    };
    for (BackendPoints& b : m.backends) {
        const BackendSeries s = measureSeries(b.name, graph, setup, plan, ctx.stop);
        b.startTimes = std::string(graphStartTimesName(s.startTimes));
        if (s.runs.empty()) {  // stopped before it ran
            r.partial = true;
            if (!detail) b.points.push_back(LoadPeakPoint{.jobs = n, .missingWhy = "interrupted"});
            continue;
        }
        const BackendRun& run = s.runs.front();
        std::string failure = s.failure;
        std::string late;
        if (detail && run.result.timedOut) {
            const RunFinding f = lateRunFinding(run.result, limit, run.pendingAfterCancel);
            failure = f.failure;
            late = f.late;
            if (failure.empty())  // after a timeout: no further point on it
                m.stoppedLate =
                    fmt::format("series stopped after the {} jobs point, which {}", n, late);
        }
        if (!failure.empty()) {
            r.systemFailure = true;
            r.failures.push_back(detail ? fmt::format("{} jobs: {}", n, failure)
                                        : fmt::format("{}, {} jobs: {}", b.name, n, failure));
        }
        b.points.push_back(
            detail            ? observedPoint(run.result, stat, n, graph.graphHash(), failure, late)
            : failure.empty() ? pointOf(run, n)
                              : LoadPeakPoint{.jobs = n, .missingWhy = failure});
    }
}

// ---- present: one backend in detail

void ParamRangeMode::presentDetail(RunContext& ctx, ModeResult& r, const Plan& p,
                                   const Measurement& m) const {
    std::vector<LoadPeakPoint> points = m.backends.front().points;
    std::stable_sort(
        points.begin(), points.end(),
        [](const LoadPeakPoint& a, const LoadPeakPoint& b) { return a.jobs < b.jobs; });
    const SeriesModel fitted = fitPoints(points);
    // Ideal: the mean work per job spread over the parallelism the machine gives.
    const double idealMsPerJob = idealMsPerJobOf(p.policy, p.parallelism, ctx.stop);
    if (fitted.missing)
        r.warnings.push_back(fmt::format(
            "{} of {} points incomplete: excluded from the model and the mean concurrency",
            fitted.missing, points.size()));
    for (const LoadPeakPoint& pt : points)
        if (!pt.missingWhy.empty())
            r.warnings.push_back(fmt::format("{} jobs: {}", pt.jobs, pt.missingWhy));
    CsvTable table = detailTable(points, fitted, idealMsPerJob);
    if (fitted.line) {
        PlotOptions po;
        po.title = fmt::format("load peak: {} jobs of {}, {} workers", graph_.label(),
                               Units::formatDuration(exec_.load, true), exec_.workers);
        po.xLabel = "load size (jobs)";
        po.yLabel = "result time (ms)";
        po.y2Label = "avg jobtime (us)";
        r.plots.push_back(
            {"", GnuplotScript::parameterSeries(
                     table, *fitted.line, po, {},
                     std::isnan(idealMsPerJob) ? std::optional<double>{} : idealMsPerJob)});
    }
    r.tables.push_back({"", std::move(table)});
    detailText(r, p, points, fitted, idealMsPerJob, m.stoppedLate);
    detailJson(r, p, points, fitted, idealMsPerJob);
}

CsvTable ParamRangeMode::detailTable(const std::vector<LoadPeakPoint>& points,
                                     const SeriesModel& fitted, double idealMsPerJob) const {
    CsvTable table({"load size", "result time", "concurrency", "avg jobtime", "avg impeded"});
    for (const LoadPeakPoint& p : points)
        table.addRow({double(p.jobs), p.timeMs, p.concurrency, p.jobtimeUs, p.impededUs});
    table.setComment("units",
                     "load size: jobs (graph nodes); result time: ms; concurrency: workers "
                     "busy on average; avg jobtime: us per job; avg impeded: us per job with "
                     "fewer than two workers busy");
    table.setComment("sample seed", fmt::format("{}", sampleSeed_));
    table.setComment("series",
                     fmt::format("{} points, {}..{} jobs, all due at once", points_, from_, to_));
    table.setComment("model", fitted.line ? fitted.line->format() : "n/a (" + fitted.why + ")");
    table.setComment("mean concurrency", textOr(fitted.meanConcurrency,
                                                [](double c) { return fmt::format("{:.3f}", c); }));
    table.setComment("ideal gradient", fmt::format("{:.6g} ms per job", idealMsPerJob));
    if (fitted.missing)
        table.setComment("incomplete points", fmt::format("{} (empty cells)", fitted.missing));
    return table;
}

void ParamRangeMode::detailText(ModeResult& r, const Plan& p,
                                const std::vector<LoadPeakPoint>& points, const SeriesModel& fitted,
                                double idealMsPerJob, const std::string& stoppedLate) const {
    const std::optional<LinearRegression>& model = fitted.line;
    const std::string noModel = "n/a (" + fitted.why + ")";
    r.text.push_back(
        fmt::format("Parameter series: pattern {}, {}..{} jobs of {}, {} workers, {} of {} points "
                    "(sample seed {}), every job due at once",
                    graph_.label(), from_, to_, durationText(exec_.load), exec_.workers,
                    points.size(), points_, sampleSeed_));
    r.text.push_back(fmt::format("  {:>10} {:>12} {:>12} {:>12} {:>12}", "load size", "result time",
                                 "concurrency", "avg jobtime", "avg impeded"));
    for (const LoadPeakPoint& pt : points)
        r.text.push_back(
            fmt::format("  {:>10} {:>12} {:>12} {:>12} {:>12}", pt.jobs, msText(pt.timeMs),
                        textOr(pt.concurrency, [](double c) { return fmt::format("{:.3f}", c); }),
                        usText(pt.jobtimeUs), usText(pt.impededUs)));
    const std::string concText =
        textOr(fitted.meanConcurrency, [](double c) { return fmt::format("{:.2f}", c); });
    if (model)
        r.text.push_back(fmt::format("{} ∅concurrency: {}", model->format(), concText));
    else
        r.text.push_back(fmt::format("Model: {} ∅concurrency: {}", noModel, concText));
    r.text.push_back(fmt::format(
        "  (p in jobs, result time in ms; ideal gradient {} per job = mean work per job / "
        "{} workers the machine gives{})",
        msText(idealMsPerJob), p.parallelism,
        model ? fmt::format(", measured {} per job", msText(model->gradient())) : ""));
    if (r.partial)
        r.text.push_back(fmt::format("  stopped on request after {} points", points.size()));
    if (!stoppedLate.empty()) r.text.push_back("  " + stoppedLate);
    if (r.systemFailure)
        r.verdict = "scheduler FAILED: " + r.failures.front();
    else if (model)
        r.verdict =
            fmt::format("{} per job (ideal {}), offset {}, corr {}", msText(model->gradient()),
                        msText(idealMsPerJob), msText(model->socket()),
                        formatSignificant(model->correlation(), 3));
    else
        r.verdict = "no model: " + noModel;
    if (!stoppedLate.empty() && !r.systemFailure) r.verdict += "; " + stoppedLate;
    r.overload = !stoppedLate.empty();  // a point ran past its limit
    if (r.partial && !r.systemFailure) r.verdict += " (partial: stopped on request)";
}

void ParamRangeMode::detailJson(ModeResult& r, const Plan& p,
                                const std::vector<LoadPeakPoint>& points, const SeriesModel& fitted,
                                double idealMsPerJob) const {
    const std::optional<LinearRegression>& model = fitted.line;
    nlohmann::json& j = r.result;
    seriesJson(r, p, points.size(), idealMsPerJob);
    j["points_incomplete"] = fitted.missing;
    const double nan = kMissing;
    j["gradient_ms_per_job"] = jsonNumber(model ? model->gradient() : nan);
    j["socket_ms"] = jsonNumber(model ? model->socket() : nan);
    j["correlation"] = jsonNumber(model ? model->correlation() : nan);
    j["max_delta_ms"] = jsonNumber(model ? model->maxDelta() : nan);
    j["sigma_ms"] = jsonNumber(model ? model->sigma() : nan);
    j["model"] = model ? nlohmann::json(model->format()) : nlohmann::json(nullptr);
    j["mean_concurrency"] = jsonNumber(fitted.meanConcurrency);
    nlohmann::json list = nlohmann::json::array();
    for (const LoadPeakPoint& pt : points)
        list.push_back({{"load_size_jobs", pt.jobs},
                        {"graph_hash", fmt::format("0x{:016X}", pt.graphHash)},
                        {"result_time_ms", jsonNumber(pt.timeMs)},
                        {"concurrency", jsonNumber(pt.concurrency)},
                        {"avg_jobtime_us", jsonNumber(pt.jobtimeUs)},
                        {"avg_impeded_us", jsonNumber(pt.impededUs)}});
    j["points"] = list;
}

// ---- present: several backends side by side

void ParamRangeMode::presentComparison(RunContext& ctx, ModeResult& r, const Plan& p,
                                       const Measurement& m) const {
    const double idealMsPerJob = idealMsPerJobOf(p.policy, p.parallelism, ctx.stop);
    std::vector<SeriesModel> models;
    for (const BackendPoints& b : m.backends)
        models.push_back(fitPoints(b.points));
    const std::size_t rows = m.backends.front().points.size();
    CsvTable table = comparisonTable(m, models, idealMsPerJob);
    std::vector<std::string> yColumns;
    for (const BackendPoints& b : m.backends) {
        yColumns.push_back(b.name + " result time");
        yColumns.push_back(b.name + " model");
    }
    PlotOptions po;
    po.title = fmt::format(
        "load peak: {} jobs of {}, {} workers, per backend (points: measured, lines: fitted)",
        graph_.label(), Units::formatDuration(exec_.load, true), exec_.workers);
    po.xLabel = "load size (jobs)";
    po.yLabel = "result time (ms)";
    po.style = "linespoints";
    r.plots.push_back({"", GnuplotScript::tablePlot(table, "load size", yColumns, {}, po)});
    r.tables.push_back({"", std::move(table)});

    r.text.push_back(fmt::format(
        "Parameter series: pattern {}, {}..{} jobs of {}, {} workers, {} points, every job due "
        "at once; ideal gradient {} per job",
        graph_.label(), from_, to_, durationText(exec_.load), exec_.workers, rows,
        msText(idealMsPerJob)));
    for (std::size_t b = 0; b < m.backends.size(); ++b) {
        const std::optional<LinearRegression>& line = models[b].line;
        r.text.push_back(fmt::format(
            "  {:<10} {} ∅concurrency: {}", m.backends[b].name,
            line ? line->format() : "Model: n/a (" + models[b].why + ")",
            textOr(models[b].meanConcurrency, [](double c) { return fmt::format("{:.2f}", c); })));
    }
    r.verdict = r.systemFailure ? "FAILED: " + r.failures.front()
                                : fmt::format(
                                      "{} backends measured on {} points; every run hash "
                                      "ok and exactly once",
                                      m.backends.size(), rows);
    seriesJson(r, p, rows, idealMsPerJob);
    r.result["backends"] = comparisonBackendsJson(m, models);
}

/// One column group per backend, one row per load size.
CsvTable ParamRangeMode::comparisonTable(const Measurement& m,
                                         const std::vector<SeriesModel>& models,
                                         double idealMsPerJob) const {
    CsvTable table;
    table.addColumn("load size");
    for (const BackendPoints& b : m.backends)
        for (const char* c : {"result time", "concurrency", "avg jobtime", "model"})
            table.addColumn(fmt::format("{} {}", b.name, c));
    const std::vector<LoadPeakPoint>& first = m.backends.front().points;
    std::vector<std::size_t> order(first.size());
    for (std::size_t k = 0; k < order.size(); ++k)
        order[k] = k;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return first[a].jobs < first[b].jobs; });
    for (std::size_t k : order) {
        std::vector<CsvTable::Cell> row{double(first[k].jobs)};
        for (std::size_t b = 0; b < m.backends.size(); ++b) {
            const std::vector<LoadPeakPoint>& points = m.backends[b].points;
            const LoadPeakPoint p = k < points.size() ? points[k] : LoadPeakPoint{};
            const std::optional<LinearRegression>& line = models[b].line;
            row.push_back(p.timeMs);
            row.push_back(p.concurrency);
            row.push_back(p.jobtimeUs);
            row.push_back(line ? line->socket() + line->gradient() * double(first[k].jobs)
                               : kMissing);
        }
        table.addRow(std::move(row));
    }
    table.setComment("units",
                     "load size: jobs; result time: ms (first job start to last job end); "
                     "concurrency: busy time / result time; avg jobtime: us; model: the fitted "
                     "line in ms");
    table.setComment("ideal gradient", fmt::format("{:.6g} ms per job", idealMsPerJob));
    return table;
}

nlohmann::json ParamRangeMode::comparisonBackendsJson(
    const Measurement& m, const std::vector<SeriesModel>& models) const {
    nlohmann::json out = nlohmann::json::object();
    for (std::size_t b = 0; b < m.backends.size(); ++b) {
        const std::optional<LinearRegression>& line = models[b].line;
        nlohmann::json list = nlohmann::json::array();
        for (const LoadPeakPoint& p : m.backends[b].points)
            list.push_back({{"load_size_jobs", p.jobs},
                            {"result_time_ms", jsonNumber(p.timeMs)},
                            {"concurrency", jsonNumber(p.concurrency)},
                            {"avg_jobtime_us", jsonNumber(p.jobtimeUs)}});
        out[m.backends[b].name] = {
            {"start_times", m.backends[b].startTimes},
            {"gradient_ms_per_job", jsonNumber(line ? line->gradient() : kMissing)},
            {"socket_ms", jsonNumber(line ? line->socket() : kMissing)},
            {"correlation", jsonNumber(line ? line->correlation() : kMissing)},
            {"model", line ? nlohmann::json(line->format()) : nlohmann::json(nullptr)},
            {"mean_concurrency", jsonNumber(models[b].meanConcurrency)},
            {"points_incomplete", models[b].missing},
            {"points", list}};
    }
    return out;
}

}  // namespace

std::unique_ptr<Mode> makeParamRangeMode() {
    return std::make_unique<ParamRangeMode>();
}

}  // namespace pullsched::rig
