// How long the rig waits for a graph run, and what a run that outlasts the wait says:
// lateness (a result, exit 0) unless the scheduler lost jobs from its accounting (exit 1).
#include <gtest/gtest.h>

#include "load/CompletionLimit.hpp"
#include "load/ScheduledGraphRun.hpp"

using namespace pullsched;
using namespace pullsched::rig;
using namespace std::chrono_literals;

TEST(CompletionLimit, FollowsThePlanAndTheWorkWithAMargin) {
    testchain::RunnerConfig rc;  // pre-roll 64 x 100 µs
    rc.chunkSize = 64;
    rc.planningStep = 100us;
    const CompletionLimit l = completionLimit(rc, 100s, 50s);
    EXPECT_EQ(l.plannedEnd, 100s + 6400us);
    EXPECT_EQ(l.margin, kCompletionMarginBase + kCompletionMarginFactor * 150s);
    EXPECT_EQ(l.total(), l.plannedEnd + l.margin);
    // A pipeclean pattern of 100 000 nodes at 1 ms per level plans 100 s: the old fixed
    // 30 s (pipeclean) and 60 s (param-range) lay before its end.
    EXPECT_GT(l.total(), 100s + 60s);
    // deadlines later than the starts lengthen the wait too
    EXPECT_EQ(completionLimit(rc, 100s, 50s, 10s).margin, l.margin + kCompletionMarginFactor * 10s);
    // one planning job for a whole load peak: its pre-roll counts
    rc.chunkSize = 100'000;
    EXPECT_EQ(completionLimit(rc, 0s, 1s).plannedEnd, 10s);
}

TEST(CompletionLimit, SaturatesInsteadOfWrapping) {
    testchain::RunnerConfig rc;
    const CompletionLimit huge = completionLimit(rc, Duration::max(), Duration::max());
    EXPECT_EQ(huge.plannedEnd, Duration::max());
    EXPECT_EQ(huge.margin, Duration::max());
    EXPECT_EQ(huge.total(), Duration::max());
    rc.planningStep = Duration::max();
    rc.chunkSize = 3;
    EXPECT_EQ(completionLimit(rc, 1s, 1s).plannedEnd, Duration::max());
}

namespace {

testchain::RunResult timedOutRun() {
    testchain::RunResult r;
    r.nodes = 100'000;
    r.timedOut = true;
    r.error = "run did not complete within the completion limit";
    r.stats.submitted = 100'002;
    r.stats.completed = 51'234;
    return r;
}

}  // namespace

TEST(CompletionLimit, ALateRunIsReportedAsLateNotAsLost) {
    testchain::RunnerConfig rc;
    const CompletionLimit l = completionLimit(rc, 100s, 50s);
    const testchain::RunResult r = timedOutRun();
    EXPECT_EQ(correctnessFailure(r), "");  // not a correctness failure by itself
    const RunFinding f = lateRunFinding(r, l, 0);
    EXPECT_EQ(f.failure, "");
    EXPECT_EQ(f.late.rfind("did not finish within 10min 30.0s of its planned end (1min 40.0s): "
                           "51234 of 100002 posted jobs had ended",
                           0),
              0u)
        << f.late;
    EXPECT_EQ(f.late.find("lost"), std::string::npos) << f.late;
}

TEST(CompletionLimit, JobsMissingFromTheAccountingAreAFailure) {
    const CompletionLimit l = completionLimit(testchain::RunnerConfig{}, 1s, 1s);
    const RunFinding f = lateRunFinding(timedOutRun(), l, 3);
    EXPECT_EQ(f.failure.rfind("3 jobs missing from the scheduler's accounting", 0), 0u)
        << f.failure;
    EXPECT_FALSE(f.late.empty());
}

TEST(CompletionLimit, OnlyATimedOutRunIsLate) {
    testchain::RunResult r;
    r.completed = true;
    r.hashOk = true;
    const RunFinding f = lateRunFinding(r, completionLimit(testchain::RunnerConfig{}, 1s, 1s), 5);
    EXPECT_EQ(f.late, "");
    EXPECT_EQ(f.failure, "");
}

TEST(CompletionLimit, InterruptedRunsAreNoFailureButRealFailuresStay) {
    testchain::RunResult r;
    r.interrupted = true;
    EXPECT_EQ(correctnessFailure(r), "");
    testchain::RunResult failed;
    failed.nodes = 10;
    failed.failed = 2;
    EXPECT_EQ(correctnessFailure(failed), "2 of 10 jobs failed");
    testchain::RunResult mismatch;
    mismatch.completed = true;
    mismatch.nodes = mismatch.completedJobs = 4;
    mismatch.expectedHash = 1;
    mismatch.actualHash = 2;
    EXPECT_NE(correctnessFailure(mismatch).find("hash mismatch"), std::string::npos);
}
