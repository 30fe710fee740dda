// --mode=closed: a fixed number of users, each submitting its next job when the previous
// one is done; then the same jobs as open load at the rate the users reached, to show
// what a closed measurement does not see.
#include <cmath>
#include <optional>

#include <fmt/format.h>

#include "backends/BackendRegistry.hpp"
#include "backends/StreamClosedLoad.hpp"
#include "backends/StreamOpenLoad.hpp"
#include "cli/BackendOptions.hpp"
#include "cli/ExecutionOptions.hpp"
#include "cli/OpenLoadOptions.hpp"
#include "cli/PlacementOption.hpp"
#include "format/Units.hpp"
#include "load/JobBody.hpp"
#include "load/LoadRunTypes.hpp"
#include "load/Progress.hpp"
#include "modes/Mode.hpp"
#include "modes/ModeFigures.hpp"
#include "report/HgrmWriter.hpp"
#include "report/LatencyReport.hpp"
#include "report/LatenessCells.hpp"
#include "report/OpenClosedReport.hpp"
#include "report/PerBackendResult.hpp"
#include "report/PercentilePlot.hpp"
#include "report/StreamTrace.hpp"
#include "report/TextFormat.hpp"

namespace pullsched::rig {

namespace {

/// The open comparison holds its whole timetable in memory: at most this many arrivals.
constexpr double kMaxComparisonArrivals = 2e7;

/// Why the closed run's measured span could not measure its throughput; empty if it could.
std::string spanTooShortText(const LoadRunResult& r) {
    if (!r.spanTooShort || r.interrupted) return {};
    if (r.completedInSpan == 0)
        return fmt::format(
            "no job completed in the measured span of {}: it was too short for one job; "
            "lengthen --duration",
            durationText(r.span));
    return fmt::format(
        "the measured span of {} is shorter than one job, so its {} completions began "
        "before it: lengthen --duration",
        durationText(r.span), r.completedInSpan);
}

/// Why the open comparison cannot run after `closed` (a run of `duration`); empty if it
/// can: it needs a whole closed run that measured a positive rate over a span longer than
/// a job, and a timetable that fits in memory.
std::string openComparisonBlocker(const LoadRunResult& closed, Duration duration) {
    const double rate = closed.achievedRate;
    const double arrivals = rate * std::chrono::duration<double>(duration).count();
    if (closed.interrupted) return "the closed run was interrupted";
    if (!(rate > 0))
        return fmt::format(
            "the closed run completed no job in its measured span of {} (achieved rate {}), "
            "so there is no rate to offer",
            durationText(closed.span), std::isnan(rate) ? "n/a" : Units::formatRate(rate));
    if (closed.spanTooShort) return "the closed run's rate rests on a span too short for one job";
    if (arrivals > kMaxComparisonArrivals)
        return fmt::format("{} over {} would be {:.3g} arrivals (at most {:.3g})",
                           Units::formatRate(rate), durationText(duration), arrivals,
                           kMaxComparisonArrivals);
    return {};
}

class ClosedMode final : public Mode {
  public:
    std::string_view name() const override { return "closed"; }
    std::vector<FigureSource> figures() const override {
        return withLateness(LatenessAt::NestedPerLoop,
                            {{"throughput", "*.achieved_rate_per_s"},
                             {"drop_rate", "*.jobs_expired/*.jobs_posted"},
                             {"jobs_expired", "*.jobs_expired"}});
    }
    std::vector<std::string> selectorLabels() const override {
        std::vector<std::string> labels{"closed", "open"};
        for (std::string& b : backends_.labels())
            labels.push_back(std::move(b));
        return labels;
    }
    std::string_view summary() const override {
        return "closed load: N users, next job when the previous is done; compared with open "
               "load at the same rate";
    }
    void declare(OptionTable& t) override {
        exec_.declare(t, "busy time of each job");
        placement_.declare(t);
        span_.declare(t, 5s, "submissions in this first part are run but not measured");
        t.group("Closed load");
        t.count("users", users_, 1, 100'000, "users, each with one job in flight");
        t.duration("think", think_, 0ns, 10s,
                   "pause between a user's job finishing and its next job starting (needs a "
                   "backend with native start times)");
        backends_.declareStreamList(t,
                                    "schedulers that each run the same users and the same open "
                                    "comparison, one after the other");
        t.group("Traces");
        t.flag("trace-json", traceJson_,
               fmt::format("write <name>-trace.json (<name>-<backend>-trace.json with several "
                           "backends): the users' first {} jobs, one track per thread that ran "
                           "them, and <name>-open-trace.json: the open comparison's first {} "
                           "arrivals (ui.perfetto.dev, chrome://tracing); every backend",
                           kTracedArrivals, kTracedArrivals));
    }
    void validate(const OptionTable& t) override {
        placement_.refuseIgnoredBy(t, backends_);
        span_.refuseWarmupNotShorter();
        for (const std::string& n : backends_.names())
            if (think_ > Duration{0} && BackendRegistry::find(n).startTimes != StartTimes::Native)
                throw UsageError(fmt::format(
                    "--think={}: {} has no native start times (a job cannot be handed over "
                    "for later); give --think=0 to run it",
                    durationText(think_), n));
    }

    ModeResult run(RunContext& ctx) override {
        JobBody body(exec_.loadKind, &ctx.progress);
        return runOnEachBackend("closed", backends_.names(), ctx.stop,
                                [&](const std::string& b) { return runOn(ctx, body, b); });
    }

  private:
    ModeResult runOn(RunContext& ctx, const JobBody& body, const std::string& backend) const {
        ctx.progress.note(fmt::format("closed load: {} users for {}, {} workers, jobs of {}, on {}",
                                      users_, durationText(span_.duration), exec_.workers,
                                      durationText(exec_.load), backend));
        const LoadRunResult closed = runClosedLoad(*BackendRegistry::streamRunner(backend),
                                                   closedConfig(), body.load(), &ctx.stop);
        // The same jobs as open load at the rate the closed users reached.
        const std::string notRun = openComparisonBlocker(closed, span_.duration);
        std::optional<LoadRunResult> open;
        if (notRun.empty()) {
            ctx.progress.note(fmt::format("open load at the closed rate {}, on {}",
                                          Units::formatRate(closed.achievedRate), backend));
            open = runOpenLoad(*BackendRegistry::streamRunner(backend),
                               openConfig(closed.achievedRate), body.load(), &ctx.stop)
                       .load;
        }

        ModeResult m;
        m.name = "closed";
        m.calibration = body.json();
        m.partial = closed.interrupted || (open && open->interrupted);
        std::vector<const LoadRunResult*> runs{&closed};
        if (open) runs.push_back(&*open);
        const std::string tooShort = spanTooShortText(closed);
        m.text = textLines(runs, closed, open, notRun, tooShort);
        addFindings(m, runs, open, notRun, tooShort);
        m.verdict = verdict(m.partial, closed, open, tooShort);
        m.result = resultJson(closed, open, notRun);
        m.tables.push_back({"", loadSummaryTable(runs)});
        CsvTable pt = latencyPercentileTable(runs);
        PlotOptions pl;
        pl.title = "closed vs open at the same rate: start lateness by percentile";
        std::vector<std::string> ys;
        for (const LoadRunResult* r : runs)
            ys.push_back(r->method + " lateness us");
        m.plots.push_back({"-latency", percentilePlot(pt, "percentile", ys, pl)});
        m.tables.push_back({"-latency", std::move(pt)});
        m.tables.push_back({"-timeseries", loadTimeSeries(closed)});
        m.files.push_back({"-closed.hgrm", hgrmText(closed.lateness)});
        if (open) m.files.push_back({"-open.hgrm", hgrmText(open->lateness)});
        if (traceJson_) traceFiles(m, backend, closed, open);
        return m;
    }

    /// The users' first jobs and the open comparison's first arrivals, a trace each.
    void traceFiles(ModeResult& m, const std::string& backend, const LoadRunResult& closed,
                    const std::optional<LoadRunResult>& open) const {
        m.files.push_back(
            {"-trace.json",
             streamTraceText(backend, closed.traced,
                             {{"mode", "closed"},
                              {"run", fmt::format("{} closed users", users_)},
                              {"workers", std::to_string(exec_.workers)},
                              {"traced", fmt::format("the first {} of {} jobs the users submitted",
                                                     closed.traced.size(), closed.posted)}})});
        if (open)
            m.files.push_back(
                {"-open-trace.json",
                 streamTraceText(backend, open->traced,
                                 {{"mode", "closed"},
                                  {"run", fmt::format("the open comparison at {}",
                                                      Units::formatRate(open->offeredRate))},
                                  {"workers", std::to_string(exec_.workers)},
                                  {"traced", fmt::format("the first {} of {} arrivals that ran",
                                                         open->traced.size(), open->posted)}})});
    }

    ClosedRunConfig closedConfig() const {
        ClosedRunConfig cc;
        cc.users = users_;
        cc.workers = exec_.workers;
        cc.placement = placement_.placement();
        cc.jobLoad = exec_.load;
        cc.think = think_;
        cc.duration = span_.duration;
        cc.warmup = span_.warmup;
        if (traceJson_) cc.tracedArrivals = kTracedArrivals;
        return cc;
    }

    OpenLoadConfig openConfig(double rate) const {
        OpenLoadConfig oc;
        oc.arrivals = {rate, "constant", 42, std::nullopt};
        oc.workers = exec_.workers;
        oc.placement = placement_.placement();
        oc.jobLoad = exec_.load;
        oc.duration = span_.duration;
        oc.warmup = span_.warmup;
        oc.deadlineWindow = Duration{0};  // closed jobs have none either
        if (traceJson_) oc.tracedArrivals = kTracedArrivals;
        return oc;
    }

    std::vector<std::string> textLines(const std::vector<const LoadRunResult*>& runs,
                                       const LoadRunResult& closed,
                                       const std::optional<LoadRunResult>& open,
                                       const std::string& notRun,
                                       const std::string& tooShort) const {
        std::vector<std::string> text;
        text.push_back(fmt::format(
            "Closed load: {} users{} for {} ({}), {} workers, jobs of {}", users_,
            think_ > Duration{0} ? fmt::format(" thinking {}", durationText(think_)) : "",
            durationText(span_.duration), span_.warmupText(), exec_.workers,
            durationText(exec_.load)));
        for (const LoadRunResult* r : runs)
            for (const std::string& l : loadRunText(*r))
                text.push_back(l);
        text.push_back(fmt::format(
            "Closed: each of the {} users submits its next job only when the previous one is "
            "done, so the load slows down whenever the scheduler does, and the time a user "
            "waited before it could submit is not in its latency.",
            users_));
        if (open) {
            text.push_back(
                "Open: the same jobs at the closed run's rate on a fixed timetable, without "
                "deadlines; lateness counts from the intended start, so waiting in the queue "
                "shows.");
            if (percentileSupported(99, closed.lateness.count()) &&
                percentileSupported(99, open->lateness.count())) {
                // the ratio of the µs values the JSON holds (lateness.p99_us of each)
                const double c99 = percentileLatenessUs(closed.lateness, 99),
                             o99 = percentileLatenessUs(open->lateness, 99);
                text.push_back(fmt::format("p99 lateness: closed {} vs open {}{}", usText(c99),
                                           usText(o99),
                                           c99 > 0 ? fmt::format(" ({:.1f}x)", o99 / c99) : ""));
            }
        } else {
            text.push_back(fmt::format("Open comparison not run: {}.", notRun));
        }
        if (!tooShort.empty()) text.push_back(fmt::format("Throughput: {}.", tooShort));
        return text;
    }

    /// Correctness failures of either run, and the warnings.
    static void addFindings(ModeResult& m, const std::vector<const LoadRunResult*>& runs,
                            const std::optional<LoadRunResult>& open, const std::string& notRun,
                            const std::string& tooShort) {
        if (!open) m.warnings.push_back(fmt::format("open comparison not run: {}", notRun));
        if (!tooShort.empty()) m.warnings.push_back(tooShort);
        for (const LoadRunResult* r : runs) {
            if (r->failed) {
                m.systemFailure = true;
                m.failures.push_back(
                    fmt::format("{}: {} of {} jobs failed", r->method, r->failed, r->posted));
            }
            const std::uint64_t settled = r->completed + r->expired + r->failed + r->cancelled;
            if (settled != r->posted) {
                m.systemFailure = true;
                m.failures.push_back(fmt::format(
                    "{}: {} jobs posted but {} reached a final state: jobs lost or run twice",
                    r->method, r->posted, settled));
            }
        }
        if (open && !open->drained)
            m.warnings.push_back(
                fmt::format("the open comparison did not drain after the run: {} jobs cancelled",
                            open->cancelled));
    }

    std::string verdict(bool partial, const LoadRunResult& closed,
                        const std::optional<LoadRunResult>& open,
                        const std::string& tooShort) const {
        const double rate = closed.achievedRate;
        std::string v = partial ? "interrupted: partial result; " : "";
        if (std::isnan(rate) && !tooShort.empty())
            v += fmt::format("{} closed users: no throughput, {}", users_, tooShort);
        else
            v += fmt::format("{} closed users reached {}{}", users_,
                             std::isnan(rate) ? std::string("n/a") : Units::formatRate(rate),
                             tooShort.empty() ? "" : " (a span too short for one job)");
        if (percentileSupported(99, closed.lateness.count()))
            v += fmt::format(" with p99 lateness {}",
                             durationText(Duration{closed.lateness.percentile(99)}));
        if (open && percentileSupported(99, open->lateness.count()))
            v += fmt::format("; open load at that rate: p99 lateness {}",
                             durationText(Duration{open->lateness.percentile(99)}));
        else if (!open)
            v += "; open comparison not run";
        return v;
    }

    nlohmann::json resultJson(const LoadRunResult& closed, const std::optional<LoadRunResult>& open,
                              const std::string& notRun) const {
        nlohmann::json j;
        j["workers"] = exec_.workers;
        j["users"] = users_;
        j["think_us"] = std::chrono::duration<double, std::micro>(think_).count();
        j["closed"] = loadRunJson(closed);
        j["open"] = open ? loadRunJson(*open) : nlohmann::json(nullptr);
        j["open_comparison"] = {
            {"run", open.has_value()},
            {"reason", notRun.empty() ? nlohmann::json(nullptr) : nlohmann::json(notRun)}};
        return j;
    }

    ExecutionOptions exec_;
    PlacementOption placement_;
    LoadSpanOptions span_;
    BackendOptions backends_;
    unsigned users_ = 4;
    Duration think_{0};
    bool traceJson_ = false;
};

}  // namespace

std::unique_ptr<Mode> makeClosedMode() {
    return std::make_unique<ClosedMode>();
}

}  // namespace pullsched::rig
