#pragma once
// Memory for coroutine frames (Task's promise): a free list per thread and size class, so
// that a fork-join recursion, which makes and ends a frame per call, reuses frames instead
// of going to the heap for each. A frame is often freed on another thread than the one
// that made it (a stolen job); the block then joins the freeing thread's list. Measured
// against plain operator new in docs/coroutines.md, "Frames".

#include <cstddef>
#include <cstdint>
#include <new>

/// 0 turns the cache off (every frame from operator new). Off under AddressSanitizer, which
/// must see each frame freed to catch a use after it.
#ifndef PULLSCHED_FRAME_CACHE
#if defined(__SANITIZE_ADDRESS__)
#define PULLSCHED_FRAME_CACHE 0
#else
#define PULLSCHED_FRAME_CACHE 1
#endif
#endif

namespace pullsched::detail {

class FrameCache {
  public:
    /// Sizes are rounded up to this; frames above kLargest come from operator new.
    static constexpr std::size_t kGrain = 64;
    static constexpr std::size_t kClasses = 16;
    static constexpr std::size_t kLargest = kGrain * kClasses;
    /// Kept per thread and class: 64 KiB of blocks (1024 of the smallest, 64 of the
    /// largest), so one thread holds at most 1 MiB. An argument, not a measurement: enough
    /// for the frames live at once in a depth-first recursion on one thread.
    static constexpr std::size_t kKeptBytes = 64 * 1024;

    static void* allocate(std::size_t size) {
        if constexpr (kEnabled) {
            if (size <= kLargest) {
                Lists& l = lists();
                const std::size_t c = classOf(size);
                if (Block* b = l.head[c]) {
                    l.head[c] = b->next;
                    --l.count[c];
                    return b;
                }
                return ::operator new((c + 1) * kGrain);
            }
        }
        return ::operator new(size);
    }

    static void deallocate(void* p, std::size_t size) noexcept {
        if constexpr (kEnabled) {
            if (size <= kLargest) {
                Lists& l = lists();
                const std::size_t c = classOf(size);
                if (!l.closed && l.count[c] < kKeptBytes / ((c + 1) * kGrain)) {
                    if (!l.reaperSet) [[unlikely]]
                        setReaper();
                    l.head[c] = ::new (p) Block{l.head[c]};
                    ++l.count[c];
                    return;
                }
                ::operator delete(p, (c + 1) * kGrain);
                return;
            }
        }
        ::operator delete(p, size);
    }

    /// Blocks this thread keeps now (for tests).
    static std::size_t keptOnThisThread() noexcept {
        std::size_t n = 0;
        for (const std::uint32_t c : lists().count)
            n += c;
        return n;
    }

  private:
    static constexpr bool kEnabled = PULLSCHED_FRAME_CACHE != 0;

    struct Block {
        Block* next;
    };
    /// Trivially destructible, so that it is never destroyed: a frame freed on this thread
    /// after the Reaper ran (a scheduler destroyed at exit) finds `closed` and goes to the heap.
    struct Lists {
        Block* head[kClasses];
        std::uint32_t count[kClasses];
        bool reaperSet;
        bool closed;
    };
    /// Frees this thread's blocks when the thread ends.
    struct Reaper {
        ~Reaper() {
            Lists& l = lists();
            l.closed = true;
            for (std::size_t c = 0; c < kClasses; ++c) {
                while (Block* b = l.head[c]) {
                    l.head[c] = b->next;
                    ::operator delete(static_cast<void*>(b), (c + 1) * kGrain);
                }
                l.count[c] = 0;
            }
        }
    };

    static constexpr std::size_t classOf(std::size_t size) noexcept {
        return size == 0 ? 0 : (size - 1) / kGrain;
    }
    static Lists& lists() noexcept {
        thread_local Lists l{};
        return l;
    }
    /// Once per thread: a thread_local with a destructor registers it at its first use.
    [[gnu::noinline]] static void setReaper() noexcept {
        thread_local Reaper reaper;
        (void)reaper;
        lists().reaperSet = true;
    }
};

}  // namespace pullsched::detail
