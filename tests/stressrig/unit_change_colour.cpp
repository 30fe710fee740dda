// compare's picture colours a change by what it means for its metric: a faster B is
// better (green), never the colour of a failure; within the noise is neither.
#include <cmath>
#include <string>

#include <gtest/gtest.h>

#include "report/ChangeColour.hpp"

using namespace pullsched::rig;

TEST(ChangeColour, MetricNamesSayWhichDirectionIsBetter) {
    EXPECT_EQ(betterDirectionOf("runtime ms (per rep)"), BetterDirection::Lower);
    EXPECT_EQ(betterDirectionOf("lateness p99 us (per rep)"), BetterDirection::Lower);
    EXPECT_EQ(betterDirectionOf("delta ms at stress 1.5 (per run)"), BetterDirection::Lower);
    EXPECT_EQ(betterDirectionOf("jobs_expired"), BetterDirection::Lower);
    EXPECT_EQ(betterDirectionOf("reps_incomplete"), BetterDirection::Lower);
    EXPECT_EQ(betterDirectionOf("efficiency (per rep)"), BetterDirection::Higher);
    EXPECT_EQ(betterDirectionOf("avg concurrency (per rep)"), BetterDirection::Higher);
    EXPECT_EQ(betterDirectionOf("reps_complete"), BetterDirection::Higher);
    EXPECT_EQ(betterDirectionOf("breaking_stress"), BetterDirection::Higher);
    // settings and sizes have no better direction
    EXPECT_EQ(betterDirectionOf("workers"), BetterDirection::None);
    EXPECT_EQ(betterDirectionOf("nodes"), BetterDirection::None);
    EXPECT_EQ(betterDirectionOf("lower_bound_ms"), BetterDirection::None);
}

TEST(ChangeColour, BeyondTheNoiseIsBetterOrWorseByDirection) {
    // B 31 % faster: better, although the change is negative
    EXPECT_EQ(changeClassOf(Judgement::Beyond, -31.0, BetterDirection::Lower), ChangeClass::Better);
    EXPECT_EQ(changeClassOf(Judgement::Beyond, +31.0, BetterDirection::Lower), ChangeClass::Worse);
    EXPECT_EQ(changeClassOf(Judgement::Beyond, +12.0, BetterDirection::Higher),
              ChangeClass::Better);
    EXPECT_EQ(changeClassOf(Judgement::Beyond, -12.0, BetterDirection::Higher), ChangeClass::Worse);
    EXPECT_EQ(changeClassOf(Judgement::Beyond, 5.0, BetterDirection::None), ChangeClass::Changed);
    EXPECT_EQ(changeClassOf(Judgement::Beyond, std::nan(""), BetterDirection::Lower),
              ChangeClass::Changed);
}

TEST(ChangeColour, WithinTheNoiseAndNoJudgementIgnoreTheDirection) {
    EXPECT_EQ(changeClassOf(Judgement::Within, -40.0, BetterDirection::Lower),
              ChangeClass::WithinNoise);
    EXPECT_EQ(changeClassOf(Judgement::None, -40.0, BetterDirection::Lower),
              ChangeClass::NoJudgement);
}

TEST(ChangeColour, BetterIsGreenAndNoClassSharesAColour) {
    EXPECT_EQ(changeColour(ChangeClass::Better), "#2e7d32");
    const ChangeClass all[] = {ChangeClass::Better, ChangeClass::Worse, ChangeClass::Changed,
                               ChangeClass::WithinNoise, ChangeClass::NoJudgement};
    for (const ChangeClass a : all) {
        EXPECT_FALSE(changeLegend(a).empty());
        EXPECT_NE(changeColour(a), "#c62828") << changeLegend(a);  // red: correctness only
        for (const ChangeClass b : all) {
            if (a != b) {
                EXPECT_NE(changeColour(a), changeColour(b)) << changeLegend(a);
            }
        }
    }
}
