#pragma once

#include <cstddef>
#include <cstdint>

#include "pullsched/testchain/Node.hpp"

namespace pullsched::testchain {

/// One generator rule (spec §2): maps a node to 0..maxFan, deterministically from the
/// node's current hash. Builder methods follow the reference's semantics exactly,
/// because the published graphs depend on them.
class Rule {
  public:
    /// How the value is chosen. The dynamic modes pick a fixed value by node kind.
    enum class Mode { Random, Fixed, AtStart, AtJoin, AtLink };

    static constexpr std::uint64_t kDefaultShuffle = 55;

    /// A neutral rule (p = 0: always 0) with range 0..maxFan. maxFan must be 1..16.
    explicit Rule(std::size_t maxFan = 16);

    // --- builder (each returns *this); random keys switch back to Mode::Random ---
    Rule& probability(double p);  ///< clamped to [0,1]
    Rule& maxVal(std::size_t m);  ///< max = min(m, maxFan); if min >= max: min = m-1
    Rule& minVal(std::size_t m);  ///< min = m; if max <= min: max = m+1
    Rule& shuffle(std::uint64_t seed = kDefaultShuffle);  ///< seed 0 disables
    Rule& fixedVal(std::size_t v);                        ///< v regardless of p
    Rule& value(std::size_t v) { return fixedVal(v); }
    Rule& atStart(std::size_t v);  ///< v on start nodes, else 0
    Rule& atJoin(std::size_t v);   ///< v on join nodes, else 0
    Rule& atLink(std::size_t v);   ///< v on nodes with exactly one predecessor, else 0

    /// Quantiser Q = 1 << (4 + floor(log2 maxFan)): 256 for 16, 128 for 8.
    static std::uint64_t quantiser(std::size_t maxFan) noexcept;

    /// Draws the value for n and advances the shuffle counter (if shuffling).
    std::size_t draw(const Node& n);
    /// Restarts the shuffle sequence; the generator does this at every build.
    void resetCounter() noexcept { counter_ = shuffleSeed_; }

    /// The pure random draw of §2 steps 2–6 on an already shuffled hash.
    std::size_t drawFromHash(std::uint64_t h) const noexcept;

    Mode mode() const noexcept { return mode_; }
    double probabilityValue() const noexcept { return p_; }
    std::size_t minValue() const noexcept { return min_; }
    std::size_t maxValue() const noexcept { return max_; }
    std::uint64_t shuffleSeed() const noexcept { return shuffleSeed_; }
    std::size_t fixedValue() const noexcept { return fixed_; }
    std::size_t maxFan() const noexcept { return maxFan_; }
    std::uint64_t counter() const noexcept { return counter_; }
    /// True for a rule that always yields 0 (the default rule).
    bool isNeutral() const noexcept;

    /// Equal configuration (the shuffle counter is run state and not compared).
    friend bool operator==(const Rule& a, const Rule& b) noexcept;

  private:
    std::size_t maxFan_;
    Mode mode_ = Mode::Random;
    double p_ = 0.0;
    std::size_t min_ = 0;
    std::size_t max_;
    std::uint64_t shuffleSeed_ = 0;
    std::uint64_t counter_ = 0;
    std::size_t fixed_ = 0;
};

}  // namespace pullsched::testchain
