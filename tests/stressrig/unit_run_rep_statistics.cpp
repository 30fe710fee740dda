// The outcome of a rep of a scheduled run: what is missing, what is a failure.
#include <cmath>

#include <gtest/gtest.h>

#include "analysis/RunRepStatistics.hpp"

using namespace pullsched;
using namespace pullsched::rig;
using testchain::JobTiming;
using testchain::RunResult;
using namespace std::chrono_literals;

namespace {

/// A run of `n` nodes in which every job completed 1 ms late, runtime 10 ms.
RunResult completeRun(std::size_t n) {
    RunResult r;
    r.nodes = n;
    r.completed = true;
    r.hashOk = true;
    r.expectedHash = r.actualHash = 42;
    r.runTime = 10ms;
    r.expectedEnd = 8ms;
    r.lowerBound = 5ms;
    r.completedJobs = n;
    r.nodesPosted = n;
    for (std::size_t i = 0; i < n; ++i) {
        JobTiming j;
        j.node = static_cast<std::uint32_t>(i);
        j.posted = true;
        j.posts = 1;
        j.state = JobState::Completed;
        j.scheduledStart = 0ms;
        j.actualStart = 1ms;
        j.end = 2ms;
        r.jobs.push_back(j);
    }
    return r;
}

}  // namespace

TEST(RunRepStatistics, CompleteRepHasAllFigures) {
    const RunRepOutcome o = evaluateRunRep(1, completeRun(4), 1.5);
    EXPECT_TRUE(o.complete());
    EXPECT_EQ(o.hash, RunRepOutcome::Hash::Ok);
    EXPECT_DOUBLE_EQ(o.runtimeMs, 10.0);
    EXPECT_DOUBLE_EQ(o.deltaMs, 2.0);
    EXPECT_DOUBLE_EQ(o.efficiency, 0.5);
    EXPECT_DOUBLE_EQ(o.avgConcurrency, 1.5);
    EXPECT_DOUBLE_EQ(o.latenessP50Us, 1000.0);
    EXPECT_TRUE(std::isnan(o.latenessP99Us));  // 4 samples do not support a p99
    EXPECT_TRUE(o.failure().empty());
}

TEST(RunRepStatistics, ExpiredJobsLeaveRuntimeMissingAndHashUnchecked) {
    RunResult r = completeRun(4);
    r.completed = false;
    r.hashOk = false;  // what an incomplete graph gives: not a failure
    r.completedJobs = 2;
    r.expired = 1;
    r.cancelled = 1;
    r.jobs[2].state = JobState::Expired;
    r.jobs[3].state = JobState::Cancelled;
    r.jobs[2].actualStart = r.jobs[2].end = JobTiming::kNotRun;
    r.jobs[3].actualStart = r.jobs[3].end = JobTiming::kNotRun;
    const RunRepOutcome o = evaluateRunRep(2, r, 1.0);
    EXPECT_FALSE(o.complete());
    EXPECT_EQ(o.hash, RunRepOutcome::Hash::NotChecked);
    EXPECT_TRUE(std::isnan(o.runtimeMs));
    EXPECT_TRUE(std::isnan(o.deltaMs));
    EXPECT_TRUE(std::isnan(o.efficiency));
    EXPECT_DOUBLE_EQ(o.expectedMs, 8.0);  // the plan is still known
    EXPECT_TRUE(o.failure().empty());     // a measurement, not a failure

    const RunRepSummary s = RunRepSummary::of({evaluateRunRep(1, completeRun(4), 1.0), o});
    EXPECT_EQ(s.reps, 2u);
    EXPECT_EQ(s.complete, 1u);
    EXPECT_EQ(s.incomplete(), 1u);
    EXPECT_EQ(s.runtimeMs.count, 1u);
    EXPECT_EQ(s.runtimeMs.missing, 1u);
    EXPECT_DOUBLE_EQ(s.runtimeMs.mean, 10.0);
    EXPECT_EQ(s.missed(), 2u);
    EXPECT_FALSE(s.systemFailure());
}

TEST(RunRepStatistics, CorrectnessFailures) {
    RunResult mismatch = completeRun(3);
    mismatch.hashOk = false;
    mismatch.actualHash = 7;
    const RunRepOutcome m = evaluateRunRep(1, mismatch, 1.0);
    EXPECT_EQ(m.hash, RunRepOutcome::Hash::Mismatch);
    EXPECT_NE(m.failure().find("hash mismatch"), std::string::npos);

    RunResult failed = completeRun(3);
    failed.completed = false;
    failed.completedJobs = 2;
    failed.failed = 1;
    failed.jobs[1].state = JobState::Failed;
    EXPECT_NE(evaluateRunRep(2, failed, 1.0).failure().find("1 job failed"), std::string::npos);

    RunResult doubled = completeRun(3);
    doubled.jobs[0].posts = 2;
    EXPECT_NE(evaluateRunRep(3, doubled, 1.0).failure().find("more than once"), std::string::npos);

    RunResult lost = completeRun(3);
    lost.jobs[2].posted = false;
    EXPECT_NE(evaluateRunRep(4, lost, 1.0).failure().find("1 job lost"), std::string::npos);

    RunResult timedOut;
    timedOut.nodes = 3;
    timedOut.timedOut = true;
    timedOut.error = "run did not complete within the completion limit";
    const RunRepOutcome t = evaluateRunRep(5, timedOut, kMissing);
    EXPECT_EQ(t.lost, 3u);
    EXPECT_FALSE(t.failure().empty());

    const RunRepSummary s = RunRepSummary::of({m, t});
    EXPECT_TRUE(s.systemFailure());
    EXPECT_EQ(s.failedReps, 2u);
    EXPECT_EQ(s.hashMismatch, 1u);
}

TEST(RunRepStatistics, InterruptedRepIsNeitherFailureNorMeasurement) {
    RunResult r = completeRun(4);
    r.completed = false;
    r.error = "planning chunk 0: posted after shutdown";
    r.completedJobs = 1;
    r.cancelled = 2;
    r.jobs[1].state = r.jobs[2].state = JobState::Cancelled;
    r.jobs[3].posted = false;
    const RunRepOutcome o = evaluateRunRep(3, r, 1.0, true);
    EXPECT_FALSE(o.complete());
    EXPECT_STREQ(o.stateText(), "interrupted");
    EXPECT_TRUE(o.failure().empty());
    EXPECT_TRUE(std::isnan(o.runtimeMs));

    const RunRepSummary s = RunRepSummary::of({evaluateRunRep(1, completeRun(4), 1.0), o});
    EXPECT_EQ(s.reps, 1u);
    EXPECT_EQ(s.interrupted, 1u);
    EXPECT_EQ(s.cancelled, 0u);  // cancelled by the stop: not a deadline miss
    EXPECT_FALSE(s.systemFailure());

    r.failed = 1;  // a job that failed on its own still counts
    EXPECT_FALSE(evaluateRunRep(3, r, 1.0, true).failure().empty());
}
