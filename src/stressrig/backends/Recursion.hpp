#pragma once
// Work that jobs create: a recursion whose every inner call spawns its children from
// inside a job. Two shapes, after Taskflow's benchmarks/fibonacci and benchmarks/skynet:
// fib(n) (a call spawns fib(n-1) and goes on with fib(n-2) itself) and skynet(depth)
// (every call spawns 10 until the depth; the leaves carry their number). The figures of a
// shape (its result and its calls) are pure functions, so every run is checked.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace pullsched::rig {

enum class RecursionKind { Fib, Skynet };

struct RecursionShape {
    RecursionKind kind = RecursionKind::Fib;
    unsigned size = 20;  ///< fib: n; skynet: depth
};

/// fib: n ≤ 40; skynet: depth ≤ 8 (10^9 calls would take minutes).
inline constexpr unsigned kMaxFib = 40;
inline constexpr unsigned kMaxSkynetDepth = 8;

/// 10^exponent: skynet's counts (a call with `levels` levels below it covers 10^levels
/// leaves, each of its ten children 10^(levels − 1)).
constexpr std::uint64_t powerOfTen(unsigned exponent) noexcept {
    std::uint64_t p = 1;
    for (unsigned i = 0; i < exponent; ++i)
        p *= 10;
    return p;
}

/// fib(n); skynet: the sum of the leaves 0 .. 10^depth − 1.
std::uint64_t expectedResult(const RecursionShape& shape);
/// Calls of the recursion: fib 2 fib(n+1) − 1; skynet (10^(depth+1) − 1) / 9.
std::uint64_t callCount(const RecursionShape& shape);
/// "fib-25", "skynet-6".
std::string recursionLabel(const RecursionShape& shape);
/// `fib:N` or `skynet:D`; nullopt when the name is neither. std::invalid_argument naming
/// the problem for a bad or too large size.
std::optional<RecursionShape> parseRecursion(std::string_view text);

}  // namespace pullsched::rig
