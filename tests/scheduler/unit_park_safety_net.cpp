// The parked worker's safety net: 2 s after activity, doubling while checks find nothing.
#include "detail/ParkSafetyNet.hpp"

#include <gtest/gtest.h>

using namespace std::chrono_literals;
using pullsched::detail::ParkSafetyNet;

TEST(ParkSafetyNet, StartsShortAfterActivity) {
    ParkSafetyNet net;
    EXPECT_EQ(net.next(false), 2s);
    EXPECT_EQ(net.next(false), 2s);
}

TEST(ParkSafetyNet, ChecksThatRanOutDoubleThePeriodUpToTheCap) {
    ParkSafetyNet net;
    EXPECT_EQ(net.next(false), 2s);
    for (auto expected : {4s, 8s, 16s, 32s, 64s, 64s, 64s})
        EXPECT_EQ(net.next(true), expected);
}

TEST(ParkSafetyNet, ActivityResetsIt) {
    ParkSafetyNet net;
    net.next(false);
    net.next(true);
    ASSERT_EQ(net.next(true), 8s);
    EXPECT_EQ(net.next(false), 2s);  // notified, or ran a job, since the last park
    EXPECT_EQ(net.next(true), 4s);
}
