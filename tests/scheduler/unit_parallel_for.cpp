// Scheduler::parallelFor: every index exactly once, chunks that partition the range, a
// handle that ends after the last chunk, predecessors and groups for the whole loop, a
// failing chunk that cancels the join, and one accounting entry per chunk plus the join.
#include "pullsched/scheduler/ParallelFor.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <utility>
#include <vector>

#include "SchedulerTestKit.hpp"

using namespace std::chrono_literals;
using namespace pullsched;
using testkit::withWorkers;

namespace {

/// Counts per index, for ranges that may start below zero.
class IndexCounts {
  public:
    IndexCounts(long begin, long end)
        : begin_(begin),
          counts_(new std::atomic<int>[static_cast<std::size_t>(end - begin)]()),
          size_(static_cast<std::size_t>(end - begin)) {}
    void hit(long i) { counts_[static_cast<std::size_t>(i - begin_)].fetch_add(1); }
    /// The first index not run exactly once, or `end` if every one was.
    long firstWrong() const {
        for (std::size_t k = 0; k < size_; ++k)
            if (counts_[k].load() != 1) return begin_ + static_cast<long>(k);
        return begin_ + static_cast<long>(size_);
    }

  private:
    long begin_;
    std::unique_ptr<std::atomic<int>[]> counts_;
    std::size_t size_;
};

}  // namespace

TEST(ParallelFor, EveryIndexRunsExactlyOnceWhateverTheGrain) {
    Scheduler sched(withWorkers(2));
    for (const long n : {1L, 7L, 1000L, 100'003L}) {
        for (const std::size_t grain : {std::size_t{0}, std::size_t{1}, std::size_t{64}}) {
            if (grain == 1 && n > 1000) continue;  // 10^5 jobs add nothing here
            IndexCounts counts(0, n);
            const JobHandle h =
                sched.parallelFor(0L, n, [&](long i) { counts.hit(i); }, {.grain = grain});
            sched.wait(h);
            EXPECT_EQ(h.state(), JobState::Completed);
            EXPECT_EQ(counts.firstWrong(), n) << "n " << n << " grain " << grain;
        }
    }
}

TEST(ParallelFor, ARangeBelowZeroAndOtherIndexTypesWork) {
    Scheduler sched(withWorkers(2));
    IndexCounts counts(-50, 50);
    sched.wait(sched.parallelFor(-50, 50, [&](int i) { counts.hit(i); }));
    EXPECT_EQ(counts.firstWrong(), 50);
    std::atomic<std::uint64_t> sum{0};
    sched.wait(sched.parallelFor(std::uint16_t{10}, std::uint16_t{20},
                                 [&](std::uint16_t i) { sum.fetch_add(i); }));
    EXPECT_EQ(sum.load(), 145u);
}

TEST(ParallelFor, ChunkBodiesPartitionTheRangeInGrainSizedPieces) {
    Scheduler sched(withWorkers(2));
    std::mutex m;
    std::vector<std::pair<int, int>> chunks;
    sched.wait(sched.parallelFor(3, 1003,
                                 [&](int first, int last) {
                                     std::lock_guard lock(m);
                                     chunks.emplace_back(first, last);
                                 },
                                 {.grain = 64}));
    std::ranges::sort(chunks);
    ASSERT_EQ(chunks.size(), 16u);  // 1000 / 64, rounded up
    int next = 3;
    for (const auto& [first, last] : chunks) {
        EXPECT_EQ(first, next);
        EXPECT_LE(last - first, 64);
        next = last;
    }
    EXPECT_EQ(next, 1003);
}

TEST(ParallelFor, TheDefaultGrainGivesFourChunksPerThread) {
    Scheduler sched(withWorkers(3));  // 3 workers + the helping caller
    std::atomic<int> chunks{0};
    sched.wait(sched.parallelFor(0, 1600, [&](int, int) { chunks.fetch_add(1); }));
    EXPECT_EQ(chunks.load(), 16);
    chunks = 0;
    sched.wait(sched.parallelFor(0, 5, [&](int, int) { chunks.fetch_add(1); }));
    EXPECT_EQ(chunks.load(), 5) << "never less than one index per chunk";
}

TEST(ParallelFor, EachChunkIsOneJobAndTheJoinOneMore) {
    Scheduler sched(withWorkers(2));
    const Statistics before = sched.stats();
    sched.wait(sched.parallelFor(0, 1000, [](int) {}, {.grain = 100}));
    sched.drain();
    const Statistics after = sched.stats();
    EXPECT_EQ(after.submitted - before.submitted, 11u);
    EXPECT_EQ(after.completed - before.completed, 11u);
    EXPECT_TRUE(after.balanced());
}

TEST(ParallelFor, NoIndexRunsBeforeThePredecessorsAndTheStart) {
    ManualClock clock;
    SchedulerConfig cfg = withWorkers(2);
    cfg.clock = &clock;
    Scheduler sched(cfg);
    std::atomic<bool> gateRan{false};
    std::atomic<int> early{0}, ran{0};
    const TimePoint t0 = clock.now();
    const JobHandle gate = sched.post([&] { gateRan = true; }, {.start = clock.now() + 1s});
    const JobHandle loop = sched.parallelFor(
        0, 100,
        [&](int) {
            if (!gateRan.load() || clock.now() < t0 + 2s) early.fetch_add(1);
            ran.fetch_add(1);
        },
        {.job = {.start = clock.now() + 2s}}, std::span<const JobHandle>(&gate, 1));
    EXPECT_FALSE(sched.waitFor(loop, 0s));
    clock.advance(1s);
    sched.wake();
    sched.wait(gate);
    EXPECT_FALSE(loop.done()) << "the chunks start at +2 s";
    clock.advance(1s);
    sched.wake();
    sched.wait(loop);
    EXPECT_EQ(ran.load(), 100);
    EXPECT_EQ(early.load(), 0);
}

TEST(ParallelFor, ACancelledGroupCancelsTheWholeLoop) {
    ManualClock clock;
    SchedulerConfig cfg = withWorkers(2);
    cfg.clock = &clock;
    Scheduler sched(cfg);
    JobGroup group = sched.group();
    std::atomic<int> ran{0};
    const JobHandle loop =
        sched.parallelFor(0, 100, [&](int) { ran.fetch_add(1); },
                          {.grain = 10, .job = {.start = clock.now() + 1s, .group = group}});
    group.cancel();
    clock.advance(1s);
    sched.wake();
    sched.wait(loop);
    EXPECT_EQ(loop.state(), JobState::Cancelled);
    EXPECT_EQ(ran.load(), 0);
    sched.drain();
    const Statistics s = sched.stats();
    EXPECT_EQ(s.cancelled, 11u);
    EXPECT_TRUE(s.balanced());
}

TEST(ParallelFor, AFailingChunkCancelsTheJoinAndTheOthersStillRun) {
    Scheduler sched(withWorkers(2));
    std::atomic<int> ran{0};
    const JobHandle loop = sched.parallelFor(0, 100,
                                             [&](int i) {
                                                 ran.fetch_add(1);
                                                 if (i == 42) throw std::runtime_error("index 42");
                                             },
                                             {.grain = 10});
    sched.wait(loop);
    EXPECT_EQ(loop.state(), JobState::Cancelled);
    sched.drain();
    EXPECT_EQ(ran.load(), 93) << "the failing chunk stops at its 3rd index; 9 chunks run whole";
    EXPECT_EQ(sched.stats().failed, 1u);
}

TEST(ParallelFor, AnEmptyRangeEndsAfterItsPredecessors) {
    Scheduler sched(withWorkers(1));
    std::atomic<bool> predRan{false};
    const JobHandle pred = sched.post([&] { predRan = true; });
    bool called = false;
    const JobHandle loop = sched.parallelFor(5, 5, [&](int) { called = true; }, {}, {pred});
    sched.wait(loop);
    EXPECT_TRUE(predRan.load());
    EXPECT_FALSE(called);
    EXPECT_EQ(loop.state(), JobState::Completed);
}

TEST(ParallelFor, ALoopPostedFromAJobIsAPredecessorLikeAnyJob) {
    Scheduler sched(withWorkers(2));
    IndexCounts counts(0, 500);
    std::atomic<bool> afterSawAll{false};
    sched.post([&] {
        const JobHandle loop = sched.parallelFor(0, 500, [&](int i) { counts.hit(i); });
        sched.postDetached([&] { afterSawAll = counts.firstWrong() == 500; }, {}, {loop});
    });
    sched.drain();
    EXPECT_TRUE(afterSawAll.load());
    EXPECT_EQ(counts.firstWrong(), 500);
}

TEST(ParallelFor, TheBodyIsDestroyedOnceTheLoopIsFinal) {
    Scheduler sched(withWorkers(2));
    auto alive = std::make_shared<int>(1);
    std::weak_ptr<int> watch = alive;
    const JobHandle loop = sched.parallelFor(0, 100, [keep = std::move(alive)](int) {});
    sched.wait(loop);
    sched.drain();
    EXPECT_TRUE(watch.expired());
}
