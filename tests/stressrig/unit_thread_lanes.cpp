// The lanes of a trace: one per thread, numbered in the order the threads began a job.
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "backends/ThreadLanes.hpp"

using pullsched::rig::threadLanes;
using pullsched::testchain::Duration;

TEST(ThreadLanes, NumbersThreadsByTheirFirstJob) {
    std::thread::id a, b;
    std::thread ta([&a] { a = std::this_thread::get_id(); });
    std::thread tb([&b] { b = std::this_thread::get_id(); });
    ta.join();
    tb.join();
    const std::thread::id none{};
    // b began first (at 1), a at 2; the third job never ran
    const std::vector<std::thread::id> ranBy{a, b, none, a};
    const std::vector<Duration> began{Duration{5}, Duration{1}, Duration{0}, Duration{2}};
    const std::vector<std::int32_t> lanes = threadLanes(ranBy, began);
    EXPECT_EQ(lanes, (std::vector<std::int32_t>{1, 0, -1, 1}));
}

TEST(ThreadLanes, NoJobNoLane) {
    EXPECT_TRUE(threadLanes({}, {}).empty());
    const std::vector<std::thread::id> none(3);
    const std::vector<Duration> began(3);
    EXPECT_EQ(threadLanes(none, began), (std::vector<std::int32_t>(3, -1)));
}
