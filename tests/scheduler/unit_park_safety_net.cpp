// The parked worker's safety net: 2 s after activity, doubling while checks find nothing,
// 64 s at once with no job open; one parked worker at a time carries it.
#include "detail/ParkSafetyNet.hpp"

#include <gtest/gtest.h>

using namespace std::chrono_literals;
using pullsched::detail::ParkSafetyNet;

TEST(ParkSafetyNet, StartsShortAfterActivity) {
    ParkSafetyNet net;
    EXPECT_EQ(net.next(false, false), 2s);
    EXPECT_EQ(net.next(false, false), 2s);
}

TEST(ParkSafetyNet, ChecksThatRanOutDoubleThePeriodUpToTheCap) {
    ParkSafetyNet net;
    EXPECT_EQ(net.next(false, false), 2s);
    for (auto expected : {4s, 8s, 16s, 32s, 64s, 64s, 64s})
        EXPECT_EQ(net.next(true, false), expected);
}

TEST(ParkSafetyNet, ActivityResetsIt) {
    ParkSafetyNet net;
    net.next(false, false);
    net.next(true, false);
    ASSERT_EQ(net.next(true, false), 8s);
    EXPECT_EQ(net.next(false, false), 2s);  // notified, or ran a job, since the last park
    EXPECT_EQ(net.next(true, false), 4s);
}

TEST(ParkSafetyNet, WithNoJobOpenItTakesTheCapAtOnce) {
    ParkSafetyNet net;
    EXPECT_EQ(net.next(false, true), 64s);  // after activity too: nothing can be stranded
    EXPECT_EQ(net.next(true, true), 64s);
    EXPECT_EQ(net.next(false, false), 2s);  // a job open again, the worker active
    EXPECT_EQ(net.next(true, false), 4s);
}

TEST(SafetyNetHolder, OneHolderAtATime) {
    pullsched::detail::SafetyNetHolder holder;
    EXPECT_FALSE(holder.held());
    EXPECT_TRUE(holder.take(1));
    EXPECT_TRUE(holder.held());
    EXPECT_FALSE(holder.take(0));  // parks without a net
    EXPECT_FALSE(holder.take(1));  // not twice either
    holder.giveBack(0);            // not the holder: nothing changes
    EXPECT_TRUE(holder.held());
    EXPECT_FALSE(holder.take(2));
    holder.giveBack(1);
    EXPECT_FALSE(holder.held());
    EXPECT_TRUE(holder.take(2));  // the next to park takes it
}
