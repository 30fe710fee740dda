// Open (fixed arrival rate) and closed (fixed users) load — methodology.md §1, seed 003.

#include <cmath>
#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "analysis/LoadTestAnalysis.hpp"
#include "legacy/LoadTestCore.hpp"
#include "legacy/Modes.hpp"
#include "report/Progress.hpp"
#include "legacy/ReportWriter.hpp"
#include "legacy/RigSetup.hpp"
#include "report/Units.hpp"
#include "cli/UsageError.hpp"

namespace pullsched::rig {

using loadtest::LoadRunResult;

namespace {

constexpr double kPercentiles[] = {0, 50, 75, 90, 95, 99, 99.9, 99.99, 100};

std::string dur(Duration d) {
    return Units::formatDuration(d);
}
std::string durNs(double ns) {
    return Units::formatDuration(Duration{std::llround(ns)});
}

void addRunConfiguration(ReportWriter& rw, const RigOptions& opt, const RigSetup& setup) {
    rw.addConfiguration("duration", Units::formatDuration(opt.duration, true));
    rw.addConfiguration("warmup", Units::formatDuration(opt.warmup, true));
    rw.addConfiguration("arrival", opt.arrival);
    rw.addConfiguration("deadline window",
                        Units::formatDuration(loadtest::deadlineWindow(opt), true));
    rw.addConfiguration("calibration", setup.calibrationText());
}

/// Latency distribution rows of one or more runs: "percentile", then one column per run.
CsvTable percentileTable(const std::vector<const LoadRunResult*>& runs) {
    CsvTable t;
    t.addColumn("percentile");
    t.addColumn("nines");  // −log10(1 − p/100), the usual x axis of latency plots
    for (auto* r : runs)
        t.addColumn(r->method + " lateness us");
    for (double p : kPercentiles) {
        std::vector<CsvTable::Cell> row{p, p >= 100 ? 5.0 : -std::log10(1 - p / 100)};
        for (auto* r : runs)
            row.emplace_back(static_cast<double>(r->lateness.percentile(p)) / 1e3);
        t.addRow(std::move(row));
    }
    return t;
}

CsvTable timeSeries(const LoadRunResult& r) {
    CsvTable t({"time s", "backlog", "cpu %", "rss MB"});
    for (const auto& s : r.samples)
        t.addRow({std::chrono::duration<double>(s.t).count(),
                  static_cast<double>(std::max<std::int64_t>(0, s.queueDepth)), s.cpuPercent,
                  static_cast<double>(s.rssBytes) / 1048576.0});
    return t;
}

CsvTable summaryTable(const std::vector<const LoadRunResult*>& runs) {
    CsvTable t;
    t.addColumn("method", CsvTable::Kind::Text);
    for (const char* c : {"offered rate", "achieved rate", "jobs", "measured", "deadline drops",
                          "failures", "mean us", "p50 us", "p90 us", "p99 us", "p99.9 us", "max us",
                          "cpu %", "generator cpu %", "rss MB", "max backlog"})
        t.addColumn(c);
    for (auto* r : runs) {
        const auto& h = r->lateness;
        auto us = [](std::int64_t ns) { return static_cast<double>(ns) / 1e3; };
        t.addRow({r->method, r->offeredRate, r->achievedRate, static_cast<double>(r->posted),
                  static_cast<double>(r->measured), static_cast<double>(r->expired),
                  static_cast<double>(r->failed), h.mean() / 1e3, us(h.percentile(50)),
                  us(h.percentile(90)), us(h.percentile(99)), us(h.percentile(99.9)), us(h.max()),
                  r->cpuPercent, r->generatorCpuPercent,
                  static_cast<double>(r->rssMaxBytes) / 1048576.0,
                  static_cast<double>(r->maxBacklog)});
    }
    return t;
}

void printRun(std::ostream& os, const LoadRunResult& r) {
    os << fmt::format(
        "{:>6}: offered {}  achieved {}  jobs {} (measured {})  drops {}  failed {}\n", r.method,
        Units::formatRate(r.offeredRate), Units::formatRate(r.achievedRate), r.posted, r.measured,
        r.expired, r.failed);
    os << fmt::format("        lateness {}\n", loadtest::percentileLine(r.lateness));
    os << fmt::format(
        "        CPU {:.0f} % (generator {:.1f} %)  RSS max {:.1f} MiB  max backlog {}{}\n",
        r.cpuPercent, r.generatorCpuPercent, static_cast<double>(r.rssMaxBytes) / 1048576.0,
        r.maxBacklog,
        r.postedLate ? fmt::format("  posted late by the generator: {}", r.postedLate)
                     : std::string{});
}

int usage(const std::exception& e) {
    std::cerr << "stressrig: " << e.what() << "\n";
    return 2;
}

bool validateTimed(const RigOptions& opt, const char* mode) {
    if (!loadtest::validateCommon(opt, mode)) return false;
    auto bad = [&](const std::string& m) {
        std::cerr << "stressrig: --mode=" << mode << ": " << m << "\n";
        return false;
    };
    if (opt.duration <= Duration{0}) return bad("--duration must be positive");
    if (opt.warmup >= opt.duration) return bad("--warmup must be shorter than --duration");
    return true;
}

}  // namespace

int runOpenMode(const RigOptions& opt) {
    if (!validateTimed(opt, "open")) return 2;
    if (!(opt.rate > 0) || !std::isfinite(opt.rate) ||
        opt.rate * std::chrono::duration<double>(opt.duration).count() > 2e9) {
        std::cerr
            << "stressrig: --mode=open: --rate must be positive (and rate x duration < 2e9)\n";
        return 2;
    }
    try {
        RigSetup setup(opt);
        Progress progress(opt.quiet, "open");
        const auto& load = setup.load(&progress);
        progress.note(fmt::format("open load: {} for {}, {} workers, jobs of {}",
                                  Units::formatRate(opt.rate), dur(opt.duration),
                                  opt.primaryWorkers(), dur(opt.load)));
        const LoadRunResult r = loadtest::runOpenLoad(opt, load, opt.rate, opt.primaryWorkers());

        ReportWriter rw(opt, "open");
        addRunConfiguration(rw, opt, setup);
        auto ts = timeSeries(r);
        rw.writeCsv(ts);
        PlotOptions po;
        po.title =
            fmt::format("open load {} — backlog and CPU over time", Units::formatRate(opt.rate));
        rw.writePlot(GnuplotScript::tablePlot(ts, "time s", {"backlog"}, {"cpu %"}, po));
        auto pt = percentileTable({&r});
        rw.writeCsv(pt, "-latency");
        PlotOptions pl;
        pl.title = "open load: start lateness by percentile (x: nines)";
        rw.writePlot(GnuplotScript::tablePlot(pt, "nines", {"open lateness us"}, {}, pl),
                     "-latency");
        auto st = summaryTable({&r});
        rw.writeCsv(st, "-summary");

        if (opt.json) {
            nlohmann::json j = loadtest::runJson(r);
            j["mode"] = "open";
            j["workers"] = opt.primaryWorkers();
            loadtest::printJson(j, rw);
        } else {
            std::cout << fmt::format(
                "Open load ({} arrivals, {} workers, jobs of {}, warm-up {} excluded)\n",
                opt.arrival, opt.primaryWorkers(), dur(opt.load), dur(opt.warmup));
            printRun(std::cout, r);
            std::cout << "Lateness = actual start − intended start (from the timetable), so "
                         "queueing delay is never hidden.\n";
            rw.printSummary(std::cout);
        }
        return r.failed ? 1 : 0;
    } catch (const UsageError& e) {
        return usage(e);
    }
}

int runClosedMode(const RigOptions& opt) {
    if (!validateTimed(opt, "closed")) return 2;
    if (opt.users == 0 || opt.users > 100000) {
        std::cerr << "stressrig: --mode=closed: --users must be in 1..100000\n";
        return 2;
    }
    try {
        RigSetup setup(opt);
        Progress progress(opt.quiet, "closed");
        const auto& load = setup.load(&progress);
        const unsigned workers = opt.primaryWorkers();
        progress.note(fmt::format("closed load: {} users for {}, {} workers, jobs of {}", opt.users,
                                  dur(opt.duration), workers, dur(opt.load)));
        const LoadRunResult closed = loadtest::runClosedLoad(opt, load, workers);
        // The same scheduler, job and rate measured open: the rate the closed users reached.
        std::optional<LoadRunResult> open;
        if (closed.achievedRate > 0) {
            progress.note(fmt::format("open load at the closed rate {}",
                                      Units::formatRate(closed.achievedRate)));
            open = loadtest::runOpenLoad(opt, load, closed.achievedRate, workers);
        }
        std::vector<const LoadRunResult*> runs{&closed};
        if (open) runs.push_back(&*open);

        ReportWriter rw(opt, "closed");
        addRunConfiguration(rw, opt, setup);
        rw.addConfiguration("users", std::to_string(opt.users));
        auto st = summaryTable(runs);
        rw.writeCsv(st);
        auto pt = percentileTable(runs);
        rw.writeCsv(pt, "-latency");
        PlotOptions pl;
        pl.title = "closed vs open at the same rate: start latency by percentile (x: nines)";
        pl.logY = true;
        std::vector<std::string> ys;
        for (auto* r : runs)
            ys.push_back(r->method + " lateness us");
        rw.writePlot(GnuplotScript::tablePlot(pt, "nines", ys, {}, pl), "-latency");
        auto ts = timeSeries(closed);
        rw.writeCsv(ts, "-timeseries");

        if (opt.json) {
            nlohmann::json j{{"mode", "closed"}, {"workers", workers}, {"users", opt.users}};
            j["closed"] = loadtest::runJson(closed);
            if (open) j["open"] = loadtest::runJson(*open);
            loadtest::printJson(j, rw);
        } else {
            std::cout << fmt::format(
                "Closed vs open load ({} workers, jobs of {}, warm-up {} excluded)\n", workers,
                dur(opt.load), dur(opt.warmup));
            printRun(std::cout, closed);
            if (open) printRun(std::cout, *open);
            std::cout << fmt::format(
                "Closed: each of the {} users submits its next job only when the previous one is "
                "done, so the load adapts to the scheduler and the latency counts from the actual "
                "submission: time a user could not submit is never measured (coordinated "
                "omission, seed 003).\n"
                "Open: the same jobs at the same rate on a fixed timetable; lateness counts from "
                "the intended start, so queueing shows.",
                opt.users);
            if (open) {
                const double c99 = static_cast<double>(closed.lateness.percentile(99));
                const double o99 = static_cast<double>(open->lateness.percentile(99));
                std::cout << fmt::format(" Here p99: closed {} vs open {}", durNs(c99), durNs(o99));
                if (c99 > 0) std::cout << fmt::format(" ({:.1f}x)", o99 / c99);
            }
            std::cout << ".\n";
            rw.printSummary(std::cout);
        }
        return closed.failed || (open && open->failed) ? 1 : 0;
    } catch (const UsageError& e) {
        return usage(e);
    }
}

}  // namespace pullsched::rig
