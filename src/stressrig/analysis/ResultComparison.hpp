#pragma once
// The analysis of --mode=compare: one row per metric of two results, each difference
// judged (repeated measurements by the two-sided Mann-Whitney U test, values measured once
// not at all), the rows tallied, and the options in which the two configurations differ.

#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/SampleStatistics.hpp"

namespace pullsched::rig {

enum class Judgement { Beyond, Within, None };

/// One metric of the comparison, A the baseline and B the candidate.
struct MetricRow {
    std::string metric;
    std::string kind;  ///< "repeated" or "single"
    std::size_t nA = 0, nB = 0;
    double a = kMissing, b = kMissing;  ///< medians of repeated values
    double pValue = kMissing;
    Judgement judgement = Judgement::None;
    std::string judgementText;

    double difference() const { return b - a; }
    double changePercent() const {
        return (std::isnan(a) || std::isnan(b) || a == 0) ? kMissing
                                                          : 100.0 * (b - a) / std::abs(a);
    }
    /// Whether the row shows a difference: every repeated row, a single value only when
    /// both are present and unequal.
    bool differs() const { return kind == "repeated" || (a != b && !std::isnan(a - b)); }
};

/// The repeated values `a` and `b` of one metric, judged at `alpha`.
MetricRow repeatedRow(const std::string& metric, const std::vector<double>& a,
                      const std::vector<double>& b, double alpha);

/// A value measured once in each result (NaN: missing).
MetricRow singleRow(const std::string& metric, double a, double b);

/// A single row for every numeric (or null) leaf both results have, nested objects named
/// "outer.inner", in name order. A "backends.NAME.KEY" leaf that repeats the top-level
/// "KEY" in both results (a result of one backend) is listed once, as "KEY".
std::vector<MetricRow> singleRows(const nlohmann::json& resultA, const nlohmann::json& resultB);

/// The rows counted by outcome; only rows that differ count as beyond, within or no
/// judgement.
struct ComparisonTally {
    std::size_t beyond = 0, within = 0, noJudgement = 0;
    std::size_t differing = 0;  ///< single values that differ
    std::size_t same = 0;       ///< single values the same in both or missing in both
};
ComparisonTally tallyRows(const std::vector<MetricRow>& rows);

/// "key A -> B" for every option of configuration A that B sets differently, leaving out
/// where the result went (out, name, json, quiet, no_render) and the --check options.
std::vector<std::string> configurationDifferences(const nlohmann::json& a, const nlohmann::json& b);

/// A configuration or result value as text: "unset" for null, strings without quotes.
std::string valueText(const nlohmann::json& v);

}  // namespace pullsched::rig
