// The result page: text from a result is escaped, missing pictures are said to be
// missing (never a broken <img>), links are percent-encoded, a folder's manifests are
// listed newest first, and the --out folder's index lists every run.
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "RigTestSupport.hpp"
#include "report/DataUri.hpp"
#include "report/HtmlPage.hpp"

namespace fs = std::filesystem;
using pullsched::rig::FolderEntry;
using pullsched::rig::HtmlPage;

namespace {

nlohmann::json envelope() {
    return {{"mode", "run"},
            {"exit_status", 0},
            {"partial", false},
            {"verdict", "<script>alert('x')</script> & more"},
            {"warnings", {"w < 1"}},
            {"failures", nlohmann::json::array()},
            {"configuration", {{"nodes", 16}, {"rules", "a<b"}}},
            {"environment", {{"date", "2026-01-01T00:00:00Z"}, {"cores", 2}}},
            {"result", {{"runtime_ms", 1.5}, {"lateness", {{"p99_us", nullptr}}}}},
            {"files", {"r.csv", "r.json"}}};
}

}  // namespace

TEST(HtmlPage, EscapesEveryTextOfTheResult) {
    EXPECT_EQ(HtmlPage::escape("<a href=\"x\">&'</a>"),
              "&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;");
    const std::string page =
        HtmlPage::resultPage("r<1>", envelope(), {"line <b>"}, {}, {{"r.csv", 12}});
    EXPECT_EQ(page.find("<script"), std::string::npos);
    EXPECT_NE(page.find("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; more"),
              std::string::npos);
    EXPECT_NE(page.find("line &lt;b&gt;"), std::string::npos);
    EXPECT_NE(page.find("a&lt;b"), std::string::npos);
    EXPECT_NE(page.find("w &lt; 1"), std::string::npos);
    EXPECT_NE(page.find("r&lt;1&gt;"), std::string::npos);
    // nested result values are flattened; missing values read "n/a"
    EXPECT_NE(page.find("<th>lateness.p99_us</th><td class=\"num\">n/a</td>"), std::string::npos)
        << page;
    // a list of records becomes a table of its own
    nlohmann::json e = envelope();
    e["result"]["probes"] = {{{"stress", 2}, {"broken", false}}, {{"stress", 4}, {"note", "<x>"}}};
    const std::string withList = HtmlPage::resultPage("r", e, {}, {}, {});
    EXPECT_NE(withList.find("<tr><th>broken</th><th>stress</th><th>note</th></tr>"),
              std::string::npos)
        << withList;
    EXPECT_NE(withList.find("<td class=\"num\">n/a</td><td class=\"num\">4</td><td>&lt;x&gt;</td>"),
              std::string::npos)
        << withList;
}

TEST(HtmlPage, AMissingPictureIsSaidAndItsSourceLinked) {
    const std::string page = HtmlPage::resultPage(
        "r", envelope(), {},
        {{"r.gp", "", "gnuplot is not installed", ""}, {"r-x.gp", "r-x.png", "", "PNG"}},
        {{"a b#.csv", std::nullopt}});
    EXPECT_NE(page.find("This picture was not rendered: gnuplot is not installed"),
              std::string::npos);
    EXPECT_NE(page.find("<a href=\"r.gp\">r.gp</a>"), std::string::npos);
    EXPECT_EQ(page.find("src=\"r.png\""), std::string::npos) << "no <img> for a missing picture";
    EXPECT_NE(page.find("<img src=\"data:image/png;base64,UE5H\""), std::string::npos)
        << "the picture is inlined";
    EXPECT_EQ(page.find("src=\"r-x.png\""), std::string::npos);
    EXPECT_NE(page.find("<a href=\"r-x.png\">r-x.png</a>"), std::string::npos) << "and linked";
    EXPECT_NE(page.find("href=\"a%20b%23.csv\""), std::string::npos) << "links are encoded";
}

TEST(HtmlPage, BytesBecomeBase64DataUris) {
    EXPECT_EQ(pullsched::rig::base64(""), "");
    EXPECT_EQ(pullsched::rig::base64("f"), "Zg==");
    EXPECT_EQ(pullsched::rig::base64("fo"), "Zm8=");
    EXPECT_EQ(pullsched::rig::base64("foo"), "Zm9v");
    EXPECT_EQ(pullsched::rig::base64("foobar"), "Zm9vYmFy");
    EXPECT_EQ(pullsched::rig::base64(std::string("\xff\x00\xfe", 3)), "/wD+");
    EXPECT_EQ(pullsched::rig::dataUri("image/png", "foo"), "data:image/png;base64,Zm9v");
    EXPECT_EQ(pullsched::rig::pictureMediaType("a.svg"), "image/svg+xml");
    EXPECT_EQ(pullsched::rig::pictureMediaType("a.png"), "image/png");
    EXPECT_EQ(pullsched::rig::pictureMediaType("a.gp"), "");
}

TEST(HtmlPage, PicturesOverTheSizeBudgetAreLeftOutWithANote) {
    const std::string big(60000, 'p');  // 80 000 characters in base64
    const std::vector<pullsched::rig::PagePicture> pictures = {
        {"a.gp", "a.png", "", big}, {"b.gp", "b.png", "", big}, {"c.dot", "c.svg", "", "<svg/>"}};
    const std::string all = HtmlPage::resultPage("r", envelope(), {}, pictures, {});
    EXPECT_EQ(all.find("left out"), std::string::npos);
    // room for the first big picture only: the second is left out, the small one still fits
    const std::size_t budget = all.size() - 70000;
    const std::string page = HtmlPage::resultPage("r", envelope(), {}, pictures, {}, budget);
    EXPECT_LE(page.size(), budget);
    std::size_t inlined = 0;
    for (auto at = page.find("src=\"data:"); at != std::string::npos;
         at = page.find("src=\"data:", at + 1))
        ++inlined;
    EXPECT_EQ(inlined, 2u);
    EXPECT_NE(page.find("This picture (58 KiB) is left out: it would take the page over its size "
                        "budget of "),
              std::string::npos)
        << page.substr(0, 3000);
    EXPECT_NE(page.find("Open <a href=\"b.png\">b.png</a>."), std::string::npos);
    EXPECT_NE(page.find("data:image/svg+xml;base64,"), std::string::npos);
    // a budget smaller than the page without pictures: only what is smaller than its note
    const std::string tiny = HtmlPage::resultPage("r", envelope(), {}, pictures, {}, 100);
    EXPECT_EQ(tiny.find("src=\"data:image/png"), std::string::npos);
    EXPECT_NE(tiny.find("src=\"data:image/svg+xml"), std::string::npos);
    EXPECT_EQ(HtmlPage::kSizeBudget, 2u << 20) << "the budget --help and the README state";
}

TEST(HtmlPage, FolderResultsAreTheManifestsNewestFirst) {
    const fs::path dir = rigtest::scratch("html-page-unit", "folder");
    auto manifest = [&](const std::string& name, const std::string& date) {
        nlohmann::json e = envelope();
        e["environment"]["date"] = date;
        std::ofstream(dir / (name + ".json")) << e.dump();
    };
    manifest("old", "2026-01-01T00:00:00Z");
    manifest("new", "2026-02-01T00:00:00Z");
    std::ofstream(dir / "new.html") << "x";
    std::ofstream(dir / "new-trace.json") << R"({"traceEvents": []})";  // not a manifest
    std::ofstream(dir / "bad.json") << "{";
    const std::vector<FolderEntry> f = HtmlPage::folderResults(dir);
    ASSERT_EQ(f.size(), 2u);
    EXPECT_EQ(f[0].name, "new");
    EXPECT_TRUE(f[0].hasPage);
    EXPECT_EQ(f[1].name, "old");
    EXPECT_FALSE(f[1].hasPage);
    const std::string index = HtmlPage::runsPage(f, "");
    EXPECT_NE(index.find("href=\"new.html\""), std::string::npos) << index;
    EXPECT_NE(index.find("href=\"old.json\""), std::string::npos) << "no page: its manifest";
    fs::remove_all(dir);
}

// The --out folder's index: a row per run in the order given, each linking the page in its
// run's folder, the verdict in its class's colour, escaped, the newest run named.
TEST(HtmlPage, RunsPageListsEveryRunWithItsVerdictInItsColour) {
    auto run = [](const std::string& folder, int exit, const std::string& cls,
                  const std::string& verdict) {
        FolderEntry e;
        e.name = "run-burst-16";
        e.mode = "run";
        e.date = "2026-11-29T03:15:02Z";
        e.verdict = verdict;
        e.verdictClass = cls;
        e.exitStatus = exit;
        e.hasPage = true;
        e.folder = folder;
        return e;
    };
    const std::vector<FolderEntry> runs{
        run("run-burst-16-20261129T031503Z", 1, "failure", "a job <lost>"),
        run("run-burst-16-20261129T031502Z-2", 0, "caveat", "misses"),
        run("run-burst-16-20261129T031502Z", 0, "ok", "all well")};
    const std::string page = HtmlPage::runsPage(runs, "run-burst-16-20261129T031503Z");
    const auto failed =
        page.find("<a href=\"run-burst-16-20261129T031503Z/run-burst-16.html\">run-burst-16</a>");
    const auto caveat = page.find("href=\"run-burst-16-20261129T031502Z-2/run-burst-16.html\"");
    const auto ok = page.find("href=\"run-burst-16-20261129T031502Z/run-burst-16.html\"");
    ASSERT_NE(failed, std::string::npos) << page;
    ASSERT_NE(caveat, std::string::npos) << page;
    ASSERT_NE(ok, std::string::npos) << page;
    EXPECT_LT(failed, caveat);
    EXPECT_LT(caveat, ok);
    EXPECT_NE(page.find("<td class=\"run-verdict failed\">a job &lt;lost&gt;</td>"),
              std::string::npos);
    EXPECT_NE(page.find("<td class=\"status-failed\">exit 1: correctness failure</td>"),
              std::string::npos);
    EXPECT_NE(page.find("<td class=\"run-verdict caveat\">misses</td>"), std::string::npos);
    EXPECT_NE(page.find("<td class=\"run-verdict measured\">all well</td>"), std::string::npos);
    EXPECT_NE(page.find("The newest run, <a href=\"run-burst-16-20261129T031503Z/\">"),
              std::string::npos);
    EXPECT_NE(page.find("3 runs, newest first"), std::string::npos);
    EXPECT_EQ(page.find("<script"), std::string::npos) << "the index is static";
    EXPECT_NE(HtmlPage::runsPage({}, "").find("No results yet."), std::string::npos);
}

TEST(HtmlPage, AFailedCheckIsShownInTheFailureColour) {
    nlohmann::json e = envelope();
    e["exit_status"] = 4;
    e["verdict_class"] = "ok";
    const std::string failed = HtmlPage::resultPage("r", e, {}, {}, {});
    EXPECT_NE(failed.find("<span class=\"status-failed\">exit 4: checks failed</span>"),
              std::string::npos)
        << failed;
    EXPECT_NE(failed.find("<div class=\"verdict failed\">"), std::string::npos);
    EXPECT_EQ(failed.find("<div class=\"verdict other\">"), std::string::npos);

    e["exit_status"] = 0;
    const std::string measured = HtmlPage::resultPage("r", e, {}, {}, {});
    EXPECT_NE(measured.find("<span class=\"status-measured\">exit 0: measured</span>"),
              std::string::npos);
    EXPECT_NE(measured.find("<div class=\"verdict measured\">"), std::string::npos);
}
