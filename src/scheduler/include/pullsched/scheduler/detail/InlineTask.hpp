#pragma once
// A move-only `void()` callable with inline storage, so posting a job with a small
// capture does not allocate (std::function may, and is copyable, which jobs never need).
// Once run, the storage holds the job's value instead (kept by emplace<F, true>), in
// place when it fits as a capture would, so a typed job allocates no more than a void one.

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

    /// `KeepValue`: what the callable returns stays here after the run, for value<R>().
    template <class F, bool KeepValue = false>
    void emplace(F&& f) {
        using Fn = std::decay_t<F>;
        static_assert(std::is_invocable_v<Fn&>, "a job must be callable without arguments");
        using R = std::conditional_t<KeepValue, std::invoke_result_t<Fn&>, void>;
        reset();
        if constexpr (fitsInline<Fn>()) {
            ::new (static_cast<void*>(storage_)) Fn(std::forward<F>(f));
            ops_ = &inlineOps<Fn, R>;
        } else {
            Fn* heap = new Fn(std::forward<F>(f));
            ::new (static_cast<void*>(storage_)) Fn*(heap);
            ops_ = &heapOps<Fn, R>;
        }
    }

    /// A callable that runs in slices (a coroutine's job, see CoroutineJob): `bool step()`
    /// runs the next slice and says whether it was the last; `take()` then gives the value
    /// (KeepValue). After a slice that was not the last it stays in place for the next run.
    template <class F, bool KeepValue = false>
    void emplaceResumable(F&& f) noexcept {
        using Fn = std::decay_t<F>;
        static_assert(fitsInline<Fn>(), "a resumable callable lives inside the record");
        using R = std::conditional_t<KeepValue, decltype(std::declval<Fn&>().take()), void>;
        reset();
        ::new (static_cast<void*>(storage_)) Fn(std::forward<F>(f));
        ops_ = &resumableOps<Fn, R>;
    }

    /// Runs the callable (one slice of a resumable one) and destroys it once it finished;
    /// its value, if kept, takes its place. When the callable throws, it is left for reset().
    void operator()() { ops_ = ops_->invoke(storage_); }
    explicit operator bool() const noexcept { return ops_ != nullptr; }

    /// Destroy what has not run (a job that ended without running or threw), keep a value.
    void releaseCallable() noexcept {
        if (ops_ && !ops_->isValue) reset();
    }
    /// The value a job that ran returned (emplace<F, true>). Valid until reset().
    template <class R>
    R& value() noexcept {
        if constexpr (fitsInline<R>()) {
            return *std::launder(reinterpret_cast<R*>(storage_));
        } else {
            return **std::launder(reinterpret_cast<R**>(storage_));
        }
    }

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
        /// Runs and destroys the callable; returns the ops of what the storage then holds.
        const Ops* (*invoke)(void*);
        void (*destroy)(void*) noexcept;
        bool isValue;
    };

    /// Runs the job, destroys the callable and puts its value where the callable was (or
    /// on the heap, allocated before the callable goes: a throw leaves it for reset()).
    template <class R, class Run, class Destroy>
    static const Ops* keepValue(void* p, Run&& run, Destroy&& destroy) {
        static_assert(!std::is_reference_v<R> && std::is_move_constructible_v<R>,
                      "a job's value must be a movable object type");
        if constexpr (fitsInline<R>()) {
            R v = run();
            destroy();
            ::new (p) R(std::move(v));  // nothrow: fitsInline
        } else {
            R* heap = new R(run());
            destroy();
            ::new (p) R*(heap);
        }
        return &valueOps<R>;
    }

    template <class Fn, class R>
    static constexpr Ops inlineOps{
        [](void* p) -> const Ops* {
            Fn& fn = *static_cast<Fn*>(p);
            if constexpr (std::is_void_v<R>) {
                fn();
                fn.~Fn();
                return nullptr;
            } else {
                return keepValue<R>(
                    p, [&fn] { return fn(); }, [&fn] { fn.~Fn(); });
            }
        },
        [](void* p) noexcept { static_cast<Fn*>(p)->~Fn(); },
        false,
    };
    template <class Fn, class R>
    static constexpr Ops heapOps{
        [](void* p) -> const Ops* {
            Fn* fn = *static_cast<Fn**>(p);
            if constexpr (std::is_void_v<R>) {
                (*fn)();
                delete fn;
                return nullptr;
            } else {
                return keepValue<R>(
                    p, [fn] { return (*fn)(); }, [fn] { delete fn; });
            }
        },
        [](void* p) noexcept { delete *static_cast<Fn**>(p); },
        false,
    };
    /// A member function, so that it may name its own ops (the class is complete here).
    template <class Fn, class R>
    static const Ops* resumableInvoke(void* p) {
        Fn& fn = *static_cast<Fn*>(p);
        if (!fn.step()) return &resumableOps<Fn, R>;  // suspended: runs again later
        if constexpr (std::is_void_v<R>) {
            fn.~Fn();
            return nullptr;
        } else {
            return keepValue<R>(
                p, [&fn] { return fn.take(); }, [&fn] { fn.~Fn(); });
        }
    }
    template <class Fn, class R>
    static constexpr Ops resumableOps{
        &resumableInvoke<Fn, R>,
        [](void* p) noexcept { static_cast<Fn*>(p)->~Fn(); },
        false,
    };
    template <class R>
    static constexpr Ops valueOps{
        nullptr,
        [](void* p) noexcept {
            if constexpr (fitsInline<R>()) {
                static_cast<R*>(p)->~R();
            } else {
                delete *static_cast<R**>(p);
            }
        },
        true,
    };

    alignas(std::max_align_t) std::byte storage_[kInlineBytes];
    const Ops* ops_ = nullptr;
};

}  // namespace pullsched::detail
