// RateProfile and --stages: parsing, the integral and its inverse, and the staged arrival
// timetable — counts per interval within ±1 of the integral, Poisson counts seeded.
#include <cmath>
#include <string>

#include <gtest/gtest.h>

#include "cli/StagesOption.hpp"
#include "cli/UsageError.hpp"
#include "load/ArrivalTimetable.hpp"
#include "load/RateProfile.hpp"

using namespace std::chrono_literals;
using pullsched::Duration;
using pullsched::rig::ArrivalTimetable;
using pullsched::rig::parseStages;
using pullsched::rig::RateProfile;
using pullsched::rig::readStagesArgument;
using pullsched::rig::UsageError;

namespace {

/// Arrivals with offsets in [a, b).
std::size_t countIn(const ArrivalTimetable& t, Duration a, Duration b) {
    std::size_t n = 0;
    for (auto o : t)
        n += o >= a && o < b ? 1 : 0;
    return n;
}

std::string usageMessage(const std::string& spec) {
    try {
        parseStages(spec);
    } catch (const UsageError& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST(RateProfile, ParsesHoldsRampsArrowsAndMinutes) {
    const RateProfile p = parseStages("30s:0\u21922k/s, 1m:2k/s,10s:8k/s,1min:2k->0");
    ASSERT_EQ(p.stages().size(), 4u);
    EXPECT_EQ(p.stages()[0].length, 30s);
    EXPECT_EQ(p.stages()[0].fromRate, 0);
    EXPECT_EQ(p.stages()[0].toRate, 2000);
    EXPECT_EQ(p.stages()[1].length, 60s);
    EXPECT_TRUE(p.stages()[1].hold());
    EXPECT_EQ(p.stages()[2].toRate, 8000);
    EXPECT_EQ(p.stages()[3].toRate, 0);
    EXPECT_EQ(p.duration(), 160s);
    EXPECT_EQ(p.peakRate(), 8000);
    EXPECT_EQ(p.finalRate(), 0);
    EXPECT_EQ(p.text(), "30s:0/s\u21922.00k/s,1min:2.00k/s,10s:8.00k/s,1min:2.00k/s\u21920/s");
}

TEST(RateProfile, BadStagesNameTheProblem) {
    EXPECT_NE(usageMessage("").find("stage 1 is empty"), std::string::npos);
    EXPECT_NE(usageMessage("1s:1k,,1s:2k").find("stage 2 is empty"), std::string::npos);
    EXPECT_NE(usageMessage("0s:1k").find("longer than 0"), std::string::npos);
    EXPECT_NE(usageMessage("1s:-5").find("must not be negative"), std::string::npos);
    EXPECT_NE(usageMessage("1s:5->-5").find("must not be negative"), std::string::npos);
    EXPECT_NE(usageMessage("1s:5/fortnight").find("unknown suffix"), std::string::npos);
    EXPECT_NE(usageMessage("1x:5").find("unknown unit"), std::string::npos);
    EXPECT_NE(usageMessage("1s 5k").find("has no ':'"), std::string::npos);
    EXPECT_NE(usageMessage("1s:0,2s:0").find("must offer some load"), std::string::npos);
    EXPECT_NE(usageMessage("1s:0/lightyear").find("unknown suffix"), std::string::npos);
}

TEST(RateProfile, IntegralAndItsInverse) {
    const RateProfile p = parseStages("2s:0->1000,1s:1000,1s:3000,2s:1000->0");
    EXPECT_DOUBLE_EQ(static_cast<double>(p.arrivalsBefore(1s)), 250.0);
    EXPECT_DOUBLE_EQ(static_cast<double>(p.arrivalsBefore(2s)), 1000.0);
    EXPECT_DOUBLE_EQ(static_cast<double>(p.arrivalsBefore(3s)), 2000.0);
    EXPECT_DOUBLE_EQ(static_cast<double>(p.arrivalsBefore(4s)), 5000.0);
    EXPECT_DOUBLE_EQ(static_cast<double>(p.arrivalsBefore(6s)), 6000.0);
    EXPECT_DOUBLE_EQ(p.rateAt(500ms), 250.0);
    EXPECT_DOUBLE_EQ(p.rateAt(3500ms), 3000.0);
    EXPECT_DOUBLE_EQ(p.meanRate(3s, 4s), 3000.0);
    for (long double n : {0.5L, 250.0L, 999.0L, 1500.0L, 4321.0L, 5999.0L})
        EXPECT_NEAR(static_cast<double>(
                        p.arrivalsBefore(Duration{std::llround(p.timeOfArrival(n) * 1e9L)})),
                    static_cast<double>(n), 0.01)
            << static_cast<double>(n);
    EXPECT_EQ(p.endOfLastStageAbove(1000), 4s);
    EXPECT_EQ(p.endOfLastStageAbove(3000), 0s);
}

TEST(RateProfile, StagedTimetableCountsFollowTheIntegral) {
    const RateProfile p = parseStages("5s:0->2k/s,5s:2k/s,2s:6k/s,5s:2k/s");
    const ArrivalTimetable t = ArrivalTimetable::staged(p, 0s, p.duration());
    EXPECT_TRUE(std::is_sorted(t.begin(), t.end()));
    EXPECT_EQ(t.size(), 5000u + 10000u + 12000u + 10000u);
    // every 50 ms interval, and some odd ones, hold Λ(b) − Λ(a) within ±1
    for (Duration a = 0s; a < p.duration(); a += 50ms) {
        const double expected =
            static_cast<double>(p.arrivalsBefore(a + 50ms) - p.arrivalsBefore(a));
        EXPECT_NEAR(static_cast<double>(countIn(t, a, a + 50ms)), expected, 1.0) << a.count();
    }
    EXPECT_NEAR(static_cast<double>(countIn(t, 1234567ns, 9876543210ns)),
                static_cast<double>(p.arrivalsBefore(9876543210ns) - p.arrivalsBefore(1234567ns)),
                1.0);
}

TEST(RateProfile, StagedWindowsTileTheWholeTimetable) {
    const RateProfile p = parseStages("1s:100->900,0.7s:0,1.3s:2k/s->50");
    const ArrivalTimetable whole = ArrivalTimetable::staged(p, 0s, p.duration());
    std::vector<Duration> tiled;
    for (Duration a = 0s; a < p.duration(); a += 300ms) {
        const Duration b = std::min(p.duration(), a + 300ms);
        for (auto o : ArrivalTimetable::staged(p, a, b))
            tiled.push_back(a + o);
    }
    EXPECT_EQ(tiled, whole.offsets());
    // the zero hold offers nothing after its start (arrival 500, Λ(1 s) = 500, is at 1 s)
    EXPECT_EQ(countIn(whole, 1s + 1ns, 1700ms), 0u);
}

TEST(RateProfile, AHoldIsTheConstantTimetable) {
    const RateProfile p = parseStages("2s:1k/s");
    EXPECT_EQ(ArrivalTimetable::staged(p, 0s, 2s).offsets(),
              ArrivalTimetable::constant(1000, 2s).offsets());
}

TEST(RateProfile, StagedPoissonCountsFollowTheIntegral) {
    // Seeded: the outcome is fixed; the tolerances (5 σ of a Poisson count) document what
    // a correct time rescaling must meet.
    const RateProfile p = parseStages("20s:0->4k/s,10s:4k/s,10s:500/s");
    const ArrivalTimetable t = ArrivalTimetable::stagedPoisson(p, 0s, p.duration(), 7);
    EXPECT_EQ(t.offsets(), ArrivalTimetable::stagedPoisson(p, 0s, p.duration(), 7).offsets());
    EXPECT_NE(t.offsets(), ArrivalTimetable::stagedPoisson(p, 0s, p.duration(), 8).offsets());
    EXPECT_TRUE(std::is_sorted(t.begin(), t.end()));
    for (Duration a = 0s; a < p.duration(); a += 5s) {
        const double mean = static_cast<double>(p.arrivalsBefore(a + 5s) - p.arrivalsBefore(a));
        EXPECT_NEAR(static_cast<double>(countIn(t, a, a + 5s)), mean, 5 * std::sqrt(mean) + 1)
            << a.count();
    }
    // the ramp's first and second half: 1/4 and 3/4 of its 40k arrivals
    EXPECT_NEAR(static_cast<double>(countIn(t, 0s, 10s)), 10000, 500);
    EXPECT_NEAR(static_cast<double>(countIn(t, 10s, 20s)), 30000, 870);
}

TEST(RateProfile, RejectsBadStagesAndWindows) {
    using pullsched::rig::RateStage;
    EXPECT_THROW(RateProfile({}), std::invalid_argument);
    EXPECT_THROW(RateProfile({RateStage{0s, 1, 1}}), std::invalid_argument);
    EXPECT_THROW(RateProfile({RateStage{1s, NAN, 1}}), std::invalid_argument);
    const RateProfile p({RateStage{1s, 10, 10}});
    EXPECT_THROW(ArrivalTimetable::staged(p, 0s, 2s), std::invalid_argument);
    EXPECT_THROW(ArrivalTimetable::staged(p, 500ms, 400ms), std::invalid_argument);
    const RateProfile huge({RateStage{1h, 1e9, 1e9}});
    EXPECT_THROW(ArrivalTimetable::staged(huge, 0s, 1h), std::length_error);
}

// The stages replace --duration, so they keep its bounds, and they offer one job at least:
// a 1 ns stage measured one job over 1 ns and reported "achieved 1000M/s".
TEST(RateProfile, TheCommandLinesStagesLastAsLongAsADurationAndOfferAJob) {
    auto refusal = [](const std::string& spec) {
        try {
            readStagesArgument(spec);
        } catch (const UsageError& e) {
            return std::string(e.what());
        }
        return std::string("<accepted>");
    };
    EXPECT_EQ(refusal("1ns:1k/s"),
              "invalid --stages='1ns:1k/s': the stages last 1ns in all; a load lasts "
              "10.0ms..24h 00min, as --duration");
    EXPECT_EQ(refusal("20h:1/s,5h:1/s"),
              "invalid --stages='20h:1/s,5h:1/s': the stages last 25h 00min in all; a load lasts "
              "10.0ms..24h 00min, as --duration");
    EXPECT_EQ(refusal("1us:1k/s,20ms:0"),
              "invalid --stages='1us:1k/s,20ms:0': the stages offer 0.001 jobs in all; they "
              "must offer one at least");
    EXPECT_EQ(readStagesArgument("10ms:100/s").duration(), 10ms);
    EXPECT_EQ(readStagesArgument("1ns:1k/s,10ms:0->1k/s").stages().size(), 2u);
}
