#include "load/MemoryEstimate.hpp"

#include <charconv>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

namespace pullsched::rig {

namespace {

std::string bytesText(std::uint64_t b) {
    const double mib = double(b) / double(1 << 20);
    if (mib < 1024) return fmt::format("{:.0f} MiB", mib);
    return fmt::format("{:.1f} GiB", mib / 1024);
}

}  // namespace

std::uint64_t MemoryNeed::bytes() const noexcept {
    std::uint64_t graph = 0;
    std::uint64_t sum = 0;
    if (__builtin_mul_overflow(std::uint64_t{nodes}, std::uint64_t{bytesPerNode}, &graph) ||
        __builtin_add_overflow(graph, kBaseBytes, &sum))
        return UINT64_MAX;
    return sum;
}

std::optional<std::uint64_t> parseMemAvailable(std::string_view meminfo) {
    constexpr std::string_view key = "MemAvailable:";
    std::size_t at = 0;
    while ((at = meminfo.find(key, at)) != std::string_view::npos) {
        if (at == 0 || meminfo[at - 1] == '\n') break;  // a whole key, not a suffix
        at += key.size();
    }
    if (at == std::string_view::npos) return std::nullopt;
    std::size_t p = at + key.size();
    while (p < meminfo.size() && meminfo[p] == ' ')
        ++p;
    std::uint64_t kb = 0;
    const auto [end, ec] = std::from_chars(meminfo.data() + p, meminfo.data() + meminfo.size(), kb);
    if (ec != std::errc{} || end == meminfo.data() + p) return std::nullopt;
    if (std::string_view(end, meminfo.data() + meminfo.size()).substr(0, 3) != " kB")
        return std::nullopt;
    std::uint64_t bytes = 0;
    if (__builtin_mul_overflow(kb, std::uint64_t{1024}, &bytes)) return UINT64_MAX;
    return bytes;
}

std::optional<std::uint64_t> availableMemory(const std::filesystem::path& meminfo) {
    std::ifstream in(meminfo);
    if (!in) return std::nullopt;
    std::stringstream ss;
    ss << in.rdbuf();
    return parseMemAvailable(ss.str());
}

std::string memoryNote(const MemoryNeed& need, std::optional<std::uint64_t> available) {
    return fmt::format(
        "memory: needs about {} ({} nodes x {} bytes per node, measured, + {}); {}",
        bytesText(need.bytes()), need.nodes, need.bytesPerNode, bytesText(kBaseBytes),
        available ? bytesText(*available) + " available" : std::string("available memory unknown"));
}

std::string memoryRefusal(const MemoryNeed& need, std::optional<std::uint64_t> available,
                          std::string_view option) {
    if (!available || need.bytes() <= *available) return {};
    return fmt::format(
        "{} would need about {} of memory ({} nodes x {} bytes per node, measured, + {}), but "
        "only {} is available (MemAvailable): use fewer nodes",
        option, bytesText(need.bytes()), need.nodes, need.bytesPerNode, bytesText(kBaseBytes),
        bytesText(*available));
}

}  // namespace pullsched::rig
