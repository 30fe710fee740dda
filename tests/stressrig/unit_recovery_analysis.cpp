// assessRecovery on synthetic per-interval series: drain and back-under-the-limit times,
// relapses, no recovery, nothing after the spike.
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "analysis/RecoveryAnalysis.hpp"
#include "cli/StagesOption.hpp"
#include "report/StageReport.hpp"

using pullsched::rig::assessRecovery;
using pullsched::rig::RecoveryCriteria;
using pullsched::rig::RecoveryPoint;

namespace {

/// Intervals of 1 s ending at 1, 2, …: backlog and late share per interval.
std::vector<RecoveryPoint> series(std::vector<double> backlog, std::vector<double> late) {
    std::vector<RecoveryPoint> p;
    for (std::size_t k = 0; k < backlog.size(); ++k)
        p.push_back({static_cast<double>(k + 1), backlog[k], late[k]});
    return p;
}

RecoveryCriteria spikeEndingAt(double t) {
    RecoveryCriteria c;
    c.spikeEndSeconds = t;
    c.backlogLimit = 2;
    c.lateShareLimit = 0.01;
    return c;
}

}  // namespace

TEST(RecoveryAnalysis, DrainsThenComesBackUnderTheLimit) {
    // spike during 3..5 s; backlog gone at 7 s, starts on time from 8 s
    const auto p =
        series({0, 0, 50, 400, 900, 300, 1, 0, 0, 0}, {0, 0, 0.2, 0.9, 1, 1, 0.5, 0.005, 0, NAN});
    const auto r = assessRecovery(p, spikeEndingAt(5));
    EXPECT_TRUE(r.assessed);
    EXPECT_TRUE(r.recovered());
    EXPECT_DOUBLE_EQ(*r.drainSeconds, 2.0);
    EXPECT_DOUBLE_EQ(*r.underLimitSeconds, 3.0);
    EXPECT_DOUBLE_EQ(r.peakBacklog, 300.0);
    ASSERT_TRUE(r.backlogAtSpikeEnd);
    EXPECT_DOUBLE_EQ(*r.backlogAtSpikeEnd, 900.0);
    EXPECT_EQ(r.relapses, 0u);
}

TEST(RecoveryAnalysis, NoBacklogAtTheSpikesEndRecoversAtOnce) {
    const auto p = series({0, 0, 0, 0}, {0, 0, 0, 0});
    const auto r = assessRecovery(p, spikeEndingAt(2));
    EXPECT_TRUE(r.recovered());
    EXPECT_DOUBLE_EQ(*r.drainSeconds, 0.0);
    EXPECT_DOUBLE_EQ(*r.underLimitSeconds, 0.0);
}

TEST(RecoveryAnalysis, NeverDrainedIsNotRecovered) {
    const auto p = series({0, 100, 200, 300, 400}, {0, 1, 1, 1, 1});
    const auto r = assessRecovery(p, spikeEndingAt(2));
    EXPECT_TRUE(r.assessed);
    EXPECT_FALSE(r.recovered());
    EXPECT_FALSE(r.drainSeconds);
    EXPECT_FALSE(r.underLimitSeconds);
    EXPECT_DOUBLE_EQ(r.peakBacklog, 400.0);
    EXPECT_DOUBLE_EQ(r.backlogAtSpikeEnd.value_or(-1), 100.0);
}

TEST(RecoveryAnalysis, ManyRelapsesAreNoRecovery) {
    const auto p = series({0, 90, 0, 0, 5, 0}, {0, 1, 0, 0.05, 0, 0});
    const auto r = assessRecovery(p, spikeEndingAt(2));
    EXPECT_TRUE(r.cameBack());
    EXPECT_DOUBLE_EQ(*r.drainSeconds, 1.0);
    EXPECT_EQ(r.relapses, 2u);  // late at 4 s, backlogged at 5 s
    EXPECT_EQ(r.intervalsAfterRecovery, 3u);
    EXPECT_FALSE(r.recovered());
}

TEST(RecoveryAnalysis, OneStrayLateIntervalInTenStillRecovers) {
    std::vector<double> backlog(14, 0.0), late(14, 0.0);
    backlog[1] = 500;
    late[1] = 1;
    late[9] = 0.5;  // one stray late interval among the 11 after recovering at 3 s
    const auto r = assessRecovery(series(backlog, late), spikeEndingAt(2));
    EXPECT_EQ(r.relapses, 1u);
    EXPECT_EQ(r.intervalsAfterRecovery, 11u);
    EXPECT_TRUE(r.recovered());
}

TEST(RecoveryAnalysis, NothingAfterTheSpikeIsNotAssessed) {
    const auto p = series({0, 50}, {0, 1});
    EXPECT_FALSE(assessRecovery(p, spikeEndingAt(2)).assessed);
    EXPECT_FALSE(assessRecovery({}, spikeEndingAt(0)).assessed);
}

TEST(RecoveryAnalysis, TheTextSaysTheBacklogWhenTheSpikeEndedAndAfter) {
    // a spike during 1..2 s whose backlog of 596 drained within the next interval
    const auto p = series({0, 596, 0, 0}, {0, 1, 0, 0});
    const auto r = assessRecovery(p, spikeEndingAt(2));
    const std::string text = pullsched::rig::recoveryText(
        r, pullsched::rig::parseStages("1s:100,1s:1k,2s:100"), std::chrono::milliseconds{1});
    EXPECT_NE(text.find("backlog 596 when the spike ended, at most 0 after it"), std::string::npos)
        << text;
}
