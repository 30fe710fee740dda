#pragma once

#include <cstdint>

namespace pullsched::testchain {

/// The 64-bit mix the reference graphs were hashed with (old Boost `hash_combine`).
/// Written out here because newer Boost changed the mix, which would change every graph hash.
constexpr std::uint64_t hashCombine(std::uint64_t h, std::uint64_t k) noexcept {
    constexpr std::uint64_t m = 0xc6a4a7935bd1e995ULL;
    k *= m;
    k ^= k >> 47;
    k *= m;
    h ^= k;
    h *= m;
    h += 0xe6546b64ULL;
    return h;
}

}  // namespace pullsched::testchain
