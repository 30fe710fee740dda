// combineBackendResults: one backend's result stays as it is; several are put side by side,
// and each backend's picture says which backend it draws and that backend's verdict.
#include <gtest/gtest.h>

#include "report/PerBackendResult.hpp"

using namespace pullsched::rig;

namespace {

ModeResult partWithPicture(const std::string& verdict) {
    ModeResult r;
    r.name = "open";
    r.verdict = verdict;
    r.result["jobs_completed"] = 10;
    CsvTable t({"x", "y"});
    t.addRow({1.0, 2.0});
    r.plots.push_back({"-open", GnuplotScript::tablePlot(t, "x", {"y"}, {}, {.title = "rate"})});
    return r;
}

std::string scriptOf(const ResultPlot& p) {
    return p.script.text("p.png", "whole verdict");
}

}  // namespace

TEST(PerBackendResult, OneBackendKeepsItsResultAndPicture) {
    std::vector<BackendResult> parts;
    parts.push_back({"pullsched", partWithPicture("holds")});
    ModeResult m = combineBackendResults("open", std::move(parts));
    EXPECT_EQ(m.result["jobs_completed"], 10);
    ASSERT_EQ(m.plots.size(), 1u);
    EXPECT_EQ(m.plots[0].suffix, "-open");
    EXPECT_EQ(m.plots[0].script.options().title, "rate");
    EXPECT_NE(scriptOf(m.plots[0]).find("whole verdict"), std::string::npos);
}

TEST(PerBackendResult, EachBackendsPictureNamesItsBackendAndVerdict) {
    std::vector<BackendResult> parts;
    parts.push_back({"pullsched", partWithPicture("pullsched holds 2k/s")});
    parts.push_back({"tbb", partWithPicture("tbb breaks at 1k/s")});
    ModeResult m = combineBackendResults("open", std::move(parts));
    EXPECT_EQ(m.verdict, "pullsched: pullsched holds 2k/s; tbb: tbb breaks at 1k/s");
    EXPECT_EQ(m.result["backends"]["tbb"]["jobs_completed"], 10);
    ASSERT_EQ(m.plots.size(), 2u);
    EXPECT_EQ(m.plots[0].suffix, "-pullsched-open");
    EXPECT_EQ(m.plots[1].suffix, "-tbb-open");
    EXPECT_EQ(m.plots[0].script.options().title, "pullsched: rate");
    EXPECT_EQ(m.plots[1].script.options().title, "tbb: rate");
    const std::string tbb = scriptOf(m.plots[1]);
    EXPECT_NE(tbb.find("tbb breaks at 1k/s"), std::string::npos);
    EXPECT_EQ(tbb.find("whole verdict"), std::string::npos);
    EXPECT_EQ(tbb.find("pullsched holds"), std::string::npos);
}

TEST(PerBackendResult, APictureWithItsOwnVerdictLineKeepsIt) {
    ModeResult r = partWithPicture("tbb verdict");
    CsvTable t({"x", "y"});
    t.addRow({1.0, 2.0});
    r.plots[0] = {"-open", GnuplotScript::tablePlot(t, "x", {"y"}, {}, {.verdict = "rep 3 of 5"})};
    std::vector<BackendResult> parts;
    parts.push_back({"pullsched", partWithPicture("p")});
    parts.push_back({"tbb", std::move(r)});
    ModeResult m = combineBackendResults("open", std::move(parts));
    EXPECT_EQ(m.plots[1].script.options().title, "tbb");
    EXPECT_EQ(m.plots[1].script.options().verdict, "rep 3 of 5");
}
