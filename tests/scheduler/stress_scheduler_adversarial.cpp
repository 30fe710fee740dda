// The adversarial load (AdversarialLoad.hpp) for more than a million jobs, with more
// workers than cores and a shutdown race in every epoch. `make stress` runs it.
#include "AdversarialLoad.hpp"

#include <cstdio>

TEST(SchedulerAdversarial, MillionJobsWithShutdownRacesAreExactlyOnceOrderedAndBalanced) {
    adversarial::LoadShape shape;
    shape.workers = 6;
    shape.posters = 4;
    shape.roundsPerEpoch = 2;  // many epochs: each ends in a shutdown race
    shape.jobsPerRound = 8000;
    shape.raceMaxPosts = 50000;
    shape.orderJobs = 2000;
    shape.targetJobs = 1000000;
    const adversarial::Totals t = adversarial::runAdversarialLoad(shape);
    EXPECT_GE(t.submitted, shape.targetJobs);
    std::printf(
        "adversarial: %llu jobs, %llu failed, %llu expired, %llu cancelled, "
        "%llu posted from inside jobs, %llu shutdown races, %llu in order checks\n",
        (unsigned long long)t.submitted, (unsigned long long)t.failed,
        (unsigned long long)t.expired, (unsigned long long)t.cancelled,
        (unsigned long long)t.innerPosts, (unsigned long long)t.shutdownRaces,
        (unsigned long long)t.orderedJobs);
}
