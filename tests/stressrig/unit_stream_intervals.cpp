// streamIntervals: a stream backend's jobs cut into intervals — ends per interval, the
// backlog at each interval's end, lateness of the jobs started in it, offered rate.
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "load/StreamIntervals.hpp"

using namespace std::chrono_literals;
using pullsched::rig::OpenLoadConfig;
using pullsched::rig::streamIntervals;
using pullsched::rig::StreamJobTimes;

namespace {

constexpr std::int64_t kMs = 1'000'000;

OpenLoadConfig config() {
    OpenLoadConfig c;
    c.arrivals.rate = 40;  // jobs per second
    c.duration = 300ms;
    c.interval = 100ms;
    c.warmup = 0s;
    c.lateLimit = 5ms;
    return c;
}

}  // namespace

TEST(StreamIntervals, CountsEndsBacklogAndLateness) {
    const std::vector<StreamJobTimes> jobs{
        {10 * kMs, 11 * kMs, 12 * kMs, true},    // on time, ends in interval 0
        {50 * kMs, 90 * kMs, 120 * kMs, true},   // 40 ms late, ends in interval 1
        {95 * kMs, 150 * kMs, 160 * kMs, true},  // due by 100 ms, not started: backlog at 100 ms
        {150 * kMs, 151 * kMs, 152 * kMs, true},
        {250 * kMs, 0, 0, false},  // never ran: backlog at 300 ms
    };
    const auto rows = streamIntervals(jobs, config());
    ASSERT_EQ(rows.size(), 3u);
    EXPECT_DOUBLE_EQ(rows[0].i.tSeconds, 0.1);
    EXPECT_DOUBLE_EQ(rows[0].i.throughput, 10.0);  // one end in 100 ms
    EXPECT_DOUBLE_EQ(rows[1].i.throughput, 30.0);
    EXPECT_DOUBLE_EQ(rows[2].i.throughput, 0.0);
    EXPECT_DOUBLE_EQ(rows[0].i.backlog, 1.0);  // the job due at 95 ms
    EXPECT_DOUBLE_EQ(rows[1].i.backlog, 0.0);
    EXPECT_DOUBLE_EQ(rows[2].i.backlog, 1.0);
    EXPECT_EQ(rows[0].measured, 2u);  // started at 11 and 90 ms
    EXPECT_EQ(rows[0].late, 1u);
    EXPECT_EQ(rows[1].measured, 2u);
    EXPECT_EQ(rows[1].late, 1u);  // 55 ms late
    EXPECT_DOUBLE_EQ(rows[0].maxUs, 40'000.0);
    EXPECT_EQ(rows[0].jobs, 3u);
    EXPECT_EQ(rows[2].jobs, 1u);
    for (const auto& r : rows) {
        EXPECT_DOUBLE_EQ(r.offeredRate, 40.0);
        EXPECT_EQ(r.drops, 0u);
        EXPECT_TRUE(std::isnan(r.i.cpuPercent));
    }
}

TEST(StreamIntervals, WarmupJobsAreNotMeasuredAndNoIntervalMeansNoRows) {
    OpenLoadConfig c = config();
    c.warmup = 100ms;
    const std::vector<StreamJobTimes> jobs{{10 * kMs, 60 * kMs, 61 * kMs, true},
                                           {110 * kMs, 111 * kMs, 112 * kMs, true}};
    const auto rows = streamIntervals(jobs, c);
    EXPECT_EQ(rows[0].measured, 0u);
    EXPECT_EQ(rows[1].measured, 1u);
    c.interval = 0s;
    EXPECT_TRUE(streamIntervals(jobs, c).empty());
}
