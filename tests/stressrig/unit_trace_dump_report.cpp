// The trace dump read back: parsing, checks, the lanes picture's data and the Chrome
// export, on a small dump in the scheduler's format.
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "report/TraceDumpReport.hpp"

using namespace pullsched::rig;

namespace {

const char* kDump =
    "# pullsched trace dump: time_us worker event detail (12 events, 3 dropped)\n"
    "       0.000  w0   token-acquired   0\n"
    "       0.400  w1   token-contended  1\n"
    "       0.900  w1   backoff          0\n"
    "       1.500  w0   token-dropped    2\n"
    "       1.700  w0   dispatch         17\n"
    "       2.000  w1   dispatch         18\n"
    "     501.000  w0   gate-notify      0\n"
    "     502.000  w0   continuation     9223372036854775809\n"
    "     503.000  w1   sleep            250000\n"
    "     760.000  w1   park             0\n"
    "    1100.000  w1   wake             0\n"
    "    1200.000  w0   expired          20\n";

}  // namespace

TEST(TraceDumpReport, ParsesEveryLine) {
    const TraceDump d = TraceDump::parse(std::string(kDump));
    ASSERT_EQ(d.events().size(), 12u);
    EXPECT_EQ(d.dropped(), 3u);
    EXPECT_EQ(d.lanes(), 2u);
    EXPECT_TRUE(d.timeOrdered());
    EXPECT_EQ(d.events()[4].event, "dispatch");
    EXPECT_EQ(d.events()[4].detail, 17);
    EXPECT_DOUBLE_EQ(d.events()[8].timeUs, 503.0);
    EXPECT_EQ(d.counts().at("dispatch"), 2u);
    EXPECT_EQ(d.counts().at("park"), 1u);
    EXPECT_EQ(static_cast<std::uint64_t>(d.events()[7].detail), 9223372036854775809ull)
        << "a planning job's tag (top bit set) reads back unchanged";
}

TEST(TraceDumpReport, RejectsMalformedLinesNamingThem) {
    try {
        TraceDump::parse(std::string("# header\n1.0 w0 dispatch 3\n2.0 x1 dispatch 4\n"));
        FAIL() << "no error";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("line 3"), std::string::npos) << e.what();
    }
    EXPECT_FALSE(TraceDump::parse(std::string("2.0 w0 wake 0\n1.0 w1 park 0\n")).timeOrdered());
}

TEST(TraceDumpReport, ChromeTraceHasOneThreadPerWorkerAndTheIntervals) {
    const TraceDump d = TraceDump::parse(std::string(kDump));
    const nlohmann::json j = nlohmann::json::parse(d.chromeTrace());
    std::size_t threads = 0, jobs = 0, parked = 0, marks = 0;
    double tokenDur = -1, parkDur = -1, firstJobDur = -1;
    for (const auto& e : j["traceEvents"]) {
        if (e["ph"] == "M") ++threads;
        if (e["ph"] == "i") ++marks;
        if (e["ph"] != "X") continue;
        if (e["name"] == "job" && ++jobs == 1) firstJobDur = e["dur"].get<double>();
        if (e["name"] == "token held") tokenDur = e["dur"].get<double>();
        if (e["name"] == "parked") {
            ++parked;
            parkDur = e["dur"].get<double>();
        }
    }
    EXPECT_EQ(threads, 2u);
    EXPECT_EQ(jobs, 3u);
    EXPECT_EQ(parked, 1u);
    EXPECT_EQ(marks, 3u) << "contended, gate notify, expired";
    EXPECT_DOUBLE_EQ(tokenDur, 1.5);
    EXPECT_DOUBLE_EQ(parkDur, 340.0);
    EXPECT_DOUBLE_EQ(firstJobDur, 499.3) << "dispatch at 1.7 until w0's next event at 501";
}

TEST(TraceDumpReport, LanesPlotDrawsEveryKind) {
    const TraceDump d = TraceDump::parse(std::string(kDump));
    const std::string gp = d.lanesPlot("dump").text("dump.png");
    for (const char* title : {"'job'", "'token held'", "'sleep'", "'parked'", "'backoff'",
                              "'token contended'", "'gate notify'", "'expired'"})
        EXPECT_NE(gp.find(title), std::string::npos) << title;
    EXPECT_NE(gp.find("set ytics ('w0' 0, 'w1' 1)"), std::string::npos) << gp;
    EXPECT_NE(gp.find("1.7,501,0,1,17"), std::string::npos) << "a job bar row";
}
