#include "detail/JobPool.hpp"

#include <algorithm>
#include <mutex>
#include <utility>

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

JobPool::JobPool(std::size_t initialCapacity) {
    grow(std::max<std::size_t>(initialCapacity, 64));
}

JobPool::~JobPool() = default;

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
    if (!free_) grow(std::max<std::size_t>(capacity_ / 2, 256));  // amortised: only grows
    JobRecord* head = free_;
    JobRecord* last = head;
    got = 1;
    while (got < max && last->link) {
        last = last->link;
        ++got;
    }
    free_ = last->link;
    last->link = nullptr;
    outside_ += got;
    return head;
}

void JobPool::giveBatch(JobRecord* head, JobRecord* tail, std::size_t n) noexcept {
    bool done = false;
    {
        std::lock_guard lock(lock_);
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

std::size_t JobPool::capacity() const {
    std::lock_guard lock(lock_);
    return capacity_;
}

std::size_t JobPool::outside() const {
    std::lock_guard lock(lock_);
    return outside_;
}

void JobPool::grow(std::size_t count) {
    auto block = std::make_unique<JobRecord[]>(count);
    for (std::size_t i = 0; i < count; ++i) {
        block[i].pool = this;
        block[i].link = free_;
        free_ = &block[i];
    }
    blocks_.push_back(std::move(block));
    capacity_ += count;
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
