// The .hgrm writer against text produced by HdrHistogram itself (Java, 2.1.11,
// outputPercentileDistribution(out, 5, 1000.0)) for the same recorded values.

#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "measure/LatencyHistogram.hpp"
#include "report/HgrmWriter.hpp"

using pullsched::rig::hgrmText;
using pullsched::rig::LatencyHistogram;

namespace {

// new Histogram(3600000000000L, 3); recordValue(i * 100) for i = 1..1000;
// recordValueWithCount(1000000, 5); recordValue(2500); recordValue(0).
const char* const kMixed = R"HGRM(       Value     Percentile TotalCount 1/(1-Percentile)

       0.000 0.000000000000          1           1.00
       9.903 0.100000000000        101           1.11
      20.015 0.200000000000        202           1.25
      30.111 0.300000000000        303           1.43
      40.127 0.400000000000        403           1.67
      50.207 0.500000000000        504           2.00
      55.231 0.550000000000        554           2.22
      60.319 0.600000000000        605           2.50
      65.311 0.650000000000        655           2.86
      70.335 0.700000000000        705           3.33
      75.455 0.750000000000        756           4.00
      77.951 0.775000000000        781           4.44
      80.447 0.800000000000        806           5.00
      82.943 0.825000000000        831           5.71
      85.439 0.850000000000        856           6.67
      88.063 0.875000000000        882           8.00
      89.215 0.887500000000        894           8.89
      90.559 0.900000000000        907          10.00
      91.711 0.912500000000        919          11.43
      93.055 0.925000000000        932          13.33
      94.335 0.937500000000        945          16.00
      94.911 0.943750000000        951          17.78
      95.551 0.950000000000        957          20.00
      96.127 0.956250000000        963          22.86
      96.831 0.962500000000        970          26.67
      97.407 0.968750000000        976          32.00
      97.727 0.971875000000        979          35.56
      98.047 0.975000000000        982          40.00
      98.303 0.978125000000        985          45.71
      98.751 0.981250000000        989          53.33
      99.007 0.984375000000        992          64.00
      99.135 0.985937500000        993          71.11
      99.327 0.987500000000        995          80.00
      99.455 0.989062500000        996          91.43
      99.647 0.990625000000        998         106.67
      99.839 0.992187500000       1000         128.00
      99.839 0.992968750000       1000         142.22
      99.903 0.993750000000       1001         160.00
     100.031 0.994531250000       1002         182.86
    1000.447 0.995312500000       1007         213.33
    1000.447 1.000000000000       1007
#[Mean    =       54.673, StdDeviation   =       72.756]
#[Max     =     1000.447, Total count    =         1007]
#[Buckets =           32, SubBuckets     =         2048]
)HGRM";

// One value, 7000 ns.
const char* const kSingle = R"HGRM(       Value     Percentile TotalCount 1/(1-Percentile)

       7.003 0.000000000000          1           1.00
       7.003 1.000000000000          1
#[Mean    =        7.002, StdDeviation   =        0.000]
#[Max     =        7.003, Total count    =            1]
#[Buckets =           32, SubBuckets     =         2048]
)HGRM";

}  // namespace

TEST(HgrmWriter, MatchesHdrHistogramOnAKnownDistribution) {
    LatencyHistogram h;
    for (int i = 1; i <= 1000; ++i)
        h.record(std::int64_t{i} * 100);
    h.recordN(1'000'000, 5);
    h.record(2500);
    h.record(0);
    EXPECT_EQ(hgrmText(h), kMixed);
}

TEST(HgrmWriter, SingleValue) {
    LatencyHistogram h;
    h.record(7000);
    EXPECT_EQ(hgrmText(h), kSingle);
}

TEST(HgrmWriter, ColumnsAndFooterOfAnyDistribution) {
    LatencyHistogram h;
    for (int i = 0; i < 5000; ++i)
        h.record(std::int64_t{1000} + (i * 7919) % 250'000);
    const std::string text = hgrmText(h);
    std::istringstream in(text);
    std::string line;
    std::getline(in, line);
    EXPECT_EQ(line, "       Value     Percentile TotalCount 1/(1-Percentile)");
    std::getline(in, line);
    EXPECT_EQ(line, "");
    double lastValue = -1, lastPercentile = -1;
    std::uint64_t lastCount = 0;
    int rows = 0, footer = 0;
    while (std::getline(in, line)) {
        if (line.rfind("#[", 0) == 0) {
            ++footer;
            continue;
        }
        std::istringstream cells(line);
        double value = 0, percentile = 0;
        std::uint64_t count = 0;
        ASSERT_TRUE(cells >> value >> percentile >> count) << line;
        EXPECT_GE(value, lastValue);
        EXPECT_GE(percentile, lastPercentile);
        EXPECT_GE(count, lastCount);
        lastValue = value;
        lastPercentile = percentile;
        lastCount = count;
        ++rows;
    }
    EXPECT_GT(rows, 20);
    EXPECT_EQ(lastPercentile, 1.0);
    EXPECT_EQ(lastCount, h.count());
    EXPECT_EQ(footer, 3);
    EXPECT_NE(text.find("Total count    =         5000]"), std::string::npos);
}

TEST(HgrmWriter, EmptyHistogramHasHeaderAndFooterOnly) {
    const std::string text = hgrmText(LatencyHistogram{});
    EXPECT_EQ(text,
              "       Value     Percentile TotalCount 1/(1-Percentile)\n\n"
              "#[Mean    =        0.000, StdDeviation   =        0.000]\n"
              "#[Max     =        0.000, Total count    =            0]\n"
              "#[Buckets =           32, SubBuckets     =         2048]\n");
}
