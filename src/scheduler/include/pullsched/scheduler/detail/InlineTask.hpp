#pragma once
// A move-only `void()` callable with inline storage, so posting a job with a small
// capture does not allocate (std::function may, and is copyable, which jobs never need).

#include <cstddef>
#include <new>
#include <type_traits>
#include <utility>

namespace pullsched::detail {

class InlineTask {
  public:
    /// Captures up to this size live inside the job record; larger ones go to the heap.
    /// An argument: 48 bytes hold six pointers or references (a lambda capturing a few
    /// handles, a pointer and a size), and with the ops pointer and alignment the task is
    /// 64 bytes, one cache line of the 192-byte record. Not measured against other sizes;
    /// smaller records are the next thing to try (docs/decisions.md, "Records keep their layout").
    static constexpr std::size_t kInlineBytes = 48;

    InlineTask() noexcept = default;
    InlineTask(const InlineTask&) = delete;
    InlineTask& operator=(const InlineTask&) = delete;
    ~InlineTask() { reset(); }

    template <class F>
    void emplace(F&& f) {
        using Fn = std::decay_t<F>;
        static_assert(std::is_invocable_v<Fn&>, "a job must be callable without arguments");
        reset();
        if constexpr (fitsInline<Fn>()) {
            ::new (static_cast<void*>(storage_)) Fn(std::forward<F>(f));
            ops_ = &inlineOps<Fn>;
        } else {
            Fn* heap = new Fn(std::forward<F>(f));
            ::new (static_cast<void*>(storage_)) Fn*(heap);
            ops_ = &heapOps<Fn>;
        }
    }

    void operator()() { ops_->invoke(storage_); }
    explicit operator bool() const noexcept { return ops_ != nullptr; }

    void reset() noexcept {
        if (ops_) {
            ops_->destroy(storage_);
            ops_ = nullptr;
        }
    }

    template <class F>
    static constexpr bool fitsInline() {
        return sizeof(F) <= kInlineBytes && alignof(F) <= alignof(std::max_align_t) &&
               std::is_nothrow_move_constructible_v<F>;
    }

  private:
    struct Ops {
        void (*invoke)(void*);
        void (*destroy)(void*) noexcept;
    };

    template <class Fn>
    static constexpr Ops inlineOps{
        [](void* p) { (*static_cast<Fn*>(p))(); },
        [](void* p) noexcept { static_cast<Fn*>(p)->~Fn(); },
    };
    template <class Fn>
    static constexpr Ops heapOps{
        [](void* p) { (**static_cast<Fn**>(p))(); },
        [](void* p) noexcept { delete *static_cast<Fn**>(p); },
    };

    alignas(std::max_align_t) std::byte storage_[kInlineBytes];
    const Ops* ops_ = nullptr;
};

}  // namespace pullsched::detail
