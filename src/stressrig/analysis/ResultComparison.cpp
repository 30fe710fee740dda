#include "analysis/ResultComparison.hpp"

#include <map>
#include <string_view>

#include <fmt/format.h>

#include "analysis/MannWhitney.hpp"

namespace pullsched::rig {

MetricRow repeatedRow(const std::string& metric, const std::vector<double>& a,
                      const std::vector<double>& b, double alpha) {
    MetricRow r;
    r.metric = metric;
    r.kind = "repeated";
    const SampleStatistics sa = SampleStatistics::of(a), sb = SampleStatistics::of(b);
    r.nA = sa.count;
    r.nB = sb.count;
    r.a = sa.median;
    r.b = sb.median;
    if (r.nA == 0 || r.nB == 0) {
        r.judgementText = "no judgement possible (no value in one result)";
        return r;
    }
    if (r.nA == 1 && r.nB == 1) {
        r.judgementText = "no judgement possible (single value)";
        return r;
    }
    const MannWhitneyResult u = mannWhitneyU(a, b);
    r.pValue = u.pValue;
    if (u.minimumPValue >= alpha) {
        r.judgementText = fmt::format(
            "no judgement possible (too few repetitions: {} and {} give p >= {:.3g} even when "
            "every value differs)",
            r.nA, r.nB, u.minimumPValue);
        return r;
    }
    if (u.pValue < alpha) {
        r.judgement = Judgement::Beyond;
        r.judgementText = fmt::format("beyond the noise: B {} (p = {:.3g} < {:.3g})",
                                      r.b > r.a ? "higher" : "lower", u.pValue, alpha);
    } else {
        r.judgement = Judgement::Within;
        r.judgementText = fmt::format("within the noise (p = {:.3g} >= {:.3g})", u.pValue, alpha);
    }
    return r;
}

MetricRow singleRow(const std::string& metric, double a, double b) {
    MetricRow r;
    r.metric = metric;
    r.kind = "single";
    r.nA = std::isnan(a) ? 0 : 1;
    r.nB = std::isnan(b) ? 0 : 1;
    r.a = a;
    r.b = b;
    if (std::isnan(a) && std::isnan(b))
        r.judgementText = "missing in both";
    else if (a == b)
        r.judgementText = "same value";
    else
        r.judgementText = "no judgement possible (single value)";
    return r;
}

namespace {

/// Numeric leaves of a result, nested objects flattened to "outer.inner".
void numericLeaves(const nlohmann::json& v, const std::string& prefix,
                   std::map<std::string, double>& out) {
    if (v.is_object()) {
        for (const auto& [k, x] : v.items())
            numericLeaves(x, prefix.empty() ? k : prefix + "." + k, out);
    } else if (v.is_number()) {
        out[prefix] = v.get<double>();
    } else if (v.is_null()) {
        out[prefix] = kMissing;  // measured as missing: compared as missing
    }
}

bool sameValue(double x, double y) {
    return x == y || (std::isnan(x) && std::isnan(y));
}

/// "backends.NAME.KEY" whose value is the top-level "KEY"'s: a result of one backend
/// carries its figures twice (the detail at the top, the comparison entry under
/// "backends"), and the comparison would list each of them twice.
bool repeatsTopLevel(const std::string& key, const std::map<std::string, double>& leaves) {
    static constexpr std::string_view kPrefix = "backends.";
    if (key.rfind(kPrefix, 0) != 0) return false;
    const std::size_t dot = key.find('.', kPrefix.size());
    if (dot == std::string::npos) return false;
    const auto top = leaves.find(key.substr(dot + 1));
    return top != leaves.end() && sameValue(top->second, leaves.at(key));
}

}  // namespace

std::vector<MetricRow> singleRows(const nlohmann::json& resultA, const nlohmann::json& resultB) {
    std::map<std::string, double> la, lb;
    numericLeaves(resultA, "", la);
    numericLeaves(resultB, "", lb);
    std::vector<MetricRow> rows;
    for (const auto& [k, va] : la) {
        const auto it = lb.find(k);
        if (it == lb.end() || (repeatsTopLevel(k, la) && repeatsTopLevel(k, lb))) continue;
        rows.push_back(singleRow(k, va, it->second));
    }
    return rows;
}

ComparisonTally tallyRows(const std::vector<MetricRow>& rows) {
    ComparisonTally t;
    for (const MetricRow& r : rows) {
        if (r.judgementText == "same value" || r.judgementText == "missing in both") ++t.same;
        if (!r.differs()) continue;
        if (r.judgement == Judgement::Beyond)
            ++t.beyond;
        else if (r.judgement == Judgement::Within)
            ++t.within;
        else
            ++t.noJudgement;
        if (r.kind == "single") ++t.differing;
    }
    return t;
}

std::vector<std::string> configurationDifferences(const nlohmann::json& a,
                                                  const nlohmann::json& b) {
    std::vector<std::string> diffs;
    for (const auto& [k, v] : a.items()) {
        // where and how the result was written, and the checks held against it, do not
        // change what was measured
        if (k == "out" || k == "name" || k == "json" || k == "quiet" || k == "no_render" ||
            k.rfind("check", 0) == 0)
            continue;
        const nlohmann::json w = b.contains(k) ? b.at(k) : nlohmann::json(nullptr);
        if (v != w) diffs.push_back(fmt::format("{} {} -> {}", k, valueText(v), valueText(w)));
    }
    return diffs;
}

std::string valueText(const nlohmann::json& v) {
    if (v.is_null()) return "unset";
    if (v.is_string()) return v.get<std::string>();
    return v.dump();
}

}  // namespace pullsched::rig
