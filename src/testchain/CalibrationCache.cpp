#include "pullsched/testchain/CalibrationCache.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <fstream>
#include <system_error>

#include <unistd.h>

#include "pullsched/testchain/HashCombine.hpp"

namespace pullsched::testchain {

namespace fs = std::filesystem;

CalibrationCache::CalibrationCache(std::optional<fs::path> dir) : dir_(std::move(dir)) {}

std::optional<fs::path> CalibrationCache::defaultDirectory() {
    if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
        return fs::path{xdg} / "pullsched";
    if (const char* home = std::getenv("HOME"); home && *home)
        return fs::path{home} / ".cache" / "pullsched";
    return std::nullopt;
}

fs::path CalibrationCache::fileFor(const std::string& key) const {
    std::uint64_t h = 0;
    for (unsigned char c : key)
        h = hashCombine(h, c);
    return dir_.value_or(fs::path{}) / fmt::format("load-calibration-{:016x}.txt", h);
}

std::optional<double> CalibrationCache::load(const std::string& key) const {
    if (!dir_) return std::nullopt;
    std::ifstream in{fileFor(key)};
    if (!in) return std::nullopt;
    std::string keyLine;
    std::string speedLine;
    if (!std::getline(in, keyLine) || !std::getline(in, speedLine)) return std::nullopt;
    if (keyLine != "key=" + key || speedLine.rfind("speed=", 0) != 0) return std::nullopt;
    try {
        std::size_t used = 0;
        const std::string num = speedLine.substr(6);
        const double speed = std::stod(num, &used);
        if (used != num.size() || !(speed > 0.0)) return std::nullopt;
        return speed;
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

bool CalibrationCache::store(const std::string& key, double speed) const {
    if (!dir_) return false;
    std::error_code ec;
    fs::create_directories(*dir_, ec);
    if (ec) return false;
    // Write aside and rename, so a concurrent reader never sees half a file.
    const fs::path target = fileFor(key);
    fs::path tmp = target;
    tmp += fmt::format(".tmp{}", static_cast<long>(::getpid()));
    {
        std::ofstream out{tmp, std::ios::trunc};
        if (!out) return false;
        out << "key=" << key << '\n' << fmt::format("speed={}\n", speed);
        if (!out.flush()) return false;
    }
    fs::rename(tmp, target, ec);
    if (ec) {
        fs::remove(tmp, ec);
        return false;
    }
    return true;
}

}  // namespace pullsched::testchain
