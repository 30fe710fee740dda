// tools/plot: series.gp and table.gp render our CSV files; render-all.sh renders a
// directory of .gp and .dot files and reports what it did.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include "RigTestSupport.hpp"
#include "measure/Environment.hpp"
#include "report/CsvTable.hpp"
#include "report/GnuplotScript.hpp"

using namespace pullsched::rig;
namespace fs = std::filesystem;

namespace {

const fs::path kTools = fs::path(PULLSCHED_SOURCE_DIR) / "tools" / "plot";

CsvTable seriesTable() {
    CsvTable t({"load size", "result time", "concurrency", "avg jobtime"});
    t.addComments(pullsched::rig::Environment::capture().comments());
    for (int i = 1; i <= 8; ++i)
        t.addRow({i * 10.0, 0.518 * i * 10 + 8.57, 3.3, 2050.0});
    return t;
}

}  // namespace

TEST(PlotTools, SeriesScriptRendersCsv) {
    if (!rigtest::haveTool("gnuplot")) GTEST_SKIP() << "gnuplot not installed";
    rigtest::TempDir dir("tools");
    seriesTable().writeFile(dir.path / "series.csv");
    const auto r = rigtest::runCommand("cd '" + dir.path.string() +
                                       "' && gnuplot -e \"csv='series.csv'; out='s.png'\" '" +
                                       (kTools / "series.gp").string() + "'");
    ASSERT_EQ(r.status, 0) << r.output;
    EXPECT_NE(r.output.find("Model: 0.518·p + 8.57 corr=1"), std::string::npos) << r.output;
    ASSERT_TRUE(fs::exists(dir.path / "s.png")) << r.output;
    EXPECT_GT(fs::file_size(dir.path / "s.png"), 1000u);
}

// Without y2 (docs/rig.md's example names one; both work). A text column ("class") and an
// all-empty (missing) column are left out instead of stopping gnuplot; an empty cell is a gap.
TEST(PlotTools, TableScriptRendersCsvWithoutY2) {
    if (!rigtest::haveTool("gnuplot"))
        GTEST_SKIP() << "gnuplot not installed: tools/plot/table.gp not run";
    rigtest::TempDir dir("tools");
    CsvTable t({"rate_per_s", "p99_us", "cpu_percent", "missing"});
    t.addColumn("class", CsvTable::Kind::Text);
    const double nan = std::numeric_limits<double>::quiet_NaN();
    for (int i = 1; i <= 5; ++i)
        t.addRow({i * 1000.0, i == 3 ? nan : i * 0.1, i * 15.0, nan, std::string("stable")});
    t.writeFile(dir.path / "sweep.csv");
    const auto r =
        rigtest::runCommand("cd '" + dir.path.string() + "' && gnuplot -e \"csv='sweep.csv'\" '" +
                            (kTools / "table.gp").string() + "'");
    ASSERT_EQ(r.status, 0) << r.output;
    EXPECT_EQ(r.output.find("undefined"), std::string::npos) << r.output;
    ASSERT_TRUE(fs::exists(dir.path / "sweep.png")) << r.output;
    EXPECT_GT(fs::file_size(dir.path / "sweep.png"), 1000u);
}

TEST(PlotTools, TableScriptRendersCsvWithY2AndDefaultOutput) {
    if (!rigtest::haveTool("gnuplot"))
        GTEST_SKIP() << "gnuplot not installed: tools/plot/table.gp not run";
    rigtest::TempDir dir("tools");
    CsvTable t({"rate", "p99", "cpu"});
    for (int i = 1; i <= 5; ++i)
        t.addRow({i * 1000.0, i * 0.1, i * 15.0});
    t.writeFile(dir.path / "sweep.csv");
    for (const std::string y2 : {"3", "2 3"}) {
        fs::remove(dir.path / "sweep.png");
        const auto r = rigtest::runCommand("cd '" + dir.path.string() +
                                           "' && gnuplot -e \"csv='sweep.csv'; y2='" + y2 +
                                           "'\" '" + (kTools / "table.gp").string() + "'");
        ASSERT_EQ(r.status, 0) << y2 << ": " << r.output;
        ASSERT_TRUE(fs::exists(dir.path / "sweep.png")) << y2 << ": " << r.output;
        EXPECT_GT(fs::file_size(dir.path / "sweep.png"), 1000u) << y2;
    }
}

TEST(PlotTools, TableScriptRefusesCsvWithoutNumbers) {
    if (!rigtest::haveTool("gnuplot"))
        GTEST_SKIP() << "gnuplot not installed: tools/plot/table.gp not run";
    rigtest::TempDir dir("tools");
    std::ofstream(dir.path / "text.csv") << "\"a\",\"b\"\n1,\"x\"\n2,\"y\"\n";
    const auto r =
        rigtest::runCommand("cd '" + dir.path.string() + "' && gnuplot -e \"csv='text.csv'\" '" +
                            (kTools / "table.gp").string() + "'");
    EXPECT_NE(r.status, 0) << r.output;
    EXPECT_NE(r.output.find("no numeric column"), std::string::npos) << r.output;
    EXPECT_FALSE(fs::exists(dir.path / "text.png"));  // no 0-byte picture left behind
}

TEST(PlotTools, RenderAllRendersScriptsAndGraphs) {
    if (!rigtest::haveTool("gnuplot") || !rigtest::haveTool("dot"))
        GTEST_SKIP() << "gnuplot or dot missing";
    rigtest::TempDir dir("tools");
    GnuplotScript::parameterSeries(seriesTable()).write(dir.path / "a.gp");
    std::ofstream(dir.path / "g.dot") << "digraph G { a -> b; }\n";
    // a run's folder, also reached through --out's latest link: rendered once
    fs::create_directory(dir.path / "run-20261129T031502Z");
    GnuplotScript::parameterSeries(seriesTable()).write(dir.path / "run-20261129T031502Z" / "b.gp");
    fs::create_directory_symlink("run-20261129T031502Z", dir.path / "latest");
    const auto r = rigtest::runCommand("bash '" + (kTools / "render-all.sh").string() + "' '" +
                                       dir.path.string() + "'");
    EXPECT_EQ(r.status, 0) << r.output;
    EXPECT_NE(r.output.find("3 rendered, 0 skipped, 0 failed"), std::string::npos) << r.output;
    EXPECT_EQ(r.output.find("latest/"), std::string::npos) << r.output;
    EXPECT_GT(fs::file_size(dir.path / "a.png"), 1000u);
    EXPECT_GT(fs::file_size(dir.path / "g.svg"), 100u);
    EXPECT_GT(fs::file_size(dir.path / "run-20261129T031502Z" / "b.png"), 1000u);

    std::ofstream(dir.path / "bad.gp") << "plot $Nothing using 1:2\n";
    const auto bad = rigtest::runCommand("bash '" + (kTools / "render-all.sh").string() + "' '" +
                                         dir.path.string() + "'");
    EXPECT_EQ(bad.status, 1) << bad.output;
    EXPECT_NE(bad.output.find("FAILED"), std::string::npos) << bad.output;
}

TEST(PlotTools, RenderAllWithoutToolsOrDirectoryExitsZero) {
    rigtest::TempDir dir("tools");
    std::ofstream(dir.path / "a.gp") << "plot x\n";
    std::ofstream(dir.path / "g.dot") << "digraph G { a -> b; }\n";
    // PATH without gnuplot and dot (bash itself is called by absolute path)
    const auto r =
        rigtest::runCommand("PATH=/nonexistent /bin/bash '" + (kTools / "render-all.sh").string() +
                            "' '" + dir.path.string() + "'");
    EXPECT_EQ(r.status, 0) << r.output;
    EXPECT_NE(r.output.find("gnuplot not installed"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("graphviz (dot) not installed"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("0 rendered, 2 skipped"), std::string::npos) << r.output;

    const auto none = rigtest::runCommand("bash '" + (kTools / "render-all.sh").string() + "' '" +
                                          (dir.path / "absent").string() + "'");
    EXPECT_EQ(none.status, 0) << none.output;
    EXPECT_NE(none.output.find("nothing to render"), std::string::npos) << none.output;
}
