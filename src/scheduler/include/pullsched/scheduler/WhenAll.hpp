#pragma once
// Inside a Task, wait for several jobs at once: the Task's job suspends until every one is
// final (one resumption, whatever their number), then gets their values.
//
//   auto [mesh, light] = co_await pullsched::whenAll(s.spawn(loadMesh(s)), s.spawn(bake(s)));
//   std::vector<int> parts = co_await pullsched::whenAll(handles);   // a range of handles

#include <array>
#include <cstddef>
#include <iterator>
#include <ranges>
#include <span>
#include <tuple>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "pullsched/scheduler/JobHandle.hpp"
#include "pullsched/scheduler/JobHandleOf.hpp"
#include "pullsched/scheduler/detail/HandleAwaitable.hpp"
#include "pullsched/scheduler/detail/JobAwaiter.hpp"

namespace pullsched {

namespace detail {

/// The value type of a handle type: T for JobHandleOf<T>, void for JobHandle.
template <class H>
struct HandleValue {};
template <>
struct HandleValue<JobHandle> {
    using type = void;
};
template <class T>
struct HandleValue<JobHandleOf<T>> {
    using type = T;
};
template <class H>
using HandleValueOf = typename HandleValue<std::remove_cvref_t<H>>::type;
template <class H>
concept AnyJobHandle = requires {
    typename HandleValueOf<H>;
};

/// A tuple element: the value, or std::monostate for a job without one.
template <class T>
using ElementOf = std::conditional_t<std::is_void_v<T>, std::monostate, T>;

/// Whether every job of `handles` is final (both whenAll forms ask it before suspending).
inline bool allDone(std::span<const JobHandle> handles) {
    for (const JobHandle& h : handles)
        if (!h.done()) return false;
    return true;
}

template <class T>
ElementOf<T> elementOf(const JobHandle& h) {
    if constexpr (std::is_void_v<T>) {
        outcomeOf<void>(h);
        return {};
    } else {
        return outcomeOf<T>(h);
    }
}

}  // namespace detail

/// What whenAll(handles...) gives: awaited in a Task, a std::tuple of the jobs' values in
/// argument order (std::monostate for a JobHandle). The handles are held until then; the
/// values are copied, or moved out of a job whose last handle this was. If jobs failed or
/// did not run, the first of them in argument order throws (its exception, or JobNotRun)
/// once all are final.
template <class... Ts>
class WhenAll {
  public:
    template <detail::AnyJobHandle... Hs>
    requires(sizeof...(Hs) == sizeof...(Ts)) explicit WhenAll(Hs&&... handles)
        : handles_{JobHandle(std::forward<Hs>(handles))...} {}

  private:
    template <class A>
    friend class detail::JobAwaiter;
    bool ready() const { return detail::allDone(handles_); }
    detail::ResumeRequest request() const noexcept {
        return {std::span<const JobHandle>(handles_)};
    }
    std::tuple<detail::ElementOf<Ts>...> result() const {
        return resultOf(std::index_sequence_for<Ts...>{});
    }
    template <std::size_t... Is>
    std::tuple<detail::ElementOf<Ts>...> resultOf(std::index_sequence<Is...>) const {
        // Braced: the elements are read in order, so the first failure is the one thrown.
        return std::tuple<detail::ElementOf<Ts>...>{detail::elementOf<Ts>(handles_[Is])...};
    }

    std::array<JobHandle, sizeof...(Ts)> handles_;
};

/// What whenAll(range) gives: awaited in a Task, a std::vector of the jobs' values in the
/// range's order (nothing for JobHandles), with WhenAll's rules.
template <class T>
class WhenAllOf {
  public:
    explicit WhenAllOf(std::vector<JobHandle> handles) noexcept : handles_(std::move(handles)) {}

  private:
    template <class A>
    friend class detail::JobAwaiter;
    bool ready() const { return detail::allDone(handles_); }
    detail::ResumeRequest request() const noexcept {
        return {std::span<const JobHandle>(handles_)};
    }
    auto result() const {
        if constexpr (std::is_void_v<T>) {
            for (const JobHandle& h : handles_)
                detail::outcomeOf<void>(h);
        } else {
            std::vector<T> values;
            values.reserve(handles_.size());
            for (const JobHandle& h : handles_)
                values.push_back(detail::outcomeOf<T>(h));
            return values;
        }
    }

    std::vector<JobHandle> handles_;
};

template <class... Ts>
inline constexpr bool detail::isJobAwaitable<WhenAll<Ts...>> = true;
template <class T>
inline constexpr bool detail::isJobAwaitable<WhenAllOf<T>> = true;

/// Every handle (JobHandle or JobHandleOf<T>, of the Task's scheduler) at once; at least one.
template <detail::AnyJobHandle... Hs>
requires(sizeof...(Hs) > 0) WhenAll<detail::HandleValueOf<Hs>...> whenAll(Hs&&... handles) {
    return WhenAll<detail::HandleValueOf<Hs>...>(std::forward<Hs>(handles)...);
}

/// Every handle of a range (a vector of JobHandleOf<T>, say), copied out of it.
template <std::ranges::input_range R>
requires detail::AnyJobHandle<std::ranges::range_value_t<R>>
    WhenAllOf<detail::HandleValueOf<std::ranges::range_value_t<R>>> whenAll(R&& handles) {
    std::vector<JobHandle> held;
    if constexpr (std::ranges::sized_range<R>) held.reserve(std::ranges::size(handles));
    for (auto&& h : handles)
        held.emplace_back(std::forward<decltype(h)>(h));
    return WhenAllOf<detail::HandleValueOf<std::ranges::range_value_t<R>>>(std::move(held));
}

}  // namespace pullsched
