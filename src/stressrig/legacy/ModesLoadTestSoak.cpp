// Soak: moderate open load for a long time, sampled per interval, with a trend verdict
// — methodology.md §3, seed 000.
//
// Memory stays flat however long it runs: the scheduler pools its job records, the
// arrivals are generated one interval at a time (one timetable chunk, reused storage),
// lateness goes into pre-sized per-worker histograms that are harvested and reset at
// every interval boundary, and per interval only one small row is kept.

#include <algorithm>
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

struct SoakRow {
    loadtest::SoakInterval i;
    double p50Us = 0, maxUs = 0;
    std::uint64_t jobs = 0, drops = 0, measured = 0;
};

}  // namespace

int runSoakMode(const RigOptions& opt) {
    if (!loadtest::validateCommon(opt, "soak")) return 2;
    auto bad = [](const char* m) {
        std::cerr << "stressrig: --mode=soak: " << m << "\n";
        return 2;
    };
    if (opt.duration <= Duration{0}) return bad("--duration must be positive");
    if (opt.interval <= Duration{0}) return bad("--interval must be positive");
    if (opt.interval > opt.duration) return bad("--interval must not exceed --duration");
    if (opt.duration / opt.interval > 1'000'000) return bad("more than 10^6 intervals");
    const unsigned workers = opt.primaryWorkers();
    const double capacity = workers / std::chrono::duration<double>(opt.load).count();
    // RigOptions cannot tell an explicit --rate from its default: the default means
    // "moderate", i.e. half the nominal capacity workers / load.
    const double rate = opt.rateGiven ? opt.rate : 0.5 * capacity;
    if (!(rate > 0) || !std::isfinite(rate) ||
        rate * std::chrono::duration<double>(opt.interval).count() > 1e8)
        return bad("--rate must be positive (and rate x interval < 1e8)");
    try {
        RigSetup setup(opt);
        Progress progress(opt.quiet, "soak");
        const auto& load = setup.load(&progress);
        const std::size_t intervals = static_cast<std::size_t>(
            (opt.duration.count() + opt.interval.count() - 1) / opt.interval.count());
        progress.note(
            fmt::format("soak: {} ({:.0f} % of capacity {}) for {}, {} intervals of {}, {} workers",
                        Units::formatRate(rate), 100 * rate / capacity, Units::formatRate(capacity),
                        Units::formatDuration(opt.duration), intervals,
                        Units::formatDuration(opt.interval), workers));

        loadtest::LatencyRecorder recorder(workers);
        pullsched::SchedulerConfig cfg;
        cfg.workers = workers;
        cfg.observer = &recorder;
        cfg.initialJobCapacity = 1 << 14;
        pullsched::Scheduler sched(cfg);
        loadtest::OpenPlayConfig pc;
        pc.jobLoad = opt.load;
        pc.warmup = std::min(opt.warmup, opt.interval);
        pc.deadlineWindow = loadtest::deadlineWindow(opt);
        loadtest::OpenLoadDriver driver(sched, load, pc);
        ProcessSampler sampler(opt.interval, [&driver] { return driver.backlog(); });

        std::vector<SoakRow> rows;
        rows.reserve(intervals);
        LatencyHistogram hist;  // one interval's lateness, reused
        const TimePoint origin = sched.now() + 2ms;
        std::size_t harvested = 0;
        auto prevSnap = ProcessSampler::snapshot();
        auto prevStats = sched.stats();
        std::uint64_t prevPosted = 0, prevMeasured = 0;
        auto harvest = [&](TimePoint now) {
            if (harvested >= intervals || now < origin + (harvested + 1) * opt.interval) return;
            recorder.harvest(hist);
            const auto snap = ProcessSampler::snapshot();
            const auto st = sched.stats();
            const double secs = std::chrono::duration<double>(snap.wall - prevSnap.wall).count();
            SoakRow r;
            r.i.tSeconds = std::chrono::duration<double>((harvested + 1) * opt.interval).count();
            r.i.throughput =
                secs > 0 ? static_cast<double>(st.completed - prevStats.completed) / secs : 0;
            r.i.latenessP99Us = static_cast<double>(hist.percentile(99)) / 1e3;
            r.i.rssBytes = static_cast<double>(snap.rssBytes);
            r.i.cpuPercent = ProcessSampler::cpuPercent(prevSnap, snap);
            r.i.queueDepth = static_cast<double>(driver.backlog());
            r.p50Us = static_cast<double>(hist.percentile(50)) / 1e3;
            r.maxUs = static_cast<double>(hist.max()) / 1e3;
            r.jobs = driver.posted() - prevPosted;
            r.measured = hist.count();
            r.drops = st.expired - prevStats.expired;
            rows.push_back(r);
            hist.reset();
            prevSnap = snap;
            prevStats = st;
            prevPosted = driver.posted();
            prevMeasured = driver.measured();
            ++harvested;
            progress.progress(
                harvested, intervals,
                fmt::format("{} done/s, p99 {}, RSS {:.1f} MiB, CPU {:.0f} %, backlog {:.0f}",
                            Units::formatRate(r.i.throughput),
                            Units::formatDuration(Duration{std::llround(r.i.latenessP99Us * 1e3)}),
                            r.i.rssBytes / 1048576.0, r.i.cpuPercent, r.i.queueDepth));
        };

        sampler.start();
        for (std::size_t k = 0; k < intervals; ++k) {
            const Duration base = k * opt.interval;
            const Duration len = std::min(opt.interval, opt.duration - base);
            const ArrivalTimetable chunk =
                opt.arrival == "poisson" ? ArrivalTimetable::poisson(rate, len, opt.sampleSeed + k)
                                         : ArrivalTimetable::constant(rate, len);
            driver.play(chunk, base, origin, harvest);
        }
        while (harvested < intervals) {
            std::this_thread::sleep_until(origin + (harvested + 1) * opt.interval);
            harvest(sched.now());
        }
        const bool drained = driver.drain(std::max<Duration>(2 * pc.deadlineWindow, 2s));
        sampler.stop();
        (void)prevMeasured;

        std::vector<loadtest::SoakInterval> iv;
        for (auto& r : rows)
            iv.push_back(r.i);
        const loadtest::SoakTrend trend = loadtest::soakTrend(iv);
        const auto total = sched.stats();

        ReportWriter rw(opt, "soak");
        rw.addConfiguration("rate", fmt::format("{}", rate));
        rw.addConfiguration("interval", Units::formatDuration(opt.interval, true));
        rw.addConfiguration("duration", Units::formatDuration(opt.duration, true));
        rw.addConfiguration("arrival", opt.arrival);
        rw.addConfiguration("verdict", trend.verdict + ": " + trend.reason);
        rw.addConfiguration("calibration", setup.calibrationText());
        CsvTable t({"time s", "throughput", "p50 lateness us", "p99 lateness us", "max lateness us",
                    "rss MB", "cpu %", "backlog", "jobs", "measured", "drops"});
        for (auto& r : rows)
            t.addRow({r.i.tSeconds, r.i.throughput, r.p50Us, r.i.latenessP99Us, r.maxUs,
                      r.i.rssBytes / 1048576.0, r.i.cpuPercent, r.i.queueDepth,
                      static_cast<double>(r.jobs), static_cast<double>(r.measured),
                      static_cast<double>(r.drops)});
        rw.writeCsv(t);
        PlotOptions p1;
        p1.title = fmt::format("soak at {}: throughput and p99 lateness per interval — {}",
                               Units::formatRate(rate), trend.verdict);
        rw.writePlot(GnuplotScript::tablePlot(t, "time s", {"throughput"}, {"p99 lateness us"}, p1),
                     "-throughput");
        PlotOptions p2;
        p2.title = "soak: RSS and backlog per interval";
        rw.writePlot(GnuplotScript::tablePlot(t, "time s", {"rss MB"}, {"backlog"}, p2), "-memory");

        if (opt.json) {
            nlohmann::json j{
                {"mode", "soak"},
                {"rate", rate},
                {"workers", workers},
                {"jobs", driver.posted()},
                {"completed", total.completed},
                {"deadline_drops", total.expired},
                {"failed", total.failed},
                {"drained", drained},
                {"generator_cpu_s", std::chrono::duration<double>(driver.generatorCpu()).count()},
                {"intervals", nlohmann::json::array()}};
            for (auto& r : rows)
                j["intervals"].push_back({{"t_s", r.i.tSeconds},
                                          {"throughput", r.i.throughput},
                                          {"p99_lateness_us", r.i.latenessP99Us},
                                          {"rss_bytes", r.i.rssBytes},
                                          {"cpu_percent", r.i.cpuPercent},
                                          {"backlog", r.i.queueDepth},
                                          {"jobs", r.jobs},
                                          {"measured", r.measured},
                                          {"drops", r.drops}});
            j["trend"] = {{"verdict", trend.verdict},
                          {"reason", trend.reason},
                          {"throughput_slope_percent_per_hour", trend.throughputSlopePerHour},
                          {"memory_growth_bytes_per_hour", trend.memoryGrowthPerHour},
                          {"mean_throughput", trend.meanThroughput}};
            loadtest::printJson(j, rw);
        } else {
            std::cout << fmt::format(
                "Soak: {} ({:.0f} % of capacity) for {}, {} workers, jobs of {}\n",
                Units::formatRate(rate), 100 * rate / capacity, Units::formatDuration(opt.duration),
                workers, Units::formatDuration(opt.load));
            std::cout << fmt::format("{:>8} {:>10} {:>10} {:>8} {:>6} {:>8} {:>6}\n", "t", "done/s",
                                     "p99 late", "RSS MiB", "CPU%", "backlog", "drops");
            for (auto& r : rows)
                std::cout << fmt::format(
                    "{:>8} {:>10} {:>10} {:>8.1f} {:>6.0f} {:>8.0f} {:>6}\n",
                    Units::formatDuration(Duration{std::llround(r.i.tSeconds * 1e9)}),
                    Units::formatRate(r.i.throughput),
                    Units::formatDuration(Duration{std::llround(r.i.latenessP99Us * 1e3)}),
                    r.i.rssBytes / 1048576.0, r.i.cpuPercent, r.i.queueDepth, r.drops);
            std::cout << fmt::format("Jobs {} (completed {}, deadline drops {}, failed {}){}\n",
                                     driver.posted(), total.completed, total.expired, total.failed,
                                     drained ? "" : ", NOT drained at the end");
            std::cout << fmt::format("Trend: throughput {:+.2f} %/h, memory {:+.2f} MiB/h\n",
                                     trend.throughputSlopePerHour,
                                     trend.memoryGrowthPerHour / 1048576.0);
            std::cout << fmt::format("Verdict: {} — {}\n", trend.verdict, trend.reason);
            rw.printSummary(std::cout);
        }
        return total.failed ? 1 : 0;
    } catch (const UsageError& e) {
        std::cerr << "stressrig: " << e.what() << "\n";
        return 2;
    }
}

}  // namespace pullsched::rig
