// Self-posting chains: the stress rig's closed loop (`--mode=closed --users=2`) in small.
// Two chains on two workers with an observer attached (so the waiting thread does not
// help); each job posts its successor from inside itself as a *timed* job that is due at
// once (start = now()), which goes through the entrance and the grooming pass, not a
// worker's own queues. No chain may stall: every link must run before drain() returns,
// and no worker may park while the other is parked and a link posted by a job still waits
// to start.
//
// The second check is by counts, not by time. A link posted by a job was posted by a
// worker that was running then; until the link starts it sits in the entrance, in a
// grooming pass's hands or in the due queue, and the park guard of a worker that parks
// after the post sees it there (conditions 2 and 3), or a worker that is not parked holds
// it. Both workers parked (between Observer::onWorkerIdle and onWorkerActive, where a
// worker touches no queue) with such a link waiting is therefore a lost wake-up, which
// only the safety net (2 s) would end, and which the final count alone cannot tell from
// a slow machine. The chains' heads are posted from the main thread while both workers
// park, so they are not counted.
#include "pullsched/scheduler/Observer.hpp"
#include "pullsched/scheduler/Scheduler.hpp"

#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <thread>

using namespace std::chrono_literals;
using namespace pullsched;

namespace {

constexpr unsigned kWorkers = 2;
constexpr unsigned kChains = 2;
constexpr std::uint64_t kLinks = 20000;  ///< per chain

/// Counts parked workers and, at each park, whether the other one is parked too while a
/// link posted by a job waits to start (see the file comment).
class ParkWatch final : public Observer {
  public:
    void onWorkerIdle(unsigned) override {
        const unsigned parked = parked_.fetch_add(1, std::memory_order_seq_cst) + 1;
        if (parked == kWorkers && waiting_.load(std::memory_order_seq_cst) > 0)
            allParkedWithLinkWaiting_.fetch_add(1, std::memory_order_relaxed);
    }
    void onWorkerActive(unsigned) override { parked_.fetch_sub(1, std::memory_order_seq_cst); }

    void linkPosted() { waiting_.fetch_add(1, std::memory_order_seq_cst); }
    void linkStarted() { waiting_.fetch_sub(1, std::memory_order_seq_cst); }
    std::uint64_t allParkedWithLinkWaiting() const {
        return allParkedWithLinkWaiting_.load(std::memory_order_relaxed);
    }

  private:
    std::atomic<unsigned> parked_{0};
    std::atomic<std::int64_t> waiting_{0};  ///< links posted by a job and not started
    std::atomic<std::uint64_t> allParkedWithLinkWaiting_{0};
};

/// A little work per link, varied, so that the workers drift apart and park and wake
/// (with empty jobs one worker tends to run both chains while the other stays parked).
/// Counted, not timed: about 0-4 us here. Every 64th link also yields its core.
void work(std::uint64_t k) {
    volatile std::uint64_t sink = 0;
    for (std::uint64_t i = 0, n = (k * 2654435761u) % 4096; i < n; ++i)
        sink = sink + i;
    if (k % 64 == 0) std::this_thread::yield();
}

struct Chains {
    Scheduler* sched = nullptr;
    ParkWatch* watch = nullptr;
    std::array<std::atomic<std::uint64_t>, kChains> ran{};

    /// Posts link `k` of chain `c`; `fromJob`: posted by the chain's previous link.
    void post(unsigned c, std::uint64_t k, bool fromJob) {
        JobOptions o;
        o.start = sched->now();  // think 0: due at once, as ClosedState::submit posts
        o.tag = c;
        if (fromJob) watch->linkPosted();
        sched->postDetached(
            [this, c, k, fromJob] {
                if (fromJob) watch->linkStarted();
                ran[c].fetch_add(1, std::memory_order_relaxed);
                work(k);
                if (k + 1 < kLinks) post(c, k + 1, true);
            },
            o);
    }
};

void runChains(const ClockSource* clock, Duration idleSpin) {
    ParkWatch watch;
    SchedulerConfig cfg;
    cfg.workers = kWorkers;
    cfg.observer = &watch;  // with an observer the waiting thread does not help
    cfg.clock = clock;
    cfg.idleSpin = idleSpin;
    Scheduler sched(cfg);
    Chains chains;
    chains.sched = &sched;
    chains.watch = &watch;
    for (unsigned c = 0; c < kChains; ++c)
        chains.post(c, 0, false);
    // As runClosedLoad waits for the users' last jobs. A stalled chain keeps this looping
    // (until the safety net ends the stall); the counts below tell it, not the time.
    while (!sched.drainFor(50ms)) {
    }
    for (unsigned c = 0; c < kChains; ++c)
        EXPECT_EQ(chains.ran[c].load(), kLinks) << "chain " << c;
    EXPECT_EQ(watch.allParkedWithLinkWaiting(), 0u)
        << "both workers parked while a link posted by a job waited to start";
    const Statistics st = sched.stats();
    EXPECT_EQ(st.completed, kChains * kLinks);
    EXPECT_EQ(st.pending, 0u);
}

}  // namespace

TEST(SchedulerSelfPostingChains, TimedDueLinksNeverWaitForParkedWorkersOnTheSteadyClock) {
    runChains(nullptr, SchedulerConfig{}.idleSpin);
}

TEST(SchedulerSelfPostingChains, TimedDueLinksNeverWaitForParkedWorkersThatDoNotSpin) {
    // Without the idle spin a worker that finds nothing parks at once: many more parks
    // and wake-ups for the same chains.
    runChains(nullptr, Duration::zero());
}

TEST(SchedulerSelfPostingChains, TimedDueLinksNeverWaitForParkedWorkersOnAManualClock) {
    // The clock stands still: every link is due when posted, whatever the machine's speed.
    ManualClock clock;
    runChains(&clock, Duration::zero());
}
