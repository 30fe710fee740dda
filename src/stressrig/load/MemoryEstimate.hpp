#pragma once
// What a graph run will hold in memory, said before anything is generated, and the
// refusal of a run that would not fit into the memory the machine has available.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace pullsched::rig {

/// Peak bytes per graph node, measured as the process's maximum RSS over the node count
/// (GNU time, 1 M nodes at --load=1us on 2 workers; 100 000 for pipeclean) and rounded
/// up: the graph, the runner's copy and per-node state, the job records, instruments and
/// the result tables.
inline constexpr std::size_t kRunBytesPerNode = 2200;      ///< run: 2.04 GB at 1 M (jobs CSV)
inline constexpr std::size_t kProbeBytesPerNode = 1100;    ///< breaking-point: 0.91 GB at 1 M
inline constexpr std::size_t kPatternBytesPerNode = 1100;  ///< pipeclean: 97 MB at 100 000
inline constexpr std::size_t kPeakBytesPerNode = 900;      ///< param-range: 0.75 GB at 1 M
/// What the rig holds before any graph (code, calibration, buffers).
inline constexpr std::uint64_t kBaseBytes = std::uint64_t{64} << 20;

struct MemoryNeed {
    std::size_t nodes = 0;
    std::size_t bytesPerNode = 0;
    /// kBaseBytes + nodes x bytesPerNode, saturating.
    std::uint64_t bytes() const noexcept;
};

/// MemAvailable of a /proc/meminfo text, in bytes; nullopt when it has none.
std::optional<std::uint64_t> parseMemAvailable(std::string_view meminfo);
/// The machine's available memory (/proc/meminfo, or `meminfo` for a test); nullopt when
/// it cannot be read.
std::optional<std::uint64_t> availableMemory(
    const std::filesystem::path& meminfo = "/proc/meminfo");

/// One line said up front: "needs about 2.1 GiB (1000000 nodes x 2200 bytes per node,
/// measured, + 64 MiB); 20.3 GiB available".
std::string memoryNote(const MemoryNeed& need, std::optional<std::uint64_t> available);

/// "" when the run fits into `available` (or that is unknown); else the one-line
/// refusal naming `option` (e.g. "--nodes=10000000"), the need and the available memory.
std::string memoryRefusal(const MemoryNeed& need, std::optional<std::uint64_t> available,
                          std::string_view option);

}  // namespace pullsched::rig
