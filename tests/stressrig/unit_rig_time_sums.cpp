// The rig's time sums saturate (issue 26, item 3): a limit of Duration::max() means "no
// limit", a start near TimePoint::max() keeps its deadline in the future, and option
// values too large for a nanosecond count are refused with their bounds (exit 2), never
// wrapped.
#include <atomic>
#include <chrono>
#include <csignal>
#include <string>
#include <thread>

#include <gtest/gtest.h>

#include "backends/BackendRegistry.hpp"
#include "backends/StreamPlayer.hpp"
#include "cli/OptionTable.hpp"
#include "cli/UsageError.hpp"
#include "load/SchedulerFactory.hpp"
#include "load/StopRequest.hpp"
#include "modes/Mode.hpp"

using namespace pullsched::rig;
using namespace std::chrono_literals;
using pullsched::Duration;
using pullsched::TimePoint;

namespace {

constexpr Duration kForever = Duration::max();

/// A load that does almost nothing.
pullsched::testchain::ComputationalLoad trivialLoad() {
    pullsched::testchain::ComputationalLoad load;
    load.setCalibration({.speed = 1.0});
    return load;
}

}  // namespace

TEST(RigTimeSums, SleepForMaxWaitsForTheStopInsteadOfReturningAtOnce) {
    StopRequest stop;
    // Asks a little later so that the request comes while sleepFor waits (not an
    // assertion on time: a late start only makes the test weaker).
    std::thread asker([&] {
        std::this_thread::sleep_for(20ms);
        stop.request(SIGTERM);
    });
    // now + Duration::max() wrapped into the past: sleepFor returned false ("not stopped")
    // at once, before the request came.
    EXPECT_TRUE(stop.sleepFor(kForever));
    asker.join();
}

TEST(RigTimeSums, SleepForNegativeOrMinimalReturnsAtOnce) {
    StopRequest stop;
    EXPECT_FALSE(stop.sleepFor(Duration::min()));
    EXPECT_FALSE(stop.sleepFor(-1s));
    EXPECT_FALSE(stop.sleepFor(0ns));
}

TEST(RigTimeSums, DeadlinesSaturateAtTheEndOfTime) {
    const TimePoint nearEnd = TimePoint::max() - 1ms;
    EXPECT_EQ(jobDeadline(nearEnd, 1h), TimePoint::max()) << "not a deadline in the past";
    EXPECT_EQ(jobDeadline(TimePoint{}, kForever), TimePoint::max());
    EXPECT_EQ(jobDeadline(TimePoint::max(), kForever), TimePoint::max());
    EXPECT_EQ(jobDeadline(TimePoint{} + 1s, 100ms), TimePoint{} + 1100ms);
    // A window of 0 (or less) means no deadline at all.
    EXPECT_EQ(jobDeadline(nearEnd, 0ns), pullsched::kNoDeadline);
    EXPECT_EQ(jobDeadline(TimePoint{}, Duration::min()), pullsched::kNoDeadline);
}

TEST(RigTimeSums, PlayerDrainWithoutALimitWaitsForThePendingJob) {
    const auto load = trivialLoad();
    const auto backend = BackendRegistry::streamRunner("pullsched");
    backend->start(1, Placement::Spread);
    LatencyRecorder lateness(1);
    StreamPlayer player(*backend, load, StreamPlayConfig{}, lateness);
    std::atomic<bool> ran{false};
    // Pending when drain begins: it starts only 20 ms from now.
    player.submitOne(pullsched::SteadyClock::now() + 20ms, false, [&ran] { ran.store(true); });
    EXPECT_TRUE(player.drain(kForever)) << "now + Duration::max() ended the drain at once";
    EXPECT_TRUE(ran.load());
    EXPECT_FALSE(player.drain(Duration::min())) << "a negative limit does not wait";
    backend->stop();
}

TEST(RigTimeSums, StreamDrainWithoutALimitWaitsForThePendingJob) {
    const auto backend = BackendRegistry::streamRunner("pool");
    backend->start(1, Placement::Spread);
    std::atomic<bool> release{false};
    backend->submit(pullsched::SteadyClock::now(), [&release] {
        while (!release.load())
            std::this_thread::yield();
    });
    std::thread releaser([&] {
        std::this_thread::sleep_for(10ms);
        release.store(true);
    });
    EXPECT_TRUE(backend->drain(kForever));
    releaser.join();
    backend->stop();
}

TEST(RigTimeSums, HugeDurationOptionsAreRefusedWithTheirBounds) {
    // Every duration option of every mode: a value past a nanosecond count, and one just
    // inside it (2562047 h is about 9.2e18 ns), are both refused naming the bounds.
    std::size_t checked = 0;
    for (const auto& mode : makeModes()) {
        OptionTable declared;
        mode->declare(declared);
        for (const OptionTable::Entry& e : declared.entries()) {
            if (e.valueName != "DUR") continue;
            for (const char* value : {"100000000h", "2562047h", "1e300s"}) {
                // A fresh mode per parse: the table binds the mode's own fields.
                std::unique_ptr<Mode> fresh;
                for (auto& m : makeModes())
                    if (m->name() == mode->name()) fresh = std::move(m);
                OptionTable table;
                fresh->declare(table);
                const std::string arg = "--" + e.name + "=" + value;
                try {
                    table.parse({arg});
                    ADD_FAILURE() << mode->name() << " " << arg << " was accepted";
                } catch (const UsageError& err) {
                    const std::string what = err.what();
                    EXPECT_NE(what.find("invalid --" + e.name + "="), std::string::npos) << what;
                    EXPECT_NE(what.find("must be " + e.bounds), std::string::npos)
                        << mode->name() << ": " << what;
                }
                ++checked;
            }
        }
    }
    EXPECT_GT(checked, 30u) << "--duration, --hold, --interval, --warmup, --think, ...";
}
