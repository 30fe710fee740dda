// --mode=open: jobs arrive on a fixed timetable (constant or Poisson) whatever the
// scheduler does; lateness counts from each job's intended start. Measure (the timetable
// on each backend of --backends, pullsched alone by default), then present each backend
// alone and, with several, put them side by side with the comparison's pictures.
#include <string>

#include <fmt/format.h>

#include "analysis/LatenessMisses.hpp"
#include "backends/BackendRegistry.hpp"
#include "backends/StreamOpenLoad.hpp"
#include "cli/BackendOptions.hpp"
#include "cli/ExecutionOptions.hpp"
#include "cli/OpenLoadOptions.hpp"
#include "cli/PlacementOption.hpp"
#include "format/Units.hpp"
#include "load/JobBody.hpp"
#include "load/LoadRunTypes.hpp"
#include "load/Progress.hpp"
#include "measure/Environment.hpp"
#include "modes/Mode.hpp"
#include "modes/ModeFigures.hpp"
#include "report/HgrmWriter.hpp"
#include "report/LatencyReport.hpp"
#include "report/OpenClosedReport.hpp"
#include "report/PerBackendResult.hpp"
#include "report/PercentilePlot.hpp"
#include "report/StageReport.hpp"
#include "report/StreamComparisonReport.hpp"
#include "report/StreamTrace.hpp"
#include "report/TextFormat.hpp"

namespace pullsched::rig {

namespace {

/// `part` of `whole` in percent, three significant digits; "n/a" of nothing.
std::string shareText(std::uint64_t part, std::uint64_t whole) {
    return whole ? fmt::format("{:.3g} %",
                               100.0 * static_cast<double>(part) / static_cast<double>(whole))
                 : std::string("n/a");
}

class OpenMode final : public Mode {
  public:
    std::string_view name() const override { return "open"; }
    std::vector<FigureSource> figures() const override {
        return withLateness(LatenessAt::Nested, {{"throughput"},
                                                 {"offered_rate"},
                                                 {"drop_rate", "jobs_expired/jobs_posted"},
                                                 {"jobs_expired"},
                                                 {"late_starts"},
                                                 {"max_backlog"},
                                                 {"rss_max"}});
    }
    std::vector<std::string> selectorLabels() const override { return backends_.names(); }
    std::string_view summary() const override {
        return "open load: jobs at a fixed rate, lateness from the intended start";
    }
    void declare(OptionTable& t) override {
        exec_.declare(t, "busy time of each job");
        placement_.declare(t);
        span_.declare(t, 5s, "arrivals in this first part are run but not measured");
        open_.declare(t, "arrivals per second");
        backends_.declareStreamList(
            t, "schedulers that play the same timetable with the same job body and workers");
        t.group("Traces");
        t.flag("trace-json", traceJson_,
               fmt::format("write <name>-trace.json (<name>-<backend>-trace.json with several "
                           "backends): the first {} arrivals with their intended start, one "
                           "track per thread that ran them (ui.perfetto.dev, chrome://tracing); "
                           "every backend",
                           kTracedArrivals));
    }
    void validate(const OptionTable& t) override {
        placement_.refuseIgnoredBy(t, backends_);
        open_.resolve(t, span_.duration);
        span_.refuseWarmupNotShorter();
        open_.checkArrivals(span_.duration, 2e7, "duration");
    }

    /// One path for any number of backends: each backend's run is presented alone (as
    /// fio reports each engine), several are put side by side under their names, and what
    /// only a comparison shows (percentiles and stages overlaid, the lowest p99) is added.
    ModeResult run(RunContext& ctx) override {
        const JobBody body(exec_.loadKind, &ctx.progress);
        const OpenMeasurement measured = measure(ctx, body);
        const bool alone = measured.runs.size() == 1;
        std::vector<BackendResult> parts;
        for (const StreamRunResult& r : measured.runs) {
            ModeResult part;
            presentDetail(part, r, alone);
            parts.push_back({r.backend, std::move(part)});
        }
        ModeResult m =
            parts.empty() ? ModeResult{} : combineBackendResults("open", std::move(parts));
        m.name = "open";
        m.calibration = body.json();
        m.partial = measured.interrupted;
        if (!alone && !measured.runs.empty()) presentSideBySide(ctx, m, measured);
        if (traceJson_) traceFiles(m, measured.runs);
        return m;
    }

  private:
    /// The measure step's output: one run per backend that played.
    struct OpenMeasurement {
        std::vector<StreamRunResult> runs;
        bool interrupted = false;  ///< a stop request ended a play or the series
    };

    /// What every backend plays: the timetable, workers, job body, span and deadlines.
    OpenLoadConfig loadConfig() const {
        OpenLoadConfig cfg;
        cfg.arrivals = open_.arrivals();
        cfg.workers = exec_.workers;
        cfg.placement = placement_.placement();
        cfg.jobLoad = exec_.load;
        cfg.duration = span_.duration;
        cfg.warmup = span_.warmup;
        cfg.lateLimit = open_.limit;
        if (open_.stages) cfg.interval = stageInterval(span_.duration);
        cfg.deadlineWindow = open_.deadlineWindow;
        // A backlog left after the timetable may take as long as the run to clear.
        cfg.drainLimit = std::max<Duration>(std::chrono::seconds{2}, span_.duration);
        if (traceJson_) cfg.tracedArrivals = kTracedArrivals;
        return cfg;
    }
    OpenMeasurement measure(RunContext& ctx, const JobBody& body) const;
    // present: one backend in detail
    /// `alone`: the only backend, whose result also carries the one-entry "backends" object.
    void presentDetail(ModeResult& m, const StreamRunResult& run, bool alone) const;
    void detailFiles(ModeResult& m, const LoadRunResult& r) const;
    void presentStages(ModeResult& m, const LoadRunResult& r) const;
    std::string verdict(const LoadRunResult& r, std::uint64_t late) const;
    // present: several backends side by side
    void presentSideBySide(RunContext& ctx, ModeResult& m, const OpenMeasurement& measured) const;
    void comparisonFiles(ModeResult& m, const std::vector<StreamRunResult>& runs) const;
    void compareStages(ModeResult& m, const std::vector<StreamRunResult>& runs) const;
    // present: the trace of each backend's first arrivals (--trace-json)
    void traceFiles(ModeResult& m, const std::vector<StreamRunResult>& runs) const;

    bool traceJson_ = false;

    ExecutionOptions exec_;

    PlacementOption placement_;
    LoadSpanOptions span_;
    OpenLoadOptions open_;
    BackendOptions backends_;
};

// ---- measure

/// Every backend plays the same timetable through its stream runner, one after the other.
OpenMode::OpenMeasurement OpenMode::measure(RunContext& ctx, const JobBody& body) const {
    OpenMeasurement out;
    const OpenLoadConfig cfg = loadConfig();
    for (const std::string& n : backends_.names()) {
        if (ctx.stop.requested()) {
            out.interrupted = true;
            break;
        }
        ctx.progress.note(fmt::format("open load: {} for {}, {} workers, jobs of {}, on {}",
                                      open_.rateText(), durationText(span_.duration), exec_.workers,
                                      durationText(exec_.load), n));
        const auto backend = BackendRegistry::streamRunner(n);
        out.runs.push_back(runOpenLoad(*backend, cfg, body.load(), &ctx.stop));
        if (out.runs.back().load.interrupted) out.interrupted = true;
    }
    return out;
}

// ---- present: one backend in detail

void OpenMode::presentDetail(ModeResult& m, const StreamRunResult& run, bool alone) const {
    const LoadRunResult& r = run.load;
    const std::uint64_t late = latenessMisses(r.lateness, open_.limit.count());
    m.text.push_back(fmt::format("Open load: {} {} arrivals for {} ({}), {} workers, jobs of {}",
                                 open_.rateText(), open_.arrival, durationText(span_.duration),
                                 span_.warmupText(), exec_.workers, durationText(exec_.load)));
    m.text.push_back(fmt::format(
        "Deadline window {}: a job not started by its intended start + the window is dropped "
        "and has no lateness",
        open_.deadlineText()));
    for (const std::string& l : loadRunText(r))
        m.text.push_back(l);
    m.text.push_back(fmt::format("Late starts (later than --limit={}): {} of {} measured ({})",
                                 durationText(open_.limit), late, r.lateness.count(),
                                 shareText(late, r.lateness.count())));
    m.text.push_back(
        "Lateness = actual start - intended start from the timetable, so queueing delay "
        "counts even when the generator itself fell behind.");

    const std::uint64_t settled = r.completed + r.expired + r.failed + r.cancelled;
    if (r.failed) {
        m.systemFailure = true;
        m.failures.push_back(fmt::format("{} of {} jobs failed", r.failed, r.posted));
    }
    if (settled != r.posted) {
        m.systemFailure = true;
        m.failures.push_back(fmt::format(
            "{} jobs posted but {} reached a final state (completed, dropped, failed or "
            "cancelled): jobs lost or run twice",
            r.posted, settled));
    }
    if (!run.exactlyOnce()) {
        m.systemFailure = true;
        m.failures.push_back(fmt::format("{} of {} jobs never ran, {} ran more than once", r.missed,
                                         r.posted, r.repeated));
    }
    if (!r.drained)
        m.warnings.push_back(
            fmt::format("the backlog did not drain after the run: {} jobs cancelled", r.cancelled));
    m.verdict = verdict(r, late);
    m.overload = r.expired > 0 || late * 1000 > r.lateness.count();  // as the verdict says

    nlohmann::json& j = m.result;
    j = loadRunJson(r);
    j["workers"] = exec_.workers;
    j["arrival"] = open_.arrival;
    j["deadline_window_us"] =
        std::chrono::duration<double, std::micro>(open_.deadlineWindow).count();
    j["limit_us"] = std::chrono::duration<double, std::micro>(open_.limit).count();
    j["late_starts"] = late;
    if (alone) {  // the same structure as several backends' result, with one entry
        j["backends"] = streamBackendsJson(
            {run}, {std::string(BackendRegistry::find(run.backend).streamStartTimesText)});
        j["backends"][run.backend]["late_starts"] = late;
    }
    j["interrupted"] = r.interrupted;
    detailFiles(m, r);
    if (open_.stages) presentStages(m, r);
}

void OpenMode::presentStages(ModeResult& m, const LoadRunResult& r) const {
    const RateProfile& p = *open_.stages;
    const Recovery rec = stageRecovery(p, r.intervals, open_.limit, exec_.workers);
    m.text.push_back(fmt::format("Per interval of {} (offered = the stages' mean rate over it):",
                                 durationText(stageInterval(span_.duration))));
    for (std::string& l : intervalText(r.intervals))
        m.text.push_back("  " + std::move(l));
    const std::string recovery = recoveryText(rec, p, open_.limit);
    m.text.push_back("Recovery: " + recovery);
    m.verdict += "; " + recovery;
    nlohmann::json& j = m.result;
    j["stages"] = stagesJson(p);
    j["intervals"] = intervalsJson(r.intervals);
    j["recovery"] = recoveryJson(rec, p);
    CsvTable t = intervalTable(r.intervals);
    PlotOptions po;
    po.title = "open load with stages: offered and achieved rate per interval, backlog";
    po.yLabel = "jobs per s";
    po.y2Label = "backlog (due jobs not started)";
    m.plots.push_back(
        {"-intervals", GnuplotScript::tablePlot(t, "time s", {"offered per s", "achieved per s"},
                                                {"backlog"}, po)});
    m.tables.push_back({"-intervals", std::move(t)});
}

void OpenMode::detailFiles(ModeResult& m, const LoadRunResult& r) const {
    CsvTable ts = loadTimeSeries(r);
    PlotOptions po;
    po.title = fmt::format("open load {}: backlog and CPU over time", open_.rateText());
    m.plots.push_back({"", GnuplotScript::tablePlot(ts, "time s", {"backlog"}, {"cpu %"}, po)});
    m.tables.push_back({"", std::move(ts)});
    CsvTable pt = latencyPercentileTable({&r});
    PlotOptions pl;
    pl.title = "open load: start lateness by percentile";
    m.plots.push_back({"-latency", percentilePlot(pt, "percentile", {"open lateness us"}, pl)});
    m.tables.push_back({"-latency", std::move(pt)});
    m.tables.push_back({"-summary", loadSummaryTable({&r})});
    m.files.push_back({"-lateness.hgrm", hgrmText(r.lateness)});
}

std::string OpenMode::verdict(const LoadRunResult& r, std::uint64_t late) const {
    const std::string rate = open_.rateText();
    std::string p99 = "n/a (too few samples)";
    if (percentileSupported(99, r.lateness.count()))
        p99 = durationText(Duration{r.lateness.percentile(99)});
    std::string v;
    if (r.interrupted) v = "interrupted: partial result; ";
    const std::uint64_t measured = r.lateness.count();
    if (r.expired == 0 && late * 1000 <= measured)  // misses within 0.1 %
        return v + fmt::format(
                       "kept up with {}: no job dropped, p99 lateness {}, {} of {} "
                       "starts later than {}",
                       rate, p99, late, measured, durationText(open_.limit));
    std::string why;
    if (r.expired > 0)
        why = fmt::format("{} of {} jobs dropped at their deadline ({})", r.expired, r.posted,
                          shareText(r.expired, r.posted));
    else
        why = "no job dropped";
    why += fmt::format(", {} of {} measured starts later than {} ({}), p99 lateness {}", late,
                       measured, durationText(open_.limit), shareText(late, measured), p99);
    return v + fmt::format("{} at {}: {}", r.expired > 0 ? "overloaded" : "late", rate, why);
}

// ---- present: several backends side by side

void OpenMode::presentSideBySide(RunContext& ctx, ModeResult& m,
                                 const OpenMeasurement& measured) const {
    const std::vector<StreamRunResult>& runs = measured.runs;
    const std::vector<std::string> names = backends_.names();
    std::vector<std::string> text;
    text.push_back(fmt::format(
        "Open load: {} {} arrivals for {} ({}), {} workers, jobs of {}; backends: {}",
        open_.rateText(), open_.arrival, durationText(span_.duration), span_.warmupText(),
        exec_.workers, durationText(exec_.load), BackendOptions::listText(names)));
    text.push_back(
        fmt::format("Every backend plays the same timetable, one after the other, deadline "
                    "window {} (pullsched drops a job itself, for the others the rig drops it "
                    "at its start). Lateness = actual start - intended start, taken by the rig "
                    "at the start of each job.",
                    open_.deadlineText()));
    text.push_back(
        "Arrival times: native = the backend holds the job until its intended start; "
        "generator-posts = the generator thread hands the job over at its arrival time.");
    for (std::string& l : streamBackendsText(runs))
        text.push_back(std::move(l));

    std::vector<std::string> arrivalTexts;
    for (const StreamRunResult& s : runs)
        arrivalTexts.emplace_back(BackendRegistry::find(s.backend).streamStartTimesText);
    // each backend's entry is its result alone; the comparison's figures join it
    const nlohmann::json side = streamBackendsJson(runs, arrivalTexts);
    for (const auto& [backend, figures] : side.items())
        for (const auto& [key, value] : figures.items())
            if (!m.result["backends"][backend].contains(key))
                m.result["backends"][backend][key] = value;
    const StreamRunResult* best = nullptr;
    for (const StreamRunResult& s : runs) {
        const std::uint64_t late = latenessMisses(s.load.lateness, open_.limit.count());
        text.push_back(fmt::format("  {}: late starts (later than --limit={}): {} of {} ({})",
                                   s.backend, durationText(open_.limit), late,
                                   s.load.lateness.count(),
                                   shareText(late, s.load.lateness.count())));
        if (s.load.lateness.count() && percentileSupported(99, s.load.lateness.count()) &&
            (!best || s.load.lateness.percentile(99) < best->load.lateness.percentile(99)))
            best = &s;
    }
    text.push_back("");
    m.text.insert(m.text.begin(), text.begin(), text.end());
    if (!m.systemFailure) {
        m.verdict += best ? fmt::format("; lowest p99 lateness: {} ({})", best->backend,
                                        durationText(Duration{best->load.lateness.percentile(99)}))
                          : std::string("; too few samples for a p99");
        if (measured.interrupted)
            m.verdict = fmt::format(
                "interrupted: partial result; {} of {} backends played "
                "before the stop; {}",
                runs.size(), names.size(), m.verdict);
        if (ctx.environment.busyNow())
            m.verdict += "; the machine was busy, so lateness includes competition for the CPU";
    }

    nlohmann::json& j = m.result;
    j["method"] = "open";
    j["offered_rate_per_s"] = runs.front().load.offeredRate;
    j["workers"] = exec_.workers;
    j["arrival"] = open_.arrival;
    j["deadline_window_us"] =
        std::chrono::duration<double, std::micro>(open_.deadlineWindow).count();
    j["limit_us"] = std::chrono::duration<double, std::micro>(open_.limit).count();
    j["interrupted"] = measured.interrupted;
    comparisonFiles(m, runs);
    if (open_.stages) compareStages(m, runs);
}

void OpenMode::compareStages(ModeResult& m, const std::vector<StreamRunResult>& runs) const {
    const RateProfile& p = *open_.stages;
    m.result["stages"] = stagesJson(p);
    CsvTable t;
    t.addColumn("time s");
    t.addColumn("offered per s");
    std::vector<std::string> rates{"offered per s"}, backlogs;
    for (const StreamRunResult& s : runs) {  // each backend's recovery is in its own result
        rates.push_back(s.backend + " achieved per s");
        backlogs.push_back(s.backend + " backlog");
        t.addColumn(rates.back());
        t.addColumn(backlogs.back());
    }
    const std::size_t rows = runs.empty() ? 0 : runs.front().load.intervals.size();
    for (std::size_t k = 0; k < rows; ++k) {
        std::vector<CsvTable::Cell> row{runs.front().load.intervals[k].i.tSeconds,
                                        runs.front().load.intervals[k].offeredRate};
        for (const StreamRunResult& s : runs) {
            const bool has = k < s.load.intervals.size();
            row.emplace_back(has ? s.load.intervals[k].i.throughput : kMissing);
            row.emplace_back(has ? s.load.intervals[k].i.backlog : kMissing);
        }
        t.addRow(std::move(row));
    }
    PlotOptions po;
    po.title = "open load with stages: offered and achieved rate per interval, per backend";
    po.yLabel = "jobs per s";
    po.y2Label = "backlog (due jobs not started)";
    m.plots.push_back({"-intervals", GnuplotScript::tablePlot(t, "time s", rates, backlogs, po)});
    m.tables.push_back({"-intervals", std::move(t)});
}

void OpenMode::comparisonFiles(ModeResult& m, const std::vector<StreamRunResult>& runs) const {
    CsvTable pt = streamPercentileTable(runs);
    std::vector<std::string> series;
    for (const StreamRunResult& s : runs)
        series.push_back(s.backend + " lateness us");
    PlotOptions pl;
    pl.title =
        fmt::format("open load {}: start lateness by percentile, per backend", open_.rateText());
    m.plots.push_back({"-latency", percentilePlot(pt, "percentile", series, pl)});
    m.tables.push_back({"-latency", std::move(pt)});
    m.tables.push_back({"-backends", streamBackendsTable(runs)});
}

// ---- present: traces

void OpenMode::traceFiles(ModeResult& m, const std::vector<StreamRunResult>& runs) const {
    for (const StreamRunResult& s : runs) {
        const std::string suffix =
            runs.size() > 1 ? "-" + s.backend + "-trace.json" : "-trace.json";
        m.files.push_back(
            {suffix,
             streamTraceText(s.backend, s.load.traced,
                             {{"mode", "open"},
                              {"offered rate", open_.rateText()},
                              {"arrival", open_.arrival},
                              {"workers", std::to_string(exec_.workers)},
                              {"traced", fmt::format("the first {} of {} arrivals that ran",
                                                     s.load.traced.size(), s.load.posted)}})});
    }
}

}  // namespace

std::unique_ptr<Mode> makeOpenMode() {
    return std::make_unique<OpenMode>();
}

}  // namespace pullsched::rig
