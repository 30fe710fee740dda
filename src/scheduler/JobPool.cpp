#include "detail/JobPool.hpp"

#include <algorithm>
#include <mutex>
#include <utility>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace pullsched::detail {

namespace {
/// The cache of the worker running on this thread (see RecordCache::bind).
thread_local RecordCache* tlCache = nullptr;

/// The last record of a non-empty list through `link`.
JobRecord* lastOf(JobRecord* list) noexcept {
    while (list->link)
        list = list->link;
    return list;
}
}  // namespace

// ---------------------------------------------------------------- RecordCache

RecordCache::~RecordCache() {
    flush();
}

void RecordCache::bind(RecordCache* cache) noexcept {
    tlCache = cache;
}

RecordCache* RecordCache::bound() noexcept {
    return tlCache;
}

JobRecord* RecordCache::take() {
    if (!head_) head_ = pool_->takeBatch(kBatch, count_);
    JobRecord* rec = head_;
    head_ = rec->link;
    rec->link = nullptr;
    --count_;
    return rec;
}

void RecordCache::give(JobRecord* rec) noexcept {
    rec->link = head_;
    head_ = rec;
    if (++count_ <= 2 * kBatch) return;
    // Keep the newest kBatch (warm in this core's cache), return the rest.
    JobRecord* last = head_;
    for (std::size_t i = 1; i < kBatch; ++i)
        last = last->link;
    JobRecord* spill = std::exchange(last->link, nullptr);
    pool_->giveBatch(spill, lastOf(spill), count_ - kBatch);
    count_ = kBatch;
}

void RecordCache::flush() noexcept {
    if (!head_) return;
    JobRecord* tail = lastOf(head_);
    pool_->giveBatch(std::exchange(head_, nullptr), tail, std::exchange(count_, 0));
}

// ---------------------------------------------------------------- JobPool

namespace {
/// Records deleted per hold of the lock while trimming (~0.8 MiB).
constexpr std::size_t kTrimChunk = 4096;

/// glibc keeps freed memory in the process unless it lies at the top of the heap, and a
/// burst's records seldom all do (the successor blocks allocated among them stay):
/// measured, RSS stayed at 264 MB after a burst of 10^6 jobs was freed, and fell to
/// 22 MB once the free pages were handed back.
/// Not under a sanitizer: it brings its own allocator, and glibc's malloc_trim, which it
/// does not intercept, crashed there on an arena glibc never set up (two schedulers
/// trimming at once, AddressSanitizer).
void returnFreePages() noexcept {
#if defined(__GLIBC__) && !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
    malloc_trim(0);
#endif
}
}  // namespace

JobPool::JobPool(std::size_t initialCapacity)
    : retain_(std::max<std::size_t>(initialCapacity, 64)) {
    try {
        grow(retain_);
    } catch (...) {
        deleteList(free_);  // no destructor runs for a constructor that throws
        throw;
    }
}

JobPool::~JobPool() {
    deleteList(free_);  // deleted only when nothing is outside: every record is here
}

void JobPool::deleteList(JobRecord* list) noexcept {
    while (list)
        delete std::exchange(list, list->link);
}

void returnToPool(JobRecord* rec) noexcept {
    rec->pool->release(rec);
}

JobRecord* JobPool::acquire() {
    if (tlCache && tlCache->pool() == this) return tlCache->take();
    std::size_t got = 0;
    return takeBatch(1, got);
}

void JobPool::release(JobRecord* rec) noexcept {
    rec->recycle();
    if (tlCache && tlCache->pool() == this) {
        tlCache->give(rec);
        return;
    }
    giveBatch(rec, rec, 1);
}

JobRecord* JobPool::takeBatch(std::size_t max, std::size_t& got) {
    std::lock_guard lock(lock_);
    if (!free_) grow(std::max<std::size_t>(capacity_ / 2, 256));  // amortised
    JobRecord* head = free_;
    JobRecord* last = head;
    got = 1;
    while (got < max && last->link) {
        last = last->link;
        ++got;
    }
    free_ = last->link;
    last->link = nullptr;
    outside_ += got;  // the peak is noted where outside_ falls again (giveBatch), not here
    return head;
}

void JobPool::giveBatch(JobRecord* head, JobRecord* tail, std::size_t n) noexcept {
    bool done = false;
    {
        std::lock_guard lock(lock_);
        // outside_ rises only in takeBatch and falls only here, so its highest value is
        // the one it has when it starts to fall: noted here, posting stays as it was.
        periodPeak_ = std::max(periodPeak_, outside_);
        tail->link = free_;
        free_ = head;
        outside_ -= n;
        done = retired_ && outside_ == 0;
    }
    deleteIfDone(done);
}

void JobPool::retire() noexcept {
    bool done = false;
    {
        std::lock_guard lock(lock_);
        retired_ = true;
        done = outside_ == 0;
    }
    deleteIfDone(done);
}

void JobPool::deleteIfDone(bool done) noexcept {
    // Once retired and nothing is outside, nobody else can reach the pool: no owner to
    // post, no record to return.
    if (done) delete this;
}

std::size_t JobPool::trim(std::size_t periods) {
    std::size_t keep = 0;
    {
        std::lock_guard lock(lock_);
        // When in those periods the peak came is not known: it counts for all of them.
        const std::size_t peak = std::max(periodPeak_, outside_);
        for (std::size_t i = 0; i < std::min(periods, kQuietPeriods); ++i)
            peaks_[period_++ % kQuietPeriods] = peak;
        periodPeak_ = outside_;
        const std::size_t need = *std::max_element(peaks_.begin(), peaks_.end());
        keep = std::max(retain_, need + need / 2);
    }
    std::size_t deleted = 0;
    while (true) {
        std::size_t got = 0;
        JobRecord* surplus = nullptr;
        {
            std::lock_guard lock(lock_);
            // A burst that began meanwhile keeps what it needs.
            const std::size_t inUse = std::max(periodPeak_, outside_);
            surplus = takeSurplus(std::max(keep, inUse + inUse / 2), kTrimChunk, got);
        }
        if (!surplus) break;
        deleteList(surplus);  // outside the lock: freeing is the slow part
        deleted += got;
    }
    if (deleted >= kTrimChunk) returnFreePages();  // a small trim is not worth the walk
    return deleted;
}

JobRecord* JobPool::takeSurplus(std::size_t keep, std::size_t max, std::size_t& got) noexcept {
    const std::size_t free = capacity_ - outside_;
    got = capacity_ > keep ? std::min({capacity_ - keep, free, max}) : 0;
    if (got == 0) return nullptr;
    JobRecord* head = free_;
    JobRecord* last = head;
    for (std::size_t i = 1; i < got; ++i)
        last = last->link;
    free_ = std::exchange(last->link, nullptr);
    capacity_ -= got;
    return head;
}

std::size_t JobPool::capacity() const {
    std::lock_guard lock(lock_);
    return capacity_;
}

std::size_t JobPool::outside() const {
    std::lock_guard lock(lock_);
    return outside_;
}

void JobPool::grow(std::size_t count) {
    for (std::size_t i = 0; i < count; ++i) {  // one by one: see the class comment
        auto* rec = new JobRecord;
        rec->pool = this;
        rec->link = free_;
        free_ = rec;
        ++capacity_;  // per record: a bad_alloc half-way leaves the count right
    }
}

// ---------------------------------------------------------------- successor blocks

SuccessorBlock* JobPool::acquireBlock() {
    std::lock_guard lock(blockLock_);
    if (!freeBlocks_) {
        constexpr std::size_t kChunk = 64;
        auto chunk = std::make_unique<SuccessorBlock[]>(kChunk);
        for (std::size_t i = 0; i < kChunk; ++i) {
            chunk[i].next = freeBlocks_;
            freeBlocks_ = &chunk[i];
        }
        blockChunks_.push_back(std::move(chunk));
    }
    SuccessorBlock* b = freeBlocks_;
    freeBlocks_ = b->next;
    b->next = nullptr;
    b->count = 0;
    return b;
}

void JobPool::releaseBlocks(SuccessorBlock* list) noexcept {
    if (!list) return;
    SuccessorBlock* last = list;
    while (last->next)
        last = last->next;
    std::lock_guard lock(blockLock_);
    last->next = freeBlocks_;
    freeBlocks_ = list;
}

void JobRecord::addSuccessor(JobRecord* s) {
    if (inlineCount < inlineSucc.size()) {
        inlineSucc[inlineCount++] = s;
        return;
    }
    if (!moreTail || moreTail->count == SuccessorBlock::kCapacity) {
        SuccessorBlock* b = pool->acquireBlock();
        (moreTail ? moreTail->next : moreSucc) = b;
        moreTail = b;
    }
    moreTail->items[moreTail->count++] = s;
}

void JobRecord::recycle() noexcept {
    if (moreSucc) pool->releaseBlocks(moreSucc);
    resetFields();
}

}  // namespace pullsched::detail
