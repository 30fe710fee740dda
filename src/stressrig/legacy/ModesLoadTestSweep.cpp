// Offered-rate sweep: stable / burst / failure per worker count — methodology.md §2,
// seed 001.

#include <cmath>
#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "analysis/LoadClassifier.hpp"
#include "analysis/LoadTestAnalysis.hpp"
#include "legacy/LoadTestCore.hpp"
#include "legacy/Modes.hpp"
#include "report/Progress.hpp"
#include "legacy/ReportWriter.hpp"
#include "legacy/RigSetup.hpp"
#include "report/Units.hpp"
#include "cli/UsageError.hpp"

namespace pullsched::rig {

namespace {

struct SweepRow {
    unsigned workers = 0;
    loadtest::StepResult step;
    StepVerdict verdict;
};

std::string rateOrDash(const std::optional<double>& r) {
    return r ? Units::formatRate(*r) : std::string("-");
}

}  // namespace

int runSweepMode(const RigOptions& opt) {
    if (!loadtest::validateCommon(opt, "sweep")) return 2;
    const std::vector<double> rates = loadtest::sweepRates(opt.from, opt.to, opt.step);
    if (rates.empty()) {
        std::cerr << "stressrig: --mode=sweep: need 0 < --from <= --to and --step >= 0 (jobs/s)\n";
        return 2;
    }
    if (rates.size() > 1000) {
        std::cerr << "stressrig: --mode=sweep: more than 1000 steps; raise --step\n";
        return 2;
    }
    if (opt.hold <= Duration{0}) {
        std::cerr << "stressrig: --mode=sweep: --hold must be positive\n";
        return 2;
    }
    if (rates.back() * std::chrono::duration<double>(opt.hold).count() > 2e9) {
        std::cerr << "stressrig: --mode=sweep: --to x --hold is too many jobs\n";
        return 2;
    }
    try {
        RigSetup setup(opt);
        Progress progress(opt.quiet, "sweep");
        const auto& load = setup.load(&progress);
        ClassifierLimits limits;
        limits.latenessLimit = opt.limit;
        const LoadClassifier classifier(limits);
        const Duration warm = std::min(opt.warmup, opt.hold / 4);
        const Duration drainLimit = std::max(opt.hold, 2 * loadtest::deadlineWindow(opt));

        std::vector<SweepRow> rows;
        std::vector<std::pair<unsigned, SweepSummary>> summaries;
        const std::size_t total = rates.size() * opt.workers.size();
        std::size_t done = 0;
        for (unsigned w : opt.workers) {
            std::vector<StepMeasurement> ms;
            for (double rate : rates) {
                SweepRow row;
                row.workers = w;
                row.step = loadtest::runRateStep(opt, load, rate, w, opt.hold, warm, drainLimit);
                row.verdict = classifier.classify(row.step.m);
                ms.push_back(row.step.m);
                progress.progress(++done, total,
                                  fmt::format("{} workers, {}: {} ({})", w, Units::formatRate(rate),
                                              toString(row.verdict.loadClass), row.verdict.reason));
                const bool failed = row.verdict.loadClass == LoadClass::Failure;
                rows.push_back(std::move(row));
                if (failed) {  // beyond the first failure nothing new is learnt
                    done += rates.size() - ms.size();
                    break;
                }
            }
            summaries.emplace_back(w, classifier.summarize(ms));
        }

        ReportWriter rw(opt, "sweep");
        rw.addConfiguration("hold", Units::formatDuration(opt.hold, true));
        rw.addConfiguration("warmup per step", Units::formatDuration(warm, true));
        rw.addConfiguration("lateness limit", Units::formatDuration(opt.limit, true));
        rw.addConfiguration("deadline window",
                            Units::formatDuration(loadtest::deadlineWindow(opt), true));
        rw.addConfiguration("backlog bound", fmt::format("{}", limits.backlogBound));
        rw.addConfiguration("arrival", opt.arrival);
        rw.addConfiguration("calibration", setup.calibrationText());
        CsvTable t;
        for (const char* c : {"workers", "offered rate", "achieved rate", "cpu %", "rss MB",
                              "mean lateness us", "p99 lateness us", "jobs", "drops", "failures",
                              "backlog end", "backlog after drain", "drained"})
            t.addColumn(c);
        t.addColumn("class", CsvTable::Kind::Text);
        t.addColumn("reason", CsvTable::Kind::Text);
        for (const auto& r : rows) {
            const auto& m = r.step.m;
            t.addRow({static_cast<double>(r.workers), m.offeredRate, m.achievedRate,
                      r.step.cpuPercent, static_cast<double>(r.step.rssBytes) / 1048576.0,
                      r.step.lateness.mean() / 1e3,
                      static_cast<double>(r.step.lateness.percentile(99)) / 1e3,
                      static_cast<double>(m.jobs), static_cast<double>(m.drops),
                      static_cast<double>(m.failures), m.backlogEnd,
                      m.backlogAfterDrain.value_or(0), m.drained.value_or(true) ? 1.0 : 0.0,
                      std::string(toString(r.verdict.loadClass)), r.verdict.reason});
        }
        rw.writeCsv(t);
        for (unsigned w : opt.workers) {
            CsvTable sub({"offered rate", "achieved rate", "p99 lateness us", "cpu %"});
            for (const auto& r : rows)
                if (r.workers == w)
                    sub.addRow({r.step.m.offeredRate, r.step.m.achievedRate,
                                static_cast<double>(r.step.lateness.percentile(99)) / 1e3,
                                r.step.cpuPercent});
            PlotOptions po;
            po.title = fmt::format("sweep, {} workers: achieved rate and p99 lateness (limit {})",
                                   w, Units::formatDuration(opt.limit, true));
            po.logY = false;
            rw.writePlot(GnuplotScript::tablePlot(sub, "offered rate", {"achieved rate"},
                                                  {"p99 lateness us"}, po),
                         fmt::format("-w{}", w));
        }

        if (opt.json) {
            nlohmann::json j{{"mode", "sweep"},
                             {"steps", nlohmann::json::array()},
                             {"levels", nlohmann::json::array()}};
            for (const auto& r : rows) {
                const auto& m = r.step.m;
                j["steps"].push_back({{"workers", r.workers},
                                      {"offered_rate", m.offeredRate},
                                      {"achieved_rate", m.achievedRate},
                                      {"cpu_percent", r.step.cpuPercent},
                                      {"rss_bytes", r.step.rssBytes},
                                      {"lateness", loadtest::histogramJson(r.step.lateness)},
                                      {"jobs", m.jobs},
                                      {"drops", m.drops},
                                      {"failures", m.failures},
                                      {"backlog_end", m.backlogEnd},
                                      {"backlog_after_drain", m.backlogAfterDrain.value_or(0)},
                                      {"drained", m.drained.value_or(true)},
                                      {"class", toString(r.verdict.loadClass)},
                                      {"reason", r.verdict.reason}});
            }
            auto opt2json = [](const std::optional<double>& v) {
                return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
            };
            for (const auto& [w, s] : summaries)
                j["levels"].push_back({{"workers", w},
                                       {"highest_stable", opt2json(s.highestStable)},
                                       {"highest_burst", opt2json(s.highestBurst)},
                                       {"first_failure", opt2json(s.firstFailure)},
                                       {"consistent", s.consistent}});
            loadtest::printJson(j, rw);
        } else {
            std::cout << fmt::format("Sweep: jobs of {}, hold {}, lateness limit {}, {} arrivals\n",
                                     Units::formatDuration(opt.load),
                                     Units::formatDuration(opt.hold),
                                     Units::formatDuration(opt.limit), opt.arrival);
            std::cout << fmt::format(
                "{:>3} {:>10} {:>10} {:>6} {:>7} {:>10} {:>10} {:>7} {:>6} {:>5} {:>8}  {}\n", "W",
                "offered", "achieved", "CPU%", "RSS MB", "mean late", "p99 late", "jobs", "drops",
                "fail", "backlog", "class");
            for (const auto& r : rows) {
                const auto& m = r.step.m;
                std::cout << fmt::format(
                    "{:>3} {:>10} {:>10} {:>6.0f} {:>7.1f} {:>10} {:>10} {:>7} {:>6} {:>5} "
                    "{:>8.0f}  {}\n",
                    r.workers, Units::formatRate(m.offeredRate), Units::formatRate(m.achievedRate),
                    r.step.cpuPercent, static_cast<double>(r.step.rssBytes) / 1048576.0,
                    Units::formatDuration(Duration{std::llround(r.step.lateness.mean())}),
                    Units::formatDuration(Duration{r.step.lateness.percentile(99)}), m.jobs,
                    m.drops, m.failures, m.backlogEnd, toString(r.verdict.loadClass));
            }
            std::cout << "Levels (stable: keeps up, p99 within the limit, no drops; burst: over a "
                         "limit but drains; failure: drops or no drain):\n";
            for (const auto& [w, s] : summaries)
                std::cout << fmt::format(
                    "  {} workers: highest stable {}, highest burst {}, first failure {}{}\n", w,
                    rateOrDash(s.highestStable), rateOrDash(s.highestBurst),
                    rateOrDash(s.firstFailure),
                    s.consistent ? "" : " (not monotonic: repeat with a longer --hold)");
            rw.printSummary(std::cout);
        }
        return 0;
    } catch (const UsageError& e) {
        std::cerr << "stressrig: " << e.what() << "\n";
        return 2;
    }
}

}  // namespace pullsched::rig
