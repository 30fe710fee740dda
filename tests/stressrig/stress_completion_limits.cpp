// Large graph runs whose schedules outlast the rig's old fixed completion limits (30 s in
// pipeclean, 60 s in param-range): a long run is a result, never a correctness failure.
// Minutes each; no timed assertions (the wait follows the plan, and a late run is
// reported as late, with exit 0).
#include <gtest/gtest.h>

#include <string>

#include "RigTestSupport.hpp"

namespace {

void expectNoCorrectnessFailure(const rigtest::JsonRun& run) {
    ASSERT_TRUE(run.j.is_object()) << run.r.err;
    EXPECT_TRUE(run.j.at("failures").empty()) << run.j.at("failures");
    EXPECT_EQ(run.j.at("exit_status"), 0);
    const std::string verdict = run.j.at("verdict");
    EXPECT_EQ(verdict.find("FAILED"), std::string::npos) << verdict;
    EXPECT_EQ(run.r.out.find("jobs lost"), std::string::npos);
}

}  // namespace

// Seven patterns of 100 000 nodes at the default 1 ms per level: isolated plans 100 s.
TEST(StressCompletionLimits, PipecleanOf100000Nodes) {
    const auto dir = rigtest::scratch("stress", "pipeclean");
    const rigtest::JsonRun run = rigtest::rigJson("--mode=pipeclean --nodes=100000", dir);
    expectNoCorrectnessFailure(run);
    for (const auto& p : run.j.at("result").at("patterns"))
        EXPECT_NE(p.at("result"), "FAILED") << p.dump();
    rigtest::fs::remove_all(dir);
}

// One load peak of 100 000 jobs of 500 µs: over a minute of work on two workers.
TEST(StressCompletionLimits, ParamRangeTo100000) {
    const auto dir = rigtest::scratch("stress", "param-range");
    const rigtest::JsonRun run = rigtest::rigJson("--mode=param-range --to=100000 --points=2", dir);
    expectNoCorrectnessFailure(run);
    EXPECT_EQ(run.j.at("result").at("points_measured"), 2);
    rigtest::fs::remove_all(dir);
}
