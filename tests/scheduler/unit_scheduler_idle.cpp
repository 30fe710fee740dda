// An idle scheduler parks: with one job far ahead, the worker tending it sleeps towards
// it in long waits instead of waking once per idle cycle; one waiting worker carries the
// safety net. Asserted on the
// planned sleeps and on counts of parks, never on how long anything took.
#include "pullsched/scheduler/Scheduler.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <thread>
#include <vector>

using namespace std::chrono_literals;
using namespace pullsched;

namespace {
class SleepRecorder final : public Observer {
  public:
    void onSleep(unsigned, SleepKind kind, Duration planned) override {
        if (kind != SleepKind::TendNext) return;
        std::lock_guard lock(mutex_);
        ++tendSleeps_;
        longest_ = std::max(longest_, planned);
    }
    void onWorkerIdle(unsigned) override {
        std::lock_guard lock(mutex_);
        ++parks_;
    }
    int tendSleeps() {
        std::lock_guard lock(mutex_);
        return tendSleeps_;
    }
    int parks() {
        std::lock_guard lock(mutex_);
        return parks_;
    }
    Duration longest() {
        std::lock_guard lock(mutex_);
        return longest_;
    }

  private:
    std::mutex mutex_;
    int tendSleeps_ = 0;
    int parks_ = 0;
    Duration longest_{0};
};

/// `workers` workers reporting to `observer`.
SchedulerConfig reportingTo(Observer& observer, unsigned workers) {
    SchedulerConfig cfg;
    cfg.workers = workers;
    cfg.observer = &observer;
    return cfg;
}

/// Two workers on an injected clock, reporting to `recorder`.
SchedulerConfig twoWorkersOn(const ManualClock& clock, SleepRecorder& recorder) {
    SchedulerConfig cfg = reportingTo(recorder, 2);
    cfg.clock = &clock;
    return cfg;
}
}  // namespace

TEST(SchedulerIdle, TheTenderOfAFarHeadSleepsTowardsItNotOneIdleCycleAtATime) {
    SleepRecorder recorder;
    Scheduler sched(reportingTo(recorder, 2));
    sched.postDetached([] {}, {.start = sched.now() + 1h});
    while (recorder.tendSleeps() == 0)
        std::this_thread::sleep_for(1ms);
    // Planned: until the head minus the spin window or, if this worker carries the
    // safety net, the net's period (2 s); not one idle cycle (20 ms).
    EXPECT_GE(recorder.longest(), 1s);

    // Over a while, the tender does not wake and re-plan every idle cycle (20 ms).
    const std::uint64_t parksBefore = sched.stats().parks;
    std::this_thread::sleep_for(200ms);
    EXPECT_LE(recorder.tendSleeps(), 2);
    EXPECT_LE(sched.stats().parks - parksBefore, 2u);
    sched.shutdown(ShutdownMode::Cancel);
}

TEST(SchedulerIdle, AnEarlierPostStillWakesTheTenderOfAFarHead) {
    Scheduler sched;
    sched.postDetached([] {}, {.start = sched.now() + 1h});
    std::this_thread::sleep_for(5ms);  // let a worker settle into the long sleep
    std::atomic<bool> ran{false};
    sched.post([&] { ran.store(true); }, {.start = sched.now() + 1ms});
    while (!ran.load())
        std::this_thread::sleep_for(1ms);  // would hang (test time-out) if nobody woke
    EXPECT_EQ(sched.shutdown(ShutdownMode::Cancel).cancelled, 1u);
}

TEST(SchedulerIdle, UntimedAndDuePostsWakeTheOnlyWorkerWhileItTendsAFarHead) {
    SleepRecorder recorder;
    Scheduler sched(reportingTo(recorder, 1));
    sched.postDetached([] {}, {.start = sched.now() + 1h});
    while (recorder.tendSleeps() == 0)
        std::this_thread::sleep_for(1ms);
    // The only worker sleeps towards a head an hour away; nobody is parked to be woken.
    std::atomic<int> ran{0};
    sched.postDetached([&] { ran.fetch_add(1); });
    while (ran.load() < 1)
        std::this_thread::sleep_for(1ms);  // would hang (test time-out) if nobody woke
    while (recorder.tendSleeps() < 2)
        std::this_thread::sleep_for(1ms);  // tending the far head again
    sched.postDetached([&] { ran.fetch_add(1); }, {.start = sched.now()});
    while (ran.load() < 2)
        std::this_thread::sleep_for(1ms);
    EXPECT_EQ(sched.shutdown(ShutdownMode::Cancel).cancelled, 1u);
}

// With an injected clock, sleeps last at most idleWait (here an hour), so only wake() can
// end them: after the clock jumps past a job's start, wake() must have the sleeping tender
// (or a parked worker) groom and run it. Broken, drain() never returns (the test's time
// limit catches it); nothing here is timed.
TEST(SchedulerIdle, WakeEndsTheSleepsOfAnInjectedClock) {
    ManualClock clock;
    SleepRecorder recorder;
    SchedulerConfig cfg = twoWorkersOn(clock, recorder);
    cfg.horizons.idleWait = 1h;
    Scheduler sched(cfg);
    for (int round = 1; round <= 3; ++round) {
        std::atomic<bool> ran{false};
        sched.postDetached([&ran] { ran = true; }, {.start = clock.now() + 10min});
        while (recorder.tendSleeps() < round)  // the tender is asleep towards it
            std::this_thread::sleep_for(1ms);
        clock.advance(10min);
        sched.wake();
        sched.drain();
        EXPECT_TRUE(ran.load());
    }
}

namespace {
/// A head ten minutes ahead on a clock that stands still, `chain` jobs in
/// a row behind it, then `fan` jobs behind the last of them (behind the head itself when
/// `chain` is 0). Returns the wake-ups sent once the tender's sleep ran out and it has
/// looked at the head `looks` more times, then runs everything and checks it ran.
/// Without an idle spin the other worker parks for good (spinning, it would see the head
/// untended whenever a tend sleep ends, and not park), so the only notification that can
/// come before the start is the tender's wake-up ahead of a fan-out.
std::uint64_t wakeupsAheadOf(int chain, int fan, bool expectWake) {
    ManualClock clock;
    SleepRecorder recorder;
    SchedulerConfig cfg = twoWorkersOn(clock, recorder);
    cfg.idleSpin = Duration::zero();
    Scheduler sched(cfg);
    std::atomic<int> ran{0};
    JobHandle last = sched.post([&ran] { ran.fetch_add(1); }, {.start = clock.now() + 10min});
    for (int i = 0; i < chain; ++i) {
        const JobHandle preds[] = {last};
        last = sched.post([&ran] { ran.fetch_add(1); }, {}, preds);
    }
    for (int i = 0; i < fan; ++i) {
        const JobHandle preds[] = {last};
        sched.postDetached([&ran] { ran.fetch_add(1); }, {}, preds);
    }
    last = JobHandle{};
    // The tender sleeps towards the head (idleWait, 20 ms, at a time: the clock stands
    // still), the other worker is parked.
    while (recorder.tendSleeps() < 2 || recorder.parks() < 1)
        std::this_thread::sleep_for(1ms);
    const std::uint64_t before = sched.stats().wakeups;
    const std::uint64_t looksBefore = sched.stats().tokenAcquisitions;
    clock.advance(10min - 100us);  // within the spin window: the tender's next look spins
    // Each look spins at most idleWait (20 ms) before the next. Waiting for a wake-up is
    // bounded only so that a missing one fails instead of hanging; waiting for none, the
    // tender must have looked three times (its sleep ended before the first of them).
    for (int i = 0; i < 10'000; ++i) {
        if (expectWake && sched.stats().wakeups != before) break;
        if (!expectWake && sched.stats().tokenAcquisitions >= looksBefore + 3) break;
        std::this_thread::sleep_for(1ms);
    }
    const std::uint64_t sent = sched.stats().wakeups - before;
    // Without the looks, "nobody was woken" would hold of a tender that never looked.
    if (!expectWake) {
        EXPECT_GE(sched.stats().tokenAcquisitions, looksBefore + 3) << "the tender stopped looking";
    }
    EXPECT_EQ(ran.load(), 0) << "nothing ran before the start";
    clock.advance(1ms);
    sched.wake();
    sched.drain();
    EXPECT_EQ(ran.load(), 1 + chain + fan);
    return sent;
}
}  // namespace

/// A tender whose sleep ran out and that is about to spin towards a head that releases
/// more than one successor wakes a parked worker first, so that a second worker is awake
/// when the head releases them (waking it then costs the releasing worker, and the woken
/// one, tens of microseconds on a VM).
TEST(SchedulerIdle, ATenderWhoseHeadReleasesAFanOutWakesAParkedWorkerBeforeTheStart) {
    EXPECT_GT(wakeupsAheadOf(0, 2, true), 0u) << "no worker was woken ahead of the fan-out";
}

/// The same when the fan-out comes a few jobs down a chain behind the head (a gate, then
/// set-up jobs): those run in far less than the wake-up takes.
TEST(SchedulerIdle, ATenderWhoseHeadLeadsToAFanOutDownAChainWakesAParkedWorker) {
    EXPECT_GT(wakeupsAheadOf(9, 4, true), 0u) << "no worker was woken ahead of the fan-out";
}

/// A plain chain behind the head needs one worker: nobody is woken to spin beside it.
TEST(SchedulerIdle, ATenderWhoseHeadLeadsOnlyToAChainWakesNobody) {
    EXPECT_EQ(wakeupsAheadOf(30, 0, false), 0u);
    EXPECT_EQ(wakeupsAheadOf(1, 1, false), 0u);
}

namespace {
/// Which workers are parked, and which of them wait with a safety net (a finite planned
/// park); at every moment all of them are parked, how many nets there were.
class NetRecorder final : public Observer {
  public:
    explicit NetRecorder(unsigned workers) : parked_(workers, false), net_(workers, false) {}
    void onSleep(unsigned w, SleepKind kind, Duration planned) override {
        std::lock_guard lock(mutex_);
        if (kind == SleepKind::TendNext) {
            // A tender of a head an hour ahead: with the net it sleeps 2 s, then 4 s...
            const bool otherParked = std::ranges::count(parked_, true) == 1 && !parked_[w];
            if (otherParked)
                netsWhileTending_.push_back((planned < 30min) + std::ranges::count(net_, true));
            return;
        }
        if (kind != SleepKind::Park) return;
        parked_[w] = true;
        net_[w] = planned != Duration::max();
        if (std::ranges::count(parked_, true) == static_cast<long>(parked_.size()))
            netsWhenAllParked_.push_back(std::ranges::count(net_, true));
    }
    std::vector<long> netsWhileTending() {
        std::lock_guard lock(mutex_);
        return netsWhileTending_;
    }
    std::size_t parked() {
        std::lock_guard lock(mutex_);
        return static_cast<std::size_t>(std::ranges::count(parked_, true));
    }
    void onWorkerActive(unsigned w) override {
        std::lock_guard lock(mutex_);
        parked_[w] = false;
        net_[w] = false;
    }
    std::vector<long> netsWhenAllParked() {
        std::lock_guard lock(mutex_);
        return netsWhenAllParked_;
    }

  private:
    std::mutex mutex_;
    std::vector<bool> parked_, net_;
    std::vector<long> netsWhenAllParked_, netsWhileTending_;
};
}  // namespace

// One parked worker carries the safety net (a timed wait), the others wait for a
// notification only: each check costs CPU, and one suffices because a worker that finds
// work wakes the next. Whenever all workers are parked, exactly one has the net: after
// start-up, and again after posts woke some of them.
TEST(SchedulerIdle, ExactlyOneParkedWorkerCarriesTheSafetyNet) {
    constexpr unsigned kWorkers = 3;
    NetRecorder recorder(kWorkers);
    SchedulerConfig cfg;
    cfg.workers = kWorkers;
    cfg.observer = &recorder;
    cfg.idleSpin = Duration::zero();  // park at once: every round ends all parked
    Scheduler sched(cfg);
    for (std::size_t round = 1; round <= 4; ++round) {
        while (recorder.netsWhenAllParked().size() < round)
            std::this_thread::sleep_for(1ms);  // would hang (test time-out) if one never parks
        for (int i = 0; i < 8; ++i)
            sched.postDetached([] {});
        sched.drain();
    }
    for (const long nets : recorder.netsWhenAllParked())
        EXPECT_EQ(nets, 1);
}

// The tender counts as waiting: a worker holding the net that is woken to tend a far head
// keeps the net (its sleep then ends after the net's period), else the parked worker,
// which parked while the other held it, would be left without one.
TEST(SchedulerIdle, TheTenderOrTheParkedWorkerCarriesTheSafetyNet) {
    NetRecorder recorder(2);
    SchedulerConfig cfg;
    cfg.workers = 2;
    cfg.observer = &recorder;
    cfg.idleSpin = Duration::zero();
    Scheduler sched(cfg);
    while (recorder.parked() < 2)
        std::this_thread::sleep_for(1ms);  // both parked: one with the net, one without
    sched.postDetached([] {}, {.start = sched.now() + 1h});  // wakes one of them to tend
    while (recorder.netsWhileTending().empty())
        std::this_thread::sleep_for(1ms);
    for (const long nets : recorder.netsWhileTending())
        EXPECT_EQ(nets, 1);
    EXPECT_EQ(sched.shutdown(ShutdownMode::Cancel).cancelled, 1u);
}

namespace {
/// The planned length of every park and tender sleep, in order.
class PlanRecorder final : public Observer {
  public:
    void onSleep(unsigned, SleepKind kind, Duration planned) override {
        if (kind != SleepKind::Park && kind != SleepKind::TendNext) return;
        std::lock_guard lock(mutex_);
        plans_.emplace_back(kind, planned);
    }
    std::vector<std::pair<SleepKind, Duration>> plans() {
        std::lock_guard lock(mutex_);
        return plans_;
    }

  private:
    std::mutex mutex_;
    std::vector<std::pair<SleepKind, Duration>> plans_;
};
}  // namespace

// The safety net is short (2 s) for jobs open when the last worker went to sleep; with
// none open it takes its longest period (64 s) at once, since then a lost wake-up could
// strand only a later post's job. One worker, so it always holds the net.
TEST(SchedulerIdle, TheSafetyNetIsShortOnlyWhileAJobIsOpen) {
    PlanRecorder recorder;
    SchedulerConfig cfg = reportingTo(recorder, 1);
    cfg.idleSpin = Duration::zero();
    Scheduler sched(cfg);
    while (recorder.plans().empty())
        std::this_thread::sleep_for(1ms);  // the worker parks, nothing posted yet
    EXPECT_EQ(recorder.plans()[0], std::make_pair(SleepKind::Park, Duration(64s)));

    sched.postDetached([] {}, {.start = sched.now() + 1h});  // wakes it to tend the job
    auto tending = [&recorder] {
        const auto plans = recorder.plans();
        return std::ranges::find(plans, SleepKind::TendNext,
                                 &std::pair<SleepKind, Duration>::first) != plans.end();
    };
    while (!tending())
        std::this_thread::sleep_for(1ms);
    const auto plans = recorder.plans();
    const auto first =
        std::ranges::find(plans, SleepKind::TendNext, &std::pair<SleepKind, Duration>::first);
    // An hour away, but the net (2 s: the worker was notified, a job is open) comes first.
    EXPECT_LE(first->second, 2s);
    EXPECT_EQ(sched.shutdown(ShutdownMode::Cancel).cancelled, 1u);
}
