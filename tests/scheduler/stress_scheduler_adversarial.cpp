// The adversarial load (AdversarialLoad.hpp) for more than a million jobs, with more
// workers than cores and a shutdown race in every epoch. `make stress` runs it.
#include "AdversarialLoad.hpp"

#include <cstdlib>

TEST(SchedulerAdversarial, MillionJobsWithShutdownRacesAreExactlyOnceOrderedAndBalanced) {
    adversarial::LoadShape shape;
    shape.workers = 6;
    shape.posters = 4;
    shape.roundsPerEpoch = 2;  // many epochs: each ends in a shutdown race
    shape.jobsPerRound = 8000;
    shape.raceMaxPosts = 50000;
    shape.orderJobs = 2000;
    // PULLSCHED_ADVERSARIAL_JOBS sets another size, e.g. 200000 for a sanitizer build.
    const char* jobs = std::getenv("PULLSCHED_ADVERSARIAL_JOBS");
    shape.targetJobs = jobs ? std::strtoull(jobs, nullptr, 10) : 1000000;
    const adversarial::Totals t = adversarial::runAdversarialLoad(shape);
    EXPECT_GE(t.submitted, shape.targetJobs);
    adversarial::printTotals("adversarial", t);
}
