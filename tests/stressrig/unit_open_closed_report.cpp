// How an open or closed run is presented: missing values stay missing, percentiles only
// where the count supports them, units in the names.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "report/OpenClosedReport.hpp"

using namespace pullsched::rig;

namespace {

LoadRunResult run(int samples) {
    LoadRunResult r;
    r.method = "open";
    r.offeredRate = 100;
    r.achievedRate = 99.5;
    r.posted = r.measured = r.completed = static_cast<std::uint64_t>(samples);
    for (int i = 1; i <= samples; ++i)
        r.lateness.record(std::int64_t{i} * 1000);
    return r;
}

}  // namespace

TEST(OpenClosedReport, PercentilesOnlyWhereTheCountSupportsThem) {
    const LoadRunResult r = run(30);
    const CsvTable t = latencyPercentileTable({&r});
    ASSERT_TRUE(t.hasColumn("open lateness us"));
    for (std::size_t i = 0; i < t.rowCount(); ++i) {
        const double p = t.number(i, "percentile");
        const double v = t.number(i, "open lateness us");
        if (p == 0 || p == 100 || p <= 100.0 * (1 - 1.0 / 30))
            EXPECT_FALSE(std::isnan(v)) << p;
        else
            EXPECT_TRUE(std::isnan(v)) << p;  // p99 and up: 30 samples cannot tell
    }
    EXPECT_DOUBLE_EQ(t.number(t.rowCount() - 1, "open lateness us"), 30.0);  // max, µs
    const auto text = loadRunText(r);
    EXPECT_EQ(text[1].find("p99"), std::string::npos) << text[1];
    EXPECT_NE(text[1].find("p90"), std::string::npos) << text[1];
    const auto j = loadRunJson(r);
    EXPECT_TRUE(j.at("lateness").at("p99_us").is_null());
    EXPECT_DOUBLE_EQ(j.at("lateness").at("max_us").get<double>(), 30.0);
}

TEST(OpenClosedReport, MissingRateIsNullAndNa) {
    LoadRunResult r = run(0);
    r.achievedRate = std::numeric_limits<double>::quiet_NaN();
    const auto j = loadRunJson(r);
    EXPECT_TRUE(j.at("achieved_rate_per_s").is_null());
    EXPECT_TRUE(j.at("lateness").at("mean_us").is_null());
    EXPECT_TRUE(j.at("rss_max_mib").is_null());  // not read
    const auto text = loadRunText(r);
    EXPECT_NE(text[0].find("achieved n/a"), std::string::npos) << text[0];
    EXPECT_NE(text[1].find("no samples"), std::string::npos) << text[1];
    const CsvTable s = loadSummaryTable({&r});
    EXPECT_TRUE(std::isnan(s.number(0, "achieved rate per s")));
    EXPECT_TRUE(std::isnan(s.number(0, "p50 lateness us")));
    EXPECT_TRUE(std::isnan(s.number(0, "rss max MiB")));
    EXPECT_NE(s.toString().find("\"open\",100,,"), std::string::npos) << s.toString();
}

TEST(OpenClosedReport, DropsAndCancellationsAreSaid) {
    LoadRunResult r = run(10);
    r.expired = 7;
    r.cancelled = 2;
    r.drained = false;
    r.rssMaxBytes = 3 * 1048576;
    const auto text = loadRunText(r);
    EXPECT_NE(text[0].find("EXPIRED (past their deadline) 7"), std::string::npos) << text[0];
    EXPECT_NE(text[0].find("cancelled 2"), std::string::npos);
    EXPECT_NE(text[0].find("not drained"), std::string::npos);
    EXPECT_NE(text[2].find("RSS max 3.0 MiB"), std::string::npos) << text[2];
    const auto j = loadRunJson(r);
    EXPECT_EQ(j.at("jobs_expired"), 7);
    EXPECT_DOUBLE_EQ(j.at("rss_max_mib").get<double>(), 3.0);
    const CsvTable ts = loadTimeSeries(r);
    EXPECT_TRUE(ts.hasColumn("rss MiB"));
}
