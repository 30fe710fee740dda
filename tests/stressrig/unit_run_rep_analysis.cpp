// The run mode's analyse step on synthetic reps, without threads: every measured rep and
// the one a stop cut short get an outcome; the instrument's concurrency goes only to the
// reps it observed; a rep past its completion limit is late (a warning, nothing lost)
// unless the scheduler still counted jobs as pending, which is a failure.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <string>

#include "report/RunRepAnalysis.hpp"

using namespace pullsched::rig;
using namespace std::chrono_literals;
using pullsched::JobState;
using pullsched::testchain::JobTiming;
using pullsched::testchain::RunResult;

namespace {

/// A rep of `nodes` jobs that all completed, each started `late` after its start.
BackendRun completeRep(std::size_t nodes, Duration late) {
    BackendRun run;
    RunResult& r = run.result;
    r.nodes = nodes;
    r.completed = true;
    r.hashOk = true;
    r.completedJobs = nodes;
    r.runTime = 2ms;
    r.expectedEnd = 1ms;
    r.lowerBound = 1ms;
    for (std::size_t i = 0; i < nodes; ++i) {
        JobTiming j;
        j.node = static_cast<std::uint32_t>(i);
        j.scheduledStart = Duration{0};
        j.actualStart = late;
        j.end = late + 100us;
        j.state = JobState::Completed;
        j.posted = true;
        j.posts = 1;
        r.jobs.push_back(j);
    }
    run.executions.assign(nodes, 1);
    return run;
}

BackendRun timedOutRep(std::size_t nodes, std::uint64_t pendingAfterCancel) {
    BackendRun run;
    run.result.nodes = nodes;
    run.result.timedOut = true;
    run.result.error = "run did not complete within the completion limit";
    run.pendingAfterCancel = pendingAfterCancel;
    return run;
}

CompletionLimit someLimit() {
    return {.plannedEnd = 1ms, .margin = 30s};
}

}  // namespace

TEST(RunRepAnalysis, EveryRepAndTheCutOneGetAnOutcomeAndConcurrencyOnlyWhereObserved) {
    MeasuredBackend m;
    m.series.runs.push_back(completeRep(4, 10us));
    m.series.runs.push_back(completeRep(4, 20us));
    BackendRun cut = completeRep(4, 30us);
    cut.result.interrupted = true;
    cut.result.completed = false;
    cut.result.completedJobs = 1;
    for (std::size_t i = 1; i < 4; ++i) {
        cut.result.jobs[i].actualStart = JobTiming::kNotRun;
        cut.result.jobs[i].state = JobState::Cancelled;
    }
    cut.result.cancelled = 3;
    m.series.cutRun = cut;
    IncidenceStatistic observed;
    observed.activations = 4;
    observed.avgConcurrency = 1.5;
    m.stats = {observed};  // the instrument saw the first rep only

    const RepAnalysis a = analyseReps(m, someLimit());
    ASSERT_EQ(a.outcomes.size(), 3u);
    EXPECT_EQ(a.outcomes[0].rep, 1u);
    EXPECT_EQ(a.outcomes[2].rep, 3u);
    EXPECT_DOUBLE_EQ(a.outcomes[0].avgConcurrency, 1.5);
    EXPECT_TRUE(std::isnan(a.outcomes[1].avgConcurrency));
    EXPECT_FALSE(a.outcomes[1].interrupted);
    EXPECT_TRUE(a.outcomes[2].interrupted);
    EXPECT_EQ(a.summary.reps, 2u);  // the cut rep counts in no figure
    EXPECT_EQ(a.summary.interrupted, 1u);
    EXPECT_EQ(a.summary.hashOk, 2u);
    EXPECT_EQ(a.lateness.count(), 4u + 4u + 1u);  // every job that ran, of every rep
    EXPECT_TRUE(a.warnings.empty());
    for (const RunRepOutcome& o : a.outcomes)
        EXPECT_TRUE(o.failure().empty()) << o.failure();
}

TEST(RunRepAnalysis, ARepPastItsLimitIsLateNotLost) {
    MeasuredBackend m;
    m.series.runs.push_back(completeRep(3, 10us));
    m.series.runs.push_back(timedOutRep(3, 0));
    const RepAnalysis a = analyseReps(m, someLimit());
    ASSERT_EQ(a.outcomes.size(), 2u);
    const RunRepOutcome& late = a.outcomes[1];
    EXPECT_TRUE(late.timedOut);
    EXPECT_EQ(late.lost, 0u);
    EXPECT_FALSE(late.late.empty());
    ASSERT_EQ(a.warnings.size(), 1u);
    EXPECT_EQ(a.warnings.front().rfind("rep 2 did not finish within", 0), 0u) << a.warnings.front();
    // a result, not a correctness failure (exit 0): the runner's timeout is what `late` says
    EXPECT_TRUE(late.failure().empty()) << late.failure();
    EXPECT_EQ(a.summary.failedReps, 0u);
}

TEST(RunRepAnalysis, JobsStillPendingAfterTheCancelAreAFailure) {
    MeasuredBackend m;
    m.series.runs.push_back(timedOutRep(3, 5));
    const RepAnalysis a = analyseReps(m, someLimit());
    ASSERT_EQ(a.outcomes.size(), 1u);
    EXPECT_TRUE(a.warnings.empty());
    EXPECT_NE(a.outcomes[0].error.find("5 jobs missing from the scheduler's accounting"),
              std::string::npos)
        << a.outcomes[0].error;
    EXPECT_FALSE(a.outcomes[0].failure().empty());
    EXPECT_EQ(a.summary.failedReps, 1u);
}
