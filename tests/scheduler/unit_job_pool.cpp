// The record pool and a worker's cache: every record is accounted for (on the shared
// list, in a cache, or in use), a cache keeps at most two batches, records go back to
// the pool they came from, and the pool outlives its owner while records are out.
#include "detail/JobPool.hpp"

#include <gtest/gtest.h>

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
