// --mode=closed: a fixed number of users, each submitting its next job when the previous
// one is done; then the same jobs as open load at the rate the users reached, to show
// what a closed measurement does not see.
#include <cmath>
#include <optional>

#include <fmt/format.h>

#include "cli/ExecutionOptions.hpp"
#include "cli/OpenLoadOptions.hpp"
#include "cli/PlacementOption.hpp"
#include "format/Units.hpp"
#include "load/JobBody.hpp"
#include "load/LoadRuns.hpp"
#include "load/Progress.hpp"
#include "modes/Mode.hpp"
#include "report/HgrmWriter.hpp"
#include "report/LatencyReport.hpp"
#include "report/OpenClosedReport.hpp"
#include "report/VerdictPlots.hpp"

namespace pullsched::rig {

namespace {

/// The open comparison holds its whole timetable in memory: at most this many arrivals.
constexpr double kMaxComparisonArrivals = 2e7;

std::string dur(Duration d) {
    return Units::formatDuration(d);
}

/// Why the closed run's measured span could not measure its throughput; empty if it could.
std::string spanTooShortText(const LoadRunResult& r) {
    if (!r.spanTooShort || r.interrupted) return {};
    if (r.completedInSpan == 0)
        return fmt::format(
            "no job completed in the measured span of {}: it was too short for one job; "
            "lengthen --duration",
            dur(r.span));
    return fmt::format(
        "the measured span of {} is shorter than one job, so its {} completions began "
        "before it: lengthen --duration",
        dur(r.span), r.completedInSpan);
}

class ClosedMode final : public Mode {
  public:
    std::string_view name() const override { return "closed"; }
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
                   "pause between a user's job finishing and its next job starting");
    }
    void validate(const OptionTable&) override {
        if (span_.warmup >= span_.duration)
            throw UsageError(fmt::format("--warmup={} must be shorter than --duration={}",
                                         dur(span_.warmup), dur(span_.duration)));
    }

    ModeResult run(RunContext& ctx) override {
        JobBody body(exec_.loadKind, &ctx.progress);
        ctx.progress.note(fmt::format("closed load: {} users for {}, {} workers, jobs of {}",
                                      users_, dur(span_.duration), exec_.workers, dur(exec_.load)));
        ClosedRunConfig cc;
        cc.users = users_;
        cc.workers = exec_.workers;
        cc.placement = placement_.placement();
        cc.jobLoad = exec_.load;
        cc.think = think_;
        cc.duration = span_.duration;
        cc.warmup = span_.warmup;
        const LoadRunResult closed = runClosedLoad(cc, body.load(), &ctx.stop);

        // The same jobs as open load at the rate the closed users reached.
        std::optional<LoadRunResult> open;
        std::string notRun;
        const double rate = closed.achievedRate;
        const std::string tooShort = spanTooShortText(closed);
        const double arrivals = rate * std::chrono::duration<double>(span_.duration).count();
        if (closed.interrupted)
            notRun = "the closed run was interrupted";
        else if (!(rate > 0))
            notRun = fmt::format(
                "the closed run completed no job in its measured span of {} (achieved rate {}), "
                "so there is no rate to offer",
                dur(closed.span), std::isnan(rate) ? "n/a" : Units::formatRate(rate));
        else if (closed.spanTooShort)
            notRun = "the closed run's rate rests on a span too short for one job";
        else if (arrivals > kMaxComparisonArrivals)
            notRun = fmt::format("{} over {} would be {:.3g} arrivals (at most {:.3g})",
                                 Units::formatRate(rate), dur(span_.duration), arrivals,
                                 kMaxComparisonArrivals);
        if (notRun.empty()) {
            ctx.progress.note(
                fmt::format("open load at the closed rate {}", Units::formatRate(rate)));
            OpenRunConfig oc;
            oc.arrivals = {rate, "constant", 42};
            oc.workers = exec_.workers;
            oc.placement = placement_.placement();
            oc.jobLoad = exec_.load;
            oc.duration = span_.duration;
            oc.warmup = span_.warmup;
            oc.deadlineWindow = Duration{0};  // closed jobs have none either
            open = runOpenLoad(oc, body.load(), &ctx.stop);
        }

        ModeResult m;
        m.name = "closed";
        m.calibration = body.json();
        m.partial = closed.interrupted || (open && open->interrupted);
        std::vector<const LoadRunResult*> runs{&closed};
        if (open) runs.push_back(&*open);

        m.text.push_back(
            fmt::format("Closed load: {} users{} for {} ({}), {} workers, jobs of {}", users_,
                        think_ > Duration{0} ? fmt::format(" thinking {}", dur(think_)) : "",
                        dur(span_.duration), span_.warmupText(), exec_.workers, dur(exec_.load)));
        for (const LoadRunResult* r : runs)
            for (const std::string& l : loadRunText(*r))
                m.text.push_back(l);
        m.text.push_back(fmt::format(
            "Closed: each of the {} users submits its next job only when the previous one is "
            "done, so the load slows down whenever the scheduler does, and the time a user "
            "waited before it could submit is not in its latency.",
            users_));
        if (open) {
            m.text.push_back(
                "Open: the same jobs at the closed run's rate on a fixed timetable, without "
                "deadlines; lateness counts from the intended start, so waiting in the queue "
                "shows.");
            const bool both = percentileSupported(99, closed.lateness.count()) &&
                              percentileSupported(99, open->lateness.count());
            if (both) {
                const auto c99 = closed.lateness.percentile(99),
                           o99 = open->lateness.percentile(99);
                m.text.push_back(fmt::format(
                    "p99 lateness: closed {} vs open {}{}", dur(Duration{c99}), dur(Duration{o99}),
                    c99 > 0 ? fmt::format(" ({:.1f}x)",
                                          static_cast<double>(o99) / static_cast<double>(c99))
                            : ""));
            }
        } else {
            m.text.push_back(fmt::format("Open comparison not run: {}.", notRun));
            m.warnings.push_back(fmt::format("open comparison not run: {}", notRun));
        }
        if (!tooShort.empty()) {
            m.text.push_back(fmt::format("Throughput: {}.", tooShort));
            m.warnings.push_back(tooShort);
        }

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

        std::string v = m.partial ? "interrupted: partial result; " : "";
        if (std::isnan(rate) && !tooShort.empty())
            v += fmt::format("{} closed users: no throughput, {}", users_, tooShort);
        else
            v += fmt::format("{} closed users reached {}{}", users_,
                             std::isnan(rate) ? std::string("n/a") : Units::formatRate(rate),
                             tooShort.empty() ? "" : " (a span too short for one job)");
        if (percentileSupported(99, closed.lateness.count()))
            v +=
                fmt::format(" with p99 lateness {}", dur(Duration{closed.lateness.percentile(99)}));
        if (open && percentileSupported(99, open->lateness.count()))
            v += fmt::format("; open load at that rate: p99 lateness {}",
                             dur(Duration{open->lateness.percentile(99)}));
        else if (!open)
            v += "; open comparison not run";
        m.verdict = v;

        nlohmann::json& j = m.result;
        j["workers"] = exec_.workers;
        j["users"] = users_;
        j["think_us"] = std::chrono::duration<double, std::micro>(think_).count();
        j["closed"] = loadRunJson(closed);
        j["open"] = open ? loadRunJson(*open) : nlohmann::json(nullptr);
        j["open_comparison"] = {
            {"run", open.has_value()},
            {"reason", notRun.empty() ? nlohmann::json(nullptr) : nlohmann::json(notRun)}};

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
        return m;
    }

  private:
    ExecutionOptions exec_;
    PlacementOption placement_;
    LoadSpanOptions span_;
    unsigned users_ = 4;
    Duration think_{0};
};

}  // namespace

std::unique_ptr<Mode> makeClosedMode() {
    return std::make_unique<ClosedMode>();
}

}  // namespace pullsched::rig
