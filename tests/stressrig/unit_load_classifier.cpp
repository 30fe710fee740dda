// LoadClassifier on synthetic step data: each class and the limits' boundaries.
#include <limits>
#include <vector>

#include <gtest/gtest.h>

#include "analysis/LoadClassifier.hpp"

using namespace std::chrono_literals;
using namespace pullsched::rig;

namespace {

StepMeasurement stableStep(double rate = 1000) {
    StepMeasurement s;
    s.offeredRate = rate;
    s.achievedRate = rate;
    s.backlogStart = 0;
    s.backlogEnd = 2;
    s.backlogAfterDrain = 0;
    s.latenessP99 = 500us;
    s.jobs = 10'000;
    return s;
}

LoadClass classOf(const StepMeasurement& s, ClassifierLimits l = {}) {
    return LoadClassifier(l).classify(s).loadClass;
}

}  // namespace

TEST(LoadClassifier, Names) {
    EXPECT_EQ(toString(LoadClass::Stable), "stable");
    EXPECT_EQ(toString(LoadClass::Burst), "burst");
    EXPECT_EQ(toString(LoadClass::Failure), "failure");
}

TEST(LoadClassifier, StableWithinAllLimits) {
    const auto v = LoadClassifier().classify(stableStep());
    EXPECT_EQ(v.loadClass, LoadClass::Stable);
    EXPECT_EQ(v.reason, "within all limits");
}

TEST(LoadClassifier, LatenessBoundary) {
    auto s = stableStep();
    s.latenessP99 = 1ms;
    EXPECT_EQ(classOf(s), LoadClass::Stable);
    s.latenessP99 = 1ms + 1ns;
    const auto v = LoadClassifier().classify(s);
    EXPECT_EQ(v.loadClass, LoadClass::Burst);
    EXPECT_NE(v.reason.find("p99 lateness"), std::string::npos) << v.reason;
    ClassifierLimits wide;
    wide.latenessLimit = 2ms;
    EXPECT_EQ(classOf(s, wide), LoadClass::Stable);
}

TEST(LoadClassifier, KeepUpBoundary) {
    auto s = stableStep();
    s.achievedRate = 950;  // exactly 0.95 · 1000
    EXPECT_EQ(classOf(s), LoadClass::Stable);
    s.achievedRate = 949.9;
    EXPECT_EQ(classOf(s), LoadClass::Burst);
}

TEST(LoadClassifier, BacklogBoundary) {
    auto s = stableStep();
    s.backlogEnd = 100;
    EXPECT_EQ(classOf(s), LoadClass::Stable);
    s.backlogEnd = 101;  // but drains afterwards
    EXPECT_EQ(classOf(s), LoadClass::Burst);
    s.backlogAfterDrain = 100;
    EXPECT_EQ(classOf(s), LoadClass::Burst);
    s.backlogAfterDrain = 101;
    EXPECT_EQ(classOf(s), LoadClass::Failure);
}

TEST(LoadClassifier, DrainedFlagTakesPrecedence) {
    auto s = stableStep();
    s.backlogAfterDrain = 0;
    s.drained = false;
    const auto v = LoadClassifier().classify(s);
    EXPECT_EQ(v.loadClass, LoadClass::Failure);
    EXPECT_EQ(v.reason, "backlog did not drain");
    s.backlogEnd = 5000;
    s.backlogAfterDrain = 5000;
    s.drained = true;
    EXPECT_EQ(classOf(s), LoadClass::Burst);
}

TEST(LoadClassifier, WithoutDrainPhaseGrowthDecides) {
    auto s = stableStep();
    s.backlogAfterDrain.reset();
    s.backlogStart = 10;
    s.backlogEnd = 500;
    EXPECT_EQ(classOf(s), LoadClass::Failure);
    s.backlogStart = 500;  // large but not growing
    EXPECT_EQ(classOf(s), LoadClass::Burst);
}

TEST(LoadClassifier, DropsAboveThresholdRuleOutStableAndFailOverFraction) {
    auto s = stableStep();  // 10000 jobs; default threshold 0.1 %, failure over 1 %
    s.drops = 10;           // exactly 0.1 %
    EXPECT_EQ(classOf(s), LoadClass::Stable);
    s.drops = 11;
    const auto v = LoadClassifier().classify(s);
    EXPECT_EQ(v.loadClass, LoadClass::Burst);
    EXPECT_NE(v.reason.find("11 drops of 10000 jobs > 0.1%"), std::string::npos) << v.reason;
    s.drops = 100;  // exactly 1 % of 10000
    EXPECT_EQ(classOf(s), LoadClass::Burst);
    s.drops = 101;
    EXPECT_EQ(classOf(s), LoadClass::Failure);
    s.jobs = 0;  // unknown job count: any drop fails
    s.drops = 1;
    EXPECT_EQ(classOf(s), LoadClass::Failure);
}

TEST(LoadClassifier, DropThresholdIsAParameter) {
    auto s = stableStep();
    s.drops = 1;  // 0.01 %
    ClassifierLimits strict;
    strict.dropThreshold = 0;  // any drop rules out stable
    EXPECT_EQ(classOf(s), LoadClass::Stable);
    EXPECT_EQ(classOf(s, strict), LoadClass::Burst);
    ClassifierLimits loose;
    loose.dropThreshold = 0.05;  // above the failure fraction: it moves the failure limit too
    s.drops = 400;               // 4 %
    EXPECT_EQ(classOf(s), LoadClass::Failure);
    EXPECT_EQ(classOf(s, loose), LoadClass::Stable);
    s.drops = 501;
    EXPECT_EQ(classOf(s, loose), LoadClass::Failure);
}

TEST(LoadClassifier, FewSamplesSayMaximumNotP99) {
    auto s = stableStep();
    s.latenessP99 = 3ms;
    s.latenessSamples = 75;
    const auto v = LoadClassifier().classify(s);
    EXPECT_EQ(v.loadClass, LoadClass::Burst);
    EXPECT_NE(v.reason.find("max lateness (n=75, too few for a p99) 3.00ms > 1.00ms"),
              std::string::npos)
        << v.reason;
    s.latenessSamples = 100;
    EXPECT_NE(LoadClassifier().classify(s).reason.find("p99 lateness 3.00ms"), std::string::npos);
}

TEST(LoadClassifier, MissingMeasurementsAreNeverStable) {
    auto s = stableStep();
    s.latenessP99.reset();  // no job measured
    auto v = LoadClassifier().classify(s);
    EXPECT_EQ(v.loadClass, LoadClass::Burst);
    EXPECT_NE(v.reason.find("no lateness measured"), std::string::npos) << v.reason;
    s = stableStep();
    s.achievedRate = std::numeric_limits<double>::quiet_NaN();
    v = LoadClassifier().classify(s);
    EXPECT_EQ(v.loadClass, LoadClass::Burst);
    EXPECT_NE(v.reason.find("achieved rate not measured"), std::string::npos) << v.reason;
}

TEST(LoadClassifier, FailedJobs) {
    auto s = stableStep();
    s.failures = 1;
    EXPECT_EQ(classOf(s), LoadClass::Failure);
    ClassifierLimits tolerant;
    tolerant.maxFailures = 1;
    EXPECT_EQ(classOf(s, tolerant), LoadClass::Stable);
}

TEST(LoadClassifier, SweepSummary) {
    auto burst = [](double r) {
        auto s = stableStep(r);
        s.latenessP99 = 3ms;
        return s;
    };
    auto failure = [](double r) {
        auto s = stableStep(r);
        s.drained = false;
        return s;
    };
    std::vector<StepMeasurement> steps{burst(4000),      stableStep(1000), failure(6000),
                                       stableStep(2000), failure(5000),    burst(3000)};
    const LoadClassifier c;
    auto sum = c.summarize(steps);
    ASSERT_TRUE(sum.highestStable && sum.highestBurst && sum.firstFailure);
    EXPECT_EQ(*sum.highestStable, 2000);
    EXPECT_EQ(*sum.highestBurst, 4000);
    EXPECT_EQ(*sum.firstFailure, 5000);
    EXPECT_TRUE(sum.consistent);

    steps.push_back(stableStep(7000));  // recovers above a failure: ignored, flagged
    sum = c.summarize(steps);
    EXPECT_EQ(*sum.highestStable, 2000);
    EXPECT_FALSE(sum.consistent);

    const std::vector<StepMeasurement> onlyStable{stableStep(10), stableStep(20)};
    sum = c.summarize(onlyStable);
    EXPECT_EQ(*sum.highestStable, 20);
    EXPECT_FALSE(sum.highestBurst.has_value());
    EXPECT_FALSE(sum.firstFailure.has_value());

    sum = c.summarize({});
    EXPECT_FALSE(sum.highestStable.has_value());
}

TEST(LoadClassifier, AchievedAboveOfferedIsExplainedForTheStepsThatShowIt) {
    StepMeasurement kept;
    kept.offeredRate = 1000;
    kept.achievedRate = 990;
    StepMeasurement above = kept;
    above.achievedRate = 1100;
    StepMeasurement missing = kept;
    missing.achievedRate = std::numeric_limits<double>::quiet_NaN();
    const std::vector<StepMeasurement> none{kept, missing};
    const std::vector<unsigned> workers{1, 2, 2};
    EXPECT_EQ(achievedAboveOfferedNote(none, workers, true), "");
    const std::vector<StepMeasurement> steps{kept, above, missing};
    EXPECT_EQ(achievedAboveOfferedNote(steps, workers, false),
              "note: achieved above offered (1.00k/s at 2 W): achieved counts the jobs completed "
              "in the measured interval, including a backlog left from the warm-up");
    EXPECT_NE(achievedAboveOfferedNote(steps, workers, true)
                  .find(", and random arrivals exceed their mean"),
              std::string::npos);
}
