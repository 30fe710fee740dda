// The record pool and a worker's cache: every record is accounted for (on the shared
// list, in a cache, or in use), a cache keeps at most two batches, records go back to
// the pool they came from, the pool outlives its owner while records are out, and what a
// burst needed goes back to the heap once kQuietPeriods periods passed without one.
#include "detail/JobPool.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <set>
#include <thread>
#include <vector>

#include "pullsched/scheduler/Scheduler.hpp"

using pullsched::detail::JobPool;
using pullsched::detail::JobRecord;
using pullsched::detail::RecordCache;

namespace {
/// Binds a cache to the calling thread for one scope.
struct Bound {
    explicit Bound(RecordCache& c) { RecordCache::bind(&c); }
    ~Bound() { RecordCache::bind(nullptr); }
};
}  // namespace

TEST(JobPool, OutsideCountsRecordsInUse) {
    JobPool* pool = JobPool::create(64);
    EXPECT_EQ(pool->capacity(), 64u);
    std::vector<JobRecord*> recs;
    for (int i = 0; i < 100; ++i)  // beyond the first block: the pool grows
        recs.push_back(pool->acquire());
    EXPECT_EQ(pool->outside(), 100u);
    EXPECT_GE(pool->capacity(), 100u);
    EXPECT_EQ(std::set<JobRecord*>(recs.begin(), recs.end()).size(), 100u) << "handed out twice";
    for (JobRecord* r : recs)
        pool->release(r);
    EXPECT_EQ(pool->outside(), 0u);
    pool->retire();  // deletes it (nothing outside); LeakSanitizer checks
}

TEST(JobPool, CacheTakesAndReturnsWholeBatches) {
    JobPool* pool = JobPool::create(256);
    {
        RecordCache cache(pool);
        Bound bound(cache);
        JobRecord* first = pool->acquire();  // through the bound cache: one batch moves
        EXPECT_EQ(pool->outside(), RecordCache::kBatch);
        EXPECT_EQ(cache.size(), RecordCache::kBatch - 1);
        std::vector<JobRecord*> recs{first};
        for (std::size_t i = 1; i < 3 * RecordCache::kBatch; ++i)
            recs.push_back(pool->acquire());
        EXPECT_EQ(pool->outside(), 3 * RecordCache::kBatch);
        EXPECT_EQ(cache.size(), 0u);
        for (JobRecord* r : recs)
            pool->release(r);  // into the cache, which spills down to one batch
        EXPECT_LE(cache.size(), 2 * RecordCache::kBatch);
        EXPECT_EQ(pool->outside(), cache.size());
        cache.flush();
        EXPECT_EQ(cache.size(), 0u);
        EXPECT_EQ(pool->outside(), 0u);
    }
    pool->retire();
}

TEST(JobPool, ForeignRecordsBypassTheCache) {
    JobPool* mine = JobPool::create(64);
    JobPool* other = JobPool::create(64);
    JobRecord* foreign = other->acquire();  // no cache bound: straight from the list
    {
        RecordCache cache(mine);
        Bound bound(cache);
        other->release(foreign);  // another pool's record must not land in this cache
        EXPECT_EQ(cache.size(), 0u);
        EXPECT_EQ(other->outside(), 0u);
    }
    mine->retire();
    other->retire();
}

TEST(JobPool, RetiredPoolLivesUntilTheLastRecordReturns) {
    JobPool* pool = JobPool::create(64);
    JobRecord* rec = pool->acquire();
    pool->retire();  // still one record out: the pool must stay
    EXPECT_EQ(rec->pool, pool);
    pool->release(rec);  // the last one deletes it (ASan: no use after free, no leak)
}

TEST(JobPool, CacheFlushedOnDestructionReturnsEverything) {
    JobPool* pool = JobPool::create(64);
    {
        RecordCache cache(pool);
        Bound bound(cache);
        pool->release(pool->acquire());
        EXPECT_GT(cache.size(), 0u);
        pool->retire();  // records are in the cache: the pool waits for them
    }                    // the cache's destructor returns them, and the pool goes
}

// The scheduler's workers cache records; handles kept past the scheduler still read their
// state, and the records of every worker's cache are back when the scheduler is gone.
TEST(JobPool, HandlesOutliveSchedulerWithWorkerCaches) {
    std::vector<pullsched::JobHandle> handles;
    {
        pullsched::Scheduler sched({.workers = 2});
        for (int round = 0; round < 20; ++round) {
            pullsched::JobHandle prev = sched.post([] {});
            for (int i = 0; i < 200; ++i)
                prev = sched.post([&sched] { sched.postDetached([] {}); }, {}, {prev});
            handles.push_back(prev);
        }
        sched.drain();
        const auto s = sched.stats();
        EXPECT_EQ(s.submitted, 20u * (201 + 200));  // the chains and what their jobs posted
        EXPECT_EQ(s.completed, s.submitted);
        EXPECT_EQ(s.pending, 0u);
    }
    for (const auto& h : handles)
        EXPECT_EQ(h.state(), pullsched::JobState::Completed);
    handles.clear();  // the last references: the pool goes with them
}

namespace {
std::vector<JobRecord*> acquireN(JobPool* pool, std::size_t n) {
    std::vector<JobRecord*> recs;
    for (std::size_t i = 0; i < n; ++i)
        recs.push_back(pool->acquire());
    return recs;
}
void releaseAll(JobPool* pool, std::vector<JobRecord*>& recs) {
    for (JobRecord* r : recs)
        pool->release(r);
    recs.clear();
}
constexpr std::size_t kQuiet = JobPool::kQuietPeriods;
}  // namespace

TEST(JobPool, ABurstsRecordsGoBackAfterTheQuietPeriods) {
    JobPool* pool = JobPool::create(64);
    auto recs = acquireN(pool, 10000);
    const std::size_t grown = pool->capacity();
    EXPECT_GE(grown, 10000u);
    releaseAll(pool, recs);
    EXPECT_EQ(pool->capacity(), grown);  // returning records frees nothing by itself
    // The period of the burst and the kQuiet - 1 after it still remember its peak.
    for (std::size_t i = 0; i < kQuiet; ++i) {
        EXPECT_EQ(pool->trim(), 0u) << "period " << i;
        EXPECT_EQ(pool->capacity(), grown);
    }
    EXPECT_EQ(pool->trim(), grown - 64);  // more than one chunk: all of it, in one call
    EXPECT_EQ(pool->capacity(), 64u);     // the initial capacity stays
    EXPECT_EQ(pool->outside(), 0u);
    EXPECT_EQ(pool->trim(), 0u);
    recs = acquireN(pool, 100);  // and it grows again when needed
    EXPECT_GE(pool->capacity(), 100u);
    releaseAll(pool, recs);
    pool->retire();  // LeakSanitizer: every record deleted once
}

TEST(JobPool, KeepsWhatTheRecentLoadUsesPlusHalf) {
    JobPool* pool = JobPool::create(64);
    auto recs = acquireN(pool, 10000);
    std::vector<JobRecord*> held(recs.end() - 1000, recs.end());
    recs.resize(recs.size() - 1000);
    releaseAll(pool, recs);  // 1000 stay in use
    for (std::size_t i = 0; i <= kQuiet; ++i)
        pool->trim();
    EXPECT_EQ(pool->capacity(), 1500u);  // 1000 in use + a half as margin
    EXPECT_EQ(pool->outside(), 1000u);
    releaseAll(pool, held);
    for (std::size_t i = 0; i < kQuiet; ++i)
        EXPECT_EQ(pool->trim(), 0u);  // the 1000 are still the recent peak
    EXPECT_EQ(pool->trim(), 1500u - 64u);
    EXPECT_EQ(pool->capacity(), 64u);
    pool->retire();
}

TEST(JobPool, BurstsWithinTheQuietPeriodsReuseTheirRecords) {
    JobPool* pool = JobPool::create(64);
    auto recs = acquireN(pool, 10000);
    const std::size_t grown = pool->capacity();
    releaseAll(pool, recs);
    for (int burst = 0; burst < 5; ++burst) {
        for (std::size_t i = 0; i < kQuiet - 1; ++i)
            EXPECT_EQ(pool->trim(), 0u);
        recs = acquireN(pool, 10000);
        EXPECT_EQ(pool->capacity(), grown) << "burst " << burst << " allocated anew";
        releaseAll(pool, recs);
    }
    for (std::size_t i = 0; i < kQuiet; ++i)
        EXPECT_EQ(pool->trim(), 0u);
    EXPECT_EQ(pool->trim(), grown - 64);
    pool->retire();
}

TEST(JobPool, RecordsInAWorkersCacheCountAsInUse) {
    JobPool* pool = JobPool::create(64);
    auto recs = acquireN(pool, 1000);
    releaseAll(pool, recs);
    {
        RecordCache cache(pool);
        Bound bound(cache);
        pool->release(pool->acquire());  // one batch now sits in the cache
        ASSERT_EQ(cache.size(), RecordCache::kBatch);
        for (std::size_t i = 0; i <= kQuiet; ++i)
            pool->trim();
        EXPECT_EQ(pool->capacity(), 64u);  // 32 cached: 48 < the 64 kept anyway
        EXPECT_EQ(pool->outside(), RecordCache::kBatch);
    }
    EXPECT_EQ(pool->outside(), 0u);
    pool->retire();
}

// Through the scheduler: a burst held back by a gate makes the pool grow; drained, the
// records stay while the (manual) clock stands still, and go back to the initial capacity
// after quiet duty cycles. Counted in Statistics::jobRecords, never timed.
TEST(JobPool, SchedulerGivesABurstsRecordsBackAfterQuietDutyCycles) {
    pullsched::ManualClock clock;
    pullsched::SchedulerConfig cfg;
    cfg.clock = &clock;
    pullsched::Scheduler sched(cfg);
    EXPECT_EQ(sched.stats().jobRecords, cfg.initialJobCapacity);
    std::atomic<bool> open{false};
    pullsched::JobHandle gate = sched.post([&] { open.wait(false); });
    const pullsched::JobHandle preds[] = {gate};
    for (int i = 0; i < 20000; ++i)
        sched.postDetached([] {}, {}, preds);
    const std::uint64_t peak = sched.stats().jobRecords;
    EXPECT_GT(peak, 20000u);
    open.store(true);
    open.notify_all();
    sched.drain();
    EXPECT_EQ(sched.stats().jobRecords, peak);  // the clock stood still: no duty cycle yet
    // Each step: a period on the scheduler's clock, and a worker woken to groom past it.
    int steps = 0;
    for (; steps < 1000 && sched.stats().jobRecords != cfg.initialJobCapacity; ++steps) {
        clock.advance(cfg.dutyCycle);
        const std::uint64_t grooms = sched.stats().tokenAcquisitions;
        while (sched.stats().tokenAcquisitions == grooms) {
            sched.wake();  // again, in case it reached a worker not yet asleep
            std::this_thread::yield();
        }
    }
    EXPECT_EQ(sched.stats().jobRecords, cfg.initialJobCapacity);
    EXPECT_GE(steps, static_cast<int>(kQuiet)) << "given back before the quiet periods passed";
}

// Three cache lines: waiting, cancelling and groups found room in the existing layout
// (a live handle pins its record, so its size is what a held handle costs).
TEST(JobPool, RecordIsThreeCacheLines) {
    EXPECT_EQ(sizeof(JobRecord), 192u);
}
