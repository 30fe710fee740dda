// The adversarial load (AdversarialLoad.hpp) in a short version, so every CI run has it.
#include "AdversarialLoad.hpp"

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
    EXPECT_GT(t.cascadesCancelled, 0u);
    EXPECT_GT(t.crossWaits, 0u);
    EXPECT_GT(t.viewWaits, 0u);
    adversarial::printTotals("adversarial (short)", t);
}
