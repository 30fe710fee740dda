// The saturating time sums every "now + limit" and "start + window" goes through, at the
// ends of the range: a limit of Duration::max() means no limit, never a wrap into the past.
#include "pullsched/scheduler/Time.hpp"

#include <gtest/gtest.h>

using namespace std::chrono_literals;
using pullsched::Duration;
using pullsched::ManualClock;
using pullsched::saturatingAdd;
using pullsched::saturatingSub;
using pullsched::TimePoint;

namespace {
constexpr Duration kMax = Duration::max();
constexpr Duration kMin = Duration::min();
constexpr TimePoint kLatest = TimePoint::max();
constexpr TimePoint kEarliest = TimePoint::min();
}  // namespace

// Usable where the scheduler needs them at compile time.
static_assert(saturatingAdd(kMax, 1ns) == kMax);
static_assert(saturatingAdd(kLatest, 1ns) == kLatest);
static_assert(saturatingSub(kLatest, kEarliest) == kMax);

TEST(Time, DurationSumsClampAtBothEnds) {
    EXPECT_EQ(saturatingAdd(kMax, 1ns), kMax);
    EXPECT_EQ(saturatingAdd(kMax, kMax), kMax);
    EXPECT_EQ(saturatingAdd(1ns, kMax), kMax);
    EXPECT_EQ(saturatingAdd(kMin, -1ns), kMin);
    EXPECT_EQ(saturatingAdd(kMin, kMin), kMin);
    EXPECT_EQ(saturatingAdd(-1ns, kMin), kMin);
    // In range: exact, including across zero and at the very ends.
    EXPECT_EQ(saturatingAdd(kMax, kMin), -1ns);
    EXPECT_EQ(saturatingAdd(kMax, -1ns), kMax - 1ns);
    EXPECT_EQ(saturatingAdd(kMin, 1ns), kMin + 1ns);
    EXPECT_EQ(saturatingAdd(kMax - 1ns, 1ns), kMax);
    EXPECT_EQ(saturatingAdd(3ns, -5ns), -2ns);
}

TEST(Time, TimePointPlusDurationClampsAtBothEnds) {
    const TimePoint now = TimePoint{} + 1h;
    EXPECT_EQ(saturatingAdd(now, kMax), kLatest);  // drainFor(Duration::max())
    EXPECT_EQ(saturatingAdd(kLatest, 1ns), kLatest);
    EXPECT_EQ(saturatingAdd(kLatest, kMax), kLatest);
    EXPECT_EQ(saturatingAdd(now, kMin), kEarliest + 1h);  // fits: no clamp needed
    EXPECT_EQ(saturatingAdd(kEarliest + 1h, kMin), kEarliest);
    EXPECT_EQ(saturatingAdd(kEarliest, -1ns), kEarliest);
    EXPECT_EQ(saturatingAdd(now, -2h), TimePoint{} - 1h);  // negative limits: plain sums
    EXPECT_EQ(saturatingAdd(kLatest, kMin), TimePoint{} - 1ns);
    EXPECT_EQ(saturatingAdd(now, 0ns), now);
}

TEST(Time, TimePointDifferenceClampsAtBothEnds) {
    EXPECT_EQ(saturatingSub(kLatest, kEarliest), kMax);
    EXPECT_EQ(saturatingSub(kEarliest, kLatest), kMin);
    EXPECT_EQ(saturatingSub(kLatest, TimePoint{} - 1ns), kMax);
    EXPECT_EQ(saturatingSub(kEarliest, TimePoint{} + 1ns), kMin);
    EXPECT_EQ(saturatingSub(kLatest, kLatest), 0ns);
    EXPECT_EQ(saturatingSub(kEarliest, kEarliest), 0ns);
    EXPECT_EQ(saturatingSub(kLatest, TimePoint{}), kMax);
    EXPECT_EQ(saturatingSub(TimePoint{}, kLatest), -kMax);  // = kMin + 1: in range
    EXPECT_EQ(saturatingSub(TimePoint{} + 2h, TimePoint{} + 1h), 1h);
}

TEST(Time, ManualClockAdvanceSaturates) {
    ManualClock clock(kLatest - 1h);
    clock.advance(kMax);
    EXPECT_EQ(clock.now(), kLatest);
    clock.advance(1ns);
    EXPECT_EQ(clock.now(), kLatest);
    clock.set(kEarliest + 1h);
    clock.advance(kMin);
    EXPECT_EQ(clock.now(), kEarliest);
    clock.advance(2h);
    EXPECT_EQ(clock.now(), kEarliest + 2h);
}
