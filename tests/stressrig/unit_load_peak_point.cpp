// A param-range point from one run, on synthetic runs without threads: from the jobs' own
// times (the same for every backend) result time = first start to last end, concurrency
// = busy time / result time; from the instrument when it observed the run; and why the
// figures are missing when they are.
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

TEST(LoadPeakPoint, FromTheInstrumentWhenItObservedACompleteRun) {
    IncidenceStatistic st;
    st.activations = 4;
    st.coveredTime = 2ms;
    st.avgConcurrency = 1.75;
    st.activeTime = 4ms;
    st.impededTime = 400us;
    const LoadPeakPoint p = observedPoint(completeRun(4), st, 4, 7, "", "");
    EXPECT_EQ(p.graphHash, 7u);
    EXPECT_DOUBLE_EQ(p.timeMs, 2.0);
    EXPECT_DOUBLE_EQ(p.concurrency, 1.75);
    EXPECT_DOUBLE_EQ(p.jobtimeUs, 1000.0);
    EXPECT_DOUBLE_EQ(p.impededUs, 100.0);
    EXPECT_TRUE(p.missingWhy.empty());
}

TEST(LoadPeakPoint, SaysWhyTheFiguresAreMissing) {
    IncidenceStatistic seen;
    seen.activations = 1;
    seen.coveredTime = 1ms;
    EXPECT_EQ(observedPoint(completeRun(1), seen, 1, 0, "hash mismatch", "late").missingWhy,
              "hash mismatch");
    EXPECT_EQ(observedPoint(completeRun(1), seen, 1, 0, "", "did not finish").missingWhy,
              "did not finish");
    RunResult expired = completeRun(3);
    expired.completed = false;
    expired.expired = 2;
    expired.cancelled = 1;
    const LoadPeakPoint p = observedPoint(expired, seen, 3, 0, "", "");
    EXPECT_EQ(p.missingWhy, "hash not checked: 2 jobs expired, 1 cancelled");
    EXPECT_TRUE(std::isnan(p.timeMs));
    EXPECT_EQ(observedPoint(completeRun(1), IncidenceStatistic{}, 1, 0, "", "").missingWhy,
              "no job was seen running");
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
