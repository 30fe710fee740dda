// End-to-end runs of the stressrig binary: topology (reference values), run, breaking
// point and parameter series on small graphs. No timing is asserted (2 shared cores):
// only that the runs complete, verify, and produce well-formed outputs.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "RigBinary.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "report/CsvTable.hpp"
#include "report/GnuplotScript.hpp"

namespace fs = std::filesystem;
using pullsched::rig::CsvTable;
using pullsched::rig::GnuplotScript;

namespace {

using rigtest::Result;
using rigtest::rig;
using rigtest::slurp;

fs::path scratch(const std::string& name) {
    return rigtest::scratch("modes", name);
}

nlohmann::json parseJson(const Result& r) {
    try {
        return nlohmann::json::parse(r.out);
    } catch (const std::exception& e) {
        ADD_FAILURE() << "stdout is not one JSON object: " << e.what() << "\n" << r.out << r.err;
        return nlohmann::json::object();
    }
}

}  // namespace

TEST(StressrigTopology, BurstReferenceValues) {
    const fs::path dir = scratch("topo");
    const Result r = rig("--mode=topology --pattern=burst --nodes=64 --json", dir);
    ASSERT_EQ(r.code, 0) << r.err;
    const nlohmann::json j = parseJson(r);
    EXPECT_EQ(j.at("hash"), "0x258C8DEF5E0791BF");
    EXPECT_EQ(j.at("levels"), 26);
    EXPECT_EQ(j.at("edges"), 84);
    EXPECT_EQ(j.at("nodes"), 64);
    EXPECT_EQ(j.at("weight_sum"), 66);
    EXPECT_EQ(j.at("max_width"), 10);
    for (const char* k : {"seeds", "exits", "forks", "joins", "critical_path"})
        EXPECT_TRUE(j.contains(k)) << k;
    EXPECT_TRUE(fs::is_empty(dir));  // topology writes nothing by default
    fs::remove_all(dir);
}

TEST(StressrigTopology, DotToStdoutMatchesPublishedFile) {
    const fs::path dir = scratch("dot");
    const Result r = rig("--mode=topology --pattern=burst --nodes=64 --dot=-", dir);
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.out, slurp(fs::path(PULLSCHED_SOURCE_DIR) / "data/testchain/topo10-burst-64.dot"));
    // --dot=FILE writes the same text to the file
    const Result f =
        rig("--mode=topology --pattern=burst --nodes=64 --dot=g/burst.dot --no-render", dir);
    ASSERT_EQ(f.code, 0) << f.err;
    EXPECT_EQ(slurp(dir / "g/burst.dot"), r.out);
    fs::remove_all(dir);
}

TEST(StressrigRun, SmallGraphEndToEnd) {
    const fs::path dir = scratch("run");
    const Result r =
        rig("--pattern=burst --nodes=24 --workers=2 --load=100us --reps=2 --life-window=0s "
            "--trace-json=trace.json --json --out=res",
            dir);
    ASSERT_EQ(r.code, 0) << r.out << r.err;
    const nlohmann::json j = parseJson(r);
    EXPECT_EQ(j.at("hash_ok"), true);
    for (const char* k : {"runtime_ms", "expected_ms", "lower_bound_ms", "efficiency",
                          "avg_concurrency", "lateness_p50_us", "lateness_p99_us"})
        EXPECT_TRUE(j.contains(k) && j.at(k).is_number()) << k;
    EXPECT_GT(j.at("runtime_ms").get<double>(), 0.0);
    EXPECT_GT(j.at("lower_bound_ms").get<double>(), 0.0);

    const fs::path res = dir / "res";
    const std::string stem = "run-burst-24";
    const CsvTable jobs = CsvTable::readFile(res / (stem + ".csv"));
    EXPECT_EQ(jobs.rowCount(), 2u * 24u);  // every job of both reps
    for (const char* c : {"node", "worker", "scheduled ms", "start ms", "end ms", "lateness us"})
        EXPECT_TRUE(jobs.hasColumn(c)) << c;
    EXPECT_EQ(jobs.comment("pattern"), "burst");
    EXPECT_FALSE(jobs.comment("build type").empty());
    EXPECT_TRUE(fs::exists(res / (stem + "-reps.csv")));
    const std::string gp = slurp(res / (stem + ".gp"));
    EXPECT_NE(gp.find("$RunData"), std::string::npos);
    const std::string dot = slurp(res / (stem + ".dot"));
    EXPECT_EQ(dot.rfind("digraph {", 0), 0u);
    EXPECT_EQ(nlohmann::json::parse(slurp(dir / "trace.json")).at("traceEvents").size() > 0, true);
    if (GnuplotScript::gnuplotAvailable()) {
        // run by the mode; the script must also render by hand
        EXPECT_TRUE(GnuplotScript::render(res / (stem + ".gp")).rendered);
        EXPECT_TRUE(fs::exists(res / (stem + ".png")) || fs::exists(res / (stem + ".svg")));
    }
    fs::remove_all(dir);
}

TEST(StressrigRun, TextReportSaysWhereTheResultsAre) {
    const fs::path dir = scratch("text");
    const Result r =
        rig("--pattern=chains2 --nodes=16 --load=100us --life-window=0s --no-render --quiet", dir);
    ASSERT_EQ(r.code, 0) << r.out << r.err;
    for (const char* w : {"expected time", "actual time", "lower bound", "efficiency",
                          "avg concurrency", "lateness", "hash check", "Results in out/"})
        EXPECT_NE(r.out.find(w), std::string::npos) << w << "\n" << r.out;
    EXPECT_TRUE(r.err.empty()) << r.err;  // --quiet
    fs::remove_all(dir);
}

TEST(StressrigBreakingPoint, SmallGraphTerminatesWithConsistentFields) {
    const fs::path dir = scratch("bp");
    const Result r = rig(
        "--mode=breaking-point --pattern=burst --nodes=16 --load=100us --reps=2 --scale-thresholds "
        "--json --no-render",
        dir);
    ASSERT_EQ(r.code, 0) << r.out << r.err;
    const nlohmann::json j = parseJson(r);
    for (const char* k :
         {"stress", "stress_limit", "delta_ms", "sdev_ms", "runtime_ms", "expected_ms",
          "fail_fraction", "reference_ms", "stress_low", "stress_high"})
        EXPECT_TRUE(j.contains(k) && j.at(k).is_number()) << k;
    const double s = j.at("stress"), lo = j.at("stress_low"), hi = j.at("stress_high");
    EXPECT_LE(lo, s);
    EXPECT_LE(s, hi);
    EXPECT_GT(s, 0.0);
    EXPECT_LE(s, 64.0);
    if (j.at("found") == true) {
        EXPECT_LE(hi - lo, 0.0101);
    }
    EXPECT_GE(j.at("fail_fraction").get<double>(), 0.0);
    EXPECT_LE(j.at("fail_fraction").get<double>(), 1.0);
    EXPECT_GT(j.at("stress_limit").get<double>(), 0.0);
    const CsvTable probes = CsvTable::readFile(dir / "out/breaking-point-burst-16.csv");
    EXPECT_EQ(probes.rowCount(), j.at("probes").get<std::size_t>());
    EXPECT_TRUE(fs::exists(dir / "out/breaking-point-burst-16.gp"));
    fs::remove_all(dir);
}

TEST(StressrigParamRange, FewPointsGiveThePublishedColumns) {
    const fs::path dir = scratch("pr");
    const Result r =
        rig("--mode=param-range --pattern=isolated --from=4 --to=12 --points=4 --load=100us --json",
            dir);
    ASSERT_EQ(r.code, 0) << r.out << r.err;
    const nlohmann::json j = parseJson(r);
    for (const char* k : {"gradient", "socket", "correlation", "mean_concurrency"})
        EXPECT_TRUE(j.contains(k)) << k;
    ASSERT_EQ(j.at("points").size(), 4u);
    const CsvTable t = CsvTable::readFile(dir / "out/param-range-isolated.csv");
    ASSERT_EQ(t.columnCount(), 5u);
    const std::vector<std::string> cols{"load size", "result time", "concurrency", "avg jobtime",
                                        "avg impeded"};
    for (std::size_t i = 0; i < cols.size(); ++i)
        EXPECT_EQ(t.columns()[i].name, cols[i]);
    ASSERT_EQ(t.rowCount(), 4u);
    EXPECT_EQ(t.number(0, "load size"), 4.0);  // both ends are forced in
    EXPECT_EQ(t.number(3, "load size"), 12.0);
    EXPECT_EQ(t.comment("sample seed"), "42");
    const std::string head = slurp(dir / "out/param-range-isolated.csv");
    EXPECT_NE(
        head.find("\"load size\",\"result time\",\"concurrency\",\"avg jobtime\",\"avg impeded\""),
        std::string::npos);
    EXPECT_NE(slurp(dir / "out/param-range-isolated.gp").find("multiplot"), std::string::npos);
    fs::remove_all(dir);
}
