// --mode=granularity: the minimum effective task granularity (METG) of each backend on
// each chosen graph. Job sizes grow from --min-size in √2 or 2× steps; each size runs a
// few times after a warm-up, as fast as possible (no start times), and the median
// makespan gives the efficiency max(work / P, critical path) / makespan. METG is the
// smallest job size at which the efficiency still reaches the threshold (50 %), read from
// the curve by analysis/EfficiencyCurve.
#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "analysis/EfficiencyCurve.hpp"
#include "analysis/GranularitySweep.hpp"
#include "analysis/SampleStatistics.hpp"
#include "backends/BackendRegistry.hpp"
#include "backends/BackendSetup.hpp"
#include "backends/GraphRunner.hpp"
#include "cli/BackendOptions.hpp"
#include "cli/GraphOptions.hpp"
#include "cli/PlacementOption.hpp"
#include "cli/TaskBenchOptions.hpp"
#include "cli/UnitParsing.hpp"
#include "cli/UsageError.hpp"
#include "format/Units.hpp"
#include "load/JobBody.hpp"
#include "load/Progress.hpp"
#include "load/ScheduledGraphRun.hpp"
#include "load/StopRequest.hpp"
#include "load/SyntheticGraphs.hpp"
#include "load/TaskBenchPatterns.hpp"
#include "measure/Environment.hpp"
#include "modes/Mode.hpp"
#include "pullsched/testchain/GraphStatistics.hpp"
#include "pullsched/testchain/Presets.hpp"
#include "report/GraphRunsTrace.hpp"
#include "report/MetricCatalogue.hpp"
#include "report/MissingValues.hpp"
#include "report/TextFormat.hpp"

namespace pullsched::rig {

using namespace pullsched::testchain;
using namespace std::chrono_literals;

namespace {

constexpr const char* kDefaultGraphs =
    "burst:1024,stationary:256,chains:1024,isolated:10000,chain:10000,grid:100x100";
/// Sizes in a row that must reach the threshold within the tolerance to end a sweep.
constexpr std::size_t kSaturationWindow = 3;

/// One graph of --graphs: `isolated`, `chain` and `grid` are the hand-made shapes, a
/// Task Bench pattern name (NAME:WxS) one of its shapes, any other name a TestChainLoad
/// preset.
struct GraphChoice {
    std::string name;   ///< as given, e.g. "grid"
    std::string label;  ///< name and size, e.g. "grid-100x100"
    std::size_t nodes = 0, width = 0, height = 0;
    std::optional<TaskBenchShape> taskBench;

    bool synthetic() const {
        return taskBench || name == "isolated" || name == "chain" || name == "grid";
    }
};

std::size_t parseCount(const std::string& what, const std::string& text) {
    std::size_t used = 0;
    unsigned long long v = 0;
    try {
        v = std::stoull(text, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used != text.size() || text.empty() || text[0] == '-' || v < 1 || v > 10'000'000)
        throw UsageError(fmt::format("invalid --graphs entry '{}': '{}' is not a count 1..10000000",
                                     what, text));
    return std::size_t(v);
}

GraphChoice parseGraph(const std::string& item, const TaskBenchOptions& taskBench) {
    GraphChoice g;
    if (auto shape = taskBench.shape(item, "invalid --graphs entry")) {
        g.name = std::string(nameOf(shape->pattern));
        g.label = shapeLabel(*shape);
        g.nodes = nodeCount(*shape);
        g.width = shape->width;
        g.height = shape->steps;
        g.taskBench = shape;
        return g;
    }
    const std::size_t colon = item.find(':');
    g.name = item.substr(0, colon);
    if (g.name.empty() || colon == std::string::npos)
        throw UsageError(fmt::format(
            "invalid --graphs entry '{}': want NAME:NODES (grid:WxH), e.g. burst:1024", item));
    const std::string size = item.substr(colon + 1);
    if (g.name == "grid") {
        const std::size_t x = size.find('x');
        if (x == std::string::npos)
            throw UsageError(
                fmt::format("invalid --graphs entry '{}': a grid is grid:WIDTHxHEIGHT", item));
        g.width = parseCount(item, size.substr(0, x));
        g.height = parseCount(item, size.substr(x + 1));
        g.nodes = g.width * g.height;
        g.label = fmt::format("grid-{}x{}", g.width, g.height);
    } else {
        g.nodes = parseCount(item, size);
        g.label = fmt::format("{}-{}", g.name, g.nodes);
    }
    if (g.nodes < 2)
        throw UsageError(fmt::format("invalid --graphs entry '{}': a graph needs 2 nodes", item));
    if (!g.synthetic()) {
        try {
            (void)preset(g.name);
        } catch (const std::invalid_argument& e) {
            throw UsageError(fmt::format(
                "invalid --graphs entry '{}': not isolated, chain, grid or a Task Bench "
                "pattern, and {}",
                item, e.what()));
        }
    }
    return g;
}

std::vector<GraphChoice> parseGraphs(const std::string& list, const TaskBenchOptions& taskBench) {
    std::vector<GraphChoice> out;
    std::size_t from = 0;
    for (;;) {
        const std::size_t comma = list.find(',', from);
        const std::string item =
            list.substr(from, comma == std::string::npos ? comma : comma - from);
        const GraphChoice g = parseGraph(item, taskBench);
        // measured twice, it would be reported as two graphs of one name
        if (std::any_of(out.begin(), out.end(),
                        [&](const GraphChoice& o) { return o.label == g.label; }))
            throw UsageError(
                fmt::format("invalid --graphs='{}': {} is given twice", list, g.label));
        out.push_back(g);
        if (comma == std::string::npos) break;
        from = comma + 1;
    }
    return out;
}

struct GraphResult {
    GraphChoice choice;
    std::size_t levels = 0, edges = 0;
    double workUnits = 0, criticalPathUnits = 0;
    std::vector<GranularitySweep> sweeps;  ///< one per backend, in --backends order
};

/// What the measure step hands to the analysis and the report.
struct GranularityMeasurement {
    std::map<std::string, std::string> startTimes;  ///< backend → how it honours start times
    std::size_t runsTotal = 0, runsVerified = 0;
    std::vector<GraphResult> results;
    bool partial = false;        ///< stopped on request
    bool systemFailure = false;  ///< a backend failed a correctness check
    std::vector<std::string> failures;
    /// Per backend, with --trace-json: the median run of the first job size on the first
    /// graph, where what a job costs the backend shows most.
    std::map<std::string, TracedGraphRun> traced;
};

/// One graph while its sweeps run: the graph, its backends and where the figures go.
struct GraphUnderTest {
    const GraphChoice& choice;
    const TestChainGraph& graph;
    WeightPolicy policy;
    std::vector<std::unique_ptr<GraphRunner>> backends;
    GraphResult result;
};

/// Whether the sweep's backend also ran its prebuilt empty jobs as one batch (--overhead).
bool submitsBatch(const GranularitySweep& s) {
    return BackendRegistry::find(s.backend).submitsPrebuiltBatch;
}

/// "≤ 1.00µs", "> 4.00µs", "2.50µs" or "n/a".
std::string metgValueText(const Metg& m) {
    switch (m.kind) {
        case Metg::Kind::Interpolated:
            return usText(m.valueUs);
        case Metg::Kind::AtOrBelowSmallest:
            return "≤ " + usText(m.boundUs);
        case Metg::Kind::AboveLargest:
            return "> " + usText(m.boundUs);
        case Metg::Kind::NoData:
            break;
    }
    return "n/a";
}

/// The METG as every output shows it: marked "(noisy)" when the efficiency crossed the
/// threshold more than once, so a row at or above it below the METG is not a contradiction.
std::string metgText(const Metg& m) {
    return metgValueText(m) + (m.nonMonotonic ? " (noisy)" : "");
}

class GranularityMode final : public Mode {
  public:
    std::string_view name() const override { return "granularity"; }
    std::vector<FigureSource> figures() const override {
        return {{"metg", "metg_us.*"}, {"runs_verified"}};
    }
    std::vector<std::string> selectorLabels() const override {
        std::vector<std::string> labels = backendList_;
        for (const GraphChoice& g : graphList_)
            labels.push_back(g.label);
        return labels;
    }
    std::string_view summary() const override {
        return "minimum effective task granularity (METG): efficiency over job size per "
               "backend and graph";
    }
    void declare(OptionTable& t) override {
        backends_.declare(t);  // --backends; --backend-warmup: here per size and backend
        t.group("Granularity");
        t.text("graphs", graphs_, "LIST",
               "graphs as NAME:NODES, comma-separated: isolated, chain, grid:WxH (hand-made "
               "shapes), a Task Bench pattern NAME:WIDTHxSTEPS (trivial, no_comm, stencil_1d, "
               "stencil_1d_periodic, dom, tree, fft, all_to_all, nearest, spread, "
               "random_nearest; e.g. stencil_1d:8x100) or a preset (see Patterns)");
        taskBench_.declare(t);
        t.count("workers", workers_, 1, 1024, "worker threads of every backend");
        placement_.declare(t);
        t.choice("load-kind", loadKind_, {"cpu", "memory"}, "computational load of a job");
        t.duration("min-size", minSize_, 100ns, 10s, "smallest job size (time per unit weight)");
        t.duration("max-size", maxSize_, 100ns, 10s, "largest job size");
        t.choice("step", step_, {"sqrt2", "2"}, "factor between job sizes: √2 or 2");
        t.text("sizes", sizesText_, "LIST",
               "exactly these job sizes, comma-separated (e.g. 1us,10us,100us) instead of "
               "--min-size/--max-size/--step; no early end at saturation");
        t.flag("overhead", overhead_,
               "also run every graph and backend with empty jobs: the dispatch overhead "
               "(median makespan / nodes) of a prebuilt graph (pullsched's also as one batch "
               "submitted without its gate), and of a graph built inside the timed run "
               "(planning + dispatch)");
        t.count("reps", reps_, 1, 1000, "measured runs per size (the median makespan counts)");
        t.percent("threshold", threshold_, 1, 100, "efficiency that defines METG");
        t.percent("saturation", saturation_, 0, 100,
                  "a sweep ends when 3 sizes in a row reach the threshold within this spread");
        t.duration("max-run-time", maxRunTime_, 1ms, 1h,
                   "a sweep ends at a size whose ideal run (max(work / P, critical path)) or "
                   "median makespan exceeds this");
        t.group("Traces");
        t.flag("trace-json", traceJson_,
               "write <name>-trace.json (<name>-<backend>-trace.json with several backends): "
               "the median run of the first job size on the first of --graphs, every job on "
               "the track of the thread that ran it (ui.perfetto.dev, chrome://tracing); every "
               "backend");
    }
    void validate(const OptionTable& t) override {
        placement_.refuseIgnoredBy(t, backends_);
        graphList_ = parseGraphs(graphs_, taskBench_);
        const bool anyTaskBench = std::any_of(graphList_.begin(), graphList_.end(),
                                              [](const GraphChoice& g) { return g.taskBench; });
        for (const char* option : {"radix", "imbalance"})
            if (t.given(option) && !anyTaskBench)
                throw UsageError(fmt::format(
                    "--{} shapes Task Bench patterns only, and --graphs names none", option));
        backendList_ = backends_.names();
        explicitSizes_.clear();
        if (!sizesText_.empty()) {
            std::vector<std::string> written;  // each size as given, for the message
            std::size_t from = 0;
            for (;;) {
                const std::size_t comma = sizesText_.find(',', from);
                const std::string item =
                    sizesText_.substr(from, comma == std::string::npos ? comma : comma - from);
                Duration d{0};
                try {
                    d = parseDuration(item);
                } catch (const std::invalid_argument& e) {
                    throw UsageError(fmt::format("invalid --sizes entry '{}': {}", item, e.what()));
                }
                if (d < 100ns || d > 10s)
                    throw UsageError(
                        fmt::format("invalid --sizes entry '{}': a job size is 100ns..10s", item));
                if (const auto same = std::find(explicitSizes_.begin(), explicitSizes_.end(), d);
                    same != explicitSizes_.end())
                    throw UsageError(fmt::format("invalid --sizes='{}': {} is {} again", sizesText_,
                                                 item, written[same - explicitSizes_.begin()]));
                explicitSizes_.push_back(d);
                written.push_back(item);
                if (comma == std::string::npos) break;
                from = comma + 1;
            }
            std::sort(explicitSizes_.begin(), explicitSizes_.end());
        }
        if (maxSize_ < minSize_)
            throw UsageError(fmt::format(
                "invalid --min-size={} --max-size={}: the largest size is below the smallest",
                Units::formatDuration(minSize_, true), Units::formatDuration(maxSize_, true)));
    }

    ModeResult run(RunContext& ctx) override;

  private:
    /// The job sizes of the sweep, from --min-size by --step up to --max-size (whole ns).
    std::vector<Duration> sizes() const {
        if (!explicitSizes_.empty()) return explicitSizes_;
        return geometricSizes(minSize_, maxSize_, step_ == "2" ? 2.0 : std::sqrt(2.0));
    }
    SweepEnd sweepEnd() const {
        return {threshold_, kSaturationWindow, saturation_, toUs(maxRunTime_),
                explicitSizes_.empty()};
    }
    std::string thresholdText() const { return fmt::format("{:g} %", 100 * threshold_); }

    // measure
    GranularityMeasurement measure(RunContext& ctx, const JobBody& body, unsigned P) const;
    GraphResult measureGraph(RunContext& ctx, const JobBody& body, unsigned P,
                             const GraphChoice& choice, GranularityMeasurement& m,
                             std::size_t& step) const;
    void measureRuns(RunContext& ctx, GraphUnderTest& g, std::size_t bi, const std::string& what,
                     std::vector<double>& makespans, GranularityPoint* p, GranularityMeasurement& m,
                     std::vector<double>* busiestShares = nullptr,
                     std::vector<BackendRun>* measured = nullptr) const;
    void keepMedianRun(GranularityMeasurement& m, const std::string& backend,
                       const GraphChoice& graph, Duration size, std::vector<BackendRun> runs) const;
    void measureEmptyJobs(RunContext& ctx, GraphUnderTest& g, unsigned P, std::size_t step,
                          std::size_t totalSteps, GranularityMeasurement& m) const;
    void measureSize(RunContext& ctx, const JobBody& body, GraphUnderTest& g, unsigned P,
                     Duration size, double idealUs, std::size_t step, std::size_t totalSteps,
                     GranularityMeasurement& m) const;

    // present
    std::string definition(unsigned P) const;
    void addTables(ModeResult& r, const GranularityMeasurement& m, unsigned P) const;
    GnuplotScript efficiencyPlot(const std::vector<GraphResult>& results, unsigned cores) const;
    std::vector<std::string> summaryLines(const GranularityMeasurement& m, unsigned P,
                                          unsigned cores) const;
    std::vector<std::string> graphLines(const GraphResult& g) const;
    std::vector<std::string> noisyWarnings(const GranularityMeasurement& m) const;
    std::string verdict(const GranularityMeasurement& m) const;
    void traceFiles(ModeResult& r, const GranularityMeasurement& m) const;
    nlohmann::json resultJson(const GranularityMeasurement& m, unsigned P) const;
    nlohmann::json graphJson(const GraphResult& g) const;

    std::string graphs_ = kDefaultGraphs;
    BackendOptions backends_;
    PlacementOption placement_;
    TaskBenchOptions taskBench_;
    unsigned workers_ = 2;
    std::string loadKind_ = "cpu";
    Duration minSize_ = 250ns;
    Duration maxSize_ = 4ms;
    std::string step_ = "sqrt2";
    unsigned reps_ = 3;
    double threshold_ = 0.5;
    double saturation_ = 0.05;
    Duration maxRunTime_ = 1s;
    std::string sizesText_;
    std::vector<Duration> explicitSizes_;
    bool overhead_ = false;
    std::vector<GraphChoice> graphList_;
    std::vector<std::string> backendList_;
    bool traceJson_ = false;
};

ModeResult GranularityMode::run(RunContext& ctx) {
    ModeResult r;
    r.name = backendList_.size() == 1 ? fmt::format("granularity-{}", backendList_.front())
                                      : std::string("granularity");
    const JobBody body(loadKind_, &ctx.progress);
    r.calibration = body.json();
    const unsigned P = std::min(workers_, std::max(1u, ctx.environment.cores));
    const GranularityMeasurement m = measure(ctx, body, P);
    r.partial = m.partial;
    r.systemFailure = m.systemFailure;
    r.failures = m.failures;
    addTables(r, m, P);
    if (!m.results.empty())
        r.plots.push_back({"", efficiencyPlot(m.results, ctx.environment.cores)});
    r.text = summaryLines(m, P, ctx.environment.cores);
    r.warnings = noisyWarnings(m);
    r.verdict = verdict(m);
    r.result = resultJson(m, P);
    if (traceJson_) traceFiles(r, m);
    return r;
}

// ---- measure

/// Why a run that is not ok failed, in one line.
std::string runFailure(const BackendRun& run) {
    std::string failure = correctnessFailure(run.result);
    if (failure.empty() && !run.exactlyOnce())
        failure =
            fmt::format("{} nodes never ran, {} ran more than once", run.missed, run.repeated);
    if (failure.empty())
        failure = fmt::format("run incomplete: {} of {} jobs completed", run.result.completedJobs,
                              run.result.nodes);
    return failure;
}

GranularityMeasurement GranularityMode::measure(RunContext& ctx, const JobBody& body,
                                                unsigned P) const {
    GranularityMeasurement m;
    const std::size_t sizeCount = sizes().size();
    std::size_t step = 0;
    for (const GraphChoice& choice : graphList_) {
        if (m.partial) break;
        m.results.push_back(measureGraph(ctx, body, P, choice, m, step));
        step = (&choice - graphList_.data() + 1) * sizeCount;
    }
    return m;
}

GraphResult GranularityMode::measureGraph(RunContext& ctx, const JobBody& body, unsigned P,
                                          const GraphChoice& choice, GranularityMeasurement& m,
                                          std::size_t& step) const {
    const GraphOptions presets;  // each preset with its own seed and fan
    WeightPolicy policy = WeightPolicy::Raw;
    const TestChainGraph graph = [&] {
        if (choice.taskBench) return taskBenchGraph(*choice.taskBench);
        if (choice.name == "isolated") return isolatedGraph(choice.nodes);
        if (choice.name == "chain") return chainGraph(choice.nodes);
        if (choice.name == "grid") return gridGraph(choice.width, choice.height);
        policy = presets.rulesFor(choice.name).schedulingWeightPolicy();
        return presets.presetGraph(choice.name, choice.nodes, ctx.stop.predicate());
    }();
    const GraphStatistics stats(graph, policy);
    GraphUnderTest g{choice, graph, policy, {}, {}};
    g.result.choice = choice;
    g.result.levels = stats.levels();
    g.result.edges = stats.edges();
    // work and critical path in weight units; × job size gives the calibrated time
    g.result.workUnits = toUs(stats.work(1us));
    g.result.criticalPathUnits = toUs(stats.criticalPath(1us));
    for (const std::string& b : backendList_) {
        g.backends.push_back(BackendRegistry::graphRunner(b));
        m.startTimes[b] = std::string(g.backends.back()->startTimesText());
        GranularitySweep sweep;
        sweep.backend = b;
        g.result.sweeps.push_back(std::move(sweep));
    }
    const std::vector<Duration> sizeList = sizes();
    const std::size_t totalSteps = graphList_.size() * sizeList.size();
    if (overhead_) measureEmptyJobs(ctx, g, P, step, totalSteps, m);
    // Sizes outermost and backends interleaved, so that a change in the machine's
    // load hits every backend alike.
    for (const Duration size : sizeList) {
        ++step;
        const double idealUs =
            idealRunUs(g.result.workUnits, g.result.criticalPathUnits, P, toUs(size));
        if (idealUs > toUs(maxRunTime_)) {
            for (GranularitySweep& s : g.result.sweeps)
                if (!s.done) {
                    s.done = true;
                    s.stopped = "max-run-time";
                }
            break;
        }
        measureSize(ctx, body, g, P, size, idealUs, step, totalSteps, m);
        if (m.partial || std::all_of(g.result.sweeps.begin(), g.result.sweeps.end(),
                                     [](const GranularitySweep& s) { return s.done; }))
            break;
    }
    for (GranularitySweep& s : g.result.sweeps)
        finishSweep(s, threshold_, m.partial);
    return std::move(g.result);
}

// Runs of one backend: warm-up, then the measured ones. A correctness failure is recorded
// in m.failures and ends the backend's sweep; the backend is replaced (a timed-out one is
// spent).
void GranularityMode::measureRuns(RunContext& ctx, GraphUnderTest& g, std::size_t bi,
                                  const std::string& what, std::vector<double>& makespans,
                                  GranularityPoint* p, GranularityMeasurement& m,
                                  std::vector<double>* busiestShares,
                                  std::vector<BackendRun>* measured) const {
    GraphRunner& backend = *g.backends[bi];
    std::string failure;
    for (unsigned i = 0; i < backends_.warmup + reps_; ++i) {
        if (ctx.stop.requested()) {
            m.partial = true;
            break;
        }
        const BackendRun run = backend.run();
        if (run.result.interrupted) {  // cut short: no figure, no failure
            m.partial = true;
            break;
        }
        if (p) ++p->runs;
        ++m.runsTotal;
        if (run.ok()) {
            if (p) ++p->verified;
            ++m.runsVerified;
            if (i >= backends_.warmup) {
                makespans.push_back(toUs(run.result.runTime));
                if (busiestShares) busiestShares->push_back(run.busiestThreadShare);
                if (measured) measured->push_back(run);
            }
            continue;
        }
        failure = runFailure(run);
        break;
    }
    if (failure.empty()) return;
    GranularitySweep& sweep = g.result.sweeps[bi];
    m.systemFailure = true;
    m.failures.push_back(
        fmt::format("{} on {}, {}: {}", sweep.backend, g.choice.label, what, failure));
    sweep.done = true;
    sweep.stopped = "failure";
    g.backends[bi] = BackendRegistry::graphRunner(sweep.backend);
}

/// The median of `runs` by makespan, the run a trace shows; none if no run was measured.
void GranularityMode::keepMedianRun(GranularityMeasurement& m, const std::string& backend,
                                    const GraphChoice& graph, Duration size,
                                    std::vector<BackendRun> runs) const {
    if (runs.empty()) return;
    std::sort(runs.begin(), runs.end(), [](const BackendRun& a, const BackendRun& b) {
        return a.result.runTime < b.result.runTime;
    });
    m.traced[backend] = {fmt::format("{} with jobs of {}, the median of {} runs", graph.label,
                                     usText(toUs(size)), runs.size()),
                         std::move(runs[(runs.size() - 1) / 2])};
}

/// Each backend's traced run, every job on its thread's track, and a line saying which.
void GranularityMode::traceFiles(ModeResult& r, const GranularityMeasurement& m) const {
    for (const std::string& b : backendList_) {
        const auto it = m.traced.find(b);
        if (it == m.traced.end()) {
            r.text.push_back(
                fmt::format("Trace of {}: not written, the first job size on {} "
                            "did not run",
                            b, graphList_.front().label));
            continue;
        }
        r.text.push_back(fmt::format("Trace of {}: {}", b, it->second.label));
        const GraphRunsTraceText trace = graphRunsTrace(
            fmt::format("stressrig granularity on {} ({} workers)", b, workers_), workers_,
            {&it->second, 1}, {{"mode", "granularity"}, {"backend", b}, {"run", it->second.label}});
        r.files.push_back(
            {backendList_.size() > 1 ? "-" + b + "-trace.json" : "-trace.json", trace.text});
    }
}

/// One of --overhead's runs of empty jobs, and where its figures go.
struct EmptyJobsRun {
    const char* what;
    bool planInRun;
    bool prebuiltBatch;  ///< only on backends with BackendInfo::submitsPrebuiltBatch
    SampleStatistics GranularitySweep::*makespans;
    double GranularitySweep::*nsPerJob;
    double GranularitySweep::*busiestShare;
};

// Execution of a prebuilt graph (pullsched: behind its timed gate, then as one batch
// submitted at the clock's start), then planning + execution (the graph built inside the
// timed run), back to back so that all meet the same machine.
constexpr EmptyJobsRun kEmptyJobsRuns[] = {
    {"empty jobs", false, false, &GranularitySweep::emptyMakespanUs,
     &GranularitySweep::emptyNsPerJob, &GranularitySweep::emptyBusiestShare},
    {"empty jobs, prebuilt as one batch", false, true, &GranularitySweep::batchMakespanUs,
     &GranularitySweep::batchNsPerJob, &GranularitySweep::batchBusiestShare},
    {"empty jobs, planned in the run", true, false, &GranularitySweep::plannedMakespanUs,
     &GranularitySweep::plannedNsPerJob, &GranularitySweep::plannedBusiestShare},
};

// Empty jobs first: what a job costs the backend itself.
void GranularityMode::measureEmptyJobs(RunContext& ctx, GraphUnderTest& g, unsigned P,
                                       std::size_t step, std::size_t totalSteps,
                                       GranularityMeasurement& m) const {
    const double nodes = double(g.graph.size());
    for (std::size_t bi = 0; bi < g.backends.size() && !m.partial; ++bi) {
        GranularitySweep& sweep = g.result.sweeps[bi];
        for (const EmptyJobsRun& run : kEmptyJobsRuns) {
            if (run.prebuiltBatch && !g.backends[bi]->info().submitsPrebuiltBatch) continue;
            BackendSetup setup = backendSetup(workers_, placement_.placement(),
                                              BackendSetup{}.timeBase, std::nullopt, g.policy, P);
            setup.stop = ctx.stop.predicate();
            setup.planInRun = run.planInRun;
            setup.prebuiltBatch = run.prebuiltBatch;
            g.backends[bi]->prepare(g.graph, setup);  // untimed; no load: empty jobs
            std::vector<double> makespans;
            std::vector<double> shares;
            measureRuns(ctx, g, bi, run.what, makespans, nullptr, m, &shares);
            SampleStatistics& stats = sweep.*run.makespans;
            stats = SampleStatistics::of(makespans);
            sweep.*run.nsPerJob = stats.median * 1e3 / nodes;
            if (!shares.empty()) sweep.*run.busiestShare = SampleStatistics::of(shares).median;
            if (m.partial) break;
        }
        ctx.progress.progress(
            step, totalSteps,
            fmt::format("{} {} empty jobs: {:.0f} ns per job, {:.0f} with planning", g.choice.label,
                        sweep.backend, sweep.emptyNsPerJob, sweep.plannedNsPerJob));
    }
}

// One job size on every backend whose sweep goes on.
void GranularityMode::measureSize(RunContext& ctx, const JobBody& body, GraphUnderTest& g,
                                  unsigned P, Duration size, double idealUs, std::size_t step,
                                  std::size_t totalSteps, GranularityMeasurement& m) const {
    const double sizeUs = toUs(size);
    for (std::size_t bi = 0; bi < g.backends.size() && !m.partial; ++bi) {
        GranularitySweep& sweep = g.result.sweeps[bi];
        if (sweep.done) continue;
        GraphRunner& backend = *g.backends[bi];
        BackendSetup setup =
            backendSetup(workers_, placement_.placement(), size, body.load(), g.policy, P);
        setup.stop = ctx.stop.predicate();
        backend.prepare(g.graph, setup);  // untimed
        GranularityPoint p;
        p.jobSizeUs = sizeUs;
        p.lowerBoundUs = idealUs;
        std::vector<double> makespans;
        // the first size of the first graph is traced
        const bool traced =
            traceJson_ && &g.choice == &graphList_.front() && size == sizes().front();
        std::vector<BackendRun> runs;
        measureRuns(ctx, g, bi, "jobs of " + usText(sizeUs), makespans, &p, m, nullptr,
                    traced ? &runs : nullptr);
        if (traced) keepMedianRun(m, sweep.backend, g.choice, size, std::move(runs));
        p.makespanUs = SampleStatistics::of(makespans);
        p.efficiency = runEfficiency(g.result.workUnits * sizeUs,
                                     g.result.criticalPathUnits * sizeUs, P, p.makespanUs.median);
        if (p.runs > 0) sweep.points.push_back(p);
        if (m.partial) {
            sweep.stopped = "stop request";
            break;
        }
        if (!sweep.done)
            if (const auto end = sweepEndAfterLastPoint(sweep, sweepEnd())) {
                sweep.done = true;
                sweep.stopped = *end;
            }
        ctx.progress.progress(
            step, totalSteps,
            fmt::format("{} {} jobs of {}: efficiency {}", g.choice.label, sweep.backend,
                        usText(sizeUs), percentText(p.efficiency)));
    }
}

// ---- present

std::string GranularityMode::definition(unsigned P) const {
    return fmt::format(
        "efficiency = max(work / {}, critical path) / median makespan; work and critical path = "
        "weight x job size of the calibrated body; METG = smallest job size from which on every "
        "larger measured size reaches {}, interpolated on log(size)",
        P, thresholdText());
}

void GranularityMode::addTables(ModeResult& r, const GranularityMeasurement& m, unsigned P) const {
    CsvTable curves;
    curves.addColumn("graph", CsvTable::Kind::Text);
    curves.addColumn("backend", CsvTable::Kind::Text);
    using namespace std::string_literals;
    const auto figure = [](std::string_view name) { return MetricCatalogue::csvHeader(name); };
    for (std::string c :
         {"job size us"s, "runs"s, figure("runs_verified"), "makespan median ms"s,
          "makespan min ms"s, "makespan max ms"s, "ideal ms"s, figure("efficiency")})
        curves.addColumn(std::move(c));
    CsvTable metgTable;
    metgTable.addColumn("graph", CsvTable::Kind::Text);
    metgTable.addColumn("backend", CsvTable::Kind::Text);
    metgTable.addColumn(figure("metg"));
    metgTable.addColumn("metg kind", CsvTable::Kind::Text);
    metgTable.addColumn("metg bound us");
    metgTable.addColumn("first reached us");
    metgTable.addColumn("non-monotonic");
    metgTable.addColumn("sizes measured");
    metgTable.addColumn("stopped", CsvTable::Kind::Text);
    metgTable.addColumn("empty jobs ns per job");
    metgTable.addColumn("empty jobs planned in the run ns per job");
    metgTable.addColumn("empty jobs: busiest thread's share");
    metgTable.addColumn("empty jobs planned in the run: busiest thread's share");
    metgTable.addColumn("empty jobs as one batch ns per job");
    for (const GraphResult& g : m.results)
        for (const GranularitySweep& s : g.sweeps) {
            for (const GranularityPoint& p : s.points)
                curves.addRow({g.choice.label, s.backend, p.jobSizeUs, double(p.runs),
                               double(p.verified), p.makespanUs.median / 1e3,
                               p.makespanUs.min / 1e3, p.makespanUs.max / 1e3, p.lowerBoundUs / 1e3,
                               p.efficiency});
            metgTable.addRow({g.choice.label, s.backend, s.metg.valueUs, s.metg.kindName(),
                              s.metg.boundUs, s.metg.firstReachedUs,
                              s.metg.nonMonotonic ? 1.0 : 0.0, double(s.metg.measured), s.stopped,
                              s.emptyNsPerJob, s.plannedNsPerJob, s.emptyBusiestShare,
                              s.plannedBusiestShare, s.batchNsPerJob});
        }
    curves.setComment("units",
                      "job size: us per unit weight; makespan and ideal: ms; efficiency: fraction");
    curves.setComment("efficiency", definition(P));
    metgTable.setComment("units",
                         "metg, bound, first reached: us per unit weight; empty jobs: "
                         "ns per job (median makespan of empty jobs / nodes, --overhead; "
                         "planned in the run: the graph built inside the timed run; as one "
                         "batch: pullsched's prebuilt graph submitted without its gate); busiest "
                         "thread's share: of the jobs of a run, the share the thread that ran "
                         "the most of them ran (1: one thread ran the whole graph), median "
                         "over the measured runs");
    metgTable.setComment("metg", definition(P));
    metgTable.setComment("metg kind",
                         "interpolated; at_or_below_smallest (METG <= bound); above_largest "
                         "(METG > bound, not reached); no_data");
    r.tables.push_back({"", curves});
    r.tables.push_back({"-metg", metgTable});
}

/// Efficiency per job size, one column per graph and backend (missing where not measured).
CsvTable efficiencyColumns(const std::vector<GraphResult>& results) {
    std::vector<GranularitySweep> every;
    for (const GraphResult& g : results)
        every.insert(every.end(), g.sweeps.begin(), g.sweeps.end());
    CsvTable wide({"job size us"});
    for (const GraphResult& g : results)
        for (const GranularitySweep& s : g.sweeps)
            wide.addColumn(g.choice.label + " " + s.backend);
    for (const double size : measuredSizes(every)) {
        std::vector<CsvTable::Cell> row{size};
        for (const GranularitySweep& s : every) {
            double e = kMissing;
            for (const GranularityPoint& p : s.points)
                if (p.jobSizeUs == size) e = p.efficiency;
            row.emplace_back(e);
        }
        wide.addRow(row);
    }
    return wide;
}

// One panel per graph, a line per backend, the threshold drawn.
GnuplotScript GranularityMode::efficiencyPlot(const std::vector<GraphResult>& results,
                                              unsigned cores) const {
    const std::size_t cols = std::min<std::size_t>(3, results.size());
    const std::size_t rows = (results.size() + cols - 1) / cols;
    std::string c;
    // the key sits above the curves (efficiency stays below ~1.2) instead of over them
    c += "set grid\nset logscale x 2\nset key top left samplen 2 font ',9'\n";
    c += fmt::format(
        "set xlabel 'job size (us)'\nset ylabel 'efficiency'\n"
        "set yrange [0:{:g}]\nset ytics 0,0.2,1.2\n",
        1.25 + 0.08 * double(backendList_.size() + 1));
    c += "set datafile missing ''\n";
    c += fmt::format("set multiplot layout {},{} title {}\n", rows, cols,
                     GnuplotScript::kTitle);  // the title, the verdict under it
    std::size_t column = 2;
    for (const GraphResult& g : results) {
        c += fmt::format("set title {}\n", GnuplotScript::quoteGp(fmt::format(
                                               "{} ({} levels)", g.choice.label, g.levels)));
        std::string plot = "plot ";
        for (const GranularitySweep& s : g.sweeps)
            plot += fmt::format(
                "$RunData using 1:{} with linespoints pt 7 title {}, ", column++,
                GnuplotScript::quoteGp(fmt::format("{}: METG {}", s.backend, metgText(s.metg))));
        plot += fmt::format("{:g} with lines dt 2 lw 2 lc rgb 'gray30' title {}\n", threshold_,
                            GnuplotScript::quoteGp(thresholdText()));
        c += plot;
    }
    c += "unset multiplot\n";
    PlotOptions po;
    po.title = fmt::format("efficiency over job size, {} workers ({} cores): METG at {}", workers_,
                           cores, thresholdText());
    po.width = int(450 * cols);
    po.height = int(420 * rows + 40);
    return GnuplotScript::custom(efficiencyColumns(results), std::move(c), po);
}

std::vector<std::string> GranularityMode::summaryLines(const GranularityMeasurement& m, unsigned P,
                                                       unsigned cores) const {
    std::vector<std::string> text;
    std::vector<std::string> sizeTexts;
    for (const Duration d : explicitSizes_)
        sizeTexts.push_back(usText(toUs(d)));
    const std::string sizesDescription =
        explicitSizes_.empty() ? fmt::format("job sizes {}..{} in {} steps", usText(toUs(minSize_)),
                                             usText(toUs(maxSize_)), step_ == "2" ? "2×" : "√2")
                               : fmt::format("job sizes {}", fmt::join(sizeTexts, ", "));
    text.push_back(fmt::format(
        "Granularity: METG at {} efficiency, {} on {} workers ({} cores), {}, {} runs per size "
        "after {} warm-up (median makespan), as fast as possible{}",
        thresholdText(), fmt::join(backendList_, ", "), workers_, cores, sizesDescription, reps_,
        backends_.warmup, placementNote(placement_.placement())));
    text.push_back("  " + definition(P));
    std::size_t labelWidth = 18;  // the longest label, at least 18
    for (const GraphResult& g : m.results)
        labelWidth = std::max(labelWidth, g.choice.label.size());
    std::string head = fmt::format("  {:<{}} {:>7} {:>6}", "graph", labelWidth, "nodes", "levels");
    for (const std::string& b : backendList_)
        head += fmt::format(" {:>12}", b);
    text.push_back(head);
    for (const GraphResult& g : m.results) {
        std::string line = fmt::format("  {:<{}} {:>7} {:>6}", g.choice.label, labelWidth,
                                       g.choice.nodes, g.levels);
        for (const GranularitySweep& s : g.sweeps)
            line += fmt::format(" {:>12}", metgText(s.metg));
        text.push_back(line);
    }
    for (const GraphResult& g : m.results)
        for (std::string& line : graphLines(g))
            text.push_back(std::move(line));
    text.push_back(
        fmt::format("  {} of {} runs verified: completed, graph hash right, every node "
                    "exactly once",
                    m.runsVerified, m.runsTotal));
    for (const std::string& b : backendList_)
        text.push_back(fmt::format("  start times, {}: {}", b, m.startTimes.at(b)));
    return text;
}

// A graph's figures, its efficiency per size and backend, and why each sweep ended.
std::vector<std::string> GranularityMode::graphLines(const GraphResult& g) const {
    std::vector<std::string> text;
    text.push_back(
        fmt::format("  {}: {} nodes, {} edges, work {:g} weight units, critical path {:g}",
                    g.choice.label, g.choice.nodes, g.edges, g.workUnits, g.criticalPathUnits));
    if (overhead_) {
        std::vector<std::string> each;
        for (const GranularitySweep& s : g.sweeps)
            each.push_back(fmt::format("{} {}", s.backend, textOr(s.emptyNsPerJob, [](double v) {
                                           return fmt::format("{:.0f} ns", v);
                                       })));
        text.push_back(
            fmt::format("    empty jobs (dispatch overhead per job): {}", fmt::join(each, ", ")));
        each.clear();
        for (const GranularitySweep& s : g.sweeps)
            each.push_back(fmt::format("{} {}", s.backend, textOr(s.plannedNsPerJob, [](double v) {
                                           return fmt::format("{:.0f} ns", v);
                                       })));
        text.push_back(
            fmt::format("    empty jobs, graph built in the run (planning + dispatch): {}",
                        fmt::join(each, ", ")));
        // A cost per job measured while one thread ran the whole graph is that thread's
        // cost, not the cost of spreading the work: the share says which it was.
        each.clear();
        const auto share = [](double v) {
            return textOr(v, [](double x) { return fmt::format("{:.0f} %", 100 * x); });
        };
        for (const GranularitySweep& s : g.sweeps)
            each.push_back(fmt::format("{} {} / {}", s.backend, share(s.emptyBusiestShare),
                                       share(s.plannedBusiestShare)));
        text.push_back(fmt::format(
            "    empty jobs run by the busiest thread (prebuilt / built in the run): {}",
            fmt::join(each, ", ")));
        // What the timed gate costs a prebuilt graph: the same graph as one batch.
        each.clear();
        for (const GranularitySweep& s : g.sweeps)
            if (submitsBatch(s))
                each.push_back(fmt::format(
                    "{} {} (gate / batch {}, busiest thread {})", s.backend,
                    textOr(s.batchNsPerJob, [](double v) { return fmt::format("{:.0f} ns", v); }),
                    textOr(s.emptyNsPerJob / s.batchNsPerJob,
                           [](double v) { return fmt::format("{:.2f}", v); }),
                    share(s.batchBusiestShare)));
        if (!each.empty())
            text.push_back(
                fmt::format("    empty jobs, prebuilt graph submitted as one batch (no gate): {}",
                            fmt::join(each, ", ")));
    }
    std::string h = fmt::format("    {:>10}", "job size");
    for (const GranularitySweep& s : g.sweeps)
        h += fmt::format(" {:>12} {:>10}", s.backend, "makespan");
    text.push_back(h);
    for (const double size : measuredSizes(g.sweeps)) {
        std::string line = fmt::format("    {:>10}", usText(size));
        for (const GranularitySweep& s : g.sweeps) {
            const auto it =
                std::find_if(s.points.begin(), s.points.end(),
                             [&](const GranularityPoint& p) { return p.jobSizeUs == size; });
            if (it == s.points.end())
                line += fmt::format(" {:>12} {:>10}", "", "");
            else
                line += fmt::format(" {:>12} {:>10}", percentText(it->efficiency),
                                    usText(it->makespanUs.median));
        }
        text.push_back(line);
    }
    std::string ends = "    sweep ended:";
    for (const GranularitySweep& s : g.sweeps) {
        ends += fmt::format(" {} {}", s.backend, s.stopped);
        if (s.metg.nonMonotonic)
            ends += fmt::format(" (noisy: first reached {} at {})", thresholdText(),
                                usText(s.metg.firstReachedUs));
        ends += ";";
    }
    ends.pop_back();
    text.push_back(ends);
    return text;
}

std::vector<std::string> GranularityMode::noisyWarnings(const GranularityMeasurement& m) const {
    std::vector<std::string> warnings;
    for (const GraphResult& g : m.results)
        for (const GranularitySweep& s : g.sweeps)
            if (s.metg.nonMonotonic)
                warnings.push_back(fmt::format(
                    "{} on {}: the efficiency crossed {} more than once (noise); METG is read "
                    "at the last crossing, first reached at {}",
                    s.backend, g.choice.label, thresholdText(), usText(s.metg.firstReachedUs)));
    return warnings;
}

std::string GranularityMode::verdict(const GranularityMeasurement& m) const {
    if (m.systemFailure) return "backend FAILED: " + m.failures.front();
    std::vector<std::string> parts;
    for (std::size_t bi = 0; bi < backendList_.size(); ++bi) {
        std::vector<std::string> each;
        for (const GraphResult& g : m.results)
            each.push_back(fmt::format("{} {}", g.choice.label, metgText(g.sweeps[bi].metg)));
        parts.push_back(fmt::format("{}: {}", backendList_[bi], fmt::join(each, ", ")));
    }
    std::string verdict = fmt::format("METG({}) {}", thresholdText(), fmt::join(parts, "; "));
    if (m.partial) verdict += " (partial: stopped on request)";
    return verdict;
}

nlohmann::json GranularityMode::resultJson(const GranularityMeasurement& m, unsigned P) const {
    nlohmann::json j;
    j["threshold_percent"] = 100 * threshold_;
    j["workers"] = workers_;
    j["parallelism"] = P;
    j["step"] = step_;
    j["min_size_us"] = toUs(minSize_);
    j["max_size_us"] = toUs(maxSize_);
    if (!explicitSizes_.empty()) {
        nlohmann::json sz = nlohmann::json::array();
        for (const Duration d : explicitSizes_)
            sz.push_back(toUs(d));
        j["sizes_us"] = sz;
    }
    j["reps"] = reps_;
    j["warmup"] = backends_.warmup;
    j["runs_total"] = m.runsTotal;
    j["runs_verified"] = m.runsVerified;
    j["definition"] = definition(P);
    nlohmann::json metgByGraph = nlohmann::json::object();
    nlohmann::json emptyByGraph = nlohmann::json::object();
    nlohmann::json plannedByGraph = nlohmann::json::object();
    nlohmann::json emptyShareByGraph = nlohmann::json::object();
    nlohmann::json plannedShareByGraph = nlohmann::json::object();
    nlohmann::json batchByGraph = nlohmann::json::object();  // capable backends only
    nlohmann::json batchShareByGraph = nlohmann::json::object();
    nlohmann::json byBackend = nlohmann::json::object();
    for (const std::string& b : backendList_)
        byBackend[b] = {{"start_times", m.startTimes.at(b)}, {"metg_us", nlohmann::json::object()}};
    nlohmann::json graphs = nlohmann::json::array();
    for (const GraphResult& g : m.results) {
        for (const GranularitySweep& s : g.sweeps) {
            if (overhead_) {
                emptyByGraph[g.choice.label][s.backend] = jsonNumber(s.emptyNsPerJob);
                plannedByGraph[g.choice.label][s.backend] = jsonNumber(s.plannedNsPerJob);
                emptyShareByGraph[g.choice.label][s.backend] = jsonNumber(s.emptyBusiestShare);
                plannedShareByGraph[g.choice.label][s.backend] = jsonNumber(s.plannedBusiestShare);
                if (submitsBatch(s)) {
                    batchByGraph[g.choice.label][s.backend] = jsonNumber(s.batchNsPerJob);
                    batchShareByGraph[g.choice.label][s.backend] = jsonNumber(s.batchBusiestShare);
                }
            }
            metgByGraph[g.choice.label][s.backend] = jsonNumber(s.metg.valueUs);
            byBackend[s.backend]["metg_us"][g.choice.label] = jsonNumber(s.metg.valueUs);
        }
        graphs.push_back(graphJson(g));
    }
    j["metg_us"] = metgByGraph;
    if (overhead_) {
        j["empty_ns_per_job"] = emptyByGraph;
        j["plan_and_run_ns_per_job"] = plannedByGraph;
        j["empty_busiest_thread_share"] = emptyShareByGraph;
        j["plan_and_run_busiest_thread_share"] = plannedShareByGraph;
        j["empty_batch_ns_per_job"] = batchByGraph;
        j["empty_batch_busiest_thread_share"] = batchShareByGraph;
    }
    j["backends"] = byBackend;
    j["graphs"] = graphs;
    return j;
}

nlohmann::json GranularityMode::graphJson(const GraphResult& g) const {
    nlohmann::json gj{{"graph", g.choice.label},
                      {"nodes", g.choice.nodes},
                      {"levels", g.levels},
                      {"edges", g.edges},
                      {"work_weight_units", g.workUnits},
                      {"critical_path_weight_units", g.criticalPathUnits}};
    nlohmann::json bj = nlohmann::json::object();
    for (const GranularitySweep& s : g.sweeps) {
        nlohmann::json pts = nlohmann::json::array();
        for (const GranularityPoint& p : s.points)
            pts.push_back({{"job_size_us", p.jobSizeUs},
                           {"runs", p.runs},
                           {"runs_verified", p.verified},
                           {"makespan_median_ms", jsonNumber(p.makespanUs.median / 1e3)},
                           {"makespan_min_ms", jsonNumber(p.makespanUs.min / 1e3)},
                           {"makespan_max_ms", jsonNumber(p.makespanUs.max / 1e3)},
                           {"ideal_ms", p.lowerBoundUs / 1e3},
                           {"efficiency", jsonNumber(p.efficiency)}});
        bj[s.backend] = {{"metg_us", jsonNumber(s.metg.valueUs)},
                         {"metg_kind", s.metg.kindName()},
                         {"metg_bound_us", jsonNumber(s.metg.boundUs)},
                         {"first_reached_us", jsonNumber(s.metg.firstReachedUs)},
                         {"non_monotonic", s.metg.nonMonotonic},
                         {"stopped", s.stopped},
                         {"points", pts}};
        if (overhead_) {
            bj[s.backend]["empty_ns_per_job"] = jsonNumber(s.emptyNsPerJob);
            bj[s.backend]["plan_and_run_ns_per_job"] = jsonNumber(s.plannedNsPerJob);
            bj[s.backend]["empty_busiest_thread_share"] = jsonNumber(s.emptyBusiestShare);
            bj[s.backend]["plan_and_run_busiest_thread_share"] = jsonNumber(s.plannedBusiestShare);
            if (submitsBatch(s)) {
                bj[s.backend]["empty_batch_ns_per_job"] = jsonNumber(s.batchNsPerJob);
                bj[s.backend]["empty_batch_busiest_thread_share"] = jsonNumber(s.batchBusiestShare);
            }
        }
    }
    gj["backends"] = bj;
    return gj;
}
}  // namespace

std::unique_ptr<Mode> makeGranularityMode() {
    return std::make_unique<GranularityMode>();
}

}  // namespace pullsched::rig
