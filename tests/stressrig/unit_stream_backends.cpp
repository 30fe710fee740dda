// Every job-stream backend runs each submitted job exactly once and none starts before its
// intended start, whether the generator hands it over when it is due or the backend holds
// it back itself; a job past its deadline is dropped by every backend (natively or by the
// rig); a stop request skips what has not started and still ends every job; the open,
// closed, rate-step and soak drivers account for every job on every backend. Counts and
// timestamps only, no timed assertions.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <memory>
#include <string>
#include <vector>

#include "RigTestSupport.hpp"
#include "backends/BackendRegistry.hpp"
#include "backends/StreamClosedLoad.hpp"
#include "backends/StreamOpenLoad.hpp"
#include "backends/StreamRateStep.hpp"
#include "backends/StreamSoak.hpp"

using namespace pullsched::rig;
using namespace std::chrono_literals;
using pullsched::SteadyClock;
using pullsched::TimePoint;

namespace {

/// A load that does almost nothing (1 work step per µs).
pullsched::testchain::ComputationalLoad trivialLoad() {
    pullsched::testchain::ComputationalLoad load;
    load.setCalibration({.speed = 1.0});
    return load;
}

OpenLoadConfig smallConfig(Duration duration, Duration warmup) {
    OpenLoadConfig c;
    c.workers = 2;
    c.deadlineWindow = Duration{0};  // a busy machine must not drop a job here
    c.jobLoad = 2us;
    c.duration = duration;
    c.warmup = warmup;
    c.drainLimit = 60s;  // a busy machine may be slow; a hang still ends the test
    return c;
}

class StreamBackendTest : public ::testing::TestWithParam<std::string> {};

TEST_P(StreamBackendTest, NamesItselfAndSaysHowItHonoursArrivals) {
    const auto b = BackendRegistry::streamRunner(GetParam());
    EXPECT_EQ(b->name(), GetParam());
    EXPECT_FALSE(b->arrivalTimesText().empty());
    const bool native = GetParam() == "pullsched" || GetParam() == "asio";
    EXPECT_EQ(b->arrivalTimes(), native ? StartTimes::Native : StartTimes::HeldByRig);
}

TEST_P(StreamBackendTest, PlaysATimetableExactlyOnceAndNeverEarly) {
    if (rigtest::skipUnderThreadSanitizer(GetParam()))
        GTEST_SKIP() << "uninstrumented runtime under TSan";
    // 300 arrivals 100 µs apart, then a burst of 100 arrivals at one instant.
    std::vector<Duration> offsets;
    for (int i = 0; i < 300; ++i)
        offsets.push_back(Duration{i * 100'000});
    for (int i = 0; i < 100; ++i)
        offsets.push_back(31ms);
    const auto b = BackendRegistry::streamRunner(GetParam());
    const auto load = trivialLoad();
    const StreamRunResult r = playOpenLoad(*b, offsets, smallConfig(32ms, 10ms), load);

    EXPECT_EQ(r.backend, GetParam());
    EXPECT_FALSE(r.load.interrupted);
    EXPECT_TRUE(r.load.drained);
    EXPECT_EQ(r.load.posted, offsets.size());
    EXPECT_EQ(r.load.completed, offsets.size());
    EXPECT_EQ(r.load.missed, 0u);
    EXPECT_EQ(r.load.repeated, 0u);
    EXPECT_EQ(r.load.expired, 0u);
    EXPECT_EQ(r.load.cancelled, 0u);
    // Arrivals at or after the 10 ms warm-up are measured: 200 of the even ones + the burst.
    EXPECT_EQ(r.load.measured, 300u);
    EXPECT_EQ(r.load.lateness.count(), 300u);
    EXPECT_EQ(r.load.lateness.clampedNegatives(), 0u) << "jobs started before their start";
    EXPECT_EQ(b->submitted(), offsets.size());
    EXPECT_EQ(b->ended(), offsets.size());
}

TEST_P(StreamBackendTest, JobsSubmittedAheadWaitForTheirStartOnANativeBackend) {
    if (rigtest::skipUnderThreadSanitizer(GetParam()))
        GTEST_SKIP() << "uninstrumented runtime under TSan";
    const auto b = BackendRegistry::streamRunner(GetParam());
    if (b->arrivalTimes() != StartTimes::Native)
        GTEST_SKIP() << "the generator hands this backend its jobs only when due";
    constexpr std::size_t kJobs = 200;
    std::vector<std::atomic<int>> runs(kJobs);
    std::vector<TimePoint> intended(kJobs), started(kJobs);
    b->start(2);
    const TimePoint origin = SteadyClock::now() + 5ms;
    for (std::size_t i = 0; i < kJobs; ++i) {  // all submitted before the first is due
        intended[i] = origin + (i % 20) * 250us;
        b->submit(intended[i], [&, i] {
            started[i] = SteadyClock::now();
            runs[i].fetch_add(1);
        });
    }
    EXPECT_TRUE(b->drain(60s));
    b->stop();
    for (std::size_t i = 0; i < kJobs; ++i) {
        EXPECT_EQ(runs[i].load(), 1) << "job " << i;
        EXPECT_GE(started[i], intended[i]) << "job " << i << " started early";
    }
}

TEST_P(StreamBackendTest, AStopRequestEndsThePlayAndSkipsWhatHasNotStarted) {
    if (rigtest::skipUnderThreadSanitizer(GetParam()))
        GTEST_SKIP() << "uninstrumented runtime under TSan";
    std::vector<Duration> offsets;
    for (int i = 0; i < 100; ++i)
        offsets.push_back(Duration{i * 1'000'000});  // 100 ms of arrivals
    StopRequest stop;
    stop.request();  // before the first arrival: nothing is played
    const auto b = BackendRegistry::streamRunner(GetParam());
    const auto load = trivialLoad();
    const StreamRunResult r = playOpenLoad(*b, offsets, smallConfig(100ms, 0ms), load, &stop);
    EXPECT_TRUE(r.load.interrupted);
    EXPECT_LT(r.load.posted, offsets.size());
    EXPECT_EQ(r.load.repeated, 0u);
    EXPECT_EQ(r.load.missed, 0u) << "an interrupted run does not count skipped jobs as missed";
    EXPECT_EQ(b->ended(), b->submitted());
}

TEST_P(StreamBackendTest, AJobPastItsDeadlineIsDroppedUnstarted) {
    if (rigtest::skipUnderThreadSanitizer(GetParam()))
        GTEST_SKIP() << "uninstrumented runtime under TSan";
    const auto b = BackendRegistry::streamRunner(GetParam());
    b->start(1);
    std::atomic<int> ran{0};
    const TimePoint now = SteadyClock::now();
    b->submit(now - 2ms, now - 1ms, [&ran] { ran.fetch_add(1); });  // its deadline has passed
    b->submit(now, pullsched::kNoDeadline, [&ran] { ran.fetch_add(10); });
    EXPECT_TRUE(b->drain(60s));
    b->stop();
    EXPECT_EQ(ran.load(), 10) << "the job past its deadline ran, or the other did not";
    EXPECT_EQ(b->expired(), 1u);
    EXPECT_EQ(b->ended(), 2u);
    EXPECT_EQ(b->skipped(), 0u);
}

// A backend that holds jobs for their start itself gives up the held ones at a stop rather
// than waiting until they are due (a closed user's think time may be long).
TEST_P(StreamBackendTest, AStopDoesNotWaitForAJobHeldForLater) {
    if (rigtest::skipUnderThreadSanitizer(GetParam()))
        GTEST_SKIP() << "uninstrumented runtime under TSan";
    const auto b = BackendRegistry::streamRunner(GetParam());
    if (b->arrivalTimes() != StartTimes::Native)
        GTEST_SKIP() << "the rig holds the jobs of this backend, not the backend";
    b->start(1);
    std::atomic<int> ran{0};
    b->submit(SteadyClock::now() + 120s, [&ran] { ran.fetch_add(1); });
    auto stopped = std::async(std::launch::async, [&b] { b->stop(); });
    // a hang guard, not a time limit: the job is due in two minutes
    ASSERT_EQ(stopped.wait_for(60s), std::future_status::ready) << "stop() waited for the job";
    stopped.get();
    EXPECT_EQ(ran.load(), 0);
    EXPECT_EQ(b->skipped(), 1u);
    EXPECT_EQ(b->ended(), 1u);
}

TEST_P(StreamBackendTest, AClosedLoadAccountsForEveryJob) {
    if (rigtest::skipUnderThreadSanitizer(GetParam()))
        GTEST_SKIP() << "uninstrumented runtime under TSan";
    ClosedRunConfig c;
    c.users = 3;
    c.workers = 2;
    c.jobLoad = 20us;
    c.duration = 40ms;
    c.warmup = 10ms;
    const auto b = BackendRegistry::streamRunner(GetParam());
    const LoadRunResult r = runClosedLoad(*b, c, trivialLoad());
    EXPECT_EQ(r.method, "closed");
    EXPECT_TRUE(r.drained);
    EXPECT_GE(r.posted, 3u) << "every user submits at least once";
    EXPECT_EQ(r.completed + r.expired + r.cancelled, r.posted);
    EXPECT_EQ(r.expired, 0u);
    EXPECT_LE(r.completedInSpan, r.completed);
    EXPECT_EQ(r.lateness.count(), r.measured) << "every measured job recorded its lateness";
    EXPECT_EQ(b->ended(), b->submitted());
}

TEST_P(StreamBackendTest, AThinkTimeNeedsANativeStart) {
    const auto b = BackendRegistry::streamRunner(GetParam());
    ClosedRunConfig c;
    c.think = 1ms;
    c.duration = 20ms;
    c.warmup = 0ms;
    c.jobLoad = 1us;
    if (b->arrivalTimes() == StartTimes::Native) GTEST_SKIP() << "native start times";
    EXPECT_THROW(runClosedLoad(*b, c, trivialLoad()), std::invalid_argument);
}

TEST_P(StreamBackendTest, ARateStepCountsItsJobs) {
    if (rigtest::skipUnderThreadSanitizer(GetParam()))
        GTEST_SKIP() << "uninstrumented runtime under TSan";
    RateStepConfig c;
    c.arrivals.rate = 2000;
    c.workers = 2;
    c.jobLoad = 5us;
    c.hold = 50ms;
    c.warm = 10ms;
    c.drainLimit = 60s;
    c.deadlineWindow = Duration{0};
    const auto b = BackendRegistry::streamRunner(GetParam());
    const StepResult r = runRateStep(*b, c, trivialLoad());
    EXPECT_EQ(r.m.jobs, 100u);
    EXPECT_TRUE(r.m.drained);
    EXPECT_EQ(r.m.backlogAfterDrain, 0.0);
    EXPECT_EQ(r.m.drops, 0u);
    EXPECT_EQ(r.measured, 80u) << "arrivals from the 10 ms warm-up on";
    EXPECT_EQ(r.lateness.count(), r.measured);
    EXPECT_EQ(b->ended(), 100u);
}

TEST_P(StreamBackendTest, ASoakRowsEveryIntervalAndEveryJob) {
    if (rigtest::skipUnderThreadSanitizer(GetParam()))
        GTEST_SKIP() << "uninstrumented runtime under TSan";
    SoakRunConfig c;
    c.arrivals.rate = 1000;
    c.workers = 2;
    c.jobLoad = 5us;
    c.duration = 60ms;
    c.interval = 20ms;
    c.deadlineWindow = Duration{0};
    std::size_t calls = 0;
    const auto b = BackendRegistry::streamRunner(GetParam());
    const SoakRunResult r =
        runSoak(*b, c, trivialLoad(), nullptr,
                [&calls](const IntervalRow&, std::size_t, std::size_t) { ++calls; });
    EXPECT_EQ(r.plannedIntervals, 3u);
    ASSERT_EQ(r.rows.size(), 3u);
    EXPECT_EQ(calls, 3u);
    std::uint64_t jobs = 0, measured = 0;
    for (const IntervalRow& row : r.rows) {
        jobs += row.jobs;
        measured += row.measured;
    }
    EXPECT_EQ(r.posted, 60u);
    EXPECT_EQ(jobs, r.posted) << "every posted job in one interval's row";
    EXPECT_EQ(r.completed, r.posted);
    EXPECT_LE(measured, r.lateness.count());
    EXPECT_EQ(r.lateness.count(), r.posted) << "no warm-up: every job measured";
}

// One worker and jobs far longer than the arrival gap: most jobs start after the last
// interval has closed, and the run's lateness still holds every one of them.
TEST_P(StreamBackendTest, ASoakCountsTheLatenessOfJobsStartedAfterItsLastInterval) {
    if (rigtest::skipUnderThreadSanitizer(GetParam()))
        GTEST_SKIP() << "uninstrumented runtime under TSan";
    SoakRunConfig c;
    c.arrivals.rate = 1000;
    c.workers = 1;
    c.jobLoad = 20ms;  // nominal; the load below runs it as 20 million steps (ms, not µs)
    c.duration = 20ms;
    c.interval = 10ms;
    c.deadlineWindow = Duration{0};
    pullsched::testchain::ComputationalLoad load;
    load.setCalibration({.speed = 1000.0});
    const auto b = BackendRegistry::streamRunner(GetParam());
    const SoakRunResult r = runSoak(*b, c, load, nullptr, {});
    EXPECT_EQ(r.posted, 20u);
    EXPECT_EQ(r.completed, r.posted);
    EXPECT_EQ(r.lateness.count(), r.posted) << "jobs started after the last interval left out";
}

INSTANTIATE_TEST_SUITE_P(AllStreamBackends, StreamBackendTest,
                         ::testing::ValuesIn(BackendRegistry::names()),
                         [](const auto& info) { return info.param; });

TEST(StreamBackends, UnknownNameIsRejected) {
    EXPECT_THROW(BackendRegistry::streamRunner("nope"), std::invalid_argument);
    EXPECT_THROW(BackendRegistry::streamRunner("pool")->start(0), std::invalid_argument);
}

}  // namespace
