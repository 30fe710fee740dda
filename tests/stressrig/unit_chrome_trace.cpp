// ChromeTrace: the JSON parses back with the right events, units and arguments.
#include <filesystem>
#include <fstream>
#include <sstream>

#include <unistd.h>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "report/ChromeTrace.hpp"

using namespace std::chrono_literals;
using namespace pullsched::rig;
using nlohmann::json;

namespace {

const MeasuredJob::TimePoint kT0 = MeasuredJob::TimePoint{} + 5h;

std::vector<MeasuredJob> jobs() {
    MeasuredJob a{0, "node 1", kT0, kT0 + 10us, kT0 + 110us, 1};
    MeasuredJob b{1, "node 2", kT0 + 50us, kT0 + 40us, kT0 + 1040us + 500ns, 2};  // early
    return {b, a};
}

std::vector<json> byPhase(const json& trace, const std::string& ph) {
    std::vector<json> out;
    for (const auto& e : trace.at("traceEvents"))
        if (e.at("ph") == ph) out.push_back(e);
    return out;
}

}  // namespace

TEST(ChromeTrace, CompleteEventsInMicroseconds) {
    ChromeTrace trace("rig", 7);
    trace.add(jobs());
    trace.setMetadata("seed", "42");
    std::ostringstream out;
    trace.write(out);
    const json j = json::parse(out.str());
    EXPECT_EQ(j.at("displayTimeUnit"), "ms");
    EXPECT_EQ(j.at("otherData").at("seed"), "42");

    const auto x = byPhase(j, "X");
    ASSERT_EQ(x.size(), 2u);
    // sorted by actual start: a (10 µs) before b (40 µs)
    EXPECT_EQ(x[0].at("name"), "node 1");
    EXPECT_EQ(x[0].at("pid"), 7);
    EXPECT_EQ(x[0].at("tid"), 0);
    EXPECT_DOUBLE_EQ(x[0].at("ts").get<double>(), 10.0);
    EXPECT_DOUBLE_EQ(x[0].at("dur").get<double>(), 100.0);
    EXPECT_DOUBLE_EQ(x[0].at("args").at("scheduled_us").get<double>(), 0.0);
    EXPECT_DOUBLE_EQ(x[0].at("args").at("lateness_us").get<double>(), 10.0);
    EXPECT_EQ(x[0].at("args").at("id"), 1);
    EXPECT_EQ(x[1].at("name"), "node 2");
    EXPECT_EQ(x[1].at("tid"), 1);
    EXPECT_DOUBLE_EQ(x[1].at("ts").get<double>(), 40.0);
    EXPECT_DOUBLE_EQ(x[1].at("dur").get<double>(), 1000.5);
    EXPECT_DOUBLE_EQ(x[1].at("args").at("lateness_us").get<double>(), -10.0);

    const auto m = byPhase(j, "M");
    std::vector<std::string> threadNames;
    bool processNamed = false;
    for (const auto& e : m) {
        if (e.at("name") == "thread_name") threadNames.push_back(e.at("args").at("name"));
        if (e.at("name") == "process_name") processNamed = e.at("args").at("name") == "rig";
    }
    EXPECT_TRUE(processNamed);
    EXPECT_EQ(threadNames, (std::vector<std::string>{"worker 0", "worker 1"}));
}

TEST(ChromeTrace, ExplicitOriginShiftsTimestamps) {
    ChromeTrace trace;
    trace.add(jobs());
    trace.setOrigin(kT0 - 1ms);
    const auto x = byPhase(trace.toJson(), "X");
    ASSERT_EQ(x.size(), 2u);
    EXPECT_DOUBLE_EQ(x[0].at("ts").get<double>(), 1010.0);
    EXPECT_EQ(x[0].at("pid"), 1);
}

TEST(ChromeTrace, EmptyTraceIsValid) {
    const json j = json::parse(ChromeTrace().toJson().dump());
    EXPECT_TRUE(byPhase(j, "X").empty());
    EXPECT_EQ(byPhase(j, "M").size(), 1u);
}

TEST(ChromeTrace, FileParsesBack) {
    const auto file = std::filesystem::temp_directory_path() /
                      ("pullsched_trace_" + std::to_string(::getpid()) + ".json");
    ChromeTrace trace;
    trace.add(jobs());
    trace.writeFile(file);
    std::ifstream in(file);
    const json j = json::parse(in);
    EXPECT_EQ(byPhase(j, "X").size(), 2u);
    std::filesystem::remove(file);
    EXPECT_THROW(trace.writeFile("/nonexistent/dir/t.json"), std::runtime_error);
}
