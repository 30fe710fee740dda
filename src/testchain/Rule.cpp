#include "pullsched/testchain/Rule.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <stdexcept>
#include <string>

namespace pullsched::testchain {

Rule::Rule(std::size_t maxFan) : maxFan_(maxFan), max_(maxFan) {
    if (maxFan < 1 || maxFan > FanList::kCapacity)
        throw std::invalid_argument("Rule: maxFan must be 1..16, got " + std::to_string(maxFan));
}

Rule& Rule::probability(double p) {
    mode_ = Mode::Random;
    p_ = std::isnan(p) ? 0.0 : std::clamp(p, 0.0, 1.0);
    return *this;
}

Rule& Rule::maxVal(std::size_t m) {
    mode_ = Mode::Random;
    max_ = std::min(m, maxFan_);
    if (min_ >= max_) min_ = m == 0 ? 0 : m - 1;
    return *this;
}

Rule& Rule::minVal(std::size_t m) {
    mode_ = Mode::Random;
    min_ = m;
    if (max_ <= min_) max_ = m + 1;
    return *this;
}

Rule& Rule::shuffle(std::uint64_t seed) {
    mode_ = Mode::Random;
    shuffleSeed_ = seed;
    counter_ = seed;
    return *this;
}

Rule& Rule::fixedVal(std::size_t v) {
    mode_ = Mode::Fixed;
    fixed_ = v;
    return *this;
}

Rule& Rule::atStart(std::size_t v) {
    mode_ = Mode::AtStart;
    fixed_ = v;
    return *this;
}

Rule& Rule::atJoin(std::size_t v) {
    mode_ = Mode::AtJoin;
    fixed_ = v;
    return *this;
}

Rule& Rule::atLink(std::size_t v) {
    mode_ = Mode::AtLink;
    fixed_ = v;
    return *this;
}

std::uint64_t Rule::quantiser(std::size_t maxFan) noexcept {
    const auto log2 = static_cast<unsigned>(std::bit_width(maxFan)) - 1;
    return std::uint64_t{1} << (4 + log2);
}

std::size_t Rule::drawFromHash(std::uint64_t h) const noexcept {
    const std::uint64_t q = quantiser(maxFan_);
    const double eps = 1.0 / (2.0 * static_cast<double>(q));
    const double u = static_cast<double>(h % q) / static_cast<double>(q);
    if (p_ == 0.0) return 0;
    const double miss = 1.0 - p_;
    if (u < miss) return 0;
    const double v = (u - miss) / p_;
    const double lo = static_cast<double>(min_);
    const double hi = static_cast<double>(max_);
    const double r =
        min_ == 0 ? std::floor(v * hi + 1.0 + eps) : std::floor(v * (hi - lo + 1.0) + lo + eps);
    if (r <= 0.0) return 0;
    return std::min(static_cast<std::size_t>(r), maxFan_);
}

std::size_t Rule::draw(const Node& n) {
    switch (mode_) {
        case Mode::Fixed:
            return std::min(fixed_, maxFan_);
        // Dynamic rules choose a fixed (or the neutral) rule per node; a freshly made
        // fixed rule has no shuffle state, so nothing advances here.
        case Mode::AtStart:
            return n.isStart() ? std::min(fixed_, maxFan_) : 0;
        case Mode::AtJoin:
            return n.isJoin() ? std::min(fixed_, maxFan_) : 0;
        case Mode::AtLink:
            return (!n.isJoin() && !n.isStart()) ? std::min(fixed_, maxFan_) : 0;
        case Mode::Random:
            break;
    }
    std::uint64_t h = n.hash;
    if (shuffleSeed_ != 0) {
        h *= counter_;
        ++counter_;
    }
    return drawFromHash(h);
}

bool Rule::isNeutral() const noexcept {
    switch (mode_) {
        case Mode::Random:
            return p_ == 0.0;
        default:
            return fixed_ == 0;
    }
}

bool operator==(const Rule& a, const Rule& b) noexcept {
    return a.maxFan_ == b.maxFan_ && a.mode_ == b.mode_ && a.p_ == b.p_ && a.min_ == b.min_ &&
           a.max_ == b.max_ && a.shuffleSeed_ == b.shuffleSeed_ && a.fixed_ == b.fixed_;
}

}  // namespace pullsched::testchain
