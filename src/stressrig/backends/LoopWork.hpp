#pragma once
// A loop shape's work (Recursion.hpp) as a backend runs it: `out` holds one counter per
// index, all 0 before the run; iteration i spins `spinUnits` of the calibrated CPU load
// (none for loop:N) and adds 1 to out[i]. Every backend runs the same iteration, so only
// the way the range reaches the threads differs; the caller checks out[] afterwards.

#include <cstddef>
#include <cstdint>
#include <span>

#include "pullsched/testchain/ComputationalLoad.hpp"

namespace pullsched::rig {

struct LoopWork {
    std::span<std::uint32_t> out;
    std::uint64_t spinUnits = 0;

    void iteration(std::size_t i) const noexcept {
        if (spinUnits > 0) testchain::ComputationalLoad::cpuWork(spinUnits);
        ++out[i];
    }
    void range(std::size_t first, std::size_t last) const noexcept {
        for (std::size_t i = first; i < last; ++i)
            iteration(i);
    }
};

}  // namespace pullsched::rig
