#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace pullsched::testchain {

/// Per-machine store of load calibrations, so a run does not spend a second calibrating
/// again. One small text file per key (CPU model + build + load mode). A disabled cache
/// (no directory) loads nothing and stores nothing.
class CalibrationCache {
  public:
    /// Uses `dir` (created on first store); nullopt disables the cache.
    explicit CalibrationCache(std::optional<std::filesystem::path> dir);

    /// $XDG_CACHE_HOME/pullsched, else $HOME/.cache/pullsched, else nullopt.
    static std::optional<std::filesystem::path> defaultDirectory();
    static CalibrationCache fromEnvironment() { return CalibrationCache{defaultDirectory()}; }

    bool enabled() const noexcept { return dir_.has_value(); }
    const std::optional<std::filesystem::path>& directory() const noexcept { return dir_; }

    /// The speed stored under key; nullopt if absent, unreadable, or for another key.
    std::optional<double> load(const std::string& key) const;
    /// Stores speed under key; false if disabled or the file cannot be written.
    bool store(const std::string& key, double speed) const;
    /// File that holds key (named by a hash of the key).
    std::filesystem::path fileFor(const std::string& key) const;

  private:
    std::optional<std::filesystem::path> dir_;
};

}  // namespace pullsched::testchain
