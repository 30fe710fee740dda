// --mode=topology: the reference values of the burst graph, the DOT of the published
// file, and each option recorded in the configuration and applied.
#include <filesystem>
#include <string>

#include "RigTestSupport.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace fs = std::filesystem;
using nlohmann::json;
using rigtest::Result;
using rigtest::rig;
using rigtest::slurp;

namespace {

json topology(const std::string& args, const fs::path& dir) {
    const Result r = rig("--mode=topology --no-render --json " + args, dir);
    EXPECT_EQ(r.code, 0) << r.err;
    return rigtest::stdoutEnvelope(r);
}

}  // namespace

TEST(StressrigTopologyMode, BurstReferenceValues) {
    const fs::path dir = rigtest::scratch("topology-mode", "ref");
    const json j = topology("--pattern=burst --nodes=64", dir);
    EXPECT_EQ(j.at("mode"), "topology");
    EXPECT_EQ(j.at("exit_status"), 0);
    const json& r = j.at("result");
    EXPECT_EQ(r.at("hash"), "0x258C8DEF5E0791BF");
    EXPECT_EQ(r.at("levels"), 26);
    EXPECT_EQ(r.at("edges"), 84);
    EXPECT_EQ(r.at("nodes"), 64);
    EXPECT_EQ(r.at("weight_sum"), 66);
    EXPECT_EQ(r.at("max_width"), 10);
    for (const char* k : {"seeds", "exits", "forks", "joins", "critical_path_weight", "work_ms",
                          "critical_path_ms", "lower_bound_ms"})
        EXPECT_TRUE(r.contains(k)) << k;
    // 66 x 500us of work; lower bound max(33 ms / 2, critical path)
    EXPECT_DOUBLE_EQ(r.at("work_ms").get<double>(), 33.0);
    EXPECT_DOUBLE_EQ(r.at("lower_bound_ms").get<double>(), 16.5);
    fs::remove_all(dir);
}

TEST(StressrigTopologyMode, DotIsThePublishedFile) {
    const fs::path dir = rigtest::scratch("topology-mode", "dot");
    const Result r = rig("--mode=topology --pattern=burst --nodes=64 --no-render --quiet", dir);
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(slurp(rigtest::latestRun(dir / "out") / "topology-burst-64.dot"),
              slurp(fs::path(PULLSCHED_SOURCE_DIR) / "data/testchain/topo10-burst-64.dot"));
    // the text report does not contradict itself about the work
    EXPECT_NE(r.out.find("total work          33.0ms  (66 x 500µs)"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("0.000 ms"), std::string::npos) << r.out;
    fs::remove_all(dir);
}

TEST(StressrigTopologyMode, OptionsAreRecordedAndApplied) {
    const fs::path dir = rigtest::scratch("topology-mode", "options");
    const json ref = topology("--pattern=burst --nodes=64", dir);

    const json workers = topology("--pattern=burst --nodes=64 --workers=4", dir);
    EXPECT_EQ(workers.at("configuration").at("workers"), 4);
    // work / 4 = 8.25 ms < critical path: the bound is the critical path now
    EXPECT_DOUBLE_EQ(workers.at("result").at("lower_bound_ms").get<double>(),
                     workers.at("result").at("critical_path_ms").get<double>());
    EXPECT_LT(workers.at("result").at("lower_bound_ms").get<double>(),
              ref.at("result").at("lower_bound_ms").get<double>());

    const json load = topology("--pattern=burst --nodes=64 --load=100us", dir);
    EXPECT_EQ(load.at("configuration").at("load_us"), 100.0);
    EXPECT_DOUBLE_EQ(load.at("result").at("work_ms").get<double>(), 6.6);

    const json nodes = topology("--pattern=burst --nodes=32", dir);
    EXPECT_EQ(nodes.at("configuration").at("nodes"), 32);
    EXPECT_EQ(nodes.at("result").at("nodes"), 32);
    EXPECT_TRUE(fs::exists(rigtest::latestRun(dir / "out") / "topology-burst-32.dot"));

    const json seed = topology("--pattern=burst --nodes=64 --seed=7", dir);
    EXPECT_EQ(seed.at("configuration").at("seed"), 7);
    EXPECT_EQ(seed.at("result").at("seed"), 7);
    EXPECT_NE(seed.at("result").at("hash"), ref.at("result").at("hash"));

    const json fan = topology("--pattern=burst --nodes=64 --fan=2", dir);
    EXPECT_EQ(fan.at("configuration").at("fan"), 2);
    EXPECT_EQ(fan.at("result").at("max_fan"), 2);

    const json pattern = topology("--pattern=chains2 --nodes=64", dir);
    EXPECT_EQ(pattern.at("configuration").at("pattern"), "chains2");
    EXPECT_EQ(pattern.at("result").at("pattern"), "chains2");
    EXPECT_NE(pattern.at("result").at("hash"), ref.at("result").at("hash"));

    const json rules = topology("--rules='expand:p=0.5,max=3' --nodes=20", dir);
    EXPECT_EQ(rules.at("configuration").at("rules"), "expand:p=0.5,max=3");
    EXPECT_EQ(rules.at("result").at("pattern"), "custom");
    EXPECT_TRUE(fs::exists(rigtest::latestRun(dir / "out") / "topology-custom-20.dot"));
    fs::remove_all(dir);
}

TEST(StressrigTopologyMode, RunOptionsAreRejected) {
    const fs::path dir = rigtest::scratch("topology-mode", "reject");
    const Result r = rig("--mode=topology --reps=3", dir);
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("run"), std::string::npos) << r.err;  // names the mode that takes it
    EXPECT_FALSE(fs::exists(dir / "out"));
    fs::remove_all(dir);
}

TEST(StressrigTopologyMode, ATaskBenchShapeShowsNeitherRulesNorSeed) {
    const fs::path dir = rigtest::scratch("topology-mode", "taskbench");
    const Result r = rig("--mode=topology --pattern=stencil_1d:8x20 --no-render --quiet", dir);
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("Topology: pattern stencil_1d-8x20 (a Task Bench shape), 160 nodes\n"),
              std::string::npos)
        << r.out;
    EXPECT_EQ(r.out.find(", seed "), std::string::npos) << r.out;
    const Result preset = rig("--mode=topology --pattern=burst --no-render --quiet", dir);
    EXPECT_NE(preset.out.find(", 64 nodes, maxFan 16, seed 55\n"), std::string::npos) << preset.out;
    fs::remove_all(dir);
}
