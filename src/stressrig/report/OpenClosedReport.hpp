#pragma once
// How the open and closed load modes present a run: text lines, JSON, and the tables of
// its latency distribution, its summary and its time series.

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "load/LoadRunTypes.hpp"
#include "report/CsvTable.hpp"

namespace pullsched::rig {

/// Counts, rates, resources and the lateness distribution; keys carry their units,
/// missing values are null.
nlohmann::json loadRunJson(const LoadRunResult& r);

/// Three lines: counts and rates, lateness percentiles (only those the count supports),
/// resources.
std::vector<std::string> loadRunText(const LoadRunResult& r);

/// "percentile", "nines" (−log10(1 − p/100), the x axis of latency plots) and one
/// "<method> lateness us" column per run; a percentile a run's count does not support
/// is an empty cell.
CsvTable latencyPercentileTable(const std::vector<const LoadRunResult*>& runs);

/// One row per run: rates, counts, lateness figures (µs), CPU, RSS (MiB), backlog.
CsvTable loadSummaryTable(const std::vector<const LoadRunResult*>& runs);

/// The sampled series of one run: "time s", "backlog", "cpu %", "rss MiB".
CsvTable loadTimeSeries(const LoadRunResult& r);

}  // namespace pullsched::rig
