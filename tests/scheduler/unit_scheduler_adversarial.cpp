// The adversarial load (AdversarialLoad.hpp) in a short version, so every CI run has it.
#include "AdversarialLoad.hpp"

#include <cstdio>

TEST(SchedulerAdversarial, ShortRunIsExactlyOnceOrderedAndBalanced) {
    adversarial::LoadShape shape;
    shape.workers = 4;
    shape.posters = 3;
    shape.roundsPerEpoch = 2;
    shape.jobsPerRound = 1500;
    shape.raceMaxPosts = 3000;
    shape.orderJobs = 300;
    shape.targetJobs = 20000;
    const adversarial::Totals t = adversarial::runAdversarialLoad(shape);
    EXPECT_GE(t.submitted, shape.targetJobs);
    EXPECT_GT(t.failed, 0u);
    EXPECT_GT(t.cancelled, 0u);
    EXPECT_GT(t.innerPosts, 0u);
    std::printf(
        "adversarial (short): %llu jobs, %llu failed, %llu expired, %llu cancelled, "
        "%llu posted from inside jobs, %llu shutdown races, %llu in order checks\n",
        (unsigned long long)t.submitted, (unsigned long long)t.failed,
        (unsigned long long)t.expired, (unsigned long long)t.cancelled,
        (unsigned long long)t.innerPosts, (unsigned long long)t.shutdownRaces,
        (unsigned long long)t.orderedJobs);
}
