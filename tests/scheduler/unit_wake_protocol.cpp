// The sleep/wake protocol's decisions, one thread, no clock: the park guard's conditions,
// who becomes and stays the tender, whom a timed post or a tender about to reach its head
// wakes, and the wakers' rules (a spinner or a wake in flight means nobody is woken).
// An announced wait (prepareWait) counts as a waiter without blocking, which lets these
// tests play both sides of a wake on one thread.
#include "detail/WakeProtocol.hpp"

#include <gtest/gtest.h>

#include <chrono>

using namespace std::chrono_literals;
using pullsched::TimePoint;
using pullsched::detail::WakeProtocol;
using Seen = WakeProtocol::QueuesSeen;

namespace {

constexpr std::int64_t kNone = WakeProtocol::kNone;

TimePoint at(std::int64_t ns) {
    return TimePoint(std::chrono::nanoseconds(ns));
}

/// No thread helps in drain(): rule E's notification must not be called.
const auto kNoHelper = [] {
    ADD_FAILURE() << "a helper was notified";
    return false;
};

}  // namespace

TEST(WakeProtocol, MayParkOnlyWhenNoConditionHolds) {
    EXPECT_TRUE(WakeProtocol::mayPark({}, kNone, kNone));
    EXPECT_TRUE(WakeProtocol::mayPark({}, 100, 100));  // the head is tended
}

TEST(WakeProtocol, EachOfTheFiveConditionsAloneForbidsParking) {
    EXPECT_FALSE(WakeProtocol::mayPark({.untimed = true}, kNone, kNone));   // 1
    EXPECT_FALSE(WakeProtocol::mayPark({.due = true}, kNone, kNone));       // 2
    EXPECT_FALSE(WakeProtocol::mayPark({.entrance = true}, kNone, kNone));  // 3
    EXPECT_FALSE(WakeProtocol::mayPark({.stopping = true}, kNone, kNone));  // 4
    EXPECT_FALSE(WakeProtocol::mayPark({}, 100, kNone));                    // 5
}

TEST(WakeProtocol, TheTendersGuardIgnoresAnUntendedHead) {
    // Condition 5 is about the tender itself: it must not keep it from sleeping.
    EXPECT_FALSE(WakeProtocol::workSeen({}));
    EXPECT_TRUE(WakeProtocol::headUntended(100, kNone));
    EXPECT_TRUE(WakeProtocol::workSeen({.entrance = true}));
}

TEST(WakeProtocol, MayTendOnlyAnEarlierHeadThanTheTenders) {
    EXPECT_FALSE(WakeProtocol::mayTend(std::nullopt, kNone));
    EXPECT_TRUE(WakeProtocol::mayTend(at(100), kNone));
    EXPECT_TRUE(WakeProtocol::mayTend(at(99), 100));
    EXPECT_FALSE(WakeProtocol::mayTend(at(100), 100));
    EXPECT_FALSE(WakeProtocol::mayTend(at(101), 100));
}

TEST(WakeProtocol, OneTenderAtATimeAndAnEarlierHeadTakesOver) {
    WakeProtocol p(2);
    EXPECT_EQ(p.tendTarget(), kNone);
    ASSERT_TRUE(p.claimTender(100));
    EXPECT_EQ(p.tendTarget(), 100);
    EXPECT_FALSE(p.claimTender(200));  // a later head: park instead
    EXPECT_FALSE(p.claimTender(100));  // the same head: park instead
    ASSERT_TRUE(p.claimTender(50));    // an earlier head takes the duty over
    EXPECT_EQ(p.tendTarget(), 50);
    p.tenderSleepEnded(100);  // the first tender wakes: the duty is no longer its own
    EXPECT_EQ(p.tendTarget(), 50);
    p.tenderSleepEnded(50);
    EXPECT_EQ(p.tendTarget(), kNone);
}

TEST(WakeProtocol, ParkGuardReadsThePublishedHeadAndTheTender) {
    WakeProtocol p(2);
    EXPECT_TRUE(p.mayParkNow({}));
    p.publishHead(at(100));
    EXPECT_FALSE(p.mayParkNow({}));  // condition 5: nobody tends it
    ASSERT_TRUE(p.claimTender(100));
    EXPECT_TRUE(p.mayParkNow({}));
    EXPECT_FALSE(p.mayParkNow({.due = true}));
    p.tenderSleepEnded(100);
    p.publishHead(std::nullopt);
    EXPECT_TRUE(p.mayParkNow({}));
}

TEST(WakeProtocol, TimedPostWakes) {
    using W = WakeProtocol::TimedPostWake;
    EXPECT_EQ(WakeProtocol::onTimedPost(true, 100, 50), W::DueWork);
    EXPECT_EQ(WakeProtocol::onTimedPost(true, 100, kNone), W::DueWork);
    EXPECT_EQ(WakeProtocol::onTimedPost(false, 100, kNone), W::ParkedToTend);
    EXPECT_EQ(WakeProtocol::onTimedPost(false, 100, 200), W::Tender);
    EXPECT_EQ(WakeProtocol::onTimedPost(false, 200, 200), W::Nobody);
    EXPECT_EQ(WakeProtocol::onTimedPost(false, 300, 200), W::Nobody);
}

TEST(WakeProtocol, AGroomerHandsTendingOverOnlyWhenAHeadIsLeftUntended) {
    EXPECT_TRUE(WakeProtocol::handsTendingOver(true, kNone));
    EXPECT_FALSE(WakeProtocol::handsTendingOver(true, 100));
    EXPECT_FALSE(WakeProtocol::handsTendingOver(false, kNone));
}

TEST(WakeProtocol, BeforeItsHeadATenderWakesForAFanOutFirstThenForTheNextHead) {
    using H = WakeProtocol::HeadHandOver;
    EXPECT_EQ(WakeProtocol::beforeHead(true, true, true), H::FanOut);
    EXPECT_EQ(WakeProtocol::beforeHead(true, true, false), H::FanOut);
    EXPECT_EQ(WakeProtocol::beforeHead(true, false, true), H::NextHead);
    EXPECT_EQ(WakeProtocol::beforeHead(true, false, false), H::Nobody);
    // Only a tender whose sleep ran out: a worker that merely spins wakes nobody.
    EXPECT_EQ(WakeProtocol::beforeHead(false, true, true), H::Nobody);
}

TEST(WakeProtocol, HowATendersSleepEnded) {
    // Notified: neither quiet nor at its head.
    auto e = WakeProtocol::tenderSleepEnd(true, true, true);
    EXPECT_FALSE(e.quiet);
    EXPECT_FALSE(e.sleptToHead);
    EXPECT_FALSE(e.woken);
    // Slept to the head (the net, if held, ended later).
    e = WakeProtocol::tenderSleepEnd(false, false, false);
    EXPECT_FALSE(e.quiet);
    EXPECT_TRUE(e.sleptToHead);
    // The safety net ended the sleep first: quiet, not at the head.
    e = WakeProtocol::tenderSleepEnd(false, true, true);
    EXPECT_TRUE(e.quiet);
    EXPECT_FALSE(e.sleptToHead);
    // Woken early without a notification (the epoch moved): neither.
    e = WakeProtocol::tenderSleepEnd(false, true, false);
    EXPECT_FALSE(e.quiet);
    EXPECT_FALSE(e.sleptToHead);
}

TEST(WakeProtocol, HalfTheWorkersMaySpinAtLeastOne) {
    for (auto [workers, spinners] : {std::pair{1u, 1u}, {2u, 1u}, {3u, 1u}, {4u, 2u}}) {
        WakeProtocol p(workers);
        for (unsigned i = 0; i < spinners; ++i)
            EXPECT_TRUE(p.startSpin()) << workers;
        EXPECT_FALSE(p.startSpin()) << workers;
        p.endSpin();
        EXPECT_TRUE(p.startSpin()) << workers;
    }
}

TEST(WakeProtocol, NobodyToWakeWakesNobody) {
    WakeProtocol p(2);
    int calls = 0;
    EXPECT_EQ(p.wakeForDueWork([&] { return ++calls, true; }, kNoHelper),
              WakeProtocol::Woke::Nobody);
    EXPECT_EQ(calls, 0);
}

TEST(WakeProtocol, ASpinnerMeansNobodyIsWoken) {
    WakeProtocol p(2);
    const auto key = p.announcePark();
    (void)key;
    ASSERT_TRUE(p.startSpin());
    int calls = 0;
    EXPECT_EQ(p.wakeForDueWork([&] { return ++calls, true; }, kNoHelper),
              WakeProtocol::Woke::Nobody);
    EXPECT_EQ(calls, 0);
    p.endSpin();
    EXPECT_EQ(p.wakeForDueWork([&] { return ++calls, true; }, kNoHelper),
              WakeProtocol::Woke::Parked);
    EXPECT_EQ(calls, 1);
    p.cancelPark();
}

TEST(WakeProtocol, OneWakeInFlightUntilTheWokenWorkerLooks) {
    WakeProtocol p(2);
    p.announcePark();
    int calls = 0;
    auto wakeParked = [&] { return ++calls, true; };
    EXPECT_EQ(p.wakeForDueWork(wakeParked, kNoHelper), WakeProtocol::Woke::Parked);
    EXPECT_EQ(p.wakeForDueWork(wakeParked, kNoHelper), WakeProtocol::Woke::Nobody);
    EXPECT_EQ(calls, 1);
    p.parkEnded();  // it looks for work: the next release wakes again
    EXPECT_EQ(p.wakeForDueWork(wakeParked, kNoHelper), WakeProtocol::Woke::Parked);
    EXPECT_EQ(calls, 2);
    p.cancelPark();
}

TEST(WakeProtocol, AWakeThatFoundNobodyLeavesNoWakeInFlight) {
    WakeProtocol p(2);
    p.announcePark();
    int calls = 0;
    EXPECT_EQ(p.wakeForDueWork([&] { return ++calls, false; }, kNoHelper),
              WakeProtocol::Woke::Nobody);
    EXPECT_EQ(p.wakeForDueWork([&] { return ++calls, true; }, kNoHelper),
              WakeProtocol::Woke::Parked);
    EXPECT_EQ(calls, 2);
    p.cancelPark();
}

TEST(WakeProtocol, WithNobodyParkedTheTenderIsWokenOnce) {
    WakeProtocol p(2);
    ASSERT_TRUE(p.claimTender(100));
    int calls = 0;
    auto wakeParked = [&] { return ++calls, true; };
    // Claimed, but not asleep yet: nobody to notify.
    EXPECT_EQ(p.wakeForDueWork(wakeParked, kNoHelper), WakeProtocol::Woke::Nobody);
    const auto key = p.announceTenderSleep();
    (void)key;
    EXPECT_EQ(p.wakeForDueWork(wakeParked, kNoHelper), WakeProtocol::Woke::Tender);
    EXPECT_EQ(p.wakeForDueWork(wakeParked, kNoHelper), WakeProtocol::Woke::Nobody);  // on its way
    EXPECT_EQ(calls, 0);
    p.cancelTenderSleep();
    p.tenderSleepEnded(100);
    EXPECT_EQ(p.wakeForDueWork(wakeParked, kNoHelper),
              WakeProtocol::Woke::Nobody);  // no tender now
}

TEST(WakeProtocol, AWatchedWakeStaysInFlightUntilItArrivesOrAnotherIsSent) {
    WakeProtocol p(2);
    p.announcePark();
    ASSERT_EQ(p.wakeForDueWork([] { return true; }, kNoHelper), WakeProtocol::Woke::Parked);
    const std::uint32_t first = p.countWatchedWake();
    EXPECT_TRUE(p.watchedWakeInFlight(first));
    const std::uint32_t second = p.countWatchedWake();
    EXPECT_FALSE(p.watchedWakeInFlight(first));
    EXPECT_TRUE(p.watchedWakeInFlight(second));
    p.parkEnded();
    EXPECT_FALSE(p.watchedWakeInFlight(second));
    p.cancelPark();
}

TEST(WakeProtocol, ASleepingHelperIsWokenOnlyWhenNoWorkerCanBe) {
    WakeProtocol p(2, true);
    int parkedCalls = 0, helperCalls = 0;
    auto wakeParked = [&] { return ++parkedCalls, true; };
    auto wakeHelpers = [&] { return ++helperCalls, true; };
    p.announceHelperSleep();
    // A parked worker comes first (rule C): it passes the wake on if work remains.
    p.announcePark();
    EXPECT_EQ(p.wakeForDueWork(wakeParked, wakeHelpers), WakeProtocol::Woke::Parked);
    EXPECT_EQ(helperCalls, 0);
    p.parkEnded();
    p.cancelPark();
    // Nobody parked, no tender: the helper (rule E), once until it looks.
    EXPECT_EQ(p.wakeForDueWork(wakeParked, wakeHelpers), WakeProtocol::Woke::Helper);
    EXPECT_EQ(p.wakeForDueWork(wakeParked, wakeHelpers), WakeProtocol::Woke::Nobody);
    EXPECT_EQ(helperCalls, 1);
    p.helperSleepEnded();
    EXPECT_EQ(p.wakeForDueWork(wakeParked, kNoHelper), WakeProtocol::Woke::Nobody);  // awake
    EXPECT_EQ(parkedCalls, 1);
}

TEST(WakeProtocol, AHelperThatLeftBeforeItsWakeLeavesNoWakeInFlight) {
    WakeProtocol p(2, true);
    int calls = 0;
    p.announceHelperSleep();
    EXPECT_EQ(p.wakeForDueWork(kNoHelper, [&] { return ++calls, false; }),
              WakeProtocol::Woke::Nobody);
    EXPECT_EQ(p.wakeForDueWork(kNoHelper, [&] { return ++calls, true; }),
              WakeProtocol::Woke::Helper);
    EXPECT_EQ(calls, 2);
    p.helperSleepEnded();
}

TEST(WakeProtocol, ASpinnerOrAWakeInFlightAlsoSparesTheHelper) {
    WakeProtocol p(2, true);
    p.announceHelperSleep();
    ASSERT_TRUE(p.startSpin());
    EXPECT_EQ(p.wakeForDueWork(kNoHelper, kNoHelper), WakeProtocol::Woke::Nobody);  // A
    p.endSpin();
    p.announcePark();
    EXPECT_EQ(p.wakeForDueWork([] { return true; }, kNoHelper), WakeProtocol::Woke::Parked);
    EXPECT_EQ(p.wakeForDueWork(kNoHelper, kNoHelper), WakeProtocol::Woke::Nobody);  // B
    p.parkEnded();
    p.cancelPark();
    p.helperSleepEnded();
}

TEST(WakeProtocol, WithAWorkerPerCpuTheHelperIsNeverWoken) {
    WakeProtocol p(2, false);
    p.announceHelperSleep();
    EXPECT_EQ(p.wakeForDueWork(kNoHelper, kNoHelper), WakeProtocol::Woke::Nobody);
    p.helperSleepEnded();
}
