// Pipeclean: every preset pattern once, quickly, in series — methodology.md §3, seed 000.
//
// Pass/fail depends only on genuine failures: a graph hash that differs from the
// single-threaded recomputation, jobs that failed or were cancelled, or a run that did
// not complete. Deadlines are off (a loaded CI machine must not turn slowness into
// "expired" jobs); timing oddities — a pattern whose longest job took more than
// kOutlierFactor × the median over the patterns, or a job that ran over 10 × its
// nominal time — are reported as warnings and never change the exit code.

#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "pullsched/scheduler/Scheduler.hpp"
#include "analysis/LoadTestAnalysis.hpp"
#include "legacy/LoadTestCore.hpp"
#include "legacy/Modes.hpp"
#include "report/Progress.hpp"
#include "legacy/ReportWriter.hpp"
#include "legacy/RigSetup.hpp"
#include "report/Units.hpp"
#include "cli/UsageError.hpp"
#include "pullsched/testchain/LevelSchedule.hpp"
#include "pullsched/testchain/Presets.hpp"
#include "pullsched/testchain/ScheduleRunner.hpp"

namespace pullsched::rig {

namespace {

constexpr double kOutlierFactor = 5.0;
constexpr double kJobOverrunFactor = 10.0;

struct PatternResult {
    std::string pattern;
    bool ok = false;
    bool hashOk = false;
    std::string error;
    std::size_t nodes = 0, completed = 0, failed = 0, expired = 0, cancelled = 0;
    Duration runTime{0}, expectedEnd{0}, maxJob{0}, maxLateness{0};
    double maxOverrun = 0;  ///< max over jobs of runTime / (weight × timeBase)
    std::vector<std::string> warnings;
};

}  // namespace

int runPipecleanMode(const RigOptions& opt) {
    if (!loadtest::validateCommon(opt, "pipeclean")) return 2;
    if (opt.nodes < 2 || opt.nodes > 100000) {
        std::cerr << "stressrig: --mode=pipeclean: --nodes must be in 2..100000\n";
        return 2;
    }
    // Quick by default: 100 µs jobs unless --load was given.
    const Duration timeBase = opt.loadGiven ? opt.load : Duration{100us};
    try {
        RigSetup setup(opt);
        Progress progress(opt.quiet, "pipeclean");
        const auto& load = setup.load(&progress);
        const unsigned workers = opt.primaryWorkers();
        pullsched::SchedulerConfig cfg;
        cfg.workers = workers;
        pullsched::Scheduler sched(cfg);

        const auto& presets = testchain::presetList();
        std::vector<PatternResult> results;
        for (std::size_t p = 0; p < presets.size(); ++p) {
            PatternResult pr;
            pr.pattern = std::string(presets[p].name);
            try {
                RigOptions po = opt;
                po.pattern = pr.pattern;
                RigSetup ps(po);
                const auto graph = ps.graph(opt.nodes);
                testchain::RunnerConfig rc;
                rc.timeBase = timeBase;
                rc.load = load;
                rc.policy = ps.policy();
                rc.deadlines = false;
                rc.completionLimit = std::chrono::seconds{30};
                testchain::LevelSchedule schedule(graph, rc.policy);
                schedule.useDefault(opt.level);
                testchain::ScheduleRunner runner(sched, graph, schedule, rc);
                const testchain::RunResult r = runner.run();
                pr.ok = r.ok();
                pr.hashOk = r.hashOk;
                pr.error = r.error;
                pr.nodes = r.nodes;
                pr.completed = r.completedJobs;
                pr.failed = r.failed;
                pr.expired = r.expired;
                pr.cancelled = r.cancelled;
                pr.runTime = r.runTime;
                pr.expectedEnd = r.expectedEnd;
                for (const auto& j : r.jobs) {
                    if (!j.ran()) continue;
                    pr.maxJob = std::max(pr.maxJob, j.runTime());
                    pr.maxLateness = std::max(pr.maxLateness, j.lateness());
                    if (j.weight > 0) {
                        const double nominal =
                            std::chrono::duration<double>(j.weight * timeBase).count();
                        pr.maxOverrun =
                            std::max(pr.maxOverrun,
                                     std::chrono::duration<double>(j.runTime()).count() / nominal);
                    }
                }
                if (!pr.hashOk)
                    pr.error += (pr.error.empty() ? "" : "; ") + std::string("hash mismatch");
            } catch (const UsageError&) {
                throw;
            } catch (const std::exception& e) {
                pr.ok = false;
                pr.error = e.what();
            }
            progress.progress(
                p + 1, presets.size(),
                fmt::format("{}: {}", pr.pattern, pr.ok ? "ok" : "FAILED " + pr.error));
            results.push_back(std::move(pr));
        }
        std::vector<double> maxJobs;
        for (auto& r : results)
            maxJobs.push_back(std::chrono::duration<double>(r.maxJob).count());
        const auto out = loadtest::outliers(maxJobs, kOutlierFactor,
                                            std::chrono::duration<double>(timeBase).count());
        std::size_t failures = 0, warnings = 0;
        for (std::size_t i = 0; i < results.size(); ++i) {
            auto& r = results[i];
            if (out[i])
                r.warnings.push_back(fmt::format("max job time {} > {} x median of the patterns",
                                                 Units::formatDuration(r.maxJob), kOutlierFactor));
            if (r.maxOverrun > kJobOverrunFactor)
                r.warnings.push_back(
                    fmt::format("a job ran {:.1f} x its nominal time", r.maxOverrun));
            failures += r.ok ? 0 : 1;
            warnings += r.warnings.size();
        }

        ReportWriter rw(opt, "pipeclean");
        rw.addConfiguration("time base", Units::formatDuration(timeBase, true));
        rw.addConfiguration("calibration", setup.calibrationText());
        CsvTable t;
        t.addColumn("pattern", CsvTable::Kind::Text);
        for (const char* c :
             {"nodes", "completed", "failed", "expired", "cancelled", "hash ok", "run time ms",
              "expected end ms", "max job us", "max lateness us", "max overrun"})
            t.addColumn(c);
        t.addColumn("result", CsvTable::Kind::Text);
        auto ms = [](Duration d) { return std::chrono::duration<double, std::milli>(d).count(); };
        auto us = [](Duration d) { return std::chrono::duration<double, std::micro>(d).count(); };
        for (std::size_t i = 0; i < results.size(); ++i) {
            const auto& r = results[i];
            t.addRow({r.pattern, static_cast<double>(r.nodes), static_cast<double>(r.completed),
                      static_cast<double>(r.failed), static_cast<double>(r.expired),
                      static_cast<double>(r.cancelled), r.hashOk ? 1.0 : 0.0, ms(r.runTime),
                      ms(r.expectedEnd), us(r.maxJob), us(r.maxLateness), r.maxOverrun,
                      std::string(!r.ok                ? "FAIL"
                                  : r.warnings.empty() ? "ok"
                                                       : "warning")});
        }
        rw.writeCsv(t);
        CsvTable pt({"index", "max job us", "max lateness us"});
        for (std::size_t i = 0; i < results.size(); ++i)
            pt.addRow({static_cast<double>(i), us(results[i].maxJob), us(results[i].maxLateness)});
        PlotOptions po;
        po.title = "pipeclean: max job time and lateness per pattern (index = preset order)";
        po.style = "impulses";
        rw.writePlot(
            GnuplotScript::tablePlot(pt, "index", {"max job us", "max lateness us"}, {}, po));

        if (opt.json) {
            nlohmann::json j{{"mode", "pipeclean"},
                             {"workers", workers},
                             {"failures", failures},
                             {"warnings", warnings},
                             {"patterns", nlohmann::json::array()}};
            for (auto& r : results)
                j["patterns"].push_back({{"pattern", r.pattern},
                                         {"ok", r.ok},
                                         {"hash_ok", r.hashOk},
                                         {"error", r.error},
                                         {"nodes", r.nodes},
                                         {"completed", r.completed},
                                         {"failed", r.failed},
                                         {"expired", r.expired},
                                         {"cancelled", r.cancelled},
                                         {"run_time_us", us(r.runTime)},
                                         {"max_job_us", us(r.maxJob)},
                                         {"max_lateness_us", us(r.maxLateness)},
                                         {"warnings", r.warnings}});
            loadtest::printJson(j, rw);
        } else {
            std::cout << fmt::format(
                "Pipeclean: {} patterns, {} nodes each, jobs of {} x weight, {} workers\n",
                results.size(), opt.nodes, Units::formatDuration(timeBase), workers);
            std::cout << fmt::format("{:<12} {:>5} {:>9} {:>9} {:>9} {:>6} {:>5}  {}\n", "pattern",
                                     "nodes", "run", "max job", "max late", "fails", "hash",
                                     "result");
            for (auto& r : results) {
                std::cout << fmt::format(
                    "{:<12} {:>5} {:>9} {:>9} {:>9} {:>6} {:>5}  {}\n", r.pattern, r.nodes,
                    Units::formatDuration(r.runTime), Units::formatDuration(r.maxJob),
                    Units::formatDuration(r.maxLateness), r.failed + r.expired + r.cancelled,
                    r.hashOk ? "ok" : "BAD",
                    !r.ok                ? "FAIL " + r.error
                    : r.warnings.empty() ? "ok"
                                         : "warning");
                for (auto& w : r.warnings)
                    std::cout << "    warning: " << w << "\n";
            }
            std::cout << fmt::format(
                "{}: {} of {} patterns failed, {} timing warning(s) (warnings do not fail "
                "the run)\n",
                failures ? "FAILED" : "PASSED", failures, results.size(), warnings);
            rw.printSummary(std::cout);
        }
        return failures ? 1 : 0;
    } catch (const UsageError& e) {
        std::cerr << "stressrig: " << e.what() << "\n";
        return 2;
    }
}

}  // namespace pullsched::rig
