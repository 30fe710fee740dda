// IncidenceCount on synthetic timelines with explicit time stamps: every figure is exact.
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "measure/IncidenceCount.hpp"

using namespace std::chrono_literals;
using pullsched::rig::IncidenceCount;
using std::chrono::nanoseconds;

namespace {

const IncidenceCount::TimePoint kT0 = IncidenceCount::TimePoint{} + 1h;
IncidenceCount::TimePoint at(std::chrono::microseconds us) {
    return kT0 + us;
}

}  // namespace

TEST(IncidenceCount, EmptyEvaluatesToZeros) {
    IncidenceCount ic(2, 8);
    const auto st = ic.evaluate();
    EXPECT_EQ(st.coveredTime, 0ns);
    EXPECT_EQ(st.activeTime, 0ns);
    EXPECT_EQ(st.activations, 0u);
    EXPECT_DOUBLE_EQ(st.avgConcurrency, 0.0);
    ASSERT_EQ(st.threadTime.size(), 2u);
    EXPECT_TRUE(st.complete());
}

TEST(IncidenceCount, SingleBracket) {
    IncidenceCount ic(1, 8);
    ic.enter(0, 7, at(0us));
    ic.leave(0, 7, at(100us));
    const auto st = ic.evaluate();
    EXPECT_EQ(st.coveredTime, 100us);
    EXPECT_EQ(st.activeTime, 100us);
    EXPECT_DOUBLE_EQ(st.avgConcurrency, 1.0);
    EXPECT_EQ(st.activations, 1u);
    EXPECT_EQ(st.timeAtConc(0), 0ns);
    EXPECT_EQ(st.timeAtConc(1), 100us);
    EXPECT_EQ(st.impededTime, 100us);
    EXPECT_EQ(st.threadTime[0], 100us);
    EXPECT_EQ(st.caseTime.at(7), 100us);
    EXPECT_EQ(st.caseActivations.at(7), 1u);
}

TEST(IncidenceCount, OverlapOfTwoThreads) {
    IncidenceCount ic(2, 8);
    // recorded per slot, deliberately out of global time order
    ic.enter(1, 2, at(50us));
    ic.leave(1, 2, at(150us));
    ic.enter(0, 1, at(0us));
    ic.leave(0, 1, at(100us));
    const auto st = ic.evaluate();
    EXPECT_EQ(st.coveredTime, 150us);
    EXPECT_EQ(st.activeTime, 200us);  // 50·1 + 50·2 + 50·1
    EXPECT_DOUBLE_EQ(st.avgConcurrency, 200.0 / 150.0);
    EXPECT_EQ(st.timeAtConc(0), 0ns);
    EXPECT_EQ(st.timeAtConc(1), 100us);
    EXPECT_EQ(st.timeAtConc(2), 50us);
    EXPECT_EQ(st.timeAtConc(3), 0ns);
    EXPECT_EQ(st.impededTime, 100us);
    EXPECT_EQ(st.maxConcurrency, 2u);
    EXPECT_EQ(st.activations, 2u);
    EXPECT_EQ(st.threadTime[0], 100us);
    EXPECT_EQ(st.threadTime[1], 100us);
    EXPECT_EQ(st.caseTime.at(1), 100us);
    EXPECT_EQ(st.caseTime.at(2), 100us);
}

TEST(IncidenceCount, GapCountsAsConcurrencyZero) {
    IncidenceCount ic(1, 8);
    ic.enter(0, 3, at(0us));
    ic.leave(0, 3, at(10us));
    ic.enter(0, 3, at(30us));
    ic.leave(0, 3, at(40us));
    const auto st = ic.evaluate();
    EXPECT_EQ(st.coveredTime, 40us);
    EXPECT_EQ(st.timeAtConc(0), 20us);
    EXPECT_EQ(st.timeAtConc(1), 20us);
    EXPECT_EQ(st.activeTime, 20us);
    EXPECT_DOUBLE_EQ(st.avgConcurrency, 0.5);
    EXPECT_EQ(st.impededTime, 40us);
    EXPECT_EQ(st.activations, 2u);
    EXPECT_EQ(st.threadActivations[0], 2u);
    EXPECT_EQ(st.caseTime.at(3), 20us);
    EXPECT_EQ(st.caseActivations.at(3), 2u);
}

TEST(IncidenceCount, ThreeThreadsSharedCase) {
    IncidenceCount ic(3, 8);
    ic.enter(0, 5, at(0us));
    ic.leave(0, 5, at(100us));
    ic.enter(1, 5, at(0us));
    ic.leave(1, 5, at(100us));
    ic.enter(2, 6, at(20us));
    ic.leave(2, 6, at(60us));
    const auto st = ic.evaluate();
    EXPECT_EQ(st.coveredTime, 100us);
    EXPECT_EQ(st.timeAtConc(2), 60us);
    EXPECT_EQ(st.timeAtConc(3), 40us);
    EXPECT_EQ(st.impededTime, 0ns);
    EXPECT_EQ(st.activeTime, 240us);
    EXPECT_DOUBLE_EQ(st.avgConcurrency, 2.4);
    EXPECT_EQ(st.caseTime.at(5), 200us);  // both brackets of case 5 count
    EXPECT_EQ(st.caseTime.at(6), 40us);
    EXPECT_EQ(st.threadTime[2], 40us);
    ASSERT_EQ(st.timeAtConcurrency.size(), 4u);
}

TEST(IncidenceCount, NestedBracketsOnOneSlot) {
    IncidenceCount ic(1, 8);
    ic.enter(0, 1, at(0us));
    ic.enter(0, 2, at(10us));
    ic.leave(0, 2, at(20us));
    ic.leave(0, 1, at(30us));
    const auto st = ic.evaluate();
    EXPECT_EQ(st.timeAtConc(1), 30us);  // one thread busy, not two
    EXPECT_EQ(st.maxConcurrency, 1u);
    EXPECT_EQ(st.threadTime[0], 30us);
    EXPECT_EQ(st.caseTime.at(1), 30us);
    EXPECT_EQ(st.caseTime.at(2), 10us);
    EXPECT_EQ(st.activations, 2u);
}

TEST(IncidenceCount, ZeroLengthBracketAndEqualTimesStayWellFormed) {
    IncidenceCount ic(2, 8);
    ic.enter(0, 1, at(10us));
    ic.leave(0, 1, at(10us));  // zero length: recording order within the slot is kept
    ic.enter(0, 1, at(10us));
    ic.leave(0, 1, at(20us));
    ic.enter(1, 2, at(0us));
    ic.leave(1, 2, at(10us));
    const auto st = ic.evaluate();
    EXPECT_EQ(st.unmatchedLeaves, 0u);
    EXPECT_EQ(st.coveredTime, 20us);
    EXPECT_EQ(st.timeAtConc(1), 20us);
    EXPECT_EQ(st.threadTime[0], 10us);
    EXPECT_EQ(st.threadTime[1], 10us);
    EXPECT_EQ(st.activations, 3u);
}

TEST(IncidenceCount, OpenBracketCreditedUntilLastEvent) {
    IncidenceCount ic(2, 8);
    ic.enter(0, 1, at(0us));  // never left
    ic.enter(1, 2, at(10us));
    ic.leave(1, 2, at(30us));
    const auto st = ic.evaluate();
    EXPECT_EQ(st.coveredTime, 30us);
    EXPECT_EQ(st.threadTime[0], 30us);
    EXPECT_EQ(st.caseTime.at(1), 30us);
    EXPECT_EQ(st.timeAtConc(2), 20us);
}

TEST(IncidenceCount, UnmatchedLeaveIsCountedAndIgnored) {
    IncidenceCount ic(1, 8);
    ic.leave(0, 1, at(0us));
    ic.enter(0, 1, at(10us));
    ic.leave(0, 1, at(20us));
    const auto st = ic.evaluate();
    EXPECT_EQ(st.unmatchedLeaves, 1u);
    EXPECT_EQ(st.timeAtConc(0), 10us);
    EXPECT_EQ(st.timeAtConc(1), 10us);
}

TEST(IncidenceCount, OverflowIsReportedNotWritten) {
    IncidenceCount ic(2, 3);
    for (int i = 0; i < 5; ++i)
        ic.enter(0, 0, at(std::chrono::microseconds{i}));
    ic.enter(7, 0, at(0us));  // no such slot
    EXPECT_EQ(ic.recorded(0), 3u);
    EXPECT_EQ(ic.recorded(1), 0u);
    EXPECT_EQ(ic.dropped(), 3u);
    EXPECT_TRUE(ic.overflowed());
    const auto st = ic.evaluate();
    EXPECT_EQ(st.droppedEvents, 3u);
    EXPECT_FALSE(st.complete());
    EXPECT_EQ(st.activations, 3u);
    ic.reset();
    EXPECT_EQ(ic.dropped(), 0u);
    EXPECT_EQ(ic.recorded(0), 0u);
    EXPECT_EQ(ic.capacityPerSlot(), 3u);
}

TEST(IncidenceCount, InstancesDoNotShareSlots) {
    IncidenceCount a(1, 4), b(1, 4);
    a.enter(0, 1, at(0us));
    a.leave(0, 1, at(5us));
    EXPECT_EQ(a.recorded(0), 2u);
    EXPECT_EQ(b.recorded(0), 0u);
}

TEST(IncidenceCount, ConcurrentWritersEachOnTheirOwnSlot) {
    constexpr unsigned kThreads = 4;
    constexpr int kBrackets = 1000;
    IncidenceCount ic(kThreads, 2 * kBrackets);
    std::vector<std::thread> threads;
    for (unsigned s = 0; s < kThreads; ++s)
        threads.emplace_back([&ic, s] {
            for (int i = 0; i < kBrackets; ++i) {
                ic.enter(s, static_cast<std::uint32_t>(i % 3));
                ic.leave(s, static_cast<std::uint32_t>(i % 3));
            }
        });
    for (auto& t : threads)
        t.join();
    const auto st = ic.evaluate();
    EXPECT_TRUE(st.complete());
    EXPECT_EQ(st.activations, kThreads * kBrackets);
    EXPECT_EQ(st.unmatchedLeaves, 0u);
    for (unsigned s = 0; s < kThreads; ++s)
        EXPECT_EQ(st.threadActivations[s], kBrackets);
    EXPECT_LE(st.maxConcurrency, kThreads);
    EXPECT_LE(st.activeTime.count(), st.coveredTime.count() * kThreads);
}

TEST(IncidenceCount, ZeroSlotsRejected) {
    EXPECT_THROW(IncidenceCount(0, 4), std::invalid_argument);
}

// The timeline merges the slots (each in its recording order) into the order of a stable
// sort by time: ties keep the slots' order; a slot recorded out of order is still sorted.
TEST(IncidenceCount, TimelineIsTheStableSortOfTheSlots) {
    const auto expectStableOrder = [](const IncidenceCount& ic) {
        const std::vector<IncidenceCount::Event> t = ic.timeline();
        for (std::size_t i = 1; i < t.size(); ++i) {
            EXPECT_LE(t[i - 1].when, t[i].when) << i;
            if (t[i - 1].when == t[i].when) {
                EXPECT_LE(t[i - 1].slot, t[i].slot) << i;
            }
        }
        return t;
    };
    IncidenceCount ic(5, 64);
    for (unsigned s = 0; s < 5; ++s)
        for (int k = 0; k < 10; ++k) {
            ic.enter(s, k, at(std::chrono::microseconds(10 * k + (s % 2))));
            ic.leave(s, k, at(std::chrono::microseconds(10 * k + 5)));
        }
    const auto merged = expectStableOrder(ic);
    ASSERT_EQ(merged.size(), 100u);
    // within a slot, equal times keep the recording order (enter before leave)
    IncidenceCount zero(3, 8);
    zero.enter(2, 1, at(5us));
    zero.leave(2, 1, at(5us));
    zero.enter(0, 1, at(5us));
    zero.leave(0, 1, at(5us));
    const auto z = expectStableOrder(zero);
    ASSERT_EQ(z.size(), 4u);
    EXPECT_EQ(z[0].slot, 0u);
    EXPECT_FALSE(z[0].leave);
    EXPECT_TRUE(z[1].leave);
    EXPECT_EQ(z[2].slot, 2u);
    // explicit stamps out of order within a slot
    IncidenceCount back(2, 8);
    back.enter(1, 0, at(30us));
    back.enter(1, 0, at(10us));
    back.enter(0, 0, at(20us));
    const auto b = expectStableOrder(back);
    ASSERT_EQ(b.size(), 3u);
    EXPECT_EQ(b[0].when, at(10us));
    EXPECT_EQ(b[2].when, at(30us));
}

// A stop asked ends the merge and the evaluation (testchain::Stopped); none changes nothing.
TEST(IncidenceCount, AStopEndsTheEvaluation) {
    IncidenceCount ic(3, 8);
    ic.enter(0, 0, at(0us));
    ic.leave(0, 0, at(10us));
    ic.enter(1, 0, at(5us));
    ic.leave(1, 0, at(15us));
    EXPECT_THROW(ic.evaluate([] { return true; }), pullsched::testchain::Stopped);
    EXPECT_THROW(ic.timeline([] { return true; }), pullsched::testchain::Stopped);
    const auto st = ic.evaluate([] { return false; });
    EXPECT_EQ(st.coveredTime, 15us);
    EXPECT_EQ(st.maxConcurrency, 2u);
}
