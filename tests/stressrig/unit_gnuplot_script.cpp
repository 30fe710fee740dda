// GnuplotScript: structure of the generated script; rendering with the machine's
// gnuplot when it is installed.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>
#include <unistd.h>

#include "RigTestSupport.hpp"
#include "report/GnuplotScript.hpp"

using namespace pullsched::rig;
namespace fs = std::filesystem;

namespace {

using rigtest::datablockOf;

/// A fresh directory per test, removed at the end.
struct TempDir : rigtest::TempDir {
    TempDir() : rigtest::TempDir("gp") {}
};

CsvTable seriesTable() {
    CsvTable t({"load size", "result time", "concurrency", "avg jobtime"});
    t.setComment("pattern", "isolated");
    t.setComment("seed", "7");
    const double results[] = {2, 4, 5, 4, 5};  // regression: 0.6·p + 2.2
    for (int i = 0; i < 5; ++i)
        t.addRow({i + 1.0, results[i], 3.0 + 0.1 * i, 2000.0 + i});
    return t;
}

bool isPng(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    char magic[8] = {};
    in.read(magic, 8);
    return std::string(magic + 1, 3) == "PNG";
}

}  // namespace

TEST(GnuplotScript, ParameterSeriesDrawsTheIdealGradientBesideTheModel) {
    const auto table = seriesTable();
    const LinearRegression model(table.numbers("load size"), table.numbers("result time"));
    const std::string with =
        GnuplotScript::parameterSeries(table, model, {}, {}, 0.25).text("s.png");
    EXPECT_NE(with.find("Ideal(p) = 0.25 * p + 2.2\n"), std::string::npos);
    EXPECT_NE(with.find("Ideal(x) with lines"), std::string::npos);
    EXPECT_NE(with.find("ideal: 0.25·p + the same offset"), std::string::npos);
    EXPECT_EQ(GnuplotScript::parameterSeries(table, model).text("s.png").find("Ideal("),
              std::string::npos);
}

TEST(GnuplotScript, ParameterSeriesScriptIsWellFormed) {
    const auto table = seriesTable();
    const auto script = GnuplotScript::parameterSeries(table).text("series.png");
    EXPECT_EQ(datablockOf(script), table.toString());  // data inlined verbatim
    for (const char* needle : {
             "set datafile separator \",;\"\n",
             "set key autotitle columnheader\n",
             "set terminal pngcairo size 1200,800",
             "set terminal png size 1200,800",
             "set terminal svg size 1200,800",
             "set output 'series.png'\n",
             "set output 'series.svg'\n",
             "set multiplot layout 2,1",
             "using 1:2 with points",
             "title 'Model: 0.600·p + 2.20'",
             "Model(p) = 0.6 * p + 2.2\n",
             "using 1:3 with impulses",
             "using 1:4 axes x1y2 with points",
             "set y2tics\n",
             "unset multiplot\n",
         })
        EXPECT_NE(script.find(needle), std::string::npos) << "missing: " << needle;
    // the datablock precedes its use, the terminal precedes the plots
    EXPECT_LT(script.find("_End_of_Data_\n\n"), script.find("set terminal"));
    EXPECT_LT(script.find("set output"), script.find("set multiplot"));
}

TEST(GnuplotScript, GenericLayouts) {
    CsvTable t({"time", "lateness", "concurrency", "cpu %"});
    t.addColumn("pattern", CsvTable::Kind::Text);
    t.addRow({std::vector<CsvTable::Cell>{0.0, 1.0, 2.0, 30.0, std::string("a")}});
    t.addRow({std::vector<CsvTable::Cell>{1.0, 2.0, 3.0, 50.0, std::string("b")}});
    const auto time =
        GnuplotScript::timePlot(t, "time", {"lateness"}, PlotOptions{.title = "it's late"})
            .text("t.png");
    EXPECT_NE(time.find("using 1:2 with points"), std::string::npos);
    EXPECT_NE(time.find("set title 'it''s late'"), std::string::npos);
    EXPECT_NE(time.find("set ylabel 'lateness'"), std::string::npos);
    EXPECT_EQ(time.find("multiplot"), std::string::npos);

    const auto table =
        GnuplotScript::tablePlot(t, "time", {"lateness", "concurrency"}, {"cpu %"}).text("x.png");
    EXPECT_NE(table.find("using 1:2 with linespoints pt 7 title 'lateness'"), std::string::npos);
    EXPECT_NE(table.find("using 1:3 with linespoints pt 7 title 'concurrency'"), std::string::npos);
    EXPECT_NE(table.find("using 1:4 axes x1y2 with linespoints pt 7 title 'cpu %'"),
              std::string::npos);
    EXPECT_NE(table.find("set y2label 'cpu %'"), std::string::npos);
    EXPECT_NE(table.find("set y2range [0:*]"), std::string::npos);  // a capped series stays flat
    EXPECT_EQ(table.find("set xtics"), std::string::npos) << "gnuplot's tics unless asked";

    // Categories numbered 1, 2, ...: whole-number tics, room beside the first and last.
    const auto categories =
        GnuplotScript::tablePlot(t, "time", {"lateness"}, {}, PlotOptions{.xTicStep = 1})
            .text("c.png");
    EXPECT_NE(categories.find("set xtics 1\nset offsets 0.5, 0.5, 0, 0\n"), std::string::npos);

    EXPECT_THROW(GnuplotScript::tablePlot(t, "time", {"pattern"}), std::invalid_argument);
    EXPECT_THROW(GnuplotScript::tablePlot(t, "time", {"nope"}), std::out_of_range);
    EXPECT_THROW(GnuplotScript::tablePlot(t, "time", {}), std::invalid_argument);
    EXPECT_EQ(GnuplotScript::quoteGp("a'b"), "'a''b'");
}

TEST(GnuplotScript, WriteDefaultsPictureNextToScript) {
    TempDir dir;
    const auto pic = GnuplotScript::parameterSeries(seriesTable()).write(dir.path / "run.gp");
    EXPECT_EQ(pic, fs::path("run.png"));
    std::ifstream in(dir.path / "run.gp");
    std::stringstream text;
    text << in.rdbuf();
    EXPECT_NE(text.str().find("set output 'run.png'"), std::string::npos);
    EXPECT_THROW(GnuplotScript::parameterSeries(seriesTable()).write(dir.path / "no/x.gp"),
                 std::runtime_error);
    EXPECT_EQ(GnuplotScript::renderHint("out/run.gp"), "(cd 'out' && gnuplot 'run.gp')");
    EXPECT_EQ(GnuplotScript::renderHint("run.gp"), "gnuplot run.gp");
}

TEST(GnuplotScript, RendersWithInstalledGnuplot) {
    if (!GnuplotScript::gnuplotAvailable()) GTEST_SKIP() << "gnuplot not installed";
    TempDir dir;
    const auto series = dir.path / "series.gp";
    GnuplotScript::parameterSeries(seriesTable(), PlotOptions{.title = "series"}).write(series);
    const auto r = GnuplotScript::render(series);
    ASSERT_TRUE(r.rendered) << r.message;
    EXPECT_EQ(r.picture, dir.path / "series.png");
    ASSERT_TRUE(fs::exists(r.picture));
    EXPECT_GT(fs::file_size(r.picture), 1000u);
    EXPECT_TRUE(isPng(r.picture));

    CsvTable t({"time", "a", "b"});
    for (int i = 0; i < 20; ++i)
        t.addRow({i * 0.5, i * 1.0, 100.0 - i});
    GnuplotScript::tablePlot(t, "time", {"a"}, {"b"}).write(dir.path / "table.gp");
    GnuplotScript::timePlot(t, "time", {"a", "b"}).write(dir.path / "time.gp");
    for (const char* name : {"table.gp", "time.gp"}) {
        const auto rr = GnuplotScript::render(dir.path / name);
        ASSERT_TRUE(rr.rendered) << name << ": " << rr.message;
        EXPECT_GT(fs::file_size(rr.picture), 1000u);
    }
}

TEST(GnuplotScript, RenderReportsFailure) {
    if (!GnuplotScript::gnuplotAvailable()) GTEST_SKIP() << "gnuplot not installed";
    TempDir dir;
    std::ofstream(dir.path / "broken.gp") << "set output 'broken.png'\nplot $Nothing using 1:2\n";
    const auto r = GnuplotScript::render(dir.path / "broken.gp");
    EXPECT_FALSE(r.rendered);
    EXPECT_NE(r.message.find("gnuplot failed"), std::string::npos) << r.message;
    EXPECT_FALSE(GnuplotScript::render(dir.path / "missing.gp").rendered);
}

TEST(GnuplotScript, TitleWrapNarrowsTheVerdictLines) {
    CsvTable t({"x", "y"});
    t.addRow({1.0, 2.0});
    const std::string verdict =
        "B differs from A beyond the noise in 5 of 5 repeated measurements: runtime ms (per "
        "rep) +55.3 %, delta ms (per rep) -101.6 %, efficiency (per rep) +28.7 %";
    PlotOptions wide;
    wide.title = "t";
    PlotOptions narrow = wide;
    narrow.titleWrap = 60;
    const auto longestLine = [&](const PlotOptions& o) {
        const std::string s =
            GnuplotScript::custom(t, "set title @TITLE@\n", o).text("p.png", verdict);
        const std::size_t from = s.find("set title \"") + 11;
        const std::string title = s.substr(from, s.find('\n', from) - from);
        std::size_t longest = 0, start = 0;
        for (std::size_t at = title.find("\\n");; at = title.find("\\n", start)) {
            longest = std::max(longest, (at == std::string::npos ? title.size() : at) - start);
            if (at == std::string::npos) break;
            start = at + 2;
        }
        return longest;
    };
    EXPECT_GT(longestLine(wide), 60u);
    EXPECT_LE(longestLine(narrow), 60u);
}
