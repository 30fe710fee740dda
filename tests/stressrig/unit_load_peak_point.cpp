// A param-range point from one run, on synthetic runs without threads: from the jobs' own
// times (the same for every backend) result time = first start to last end, concurrency
// = busy time / result time; the instrument, where a backend has one, adds the impeded
// time and changes no other figure; and why the figures are missing when they are.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>

#include "report/LoadPeakPoint.hpp"

using namespace pullsched::rig;
using namespace std::chrono_literals;
using pullsched::testchain::Duration;
using pullsched::testchain::JobTiming;
using pullsched::testchain::RunResult;

namespace {

JobTiming ranJob(Duration start, Duration end) {
    JobTiming j;
    j.actualStart = start;
    j.end = end;
    j.posted = true;
    return j;
}

RunResult completeRun(std::size_t nodes) {
    RunResult r;
    r.nodes = nodes;
    r.completed = true;
    r.hashOk = true;
    r.completedJobs = nodes;
    return r;
}

/// A complete run of two jobs side by side for 1 ms, then one more for 1 ms.
BackendRun threeJobRun() {
    BackendRun run;
    run.result = completeRun(3);
    run.result.jobs = {ranJob(1ms, 2ms), ranJob(1ms, 2ms), ranJob(2ms, 3ms)};
    return run;
}

}  // namespace

TEST(LoadPeakPoint, FromTheJobsOwnTimes) {
    BackendRun run;
    run.result.actualHash = 0xABC;
    // two jobs side by side for 1 ms, then one more for 1 ms: 3 ms busy over 2 ms
    run.result.jobs = {ranJob(1ms, 2ms), ranJob(1ms, 2ms), ranJob(2ms, 3ms), JobTiming{}};
    const LoadPeakPoint p = pointOf(run, 4);
    EXPECT_EQ(p.jobs, 4u);
    EXPECT_EQ(p.graphHash, 0xABCu);
    EXPECT_DOUBLE_EQ(p.timeMs, 2.0);
    EXPECT_DOUBLE_EQ(p.concurrency, 1.5);
    EXPECT_DOUBLE_EQ(p.jobtimeUs, 1000.0);
    EXPECT_TRUE(p.missingWhy.empty());
    EXPECT_TRUE(std::isnan(p.impededUs));  // the job times cannot tell

    BackendRun none;
    none.result.jobs = {JobTiming{}};
    const LoadPeakPoint q = pointOf(none, 1);
    EXPECT_TRUE(std::isnan(q.timeMs));
    EXPECT_EQ(q.missingWhy, "no job was seen running");
}

TEST(LoadPeakPoint, TheInstrumentAddsOnlyTheImpededTime) {
    IncidenceStatistic st;  // a view unlike the job times: only the impeded time is taken
    st.activations = 4;
    st.coveredTime = 5ms;
    st.avgConcurrency = 1.75;
    st.activeTime = 4ms;
    st.impededTime = 400us;
    const LoadPeakPoint p = peakPoint(threeJobRun(), 3, 7, "", "", &st);
    EXPECT_EQ(p.graphHash, 7u);
    EXPECT_DOUBLE_EQ(p.timeMs, 2.0);
    EXPECT_DOUBLE_EQ(p.concurrency, 1.5);
    EXPECT_DOUBLE_EQ(p.jobtimeUs, 1000.0);
    EXPECT_DOUBLE_EQ(p.impededUs, 100.0);
    EXPECT_TRUE(p.missingWhy.empty());
    // not instrumented: the same figures, no impeded time
    const LoadPeakPoint q = peakPoint(threeJobRun(), 3, 7, "", "", nullptr);
    EXPECT_DOUBLE_EQ(q.timeMs, 2.0);
    EXPECT_DOUBLE_EQ(q.concurrency, 1.5);
    EXPECT_TRUE(std::isnan(q.impededUs));
    // an instrument that lost events: its impeded time is missing, not smaller
    st.droppedEvents = 1;
    const LoadPeakPoint d = peakPoint(threeJobRun(), 3, 7, "", "", &st);
    EXPECT_DOUBLE_EQ(d.timeMs, 2.0);
    EXPECT_TRUE(std::isnan(d.impededUs));
}

TEST(LoadPeakPoint, SaysWhyTheFiguresAreMissing) {
    IncidenceStatistic seen;
    seen.activations = 1;
    seen.coveredTime = 1ms;
    EXPECT_EQ(peakPoint(threeJobRun(), 3, 0, "hash mismatch", "late", &seen).missingWhy,
              "hash mismatch");
    EXPECT_EQ(peakPoint(threeJobRun(), 3, 0, "", "did not finish", &seen).missingWhy,
              "did not finish");
    BackendRun expired = threeJobRun();
    expired.result.completed = false;
    expired.result.expired = 2;
    expired.result.cancelled = 1;
    const LoadPeakPoint p = peakPoint(expired, 3, 0, "", "", &seen);
    EXPECT_EQ(p.missingWhy, "hash not checked: 2 jobs expired, 1 cancelled");
    EXPECT_TRUE(std::isnan(p.timeMs));
    BackendRun none;
    none.result = completeRun(1);
    none.result.jobs = {JobTiming{}};
    EXPECT_EQ(peakPoint(none, 1, 0, "", "", nullptr).missingWhy, "no job was seen running");
}

TEST(LoadPeakPoint, TheLineFitsTheCompletePointsOnly) {
    std::vector<LoadPeakPoint> points;
    for (std::size_t n : {10u, 20u, 30u}) {
        LoadPeakPoint p;
        p.jobs = n;
        p.timeMs = 0.5 + 0.1 * double(n);
        p.concurrency = 2;
        points.push_back(p);
    }
    LoadPeakPoint missing;
    missing.jobs = 40;
    missing.missingWhy = "late";
    points.push_back(missing);
    const SeriesModel m = fitPoints(points);
    ASSERT_TRUE(m.line.has_value()) << m.why;
    EXPECT_NEAR(m.line->gradient(), 0.1, 1e-9);
    EXPECT_NEAR(m.line->socket(), 0.5, 1e-9);
    EXPECT_EQ(m.missing, 1u);
}
