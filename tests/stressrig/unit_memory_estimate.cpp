// What a graph run will need in memory, and the refusal of one that would not fit, with
// injected /proc/meminfo texts and memory figures.
#include <gtest/gtest.h>

#include <fstream>

#include "RigTestSupport.hpp"
#include "cli/MemoryRefusal.hpp"
#include "cli/UsageError.hpp"
#include "load/MemoryEstimate.hpp"

using namespace pullsched::rig;

namespace {

constexpr std::uint64_t kGiB = std::uint64_t{1} << 30;

constexpr const char* kMeminfo =
    "MemTotal:       24576000 kB\n"
    "MemFree:        20000000 kB\n"
    "MemAvailable:   16777216 kB\n"
    "Buffers:          123456 kB\n";

}  // namespace

TEST(MemoryEstimate, NodesTimesBytesPerNodePlusTheBase) {
    const MemoryNeed need{10'000'000, kProbeBytesPerNode};
    EXPECT_EQ(need.bytes(), 10'000'000ull * kProbeBytesPerNode + kBaseBytes);
    EXPECT_EQ((MemoryNeed{SIZE_MAX, SIZE_MAX}.bytes()), UINT64_MAX);  // saturates
}

TEST(MemoryEstimate, ReadsMemAvailable) {
    EXPECT_EQ(parseMemAvailable(kMeminfo), 16 * kGiB);
    EXPECT_EQ(parseMemAvailable("MemTotal: 1 kB\n"), std::nullopt);
    EXPECT_EQ(parseMemAvailable("XMemAvailable: 5 kB\n"), std::nullopt);  // another key
    EXPECT_EQ(parseMemAvailable("MemAvailable: lots\n"), std::nullopt);
    EXPECT_EQ(parseMemAvailable(""), std::nullopt);

    const auto dir = rigtest::scratch("memory", "meminfo");
    std::ofstream(dir / "meminfo") << kMeminfo;
    EXPECT_EQ(availableMemory(dir / "meminfo"), 16 * kGiB);
    EXPECT_EQ(availableMemory(dir / "missing"), std::nullopt);
    rigtest::fs::remove_all(dir);
}

TEST(MemoryEstimate, RefusesWhatWouldNotFitInOneLine) {
    // 10 M nodes of a breaking-point search: about 10.3 GiB
    const MemoryNeed need{10'000'000, kProbeBytesPerNode};
    const std::string why = memoryRefusal(need, 8 * kGiB, "--nodes=10000000");
    EXPECT_EQ(why,
              "--nodes=10000000 would need about 10.3 GiB of memory (10000000 nodes x 1100 "
              "bytes per node, measured, + 64 MiB), but only 8.0 GiB is available "
              "(MemAvailable): use fewer nodes");
    EXPECT_EQ(why.find('\n'), std::string::npos);
    EXPECT_EQ(memoryRefusal(need, 16 * kGiB, "--nodes=10000000"), "");     // fits
    EXPECT_EQ(memoryRefusal(need, need.bytes(), "--nodes=10000000"), "");  // exactly fits
    EXPECT_NE(memoryRefusal(need, need.bytes() - 1, "--nodes=10000000"), "");
    EXPECT_EQ(memoryRefusal(need, std::nullopt, "--nodes=10000000"), "");  // unknown: run
}

TEST(MemoryEstimate, SaysUpFrontWhatARunNeeds) {
    EXPECT_EQ(memoryNote({1'000'000, kRunBytesPerNode}, 16 * kGiB),
              "memory: needs about 2.1 GiB (1000000 nodes x 2200 bytes per node, measured, + "
              "64 MiB); 16.0 GiB available");
    EXPECT_EQ(memoryNote({1000, kPatternBytesPerNode}, std::nullopt),
              "memory: needs about 65 MiB (1000 nodes x 1100 bytes per node, measured, + 64 "
              "MiB); available memory unknown");
}

TEST(MemoryEstimate, ARefusalIsAUsageError) {
    // Far beyond any machine: refused whatever this one has available.
    EXPECT_THROW(refuseIfTooLarge({SIZE_MAX / 2, 1024}, "--nodes=huge"), UsageError);
    EXPECT_NO_THROW(refuseIfTooLarge({2, 1}, "--nodes=2"));
}
