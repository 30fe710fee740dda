// The trace of a scheduled run: every job of every rep, one track per worker.
#include <set>

#include <gtest/gtest.h>

#include "report/ScheduledRunTrace.hpp"

using namespace pullsched;
using namespace pullsched::rig;
using testchain::JobTiming;
using testchain::RunResult;
using namespace std::chrono_literals;

namespace {

RunResult run(TimePoint anchor) {
    RunResult r;
    r.anchor = anchor;
    r.runTime = 3ms;
    for (std::uint32_t i = 0; i < 3; ++i) {
        JobTiming j;
        j.node = i;
        j.posted = true;
        j.scheduledStart = std::chrono::milliseconds{i};
        if (i < 2) {
            j.state = JobState::Completed;
            j.actualStart = j.scheduledStart + 100us;
            j.end = j.actualStart + 500us;
        } else {
            j.state = JobState::Expired;
        }
        r.jobs.push_back(j);
    }
    return r;
}

}  // namespace

TEST(ScheduledRunTrace, AllRepsEveryJobOneTrackPerWorker) {
    ScheduledRunTrace trace("test", 3);
    const TimePoint t0{std::chrono::seconds{5}};
    trace.addRep(1, run(t0), [](std::size_t n) { return static_cast<int>(n); });
    trace.addRep(2, run(t0 + 10ms), [](std::size_t) { return 1; });
    EXPECT_EQ(trace.reps(), 2u);
    EXPECT_EQ(trace.jobEvents(), 6u);

    const nlohmann::json j = trace.toJson();
    std::set<std::string> names;
    std::set<std::pair<int, int>> jobs;
    int expired = 0, spans = 0;
    for (const auto& e : j.at("traceEvents")) {
        if (e.at("name") == "thread_name") names.insert(e.at("args").at("name").get<std::string>());
        if (e.value("cat", "") == "rep") {
            ++spans;
            continue;
        }
        if (!e.contains("args") || !e.at("args").contains("node")) continue;
        jobs.insert({e.at("args").at("rep").get<int>(), e.at("args").at("node").get<int>()});
        if (e.at("args").at("state") == "expired") {
            ++expired;
            EXPECT_EQ(e.at("ph"), "i");
            EXPECT_EQ(e.at("tid"), trace.notRunTrack());
        } else {
            EXPECT_EQ(e.at("ph"), "X");
            EXPECT_LT(e.at("tid").get<unsigned>(), 3u);
        }
    }
    EXPECT_EQ(jobs.size(), 6u);
    EXPECT_EQ(expired, 2);
    EXPECT_EQ(spans, 2);
    for (const char* n : {"worker 0", "worker 1", "worker 2", "reps"})
        EXPECT_TRUE(names.count(n)) << n;
    // rep 2 starts 10 ms after rep 1: its node 0 at 10 ms + 100 us
    bool found = false;
    for (const auto& e : j.at("traceEvents"))
        if (e.contains("args") && e.at("args").contains("node") && e.at("args").at("rep") == 2 &&
            e.at("args").at("node") == 0) {
            EXPECT_DOUBLE_EQ(e.at("ts").get<double>(), 10100.0);
            found = true;
        }
    EXPECT_TRUE(found);
}

// Jobs are added node by node; the file lists them in time order, and a labelled rep's
// span carries its label.
TEST(ScheduledRunTrace, EventsInTimeOrderAndLabelledSpans) {
    ScheduledRunTrace trace("test", 2);
    RunResult r = run(TimePoint{std::chrono::seconds{1}});
    std::swap(r.jobs[0].actualStart, r.jobs[1].actualStart);  // node 1 starts first
    std::swap(r.jobs[0].end, r.jobs[1].end);
    trace.addRep(
        1, r, [](std::size_t n) { return static_cast<int>(n % 2); }, "pattern burst");
    const nlohmann::json j = trace.toJson();
    double last = -1;
    bool labelled = false;
    for (const auto& e : j.at("traceEvents")) {
        if (e.at("ph") == "M") continue;
        EXPECT_GE(e.at("ts").get<double>(), last) << e;
        last = e.at("ts").get<double>();
        labelled = labelled || (e.value("cat", "") == "rep" && e.at("name") == "pattern burst");
    }
    EXPECT_TRUE(labelled);
}
