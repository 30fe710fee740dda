// --mode=soak: moderate open load for a long time, measured per interval; the verdict
// weighs drops and late starts against a threshold and fits the trends of throughput
// and memory when there are enough intervals.
#include <cmath>

#include <fmt/format.h>

#include "analysis/SoakAnalysis.hpp"
#include "backends/BackendRegistry.hpp"
#include "backends/StreamSoak.hpp"
#include "cli/BackendOptions.hpp"
#include "cli/ExecutionOptions.hpp"
#include "cli/OpenLoadOptions.hpp"
#include "cli/PlacementOption.hpp"
#include "format/Units.hpp"
#include "load/JobBody.hpp"
#include "load/Progress.hpp"
#include "modes/Mode.hpp"
#include "modes/ModeFigures.hpp"
#include "report/HgrmWriter.hpp"
#include "report/LatencyReport.hpp"
#include "report/MetricCatalogue.hpp"
#include "report/MissingValues.hpp"
#include "report/PerBackendResult.hpp"
#include "report/StageReport.hpp"
#include "report/StreamTrace.hpp"
#include "report/TextFormat.hpp"

namespace pullsched::rig {

namespace {

constexpr double kMiB = 1048576.0;
/// Text rows shown at most; longer soaks show every k-th interval (the CSV has all).
constexpr std::size_t kTextRows = 60;

std::string fractionText(double f) {
    return textOr(f, [](double v) { return fmt::format("{:.3g} %", 100 * v); });
}

nlohmann::json slopeJson(const SlopeFit& f) {
    if (!f.fitted) return nullptr;
    return {{"slope", f.slope},
            {"standard_error", f.standardError},
            {"low_95", f.low95},
            {"high_95", f.high95},
            {"points", f.points}};
}

class SoakMode final : public Mode {
  public:
    std::string_view name() const override { return "soak"; }
    std::vector<FigureSource> figures() const override {
        return withLateness(LatenessAt::Nested, {{"throughput", "trend.mean_throughput_per_s"},
                                                 {"drop_rate", "verdict.drop_fraction"},
                                                 {"late_rate", "verdict.late_fraction"},
                                                 {"jobs_expired"},
                                                 {"late_starts"},
                                                 {"rss_trend", "trend.memory_mib_per_hour.slope"}});
    }
    std::vector<std::string> selectorLabels() const override { return backends_.labels(); }
    std::string_view summary() const override {
        return "moderate open load for a long time, per-interval table, trends and a verdict";
    }
    void declare(OptionTable& t) override {
        exec_.declare(t, "busy time of each job");
        placement_.declare(t);
        span_.declare(t, 10min, "arrivals in this first part are run but not measured");
        open_.declare(t,
                      "arrivals per second (1k/s: a quarter of the nominal capacity of 2 "
                      "workers x 500us jobs)");
        t.group("Soak");
        t.duration("interval", interval_, 10ms, 1h, "length of one row of the soak table");
        t.percent("drop-threshold", dropThreshold_, 0, 100,
                  "a soak with more drops, or more late starts, than this per cent of its jobs "
                  "is not stable");
        backends_.declareStreamList(
            t, "schedulers that each soak under the same arrivals, one after the other");
        t.group("Traces");
        t.flag("trace-json", traceJson_,
               fmt::format("write <name>-trace.json (<name>-<backend>-trace.json with several "
                           "backends): the soak's first {} arrivals, one track per thread that "
                           "ran them (ui.perfetto.dev, chrome://tracing); every backend",
                           kTracedArrivals));
    }
    void validate(const OptionTable& t) override {
        placement_.refuseIgnoredBy(t, backends_);
        open_.resolve(t, span_.duration);
        span_.refuseWarmupNotShorter();
        if (interval_ > span_.duration)
            throw UsageError(fmt::format("--interval={} must not exceed --duration={}",
                                         durationText(interval_), durationText(span_.duration)));
        if (span_.duration / interval_ > 1'000'000)
            throw UsageError(
                fmt::format("--duration={} / --interval={} gives more than 10^6 "
                            "intervals: raise --interval",
                            durationText(span_.duration), durationText(interval_)));
        open_.checkArrivals(interval_, 1e7, "interval");
    }

    ModeResult run(RunContext& ctx) override {
        JobBody body(exec_.loadKind, &ctx.progress);
        return runOnEachBackend("soak", backends_.names(), ctx.stop,
                                [&](const std::string& b) { return runOn(ctx, body, b); });
    }

  private:
    ModeResult runOn(RunContext& ctx, const JobBody& body, const std::string& backend) const {
        const double capacity = exec_.workers / std::chrono::duration<double>(exec_.load).count();
        ctx.progress.note(fmt::format(
            "soak: {} ({:.0f} % of nominal capacity {}) for {}, intervals of {}, {} workers, on {}",
            open_.rateText(), 100 * peakRate() / capacity, Units::formatRate(capacity),
            durationText(span_.duration), durationText(interval_), exec_.workers, backend));
        const SoakRunResult s = runSoak(
            *BackendRegistry::streamRunner(backend), soakConfig(), body.load(), &ctx.stop,
            [&ctx](const IntervalRow& r, std::size_t done, std::size_t total) {
                ctx.progress.progress(
                    done, total,
                    fmt::format("{} done, p99 {}, RSS {}, CPU {:.0f} %, backlog {:.0f}, drops {}",
                                textOr(r.i.throughput, Units::formatRate),
                                usText(r.i.latenessP99Us),
                                textOr(r.i.rssBytes / kMiB,
                                       [](double v) { return fmt::format("{:.1f} MiB", v); }),
                                r.i.cpuPercent, r.i.backlog, r.drops));
            });
        const SoakTotals totals = totalsOf(s);
        const SoakVerdict v = judge(s, totals);

        ModeResult m;
        m.name = "soak";
        m.calibration = body.json();
        m.partial = s.interrupted;
        report(m, s, v, totals, capacity);
        if (traceJson_)
            m.files.push_back(
                {"-trace.json",
                 streamTraceText(backend, s.traced,
                                 {{"mode", "soak"},
                                  {"offered rate", open_.rateText()},
                                  {"workers", std::to_string(exec_.workers)},
                                  {"traced", fmt::format("the first {} of {} arrivals that ran",
                                                         s.traced.size(), s.posted)}})});
        return m;
    }

    SoakRunConfig soakConfig() const {
        SoakRunConfig cfg;
        cfg.arrivals = open_.arrivals();
        cfg.workers = exec_.workers;
        cfg.placement = placement_.placement();
        cfg.jobLoad = exec_.load;
        cfg.duration = span_.duration;
        cfg.interval = interval_;
        cfg.warmup = span_.warmup;
        cfg.deadlineWindow = open_.deadlineWindow;
        cfg.lateLimit = open_.limit;
        if (traceJson_) cfg.tracedArrivals = kTracedArrivals;
        return cfg;
    }

    static SoakTotals totalsOf(const SoakRunResult& s) {
        SoakTotals totals;
        totals.jobs = s.posted;
        totals.drops = s.expired;
        totals.measured = s.lateness.count();
        for (const IntervalRow& r : s.rows)
            totals.misses += r.late;
        return totals;
    }

    SoakVerdict judge(const SoakRunResult& s, const SoakTotals& totals) const {
        SoakLimits limits;
        limits.dropThreshold = dropThreshold_;
        std::vector<SoakInterval> iv;
        const double meanOffered =
            open_.stages ? open_.stages->meanRate(Duration{0}, span_.duration) : open_.rate;
        for (const IntervalRow& r : s.rows) {
            iv.push_back(r.i);
            // With --stages the throughput follows the offered rate by design: the trend is
            // of the share of it achieved, scaled to the mean offered rate.
            if (open_.stages)
                iv.back().throughput =
                    r.offeredRate > 0 ? r.i.throughput / r.offeredRate * meanOffered : kMissing;
        }
        return judgeSoak(iv, totals, limits);
    }

    void report(ModeResult& m, const SoakRunResult& s, const SoakVerdict& v,
                const SoakTotals& totals, double capacity) const {
        m.text = textLines(s, v, totals, capacity);
        m.verdict = fmt::format("{}{}: {}", s.interrupted ? "interrupted, partial result; " : "",
                                v.verdict, v.reason);
        m.overload = v.verdict != "stable";  // degrading, unstable or inconclusive: amber
        if (s.failed) {
            m.systemFailure = true;
            m.failures.push_back(fmt::format("{} of {} jobs failed", s.failed, s.posted));
        }
        const std::uint64_t settled = s.completed + s.expired + s.failed + s.cancelled;
        if (settled != s.posted) {
            m.systemFailure = true;
            m.failures.push_back(
                fmt::format("{} jobs posted but {} reached a final state: jobs lost or run twice",
                            s.posted, settled));
        }
        if (v.overThreshold) m.warnings.push_back(fmt::format("not stable: {}", v.reason));
        m.result = resultJson(s, v, totals, capacity);
        CsvTable t = intervalTable(s);
        if (!s.rows.empty()) {
            PlotOptions p1;
            p1.title = fmt::format("soak at {}: throughput and p99 lateness per interval ({})",
                                   open_.rateText(), v.verdict);
            m.plots.push_back(
                {"-throughput",
                 GnuplotScript::tablePlot(t, "time s", {"offered per s", "throughput per s"},
                                          {MetricCatalogue::csvHeader("lateness_p99")}, p1)});
            PlotOptions p2;
            p2.title = "soak: RSS and backlog per interval";
            m.plots.push_back(
                {"-memory", GnuplotScript::tablePlot(t, "time s", {"rss MiB"}, {"backlog"}, p2)});
            PlotOptions p3;
            p3.title = "soak: the process's CPU share, steal time and expired jobs per interval";
            m.plots.push_back({"-cpu", GnuplotScript::tablePlot(
                                           t, "time s", {"cpu %", "steal %"},
                                           {MetricCatalogue::csvHeader("jobs_expired")}, p3)});
        }
        m.tables.push_back({"", std::move(t)});
        m.files.push_back({"-lateness.hgrm", hgrmText(s.lateness)});
        if (open_.stages) reportStages(m, s);
    }

    /// With --stages: the stages and whether the soak recovered after its last spike.
    void reportStages(ModeResult& m, const SoakRunResult& s) const {
        const RateProfile& p = *open_.stages;
        const Recovery rec = stageRecovery(p, s.rows, open_.limit, exec_.workers);
        const std::string recovery = recoveryText(rec, p, open_.limit);
        m.text.push_back("Recovery: " + recovery);
        m.verdict += "; " + recovery;
        m.result["stages"] = stagesJson(p);
        m.result["recovery"] = recoveryJson(rec, p);
    }

    /// The highest rate offered: --rate, or the stages' peak.
    double peakRate() const { return open_.stages ? open_.stages->peakRate() : open_.rate; }

    std::vector<std::string> textLines(const SoakRunResult& s, const SoakVerdict& v,
                                       const SoakTotals& totals, double capacity) const {
        std::vector<std::string> text;
        text.push_back(fmt::format(
            "Soak: {} {} arrivals ({:.0f} % of nominal capacity {}) for {}, {} intervals of {}, "
            "{} workers, jobs of {}",
            open_.rateText(), open_.arrival, 100 * peakRate() / capacity,
            Units::formatRate(capacity), durationText(span_.duration), s.plannedIntervals,
            durationText(interval_), exec_.workers, durationText(exec_.load)));
        text.push_back(fmt::format(
            "Deadline window {}; late start = more than --limit={} after the intended start",
            open_.deadlineText(), durationText(open_.limit)));
        for (std::string& line : intervalLines(s))
            text.push_back(std::move(line));
        if (s.interrupted)
            text.push_back(fmt::format("Interrupted after {} of {} intervals.", s.rows.size(),
                                       s.plannedIntervals));
        text.push_back(fmt::format(
            "Jobs {}: completed {}, dropped at their deadline {} ({}), failed {}, cancelled {}{}",
            s.posted, s.completed, s.expired, fractionText(v.dropFraction), s.failed, s.cancelled,
            s.drained ? "" : " (not drained at the end)"));
        text.push_back(fmt::format("Late starts: {} of {} measured ({}); lateness {}",
                                   totals.misses, totals.measured, fractionText(v.missFraction),
                                   percentileLine(s.lateness)));
        text.push_back(v.trendText.starts_with("trend:") ? "T" + v.trendText.substr(1)
                                                         : "Trend: " + v.trendText);
        if (open_.stages)
            text.push_back(
                "  (with --stages the throughput trend is of the share of the offered rate "
                "achieved; CPU follows the stages)");
        if (std::isfinite(v.rssPeakMiB))
            text.push_back(fmt::format(
                "RSS: {:.1f} MiB at the first interval used, peak {:.1f} MiB, {:.1f} MiB at the "
                "end{}",
                v.rssFirstMiB, v.rssPeakMiB, v.rssLastMiB,
                v.memoryReturned ? " (memory given back)" : ""));
        return text;
    }

    /// The interval table of the text: at most kTextRows rows (every k-th, and the last).
    static std::vector<std::string> intervalLines(const SoakRunResult& s) {
        std::vector<std::string> text;
        text.push_back(fmt::format(
            "{:>10} {:>10} {:>10} {:>10} {:>8} {:>6} {:>7} {:>8} {:>7} {:>7}", "t", "offered",
            "done/s", "p99 late", "RSS MiB", "CPU %", "steal %", "backlog", "drops", "late"));
        const std::size_t step = (s.rows.size() + kTextRows - 1) / kTextRows;
        for (std::size_t k = 0; k < s.rows.size(); ++k) {
            if (step > 1 && k % step != 0 && k + 1 != s.rows.size()) continue;
            const IntervalRow& r = s.rows[k];
            text.push_back(fmt::format(
                "{:>10} {:>10} {:>10} {:>10} {:>8} {:>6} {:>7} {:>8.0f} {:>7} {:>7}",
                durationText(Duration{std::llround(r.i.tSeconds * 1e9)}),
                textOr(r.offeredRate, Units::formatRate), textOr(r.i.throughput, Units::formatRate),
                usText(r.i.latenessP99Us),
                textOr(r.i.rssBytes / kMiB, [](double x) { return fmt::format("{:.1f}", x); }),
                textOr(r.i.cpuPercent, [](double x) { return fmt::format("{:.0f}", x); }),
                textOr(r.i.stealPercent, [](double x) { return fmt::format("{:.1f}", x); }),
                r.i.backlog, r.drops, r.late));
        }
        if (step > 1)
            text.push_back(fmt::format("(every {}th interval shown; the CSV has all {})", step,
                                       s.rows.size()));
        return text;
    }

    nlohmann::json resultJson(const SoakRunResult& s, const SoakVerdict& v,
                              const SoakTotals& totals, double capacity) const {
        nlohmann::json j;
        j["rate_per_s"] = open_.stages ? nlohmann::json(nullptr) : nlohmann::json(open_.rate);
        j["nominal_capacity_per_s"] = capacity;
        j["workers"] = exec_.workers;
        j["deadline_window_us"] =
            std::chrono::duration<double, std::micro>(open_.deadlineWindow).count();
        j["limit_us"] = std::chrono::duration<double, std::micro>(open_.limit).count();
        j["intervals_planned"] = s.plannedIntervals;
        j["jobs_posted"] = s.posted;
        j["jobs_measured"] = totals.measured;
        j["posted_measured"] = s.measured;  // posted after the warm-up
        j["jobs_completed"] = s.completed;
        j["jobs_expired"] = s.expired;
        j["late_starts"] = totals.misses;
        j["jobs_failed"] = s.failed;
        j["jobs_cancelled"] = s.cancelled;
        j["drained"] = s.drained;
        j["interrupted"] = s.interrupted;
        j["generator_cpu_s"] = std::chrono::duration<double>(s.generatorCpu).count();
        j["lateness"] = histogramJson(s.lateness);
        j["intervals"] = nlohmann::json::array();
        for (const IntervalRow& r : s.rows)
            j["intervals"].push_back(intervalJson(r));
        j["verdict"] = {
            {"verdict", v.verdict},
            {"reason", v.reason},
            {"drop_fraction", jsonNumber(v.dropFraction)},
            {"late_fraction", jsonNumber(v.missFraction)},
            {"threshold_percent", 100 * dropThreshold_},
            {"over_threshold", v.overThreshold},
            {"degrading", v.degrading},
            {"throughput_cause", v.throughputCause.empty() ? nlohmann::json(nullptr)
                                                           : nlohmann::json(v.throughputCause)},
            {"memory_returned", v.memoryReturned}};
        j["trend"] = trendJson(v);
        return j;
    }

    static nlohmann::json intervalJson(const IntervalRow& r) {
        return {{"t_s", r.i.tSeconds},
                {"offered_per_s", jsonNumber(r.offeredRate)},
                {"throughput_per_s", jsonNumber(r.i.throughput)},
                {"p50_lateness_us", jsonNumber(r.p50Us)},
                {"p99_lateness_us", jsonNumber(r.i.latenessP99Us)},
                {"max_lateness_us", jsonNumber(r.maxUs)},
                {"rss_mib", jsonNumber(r.i.rssBytes / kMiB)},
                {"cpu_percent", jsonNumber(r.i.cpuPercent)},
                {"steal_percent", jsonNumber(r.i.stealPercent)},
                {"backlog", jsonNumber(r.i.backlog)},
                {"jobs_posted", r.jobs},
                {"jobs_measured", r.measured},
                {"jobs_expired", r.drops},
                {"late_starts", r.late}};
    }

    static nlohmann::json trendJson(const SoakVerdict& v) {
        return {{"intervals_used", v.intervals},
                {"text", v.trendText},
                {"mean_throughput_per_s", jsonNumber(v.meanThroughput)},
                {"throughput_percent_per_hour", slopeJson(v.throughputPercentPerHour)},
                {"memory_mib_per_hour", slopeJson(v.memoryMiBPerHour)},
                {"cpu_percent_points_per_hour", slopeJson(v.cpuPercentPerHour)},
                {"steal_percent_points_per_hour", slopeJson(v.stealPercentPerHour)},
                {"cpu_first_percent", jsonNumber(v.cpuFirstPercent)},
                {"cpu_last_percent", jsonNumber(v.cpuLastPercent)},
                {"steal_first_percent", jsonNumber(v.stealFirstPercent)},
                {"steal_last_percent", jsonNumber(v.stealLastPercent)},
                {"rss_first_mib", jsonNumber(v.rssFirstMiB)},
                {"rss_peak_mib", jsonNumber(v.rssPeakMiB)},
                {"rss_last_mib", jsonNumber(v.rssLastMiB)}};
    }

    static CsvTable intervalTable(const SoakRunResult& s) {
        const auto figure = [](std::string_view name) { return MetricCatalogue::csvHeader(name); };
        CsvTable t({"time s", "offered per s", "throughput per s", figure("jobs_posted"),
                    figure("jobs_measured"), figure("lateness_p50"), figure("lateness_p99"),
                    figure("lateness_max"), figure("late_starts"), "rss MiB", "cpu %", "backlog",
                    figure("jobs_expired"), "steal %"});
        for (const IntervalRow& r : s.rows)
            t.addRow({r.i.tSeconds, r.offeredRate, r.i.throughput, static_cast<double>(r.jobs),
                      static_cast<double>(r.measured), r.p50Us, r.i.latenessP99Us, r.maxUs,
                      static_cast<double>(r.late), r.i.rssBytes / kMiB, r.i.cpuPercent, r.i.backlog,
                      static_cast<double>(r.drops), r.i.stealPercent});
        return t;
    }

    ExecutionOptions exec_;

    PlacementOption placement_;
    LoadSpanOptions span_;
    OpenLoadOptions open_;
    BackendOptions backends_;
    Duration interval_ = 10s;
    double dropThreshold_ = 0.001;  ///< fraction of the jobs (0.1 %)
    bool traceJson_ = false;
};

}  // namespace

std::unique_ptr<Mode> makeSoakMode() {
    return std::make_unique<SoakMode>();
}

}  // namespace pullsched::rig
