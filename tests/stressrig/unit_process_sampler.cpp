// ProcessSampler: the CPU % arithmetic on synthetic snapshots; sampling mechanics
// checked by counts and values, never by timing.
#include <atomic>
#include <cmath>
#include <cstring>
#include <memory>

#include <gtest/gtest.h>

#include "measure/ProcessSampler.hpp"

using namespace std::chrono_literals;
using pullsched::rig::MachineCpuTicks;
using pullsched::rig::ProcessSampler;
using pullsched::rig::ProcessSnapshot;

TEST(ProcessSampler, CpuPercentFromTwoSnapshots) {
    ProcessSnapshot a, b;
    a.wall = std::chrono::steady_clock::time_point{} + 10s;
    a.cpuTime = 3s;
    b.wall = a.wall + 1s;
    b.cpuTime = a.cpuTime + 500ms;
    EXPECT_DOUBLE_EQ(ProcessSampler::cpuPercent(a, b), 50.0);
    b.cpuTime = a.cpuTime + 2s;  // two cores busy
    EXPECT_DOUBLE_EQ(ProcessSampler::cpuPercent(a, b), 200.0);
    b.wall = a.wall + 250ms;
    b.cpuTime = a.cpuTime + 100ms;
    EXPECT_DOUBLE_EQ(ProcessSampler::cpuPercent(a, b), 40.0);
    b.wall = a.wall;  // no interval
    EXPECT_DOUBLE_EQ(ProcessSampler::cpuPercent(a, b), 0.0);
    EXPECT_DOUBLE_EQ(ProcessSampler::cpuPercent(b, a), 0.0);
}

TEST(ProcessSampler, SnapshotSeesOwnMemory) {
    const auto before = ProcessSampler::snapshot();
    EXPECT_GT(before.rssBytes, 0u);
    EXPECT_GE(before.cpuTime.count(), 0);
    constexpr std::size_t kBytes = 64 << 20;
    auto block = std::make_unique<char[]>(kBytes);
    std::memset(block.get(), 1, kBytes);  // touch every page
    const auto after = ProcessSampler::snapshot();
    EXPECT_GE(after.rssBytes, before.rssBytes + kBytes / 2);
    EXPECT_GE(after.cpuTime, before.cpuTime);
    EXPECT_EQ(block[kBytes - 1], 1);
}

TEST(ProcessSampler, StopAlwaysYieldsAFinalSampleWithProbe) {
    std::atomic<std::int64_t> depth{42};
    ProcessSampler s(1h, [&] { return depth.load(); });  // interval never reached
    EXPECT_FALSE(s.running());
    s.start();
    EXPECT_TRUE(s.running());
    s.stop();
    EXPECT_FALSE(s.running());
    const auto rows = s.samples();
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0].queueDepth, 42);
    EXPECT_GT(rows[0].rssBytes, 0u);
    EXPECT_GE(rows[0].cpuPercent, 0.0);
    s.stop();  // idempotent
    EXPECT_EQ(s.samples().size(), 1u);
}

TEST(ProcessSampler, RestartClearsAndNoProbeMeansMinusOne) {
    ProcessSampler s(1h);
    s.start();
    s.stop();
    s.start();
    s.stop();
    const auto rows = s.samples();
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0].queueDepth, -1);
}

TEST(ProcessSampler, SamplesAreOrderedInTime) {
    std::atomic<std::int64_t> calls{0};
    ProcessSampler s(100us, [&] { return calls.fetch_add(1); });
    s.start();
    // wait for samples by count, not by time
    while (calls.load() < 5)
        std::this_thread::yield();
    s.stop();
    const auto rows = s.samples();
    ASSERT_GE(rows.size(), 5u);
    for (std::size_t i = 1; i < rows.size(); ++i) {
        EXPECT_GE(rows[i].t, rows[i - 1].t);
        EXPECT_EQ(rows[i].queueDepth, rows[i - 1].queueDepth + 1);
    }
}

TEST(ProcessSampler, DestructorStops) {
    // The probe runs on the sampler thread, once per sample: an interval of an hour leaves
    // only the final sample that stop() takes before it joins.
    std::atomic<int> probes{0};
    auto s = std::make_unique<ProcessSampler>(1h, [&] { return std::int64_t{probes++}; });
    s->start();
    s.reset();  // must stop (final sample, join), not hang, detach or terminate
    EXPECT_EQ(probes.load(), 1) << "the destructor did not take the final sample and join";
}

TEST(ProcessSampler, RejectsNonPositiveInterval) {
    EXPECT_THROW(ProcessSampler(0ns), std::invalid_argument);
}

TEST(MachineCpuTicks, ParsesTheCpuLineOfProcStat) {
    // user nice system idle iowait irq softirq steal guest guest_nice
    const MachineCpuTicks t = MachineCpuTicks::parse("cpu  300 0 40 1000 10 0 5 45 7 0");
    ASSERT_TRUE(t.known);
    EXPECT_TRUE(t.stealKnown);
    EXPECT_EQ(t.total, 1400u) << "guest time is inside user already";
    EXPECT_EQ(t.steal, 45u);
    // A kernel without the steal column: CPU time, but no steal.
    const MachineCpuTicks old = MachineCpuTicks::parse("cpu  300 0 40 1000");
    EXPECT_TRUE(old.known);
    EXPECT_FALSE(old.stealKnown);
    EXPECT_TRUE(std::isnan(MachineCpuTicks::stealPercent(old, old)));
    for (const char* bad : {"", "cpu0 1 2 3 4 5 6 7 8", "cpu  1 2", "intr 5", "cpu  1 2 x 4"})
        EXPECT_FALSE(MachineCpuTicks::parse(bad).known) << bad;
}

TEST(MachineCpuTicks, StealPercentBetweenTwoReadings) {
    const MachineCpuTicks a = MachineCpuTicks::parse("cpu  300 0 40 1000 10 0 5 45");
    const MachineCpuTicks b = MachineCpuTicks::parse("cpu  400 0 50 1050 10 0 5 85");
    // Δtotal = 200, Δsteal = 40: a fifth of the machine's time went elsewhere.
    EXPECT_DOUBLE_EQ(MachineCpuTicks::stealPercent(a, b), 20.0);
    EXPECT_TRUE(std::isnan(MachineCpuTicks::stealPercent(a, a))) << "no time passed";
    EXPECT_TRUE(std::isnan(MachineCpuTicks::stealPercent(b, a))) << "backwards";
    // This machine: read() gives a CPU line (Linux), steal where the kernel has it.
    const MachineCpuTicks now = MachineCpuTicks::read();
    EXPECT_TRUE(now.known);
}

TEST(MachineCpuTicks, OtherWorkIsTheBusyTimeThisProcessDidNotUse) {
    // user nice system idle iowait irq softirq steal; 100 ticks a second, 2 cores
    const MachineCpuTicks a = MachineCpuTicks::parse("cpu  1000 0 100 5000 20 0 0 0");
    EXPECT_EQ(a.idle, 5020u) << "idle and iowait";
    // 200 ticks (1 s on 2 cores): 150 busy, of which this process used 0.5 s = 50 ticks
    const MachineCpuTicks b = MachineCpuTicks::parse("cpu  1140 0 110 5040 30 0 0 0");
    EXPECT_DOUBLE_EQ(MachineCpuTicks::otherWorkCores(a, b, 500ms, 100, 2), 1.0);
    // all of the busy time was ours: no other work, and never below zero
    EXPECT_DOUBLE_EQ(MachineCpuTicks::otherWorkCores(a, b, 1500ms, 100, 2), 0.0);
    EXPECT_DOUBLE_EQ(MachineCpuTicks::otherWorkCores(a, b, 3s, 100, 2), 0.0);
    // steal is time the machine's CPUs spent elsewhere: other work too
    const MachineCpuTicks s = MachineCpuTicks::parse("cpu  1040 0 110 5040 30 0 0 100");
    EXPECT_DOUBLE_EQ(MachineCpuTicks::otherWorkCores(a, s, 0ms, 100, 2), 1.5);
    // too short to tell (under 50 ticks), or unknown: NaN
    const MachineCpuTicks c = MachineCpuTicks::parse("cpu  1020 0 100 5020 20 0 0 0");
    EXPECT_TRUE(std::isnan(MachineCpuTicks::otherWorkCores(a, c, 0ms, 100, 2)));
    EXPECT_TRUE(std::isnan(MachineCpuTicks::otherWorkCores({}, b, 0ms, 100, 2)));
    EXPECT_TRUE(std::isnan(MachineCpuTicks::otherWorkCores(b, a, 0ms, 100, 2)));
}
