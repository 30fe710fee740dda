// GranularitySweep: the pure steps of --mode=granularity on synthetic sweeps, no threads:
// the job sizes it tries, the ideal run of a size, when a sweep ends (saturated, over the
// run-time budget, or not yet), METG and the stop-request mark, and the sizes measured
// across sweeps.
#include <chrono>
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "analysis/GranularitySweep.hpp"

using namespace std::chrono_literals;
using pullsched::rig::GranularityPoint;
using pullsched::rig::GranularitySweep;
using pullsched::rig::Metg;
using pullsched::rig::SweepEnd;

namespace {

/// A sweep with one point per (size, efficiency, median makespan).
GranularitySweep sweepOf(const std::vector<std::vector<double>>& points) {
    GranularitySweep s;
    s.backend = "pool";
    for (const auto& p : points) {
        GranularityPoint q;
        q.jobSizeUs = p[0];
        q.efficiency = p[1];
        q.makespanUs.median = p[2];
        s.points.push_back(q);
    }
    return s;
}

}  // namespace

TEST(GranularitySweep, SizesGrowGeometricallyInWholeNanosecondsEachOnce) {
    using std::chrono::nanoseconds;
    EXPECT_EQ(pullsched::rig::geometricSizes(1us, 8us, 2.0),
              (std::vector<nanoseconds>{1us, 2us, 4us, 8us}));
    // √2 steps round to whole ns: 1000, 1414, 2000, 2828, 4000
    EXPECT_EQ(pullsched::rig::geometricSizes(1us, 4us, std::sqrt(2.0)),
              (std::vector<nanoseconds>{1000ns, 1414ns, 2000ns, 2828ns, 4000ns}));
    // sizes that round to the same ns appear once
    EXPECT_EQ(pullsched::rig::geometricSizes(1ns, 2ns, std::sqrt(2.0)),
              (std::vector<nanoseconds>{1ns, 2ns}));
    EXPECT_EQ(pullsched::rig::geometricSizes(3us, 3us, 2.0), (std::vector<nanoseconds>{3us}));
}

TEST(GranularitySweep, IdealRunIsWorkOverWorkersOrTheCriticalPath) {
    EXPECT_DOUBLE_EQ(pullsched::rig::idealRunUs(100, 10, 4, 2.0), 50.0);  // work-bound
    EXPECT_DOUBLE_EQ(pullsched::rig::idealRunUs(100, 40, 4, 2.0), 80.0);  // path-bound
}

TEST(GranularitySweep, EndsWhenSaturatedUnlessEverySizeIsAsked) {
    const GranularitySweep plateau =
        sweepOf({{1, 0.2, 10}, {2, 0.80, 10}, {4, 0.82, 10}, {8, 0.81, 10}});
    SweepEnd end;
    end.maxRunTimeUs = 1000;
    EXPECT_EQ(pullsched::rig::sweepEndAfterLastPoint(plateau, end), "saturated");
    end.saturationEnds = false;  // --sizes
    EXPECT_EQ(pullsched::rig::sweepEndAfterLastPoint(plateau, end), std::nullopt);
    // spread wider than the tolerance: not yet
    end.saturationEnds = true;
    const GranularitySweep climbing =
        sweepOf({{1, 0.2, 10}, {2, 0.55, 10}, {4, 0.70, 10}, {8, 0.90, 10}});
    EXPECT_EQ(pullsched::rig::sweepEndAfterLastPoint(climbing, end), std::nullopt);
}

TEST(GranularitySweep, EndsWhenTheLastMedianMakespanExceedsTheBudget) {
    SweepEnd end;
    end.maxRunTimeUs = 100;
    EXPECT_EQ(pullsched::rig::sweepEndAfterLastPoint(sweepOf({{1, 0.1, 50}, {2, 0.2, 101}}), end),
              "max-run-time");
    EXPECT_EQ(pullsched::rig::sweepEndAfterLastPoint(sweepOf({{1, 0.1, 101}, {2, 0.2, 100}}), end),
              std::nullopt);
    // a missing median (no measured run) ends nothing
    EXPECT_EQ(pullsched::rig::sweepEndAfterLastPoint(sweepOf({{1, 0.1, NAN}}), end), std::nullopt);
}

TEST(GranularitySweep, FinishReadsMetgAndMarksAStopUnlessAFailureCameFirst) {
    GranularitySweep s = sweepOf({{2, 0.3, 10}, {4, 0.7, 10}});
    pullsched::rig::finishSweep(s, 0.5, false);
    EXPECT_EQ(s.metg.kind, Metg::Kind::Interpolated);
    EXPECT_NEAR(s.metg.valueUs, 2 * std::sqrt(2.0), 1e-9);
    EXPECT_EQ(s.stopped, "max-size");
    pullsched::rig::finishSweep(s, 0.5, true);
    EXPECT_EQ(s.stopped, "stop request");
    s.stopped = "failure";
    pullsched::rig::finishSweep(s, 0.5, true);
    EXPECT_EQ(s.stopped, "failure");
    GranularitySweep empty;
    pullsched::rig::finishSweep(empty, 0.5, false);
    EXPECT_EQ(empty.metg.kind, Metg::Kind::NoData);
}

TEST(GranularitySweep, MeasuredSizesAreEverySweepsSizesSortedOnce) {
    const std::vector<GranularitySweep> sweeps{sweepOf({{4, 1, 1}, {1, 1, 1}}),
                                               sweepOf({{2, 1, 1}, {4, 1, 1}})};
    EXPECT_EQ(pullsched::rig::measuredSizes(sweeps), (std::vector<double>{1, 2, 4}));
    EXPECT_TRUE(pullsched::rig::measuredSizes({}).empty());
}
