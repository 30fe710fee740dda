#include "report/StreamComparisonReport.hpp"

#include <cmath>

#include <fmt/format.h>

#include "analysis/SampleStatistics.hpp"
#include "format/Units.hpp"
#include "report/LatencyReport.hpp"
#include "report/MetricCatalogue.hpp"
#include "report/MissingValues.hpp"
#include "report/OpenClosedReport.hpp"
#include "report/TextFormat.hpp"

namespace pullsched::rig {

namespace {

constexpr double kPercentiles[] = {0, 50, 75, 90, 95, 99, 99.9, 99.99, 100};
constexpr double kRowPercentiles[] = {50, 90, 99, 99.9};

/// A lateness percentile in µs (100 = max), missing when the count does not support it.
double percentileUs(const LatencyHistogram& h, double p) {
    if (h.count() == 0) return kMissing;
    if (p > 0 && p < 100 && !percentileSupported(p, h.count())) return kMissing;
    return static_cast<double>(h.percentile(p)) / 1e3;
}

}  // namespace

std::vector<std::string> streamBackendsText(const std::vector<StreamRunResult>& runs) {
    std::vector<std::string> t;
    t.push_back(fmt::format("  {:<10} {:<16} {:>12} {:>9}  {:>9} {:>9} {:>9} {:>9} {:>9}",
                            "backend", "arrival times", "achieved", "measured", "p50", "p90", "p99",
                            "p99.9", "max"));
    for (const StreamRunResult& s : runs) {
        const LatencyHistogram& h = s.load.lateness;
        std::string line = fmt::format(
            "  {:<10} {:<16} {:>12} {:>9}  {:>9} {:>9} {:>9} {:>9} {:>9}", s.backend,
            arrivalTimesName(s.arrivalTimes),
            textOr(s.load.achievedRate, [](double v) { return Units::formatRate(v); }), h.count(),
            usText(percentileUs(h, 50)), usText(percentileUs(h, 90)), usText(percentileUs(h, 99)),
            usText(percentileUs(h, 99.9)), usText(percentileUs(h, 100)));
        if (s.load.expired) line += fmt::format("  expired {}", s.load.expired);
        if (s.load.missed) line += fmt::format("  LOST {}", s.load.missed);
        if (s.load.repeated) line += fmt::format("  REPEATED {}", s.load.repeated);
        if (!s.load.drained) line += fmt::format("  not drained ({} skipped)", s.load.cancelled);
        if (s.load.interrupted) line += "  (interrupted)";
        t.push_back(std::move(line));
    }
    return t;
}

CsvTable streamBackendsTable(const std::vector<StreamRunResult>& runs) {
    CsvTable t;
    t.addColumn("backend", CsvTable::Kind::Text);
    t.addColumn("arrival times", CsvTable::Kind::Text);
    using namespace std::string_literals;
    const auto figure = [](std::string_view name) { return MetricCatalogue::csvHeader(name); };
    for (std::string c : {figure("offered_rate"), figure("throughput"), figure("jobs_posted"),
                          figure("jobs_measured"), figure("jobs_completed"), figure("jobs_expired"),
                          figure("jobs_lost"), figure("jobs_repeated"), figure("lateness_p50"),
                          figure("lateness_p90"), figure("lateness_p99"), figure("lateness_p99_9"),
                          figure("lateness_max"), "cpu %"s, "generator cpu %"s})
        t.addColumn(std::move(c));
    for (const StreamRunResult& s : runs) {
        const LoadRunResult& r = s.load;
        std::vector<CsvTable::Cell> row{s.backend,
                                        std::string(arrivalTimesName(s.arrivalTimes)),
                                        r.offeredRate,
                                        r.achievedRate,
                                        static_cast<double>(r.posted),
                                        static_cast<double>(r.measured),
                                        static_cast<double>(r.completed),
                                        static_cast<double>(r.expired),
                                        static_cast<double>(r.missed),
                                        static_cast<double>(r.repeated)};
        for (double p : kRowPercentiles)
            row.emplace_back(percentileUs(r.lateness, p));
        row.emplace_back(percentileUs(r.lateness, 100));
        row.emplace_back(r.cpuPercent);
        row.emplace_back(r.generatorCpuPercent);
        t.addRow(std::move(row));
    }
    return t;
}

nlohmann::json streamBackendsJson(const std::vector<StreamRunResult>& runs,
                                  const std::vector<std::string>& arrivalTexts) {
    nlohmann::json j = nlohmann::json::object();
    for (std::size_t i = 0; i < runs.size(); ++i) {
        const StreamRunResult& s = runs[i];
        nlohmann::json e = loadRunJson(s.load);
        e["arrival_times"] = arrivalTimesName(s.arrivalTimes);
        e["arrival_times_text"] = i < arrivalTexts.size() ? arrivalTexts[i] : std::string();
        e["jobs_lost"] = s.load.missed;
        e["jobs_repeated"] = s.load.repeated;
        if (s.load.samples.empty()) {
            // No sampler runs beside a stream backend: backlog and RSS are not measured.
            e["max_backlog"] = nullptr;
            e["rss_max_mib"] = nullptr;
        }
        j[s.backend] = std::move(e);
    }
    return j;
}

CsvTable streamPercentileTable(const std::vector<StreamRunResult>& runs) {
    CsvTable t;
    t.addColumn("percentile");
    t.addColumn("nines");
    for (const StreamRunResult& s : runs)
        t.addColumn(s.backend + " lateness us");
    for (double p : kPercentiles) {
        std::vector<CsvTable::Cell> row{p, p >= 100 ? 5.0 : -std::log10(1 - p / 100)};
        for (const StreamRunResult& s : runs)
            row.emplace_back(percentileUs(s.load.lateness, p));
        t.addRow(std::move(row));
    }
    return t;
}

}  // namespace pullsched::rig
