#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>

namespace pullsched::testchain {

/// Fixed-capacity list of node indices: a node never has more than maxFan (≤ 16) links,
/// so the links live inside the node and a graph is one allocation.
class FanList {
  public:
    static constexpr std::size_t kCapacity = 16;

    std::size_t size() const noexcept { return size_; }
    bool empty() const noexcept { return size_ == 0; }
    std::uint32_t operator[](std::size_t i) const noexcept { return items_[i]; }
    std::uint32_t back() const noexcept { return items_[size_ - 1]; }
    const std::uint32_t* begin() const noexcept { return items_.data(); }
    const std::uint32_t* end() const noexcept { return items_.data() + size_; }
    std::span<const std::uint32_t> span() const noexcept { return {items_.data(), size_}; }

    void push_back(std::uint32_t idx) {
        if (size_ == kCapacity) throw std::length_error("FanList: more than 16 links on a node");
        items_[size_++] = idx;
    }
    void clear() noexcept { size_ = 0; }

    friend bool operator==(const FanList& a, const FanList& b) noexcept {
        if (a.size_ != b.size_) return false;
        for (std::size_t i = 0; i < a.size_; ++i)
            if (a.items_[i] != b.items_[i]) return false;
        return true;
    }

  private:
    std::array<std::uint32_t, kCapacity> items_{};
    std::size_t size_ = 0;
};

}  // namespace pullsched::testchain
