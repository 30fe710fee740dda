// `stressrig compare DIR_A DIR_B` end to end: two runs of one mode compare (exit 0, a
// table row per metric, through the Reporter); an altered copy is judged beyond the
// noise and an identical copy within it; different modes, graphs, missing manifests or a
// result of an older rig (former count names) are refused with exit 2, one line, nothing
// written.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "RigTestSupport.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "report/CsvTable.hpp"

namespace fs = std::filesystem;
using nlohmann::json;
using pullsched::rig::CsvTable;
using rigtest::rig;
using rigtest::slurp;

namespace {

const std::string kRun =
    "--mode=run --pattern=burst --nodes=16 --load=100us --workers=2 --reps=5 --life-window=0s "
    "--quiet --no-render ";

json metric(const json& envelope, const std::string& name) {
    for (const json& m : envelope.at("result").at("metrics"))
        if (m.at("metric") == name) return m;
    ADD_FAILURE() << "no metric " << name;
    return json::object();
}

/// Lines of stderr other than the busy-machine warning every invocation may print.
int messageLines(const std::string& s) {
    int n = 0;
    std::istringstream in(s);
    for (std::string line; std::getline(in, line);)
        n += line.rfind("stressrig: warning: load average", 0) != 0;
    return n;
}

}  // namespace

TEST(CompareMode, TwoRunsCompareWithATableRowPerMetric) {
    const fs::path dir = rigtest::scratch("compare", "runs");
    ASSERT_EQ(rig(kRun + "--out=a", dir).code, 0);
    ASSERT_EQ(rig(kRun + "--out=b", dir).code, 0);
    const auto r = rig("compare a b --out=cmp --quiet", dir);
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("runtime ms (per rep)"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("Verdict: "), std::string::npos);
    const json e =
        json::parse(slurp(rigtest::latestRun(dir / "cmp") / "compare-run-burst-16.json"));
    EXPECT_EQ(e.at("mode"), "compare");
    EXPECT_EQ(e.at("result").at("compared_mode"), "run");
    const json runtime = metric(e, "runtime ms (per rep)");
    EXPECT_EQ(runtime.at("n_a"), 5);
    EXPECT_EQ(runtime.at("n_b"), 5);
    ASSERT_TRUE(runtime.at("p_value").is_number());
    EXPECT_GT(runtime.at("p_value").get<double>(), 0.0);
    EXPECT_LE(runtime.at("p_value").get<double>(), 1.0);
    // single values: no judgement possible
    EXPECT_EQ(metric(e, "jobs_posted").at("judgement"), "same value");
    const json lateness = metric(e, "lateness_p99_us");
    if (lateness.at("a") != lateness.at("b")) {
        EXPECT_EQ(lateness.at("judgement"), "no judgement possible (single value)");
    }
    // the table holds a row per metric; the page is there like for every result
    const CsvTable t =
        CsvTable::readFile(rigtest::latestRun(dir / "cmp") / "compare-run-burst-16.csv");
    EXPECT_EQ(t.rowCount(), e.at("result").at("metrics").size());
    EXPECT_TRUE(fs::exists(rigtest::latestRun(dir / "cmp") / "compare-run-burst-16.html"));
    EXPECT_TRUE(fs::exists(rigtest::latestRun(dir / "cmp") / "compare-run-burst-16.gp"));
    fs::remove_all(dir);
}

// Two runs into one --out: compare takes their run folders, or the --out folder itself
// (then its newest run, or the newest of the name --result gives).
TEST(CompareMode, ReadsRunFoldersAndAnOutFoldersNewestRun) {
    const fs::path dir = rigtest::scratch("compare", "folders");
    ASSERT_EQ(rig(kRun + "--out=out --name=first", dir).code, 0);
    const fs::path first = rigtest::latestRun(dir / "out");
    ASSERT_EQ(rig(kRun + "--out=out --name=second", dir).code, 0);
    const fs::path second = rigtest::latestRun(dir / "out");
    const struct {
        std::string args, a, b;
    } cases[] = {
        {"compare '" + first.string() + "' '" + second.string() + "'", "first", "second"},
        {"compare out '" + (first / "first.json").string() + "'", "second", "first"},
        {"compare out out --result=first", "first", "first"},
    };
    for (const auto& c : cases) {
        fs::remove_all(dir / "cmp");
        const auto r = rig(c.args + " --out=cmp --quiet", dir);
        ASSERT_EQ(r.code, 0) << c.args << "\n" << r.err;
        const json e =
            json::parse(slurp(rigtest::latestRun(dir / "cmp") / ("compare-" + c.b + ".json")));
        EXPECT_EQ(e.at("result").at("baseline").at("name"), c.a) << c.args;
        EXPECT_EQ(e.at("result").at("candidate").at("name"), c.b) << c.args;
        EXPECT_EQ(fs::path(e.at("result").at("baseline").at("directory").get<std::string>())
                      .filename()
                      .string()
                      .rfind(c.a + "-", 0),
                  0u)
            << c.args << ": read from the run's folder";
    }
    fs::remove_all(dir);
}

// Each backend both results ran is compared rep by rep, whichever was first in each.
TEST(CompareMode, EveryBackendBothRanIsComparedRepByRep) {
    const fs::path dir = rigtest::scratch("compare", "backends");
    ASSERT_EQ(rig(kRun + "--backends=pullsched,pool --out=a", dir).code, 0);
    ASSERT_EQ(rig(kRun + "--backends=pool,pullsched --out=b", dir).code, 0);
    const auto r = rig("compare a b --out=cmp --quiet", dir);
    ASSERT_EQ(r.code, 0) << r.err;
    const json e =
        json::parse(slurp(rigtest::latestRun(dir / "cmp") / "compare-run-burst-16.json"));
    for (const char* backend : {"pullsched", "pool"}) {
        const json runtime = metric(e, std::string(backend) + ": runtime ms (per rep)");
        EXPECT_EQ(runtime.at("n_a"), 5) << backend;
        EXPECT_EQ(runtime.at("n_b"), 5) << backend;
    }
    fs::remove_all(dir);
}

TEST(CompareMode, JudgesAnAlteredCopyBeyondAndAnIdenticalCopyWithinTheNoise) {
    const fs::path dir = rigtest::scratch("compare", "judged");
    ASSERT_EQ(rig(kRun + "--out=a", dir).code, 0);
    // copies of the run's folder: compare reads an --out folder's newest run (a) and a
    // run's folder (same, slower) alike
    fs::copy(rigtest::latestRun(dir / "a"), dir / "same");
    fs::copy(rigtest::latestRun(dir / "a"), dir / "slower");
    // every rep of B slower than every rep of A: a difference no noise explains
    const fs::path reps = dir / "slower" / "run-burst-16-reps.csv";
    CsvTable t = CsvTable::readFile(reps);
    // every B rep longer than the slowest A rep (a busy machine's outlier included), at
    // fixed values: the table's figures below do not depend on how long A's reps took
    double slowest = 0;
    for (double v : t.numbers("runtime ms"))
        slowest = std::max(slowest, v);
    ASSERT_LT(slowest, 100000.0) << "an A rep took 100 s";
    CsvTable doubled;
    for (const auto& c : t.columns())
        doubled.addColumn(c.name, c.kind);
    for (std::size_t i = 0; i < t.rowCount(); ++i) {
        std::vector<CsvTable::Cell> row;
        for (std::size_t c = 0; c < t.columnCount(); ++c) {
            CsvTable::Cell cell = t.cell(i, c);
            // large enough that a %g format would switch to an exponent
            if (t.columns()[c].name == "runtime ms") cell = 100000.0 + static_cast<double>(i);
            row.push_back(cell);
        }
        doubled.addRow(row);
    }
    doubled.writeFile(reps);

    const auto same = rig("--mode=compare --baseline=a --candidate=same --out=c1 --quiet", dir);
    ASSERT_EQ(same.code, 0) << same.err;
    const json s = json::parse(slurp(rigtest::latestRun(dir / "c1") / "compare-run-burst-16.json"));
    EXPECT_EQ(s.at("result").at("beyond_noise"), 0);
    EXPECT_DOUBLE_EQ(metric(s, "runtime ms (per rep)").at("p_value").get<double>(), 1.0);
    EXPECT_NE(metric(s, "runtime ms (per rep)")
                  .at("judgement")
                  .get<std::string>()
                  .find("within the noise"),
              std::string::npos);

    const auto slower = rig("compare a slower --out=c2 --quiet", dir);
    ASSERT_EQ(slower.code, 0) << slower.err;
    const json w = json::parse(slurp(rigtest::latestRun(dir / "c2") / "compare-run-burst-16.json"));
    const json runtime = metric(w, "runtime ms (per rep)");
    // complete separation: the exact p is 2 / C(nA + nB, nA) (2/252 when all 5 reps ran)
    const int n = runtime.at("n_a").get<int>();
    ASSERT_EQ(runtime.at("n_b").get<int>(), n);
    ASSERT_GE(n, 4) << "4 reps each are needed to show any difference at 0.05";
    double arrangements = 1;
    for (int i = 1; i <= n; ++i)
        arrangements = arrangements * (n + i) / i;
    EXPECT_NEAR(runtime.at("p_value").get<double>(), 2.0 / arrangements, 1e-9);
    EXPECT_NE(runtime.at("judgement").get<std::string>().find("beyond the noise: B higher"),
              std::string::npos);
    EXPECT_EQ(w.at("result").at("beyond_noise"), 1);
    EXPECT_NE(w.at("verdict").get<std::string>().find("runtime ms (per rep)"), std::string::npos);
    // one number format in the table: fixed notation, 4 significant digits
    const auto row = slower.out.find("  runtime ms (per rep)");
    ASSERT_NE(row, std::string::npos) << slower.out;
    const std::string line = slower.out.substr(row, slower.out.find('\n', row) - row);
    EXPECT_EQ(line.find("e+"), std::string::npos) << line;
    EXPECT_NE(line.find("1000"), std::string::npos) << line;
    fs::remove_all(dir);
}

TEST(CompareMode, RefusesDifferentModesGraphsAndMissingManifests) {
    const fs::path dir = rigtest::scratch("compare", "refused");
    ASSERT_EQ(rig(kRun + "--out=run", dir).code, 0);
    ASSERT_EQ(rig(kRun + "--out=seed7 --seed=7", dir).code, 0);
    ASSERT_EQ(
        rig("--mode=topology --pattern=burst --nodes=16 --quiet --no-render --out=topo", dir).code,
        0);
    fs::create_directories(dir / "empty");
    fs::create_directories(dir / "broken");
    { std::ofstream(dir / "broken" / "x.json") << "{ not json"; }
    // a result of an older rig: its counts under their former names
    fs::copy(rigtest::latestRun(dir / "run"), dir / "old");
    {
        std::string manifest = slurp(dir / "old" / "run-burst-16.json");
        const std::string now = "\"jobs_posted\"";
        manifest.replace(manifest.find(now), now.size(), "\"jobs_total\"");
        std::ofstream(dir / "old" / "run-burst-16.json") << manifest;
    }
    const struct {
        std::string args, message;
    } cases[] = {
        {"compare run topo", "different modes"},
        {"compare run seed7", "different graphs: seed"},
        {"compare run empty", "no readable result manifest"},
        {"compare run missing", "does not exist"},
        {"compare run broken/x.json", "is not a stressrig result manifest"},
        {"compare run old", "was written by an older stressrig (its result has 'jobs_total'"},
        {"compare run", "usage: stressrig compare DIR_A DIR_B"},
        {"--mode=compare --baseline=run", "compare needs two results"},
    };
    for (const auto& c : cases) {
        const auto r = rig(c.args + " --out=cmp --quiet", dir);
        EXPECT_EQ(r.code, 2) << c.args << "\n" << r.err;
        EXPECT_NE(r.err.find(c.message), std::string::npos) << c.args << "\n" << r.err;
        EXPECT_EQ(messageLines(r.err), 1) << r.err;
        EXPECT_FALSE(fs::exists(dir / "cmp")) << c.args << ": nothing is written";
    }
    fs::remove_all(dir);
}
