// The pictures that carry a verdict: each script says what it must (lanes, bars, reference
// lines with their values, axis labels), and renders with the machine's gnuplot / dot.
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>

#include <gtest/gtest.h>
#include <unistd.h>

#include "RigTestSupport.hpp"
#include "report/BreakingPointPlot.hpp"
#include "report/DotLegend.hpp"
#include "report/GnuplotScript.hpp"
#include "report/HeadroomPlots.hpp"
#include "report/PercentilePlot.hpp"
#include "report/PipecleanPlot.hpp"
#include "report/RunPictures.hpp"
#include "report/Shell.hpp"
#include "report/SweepPlot.hpp"
#include "report/TimelinePlot.hpp"

using namespace pullsched::rig;
namespace fs = std::filesystem;

namespace {

using rigtest::datablockOf;

/// A fresh directory per test, removed at the end.
struct TempDir : rigtest::TempDir {
    TempDir() : rigtest::TempDir("pic") {}
};

const double kNaN = std::nan("");

/// Data rows of the datablock (no header, no comments).
std::size_t dataRows(const std::string& script) {
    std::size_t rows = 0;
    bool header = true;
    std::istringstream in(datablockOf(script));
    for (std::string line; std::getline(in, line);) {
        if (line.empty() || line[0] == '#') continue;
        if (header) {
            header = false;
            continue;
        }
        ++rows;
    }
    return rows;
}

std::size_t count(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
        ++n;
    return n;
}

/// Renders the script when gnuplot is there; the picture must come out.
void expectRenders(const GnuplotScript& script, const std::string& stem) {
    if (!GnuplotScript::gnuplotAvailable()) GTEST_SKIP() << "gnuplot not installed";
    TempDir dir;
    const fs::path gp = dir.path / (stem + ".gp");
    script.write(gp);
    const auto r = GnuplotScript::render(gp);
    EXPECT_TRUE(r.rendered) << r.message;
    // gnuplot's warnings go to stderr but do not fail it: check there were none
    const std::string cmd =
        "cd " + shellQuote(dir.path.string()) + " && gnuplot " + stem + ".gp 2>&1 | grep -c .";
    FILE* p = popen(cmd.c_str(), "r");
    char buf[32] = {};
    ASSERT_NE(p, nullptr);
    ASSERT_NE(std::fgets(buf, sizeof buf, p), nullptr);
    pclose(p);
    EXPECT_EQ(std::string(buf), "0\n") << "gnuplot printed warnings for " << stem;
}

std::vector<TimelineJob> sampleJobs() {
    // node, state, worker, scheduled, start, end, deadline
    return {{0, "completed", 0, 0.0, 0.05, 0.5, kNaN},
            {1, "completed", 1, 0.5, 0.8, 1.2, kNaN},  // 300 µs late
            {2, "completed", 2, 0.5, 2.5, 3.0, kNaN},  // 2 ms late
            {3, "failed", 0, 1.0, 1.0, 1.1, kNaN},
            {4, "expired", -1, 1.5, kNaN, kNaN, 2.0},
            {5, "cancelled", -1, 2.0, kNaN, kNaN, 2.5}};
}

}  // namespace

TEST(TimelinePlot, ClassifiesByStateAndLateness) {
    TimelineOptions o;
    o.workers = 3;
    const auto jobs = sampleJobs();
    EXPECT_EQ(TimelinePlot::classify(jobs[0], o), TimelineClass::OnTime);
    EXPECT_EQ(TimelinePlot::classify(jobs[1], o), TimelineClass::Late);
    EXPECT_EQ(TimelinePlot::classify(jobs[2], o), TimelineClass::VeryLate);
    EXPECT_EQ(TimelinePlot::classify(jobs[3], o), TimelineClass::Failed);
    EXPECT_EQ(TimelinePlot::classify(jobs[4], o), TimelineClass::Expired);
    EXPECT_EQ(TimelinePlot::classify(jobs[5], o), TimelineClass::Cancelled);
    o.workers = 2;  // worker 2 is then unknown: not drawn on a lane that does not exist
    EXPECT_EQ(TimelinePlot::classify(jobs[2], o), TimelineClass::Other);
}

TEST(TimelinePlot, OneLanePerWorkerOneRowPerJobAndALegend) {
    TimelineOptions o;
    o.workers = 3;
    o.title = "timeline test";
    o.verdict = "schedule NOT kept";
    const std::string s = TimelinePlot::plot(sampleJobs(), o).text("t.png");
    EXPECT_EQ(dataRows(s), 6u);
    EXPECT_NE(s.find("set ytics ('worker 0' 0, 'worker 1' 1, 'worker 2' 2, 'not run' 3)"),
              std::string::npos);
    EXPECT_EQ(s.find("'worker 3'"), std::string::npos);
    // a bar style per class that occurs: on time, late, very late, failed
    EXPECT_EQ(count(s, "with boxxyerror"), 4u);
    EXPECT_NE(s.find("'completed, < 100 µs late: 1'"), std::string::npos);
    EXPECT_NE(s.find("'completed, 100 µs..1 ms late: 1'"), std::string::npos);
    EXPECT_NE(s.find("'completed, >= 1 ms late: 1'"), std::string::npos);
    EXPECT_NE(s.find("'failed (body threw): 1'"), std::string::npos);
    EXPECT_NE(s.find("expired: never started (dashed: its life window): 1"), std::string::npos);
    EXPECT_NE(s.find("cancelled: never started: 1"), std::string::npos);
    EXPECT_NE(s.find("planned start (6 jobs)"), std::string::npos);
    EXPECT_NE(s.find("set title \"timeline test\\nschedule NOT kept\""), std::string::npos);
    EXPECT_NE(s.find("set key outside"), std::string::npos);  // the legend is off the data
}

TEST(TimelinePlot, Renders) {
    TimelineOptions o;
    o.workers = 3;
    o.title = "timeline";
    expectRenders(TimelinePlot::plot(sampleJobs(), o), "timeline");
}

TEST(TimelinePlot, PicksTheMedianRepOrTheChosenOne) {
    CsvTable jobs;
    for (const char* c : {"rep", "node"})
        jobs.addColumn(c);
    jobs.addColumn("state", CsvTable::Kind::Text);
    for (const char* c : {"worker", "scheduled ms", "deadline ms", "start ms", "end ms"})
        jobs.addColumn(c);
    // rep spans: 1 → 9 ms, 2 → 3 ms, 3 → 5 ms: the median is rep 3
    const double ends[] = {9, 3, 5};
    for (int rep = 1; rep <= 3; ++rep)
        for (int node = 0; node < 4; ++node)
            jobs.addRow({double(rep), double(node), std::string("completed"), double(node % 2), 0.0,
                         kNaN, 0.01, node == 3 ? ends[rep - 1] : 1.0});
    EXPECT_EQ(TimelinePlot::medianRep(jobs), 3u);
    EXPECT_EQ(TimelinePlot::jobsOfRep(jobs, 2).size(), 4u);

    TimelineOptions o;
    o.workers = 2;
    o.title = "burst";
    const auto median = TimelinePlot::ofRunTable(jobs, std::nullopt, o);
    ASSERT_TRUE(median);
    const std::string m = median->text("m.png");
    EXPECT_NE(m.find("timeline of rep 3 of 3 (the median by run time): burst"), std::string::npos);
    EXPECT_NE(m.find("schedule kept: 4 of 4 jobs completed"), std::string::npos);
    EXPECT_EQ(dataRows(m), 4u);
    const auto chosen = TimelinePlot::ofRunTable(jobs, 1u, o);
    ASSERT_TRUE(chosen);
    EXPECT_NE(chosen->text("c.png").find("timeline of rep 1 of 3 (--rep)"), std::string::npos);
    EXPECT_FALSE(TimelinePlot::ofRunTable(jobs, 7u, o));
}

TEST(GnuplotScriptTitle, VerdictGoesUnderTheTitleWrappedAndEscaped) {
    EXPECT_EQ(GnuplotScript::titleGp("it's", ""), "'it''s'");
    EXPECT_EQ(GnuplotScript::titleGp("t", "a \"b\" c", 150), "\"t\\na \\\"b\\\" c\"");
    EXPECT_EQ(GnuplotScript::titleGp("t", "aaa bbb ccc", 7), "\"t\\naaa bbb\\nccc\"");
    // the Reporter's verdict reaches layouts that set none of their own
    CsvTable t({"x", "y"});
    t.addRow({1.0, 2.0});
    const auto plot = GnuplotScript::tablePlot(t, "x", {"y"}, {}, PlotOptions{.title = "T"});
    EXPECT_NE(plot.text("p.png", "all good").find("set title \"T\\nall good\""), std::string::npos);
    EXPECT_NE(plot.text("p.png").find("set title 'T'"), std::string::npos);
}

namespace {
BreakingPointPicture breakingPicture() {
    BreakingPointPicture p;
    p.probes = {{1.0, 10, 10, 0, false},
                {4.0, kNaN, 2.5, 1, true},
                {2.0, 5.2, 5, 0.1, false},
                {2.5, 4.9, 4, 0.6, true}};
    for (int i = 0; i <= 10; ++i)
        p.fittedCurve.emplace_back(1 + 0.3 * i, 1 / (1 + std::exp(-(1 + 0.3 * i - 2.3) * 8)));
    p.breakingStress = 2.25;
    p.fit50 = 2.3;
    p.ciLow = 2.1;
    p.ciHigh = 2.6;
    p.limitStress = 3.2;
    p.title = "breaking point test";
    return p;
}
}  // namespace

TEST(BreakingPointPlot, DrawsTheBreakingStressItsIntervalAndTheLimit) {
    const std::string s = breakingPointPlot(breakingPicture()).text("b.png");
    EXPECT_NE(s.find("set arrow 1 from first 2.25, graph 0 to first 2.25, graph 1 nohead"),
              std::string::npos);
    EXPECT_NE(s.find("set arrow 2 from first 3.2, graph 0 to first 3.2, graph 1 nohead"),
              std::string::npos);
    EXPECT_NE(s.find("'breaking stress 2.250 (bisection)'"), std::string::npos);
    EXPECT_NE(s.find("'theoretical limit 3.200 (ends at the lower bound)'"), std::string::npos);
    EXPECT_NE(s.find("set object 1 rect from first 2.1, graph 0 to first 2.6, graph 1"),
              std::string::npos);
    EXPECT_NE(s.find("95 % CI 2.100..2.600"), std::string::npos);
    // probes connected and in stress order
    EXPECT_NE(s.find("using 1:2 with linespoints"), std::string::npos);
    const std::string data = datablockOf(s);
    EXPECT_LT(data.find("\n1,"), data.find("\n2,"));
    EXPECT_LT(data.find("\n2,"), data.find("\n2.5,"));
    EXPECT_LT(data.find("\n2.5,"), data.find("\n4,"));
    EXPECT_NE(s.find("set key at screen 0.5, screen 0.01"), std::string::npos);  // under the axis
    EXPECT_EQ(dataRows(s), 4u + 11u);
}

TEST(BreakingPointPlot, LeavesOutWhatIsMissing) {
    BreakingPointPicture p = breakingPicture();
    p.breakingStress = kNaN;
    p.ciLow = p.ciHigh = kNaN;
    const std::string s = breakingPointPlot(p).text("b.png");
    EXPECT_EQ(s.find("(bisection)"), std::string::npos);
    EXPECT_EQ(s.find("set arrow 1 "), std::string::npos);
    EXPECT_EQ(s.find("set object 1 rect"), std::string::npos);
    EXPECT_NE(s.find("theoretical limit 3.200"), std::string::npos);
}

TEST(BreakingPointPlot, Renders) {
    expectRenders(breakingPointPlot(breakingPicture()), "breaking");
}

namespace {
CsvTable percentileTable(double tailUs) {
    CsvTable t({"percentile", "nines", "open lateness us", "closed lateness us"});
    const double ps[] = {0, 50, 90, 99, 99.9, 99.99, 100};
    for (double p : ps)
        t.addRow({p, 0.0, 10 + p / 10 * (p >= 99 ? tailUs / 100 : 1), 12 + p / 20});
    return t;
}
}  // namespace

TEST(PercentilePlot, TailAxisLabelledInPercent) {
    EXPECT_DOUBLE_EQ(tailAxisPosition(90), 10);
    EXPECT_NEAR(tailAxisPosition(99.9), 1000, 1e-9);
    EXPECT_DOUBLE_EQ(tailAxisPosition(100), 1e5);
    PlotOptions o;
    o.title = "percentiles";
    const std::string s =
        percentilePlot(percentileTable(1e5), "percentile", {"open lateness us"}, o).text("p.png");
    EXPECT_NE(s.find("set logscale x 10"), std::string::npos);
    for (const char* tic : {"'90 %%' 10", "'99 %%' 100", "'99.9 %%' 1000", "'99.99 %%' 10000"})
        EXPECT_NE(s.find(tic), std::string::npos) << tic;
    EXPECT_NE(s.find("1/(1-p)"), std::string::npos);
    EXPECT_NE(s.find("set logscale y 10"), std::string::npos);  // 10 µs .. 100 ms: decades
    const std::string narrow =
        percentilePlot(percentileTable(10), "percentile", {"open lateness us"}, o).text("p.png");
    EXPECT_EQ(narrow.find("set logscale y"), std::string::npos);
}

TEST(PercentilePlot, Renders) {
    PlotOptions o;
    o.title = "percentiles";
    expectRenders(percentilePlot(percentileTable(1e5), "percentile",
                                 {"open lateness us", "closed lateness us"}, o),
                  "percentiles");
}

namespace {
std::vector<SweepPoint> sweepPoints() {
    std::vector<SweepPoint> v;
    for (unsigned w : {1u, 2u})
        for (double rate : {1000.0, 2000.0, 4000.0, 8000.0}) {
            const double cap = 2500.0 * w;
            v.push_back({w, rate, std::min(rate, cap), rate < cap ? 50.0 : 5000.0,
                         rate < cap * 0.7 ? "stable"
                         : rate < cap     ? "burst"
                                          : "failure"});
        }
    return v;
}
}  // namespace

TEST(SweepPlot, OnePictureWithYEqualsXTheLimitAndTheClasses) {
    const std::string s = sweepPlot(sweepPoints(), 200, "sweep test").text("s.png");
    EXPECT_NE(
        s.find("x with lines dt 2 lw 1.5 lc rgb '#212121' title 'y = x (achieved = offered)'"),
        std::string::npos);
    EXPECT_NE(s.find("200 with lines dt 2 lw 2 lc rgb '#c62828' title 'lateness limit 200 µs'"),
              std::string::npos);
    EXPECT_EQ(count(s, "title '1 worker'"), 2u);  // rate and lateness panels
    EXPECT_EQ(count(s, "title '2 workers'"), 2u);
    for (const char* cls :
         {"'stable'", "'burst (lateness over the limit)'", "'failure (drops / no drain)'"})
        EXPECT_NE(s.find(cls), std::string::npos) << cls;
    EXPECT_EQ(s.find("'interrupted'"), std::string::npos);  // only the classes that occur
    EXPECT_NE(s.find("set xlabel 'offered rate [jobs/s]'"), std::string::npos);
    EXPECT_NE(s.find("set ylabel 'achieved rate [jobs/s]'"), std::string::npos);
    EXPECT_NE(s.find("set ytics ('1 w' 0, '2 w' 1)"), std::string::npos);
    EXPECT_EQ(dataRows(s), 8u);
}

TEST(SweepPlot, Renders) {
    expectRenders(sweepPlot(sweepPoints(), 200, "sweep"), "sweep");
}

TEST(HeadroomPlots, OverTheOfferedLoadWithCpuAndIntegerCopies) {
    CsvTable lt({"offered rate per s", "machine cpu %", "mean lateness us", "p99 lateness us",
                 "sustained"});
    lt.addRow({100.0, 60.0, 10.0, 20.0, 1.0});
    lt.addRow({200.0, 40.0, 12.0, 30.0, 1.0});  // CPU % need not rise: x is the offered load
    lt.addRow({400.0, 90.0, 800.0, 5000.0, 0.0});
    const std::string s =
        headroomLoadPlot(lt, {"mean lateness us", "p99 lateness us"}, "headroom").text("h.png");
    EXPECT_NE(s.find("set xlabel 'offered load [jobs/s]'"), std::string::npos);
    EXPECT_NE(s.find("set y2label 'machine CPU [%]'"), std::string::npos);
    EXPECT_NE(s.find("using 1:2 axes x1y2"), std::string::npos);
    EXPECT_NE(s.find("sustained (up to 200 jobs/s)"), std::string::npos);
    EXPECT_NE(s.find("title 'p99 lateness'"), std::string::npos);
    EXPECT_NE(s.find("title 'mean lateness'"), std::string::npos);
    expectRenders(headroomLoadPlot(lt, {"mean lateness us", "p99 lateness us"}, "headroom"),
                  "headroom-load");
    EXPECT_EQ(s.find("throughput"), std::string::npos) << "no achieved rate in this table";
    EXPECT_EQ(s.find("deadline window"), std::string::npos) << "no window given";

    // with the achieved rate: a throughput line; with a deadline window the p99 reaches:
    // the window drawn and said to clip the lateness
    CsvTable at({"offered rate per s", "achieved rate per s", "machine cpu %", "mean lateness us",
                 "p99 lateness us", "sustained"});
    at.addRow({100.0, 100.0, 60.0, 10.0, 20.0, 1.0});
    at.addRow({400.0, 300.0, 90.0, 80000.0, 100000.0, 0.0});
    const std::vector<std::string> y{"mean lateness us", "p99 lateness us"};
    const std::string w = headroomLoadPlot(at, y, "headroom", 100000.0).text("h.png");
    EXPECT_NE(w.find("using 1:($1 > 0 ? 100 * $2 / $1 : 1/0) axes x1y2"), std::string::npos) << w;
    EXPECT_NE(w.find("title 'throughput: achieved / offered % (right axis)'"), std::string::npos);
    EXPECT_NE(w.find("set y2label 'machine CPU, throughput [%]'"), std::string::npos);
    EXPECT_NE(w.find("'deadline window 100ms: lateness is clipped here"), std::string::npos) << w;
    const std::string far = headroomLoadPlot(at, y, "headroom", 1e7).text("h.png");
    EXPECT_EQ(far.find("deadline window"), std::string::npos) << "a window far above: not drawn";
    expectRenders(headroomLoadPlot(at, y, "headroom", 100000.0), "headroom-load-clipped");

    CsvTable ct({"copies", "machine cpu %", "time s", "efficiency"});
    for (int k = 1; k <= 4; ++k)
        ct.addRow({double(k), 25.0 * k, 1.0 + 0.1 * k, 1.0 / (1 + 0.1 * k)});
    const std::string c = headroomCopiesPlot(ct, "copies").text("c.png");
    EXPECT_NE(c.find("set xtics 1\n"), std::string::npos);
    EXPECT_NE(c.find("set ylabel 'time for every copy to finish [s]'"), std::string::npos);
    expectRenders(headroomCopiesPlot(ct, "copies"), "headroom-copies");
}

TEST(PipecleanPlot, ByPatternNameWithoutImpulses) {
    const std::string s =
        pipecleanPlot({"isolated", "burst", "chain"}, {500, 520, 510}, {30, 4000, 25}, "pipeclean")
            .text("p.png");
    EXPECT_NE(s.find("using 2:xtic(1)"), std::string::npos);
    EXPECT_NE(s.find("set yrange [10:*]"), std::string::npos);  // 25..4000 µs: log from 10
    EXPECT_EQ(s.find("impulses"), std::string::npos);
    const std::string data = datablockOf(s);
    for (const char* name : {"isolated", "burst", "chain"})
        EXPECT_NE(data.find(name), std::string::npos) << name;
    expectRenders(
        pipecleanPlot({"isolated", "burst", "chain"}, {500, 520, 510}, {30, 4000, 25}, "pipeclean"),
        "pipeclean");
}

TEST(DotLegend, TitleLegendAndMarkedStates) {
    const std::string dot =
        "digraph {\n  N0[label=\"0: 95.2\", shape=doublecircle ]\n  N1[label=\"1: 3A\" ]\n"
        "  N2[label=\"2: 11\" ]\n  N0 -> N1\n  N0 -> N2\n}\n";
    const std::string d = DotLegend::decorate(dot, "burst (3 nodes)\nrep 1",
                                              {{0, "completed"}, {1, "expired"}, {2, "cancelled"}});
    EXPECT_NE(d.find("label=\"burst (3 nodes)\\nrep 1\""), std::string::npos);
    EXPECT_NE(d.find("subgraph cluster_legend"), std::string::npos);
    EXPECT_NE(d.find("low byte of its hash"), std::string::npos);
    EXPECT_NE(d.find("N1 [style=\"rounded,filled\", fillcolor=\"#ef9a9a\""), std::string::npos);
    EXPECT_NE(d.find("N2 [style=\"rounded,filled,dashed\", fillcolor=\"#cfd8dc\""),
              std::string::npos);
    EXPECT_EQ(d.find("N0 [style"), std::string::npos);  // completed: unmarked
    EXPECT_EQ(d.back(), '\n');
    EXPECT_EQ(d.substr(d.size() - 2), "}\n");
    EXPECT_THROW(DotLegend::decorate("graph", "t"), std::invalid_argument);

    if (!commandAvailable("dot")) GTEST_SKIP() << "graphviz not installed";
    TempDir dir;
    { std::ofstream(dir.path / "g.dot") << d; }
    const std::string cmd = "dot -Tsvg " + shellQuote((dir.path / "g.dot").string()) + " -o " +
                            shellQuote((dir.path / "g.svg").string()) + " 2>&1";
    EXPECT_EQ(std::system(cmd.c_str()), 0);
    EXPECT_GT(fs::file_size(dir.path / "g.svg"), 0u);
}

TEST(RunConcurrencyPlot, IntegerTicksUpToTheWorkersAndTheMean) {
    CsvTable t({"time ms", "concurrency"});
    t.addRow({0.0, 0.0});
    t.addRow({1.0, 2.0});
    t.addRow({3.0, 1.0});
    const ConcurrencyPicture rep4{2, 4, 5, "the median by run time", 1.25};
    const std::string s = runConcurrencyPlot(t, rep4).text("c.png");
    EXPECT_NE(s.find("set ytics 1\n"), std::string::npos);
    EXPECT_NE(s.find("set yrange [-0.1:2.4]"), std::string::npos);
    EXPECT_NE(s.find("title 'mean 1.25'"), std::string::npos);
    EXPECT_EQ(runConcurrencyPlot(t, rep4).options().title,
              "active workers over time, rep 4 of 5 (the median by run time): mean 1.25 of 2 "
              "workers");
    ConcurrencyPicture none = rep4;
    none.average = kNaN;
    EXPECT_EQ(runConcurrencyPlot(t, none).text("c.png").find("title 'mean"), std::string::npos);
    expectRenders(runConcurrencyPlot(t, rep4), "concurrency");
}

TEST(RunConcurrencyPlot, MoreWorkersThanCoresAreSaid) {
    CsvTable t({"time ms", "concurrency"});
    t.addRow({0.0, 1.0});
    t.addRow({1.0, 4.0});
    t.addRow({2.0, 0.0});
    const GnuplotScript g = runConcurrencyPlot(t, {4, 1, 1, "", 2.01, 2});
    EXPECT_EQ(g.options().title,
              "active workers over time, rep 1 of 1: mean 2.01 of 4 workers; 4 workers share 2 "
              "cores, so an active worker is not always running");
    EXPECT_NE(g.text("c.png").find("set yrange [-0.1:4.4]"), std::string::npos);
    EXPECT_EQ(runConcurrencyPlot(t, {4, 1, 1, "", 2.01, 4}).options().title.find("share"),
              std::string::npos);
}

TEST(RunPictures, TimelineJobsOfARunTakeTheWorkersAndTheLifeWindow) {
    using namespace std::chrono_literals;
    pullsched::testchain::RunResult run;
    pullsched::testchain::JobTiming ran;
    ran.node = 0;
    ran.scheduledStart = 1ms;
    ran.actualStart = 1500us;
    ran.end = 2ms;
    ran.state = pullsched::JobState::Completed;
    ran.posted = true;
    pullsched::testchain::JobTiming expired = ran;
    expired.node = 1;
    expired.actualStart = expired.end = pullsched::testchain::JobTiming::kNotRun;
    expired.state = pullsched::JobState::Expired;
    run.jobs = {ran, expired};
    const auto jobs = timelineJobsOf(
        run, [](std::size_t n) { return n == 0 ? 1 : 0; }, 3ms);
    ASSERT_EQ(jobs.size(), 2u);
    EXPECT_EQ(jobs[0].worker, 1);
    EXPECT_DOUBLE_EQ(jobs[0].startMs, 1.5);
    EXPECT_DOUBLE_EQ(jobs[0].deadlineMs, 4.0);
    EXPECT_EQ(jobs[0].state, "completed");
    EXPECT_EQ(jobs[1].worker, -1);  // never ran: no lane
    EXPECT_TRUE(std::isnan(jobs[1].startMs));
    EXPECT_EQ(jobs[1].state, "expired");
    TimelineOptions o;
    o.workers = 2;
    EXPECT_EQ(TimelinePlot::summary(jobs, o).rfind("schedule NOT kept: 1 of 2 jobs completed", 0),
              0u);
}
