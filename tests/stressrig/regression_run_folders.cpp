// Issue 47: every run keeps its results in a folder of its own under --out. The same
// command twice into one --out keeps both results; `latest` links the newer; index.html
// lists both, newest first, each with its verdict; bad input (exit 2) leaves --out as it
// was, and an --out that did not exist is not made.
#include <algorithm>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "RigTestSupport.hpp"
#include "report/HtmlPage.hpp"

namespace fs = std::filesystem;
using nlohmann::json;
using pullsched::rig::HtmlPage;
using rigtest::rig;
using rigtest::slurp;

namespace {

const std::string kRun =
    "--mode=run --pattern=burst --nodes=16 --load=100us --workers=2 --life-window=0s "
    "--quiet --no-render ";

/// The run folders in `out` (not the `latest` link), by name.
std::vector<std::string> runFolders(const fs::path& out) {
    std::vector<std::string> folders;
    for (const auto& e : fs::directory_iterator(out))
        if (e.is_directory() && !e.is_symlink()) folders.push_back(e.path().filename().string());
    std::sort(folders.begin(), folders.end());
    return folders;
}

/// Everything in `dir` and below: each path with its content (a link's target).
std::map<std::string, std::string> snapshot(const fs::path& dir) {
    std::map<std::string, std::string> all;
    for (const auto& e : fs::recursive_directory_iterator(dir)) {
        const std::string at = fs::relative(e.path(), dir).string();
        if (e.is_symlink())
            all[at] = "-> " + fs::read_symlink(e.path()).string();
        else if (e.is_regular_file())
            all[at] = slurp(e.path());
        else
            all[at] = "(folder)";
    }
    return all;
}

}  // namespace

TEST(RunFoldersEndToEnd, TheSameRunTwiceKeepsBothAndTheIndexListsThemWithTheirVerdicts) {
    const fs::path dir = rigtest::scratch("run-folders", "twice");
    // the first run fails a check (exit 4), the second does not: two verdicts to tell apart
    const rigtest::Result failed = rig(kRun + "--out=out --check='efficiency>=2'", dir);
    ASSERT_EQ(failed.code, 4) << failed.err;
    const fs::path older = rigtest::latestRun(dir / "out");
    const rigtest::Result measured = rig(kRun + "--out=out", dir);
    ASSERT_EQ(measured.code, 0) << measured.err;
    const fs::path newer = rigtest::latestRun(dir / "out");

    EXPECT_NE(older, newer) << "the second run has a folder of its own";
    EXPECT_EQ(runFolders(dir / "out"),
              (std::vector<std::string>{older.filename().string(), newer.filename().string()}));
    EXPECT_TRUE(older.filename().string().starts_with("run-burst-16-")) << older;
    EXPECT_TRUE(newer.filename().string().starts_with("run-burst-16-")) << newer;
    const json first = rigtest::fileEnvelope(older / "run-burst-16.json");
    const json second = rigtest::fileEnvelope(newer / "run-burst-16.json");
    EXPECT_EQ(first.value("exit_status", -1), 4) << "the first result is still there";
    EXPECT_EQ(second.value("exit_status", -1), 0);
    EXPECT_EQ(fs::read_symlink(dir / "out" / "latest"), newer.filename()) << "a relative link";
    EXPECT_NE(measured.out.find("Results in out/" + newer.filename().string() + "/:"),
              std::string::npos)
        << measured.out;

    const std::string index = slurp(dir / "out" / "index.html");
    const auto newerRow =
        index.find("href=\"" + newer.filename().string() + "/run-burst-16.html\"");
    const auto olderRow =
        index.find("href=\"" + older.filename().string() + "/run-burst-16.html\"");
    ASSERT_NE(newerRow, std::string::npos) << index;
    ASSERT_NE(olderRow, std::string::npos) << index;
    EXPECT_LT(newerRow, olderRow) << "newest first";
    const std::string olderVerdict = HtmlPage::escape(first.value("verdict", "?"));
    const std::string newerVerdict = HtmlPage::escape(second.value("verdict", "?"));
    EXPECT_NE(index.find("exit 4: checks failed</td><td class=\"run-verdict failed\">" +
                             olderVerdict + "</td>",
                         olderRow),
              std::string::npos)
        << index;
    EXPECT_NE(index.find("\">" + newerVerdict + "</td>", newerRow), std::string::npos) << index;
    EXPECT_LT(index.find("\">" + newerVerdict + "</td>", newerRow), olderRow)
        << "the newer verdict is on the newer row";
    fs::remove_all(dir);
}

TEST(RunFoldersEndToEnd, BadInputLeavesTheOutFolderAsItWas) {
    const fs::path dir = rigtest::scratch("run-folders", "bad-input");
    ASSERT_EQ(rig(kRun + "--out=out", dir).code, 0);
    const auto before = snapshot(dir / "out");
    ASSERT_GE(before.size(), 3u) << "a run folder, latest and index.html";
    for (const char* bad : {"--bogus", "--reps=2 --rep=3", "--nodes=0", "--load=5"}) {
        const rigtest::Result r = rig(kRun + "--out=out " + bad, dir);
        EXPECT_EQ(r.code, 2) << bad << "\n" << r.err;
        EXPECT_EQ(snapshot(dir / "out"), before) << bad << ": nothing written, not even a folder";
        // nor is a missing --out made
        EXPECT_EQ(rig(kRun + "--out=fresh " + bad, dir).code, 2) << bad;
        EXPECT_FALSE(fs::exists(dir / "fresh")) << bad;
    }
    fs::remove_all(dir);
}
