#include "report/OpenClosedReport.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "analysis/SampleStatistics.hpp"
#include "format/Units.hpp"
#include "report/LatencyReport.hpp"
#include "report/MetricCatalogue.hpp"
#include "report/MissingValues.hpp"

namespace pullsched::rig {

namespace {

constexpr double kPercentiles[] = {0, 50, 75, 90, 95, 99, 99.9, 99.99, 100};
constexpr double kMiB = 1048576.0;

double nsToUs(std::int64_t ns) {
    return static_cast<double>(ns) / 1e3;
}

/// A lateness percentile in µs, or missing when the count does not support it.
double percentileUs(const LatencyHistogram& h, double p) {
    if (h.count() == 0) return kMissing;
    if (p > 0 && p < 100 && !percentileSupported(p, h.count())) return kMissing;
    return nsToUs(h.percentile(p));
}

/// Closed load has no generator thread: its generator CPU is missing, not 0.
nlohmann::json generatorCpu(const LoadRunResult& r) {
    return r.method == "open" ? nlohmann::json(r.generatorCpuPercent) : nlohmann::json(nullptr);
}

std::string rate(double perSecond) {
    return textOr(perSecond, [](double v) { return Units::formatRate(v); });
}

}  // namespace

nlohmann::json loadRunJson(const LoadRunResult& r) {
    return nlohmann::json{
        {"method", r.method},
        {"offered_rate_per_s", jsonNumber(r.offeredRate)},
        {"achieved_rate_per_s", jsonNumber(r.achievedRate)},
        {"completed_in_span", r.completedInSpan},
        {"span_too_short", r.spanTooShort},
        {"jobs_posted", r.posted},
        {"jobs_measured", r.measured},
        {"jobs_completed", r.completed},
        {"jobs_expired", r.expired},
        {"jobs_failed", r.failed},
        {"jobs_cancelled", r.cancelled},
        {"posted_late", r.postedLate},
        {"drained", r.drained},
        {"interrupted", r.interrupted},
        {"measured_span_ms", std::chrono::duration<double, std::milli>(r.span).count()},
        {"wall_ms", std::chrono::duration<double, std::milli>(r.wall).count()},
        {"cpu_percent", r.cpuPercent},
        {"generator_cpu_percent", generatorCpu(r)},
        {"rss_max_mib", r.rssMaxBytes ? nlohmann::json(static_cast<double>(r.rssMaxBytes) / kMiB)
                                      : nlohmann::json(nullptr)},
        {"max_backlog", r.maxBacklog},
        {"lateness", histogramJson(r.lateness)}};
}

std::vector<std::string> loadRunText(const LoadRunResult& r) {
    std::vector<std::string> t;
    std::string counts =
        fmt::format("{:>6}: offered {}  achieved {}  jobs {} (measured {})  completed {}", r.method,
                    rate(r.offeredRate), rate(r.achievedRate), r.posted, r.measured, r.completed);
    if (r.expired) counts += fmt::format("  EXPIRED (past their deadline) {}", r.expired);
    if (r.failed) counts += fmt::format("  FAILED {}", r.failed);
    if (r.cancelled) counts += fmt::format("  cancelled {}", r.cancelled);
    if (!r.drained) counts += "  (not drained at the end)";
    t.push_back(counts);
    t.push_back(fmt::format("        lateness {}", percentileLine(r.lateness)));
    t.push_back(fmt::format(
        "        CPU {:.0f} %{}  RSS max {}  max backlog {}{}", r.cpuPercent,
        r.method == "open" ? fmt::format(" (generator {:.1f} %)", r.generatorCpuPercent)
                           : std::string{},
        r.rssMaxBytes ? fmt::format("{:.1f} MiB", static_cast<double>(r.rssMaxBytes) / kMiB)
                      : std::string("n/a"),
        r.maxBacklog,
        r.postedLate ? fmt::format("  posted late by the generator: {}", r.postedLate)
                     : std::string{}));
    return t;
}

CsvTable latencyPercentileTable(const std::vector<const LoadRunResult*>& runs) {
    CsvTable t;
    t.addColumn("percentile");
    t.addColumn("nines");
    for (const LoadRunResult* r : runs)
        t.addColumn(r->method + " lateness us");
    for (double p : kPercentiles) {
        std::vector<CsvTable::Cell> row{p, p >= 100 ? 5.0 : -std::log10(1 - p / 100)};
        for (const LoadRunResult* r : runs)
            row.emplace_back(percentileUs(r->lateness, p));
        t.addRow(std::move(row));
    }
    return t;
}

CsvTable loadSummaryTable(const std::vector<const LoadRunResult*>& runs) {
    CsvTable t;
    t.addColumn("method", CsvTable::Kind::Text);
    using namespace std::string_literals;
    const auto figure = [](std::string_view name) { return MetricCatalogue::csvHeader(name); };
    for (std::string c : {figure("offered_rate"), figure("throughput"), figure("jobs_posted"),
                          figure("jobs_measured"), figure("jobs_completed"), figure("jobs_expired"),
                          figure("jobs_failed"), figure("jobs_cancelled"), figure("lateness_mean"),
                          figure("lateness_p50"), figure("lateness_p90"), figure("lateness_p99"),
                          figure("lateness_p99_9"), figure("lateness_max"), "cpu %"s,
                          "generator cpu %"s, figure("rss_max"), figure("max_backlog")})
        t.addColumn(std::move(c));
    for (const LoadRunResult* r : runs) {
        const LatencyHistogram& h = r->lateness;
        const bool any = h.count() > 0;
        t.addRow({r->method, r->offeredRate, r->achievedRate, static_cast<double>(r->posted),
                  static_cast<double>(r->measured), static_cast<double>(r->completed),
                  static_cast<double>(r->expired), static_cast<double>(r->failed),
                  static_cast<double>(r->cancelled), any ? h.mean() / 1e3 : kMissing,
                  percentileUs(h, 50), percentileUs(h, 90), percentileUs(h, 99),
                  percentileUs(h, 99.9), any ? nsToUs(h.max()) : kMissing, r->cpuPercent,
                  r->method == "open" ? r->generatorCpuPercent : kMissing,
                  r->rssMaxBytes ? static_cast<double>(r->rssMaxBytes) / kMiB : kMissing,
                  static_cast<double>(r->maxBacklog)});
    }
    return t;
}

CsvTable loadTimeSeries(const LoadRunResult& r) {
    CsvTable t({"time s", "backlog", "cpu %", "rss MiB"});
    for (const ProcessSample& s : r.samples)
        t.addRow({std::chrono::duration<double>(s.t).count(),
                  static_cast<double>(std::max<std::int64_t>(0, s.queueDepth)), s.cpuPercent,
                  s.rssBytes ? static_cast<double>(s.rssBytes) / kMiB : kMissing});
    return t;
}

}  // namespace pullsched::rig
