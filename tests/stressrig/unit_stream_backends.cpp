// Every job-stream backend (--mode=open --backends) runs each submitted job exactly once
// and none starts before its intended start, whether the generator hands it over when it
// is due or the backend holds it back itself; a stop request skips what has not started
// and still ends every job. Counts and timestamps only, no timed assertions.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "RigTestSupport.hpp"
#include "backends/BackendRegistry.hpp"
#include "backends/StreamOpenLoad.hpp"

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

StreamRunConfig smallConfig(Duration duration, Duration warmup) {
    StreamRunConfig c;
    c.workers = 2;
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
    const StreamRunResult r = playStream(*b, offsets, smallConfig(32ms, 10ms), load);

    EXPECT_EQ(r.backend, GetParam());
    EXPECT_FALSE(r.load.interrupted);
    EXPECT_TRUE(r.load.drained);
    EXPECT_EQ(r.load.posted, offsets.size());
    EXPECT_EQ(r.load.completed, offsets.size());
    EXPECT_EQ(r.missed, 0u);
    EXPECT_EQ(r.repeated, 0u);
    ASSERT_EQ(r.executions.size(), offsets.size());
    ASSERT_EQ(r.latenessNs.size(), offsets.size());
    std::size_t early = 0;
    for (std::size_t i = 0; i < offsets.size(); ++i) {
        EXPECT_EQ(r.executions[i], 1u) << "arrival " << i;
        if (r.latenessNs[i] < 0) ++early;
    }
    EXPECT_EQ(early, 0u) << "jobs started before their intended start";
    // Arrivals at or after the 10 ms warm-up are measured: 200 of the even ones + the burst.
    EXPECT_EQ(r.load.measured, 300u);
    EXPECT_EQ(r.load.lateness.count(), 300u);
    EXPECT_EQ(r.load.lateness.clampedNegatives(), 0u);
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
    const StreamRunResult r = playStream(*b, offsets, smallConfig(100ms, 0ms), load, &stop);
    EXPECT_TRUE(r.load.interrupted);
    EXPECT_LT(r.load.posted, offsets.size());
    EXPECT_EQ(r.repeated, 0u);
    EXPECT_EQ(r.missed, 0u) << "an interrupted run does not count skipped jobs as missed";
    EXPECT_EQ(b->ended(), b->submitted());
}

INSTANTIATE_TEST_SUITE_P(AllStreamBackends, StreamBackendTest,
                         ::testing::ValuesIn(BackendRegistry::names()),
                         [](const auto& info) { return info.param; });

TEST(StreamBackends, UnknownNameIsRejected) {
    EXPECT_THROW(BackendRegistry::streamRunner("nope"), std::invalid_argument);
    EXPECT_THROW(BackendRegistry::streamRunner("pool")->start(0), std::invalid_argument);
}

}  // namespace
