// The scheduler's trace dump of a rig run, as `make trace` makes it (trace builds only):
// the dump is complete and merged by time, has one lane per worker and the event kinds a
// run must produce, comes with its picture and Perfetto export, and tracing does not
// change what the run computes.
#include <filesystem>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "RigTestSupport.hpp"
#include "pullsched/scheduler/Scheduler.hpp"
#include "report/TraceDumpReport.hpp"

namespace fs = std::filesystem;
using namespace pullsched::rig;

TEST(TraceDump, ARigRunDumpsEveryWorkerInTimeOrder) {
    if (!pullsched::Scheduler::traceCompiledIn())
        GTEST_SKIP() << "this build has no trace points (configure with -DPULLSCHED_TRACE=ON)";
    const fs::path dir = rigtest::scratch("trace", "dump");
    const rigtest::Result r = rigtest::rig(
        "--mode=run --pattern=burst --nodes=256 --workers=2 --load=50us --life-window=0s "
        "--trace-dump --no-render --quiet --out=out",
        dir);
    ASSERT_EQ(r.code, 0) << r.err;
    for (const char* f : {"run-burst-256-trace-dump.txt", "run-burst-256-trace-dump.gp",
                          "run-burst-256-trace-dump.json"})
        EXPECT_TRUE(fs::exists(rigtest::latestRun(dir / "out") / f)) << f;

    const TraceDump d = TraceDump::parse(
        rigtest::slurp(rigtest::latestRun(dir / "out") / "run-burst-256-trace-dump.txt"));
    EXPECT_TRUE(d.timeOrdered());
    EXPECT_EQ(d.lanes(), 2u) << "one lane per worker";
    EXPECT_EQ(d.dropped(), 0u);
    const auto counts = d.counts();
    for (const char* kind : {"token-acquired", "token-dropped", "dispatch"})
        EXPECT_GT(counts.count(kind) ? counts.at(kind) : 0u, 0u) << kind;
    // every node job and the planning jobs were dispatched (or run as continuations)
    const std::size_t jobs = (counts.count("dispatch") ? counts.at("dispatch") : 0) +
                             (counts.count("continuation") ? counts.at("continuation") : 0);
    EXPECT_GE(jobs, 256u);

    const nlohmann::json env = nlohmann::json::parse(
        rigtest::slurp(rigtest::latestRun(dir / "out") / "run-burst-256.json"));
    EXPECT_EQ(env["result"]["hash_check"], "ok") << "tracing must not change the computation";
    EXPECT_EQ(env["result"]["trace_dump_events"], d.events().size());
    const nlohmann::json perfetto = nlohmann::json::parse(
        rigtest::slurp(rigtest::latestRun(dir / "out") / "run-burst-256-trace-dump.json"));
    EXPECT_GT(perfetto["traceEvents"].size(), 2u);
    fs::remove_all(dir);
}
