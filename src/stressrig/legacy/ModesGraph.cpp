// --mode=topology and --mode=run: one graph, described or run once (or --reps times).
#include <algorithm>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <nlohmann/json.hpp>

#include "ModeSupport.hpp"
#include "pullsched/scheduler/Scheduler.hpp"
#include "report/ChromeTrace.hpp"
#include "report/CsvTable.hpp"
#include "report/GnuplotScript.hpp"
#include "measure/LatencyHistogram.hpp"
#include "legacy/Modes.hpp"
#include "report/Progress.hpp"
#include "legacy/ReportWriter.hpp"
#include "legacy/RigSetup.hpp"
#include "measure/RunInstrument.hpp"
#include "report/Units.hpp"
#include "cli/UsageError.hpp"
#include "pullsched/testchain/DotWriter.hpp"
#include "pullsched/testchain/GraphStatistics.hpp"
#include "pullsched/testchain/LevelSchedule.hpp"
#include "pullsched/testchain/RuleParser.hpp"
#include "pullsched/testchain/ScheduleRunner.hpp"

namespace fs = std::filesystem;

namespace pullsched::rig {

using namespace pullsched::testchain;
using detail::hashHex;
using detail::ms;
using detail::us;

namespace {

std::string seedText(const TestChainGraph& g) {
    return fmt::format("{}", g.seed());
}

/// --dot=FILE: the DOT file and, when Graphviz is there, an SVG beside it.
void writeDotOption(const RigOptions& opt, const TestChainGraph& graph, std::ostream& info) {
    if (!opt.dot || *opt.dot == "-") return;
    const fs::path file = *opt.dot;
    if (file.has_parent_path()) fs::create_directories(file.parent_path());
    ReportWriter::writeAtomically(file, [&](std::ostream& os) { DotWriter::write(os, graph); });
    fs::path svg = file;
    svg.replace_extension(".svg");
    std::string remark;
    if (opt.render && ReportWriter::renderDot(file, svg, &remark))
        fmt::print(info, "DOT written to {} (rendered {})\n", file.string(), svg.string());
    else
        fmt::print(info, "DOT written to {}{}\n", file.string(),
                   remark.empty() ? "" : fmt::format(" ({})", remark));
}

}  // namespace

// ---------------------------------------------------------------- topology

int runTopologyMode(const RigOptions& opt) {
    if (opt.json && opt.dot && *opt.dot == "-")
        throw UsageError("--json and --dot=- both write to stdout; give --dot=FILE");
    RigSetup setup(opt);
    const TestChainGraph graph = setup.graph();
    const GraphStatistics raw(graph, WeightPolicy::Raw);
    const GraphStatistics sched(graph, setup.policy());
    const unsigned P = opt.primaryWorkers();

    if (opt.dot && *opt.dot == "-") DotWriter::write(std::cout, graph);
    // with the DOT on stdout, the report goes to stderr so that stdout stays a DOT file
    std::ostream& report = (opt.dot && *opt.dot == "-") ? std::cerr : std::cout;

    if (opt.json) {
        nlohmann::json j;
        j["pattern"] = setup.label();
        j["rules"] = RuleParser::toString(setup.rules());
        j["seed"] = graph.seed();
        j["hash"] = hashHex(graph.graphHash());
        j["nodes"] = graph.size();
        j["max_fan"] = graph.maxFan();
        j["levels"] = graph.levels();
        j["edges"] = graph.edgeCount();
        j["seeds"] = graph.count(NodeKind::Start);
        j["exits"] = graph.count(NodeKind::Exit);
        j["inner"] = graph.count(NodeKind::Inner);
        j["forks"] = graph.count(NodeKind::Fork);
        j["joins"] = graph.count(NodeKind::Join);
        j["links"] = graph.count(NodeKind::Link);
        j["knots"] = graph.count(NodeKind::Knot);
        j["weight_sum"] = graph.weightSum();
        j["max_width"] = raw.maxWidth();
        j["segments"] = raw.segments();
        j["critical_path"] = raw.criticalPathWeight();
        j["level_widths"] = graph.levelWidths();
        j["scheduled_weight_sum"] = sched.totalWeight();
        j["scheduled_critical_path"] = sched.criticalPathWeight();
        j["load_us"] = us(opt.load);
        j["work_ms"] = ms(sched.work(opt.load));
        j["critical_path_ms"] = ms(sched.criticalPath(opt.load));
        j["workers"] = P;
        j["lower_bound_ms"] = ms(sched.lowerBound(P, opt.load));
        std::cout << j.dump() << '\n';
    } else {
        fmt::print(report, "Topology: pattern {} ({}), {} nodes, maxFan {}, seed {}\n",
                   setup.label(), RuleParser::toString(setup.rules()), graph.size(), graph.maxFan(),
                   seedText(graph));
        fmt::print(report, "graph hash {}  levels {}  edges {}  seeds {}  exits {}\n\n",
                   hashHex(graph.graphHash()), graph.levels(), graph.edgeCount(),
                   graph.count(NodeKind::Start), graph.count(NodeKind::Exit));
        raw.print(report, opt.load);
        fmt::print(report, "\nScheduled with load {}{}:\n", Units::formatDuration(opt.load),
                   setup.policy() == WeightPolicy::UnitIfZero
                       ? " (no weight rule: every node counts as weight 1)"
                       : "");
        fmt::print(report, "  total work      {:>10.3f} ms  ({} x {})\n", ms(sched.work(opt.load)),
                   sched.totalWeight(), Units::formatDuration(opt.load));
        fmt::print(report, "  critical path   {:>10.3f} ms  (weight {})\n",
                   ms(sched.criticalPath(opt.load)), sched.criticalPathWeight());
        fmt::print(report, "  max width       {:>10}\n", sched.maxWidth());
        fmt::print(report, "  lower bound P={} {:>9.3f} ms  = max(work / P, critical path)\n", P,
                   ms(sched.lowerBound(P, opt.load)));
    }
    writeDotOption(opt, graph, opt.json || (opt.dot && *opt.dot == "-") ? std::cerr : std::cout);
    return 0;
}

// ---------------------------------------------------------------- run

namespace {

/// Rows "time ms","concurrency" of the instrumented timeline, relative to `origin`.
CsvTable concurrencyTimeline(const IncidenceCount& count, TimePoint origin) {
    CsvTable t({"time ms", "concurrency"});
    std::vector<int> open(count.slots(), 0);
    int active = 0;
    t.addRow({0.0, 0.0});
    for (const IncidenceCount::Event& e : count.timeline()) {
        int& o = open[e.slot];
        const int before = active;
        if (e.leave) {
            if (o > 0 && --o == 0) --active;
        } else if (o++ == 0) {
            ++active;
        }
        if (active != before) t.addRow({ms(e.when - origin), static_cast<double>(active)});
    }
    return t;
}

struct RepFigures {
    double runtime = 0, expected = 0, lowerBound = 0, concurrency = 0;
    bool ok = false;
};

}  // namespace

int runSingleRunMode(const RigOptions& opt) {
    RigSetup setup(opt);
    const TestChainGraph graph = setup.graph();
    const unsigned W = opt.primaryWorkers();
    const unsigned C = opt.scheduleConcurrency();  // planned parallelism
    Progress progress(opt.quiet || opt.json);

    ReportWriter out(opt, fmt::format("run-{}-{}", setup.label(), graph.size()));
    const ComputationalLoad& load = setup.load(&progress);
    out.addConfiguration("calibration", setup.calibrationText());
    out.addConfiguration("graph hash", hashHex(graph.graphHash()));

    LevelSchedule schedule(graph, setup.policy());
    if (opt.schedule == "default")
        schedule.useDefault(opt.level);
    else
        schedule.adapt(opt.stress, C, opt.load);
    schedule.lifeWindow(opt.lifeWindow);

    RunInstrument instrument(W, graph.size());
    SchedulerConfig cfg;
    cfg.workers = W;
    cfg.observer = &instrument;
    Scheduler scheduler(cfg);
    RunnerConfig rc;
    rc.timeBase = opt.load;
    rc.load = load;
    rc.policy = setup.policy();
    rc.deadlines = opt.lifeWindow > Duration::zero();
    rc.parallelism = C;  // the bound the machine can reach, not W-way
    ScheduleRunner runner(scheduler, graph, schedule, rc);

    CsvTable jobs({"rep", "node", "level", "weight", "worker", "scheduled ms", "start ms", "end ms",
                   "lateness us", "runtime us"});
    CsvTable reps({"rep", "runtime ms", "expected ms", "lower bound ms", "delta ms",
                   "avg concurrency", "lateness p50 us", "lateness p99 us", "deadline misses",
                   "hash ok"});
    LatencyHistogram lateness;
    std::vector<RepFigures> figures;
    std::size_t misses = 0, failedJobs = 0, jobsRun = 0;
    bool allOk = true;
    std::string firstError;
    std::vector<JobRecord> lastRecords;
    CsvTable timeline;
    testchain::RunResult last;
    IncidenceStatistic lastStat;

    for (unsigned rep = 1; rep <= opt.reps; ++rep) {
        instrument.reset();
        testchain::RunResult r = runner.run();
        scheduler.drainFor(std::chrono::seconds{10});  // every onJobEnd is in before we read
        const IncidenceStatistic st = instrument.evaluate();
        LatencyHistogram repLate;
        std::size_t repMisses = 0;
        for (const JobTiming& j : r.jobs) {
            if (j.state == JobState::Expired) ++repMisses;
            if (!j.ran()) continue;
            ++jobsRun;
            lateness.record(j.lateness());
            repLate.record(j.lateness());
            jobs.addRow({double(rep), double(j.node), double(j.level), double(j.weight),
                         double(instrument.workerOf(j.node)), ms(j.scheduledStart),
                         ms(j.actualStart), ms(j.end), us(j.lateness()), us(j.runTime())});
        }
        misses += repMisses;
        failedJobs += r.failed + r.cancelled;
        reps.addRow({double(rep), ms(r.runTime), ms(r.expectedEnd), ms(r.lowerBound),
                     ms(r.runTime - r.expectedEnd), st.avgConcurrency,
                     double(repLate.percentile(50)) / 1e3, double(repLate.percentile(99)) / 1e3,
                     double(repMisses), r.hashOk ? 1.0 : 0.0});
        figures.push_back(
            {ms(r.runTime), ms(r.expectedEnd), ms(r.lowerBound), st.avgConcurrency, r.ok()});
        if (!r.ok()) {
            allOk = false;
            if (firstError.empty())
                firstError = !r.error.empty() ? r.error
                             : !r.hashOk
                                 ? fmt::format("hash mismatch: got {}, expected {}",
                                               hashHex(r.actualHash), hashHex(r.expectedHash))
                                 : fmt::format("{} failed, {} expired, {} cancelled jobs", r.failed,
                                               r.expired, r.cancelled);
        }
        if (rep == opt.reps || r.timedOut) {
            lastRecords = instrument.jobRecords(r);
            timeline = concurrencyTimeline(instrument.incidence(), r.anchor);
            lastStat = st;
        }
        progress.progress(rep, opt.reps,
                          fmt::format("runtime {:.3f} ms, expected {:.3f} ms{}", ms(r.runTime),
                                      ms(r.expectedEnd), r.ok() ? "" : " FAILED"));
        last = std::move(r);
        if (last.timedOut) break;
    }

    auto mean = [&](auto field) {
        double s = 0;
        for (const RepFigures& f : figures)
            s += field(f);
        return figures.empty() ? 0.0 : s / double(figures.size());
    };
    const double runtime = mean([](const RepFigures& f) { return f.runtime; });
    const double expected = mean([](const RepFigures& f) { return f.expected; });
    const double lowerBound = mean([](const RepFigures& f) { return f.lowerBound; });
    const double conc = mean([](const RepFigures& f) { return f.concurrency; });
    double rtMin = 1e300, rtMax = 0;
    for (const RepFigures& f : figures) {
        rtMin = std::min(rtMin, f.runtime);
        rtMax = std::max(rtMax, f.runtime);
    }
    const double efficiency = runtime > 0 ? lowerBound / runtime : 0;
    const auto pct = [&](double p) { return double(lateness.percentile(p)) / 1e3; };

    // ---- files
    out.writeCsv(jobs);
    PlotOptions po;
    po.title = fmt::format("{} ({} nodes), {} workers, load {}: schedule vs. actual", setup.label(),
                           graph.size(), W, Units::formatDuration(opt.load, true));
    po.xLabel = "node";
    po.yLabel = "time since anchor (ms)";
    po.y2Label = "lateness (us)";
    po.style = "points";
    out.writePlot(GnuplotScript::tablePlot(jobs, "node", {"scheduled ms", "start ms", "end ms"},
                                           {"lateness us"}, po));
    if (timeline.rowCount() > 0) {
        PlotOptions tc;
        tc.title =
            fmt::format("concurrency over time (last rep), avg {:.2f}", lastStat.avgConcurrency);
        tc.style = "steps";
        tc.yLabel = "active workers";
        out.writeCsv(timeline, "-concurrency");
        out.writePlot(GnuplotScript::timePlot(timeline, "time ms", {"concurrency"}, tc),
                      "-concurrency");
    }
    if (opt.reps > 1) out.writeCsv(reps, "-reps");
    out.writeDot(graph);
    if (opt.dot) {
        std::ostringstream info;
        writeDotOption(opt, graph, info);
        out.noteWritten(*opt.dot);
    }
    if (opt.traceJson) {
        ChromeTrace trace(fmt::format("stressrig run {}", setup.label()));
        trace.add(lastRecords);
        trace.setOrigin(last.anchor);
        for (const auto& [k, v] : out.configuration())
            trace.setMetadata(k, v);
        if (opt.traceJson->has_parent_path()) fs::create_directories(opt.traceJson->parent_path());
        ReportWriter::writeAtomically(*opt.traceJson, [&](std::ostream& os) { trace.write(os); });
        out.noteWritten(*opt.traceJson);
    }
    if (opt.traceDump) {
        bool dumped = false;
        if (opt.traceDump->has_parent_path()) fs::create_directories(opt.traceDump->parent_path());
        ReportWriter::writeAtomically(
            *opt.traceDump, [&](std::ostream& os) { dumped = scheduler.writeTraceDump(os); });
        if (dumped)
            out.noteWritten(*opt.traceDump);
        else
            fmt::print(std::cerr, "stressrig: this build has no trace points; {} is empty\n",
                       opt.traceDump->string());
    }

    // ---- report
    if (opt.json) {
        nlohmann::json j;
        j["pattern"] = setup.label();
        j["nodes"] = graph.size();
        j["seed"] = graph.seed();
        j["hash"] = hashHex(runner.expectedHash());
        j["workers"] = W;
        j["load_us"] = us(opt.load);
        j["schedule"] = opt.schedule;
        j["stress"] = opt.stress;
        j["reps"] = figures.size();
        j["runtime_ms"] = runtime;
        j["runtime_min_ms"] = rtMin;
        j["runtime_max_ms"] = rtMax;
        j["expected_ms"] = expected;
        j["lower_bound_ms"] = lowerBound;
        j["efficiency"] = efficiency;
        j["avg_concurrency"] = conc;
        j["lateness_p50_us"] = pct(50);
        j["lateness_p90_us"] = pct(90);
        j["lateness_p99_us"] = pct(99);
        j["lateness_max_us"] = double(lateness.max()) / 1e3;
        j["deadline_misses"] = misses;
        j["failed_jobs"] = failedJobs;
        j["jobs_run"] = jobsRun;
        j["hash_ok"] = allOk;
        if (!firstError.empty()) j["error"] = firstError;
        j["calibration"] = setup.calibrationText();
        j["configuration"] = detail::configJson(opt);
        std::vector<std::string> files;
        for (const fs::path& f : out.written())
            files.push_back(f.string());
        j["files"] = files;
        std::cout << j.dump() << '\n';
        out.printSummary(std::cerr);
    } else {
        auto& o = std::cout;
        fmt::print(o,
                   "stressrig run: pattern {} ({} nodes, seed {}, hash {}), {} workers, load {}\n",
                   setup.label(), graph.size(), graph.seed(), hashHex(runner.expectedHash()), W,
                   Units::formatDuration(opt.load));
        fmt::print(o, "schedule: {}, life window {}; calibration: {}\n",
                   opt.schedule == "default"
                       ? fmt::format("default, level {}", Units::formatDuration(opt.level))
                       : fmt::format("adapted, stress {}, concurrency {}", opt.stress, C),
                   Units::formatDuration(opt.lifeWindow), setup.calibrationText());
        fmt::print(o, "  expected time    {:>9.3f} ms\n", expected);
        if (figures.size() > 1)
            fmt::print(
                o, "  actual time      {:>9.3f} ms  (mean of {} reps, min {:.3f}, max {:.3f})\n",
                runtime, figures.size(), rtMin, rtMax);
        else
            fmt::print(o, "  actual time      {:>9.3f} ms\n", runtime);
        fmt::print(o, "  lower bound      {:>9.3f} ms  = max(work / {}, critical path)\n",
                   lowerBound, C);
        fmt::print(o, "  efficiency       {:>9.3f}     (lower bound / actual)\n", efficiency);
        fmt::print(o,
                   "  avg concurrency  {:>9.3f}     (max {}, impeded {:.3f} ms in the last rep)\n",
                   conc, lastStat.maxConcurrency, ms(lastStat.impededTime));
        fmt::print(
            o, "  lateness         p50 {:.1f} us  p90 {:.1f} us  p99 {:.1f} us  max {:.1f} us\n",
            pct(50), pct(90), pct(99), double(lateness.max()) / 1e3);
        fmt::print(o, "  deadline misses  {} of {} jobs\n", misses, graph.size() * figures.size());
        fmt::print(
            o, "  hash check       {}\n",
            allOk ? fmt::format("ok ({} rep{})", figures.size(), figures.size() == 1 ? "" : "s")
                  : fmt::format("FAILED: {}", firstError));
        if (misses > 0)
            fmt::print(
                o,
                "  note: {} jobs missed their deadline (life window {}) and their successors were "
                "cancelled, so the hash cannot match; fewer workers than cores, a lower --stress "
                "or a longer --life-window (0 = none) avoid that\n",
                misses, Units::formatDuration(opt.lifeWindow));
        out.printSummary(o);
    }
    return allOk ? 0 : 1;
}

}  // namespace pullsched::rig
