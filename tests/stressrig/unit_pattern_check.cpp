// PatternCheck: the judgement of one pipeclean pattern from its counts, no scheduler:
// correctness failures come before lateness and expiry, only a complete run with every
// job run is hash-checked, and each outcome says why in its note. The execution counts of
// a run against its jobs' states: a job lost or run twice, on any backend.
#include <gtest/gtest.h>

#include <vector>

#include "analysis/PatternCheck.hpp"
#include "pullsched/testchain/RunResult.hpp"

using pullsched::GroupStatistics;
using pullsched::JobState;
using pullsched::rig::checkExecutions;
using pullsched::rig::checkPattern;
using pullsched::rig::ledgerMismatch;
using pullsched::rig::PatternOutcome;
using pullsched::rig::PatternRunFacts;
using pullsched::rig::PostedJobs;

namespace {

/// A complete run whose hash matched.
PatternRunFacts cleanRun() {
    PatternRunFacts f;
    f.completed = true;
    f.hashOk = true;
    f.expectedHash = f.actualHash = 0x318BC8668001DBCEull;
    return f;
}

}  // namespace

TEST(PatternCheck, ACompleteRunWithTheRightHashIsOk) {
    const auto c = checkPattern(cleanRun());
    EXPECT_EQ(c.outcome, PatternOutcome::Ok);
    EXPECT_TRUE(c.hashChecked);
    EXPECT_TRUE(c.hashOk);
    EXPECT_EQ(c.note, "");
}

TEST(PatternCheck, AWrongHashFailsAndNamesBoth) {
    PatternRunFacts f = cleanRun();
    f.hashOk = false;
    f.actualHash = 0xABCull;
    const auto c = checkPattern(f);
    EXPECT_EQ(c.outcome, PatternOutcome::Failed);
    EXPECT_TRUE(c.hashChecked);
    EXPECT_FALSE(c.hashOk);
    EXPECT_EQ(c.note, "hash mismatch: got 0x0000000000000ABC, expected 0x318BC8668001DBCE");
}

TEST(PatternCheck, CorrectnessComesBeforeLatenessAndExpiry) {
    PatternRunFacts f = cleanRun();
    f.timedOut = true;
    f.late = "did not finish within 1s of its planned end";
    f.expired = 3;
    f.failed = 2;
    f.postedTwice = 1;
    f.lostJobs = "2 jobs missing";
    EXPECT_EQ(checkPattern(f).note, "2 jobs failed");
    f.failed = 0;
    EXPECT_EQ(checkPattern(f).note, "1 jobs posted more than once");
    f.postedTwice = 0;
    EXPECT_EQ(checkPattern(f).note, "2 jobs missing");
    EXPECT_EQ(checkPattern(f).outcome, PatternOutcome::Failed);
    f.lostJobs.clear();
    const auto late = checkPattern(f);
    EXPECT_EQ(late.outcome, PatternOutcome::Late);
    EXPECT_EQ(late.note, "did not finish within 1s of its planned end");
    EXPECT_FALSE(late.hashChecked);
    f.timedOut = false;
    f.cancelled = 1;
    const auto expired = checkPattern(f);
    EXPECT_EQ(expired.outcome, PatternOutcome::Expired);
    EXPECT_EQ(expired.note, "hash not checked: 3 jobs expired, 1 cancelled");
    EXPECT_FALSE(expired.hashChecked);
}

TEST(PatternCheck, AnIncompleteRunFailsWithItsError) {
    PatternRunFacts f = cleanRun();
    f.completed = false;
    EXPECT_EQ(checkPattern(f).note, "the run did not complete");
    f.error = "worker thread could not start";
    EXPECT_EQ(checkPattern(f).note, "worker thread could not start");
    EXPECT_EQ(checkPattern(f).outcome, PatternOutcome::Failed);
    EXPECT_FALSE(checkPattern(f).hashChecked);
}

// --- the scheduler's ledger of a pattern's group against what the runner posted and saw

namespace {

/// 64 node jobs and one planning job, all completed.
GroupStatistics cleanLedger() {
    GroupStatistics g;
    g.submitted = g.completed = 65;
    return g;
}

}  // namespace

TEST(PatternCheck, ALedgerThatAgreesWithTheRunIsNoFinding) {
    EXPECT_EQ(ledgerMismatch(cleanLedger(), PostedJobs{65, 65}), "");
    EXPECT_EQ(ledgerMismatch(cleanLedger(), std::nullopt), "");
    GroupStatistics cut = cleanLedger();  // a run cut short by expiry: balanced all the same
    cut.completed = 40;
    cut.expired = 5;
    cut.cancelled = 20;
    EXPECT_EQ(ledgerMismatch(cut, PostedJobs{65, 40}), "");
    EXPECT_EQ(ledgerMismatch(cut, PostedJobs{65, std::nullopt}), "");
}

TEST(PatternCheck, ALedgerWithLostOrDoubleCountedJobsIsNamed) {
    GroupStatistics g = cleanLedger();
    g.pending = 3;
    g.completed = 62;
    EXPECT_EQ(ledgerMismatch(g, std::nullopt),
              "3 of 65 jobs still pending in the scheduler after the run ended");
    g.pending = 0;
    EXPECT_EQ(ledgerMismatch(g, std::nullopt),
              "the scheduler's ledger does not balance: 65 submitted, 62 ended (62 completed, 0 "
              "failed, 0 expired, 0 cancelled)");
    EXPECT_EQ(ledgerMismatch(cleanLedger(), PostedJobs{64, 64}),
              "the scheduler counted 65 jobs submitted, the run posted 64");
    g = cleanLedger();
    g.completed = 64;
    g.cancelled = 1;
    EXPECT_EQ(ledgerMismatch(g, PostedJobs{65, 65}),
              "the scheduler counted 64 jobs completed, the run saw 65");
}

// --- per-node execution counts against the jobs' final states

namespace {

/// `n` posted jobs, all completed.
std::vector<pullsched::testchain::JobTiming> completedJobs(std::size_t n) {
    std::vector<pullsched::testchain::JobTiming> jobs(n);
    for (auto& j : jobs) {
        j.posted = true;
        j.posts = 1;
        j.state = JobState::Completed;
    }
    return jobs;
}

}  // namespace

TEST(PatternCheck, EveryJobRunOnceIsNoFinding) {
    const auto f = checkExecutions(completedJobs(4), {1, 1, 1, 1}, true);
    EXPECT_EQ(f.text(), "");
    EXPECT_EQ(f.lost + f.repeated + f.droppedButRan + f.uncounted, 0u);
}

TEST(PatternCheck, AJobTheSchedulerDroppedRightlyNeverRan) {
    auto jobs = completedJobs(4);
    jobs[1].state = JobState::Expired;
    jobs[2].state = JobState::Cancelled;
    jobs[3].posted = false;  // never posted (a planning error): not a loss either
    EXPECT_EQ(checkExecutions(jobs, {1, 0, 0, 0}, true).text(), "");
}

TEST(PatternCheck, AJobLostOrRunTwiceIsNamed) {
    auto jobs = completedJobs(5);
    jobs[4].state = JobState::Expired;
    const auto f = checkExecutions(jobs, {0, 2, 3, 1, 1}, true);
    EXPECT_EQ(f.lost, 1u);
    EXPECT_EQ(f.repeated, 2u);
    EXPECT_EQ(f.droppedButRan, 1u);
    EXPECT_EQ(f.text(),
              "1 jobs never ran although none was dropped by the scheduler; 2 jobs ran more than "
              "once; 1 jobs ran although counted expired or cancelled");
    EXPECT_EQ(checkExecutions(completedJobs(3), {1}, true).text(),
              "2 jobs without an execution count");
}

// A backend whose states the rig labels (a node that never ran is "cancelled"): every
// posted node must have run, whatever its label says.
TEST(PatternCheck, WithoutTheSchedulersOwnStatesEveryJobMustRun) {
    auto jobs = completedJobs(3);
    jobs[2].state = JobState::Cancelled;
    const auto f = checkExecutions(jobs, {1, 1, 0}, false);
    EXPECT_EQ(f.lost, 1u);
    EXPECT_EQ(f.droppedButRan, 0u);
    EXPECT_EQ(checkExecutions(jobs, {1, 1, 0}, true).text(), "");
}
