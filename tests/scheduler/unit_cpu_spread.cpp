// CpuSpread: of two busy workers on one CPU, the higher-numbered moves to an allowed CPU
// that no busy worker uses; a worker whose wake is overdue leaves its CPU for the woken
// one; nobody moves when there is no free CPU, nor before the CPU was shared for
// kSharedFor. The decision is a pure function; check() is tested on the calling thread
// (publish, move, and the whole CPU set given back) with the times passed in. A waker
// steers parked workers off its own CPU and busy workers' CPUs, with one system call per
// change, and a woken worker takes the whole set back.
#include "detail/CpuSpread.hpp"
#include "detail/ThreadAffinity.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

#if defined(__linux__)
#include <sched.h>
#endif

using pullsched::detail::CpuSpread;
using namespace std::chrono_literals;

namespace {
constexpr int kStay = CpuSpread::kNotBusy;

int target(unsigned me, std::vector<int> published, std::vector<int> allowed,
           bool overdue = false) {
    return CpuSpread::target(me, published[me], published, allowed, overdue);
}
}  // namespace

TEST(CpuSpread, AWorkerAloneOnItsCpuStays) {
    EXPECT_EQ(target(1, {1, 0}, {0, 1}), kStay);
    EXPECT_EQ(target(0, {1, 0}, {0, 1}), kStay);
}

TEST(CpuSpread, OfTwoOnOneCpuTheHigherNumberedMovesToTheFreeCpu) {
    EXPECT_EQ(target(1, {0, 0}, {0, 1}), 1);
    EXPECT_EQ(target(0, {0, 0}, {0, 1}), kStay) << "only one of the two moves";
    EXPECT_EQ(target(2, {3, 1, 3}, {1, 3, 4, 6}), 4) << "the first free CPU, in allowed order";
}

TEST(CpuSpread, NobodyMovesWithoutAFreeCpu) {
    EXPECT_EQ(target(2, {0, 1, 1}, {0, 1}), kStay);
    EXPECT_EQ(target(1, {2, 2, 5}, {2, 5}), kStay) << "5 is used by worker 2";
}

TEST(CpuSpread, IdleWorkersAndCpusOutsideTheSetDoNotCount) {
    EXPECT_EQ(target(1, {2, 2, CpuSpread::kNotBusy}, {2, 5, 7}), 5);
    EXPECT_EQ(target(1, {2, 2}, {2}), kStay) << "never to a CPU outside the allowed set";
    EXPECT_EQ(target(1, {CpuSpread::kNotBusy, CpuSpread::kNotBusy}, {0, 1}), kStay)
        << "a worker that is not busy does not move";
}

TEST(CpuSpread, AnOverdueWakeMovesTheWakerEvenWhenItSharesWithNobody) {
    EXPECT_EQ(target(0, {1, CpuSpread::kNotBusy}, {0, 1}, true), 0);
    EXPECT_EQ(target(0, {1, 0}, {0, 1}, true), kStay) << "no CPU free of busy workers";
    EXPECT_EQ(target(0, {1, CpuSpread::kNotBusy}, {0, 1}, false), kStay);
}

TEST(CpuSpread, NeverOntoTheCpuOfARecentPoster) {
    EXPECT_EQ(CpuSpread::target(1, 0, std::vector<int>{0, 0}, std::vector<int>{0, 1}, false, 1),
              kStay);
    EXPECT_EQ(CpuSpread::target(1, 0, std::vector<int>{0, 0}, std::vector<int>{0, 1, 2}, false, 1),
              2);
}

TEST(CpuSpread, AWakeIsSteeredToCpusNeitherTheWakerNorABusyWorkerUses) {
    constexpr int idle = CpuSpread::kNotBusy;
    EXPECT_EQ(CpuSpread::steerMask(0, std::vector<int>{idle, idle}, std::vector<int>{0, 1}), 0b10u);
    EXPECT_EQ(CpuSpread::steerMask(3, std::vector<int>{5, idle, 1}, std::vector<int>{1, 3, 5, 7}),
              0b1000u)
        << "bits are positions in the allowed list";
    EXPECT_EQ(CpuSpread::steerMask(3, std::vector<int>{5, 7}, std::vector<int>{1, 3, 5, 7}),
              0b0001u);
    EXPECT_EQ(CpuSpread::steerMask(0, std::vector<int>{1, idle}, std::vector<int>{0, 1}), 0b11u)
        << "no CPU left: the whole set, the OS chooses";
    EXPECT_EQ(CpuSpread::steerMask(9, std::vector<int>{idle}, std::vector<int>{0, 1}), 0b11u)
        << "a waker outside the set takes nothing away";
    EXPECT_EQ(CpuSpread::steerMask(0, std::vector<int>{}, std::vector<int>(65, 1)), 0u)
        << "more than 64 CPUs: no steering";
}

TEST(CpuSpread, DisabledWithOneWorkerOrOneCpu) {
    EXPECT_FALSE(CpuSpread(1, {0, 1}).enabled());
    EXPECT_FALSE(CpuSpread(2, {0}).enabled());
    EXPECT_FALSE(CpuSpread(2, {}).enabled());
    CpuSpread off(2, {0});
    EXPECT_FALSE(off.check(1, pullsched::TimePoint{}, true));
    off.attach(1);
    off.parking(1);
    EXPECT_EQ(off.steerParked(0), 0u) << "disabled: nobody is steered";
}

#if defined(__linux__)
TEST(CpuSpread, CheckMovesTheCallingThreadAndGivesItsCpuSetBack) {
    const std::vector<int> cpus = pullsched::detail::processCpus();
    if (cpus.size() < 2) GTEST_SKIP() << "needs two CPUs";
    std::thread([&] {
        cpu_set_t one;
        CPU_ZERO(&one);
        CPU_SET(cpus[0], &one);
        ASSERT_EQ(sched_setaffinity(0, sizeof one, &one), 0);
        ASSERT_EQ(sched_getcpu(), cpus[0]);

        CpuSpread spread(2, cpus);
        ASSERT_TRUE(spread.enabled());
        const pullsched::TimePoint t0{1s};
        EXPECT_FALSE(spread.check(0, t0)) << "worker 0 alone: it publishes and stays";
        EXPECT_FALSE(spread.check(1, t0)) << "shared since now";
        EXPECT_FALSE(spread.check(1, t0 + CpuSpread::kSharedFor - 1ns)) << "not long enough";
        EXPECT_EQ(sched_getcpu(), cpus[0]);
        EXPECT_TRUE(spread.check(1, t0 + CpuSpread::kSharedFor)) << "shared for kSharedFor";
        EXPECT_EQ(sched_getcpu(), cpus[1]);

        cpu_set_t now;
        CPU_ZERO(&now);
        ASSERT_EQ(sched_getaffinity(0, sizeof now, &now), 0);
        for (const int c : cpus)
            EXPECT_TRUE(CPU_ISSET(c, &now)) << "CPU " << c << " allowed again after the move";
        EXPECT_EQ(CPU_COUNT(&now), static_cast<int>(cpus.size()));

        const pullsched::TimePoint t1 = t0 + 1s;
        EXPECT_FALSE(spread.check(1, t1)) << "now alone on its CPU: it stays";
        EXPECT_FALSE(spread.check(1, t1, true)) << "wake overdue, but worker 0 is busy on the "
                                                   "only other CPU";
        spread.idle(0);
        EXPECT_TRUE(spread.check(1, t1, true)) << "wake overdue, worker 0 idle: it leaves at once";
        EXPECT_EQ(sched_getcpu(), cpus[0]);
    }).join();
}

namespace {
std::vector<int> cpusOfThread(int tid) {
    cpu_set_t set;
    CPU_ZERO(&set);
    sched_getaffinity(tid, sizeof set, &set);
    std::vector<int> out;
    for (int c = 0; c < CPU_SETSIZE; ++c)
        if (CPU_ISSET(c, &set)) out.push_back(c);
    return out;
}
std::vector<int> without(std::vector<int> cpus, int cpu) {
    std::erase(cpus, cpu);
    return cpus;
}
}  // namespace

/// Worker 1 parks (a thread waiting for a flag); wakers on two CPUs steer it off theirs,
/// each once; woken, it has the whole set again and is no longer steered.
TEST(CpuSpread, AWakerSteersParkedWorkersOffItsCpuAndTheWokenTakeTheWholeSetBack) {
    const std::vector<int> cpus = pullsched::detail::processCpus();
    if (cpus.size() < 2) GTEST_SKIP() << "needs two CPUs";
    CpuSpread spread(2, cpus);
    std::atomic<int> tid{0};
    std::atomic<bool> wake{false};
    std::vector<int> setWhenWoken;
    std::thread parked([&] {
        spread.attach(1);
        spread.parking(1);
        tid.store(pullsched::detail::currentThreadId());
        tid.notify_one();
        wake.wait(false);
        spread.unparked(1);
        setWhenWoken = cpusOfThread(0);
    });
    tid.wait(0);
    const auto pinTo = [](int cpu) {
        cpu_set_t one;
        CPU_ZERO(&one);
        CPU_SET(cpu, &one);
        return sched_setaffinity(0, sizeof one, &one) == 0 && sched_getcpu() == cpu;
    };
    std::thread([&] {
        ASSERT_TRUE(pinTo(cpus[0]));
        EXPECT_EQ(spread.steerParked(1), 0u) << "a worker does not steer itself";
        EXPECT_EQ(spread.steerParked(0), 1u);
        EXPECT_EQ(cpusOfThread(tid), without(cpus, cpus[0])) << "off the waker's CPU";
        EXPECT_EQ(spread.steerParked(0), 0u) << "already steered so: no second system call";
    }).join();
    std::thread([&] {
        ASSERT_TRUE(pinTo(cpus[1]));
        EXPECT_EQ(spread.steerParked(CpuSpread::kOutside), 1u) << "a poster on another CPU";
        EXPECT_EQ(cpusOfThread(tid), without(cpus, cpus[1]));
    }).join();
    wake.store(true);
    wake.notify_one();
    parked.join();
    EXPECT_EQ(setWhenWoken, cpus) << "woken, it takes the whole allowed set back";
    EXPECT_EQ(spread.steerParked(0), 0u) << "not parked any more: not steered";
}

/// A thread outside the workers that posted since a worker's last look keeps its CPU; once
/// it has not posted for a look, its CPU counts as free again.
TEST(CpuSpread, APosterKeepsItsCpuUntilItStopsPosting) {
    const std::vector<int> cpus = pullsched::detail::processCpus();
    if (cpus.size() < 2) GTEST_SKIP() << "needs two CPUs";
    const auto pinTo = [](int cpu) {
        cpu_set_t one;
        CPU_ZERO(&one);
        CPU_SET(cpu, &one);
        return sched_setaffinity(0, sizeof one, &one) == 0 && sched_getcpu() == cpu;
    };
    CpuSpread spread(2, {cpus[0], cpus[1]});
    const pullsched::TimePoint t0{1s};
    const auto k = CpuSpread::kSharedFor;
    std::thread([&] {
        ASSERT_TRUE(pinTo(cpus[0]));
        EXPECT_FALSE(spread.check(0, t0));
        EXPECT_FALSE(spread.check(1, t0)) << "shared since t0";
    }).join();
    std::thread([&] {
        ASSERT_TRUE(pinTo(cpus[1]));
        spread.notePost();
    }).join();
    std::thread([&] {
        ASSERT_TRUE(pinTo(cpus[0]));
        EXPECT_FALSE(spread.check(1, t0 + k)) << "shared long enough, but the only other CPU "
                                                 "had a post since worker 1's last look";
        EXPECT_FALSE(spread.check(1, t0 + 2 * k)) << "no post since: shared from now on";
        EXPECT_EQ(sched_getcpu(), cpus[0]);
        EXPECT_TRUE(spread.check(1, t0 + 3 * k));
        EXPECT_EQ(sched_getcpu(), cpus[1]);
    }).join();
}
#endif

/// A thread helping in drain() sleeps in the helper's slot (even with one worker): a waker
/// on the CPU it went to sleep on steers it off that CPU, and woken it takes its whole set
/// back. A second helper, or one its owner bound to fewer CPUs, is not steerable.
TEST(CpuSpread, ASleepingHelperIsSteeredLikeAParkedWorkerAndTakesItsSetBack) {
    const std::vector<int> cpus = pullsched::detail::processCpus();
    if (cpus.size() < 2) GTEST_SKIP() << "needs two CPUs";
    CpuSpread spread(1, cpus, /*steersHelpers=*/true);
    std::atomic<int> tid{0}, sleptOn{-1};
    std::atomic<bool> wake{false};
    std::vector<int> setWhenWoken;
    std::thread helper([&] {
        ASSERT_TRUE(spread.helperParking());
        sleptOn.store(sched_getcpu());  // where parking read it, unless moved in between
        tid.store(pullsched::detail::currentThreadId());
        tid.notify_one();
        wake.wait(false);
        spread.helperUnparked();
        setWhenWoken = cpusOfThread(0);
    });
    tid.wait(0);
    std::thread([&] {
        EXPECT_FALSE(spread.helperParking()) << "one helper at a time";
    }).join();
    std::thread([&] {
        const int cpu = sleptOn.load();
        cpu_set_t one;
        CPU_ZERO(&one);
        CPU_SET(cpu, &one);
        ASSERT_EQ(sched_setaffinity(0, sizeof one, &one), 0);
        ASSERT_EQ(sched_getcpu(), cpu);
        EXPECT_EQ(spread.steerHelper(0), 1u);
        EXPECT_EQ(cpusOfThread(tid), without(cpus, cpu)) << "off the waker's CPU";
        EXPECT_EQ(spread.steerHelper(0), 0u) << "already steered so: no second system call";
    }).join();
    wake.store(true);
    wake.notify_one();
    helper.join();
    EXPECT_EQ(setWhenWoken, cpus) << "woken, it takes the whole allowed set back";
    EXPECT_EQ(spread.steerHelper(0), 0u) << "not asleep any more: not steered";
    std::thread([&] {
        cpu_set_t one;
        CPU_ZERO(&one);
        CPU_SET(cpus[1], &one);
        ASSERT_EQ(sched_setaffinity(0, sizeof one, &one), 0);
        EXPECT_FALSE(spread.helperParking()) << "bound by its owner: left alone";
        EXPECT_FALSE(CpuSpread(1, cpus, false).helperParking()) << "not asked to steer";
    }).join();
}
