// The Reporter: one envelope for every mode, missing values, result files written as a
// set (or not at all), exit statuses, one-line messages.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "RigTestSupport.hpp"
#include "load/StopRequest.hpp"
#include "measure/Environment.hpp"
#include "report/Reporter.hpp"
#include "report/RunFolders.hpp"

namespace fs = std::filesystem;
using namespace pullsched::rig;

namespace {

ModeResult sampleResult() {
    ModeResult r;
    r.name = "sample";
    r.text = {"line one", "line two"};
    r.verdict = "measured";
    r.result["runtime_ms"] = 1.5;
    CsvTable t({"x", "runtime ms"});
    t.addRow({1.0, 2.0});
    t.addRow({2.0, NAN});
    r.tables.push_back({"", t});
    r.tables.push_back({"-reps", t});
    r.files.push_back({"-notes.txt", "hello\n", ResultFile::Kind::Text});
    return r;
}

struct ReportRun {
    int status = -1;
    std::string out, err;
    fs::path folder;  ///< the run's folder, where `latest` points after it ("" if none)
    nlohmann::json envelope;
};

/// 2026-11-29 03:15:02 UTC, the time a run's folder is named after when a test fixes it.
std::chrono::system_clock::time_point fixedTime() {
    using namespace std::chrono;
    return sys_days{year{2026} / November / 29} + hours{3} + minutes{15} + seconds{2};
}

ReportRun report(const ModeResult& r, const fs::path& dir, StopRequest& stop, bool json = false,
                 ResultFiles::Writer writer = {}, bool noRender = true,
                 std::function<std::chrono::system_clock::time_point()> clock = {}) {
    OutputSettings o;
    o.out = dir.string();
    o.json = json;
    o.noRender = noRender;
    o.clock = std::move(clock);
    std::ostringstream out, err;
    Environment env = Environment::capture();
    Reporter rep(o, out, err, std::move(writer));
    ReportRun run;
    const std::string before = latestFolder(dir);
    run.status = rep.report(r, {"sample-mode", {{"nodes", 8}, {"load_us", 500.0}}}, env, stop);
    run.out = out.str();
    run.err = err.str();
    if (const std::string after = latestFolder(dir); !after.empty() && after != before)
        run.folder = dir / after;
    if (!run.folder.empty() && fs::exists(run.folder / (r.name + ".json")))
        run.envelope = nlohmann::json::parse(rigtest::slurp(run.folder / (r.name + ".json")));
    return run;
}

bool noStaging(const fs::path& dir) {
    if (!fs::exists(dir)) return true;
    for (const auto& e : fs::directory_iterator(dir))
        if (e.path().filename().string().starts_with(".stressrig-staging")) return false;
    return true;
}

}  // namespace

TEST(Reporter, EnvelopeHasTheSameKeysForEveryResult) {
    const fs::path dir = rigtest::scratch("reporter", "envelope");
    StopRequest stop;
    const ReportRun a = report(sampleResult(), dir / "a", stop);
    const ReportRun b = report(ModeResult{}, dir / "b", stop);
    ASSERT_EQ(a.status, 0) << a.err;
    const nlohmann::json ea = nlohmann::json::parse(rigtest::slurp(a.folder / "sample.json"));
    ASSERT_TRUE(fs::exists(b.folder / ".json")) << "an unnamed result still has a manifest";
    const nlohmann::json eb = nlohmann::json::parse(rigtest::slurp(b.folder / ".json"));
    std::vector<std::string> ka, kb;
    for (const auto& [k, v] : ea.items())
        ka.push_back(k);
    for (const auto& [k, v] : eb.items())
        kb.push_back(k);
    EXPECT_EQ(ka, kb);
    for (const char* k : {"mode", "version", "configuration", "environment", "calibration", "files",
                          "partial", "verdict", "warnings", "failures", "exit_status", "result"})
        EXPECT_TRUE(ea.contains(k)) << k;
    EXPECT_EQ(ea["mode"], "sample-mode");
    EXPECT_EQ(ea["configuration"]["nodes"], 8);
    EXPECT_FALSE(ea["partial"].get<bool>());
    for (const char* k : {"version", "commit", "build_type", "compiler", "cpu", "cores",
                          "load_average_start", "load_average_end"})
        EXPECT_TRUE(ea["environment"].contains(k)) << k;
    fs::remove_all(dir);
}

TEST(Reporter, WritesEveryFileAndListsThemInTheManifest) {
    const fs::path dir = rigtest::scratch("reporter", "files");
    StopRequest stop;
    const ReportRun r = report(sampleResult(), dir, stop);
    ASSERT_EQ(r.status, 0) << r.err;
    const std::vector<std::string> expected{"sample.csv", "sample-reps.csv", "sample-notes.txt",
                                            "sample.html", "sample.json"};
    EXPECT_EQ(r.envelope["files"].get<std::vector<std::string>>(), expected);
    for (const std::string& f : expected)
        EXPECT_TRUE(fs::exists(r.folder / f)) << f;
    EXPECT_TRUE(fs::exists(r.folder / "index.html")) << "the run's folder has its page";
    EXPECT_TRUE(noStaging(dir));
    EXPECT_TRUE(noStaging(r.folder));
    // the CSV carries the configuration and the environment as comments; NaN is an empty cell
    const std::string csv = rigtest::slurp(r.folder / "sample.csv");
    EXPECT_NE(csv.find("# nodes: 8\n"), std::string::npos) << csv;
    EXPECT_NE(csv.find("# mode: sample-mode\n"), std::string::npos);
    EXPECT_NE(csv.find("# load average: "), std::string::npos);
    EXPECT_NE(csv.find("\n2,\n"), std::string::npos) << csv;
    EXPECT_NE(r.out.find("line one\nline two\nVerdict: measured\n"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("sample.csv"), std::string::npos);
    fs::remove_all(dir);
}

TEST(Reporter, JsonGoesToStdoutAndTheRestToStderr) {
    const fs::path dir = rigtest::scratch("reporter", "json");
    StopRequest stop;
    const ReportRun r = report(sampleResult(), dir, stop, true);
    ASSERT_EQ(r.status, 0);
    const nlohmann::json j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["result"]["runtime_ms"], 1.5);
    EXPECT_EQ(j, r.envelope);
    EXPECT_EQ(r.out.find("line one"), std::string::npos);
    EXPECT_NE(r.err.find("Results in"), std::string::npos);
    fs::remove_all(dir);
}

TEST(Reporter, AFailedWriteLeavesNothingAndNamesFileAndReason) {
    const fs::path dir = rigtest::scratch("reporter", "full");
    StopRequest stop;
    int calls = 0;
    auto fullDisk = [&calls](const fs::path& file, const std::string& content) {
        if (++calls == 3)
            throw ResultWriteError("error writing '" + file.string() +
                                   "': No space left on device");
        ResultFiles::writeFile(file, content);
    };
    const ReportRun r = report(sampleResult(), dir, stop, false, fullDisk, true, fixedTime);
    EXPECT_EQ(r.status, kExitWriteFailure);
    EXPECT_NE(r.err.find("error writing '" +
                         (dir / "sample-20261129T031502Z" / "sample-notes.txt").string() +
                         "': No space left on device; no result files were written"),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.out.find("line one"), std::string::npos) << "the report is still printed";
    ASSERT_TRUE(fs::exists(dir));
    EXPECT_TRUE(fs::is_empty(dir)) << "no run's folder, no file of the set, no staging folder";
    fs::remove_all(dir);
}

TEST(Reporter, AnUnwritableDirectoryIsAWriteFailure) {
    const fs::path dir = rigtest::scratch("reporter", "notadir");
    // a file where the output directory should be created
    { std::ofstream(dir / "file") << "x"; }
    StopRequest stop;
    const ReportRun r = report(sampleResult(), dir / "file" / "out", stop);
    EXPECT_EQ(r.status, kExitWriteFailure);
    EXPECT_NE(r.err.find("cannot create the output directory"), std::string::npos) << r.err;
    fs::remove_all(dir);
}

TEST(ResultFiles, CheckWritableLeavesNothingBehind) {
    const fs::path dir = rigtest::scratch("reporter", "check");
    // Folders the check had to create go again: a refused or failed run leaves none.
    ResultFiles::checkWritable(dir / "new" / "deeper/");
    EXPECT_TRUE(fs::is_empty(dir)) << "neither the folders nor the test file stay";
    // An existing folder stays, without the staging folder or the test file.
    fs::create_directory(dir / "old");
    ResultFiles::checkWritable(dir / "old");
    ASSERT_TRUE(fs::is_directory(dir / "old"));
    EXPECT_TRUE(fs::is_empty(dir / "old"));
    fs::remove_all(dir);
}

TEST(ResultFiles, CheckWritableFailsOnAFullDiskAndCleansUp) {
    const fs::path dir = rigtest::scratch("reporter", "checkfull");
    std::string tried;
    auto fullDisk = [&tried](const fs::path& file, const std::string&) {
        tried = file.string();
        throw ResultWriteError("error writing '" + file.string() + "': No space left on device");
    };
    try {
        ResultFiles::checkWritable(dir / "out", fullDisk);
        ADD_FAILURE() << "a failed test write must throw";
    } catch (const ResultWriteError& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("No space left on device"), std::string::npos) << what;
        EXPECT_NE(what.find((dir / "out").string()), std::string::npos) << what;
    }
    EXPECT_FALSE(tried.empty()) << "the check writes a file, it does not only create folders";
    EXPECT_TRUE(fs::is_empty(dir)) << "the folder it created is gone again";
    // A folder under a regular file cannot be made at all.
    { std::ofstream(dir / "file") << "x"; }
    EXPECT_THROW(ResultFiles::checkWritable(dir / "file" / "out"), ResultWriteError);
    EXPECT_EQ(rigtest::slurp(dir / "file"), "x");
    fs::remove_all(dir);
}

TEST(Reporter, ExitStatusFollowsTheOutcome) {
    const fs::path dir = rigtest::scratch("reporter", "status");
    {
        StopRequest stop;
        ModeResult r = sampleResult();
        r.systemFailure = true;
        r.failures = {"hash mismatch"};
        const ReportRun run = report(r, dir / "fail", stop);
        EXPECT_EQ(run.status, kExitSystemFailure);
        EXPECT_NE(run.out.find("FAILED: hash mismatch"), std::string::npos) << run.out;
        EXPECT_EQ(run.envelope["exit_status"], 1);
    }
    {
        StopRequest stop;
        stop.request(SIGTERM);
        const ReportRun run = report(sampleResult(), dir / "term", stop);
        EXPECT_EQ(run.status, 143);
        EXPECT_TRUE(run.envelope["partial"].get<bool>());
        EXPECT_NE(rigtest::slurp(run.folder / "sample.csv").find("# partial: yes"),
                  std::string::npos);
    }
    {
        StopRequest stop;
        ModeResult r = sampleResult();
        r.partial = true;  // the mode stopped on its own request
        EXPECT_EQ(report(r, dir / "partial", stop).status, kExitInterrupted);
    }
    fs::remove_all(dir);
}

namespace {
/// The sample with files that grow with a graph: a table of 200 000 rows, a picture of
/// them (over 10 MB of data) and a 16 MiB DOT graph, each past what a stopped run writes.
ModeResult largeResult() {
    ModeResult r = sampleResult();
    CsvTable jobs({"node", "scheduled ms", "start ms", "end ms"});
    for (int i = 0; i < 200000; ++i)
        jobs.addRow({double(i), 999.0 + i / 7.0, 1000.0 + i / 7.0, 1001.0 + i / 7.0});
    r.plots.push_back({"-jobs", GnuplotScript::custom(jobs, "plot $RunData using 1:2\n")});
    r.tables.push_back({"-jobs", std::move(jobs)});
    r.files.push_back(
        {".dot", "digraph {\n" + std::string(16 << 20, ' ') + "}\n", ResultFile::Kind::Dot});
    return r;
}
}  // namespace

// A stop wants the end within a second: the large files are left out, each named in a
// warning; the small ones (tables, notes, manifest) are written, and nothing is rendered.
TEST(Reporter, AStoppedRunWritesWhatItMeasuredWithoutItsLargeFiles) {
    const fs::path dir = rigtest::scratch("reporter", "stopped-large");
    StopRequest stop;
    stop.request(SIGINT);
    const ReportRun run = report(largeResult(), dir / "stopped", stop, false, {}, false);
    EXPECT_EQ(run.status, 130) << run.err;
    for (const char* f : {"sample.csv", "sample-reps.csv", "sample-notes.txt", "sample.json"})
        EXPECT_TRUE(fs::exists(run.folder / f)) << f;
    for (const char* f :
         {"sample-jobs.csv", "sample-jobs.gp", "sample.dot", "sample-jobs.png", "sample.svg"})
        EXPECT_FALSE(fs::exists(run.folder / f)) << f;
    const std::vector<std::string> warnings = run.envelope["warnings"];
    for (const char* f : {"sample-jobs.csv", "sample-jobs.gp", "sample.dot"}) {
        const std::string note = std::string(f) + " not written: the run was stopped";
        EXPECT_NE(run.out.find("warning: " + note), std::string::npos) << run.out;
        EXPECT_TRUE(std::any_of(warnings.begin(), warnings.end(), [&](const std::string& w) {
            return w.starts_with(note);
        })) << run.envelope["warnings"];
    }
    // not stopped, the same result is written whole
    StopRequest none;
    const ReportRun whole = report(largeResult(), dir / "whole", none);
    EXPECT_EQ(whole.status, 0) << whole.err;
    for (const char* f : {"sample-jobs.csv", "sample-jobs.gp", "sample.dot"})
        EXPECT_TRUE(fs::exists(whole.folder / f)) << f;
    fs::remove_all(dir);
}

// A stopped run's small pictures are written as scripts, not rendered.
TEST(Reporter, AStoppedRunRendersNothing) {
    const fs::path dir = rigtest::scratch("reporter", "stopped-render");
    StopRequest stop;
    stop.request(SIGTERM);
    ModeResult r = sampleResult();
    r.plots.push_back({"", GnuplotScript::custom(r.tables.front().table, "plot $RunData\n")});
    const ReportRun run = report(r, dir, stop, false, {}, false);
    EXPECT_EQ(run.status, 143) << run.err;
    EXPECT_TRUE(fs::exists(run.folder / "sample.gp"));
    EXPECT_FALSE(fs::exists(run.folder / "sample.png"));
    EXPECT_NE(run.out.find("not rendered (the run was stopped)"), std::string::npos) << run.out;
    fs::remove_all(dir);
}

TEST(Reporter, MessagesAreOneLine) {
    EXPECT_EQ(Reporter::oneLine("a\nb\tc\x1b[0m"), "a\\nb\\tc\\x1b[0m");
    const fs::path dir = rigtest::scratch("reporter", "oneline");
    StopRequest stop;
    ModeResult r = sampleResult();
    r.verdict = "two\nlines";
    r.warnings = {"w\r1"};
    const ReportRun run = report(r, dir, stop);
    EXPECT_NE(run.out.find("Verdict: two\\nlines\n"), std::string::npos) << run.out;
    EXPECT_NE(run.out.find("warning: w\\r1\n"), std::string::npos) << run.out;
    fs::remove_all(dir);
}

TEST(Reporter, ACalibrationKeptWhileTheCpuRanSlowerIsAWarning) {
    const fs::path dir = rigtest::scratch("reporter", "calibration");
    StopRequest stop;
    ModeResult r = sampleResult();
    r.calibration = {{"speed_per_us", 590.0}, {"cached", true}, {"slower_at_check_percent", 38.0}};
    const ReportRun slower = report(r, dir / "slower", stop);
    const std::string expected = "the CPU ran 38 % slower when the job body's calibration";
    EXPECT_NE(slower.out.find("warning: " + expected), std::string::npos) << slower.out;
    ASSERT_EQ(slower.envelope["warnings"].size(), 1u);
    EXPECT_NE(slower.envelope["warnings"][0].get<std::string>().find(expected), std::string::npos);
    EXPECT_EQ(slower.envelope["verdict_class"], "caveat");
    // confirmed or fresh: nothing to say
    r.calibration["slower_at_check_percent"] = 0.0;
    const ReportRun confirmed = report(r, dir / "confirmed", stop);
    EXPECT_EQ(confirmed.out.find("warning:"), std::string::npos) << confirmed.out;
    EXPECT_TRUE(confirmed.envelope["warnings"].empty());
    fs::remove_all(dir);
}

TEST(Reporter, NameOptionOverridesTheModesName) {
    OutputSettings o;
    o.name = "mine";
    std::ostringstream out, err;
    Reporter rep(o, out, err);
    EXPECT_EQ(rep.baseName(sampleResult()), "mine");
    OutputSettings d;
    Reporter rep2(d, out, err);
    EXPECT_EQ(rep2.baseName(sampleResult()), "sample");
}

TEST(Reporter, ThePageIsPartOfTheSetAndAFailedIndexIsOnlyANote) {
    const fs::path dir = rigtest::scratch("reporter", "index");
    StopRequest stop;
    auto noIndex = [](const fs::path& file, const std::string& content) {
        if (file.filename().string().starts_with(".index.html"))
            throw ResultWriteError("error writing '" + file.string() + "': Disk quota exceeded");
        ResultFiles::writeFile(file, content);
    };
    const ReportRun r = report(sampleResult(), dir, stop, false, noIndex);
    EXPECT_EQ(r.status, 0) << "the result itself is complete";
    ASSERT_FALSE(r.folder.empty()) << "latest points at the run";
    EXPECT_TRUE(fs::exists(r.folder / "sample.html"));
    EXPECT_EQ(rigtest::slurp(r.folder / "index.html"), rigtest::slurp(r.folder / "sample.html"))
        << "the run's folder opens on its page";
    EXPECT_FALSE(fs::exists(dir / "index.html"));
    EXPECT_NE(r.out.find("note: " + (dir / "index.html").string() + " not updated: error writing"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("Page: " + (r.folder / "index.html").string() + "\n"), std::string::npos)
        << r.out;
    for (const auto& e : fs::directory_iterator(dir))
        EXPECT_FALSE(e.path().filename().string().starts_with(".index")) << "no temporary left";
    // with a working disk the index is written and lists the run
    const ReportRun ok = report(sampleResult(), dir, stop);
    ASSERT_EQ(ok.status, 0);
    const std::string index = rigtest::slurp(dir / "index.html");
    EXPECT_NE(index.find("<h1>stressrig runs in this folder</h1>"), std::string::npos) << index;
    EXPECT_NE(index.find("href=\"" + ok.folder.filename().string() + "/sample.html\""),
              std::string::npos)
        << index;
    EXPECT_NE(ok.out.find("Page: " + (ok.folder / "index.html").string() +
                          " (every run: " + (dir / "index.html").string() + ")"),
              std::string::npos)
        << ok.out;
    fs::remove_all(dir);
}

// Issue 47: a second run into the same --out keeps the first. Both at the same (fixed)
// second: the second run's folder takes the suffix -2; latest names it; the index lists
// both, newest first, each with its verdict in its colour.
TEST(Reporter, TwoRunsIntoOneOutKeepBothAndTheIndexListsThemNewestFirst) {
    const fs::path dir = rigtest::scratch("reporter", "two-runs");
    StopRequest stop;
    ModeResult failed = sampleResult();
    failed.verdict = "the first verdict";
    failed.systemFailure = true;
    failed.failures = {"hash mismatch"};
    const ReportRun first = report(failed, dir, stop, false, {}, true, fixedTime);
    ModeResult measured = sampleResult();
    measured.verdict = "the second verdict";
    const ReportRun second = report(measured, dir, stop, false, {}, true, fixedTime);
    EXPECT_EQ(first.status, kExitSystemFailure);
    EXPECT_EQ(second.status, 0) << second.err;
    EXPECT_EQ(first.folder, dir / "sample-20261129T031502Z");
    EXPECT_EQ(second.folder, dir / "sample-20261129T031502Z-2");
    EXPECT_EQ(fs::read_symlink(dir / "latest"), fs::path("sample-20261129T031502Z-2"));
    EXPECT_EQ(first.envelope.value("verdict", ""), "the first verdict")
        << "the second run did not replace the first";
    EXPECT_EQ(second.envelope.value("verdict", ""), "the second verdict");
    const std::string index = rigtest::slurp(dir / "index.html");
    const auto newer = index.find("href=\"sample-20261129T031502Z-2/sample.html\"");
    const auto older = index.find("href=\"sample-20261129T031502Z/sample.html\"");
    ASSERT_NE(newer, std::string::npos) << index;
    ASSERT_NE(older, std::string::npos) << index;
    EXPECT_LT(newer, older) << "newest first";
    EXPECT_NE(index.find("<td class=\"run-verdict failed\">the first verdict</td>", older),
              std::string::npos)
        << index;
    const std::string colour =
        second.envelope.value("verdict_class", "") == "ok" ? "measured" : "caveat";
    EXPECT_NE(index.find("<td class=\"run-verdict " + colour + "\">the second verdict</td>", newer),
              std::string::npos)
        << index;
    EXPECT_LT(index.find("the second verdict"), index.find("the first verdict"));
    fs::remove_all(dir);
}
