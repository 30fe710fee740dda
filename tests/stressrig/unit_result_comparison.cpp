// ResultComparison: the analysis of --mode=compare on synthetic values, no files: how a
// repeated metric is judged (beyond or within the noise, too few reps, a single value,
// nothing in one result), single values from nested results, the tally of the rows and
// the configuration options that differ.
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "analysis/ResultComparison.hpp"

using nlohmann::json;
using pullsched::rig::Judgement;
using pullsched::rig::kMissing;
using pullsched::rig::MetricRow;
using pullsched::rig::repeatedRow;
using pullsched::rig::singleRow;

TEST(ResultComparison, RepeatedValuesAreJudgedByTheRankTest) {
    const std::vector<double> low{1, 2, 3, 4, 5}, high{11, 12, 13, 14, 15};
    const MetricRow beyond = repeatedRow("runtime ms (per rep)", low, high, 0.05);
    EXPECT_EQ(beyond.judgement, Judgement::Beyond);
    EXPECT_EQ(beyond.a, 3);
    EXPECT_EQ(beyond.b, 13);
    EXPECT_EQ(beyond.judgementText.rfind("beyond the noise: B higher (p = ", 0), 0u)
        << beyond.judgementText;
    EXPECT_DOUBLE_EQ(beyond.changePercent(), 1000.0 / 3);

    const MetricRow within = repeatedRow("m", low, {1.5, 2.5, 3.5, 4.5, 5.5}, 0.05);
    EXPECT_EQ(within.judgement, Judgement::Within);
    EXPECT_EQ(within.judgementText.rfind("within the noise (p = ", 0), 0u);

    // 3 and 3 reps cannot reach p < 0.05 even when every value differs
    const MetricRow few = repeatedRow("m", {1, 2, 3}, {7, 8, 9}, 0.05);
    EXPECT_EQ(few.judgement, Judgement::None);
    EXPECT_EQ(few.judgementText,
              "no judgement possible (too few repetitions: 3 and 3 give p >= 0.1 even when every "
              "value differs)");
    EXPECT_EQ(repeatedRow("m", {1}, {2}, 0.05).judgementText,
              "no judgement possible (single value)");
    EXPECT_EQ(repeatedRow("m", {}, {2, 3}, 0.05).judgementText,
              "no judgement possible (no value in one result)");
}

TEST(ResultComparison, SingleValuesAreNeverJudged) {
    EXPECT_EQ(singleRow("x", 1, 1).judgementText, "same value");
    EXPECT_EQ(singleRow("x", kMissing, kMissing).judgementText, "missing in both");
    const MetricRow r = singleRow("x", 1, 2);
    EXPECT_EQ(r.judgementText, "no judgement possible (single value)");
    EXPECT_EQ(r.judgement, Judgement::None);
    EXPECT_TRUE(r.differs());
    EXPECT_FALSE(singleRow("x", 1, kMissing).differs());  // one side missing: no difference
    EXPECT_TRUE(std::isnan(singleRow("x", 0, 2).changePercent()));
}

TEST(ResultComparison, SingleRowsAreTheNumericLeavesBothResultsHave) {
    const json a = {{"runtime_ms", 2.0},
                    {"lateness", {{"p50_us", 5}, {"p99_us", nullptr}}},
                    {"pattern", "burst"},
                    {"only_a", 1}};
    const json b = {{"runtime_ms", 3.0},
                    {"lateness", {{"p50_us", 5}, {"p99_us", nullptr}}},
                    {"pattern", "burst"}};
    const std::vector<MetricRow> rows = pullsched::rig::singleRows(a, b);
    ASSERT_EQ(rows.size(), 3u);
    EXPECT_EQ(rows[0].metric, "lateness.p50_us");
    EXPECT_EQ(rows[1].metric, "lateness.p99_us");
    EXPECT_EQ(rows[1].judgementText, "missing in both");
    EXPECT_EQ(rows[2].metric, "runtime_ms");
    EXPECT_EQ(rows[2].kind, "single");
}

TEST(ResultComparison, ABackendEntryThatRepeatsTheTopLevelFigureIsListedOnce) {
    // one backend: its entry repeats the top-level figures
    const json a = {
        {"runtime_ms", 2.0},
        {"efficiency", 0.5},
        {"backends", {{"pullsched", {{"runtime_ms", 2.0}, {"efficiency", 0.5}, {"runs", 3}}}}}};
    json b = a;
    b["runtime_ms"] = 3.0;
    b["backends"]["pullsched"]["runtime_ms"] = 3.0;
    b["backends"]["pullsched"]["efficiency"] = 0.7;  // not the top-level value in B: kept
    const std::vector<MetricRow> rows = pullsched::rig::singleRows(a, b);
    std::vector<std::string> names;
    for (const MetricRow& r : rows)
        names.push_back(r.metric);
    EXPECT_EQ(names,
              (std::vector<std::string>{"backends.pullsched.efficiency", "backends.pullsched.runs",
                                        "efficiency", "runtime_ms"}));
}

TEST(ResultComparison, TallyCountsOnlyRowsThatDiffer) {
    const std::vector<MetricRow> rows{
        repeatedRow("a", {1, 2, 3, 4, 5}, {11, 12, 13, 14, 15}, 0.05),  // beyond
        repeatedRow("b", {1, 2, 3, 4, 5}, {1, 2, 3, 4, 5}, 0.05),       // within
        repeatedRow("c", {1, 2, 3}, {1, 2, 3}, 0.05),                   // too few reps
        singleRow("d", 1, 2),                                           // differs
        singleRow("e", 1, 1),                                           // same
        singleRow("f", kMissing, kMissing),                             // missing in both
        singleRow("g", 1, kMissing),                                    // no difference shown
    };
    const auto t = pullsched::rig::tallyRows(rows);
    EXPECT_EQ(t.beyond, 1u);
    EXPECT_EQ(t.within, 1u);
    EXPECT_EQ(t.noJudgement, 2u);
    EXPECT_EQ(t.differing, 1u);
    EXPECT_EQ(t.same, 2u);
}

TEST(ResultComparison, ConfigurationDifferencesLeaveOutWhereTheResultWent) {
    const json a = {{"workers", 2},       {"pattern", "burst"},   {"out", "a"},
                    {"name", "x"},        {"seed", nullptr},      {"quiet", true},
                    {"check", "nodes>1"}, {"check_busy", "fail"}, {"check_baseline", "d"}};
    const json b = {
        {"workers", 4}, {"pattern", "burst"}, {"out", "b"}, {"name", "y"}, {"quiet", false}};
    EXPECT_EQ(pullsched::rig::configurationDifferences(a, b),
              (std::vector<std::string>{"workers 2 -> 4"}));
    const json c = {{"pattern", "chains"}, {"seed", 7}};
    EXPECT_EQ(pullsched::rig::configurationDifferences(c, a),
              (std::vector<std::string>{"pattern chains -> burst", "seed 7 -> unset"}));
}
