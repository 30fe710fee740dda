#include "detail/LoadController.hpp"

#include <gtest/gtest.h>

using namespace std::chrono_literals;
using pullsched::LoadHorizons;
using pullsched::TimePoint;
using pullsched::detail::CapacityClass;
using pullsched::detail::LoadController;
using Kind = pullsched::detail::WorkerAction::Kind;

namespace {
const TimePoint now{10s};
const LoadHorizons ref{};  // the reference's horizons: 20 ms, 5 ms, 50 us; spin window 120 us
}  // namespace

TEST(LoadController, DefaultsAreTheReferenceHorizons) {
    EXPECT_EQ(ref.idleWait, 20ms);
    EXPECT_EQ(ref.workTime, 5ms);
    EXPECT_EQ(ref.nearTime, 50us);
}

TEST(LoadController, ClassifiesEachHorizonAtItsBoundary) {
    LoadController lc(ref);
    EXPECT_EQ(lc.classify(std::nullopt, now), CapacityClass::IdleWait);
    EXPECT_EQ(lc.classify(now - 1us, now), CapacityClass::Dispatch);
    EXPECT_EQ(lc.classify(now, now), CapacityClass::Dispatch);
    EXPECT_EQ(lc.classify(now + 1ns, now), CapacityClass::SpinTime);
    EXPECT_EQ(lc.classify(now + 50us, now), CapacityClass::SpinTime);
    EXPECT_EQ(lc.classify(now + 50us + 1ns, now), CapacityClass::NearTime);
    EXPECT_EQ(lc.classify(now + 5ms, now), CapacityClass::NearTime);
    EXPECT_EQ(lc.classify(now + 5ms + 1ns, now), CapacityClass::WorkTime);
    EXPECT_EQ(lc.classify(now + 20ms, now), CapacityClass::WorkTime);
    EXPECT_EQ(lc.classify(now + 20ms + 1ns, now), CapacityClass::IdleWait);
}

TEST(LoadController, HorizonsAreConfigurable) {
    LoadHorizons h;
    h.nearTime = 10us;
    h.workTime = 1ms;
    h.idleWait = 2ms;
    LoadController lc(h);
    EXPECT_EQ(lc.classify(now + 11us, now), CapacityClass::NearTime);
    EXPECT_EQ(lc.classify(now + 1500us, now), CapacityClass::WorkTime);
    EXPECT_EQ(lc.classify(now + 3ms, now), CapacityClass::IdleWait);
}

TEST(LoadController, NothingQueuedParks) {
    LoadController lc(ref);
    EXPECT_EQ(lc.decide(std::nullopt, now, true).kind, Kind::Park);
}

TEST(LoadController, DueHeadDispatches) {
    LoadController lc(ref);
    EXPECT_EQ(lc.decide(now, now, false).kind, Kind::Dispatch);
}

TEST(LoadController, SpinTimeSpinsUntilTheHead) {
    LoadController lc(ref);
    auto a = lc.decide(now + 30us, now, false);
    EXPECT_EQ(a.kind, Kind::Spin);
    EXPECT_EQ(a.until, now + 30us);
}

TEST(LoadController, NearTimeWithinSpinWindowSpinsRatherThanSleeps) {
    LoadController lc(ref);
    auto a = lc.decide(now + 100us, now, true);  // 50 us < d <= spin window 120 us
    EXPECT_EQ(a.kind, Kind::Spin);
    EXPECT_EQ(a.until, now + 100us);
}

TEST(LoadController, NearAndWorkTimeTendNextSleepsUntilSpinWindowBeforeHead) {
    LoadController lc(ref);
    for (auto d : {1ms, 5ms, 12ms, 20ms}) {
        auto a = lc.decide(now + d, now, true);
        EXPECT_EQ(a.kind, Kind::TendNext) << d.count();
        EXPECT_EQ(a.until, now + d - 120us) << d.count();
    }
}

TEST(LoadController, OnlyOneTenderOthersPark) {
    LoadController lc(ref);
    for (auto d : {1ms, 12ms, 200ms})
        EXPECT_EQ(lc.decide(now + d, now, false).kind, Kind::Park);
}

TEST(LoadController, FarHeadTenderSleepsUntilSpinWindowBeforeHeadInOneWait) {
    LoadController lc(ref);
    for (pullsched::Duration d : {pullsched::Duration{1s}, pullsched::Duration{1h}}) {
        auto a = lc.decide(now + d, now, true);
        EXPECT_EQ(a.kind, Kind::TendNext);
        EXPECT_EQ(a.until, now + d - ref.spinWindow);  // not one idle cycle (20 ms) ahead
    }
}

// A head and a (manual) clock at opposite ends of the time range: head - now does not
// fit in a Duration. It must read as "very far", not wrap to "overdue" and keep a worker
// dispatching in a busy loop; and the other way round as due.
TEST(LoadController, DistancesBeyondTheDurationRangeSaturate) {
    LoadController lc(ref);
    const TimePoint early = TimePoint::min() + 1h;
    const TimePoint late = TimePoint::max() - 1h;
    EXPECT_EQ(lc.classify(late, early), CapacityClass::IdleWait);
    EXPECT_EQ(lc.classify(TimePoint::max(), TimePoint::min() + 1ns), CapacityClass::IdleWait);
    EXPECT_EQ(lc.classify(early, late), CapacityClass::Dispatch);
    EXPECT_EQ(lc.classify(TimePoint::min() + 1ns, TimePoint::max()), CapacityClass::Dispatch);
    auto far = lc.decide(late, early, true);
    EXPECT_EQ(far.kind, Kind::TendNext);
    EXPECT_EQ(far.until, late - 120us);
    EXPECT_EQ(lc.decide(late, early, false).kind, Kind::Park);
    EXPECT_EQ(lc.decide(early, late, true).kind, Kind::Dispatch);
}
