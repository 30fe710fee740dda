// The Reporter classes every verdict by what it means (envelope `verdict_class`, the
// picture titles' colour, the page's verdict box) and warns about a busy machine only for
// modes that measure: topology runs nothing and compare reads stored results.
#include <filesystem>
#include <sstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "RigTestSupport.hpp"
#include "load/StopRequest.hpp"
#include "measure/Environment.hpp"
#include "report/Reporter.hpp"

namespace fs = std::filesystem;
using namespace pullsched::rig;

namespace {

ModeResult pictured() {
    ModeResult r;
    r.name = "sample";
    r.verdict = "the verdict";
    CsvTable t({"x", "y"});
    t.addRow({1.0, 2.0});
    t.addRow({2.0, 3.0});
    r.tables.push_back({"", t});
    r.plots.push_back({"", GnuplotScript::tablePlot(t, "x", {"y"})});
    return r;
}

struct Reported {
    int status = -1;
    std::string out, err;
    nlohmann::json envelope;
    std::string script, page;
};

Reported report(const ModeResult& r, const fs::path& dir, bool measures, bool busy) {
    OutputSettings o;
    o.out = dir.string();
    o.noRender = true;
    std::ostringstream out, err;
    Environment env = Environment::capture();
    // busy: a load far above the cores; idle: so many cores that no real load at the
    // end (taken by the Reporter) reaches half of them
    env.cores = busy ? 1u : 1u << 30;
    env.loadAverageStart = busy ? 1e6 : 0.0;
    StopRequest stop;
    Reporter rep(o, out, err);
    Reported run;
    run.status = rep.report(r, {"sample-mode", nlohmann::json::object(), measures}, env, stop);
    run.out = out.str();
    run.err = err.str();
    const fs::path folder = rigtest::latestRun(dir);  // the run's folder
    if (fs::exists(folder / "sample.json"))
        run.envelope = nlohmann::json::parse(rigtest::slurp(folder / "sample.json"));
    if (fs::exists(folder / "sample.gp")) run.script = rigtest::slurp(folder / "sample.gp");
    if (fs::exists(folder / "sample.html")) run.page = rigtest::slurp(folder / "sample.html");
    return run;
}

bool mentionsCompetition(const Reported& r) {
    return (r.out + r.err).find("competition for the CPU") != std::string::npos;
}

}  // namespace

TEST(ReportVerdictClass, BusyMachineNoteOnlyForModesThatMeasure) {
    const fs::path dir = rigtest::scratch("verdict_class", "busy");
    const Reported measured = report(pictured(), dir / "measured", true, true);
    ASSERT_EQ(measured.status, 0) << measured.err;
    EXPECT_TRUE(mentionsCompetition(measured)) << measured.out << measured.err;
    EXPECT_EQ(measured.envelope.value("verdict_class", ""), "caveat");

    const Reported reading = report(pictured(), dir / "reading", false, true);
    ASSERT_EQ(reading.status, 0) << reading.err;
    EXPECT_FALSE(mentionsCompetition(reading)) << reading.out << reading.err;
    EXPECT_EQ(reading.envelope.value("verdict_class", ""), "ok");
    EXPECT_TRUE(reading.envelope["environment"].value("busy", false));  // still recorded
}

TEST(ReportVerdictClass, ColoursFollowTheMeaningNotTheExitStatus) {
    const fs::path dir = rigtest::scratch("verdict_class", "colours");
    const Reported ok = report(pictured(), dir / "ok", true, false);
    EXPECT_EQ(ok.envelope.value("verdict_class", ""), "ok");
    EXPECT_NE(ok.script.find("textcolor rgb '#2e7d32'"), std::string::npos) << ok.script;
    EXPECT_NE(ok.page.find("class=\"verdict measured\""), std::string::npos);

    ModeResult missed = pictured();
    missed.overload = true;  // e.g. deadline misses: exit 0, but not green
    const Reported amber = report(missed, dir / "overload", true, false);
    EXPECT_EQ(amber.status, 0);
    EXPECT_EQ(amber.envelope.value("verdict_class", ""), "caveat");
    EXPECT_NE(amber.script.find("textcolor rgb '#b26a00'"), std::string::npos) << amber.script;
    EXPECT_NE(amber.page.find("class=\"verdict caveat\""), std::string::npos);

    ModeResult warned = pictured();
    warned.warnings.push_back("2 of 20 runs incomplete: excluded");
    EXPECT_EQ(report(warned, dir / "warned", true, false).envelope.value("verdict_class", ""),
              "caveat");

    ModeResult lost = pictured();
    lost.overload = true;
    lost.systemFailure = true;
    lost.failures.push_back("a job was lost");
    const Reported red = report(lost, dir / "failure", true, false);
    EXPECT_EQ(red.status, 1);
    EXPECT_EQ(red.envelope.value("verdict_class", ""), "failure");
    EXPECT_NE(red.script.find("textcolor rgb '#c62828'"), std::string::npos) << red.script;
}
