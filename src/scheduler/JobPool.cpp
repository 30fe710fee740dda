#include "detail/JobPool.hpp"

#include <algorithm>

namespace pullsched::detail {

JobPool::JobPool(std::size_t initialCapacity) : free_(1) {
    grow(std::max<std::size_t>(initialCapacity, 64));
}

JobPool::~JobPool() = default;

void returnToPool(JobRecord* rec) noexcept {
    rec->pool->release(rec);
}

JobRecord* JobPool::acquire() {
    JobRecord* rec = nullptr;
    while (!free_.pop(rec)) {
        std::lock_guard lock(growMutex_);
        if (free_.pop(rec)) break;
        grow(std::max<std::size_t>(capacity_ / 2, 256));  // amortised: the pool only grows
    }
    inUse_.fetch_add(1, std::memory_order_relaxed);
    lifeRefs_.fetch_add(1, std::memory_order_relaxed);
    return rec;
}

void JobPool::release(JobRecord* rec) noexcept {
    rec->recycle();
    inUse_.fetch_sub(1, std::memory_order_relaxed);
    free_.push(rec);  // reserve() in grow() keeps this from allocating
    unref();
}

void JobPool::retire() noexcept {
    unref();
}

void JobPool::unref() noexcept {
    if (lifeRefs_.fetch_sub(1, std::memory_order_acq_rel) == 1) delete this;
}

std::size_t JobPool::capacity() const {
    std::lock_guard lock(growMutex_);
    return capacity_;
}

void JobPool::grow(std::size_t count) {
    auto block = std::make_unique<JobRecord[]>(count);
    free_.reserve(count);
    for (std::size_t i = 0; i < count; ++i) {
        block[i].pool = this;
        free_.push(&block[i]);
    }
    blocks_.push_back(std::move(block));
    capacity_ += count;
}

}  // namespace pullsched::detail

namespace pullsched::detail {

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
