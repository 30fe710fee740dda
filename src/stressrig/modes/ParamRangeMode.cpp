// --mode=param-range: a parameter series of load peaks. For job counts drawn between
// --from and --to, a graph of that size runs with every level due at once on each backend
// of --backends (pullsched alone by default), the same way on each; the result times are
// fitted with a line (the Model) and compared with the ideal gradient. Measure (each point
// judged at once: a failure ends the series), then present every backend in detail and
// side by side; an instrumented backend adds the time with fewer than two workers busy.
#include <algorithm>
#include <cmath>
#include <memory>
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
#include "load/StopRequest.hpp"
#include "measure/Environment.hpp"
#include "measure/RunInstrument.hpp"
#include "modes/Mode.hpp"
#include "pullsched/testchain/GraphStatistics.hpp"
#include "pullsched/testchain/LevelSchedule.hpp"
#include "report/GraphRunsTrace.hpp"
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
        t.group("Traces");
        t.flag("trace-json", traceJson_,
               "write <name>-trace.json (<name>-<backend>-trace.json for the others of "
               "--backends): the run of the median point (the median load size), every job on "
               "the track of the thread that ran it (ui.perfetto.dev, chrome://tracing); every "
               "backend");
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
        // a backend that cannot do what an option asks is named, not measured otherwise
        placement_.refuseIgnoredBy(t, backends_);
    }

    ModeResult run(RunContext& ctx) override;

  private:
    /// What every step reads.
    struct Plan {
        WeightPolicy policy;
        unsigned parallelism;
        std::vector<std::size_t> sizes;  ///< in drawing order
        const JobBody& body;

        /// The point a trace shows: the first drawn at the median size.
        std::size_t medianPoint() const {
            std::vector<std::size_t> sorted = sizes;
            std::sort(sorted.begin(), sorted.end());
            const std::size_t median = sorted[(sorted.size() - 1) / 2];
            return static_cast<std::size_t>(std::find(sizes.begin(), sizes.end(), median) -
                                            sizes.begin());
        }
    };
    /// One backend's points, in drawing order (the measure step's output).
    struct BackendPoints {
        std::string name;
        bool instrumented = false;
        /// Files of this backend: "" for the first of --backends (the names a result of
        /// pullsched alone always had), "-<name>" for the others.
        std::string suffix;
        std::string startTimes;
        std::vector<LoadPeakPoint> points;
        std::unique_ptr<RunInstrument> instrument;  ///< instrumented backends only
        std::optional<BackendRun> traced;           ///< the median point's run (--trace-json)
    };
    struct Measurement {
        std::vector<BackendPoints> backends;
        std::string stoppedLate;  ///< the series ended after a run past its limit
    };
    /// One backend's points in size order with their line (the analyse step's output).
    struct BackendSeriesFit {
        std::vector<LoadPeakPoint> points;
        SeriesModel fitted;
    };

    std::vector<std::size_t> drawSizes() const;
    BackendSetup pointSetup(const TestChainGraph& graph, const Plan& p,
                            CompletionLimit& limit) const;
    // measure (each point judged at once: a failure ends the series)
    Measurement measure(RunContext& ctx, ModeResult& r, const Plan& p) const;
    bool measurePoint(RunContext& ctx, ModeResult& r, const Plan& p, const TestChainGraph& graph,
                      Measurement& m, bool traced) const;
    // present: every backend in detail, then side by side
    void present(RunContext& ctx, ModeResult& r, const Plan& p, const Measurement& m) const;
    void backendText(ModeResult& r, const BackendPoints& b, const BackendSeriesFit& f,
                     double idealMsPerJob) const;
    void traceFile(ModeResult& r, const Plan& p, const BackendPoints& b) const;
    nlohmann::json backendJson(const BackendPoints& b, const BackendSeriesFit& f) const;
    CsvTable backendTable(const BackendPoints& b, const BackendSeriesFit& f,
                          double idealMsPerJob) const;
    void backendPlot(ModeResult& r, const BackendPoints& b, const BackendSeriesFit& f,
                     const CsvTable& table, double idealMsPerJob) const;
    std::string verdict(const ModeResult& r, const Measurement& m,
                        const std::vector<BackendSeriesFit>& fits, double idealMsPerJob) const;
    /// Keys every result has, whatever its backends.
    void commonJson(ModeResult& r, const Plan& p, double idealMsPerJob) const {
        nlohmann::json& j = r.result;
        j["pattern"] = graph_.label();
        j["workers"] = exec_.workers;
        j["parallelism"] = p.parallelism;
        j["load_us"] = toUs(exec_.load);
        j["sample_seed"] = sampleSeed_;
        j["points_planned"] = points_;
        j["warmup_runs_per_point"] = backends_.warmup;
        j["ideal_gradient_ms_per_job"] = jsonNumber(idealMsPerJob);
        j["top_level_backend"] = backends_.names().front();
    }
    void sideBySide(ModeResult& r, const Measurement& m, const std::vector<BackendSeriesFit>& fits,
                    double idealMsPerJob) const;

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
    bool traceJson_ = false;
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
    present(ctx, r, p, m);
    return r;
}

/// Every job due at once, a load peak, on every backend: the schedule puts every level at
/// 0; pullsched's one planning job posts the whole peak (planningChunk, which the other
/// backends, whose graph is built before the run, do not read).
BackendSetup ParamRangeMode::pointSetup(const TestChainGraph& graph, const Plan& p,
                                        CompletionLimit& limit) const {
    BackendSetup setup = backendSetup(exec_.workers, placement_.placement(), exec_.load,
                                      p.body.load(), p.policy, p.parallelism);
    const Duration work = GraphStatistics(graph, p.policy).work(exec_.load);
    LevelSchedule schedule(graph, p.policy);
    schedule.useDefault(Duration{0});
    RunnerConfig rc;
    rc.chunkSize = graph.size();
    limit = completionLimit(rc, schedule.expectedEnd(), work);
    setup.schedule = std::move(schedule);
    setup.planningChunk = graph.size();
    setup.completionLimit = limit.total();
    return setup;
}

ParamRangeMode::Measurement ParamRangeMode::measure(RunContext& ctx, ModeResult& r,
                                                    const Plan& p) const {
    Measurement m;
    for (const std::string& name : backends_.names()) {
        BackendPoints b;
        b.name = name;
        b.instrumented = BackendRegistry::find(name).instrumented;
        b.suffix = m.backends.empty() ? "" : "-" + name;
        if (b.instrumented) b.instrument = std::make_unique<RunInstrument>(exec_.workers, to_);
        m.backends.push_back(std::move(b));
    }
    for (std::size_t i = 0; i < p.sizes.size(); ++i) {
        const std::optional<TestChainGraph> graph = pointGraph(p.sizes[i], ctx.stop, r);
        if (!graph) break;
        const bool traced = traceJson_ && i == p.medianPoint();
        if (!measurePoint(ctx, r, p, *graph, m, traced)) break;  // stopped: not kept
        std::string line = fmt::format("{} jobs:", graph->size());
        for (const BackendPoints& b : m.backends)
            line += fmt::format(" {} {}", b.name, msText(b.points.back().timeMs));
        ctx.progress.progress(i + 1, p.sizes.size(), line);
        if (r.systemFailure || !m.stoppedLate.empty()) break;
    }
    return m;
}

/// The point on each backend, warmed up as --backend-warmup says; false when a stop cut it
/// short (a backend that measured it keeps it only if every backend did).
bool ParamRangeMode::measurePoint(RunContext& ctx, ModeResult& r, const Plan& p,
                                  const TestChainGraph& graph, Measurement& m, bool traced) const {
    const std::size_t n = graph.size();
    CompletionLimit limit;
    const BackendSetup common = pointSetup(graph, p, limit);
    std::vector<LoadPeakPoint> points;
    std::vector<BackendRun> runs;  // the point's run on each backend, when it is traced
    for (BackendPoints& b : m.backends) {
        BackendSetup setup = common;
        RunInstrument* instrument = b.instrument.get();
        setup.observer = instrument;
        IncidenceStatistic stat;
        SeriesPlan plan;
        plan.warmup = backends_.warmup;
        plan.judge = scheduledRunFailure;
        plan.beforeMeasured = [&] {  // the warm-up is not observed
            if (instrument) instrument->reset();
        };
        plan.afterRun = [&](const BackendRun&) {
            if (!instrument) return;
            stat = instrument->evaluate();
            instrument->reset();
        };
        const BackendSeries s = measureSeries(b.name, graph, setup, plan, ctx.stop);
        b.startTimes = std::string(graphStartTimesName(s.startTimes));
        if (s.runs.empty()) {  // stopped before it ran, or a warm-up failed
            if (!s.failure.empty()) {
                r.systemFailure = true;
                r.failures.push_back(fmt::format("{}, {} jobs: {}", b.name, n, s.failure));
            }
            r.partial = r.partial || s.interrupted;
            return false;
        }
        const BackendRun& run = s.runs.front();
        std::string failure = s.failure, late;
        if (run.result.timedOut) {
            const RunFinding f = lateRunFinding(run.result, limit, run.pendingAfterCancel);
            failure = f.failure;
            late = f.late;
            if (failure.empty())  // after a timeout: no further point on it
                m.stoppedLate = fmt::format(
                    "series stopped after the {} jobs point, which {} on {}", n, late, b.name);
        }
        if (!failure.empty()) {
            r.systemFailure = true;
            r.failures.push_back(fmt::format("{}, {} jobs: {}", b.name, n, failure));
        }
        points.push_back(
            peakPoint(run, n, graph.graphHash(), failure, late, instrument ? &stat : nullptr));
        if (traced) runs.push_back(run);
    }
    for (std::size_t i = 0; i < m.backends.size(); ++i) {
        m.backends[i].points.push_back(std::move(points[i]));
        if (traced) m.backends[i].traced = std::move(runs[i]);
    }
    return true;
}

// ---- present

void ParamRangeMode::present(RunContext& ctx, ModeResult& r, const Plan& p,
                             const Measurement& m) const {
    // Ideal: the mean work per job spread over the parallelism the machine gives.
    const double idealMsPerJob = idealMsPerJobOf(p.policy, p.parallelism, ctx.stop);
    r.text.push_back(fmt::format(
        "Parameter series: pattern {}, {}..{} jobs of {}, {} workers, {} points (sample seed "
        "{}), every job due at once, after {} warm-up per point; backends: {}",
        graph_.label(), from_, to_, durationText(exec_.load), exec_.workers, points_, sampleSeed_,
        backends_.warmup, BackendOptions::listText(backends_.names())));
    const std::vector<std::string> unobserved = backends_.lacking(&BackendInfo::instrumented);
    if (!unobserved.empty())
        r.text.push_back(fmt::format("  not instrumented: {} (no avg impeded)",
                                     BackendOptions::listText(unobserved)));
    commonJson(r, p, idealMsPerJob);
    std::vector<BackendSeriesFit> fits;
    nlohmann::json byBackend = nlohmann::json::object();
    for (const BackendPoints& b : m.backends) {
        BackendSeriesFit f{b.points, {}};
        std::stable_sort(
            f.points.begin(), f.points.end(),
            [](const LoadPeakPoint& x, const LoadPeakPoint& y) { return x.jobs < y.jobs; });
        f.fitted = fitPoints(f.points);
        const std::string who = b.name + ": ";
        if (f.fitted.missing)
            r.warnings.push_back(fmt::format(
                "{}{} of {} points incomplete: excluded from the model and the mean concurrency",
                who, f.fitted.missing, f.points.size()));
        for (const LoadPeakPoint& pt : f.points)
            if (!pt.missingWhy.empty())
                r.warnings.push_back(fmt::format("{}{} jobs: {}", who, pt.jobs, pt.missingWhy));
        CsvTable table = backendTable(b, f, idealMsPerJob);
        backendPlot(r, b, f, table, idealMsPerJob);
        r.tables.push_back({b.suffix, std::move(table)});
        backendText(r, b, f, idealMsPerJob);
        if (traceJson_) traceFile(r, p, b);
        nlohmann::json detail = backendJson(b, f);
        if (b.suffix.empty())
            for (const auto& [k, v] : detail.items())
                r.result[k] = v;
        byBackend[b.name] = std::move(detail);
        fits.push_back(std::move(f));
    }
    r.result["backends"] = std::move(byBackend);
    if (r.partial)
        r.text.push_back(
            fmt::format("  stopped on request after {} points", m.backends.front().points.size()));
    if (!m.stoppedLate.empty()) r.text.push_back("  " + m.stoppedLate);
    sideBySide(r, m, fits, idealMsPerJob);
    r.overload = !m.stoppedLate.empty();  // a point ran past its limit
    r.verdict = verdict(r, m, fits, idealMsPerJob);
    if (!r.systemFailure && ctx.environment.busyNow())
        r.verdict += "; the machine was busy, so result times include competition for the CPU";
}

/// The median point's run, every job on its thread's track, and a line saying which.
void ParamRangeMode::traceFile(ModeResult& r, const Plan& p, const BackendPoints& b) const {
    const std::size_t point = p.medianPoint();
    const std::string which = fmt::format("the median point: {} jobs (point {} of {} drawn)",
                                          p.sizes[point], point + 1, p.sizes.size());
    if (!b.traced) {
        r.text.push_back(fmt::format("  trace: not written, the series ended before {}", which));
        return;
    }
    r.text.push_back("  trace: " + which);
    const TracedGraphRun run{fmt::format("{} jobs", p.sizes[point]), *b.traced};
    r.files.push_back(
        {b.suffix + "-trace.json",
         graphRunsTrace(fmt::format("stressrig param-range {} on {} ({} jobs, {} workers)",
                                    graph_.label(), b.name, p.sizes[point], exec_.workers),
                        exec_.workers, {&run, 1},
                        {{"mode", "param-range"},
                         {"backend", b.name},
                         {"pattern", graph_.label()},
                         {"point", which}})
             .text});
}

CsvTable ParamRangeMode::backendTable(const BackendPoints& b, const BackendSeriesFit& f,
                                      double idealMsPerJob) const {
    const SeriesModel& fitted = f.fitted;
    CsvTable table({"load size", "result time", "concurrency", "avg jobtime", "avg impeded"});
    for (const LoadPeakPoint& p : f.points)
        table.addRow({double(p.jobs), p.timeMs, p.concurrency, p.jobtimeUs, p.impededUs});
    table.setComment("backend", b.name);
    table.setComment("units",
                     "load size: jobs (graph nodes); result time: ms (first job start to last "
                     "job end); concurrency: busy time / result time; avg jobtime: us per job; "
                     "avg impeded: us per job with fewer than two workers busy");
    if (!b.instrumented)
        table.setComment("avg impeded", "not measured: the backend is not instrumented");
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

void ParamRangeMode::backendPlot(ModeResult& r, const BackendPoints& b, const BackendSeriesFit& f,
                                 const CsvTable& table, double idealMsPerJob) const {
    if (!f.fitted.line) return;
    PlotOptions po;
    po.title = fmt::format("load peak: {} jobs of {} on {}, {} workers", graph_.label(),
                           Units::formatDuration(exec_.load, true), b.name, exec_.workers);
    po.xLabel = "load size (jobs)";
    po.yLabel = "result time (ms)";
    po.y2Label = "avg jobtime (us)";
    r.plots.push_back(
        {b.suffix, GnuplotScript::parameterSeries(
                       table, *f.fitted.line, po, {},
                       std::isnan(idealMsPerJob) ? std::optional<double>{} : idealMsPerJob)});
}

void ParamRangeMode::backendText(ModeResult& r, const BackendPoints& b, const BackendSeriesFit& f,
                                 double idealMsPerJob) const {
    const std::optional<LinearRegression>& model = f.fitted.line;
    r.text.push_back(fmt::format("{} ({} start times): {} of {} points", b.name, b.startTimes,
                                 f.points.size(), points_));
    r.text.push_back(fmt::format("  {:>10} {:>12} {:>12} {:>12} {:>12}", "load size", "result time",
                                 "concurrency", "avg jobtime", "avg impeded"));
    for (const LoadPeakPoint& pt : f.points)
        r.text.push_back(
            fmt::format("  {:>10} {:>12} {:>12} {:>12} {:>12}", pt.jobs, msText(pt.timeMs),
                        textOr(pt.concurrency, [](double c) { return fmt::format("{:.3f}", c); }),
                        usText(pt.jobtimeUs), usText(pt.impededUs)));
    const std::string concText =
        textOr(f.fitted.meanConcurrency, [](double c) { return fmt::format("{:.2f}", c); });
    if (model)
        r.text.push_back(fmt::format("{} ∅concurrency: {}", model->format(), concText));
    else
        r.text.push_back(fmt::format("Model: n/a ({}) ∅concurrency: {}", f.fitted.why, concText));
    r.text.push_back(fmt::format(
        "  (p in jobs, result time in ms; ideal gradient {} per job = mean work per job / "
        "{} workers the machine gives{})",
        msText(idealMsPerJob), exec_.machineParallelism(),
        model ? fmt::format(", measured {} per job", msText(model->gradient())) : ""));
}

/// Each backend's line (named when there are several), what stopped the series.
std::string ParamRangeMode::verdict(const ModeResult& r, const Measurement& m,
                                    const std::vector<BackendSeriesFit>& fits,
                                    double idealMsPerJob) const {
    if (r.systemFailure) return "scheduler FAILED: " + r.failures.front();
    std::string v;
    for (std::size_t i = 0; i < fits.size(); ++i) {
        const std::optional<LinearRegression>& model = fits[i].fitted.line;
        if (!v.empty()) v += "; ";
        if (fits.size() > 1) v += m.backends[i].name + ": ";
        v += model
                 ? fmt::format("{} per job (ideal {}), offset {}, corr {}",
                               msText(model->gradient()), msText(idealMsPerJob),
                               msText(model->socket()), formatSignificant(model->correlation(), 3))
                 : "no model: n/a (" + fits[i].fitted.why + ")";
    }
    if (!m.stoppedLate.empty()) v += "; " + m.stoppedLate;
    if (r.partial) v += " (partial: stopped on request)";
    return v;
}

/// One backend's series under the keys a result of one backend always had: each
/// backend's entry holds them, and the top level repeats those of the first of --backends.
nlohmann::json ParamRangeMode::backendJson(const BackendPoints& b,
                                           const BackendSeriesFit& f) const {
    const std::optional<LinearRegression>& model = f.fitted.line;
    const double nan = kMissing;
    nlohmann::json j;
    j["start_times"] = b.startTimes;
    j["instrumented"] = b.instrumented;
    j["points_measured"] = f.points.size();
    j["points_incomplete"] = f.fitted.missing;
    j["gradient_ms_per_job"] = jsonNumber(model ? model->gradient() : nan);
    j["socket_ms"] = jsonNumber(model ? model->socket() : nan);
    j["correlation"] = jsonNumber(model ? model->correlation() : nan);
    j["max_delta_ms"] = jsonNumber(model ? model->maxDelta() : nan);
    j["sigma_ms"] = jsonNumber(model ? model->sigma() : nan);
    j["model"] = model ? nlohmann::json(model->format()) : nlohmann::json(nullptr);
    j["mean_concurrency"] = jsonNumber(f.fitted.meanConcurrency);
    nlohmann::json list = nlohmann::json::array();
    for (const LoadPeakPoint& pt : f.points)
        list.push_back({{"load_size_jobs", pt.jobs},
                        {"graph_hash", fmt::format("0x{:016X}", pt.graphHash)},
                        {"result_time_ms", jsonNumber(pt.timeMs)},
                        {"concurrency", jsonNumber(pt.concurrency)},
                        {"avg_jobtime_us", jsonNumber(pt.jobtimeUs)},
                        // the instrument's: null for a backend without one
                        {"avg_impeded_us", jsonNumber(pt.impededUs)}});
    j["points"] = list;
    return j;
}

/// One column group per backend, one row per load size, a line each in the text.
void ParamRangeMode::sideBySide(ModeResult& r, const Measurement& m,
                                const std::vector<BackendSeriesFit>& fits,
                                double idealMsPerJob) const {
    CsvTable table;
    table.addColumn("load size");
    std::vector<std::string> yColumns;
    for (const BackendPoints& b : m.backends) {
        for (const char* c : {"result time", "concurrency", "avg jobtime", "model"})
            table.addColumn(fmt::format("{} {}", b.name, c));
        yColumns.push_back(b.name + " result time");
        yColumns.push_back(b.name + " model");
    }
    // every backend measured the same sizes (a point is kept only where all did)
    for (std::size_t k = 0; k < fits.front().points.size(); ++k) {
        const double jobs = double(fits.front().points[k].jobs);
        std::vector<CsvTable::Cell> row{jobs};
        for (const BackendSeriesFit& f : fits) {
            const LoadPeakPoint& p = f.points[k];
            const std::optional<LinearRegression>& line = f.fitted.line;
            row.push_back(p.timeMs);
            row.push_back(p.concurrency);
            row.push_back(p.jobtimeUs);
            row.push_back(line ? line->socket() + line->gradient() * jobs : kMissing);
        }
        table.addRow(std::move(row));
    }
    table.setComment("units",
                     "load size: jobs; result time: ms (first job start to last job end); "
                     "concurrency: busy time / result time; avg jobtime: us; model: the fitted "
                     "line in ms");
    table.setComment("ideal gradient", fmt::format("{:.6g} ms per job", idealMsPerJob));
    for (std::size_t b = 0; b < m.backends.size(); ++b)
        r.text.push_back(fmt::format("  {:<10} {} ∅concurrency: {}", m.backends[b].name,
                                     fits[b].fitted.line
                                         ? fits[b].fitted.line->format()
                                         : "Model: n/a (" + fits[b].fitted.why + ")",
                                     textOr(fits[b].fitted.meanConcurrency,
                                            [](double c) { return fmt::format("{:.2f}", c); })));
    PlotOptions po;
    po.title = fmt::format(
        "load peak: {} jobs of {}, {} workers, per backend (points: measured, lines: fitted)",
        graph_.label(), Units::formatDuration(exec_.load, true), exec_.workers);
    po.xLabel = "load size (jobs)";
    po.yLabel = "result time (ms)";
    po.style = "linespoints";
    r.plots.push_back(
        {"-backends", GnuplotScript::tablePlot(table, "load size", yColumns, {}, po)});
    r.tables.push_back({"-backends", std::move(table)});
}

}  // namespace

std::unique_ptr<Mode> makeParamRangeMode() {
    return std::make_unique<ParamRangeMode>();
}

}  // namespace pullsched::rig
