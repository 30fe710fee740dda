#pragma once
// Work that jobs create: a recursion whose every inner call spawns its children from
// inside a job. Two shapes, after Taskflow's benchmarks/fibonacci and benchmarks/skynet:
// fib(n) (a call spawns fib(n-1) and goes on with fib(n-2) itself) and skynet(depth)
// (every call spawns 10 until the depth; the leaves carry their number). The figures of a
// shape (its result and its calls) are pure functions, so every run is checked.
// Beside them, the flat work one call creates at once: a parallel loop of n iterations,
// each out[i] += 1 (loop:n) or 1 us of the calibrated load first (loop1us:n); a loop's
// calls are its iterations, and its result the indices that ran exactly once.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace pullsched::rig {

enum class RecursionKind { Fib, Skynet, Loop, Loop1us };

struct RecursionShape {
    RecursionKind kind = RecursionKind::Fib;
    unsigned size = 20;  ///< fib: n; skynet: depth; loops: iterations
};

constexpr bool isLoop(const RecursionShape& shape) noexcept {
    return shape.kind == RecursionKind::Loop || shape.kind == RecursionKind::Loop1us;
}

/// fib: n ≤ 40; skynet: depth ≤ 8 (10^9 calls would take minutes).
inline constexpr unsigned kMaxFib = 40;
inline constexpr unsigned kMaxSkynetDepth = 8;
/// loop: n <= 2^24 (64 MiB of counters); loop1us: n <= 2^20 (a second on one thread). A
/// loop does not read the stop flag: a run ends within that bound.
inline constexpr unsigned kMaxLoop = 1u << 24;
inline constexpr unsigned kMaxLoop1us = 1u << 20;

/// 10^exponent: skynet's counts (a call with `levels` levels below it covers 10^levels
/// leaves, each of its ten children 10^(levels − 1)).
constexpr std::uint64_t powerOfTen(unsigned exponent) noexcept {
    std::uint64_t p = 1;
    for (unsigned i = 0; i < exponent; ++i)
        p *= 10;
    return p;
}

/// fib(n); skynet: the sum of the leaves 0 .. 10^depth − 1; loops: n (every index once).
std::uint64_t expectedResult(const RecursionShape& shape);
/// Calls of the recursion: fib 2 fib(n+1) − 1; skynet (10^(depth+1) − 1) / 9; loops: n.
std::uint64_t callCount(const RecursionShape& shape);
/// "fib", "skynet", "loop", "loop1us": the name in `--shapes` and in the JSON.
std::string_view kindName(RecursionKind kind);
/// "fib-25", "skynet-6", "loop-4096", "loop1us-64".
std::string recursionLabel(const RecursionShape& shape);
/// `fib:N`, `skynet:D`, `loop:N` or `loop1us:N`; nullopt when the name is none of them.
/// std::invalid_argument naming the problem for a bad, too large or (loops) zero size.
std::optional<RecursionShape> parseRecursion(std::string_view text);

}  // namespace pullsched::rig
