// --mode=spawn: work that jobs create. A fibonacci and a skynet recursion whose every inner
// call spawns its children from inside a job, on each backend in its own idiom, timed as a
// whole from the root's spawn to the result; ns per call, against oneTBB, and the gain from
// the first worker count to the others. Every run's result is checked. Beside them, the
// loop shapes: a parallel loop in each backend's idiom, ns per iteration, every index
// checked to have run exactly once.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "analysis/SampleStatistics.hpp"
#include "backends/BackendRegistry.hpp"
#include "backends/Recursion.hpp"
#include "backends/RecursionRunner.hpp"
#include "cli/BackendOptions.hpp"
#include "cli/UsageError.hpp"
#include "format/Units.hpp"
#include "load/JobBody.hpp"
#include "load/Progress.hpp"
#include "load/StopRequest.hpp"
#include "modes/Mode.hpp"
#include "report/GnuplotScript.hpp"
#include "report/MissingValues.hpp"
#include "report/TextFormat.hpp"

namespace pullsched::rig {

namespace {

/// The backend the ratios are taken against, when it runs.
constexpr std::string_view kReference = "tbb";

/// The measured runs of one shape on one backend at one worker count.
struct SpawnPoint {
    unsigned workers = 0;
    std::vector<double> wallUs;  ///< measured runs (warm-ups left out), in run order
    unsigned runs = 0;           ///< warm-ups included
    unsigned verified = 0;       ///< runs whose result was right
    SampleStatistics nsPerCall;
    double vsReference = kMissing;  ///< median ns per call / the reference backend's
    double speedUp = kMissing;      ///< median at the first worker count / median here
};

struct SpawnSeries {
    std::string backend;
    std::string idiom;
    std::vector<SpawnPoint> points;  ///< one per worker count, in --workers order
};

struct SpawnShapeResult {
    RecursionShape shape;
    std::vector<SpawnSeries> series;  ///< one per backend, in --backends order
};

struct SpawnMeasurement {
    std::vector<SpawnShapeResult> shapes;
    std::vector<std::string> failures;
    bool partial = false;
    std::string abandoned;  ///< the run a stop request cut short, e.g. "fib-40 on tbb, 1 worker"
};

std::string workersText(unsigned n) {
    return fmt::format("{} worker{}", n, n == 1 ? "" : "s");
}

/// Sets `abandon` within 20 ms of a stop request, so that a long recursion ends soon.
class AbandonOnStop {
  public:
    AbandonOnStop(const StopRequest& stop, std::atomic<bool>& abandon)
        : thread_([&stop, &abandon](std::stop_token token) {
              while (!token.stop_requested()) {
                  if (stop.requested()) {
                      abandon.store(true, std::memory_order_relaxed);
                      return;
                  }
                  std::this_thread::sleep_for(std::chrono::milliseconds(20));
              }
          }) {}

  private:
    std::jthread thread_;
};

class SpawnMode final : public Mode {
  public:
    std::string_view name() const override { return "spawn"; }
    /// Each point is told apart by its shape, backend and worker count:
    /// `--check='time_per_call[fib-25/pullsched/2]<=60ns'`. The ratio to oneTBB only when
    /// oneTBB runs.
    std::vector<FigureSource> figures() const override {
        std::vector<FigureSource> f{
            {"time_per_call", "shapes[name].backends[name].points[workers].ns_per_call_median"},
            {"speed_up", "shapes[name].backends[name].points[workers].speed_up"}};
        if (runsReference())
            f.insert(f.begin() + 1,
                     {"vs_tbb", "shapes[name].backends[name].points[workers].vs_reference"});
        return f;
    }
    std::vector<FigureRefusal> refusedFigures() const override {
        if (runsReference()) return {};
        return {{"vs_tbb",
                 "the ratio to oneTBB needs tbb among --backends (e.g. --backends=pullsched,tbb); "
                 "without it, compare time_per_call"}};
    }
    std::vector<std::string> selectorLabels() const override {
        std::vector<std::string> labels;
        for (const RecursionShape& s : shapeList_)
            labels.push_back("name=" + recursionLabel(s));
        for (const std::string& b : backendList_)
            labels.push_back("name=" + b);
        for (const unsigned w : workers_)
            labels.push_back(fmt::format("workers={}", w));
        return labels;
    }
    std::string_view summary() const override {
        return "work that jobs create: fibonacci and skynet recursions and parallel loops, each "
               "backend in its own idiom; ns per call (iteration), against oneTBB, and the gain "
               "from more workers";
    }
    void declare(OptionTable& t) override {
        t.group("Recursion");
        t.text("shapes", shapes_, "LIST",
               fmt::format("shapes, comma-separated: fib:N (fib(n) spawns fib(n-1) and goes "
                           "on with fib(n-2) itself; N <= {}) and skynet:D (every call spawns 10 "
                           "until depth D; D <= {}), loop:N (a parallel loop of N iterations, "
                           "each out[i] += 1; N <= {}) and loop1us:N (each iteration 1 us of the "
                           "calibrated load first; N <= {})",
                           kMaxFib, kMaxSkynetDepth, kMaxLoop, kMaxLoop1us),
               [](const std::string& v) {
                   parseShapes(v);
                   return v;
               });
        t.countList("workers", workers_, 1, 1024,
                    "worker counts, e.g. 1,2; speed-up is taken against the first");
        t.count("reps", reps_, 1, 1000, "measured runs of each shape, backend and worker count");
        t.duration("settle", settle_, 0ns, 1s,
                   "pause before every run, so that the threads of the backend that ran "
                   "before (oneTBB's and OpenMP's spin after a run) are idle and every run "
                   "starts from idle workers; 0: back to back");
        t.group("Backends");
        std::string names;
        for (const std::string& b : BackendRegistry::recursionNames())
            names += fmt::format("{}{} ({})", names.empty() ? "" : "; ", b,
                                 BackendRegistry::recursionRunner(b)->idiom());
        backends_.declareList(
            t, fmt::format("schedulers that run the recursions, each in its own idiom, "
                           "comma-separated, or all: {}. The ratios are taken against {} when "
                           "it runs",
                           names, kReference));
        t.count("backend-warmup", backends_.warmup, 0, 100,
                "untimed runs of each shape, backend and worker count before the measured ones");
        t.flag("trace-json", traceJson_,
               "not accepted here: a call takes tens of nanoseconds and the run is timed as a "
               "whole, so timing every call would change what is measured");
    }
    void validate(const OptionTable&) override {
        // Declared only to say why it is refused: the other modes' list would not.
        if (traceJson_)
            throw UsageError(
                "--trace-json does not apply to --mode=spawn: a call takes tens of nanoseconds "
                "and the run is timed as a whole, so timing every call's start and end would "
                "change what is measured (--mode=granularity --trace-json traces small jobs)");
        shapeList_ = parseShapes(shapes_);
        backendList_ = backends_.names();
    }

    ModeResult run(RunContext& ctx) override {
        ModeResult r;
        std::uint64_t microsecondUnits = 0;
        if (std::any_of(shapeList_.begin(), shapeList_.end(),
                        [](const RecursionShape& s) { return s.kind == RecursionKind::Loop1us; })) {
            const JobBody body("cpu", &ctx.progress);  // loop1us spins the rig's 1 us job body
            microsecondUnits = body.load().unitsFor(std::chrono::microseconds(1));
            r.calibration = body.json();
        }
        const SpawnMeasurement m = measure(ctx, microsecondUnits);
        r.name = "spawn";
        r.partial = m.partial;
        r.failures = m.failures;
        r.systemFailure = !m.failures.empty();
        if (!m.abandoned.empty())
            r.warnings.push_back(fmt::format(
                "the run of {} was abandoned at the stop request: no figure from it", m.abandoned));
        r.text = textLines(m);
        r.verdict = verdict(m);
        r.result = resultJson(m);
        r.tables.push_back({"", pointsTable(m)});
        r.tables.push_back({"-runs", runsTable(m)});
        for (const SpawnShapeResult& s : m.shapes)
            speedPicture(r, s);
        return r;
    }

  private:
    bool runsReference() const {
        const std::vector<std::string> names = backends_.names();
        return std::find(names.begin(), names.end(), kReference) != names.end();
    }

    static std::vector<RecursionShape> parseShapes(const std::string& list) {
        std::vector<RecursionShape> out;
        std::size_t begin = 0;
        while (begin <= list.size()) {
            const std::size_t end = std::min(list.find(',', begin), list.size());
            const std::string item = list.substr(begin, end - begin);
            std::optional<RecursionShape> shape;
            try {
                shape = parseRecursion(item);
            } catch (const std::invalid_argument& e) {
                throw UsageError(fmt::format("--shapes: {}", e.what()));
            }
            if (!shape)
                throw UsageError(
                    fmt::format("--shapes: '{}' is not a spawn shape: give fib:N, skynet:D, "
                                "loop:N or loop1us:N",
                                item));
            // measured twice, it would be reported as two shapes of one name
            if (std::any_of(out.begin(), out.end(), [&](const RecursionShape& o) {
                    return recursionLabel(o) == recursionLabel(*shape);
                }))
                throw UsageError(fmt::format("invalid --shapes='{}': {} is given twice", list,
                                             recursionLabel(*shape)));
            out.push_back(*shape);
            begin = end + 1;
        }
        return out;
    }

    // ---- measure

    /// Worker counts outermost (each its own runners, prepared once), then shapes, then
    /// rounds, and the backends interleaved inside a round, so that a change in the
    /// machine's load meets every backend alike.
    SpawnMeasurement measure(RunContext& ctx, std::uint64_t microsecondUnits) const {
        SpawnMeasurement m;
        for (const RecursionShape& shape : shapeList_) {
            SpawnShapeResult s{shape, {}};
            for (const std::string& b : backendList_) {
                const auto runner = BackendRegistry::recursionRunner(b);
                SpawnSeries series{
                    b, std::string(isLoop(shape) ? runner->loopIdiom() : runner->idiom()), {}};
                for (const unsigned w : workers_) {
                    series.points.emplace_back();
                    series.points.back().workers = w;
                }
                s.series.push_back(std::move(series));
            }
            m.shapes.push_back(std::move(s));
        }
        std::atomic<bool> abandon{false};
        const AbandonOnStop watcher(ctx.stop, abandon);
        const unsigned rounds = backends_.warmup + reps_;
        const std::size_t total = workers_.size() * shapeList_.size();
        std::size_t step = 0;
        for (std::size_t wi = 0; wi < workers_.size() && !m.partial; ++wi) {
            std::vector<std::unique_ptr<RecursionRunner>> runners;
            for (const std::string& b : backendList_) {
                runners.push_back(BackendRegistry::recursionRunner(b));
                runners.back()->prepare(workers_[wi]);  // untimed: threads, arena
                runners.back()->setMicrosecondUnits(microsecondUnits);
            }
            for (SpawnShapeResult& s : m.shapes) {
                ctx.progress.note(
                    fmt::format("{} on {}", recursionLabel(s.shape), workersText(workers_[wi])));
                std::vector<bool> failed(runners.size(), false);
                for (unsigned round = 0; round < rounds && !m.partial; ++round)
                    for (std::size_t bi = 0; bi < runners.size() && !m.partial; ++bi) {
                        if (failed[bi]) continue;
                        SpawnPoint& p = s.series[bi].points[wi];
                        if (settle_ > Duration{0} && ctx.stop.sleepFor(settle_)) {
                            m.partial = true;
                            break;
                        }
                        const RecursionRun run = runners[bi]->run(s.shape, abandon);
                        if (run.abandoned || ctx.stop.requested()) {
                            m.partial = true;
                            if (run.abandoned)
                                m.abandoned =
                                    fmt::format("{} on {}, {}", recursionLabel(s.shape),
                                                s.series[bi].backend, workersText(workers_[wi]));
                            break;
                        }
                        ++p.runs;
                        if (run.result != expectedResult(s.shape)) {
                            failed[bi] = true;
                            m.failures.push_back(
                                failure(s.series[bi].backend, s.shape, workers_[wi], run.result));
                            continue;
                        }
                        ++p.verified;
                        if (round >= backends_.warmup) p.wallUs.push_back(toUs(run.wall));
                    }
                ctx.progress.progress(++step, total,
                                      fmt::format("{} on {} done", recursionLabel(s.shape),
                                                  workersText(workers_[wi])));
                if (m.partial) break;
            }
        }
        analyse(m);
        return m;
    }

    static std::string failure(const std::string& backend, const RecursionShape& shape,
                               unsigned workers, std::uint64_t result) {
        if (isLoop(shape))
            return fmt::format("{} on {} with {} ran {} of its {} indices exactly once", backend,
                               recursionLabel(shape), workersText(workers), result,
                               expectedResult(shape));
        return fmt::format("{} on {} with {} computed {} instead of {}", backend,
                           recursionLabel(shape), workersText(workers), result,
                           expectedResult(shape));
    }

    // ---- analyse

    static void analyse(SpawnMeasurement& m) {
        for (SpawnShapeResult& s : m.shapes) {
            const double calls = static_cast<double>(callCount(s.shape));
            for (SpawnSeries& series : s.series)
                for (SpawnPoint& p : series.points) {
                    std::vector<double> ns;
                    for (const double us : p.wallUs)
                        ns.push_back(us * 1e3 / calls);
                    p.nsPerCall = SampleStatistics::of(ns);
                }
            const auto ref =
                std::find_if(s.series.begin(), s.series.end(),
                             [](const SpawnSeries& x) { return x.backend == kReference; });
            for (SpawnSeries& series : s.series)
                for (std::size_t wi = 0; wi < series.points.size(); ++wi) {
                    SpawnPoint& p = series.points[wi];
                    if (ref != s.series.end())
                        p.vsReference = p.nsPerCall.median / ref->points[wi].nsPerCall.median;
                    p.speedUp = series.points.front().nsPerCall.median / p.nsPerCall.median;
                }
        }
    }

    // ---- present

    std::vector<std::string> textLines(const SpawnMeasurement& m) const {
        std::vector<std::string> text;
        std::string workers;
        for (const unsigned w : workers_)
            workers += (workers.empty() ? "" : ",") + std::to_string(w);
        workers = workers_.size() == 1 ? workersText(workers_.front()) : workers + " workers";
        text.push_back(fmt::format(
            "Spawn: recursions whose jobs spawn their children and parallel loops, on {}; {} "
            "measured runs each after {} warm-up, backends interleaved, {} pause before each; "
            "ns per call (a loop's: per iteration) = median run / calls",
            workers, reps_, backends_.warmup, durationText(settle_)));
        const bool withReference =
            std::find(backendList_.begin(), backendList_.end(), kReference) != backendList_.end();
        std::size_t nameWidth = 10;  // the names line up (pullsched-coro is longer)
        for (const std::string& b : backendList_)
            nameWidth = std::max(nameWidth, b.size());
        for (const SpawnShapeResult& s : m.shapes) {
            const std::string_view per = isLoop(s.shape) ? "iteration" : "call";
            if (isLoop(s.shape))
                text.push_back(fmt::format("{}: {} iterations, each index exactly once",
                                           recursionLabel(s.shape), callCount(s.shape)));
            else
                text.push_back(fmt::format("{}: {} calls, result {}", recursionLabel(s.shape),
                                           callCount(s.shape), expectedResult(s.shape)));
            for (const SpawnSeries& series : s.series)
                for (std::size_t wi = 0; wi < series.points.size(); ++wi) {
                    const SpawnPoint& p = series.points[wi];
                    const auto ns = [](double v) { return fmt::format("{:.1f}", v); };
                    std::string line = fmt::format(
                        "  {:<{}} {:>11}: {:>7} ns per {} [{} .. {}], {} runs", series.backend,
                        nameWidth, workersText(p.workers), textOr(p.nsPerCall.median, ns), per,
                        textOr(p.nsPerCall.min, ns), textOr(p.nsPerCall.max, ns),
                        p.nsPerCall.count);
                    if (withReference && series.backend != kReference)
                        line +=
                            fmt::format(", {} x {}",
                                        textOr(p.vsReference,
                                               [](double v) { return fmt::format("{:.2f}", v); }),
                                        kReference);
                    if (wi > 0)
                        line += fmt::format(
                            ", {} x the speed on {}",
                            textOr(p.speedUp, [](double v) { return fmt::format("{:.2f}", v); }),
                            workers_.front());
                    text.push_back(std::move(line));
                }
        }
        // the idioms, once for the recursions and once for the loops
        for (const bool loops : {false, true}) {
            const auto s =
                std::find_if(m.shapes.begin(), m.shapes.end(),
                             [&](const SpawnShapeResult& x) { return isLoop(x.shape) == loops; });
            if (s == m.shapes.end()) continue;
            for (const SpawnSeries& series : s->series)
                text.push_back(
                    fmt::format("{}{}: {}.", series.backend, loops ? " loop" : "", series.idiom));
        }
        return text;
    }

    std::string verdict(const SpawnMeasurement& m) const {
        std::string v = m.partial ? "interrupted: partial result; " : "";
        if (!m.failures.empty()) v += fmt::format("{} wrong results; ", m.failures.size());
        const std::size_t last = workers_.size() - 1;
        v += fmt::format("on {}:", workersText(workers_[last]));
        const std::string& lead = backendList_.front();
        bool first = true;
        for (const SpawnShapeResult& s : m.shapes) {
            const SpawnPoint& p = s.series.front().points[last];
            v += fmt::format(
                "{} {} {} {} ns per {}", first ? "" : ";", recursionLabel(s.shape), lead,
                textOr(p.nsPerCall.median, [](double x) { return fmt::format("{:.1f}", x); }),
                isLoop(s.shape) ? "iteration" : "call");
            if (lead != kReference && !std::isnan(p.vsReference))
                v += fmt::format(" ({:.2f} x {})", p.vsReference, kReference);
            if (last > 0 && !std::isnan(p.speedUp))
                v += fmt::format(", {:.2f} x the speed on {}", p.speedUp, workers_.front());
            first = false;
        }
        return v;
    }

    nlohmann::json resultJson(const SpawnMeasurement& m) const {
        nlohmann::json j;
        j["workers"] = workers_;
        j["reps"] = reps_;
        j["warmup"] = backends_.warmup;
        j["reference"] = kReference;
        j["shapes"] = nlohmann::json::array();
        for (const SpawnShapeResult& s : m.shapes) {
            nlohmann::json js;
            js["name"] = recursionLabel(s.shape);
            js["kind"] = kindName(s.shape.kind);
            js["size"] = s.shape.size;
            js["calls"] = callCount(s.shape);
            js["result"] = expectedResult(s.shape);
            js["backends"] = nlohmann::json::array();
            for (const SpawnSeries& series : s.series) {
                nlohmann::json jb;
                jb["name"] = series.backend;
                jb["idiom"] = series.idiom;
                jb["points"] = nlohmann::json::array();
                for (const SpawnPoint& p : series.points)
                    jb["points"].push_back({{"workers", p.workers},
                                            {"runs", p.runs},
                                            {"verified", p.verified},
                                            {"wall_us", p.wallUs},
                                            {"ns_per_call_median", jsonNumber(p.nsPerCall.median)},
                                            {"ns_per_call_min", jsonNumber(p.nsPerCall.min)},
                                            {"ns_per_call_max", jsonNumber(p.nsPerCall.max)},
                                            {"vs_reference", jsonNumber(p.vsReference)},
                                            {"speed_up", jsonNumber(p.speedUp)}});
                js["backends"].push_back(std::move(jb));
            }
            j["shapes"].push_back(std::move(js));
        }
        return j;
    }

    CsvTable pointsTable(const SpawnMeasurement& m) const {
        CsvTable t;
        t.addColumn("shape", CsvTable::Kind::Text);
        t.addColumn("calls");
        t.addColumn("workers");
        t.addColumn("backend", CsvTable::Kind::Text);
        t.addColumn("measured runs");
        t.addColumn("ns per call");
        t.addColumn("ns per call min");
        t.addColumn("ns per call max");
        t.addColumn(fmt::format("vs {}", kReference));
        t.addColumn(fmt::format("speed-up vs {} workers", workers_.front()));
        for (const SpawnShapeResult& s : m.shapes)
            for (const SpawnSeries& series : s.series)
                for (const SpawnPoint& p : series.points)
                    t.addRow({recursionLabel(s.shape), double(callCount(s.shape)),
                              double(p.workers), series.backend, double(p.nsPerCall.count),
                              p.nsPerCall.median, p.nsPerCall.min, p.nsPerCall.max, p.vsReference,
                              p.speedUp});
        return t;
    }

    /// One picture per shape: every backend's speed at each worker count, against the
    /// reference backend on the first worker count (the first backend's when the reference
    /// did not run), so both how fast and how well it scales show on one axis.
    void speedPicture(ModeResult& r, const SpawnShapeResult& s) const {
        if (s.series.empty()) return;
        const SpawnSeries* base = &s.series.front();
        for (const SpawnSeries& series : s.series)
            if (series.backend == kReference) base = &series;
        if (base->points.empty()) return;
        const double baseNs = base->points.front().nsPerCall.median;
        const std::string label = recursionLabel(s.shape);
        CsvTable t;
        t.addColumn("workers");
        std::vector<std::string> columns;
        for (const SpawnSeries& series : s.series) {
            columns.push_back(series.backend + " speed");
            t.addColumn(columns.back());
        }
        for (std::size_t w = 0; w < workers_.size(); ++w) {
            std::vector<CsvTable::Cell> row{double(workers_[w])};
            for (const SpawnSeries& series : s.series) {
                const bool has = w < series.points.size() && series.points[w].nsPerCall.count > 0;
                row.emplace_back(has ? baseNs / series.points[w].nsPerCall.median : kMissing);
            }
            t.addRow(std::move(row));
        }
        t.setComment("speed",
                     fmt::format("{} on {}: 1; 2 = twice as many calls per second", base->backend,
                                 workersText(base->points.front().workers)));
        PlotOptions po;
        po.title = fmt::format("{}: speed against {} on {} (higher is better), per backend", label,
                               base->backend, workersText(base->points.front().workers));
        po.xLabel = "--workers";
        po.yLabel = "speed (calls per second, relative)";
        po.xTicStep = 1;
        r.plots.push_back({"-" + label, GnuplotScript::tablePlot(t, "workers", columns, {}, po)});
        r.tables.push_back({"-" + label, std::move(t)});
    }

    static CsvTable runsTable(const SpawnMeasurement& m) {
        CsvTable t;
        t.addColumn("shape", CsvTable::Kind::Text);
        t.addColumn("workers");
        t.addColumn("backend", CsvTable::Kind::Text);
        t.addColumn("run");
        t.addColumn("run us");
        t.addColumn("ns per call");
        for (const SpawnShapeResult& s : m.shapes) {
            const double calls = static_cast<double>(callCount(s.shape));
            for (const SpawnSeries& series : s.series)
                for (const SpawnPoint& p : series.points)
                    for (std::size_t i = 0; i < p.wallUs.size(); ++i)
                        t.addRow({recursionLabel(s.shape), double(p.workers), series.backend,
                                  double(i + 1), p.wallUs[i], p.wallUs[i] * 1e3 / calls});
        }
        return t;
    }

    std::string shapes_ = "fib:25,skynet:6";
    std::vector<unsigned> workers_{1, 2};
    unsigned reps_ = 5;
    Duration settle_ = std::chrono::milliseconds(20);
    BackendOptions backends_{.parse = &BackendRegistry::parseRecursionList};
    std::vector<RecursionShape> shapeList_;
    std::vector<std::string> backendList_;
    bool traceJson_ = false;  ///< only to refuse --trace-json with a reason
};

}  // namespace

std::unique_ptr<Mode> makeSpawnMode() {
    return std::make_unique<SpawnMode>();
}

}  // namespace pullsched::rig
