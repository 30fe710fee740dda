// --placement: the three choices become the scheduler's pinning and spreading settings,
// and a pinned rig scheduler really binds each worker to one CPU.
#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "cli/OptionTable.hpp"
#include "cli/PlacementOption.hpp"
#include "load/SchedulerFactory.hpp"
#include "pullsched/scheduler/Scheduler.hpp"

#if defined(__linux__)
#include <sched.h>
#endif

using namespace pullsched;
using namespace pullsched::rig;

TEST(Placement, EachChoiceSetsPinningAndSpreading) {
    const SchedulerConfig spread = schedulerConfig(2, Placement::Spread);
    EXPECT_EQ(spread.pinWorkers, WorkerPinning::None);
    EXPECT_TRUE(spread.spreadWorkers);
    EXPECT_EQ(spread.workers, 2u);
    const SchedulerConfig pinned = schedulerConfig(3, Placement::Pinned);
    EXPECT_EQ(pinned.pinWorkers, WorkerPinning::FirstCpus);
    EXPECT_FALSE(pinned.spreadWorkers);
    const SchedulerConfig os = schedulerConfig(2, Placement::Os);
    EXPECT_EQ(os.pinWorkers, WorkerPinning::None);
    EXPECT_FALSE(os.spreadWorkers);
    EXPECT_EQ(toString(Placement::Spread), "spread");
    EXPECT_EQ(toString(Placement::Pinned), "pinned");
    EXPECT_EQ(toString(Placement::Os), "os");
    EXPECT_EQ(placementNote(Placement::Spread), "");  // the default goes unsaid
    EXPECT_NE(placementNote(Placement::Pinned).find("pinned"), std::string_view::npos);
    EXPECT_NE(placementNote(Placement::Os).find("OS alone"), std::string_view::npos);
}

TEST(Placement, OptionParsesEachNameAndDefaultsToSpread) {
    for (const auto& [arg, want] :
         std::vector<std::pair<std::string, Placement>>{{"", Placement::Spread},
                                                        {"--placement=spread", Placement::Spread},
                                                        {"--placement=pinned", Placement::Pinned},
                                                        {"--placement=os", Placement::Os}}) {
        PlacementOption option;
        OptionTable t;
        option.declare(t);
        std::vector<std::string> args;
        if (!arg.empty()) args.push_back(arg);
        t.parse(args);
        EXPECT_EQ(option.placement(), want) << arg;
    }
    PlacementOption option;
    OptionTable t;
    option.declare(t);
    EXPECT_ANY_THROW(t.parse({"--placement=everywhere"}));
}

#if defined(__linux__)
namespace {

/// How many CPUs each worker's thread may use, seen from one job per worker.
std::multiset<int> cpuCountsOfWorkers(Placement placement) {
    Scheduler sched(schedulerConfig(2, placement));
    std::mutex m;
    std::multiset<int> counts;
    std::atomic<unsigned> arrived{0};
    for (int i = 0; i < 2; ++i)
        sched.postDetached([&] {
            cpu_set_t set;
            CPU_ZERO(&set);
            sched_getaffinity(0, sizeof set, &set);
            {
                std::lock_guard lock(m);
                counts.insert(CPU_COUNT(&set));
            }
            arrived.fetch_add(1);  // hold this worker until both started: one job each
            while (arrived.load() < 2)
                std::this_thread::yield();
        });
    sched.drain();
    return counts;
}

int processCpuCount() {
    cpu_set_t set;
    CPU_ZERO(&set);
    sched_getaffinity(0, sizeof set, &set);
    return CPU_COUNT(&set);
}

}  // namespace

TEST(Placement, PinnedBindsEachWorkerToOneCpuTheOthersLeaveTheProcessSet) {
    const int all = processCpuCount();
    if (all < 2) GTEST_SKIP() << "needs 2 CPUs";
    EXPECT_EQ(cpuCountsOfWorkers(Placement::Pinned), (std::multiset<int>{1, 1}));
    EXPECT_EQ(cpuCountsOfWorkers(Placement::Os), (std::multiset<int>{all, all}));
    EXPECT_EQ(cpuCountsOfWorkers(Placement::Spread), (std::multiset<int>{all, all}));
}
#endif
