#include "report/StageReport.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include <fmt/format.h>

#include "format/Units.hpp"
#include "report/MetricCatalogue.hpp"
#include "report/MissingValues.hpp"

namespace pullsched::rig {
namespace {

double secondsOf(Duration d) {
    return std::chrono::duration<double>(d).count();
}

/// (late + drops) / (measured + drops); NaN for an interval that started and dropped nothing.
double lateShare(const IntervalRow& r) {
    const double all = static_cast<double>(r.measured + r.drops);
    return all > 0 ? static_cast<double>(r.late + r.drops) / all : kMissing;
}

/// "at once", "within 300ms" or "n/a".
std::string optionalSeconds(const std::optional<double>& s) {
    if (!s) return "n/a";
    if (*s <= 0) return "at once";
    return "within " + Units::formatDuration(
                           std::chrono::duration_cast<Duration>(std::chrono::duration<double>(*s)));
}

}  // namespace

Duration stageInterval(Duration total) {
    using namespace std::chrono_literals;
    for (Duration d : {Duration{100ms}, Duration{200ms}, Duration{250ms}, Duration{500ms},
                       Duration{1s}, Duration{2s}, Duration{5s}, Duration{10s}, Duration{30s}})
        if (total <= 100 * d) return d;
    return 1min;
}

Recovery stageRecovery(const RateProfile& p, const std::vector<IntervalRow>& rows, Duration limit,
                       unsigned workers) {
    std::vector<RecoveryPoint> points;
    points.reserve(rows.size());
    for (const IntervalRow& r : rows)
        points.push_back({r.i.tSeconds, r.i.backlog, lateShare(r)});
    RecoveryCriteria c;
    c.spikeEndSeconds = secondsOf(p.endOfLastStageAbove(p.finalRate()));
    c.backlogLimit = std::max(static_cast<double>(workers), p.finalRate() * secondsOf(limit));
    Recovery r = assessRecovery(points, c);
    if (p.endOfLastStageAbove(p.finalRate()) == Duration{0}) r.assessed = false;  // no spike
    return r;
}

nlohmann::json stagesJson(const RateProfile& p) {
    nlohmann::json a = nlohmann::json::array();
    for (const RateStage& s : p.stages())
        a.push_back({{"duration_s", secondsOf(s.length)},
                     {"from_per_s", s.fromRate},
                     {"to_per_s", s.toRate}});
    return a;
}

nlohmann::json intervalsJson(const std::vector<IntervalRow>& rows) {
    nlohmann::json a = nlohmann::json::array();
    for (const IntervalRow& r : rows)
        a.push_back({{"t_s", r.i.tSeconds},
                     {"offered_per_s", jsonNumber(r.offeredRate)},
                     {"achieved_per_s", jsonNumber(r.i.throughput)},
                     {"backlog", jsonNumber(r.i.backlog)},
                     {"lateness_p99_us", jsonNumber(r.i.latenessP99Us)},
                     {"jobs_measured", r.measured},
                     {"late", r.late},
                     {"jobs_expired", r.drops}});
    return a;
}

nlohmann::json recoveryJson(const Recovery& r, const RateProfile& p) {
    const auto opt = [](const std::optional<double>& v) {
        return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
    };
    return {{"assessed", r.assessed},
            {"sustained_rate_per_s", p.finalRate()},
            {"spike_end_s", secondsOf(p.endOfLastStageAbove(p.finalRate()))},
            {"recovered", r.recovered()},
            {"drain_s", opt(r.drainSeconds)},
            {"under_limit_s", opt(r.underLimitSeconds)},
            {"backlog_at_spike_end", opt(r.backlogAtSpikeEnd)},
            {"peak_backlog_after_spike", r.peakBacklog},
            {"relapses", r.relapses},
            {"intervals_after_recovery", r.intervalsAfterRecovery}};
}

CsvTable intervalTable(const std::vector<IntervalRow>& rows) {
    CsvTable t({"time s", "offered per s", "achieved per s", "backlog",
                MetricCatalogue::csvHeader("lateness_p99"), "late",
                MetricCatalogue::csvHeader("jobs_expired")});
    for (const IntervalRow& r : rows)
        t.addRow({r.i.tSeconds, r.offeredRate, r.i.throughput, r.i.backlog, r.i.latenessP99Us,
                  static_cast<double>(r.late), static_cast<double>(r.drops)});
    return t;
}

std::vector<std::string> intervalText(const std::vector<IntervalRow>& rows) {
    std::vector<std::string> out{fmt::format("{:>8} {:>10} {:>10} {:>8} {:>10} {:>6} {:>6}",
                                             "until", "offered", "achieved", "backlog", "p99 late",
                                             "late", "drops")};
    const auto rate = [](double v) { return textOr(v, Units::formatRate); };
    for (const IntervalRow& r : rows)
        out.push_back(fmt::format(
            "{:>8} {:>10} {:>10} {:>8} {:>10} {:>6} {:>6}", fmt::format("{:.3g}s", r.i.tSeconds),
            rate(r.offeredRate), rate(r.i.throughput),
            textOr(r.i.backlog, [](double v) { return fmt::format("{:.0f}", v); }),
            textOr(r.i.latenessP99Us,
                   [](double v) {
                       return Units::formatDuration(
                           std::chrono::nanoseconds{std::llround(v * 1e3)});
                   }),
            r.late, r.drops));
    return out;
}

namespace {
/// "backlog 596 when the spike ended, at most 120 after it": both, so that a backlog that
/// drained within the spike's last interval is not reported as none.
std::string backlogAround(const Recovery& r) {
    const std::string after = fmt::format("at most {:.0f} after it", r.peakBacklog);
    if (!r.backlogAtSpikeEnd) return "backlog " + after;
    return fmt::format("backlog {:.0f} when the spike ended, {}", *r.backlogAtSpikeEnd, after);
}
}  // namespace

std::string recoveryText(const Recovery& r, const RateProfile& p, Duration limit) {
    const Duration spikeEnd = p.endOfLastStageAbove(p.finalRate());
    const std::string sustained = Units::formatRate(p.finalRate());
    if (spikeEnd == Duration{0})
        return fmt::format("no stage above the sustained {}: recovery not assessed", sustained);
    const std::string after =
        fmt::format("after the last stage above the sustained {} (ending at {})", sustained,
                    Units::formatDuration(spikeEnd));
    if (!r.assessed) return "no interval " + after + " was measured: recovery not assessed";
    const std::string back = fmt::format(
        "backlog drained {}, starts back within --limit={} {} ({}", optionalSeconds(r.drainSeconds),
        Units::formatDuration(limit), optionalSeconds(r.underLimitSeconds), backlogAround(r));
    if (r.recovered())
        return fmt::format("recovered {}: {}{})", after, back,
                           r.relapses ? fmt::format("; {} of the {} intervals after it late or "
                                                    "backlogged again",
                                                    r.relapses, r.intervalsAfterRecovery)
                                      : std::string{});
    if (r.cameBack())
        return fmt::format(
            "did NOT stay recovered {}: {}), but {} of the {} intervals after that were late or "
            "backlogged again",
            after, back, r.relapses, r.intervalsAfterRecovery);
    return fmt::format(
        "did NOT recover {} by the end of the load: backlog {}, starts within --limit={} {} "
        "({})",
        after, r.drainSeconds ? "drained " + optionalSeconds(r.drainSeconds) : "never drained",
        Units::formatDuration(limit),
        r.underLimitSeconds ? "again " + optionalSeconds(r.underLimitSeconds) : "never again",
        backlogAround(r));
}

}  // namespace pullsched::rig
