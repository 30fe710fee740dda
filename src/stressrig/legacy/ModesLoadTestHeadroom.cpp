// Compute headroom — methodology.md §4, seed 004.
//
// Part 1: k = 1 … N parallel copies of a fixed CPU-bound job chain, each copy on its
// own scheduler with one worker (the seed ran k copies of a benchmark, each limited to
// one CPU; separate schedulers keep the copies independent the same way). Per k: CPU %
// of the machine, time until all copies are done (median of 3 repetitions), and the
// efficiency t(1)/t(k). An ideal machine stays at 1.0.
// Part 2: the scheduler itself (--workers, first value) under open load in steps of
// 10 % … 100 % of its nominal capacity workers / --load, each held --hold: throughput,
// CPU and lateness per step; the maximum sustained load is the highest step whose mean
// lateness stays within 2 × the lowest step's value.

#include <algorithm>
#include <atomic>
#include <cmath>
#include <iostream>
#include <thread>

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

namespace {

/// One copy: a chain of `jobs` jobs, each posting the next when done.
struct Chain {
    pullsched::Scheduler* sched = nullptr;
    const testchain::ComputationalLoad* load = nullptr;
    Duration jobLoad{0};
    std::size_t remaining = 0;

    void next() {
        if (remaining == 0) return;
        --remaining;
        sched->postDetached([this] {
            load->invoke(jobLoad);
            next();
        });
    }
};

/// Seconds until k copies of the chain are all done, and the machine CPU % meanwhile.
std::pair<double, double> runCopies(unsigned k, std::size_t jobs, Duration jobLoad,
                                    const testchain::ComputationalLoad& load, unsigned cores) {
    std::vector<std::unique_ptr<pullsched::Scheduler>> scheds;
    std::vector<Chain> chains(k);
    for (unsigned i = 0; i < k; ++i) {
        pullsched::SchedulerConfig cfg;
        cfg.workers = 1;
        scheds.push_back(std::make_unique<pullsched::Scheduler>(cfg));
        chains[i] = Chain{scheds.back().get(), &load, jobLoad, jobs};
    }
    const auto s0 = ProcessSampler::snapshot();
    for (auto& c : chains)
        c.next();
    for (auto& s : scheds)
        s->drain();
    const auto s1 = ProcessSampler::snapshot();
    const double secs = std::chrono::duration<double>(s1.wall - s0.wall).count();
    return {secs, ProcessSampler::cpuPercent(s0, s1) / cores};
}

}  // namespace

int runHeadroomMode(const RigOptions& opt) {
    if (!loadtest::validateCommon(opt, "headroom")) return 2;
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    const unsigned maxCopies = opt.maxCopies ? opt.maxCopies : 2 * cores;
    if (maxCopies > 256) {
        std::cerr << "stressrig: --mode=headroom: --max-copies above 256\n";
        return 2;
    }
    if (opt.hold <= Duration{0}) {
        std::cerr << "stressrig: --mode=headroom: --hold must be positive\n";
        return 2;
    }
    try {
        RigSetup setup(opt);
        Progress progress(opt.quiet, "headroom");
        const auto& load = setup.load(&progress);
        // At least 50 jobs and about 200 ms per copy, so that t(k) is well above noise.
        const std::size_t chainJobs = std::max<std::size_t>(
            50, static_cast<std::size_t>(std::chrono::duration<double>(200ms) / opt.load));
        constexpr int kReps = 3;

        std::vector<loadtest::HeadroomRow> copies;
        for (unsigned k = 1; k <= maxCopies; ++k) {
            std::vector<std::pair<double, double>> reps;
            for (int r = 0; r < kReps; ++r)
                reps.push_back(runCopies(k, chainJobs, opt.load, load, cores));
            std::sort(reps.begin(), reps.end());
            copies.push_back({k, reps[kReps / 2].second, reps[kReps / 2].first, 0});
            progress.progress(k, maxCopies,
                              fmt::format("{} copies: {:.3f} s", k, copies.back().seconds));
        }
        loadtest::computeEfficiency(copies);

        const unsigned workers = opt.primaryWorkers();
        const double capacity = workers / std::chrono::duration<double>(opt.load).count();
        const Duration warm = std::min(opt.warmup, opt.hold / 4);
        struct LoadStep {
            double fraction;
            loadtest::StepResult r;
        };
        std::vector<LoadStep> steps;
        for (int i = 1; i <= 10; ++i) {
            const double f = i / 10.0;
            steps.push_back(
                {f, loadtest::runRateStep(opt, load, f * capacity, workers, opt.hold, warm,
                                          std::max(opt.hold, 2 * loadtest::deadlineWindow(opt)))});
            progress.progress(
                static_cast<std::size_t>(i), 10,
                fmt::format(
                    "{:.0f} % of capacity: CPU {:.0f} %, mean lateness {}", 100 * f,
                    steps.back().r.cpuPercent,
                    Units::formatDuration(Duration{std::llround(steps.back().r.lateness.mean())})));
        }
        std::vector<double> meanLate;
        for (auto& s : steps)
            meanLate.push_back(s.r.lateness.mean());
        // Floor: below ~50 us, lateness is OS wake-up noise, not load (see maxSustainedIndex).
        constexpr double kNoiseFloorNs = 50'000;
        const auto sustained = loadtest::maxSustainedIndex(meanLate, 2.0, kNoiseFloorNs);

        ReportWriter rw(opt, "headroom");
        rw.addConfiguration("chain jobs per copy", std::to_string(chainJobs));
        rw.addConfiguration("repetitions", std::to_string(kReps));
        rw.addConfiguration("cores", std::to_string(cores));
        rw.addConfiguration("hold", Units::formatDuration(opt.hold, true));
        rw.addConfiguration("calibration", setup.calibrationText());
        CsvTable ct({"copies", "cpu %", "time s", "efficiency"});
        for (auto& c : copies)
            ct.addRow({static_cast<double>(c.copies), c.cpuPercent, c.seconds, c.efficiency});
        rw.writeCsv(ct, "-copies");
        PlotOptions pc;
        pc.title = fmt::format("headroom: k copies of a {}-job chain, one worker each", chainJobs);
        rw.writePlot(GnuplotScript::tablePlot(ct, "copies", {"time s"}, {"efficiency"}, pc),
                     "-copies");
        CsvTable lt({"capacity %", "offered rate", "achieved rate", "cpu %", "machine cpu %",
                     "mean lateness us", "p50 lateness us", "p99 lateness us", "drops"});
        for (auto& s : steps)
            lt.addRow({100 * s.fraction, s.r.m.offeredRate, s.r.m.achievedRate, s.r.cpuPercent,
                       s.r.cpuPercent / cores, s.r.lateness.mean() / 1e3,
                       static_cast<double>(s.r.lateness.percentile(50)) / 1e3,
                       static_cast<double>(s.r.lateness.percentile(99)) / 1e3,
                       static_cast<double>(s.r.m.drops)});
        rw.writeCsv(lt, "-load");
        PlotOptions pl;
        pl.title =
            fmt::format("scheduler ({} workers): lateness and throughput vs CPU load", workers);
        rw.writePlot(
            GnuplotScript::tablePlot(lt, "machine cpu %", {"mean lateness us", "p99 lateness us"},
                                     {"achieved rate"}, pl),
            "-load");

        if (opt.json) {
            nlohmann::json j{{"mode", "headroom"}, {"cores", cores}, {"chain_jobs", chainJobs}};
            for (auto& c : copies)
                j["copies"].push_back({{"copies", c.copies},
                                       {"cpu_percent", c.cpuPercent},
                                       {"seconds", c.seconds},
                                       {"efficiency", c.efficiency}});
            for (auto& s : steps)
                j["load"].push_back({{"capacity_fraction", s.fraction},
                                     {"offered_rate", s.r.m.offeredRate},
                                     {"achieved_rate", s.r.m.achievedRate},
                                     {"cpu_percent", s.r.cpuPercent},
                                     {"lateness", loadtest::histogramJson(s.r.lateness)},
                                     {"drops", s.r.m.drops}});
            j["max_sustained_rate"] = sustained ? nlohmann::json(steps[*sustained].r.m.offeredRate)
                                                : nlohmann::json(nullptr);
            loadtest::printJson(j, rw);
        } else {
            std::cout << fmt::format(
                "Compute headroom: {} cores; k copies of a {}-job chain of {} jobs, "
                "one single-worker scheduler each (median of {})\n",
                cores, chainJobs, Units::formatDuration(opt.load), kReps);
            std::cout << "copies, CPU use [%], time to complete [s], efficiency t(1)/t(k)\n";
            for (auto& c : copies)
                std::cout << fmt::format("{:>3}, {:>5.0f}, {:>8.3f}, {:>5.2f}\n", c.copies,
                                         c.cpuPercent, c.seconds, c.efficiency);
            std::cout << fmt::format(
                "\nScheduler, {} workers, open load in steps of its capacity {}:\n", workers,
                Units::formatRate(capacity));
            std::cout << "jobs/s offered, achieved, CPU use [% of machine], mean lateness, p99 "
                         "lateness\n";
            for (std::size_t i = 0; i < steps.size(); ++i) {
                const auto& s = steps[i];
                std::cout << fmt::format(
                    "{:>10}, {:>10}, {:>4.0f}, {:>9}, {:>9}{}\n",
                    Units::formatRate(s.r.m.offeredRate), Units::formatRate(s.r.m.achievedRate),
                    s.r.cpuPercent / cores,
                    Units::formatDuration(Duration{std::llround(s.r.lateness.mean())}),
                    Units::formatDuration(Duration{s.r.lateness.percentile(99)}),
                    sustained && i == *sustained ? "   <- maximum sustained load" : "");
            }
            if (sustained)
                std::cout << fmt::format(
                    "Maximum sustained load (mean lateness <= 2 x max(low-load value {}, noise "
                    "floor 50µs)): {} ({:.0f} % of capacity)\n",
                    Units::formatDuration(Duration{std::llround(meanLate[0])}),
                    Units::formatRate(steps[*sustained].r.m.offeredRate),
                    100 * steps[*sustained].fraction);
            else
                std::cout << "Maximum sustained load: undetermined (no lateness at low load)\n";
            rw.printSummary(std::cout);
        }
        return 0;
    } catch (const UsageError& e) {
        std::cerr << "stressrig: " << e.what() << "\n";
        return 2;
    }
}

}  // namespace pullsched::rig
