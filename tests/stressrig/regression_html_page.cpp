// The result page end to end: a small --mode=run writes <name>.html and index.html with
// the result into its run's folder; every link on them points to a file of that folder
// and every picture is inlined (no src= to a file), within the page's size budget; the
// --out folder's index.html links every run's page; without rendering the page says so
// instead of showing broken pictures; and headless Chromium renders the page alone
// (copied away from its folder) at 1280 px with every picture loaded and nothing wider
// than the window (skipped, saying why, without Chromium).
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "RigTestSupport.hpp"
#include "report/HtmlPage.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace fs = std::filesystem;
using nlohmann::json;
using rigtest::rig;
using rigtest::slurp;

namespace {

const std::string kRun =
    "--mode=run --pattern=burst --nodes=16 --load=100us --workers=2 --reps=2 --life-window=0s "
    "--quiet --out=out ";

/// %XX back to bytes (the page percent-encodes file names in links).
std::string percentDecoded(const std::string& s) {
    std::string r;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '%' && i + 2 < s.size()) {
            r += static_cast<char>(std::stoi(s.substr(i + 1, 2), nullptr, 16));
            i += 2;
        } else {
            r += s[i];
        }
    }
    return r;
}

/// The values of every `attribute="..."` in the page (found by hand: std::regex recurses
/// per character and overflows the stack on an inlined picture's long value).
std::vector<std::string> attributes(const std::string& html, const std::string& attribute) {
    std::vector<std::string> r;
    const std::string opening = " " + attribute + "=\"";
    for (auto at = html.find(opening); at != std::string::npos; at = html.find(opening, at + 1)) {
        const auto begin = at + opening.size();
        const auto end = html.find('"', begin);
        if (end == std::string::npos) break;
        r.push_back(percentDecoded(html.substr(begin, end - begin)));
    }
    return r;
}

/// `page`'s links lead to files beside it (in a run's folder) or, for the --out folder's
/// index (`intoRuns`), into its run folders; never out of the folder.
void expectEveryReferenceExists(const fs::path& page, bool intoRuns = false) {
    const std::string html = slurp(page);
    ASSERT_FALSE(html.empty()) << page;
    for (const std::string& target : attributes(html, "href")) {
        if (intoRuns)
            EXPECT_TRUE(target.find("..") == std::string::npos && !target.starts_with("/"))
                << "links stay in the folder: " << target;
        else
            EXPECT_EQ(target.find('/'), std::string::npos)
                << "links stay in the folder: " << target;
        EXPECT_EQ(target.find(':'), std::string::npos) << "nothing from the network: " << target;
        EXPECT_TRUE(fs::exists(page.parent_path() / target)) << page << " -> " << target;
    }
    // pictures travel with the page: inlined, never a file or a network address
    for (const std::string& source : attributes(html, "src"))
        EXPECT_TRUE(source.rfind("data:image/png;base64,", 0) == 0 ||
                    source.rfind("data:image/svg+xml;base64,", 0) == 0)
            << "a picture not inlined: " << source.substr(0, 80);
    EXPECT_EQ(html.find("url("), std::string::npos) << "no style fetches anything";
    EXPECT_LE(html.size(), pullsched::rig::HtmlPage::kSizeBudget) << page;
    EXPECT_EQ(html.find("<script"), std::string::npos) << "the page is static";
}

std::string chromium() {
    for (const char* c : {"chromium", "chromium-browser", "google-chrome"})
        if (rigtest::haveTool(c)) return c;
    return {};
}

/// Runs headless Chromium on `url`; `what` is e.g. "--dump-dom" or "--screenshot=FILE".
/// Root in CI needs --no-sandbox; a busy machine needs a generous timeout.
int runChromium(const std::string& browser, const fs::path& dir, const std::string& what,
                const std::string& url, const fs::path& stdoutFile) {
    const std::string cmd = "cd '" + dir.string() + "' && timeout 180 " + browser +
                            " --headless --no-sandbox --disable-gpu --disable-dev-shm-usage"
                            " --no-first-run --disable-extensions --user-data-dir='" +
                            (dir / "profile").string() +
                            "' --virtual-time-budget=10000 --window-size=1280,2400 " + what + " '" +
                            url + "' >'" + stdoutFile.string() + "' 2>chromium-stderr.txt";
    const int st = std::system(cmd.c_str());
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

}  // namespace

TEST(HtmlPage, EveryResultHasAPageAndTheFolderAnIndex) {
    const fs::path dir = rigtest::scratch("html-page", "written");
    const auto r = rig(kRun + "--no-render", dir);
    ASSERT_EQ(r.code, 0) << r.err;
    const fs::path out = rigtest::latestRun(dir / "out");
    const json e = json::parse(slurp(out / "run-burst-16.json"));
    std::set<std::string> files;
    for (const auto& f : e.at("files"))
        files.insert(f.get<std::string>());
    EXPECT_TRUE(files.count("run-burst-16.html")) << "the page is part of the result's set";
    EXPECT_FALSE(files.count("index.html")) << "the run's index.html is a copy of its page";
    ASSERT_TRUE(fs::exists(out / "index.html"));
    EXPECT_EQ(slurp(out / "index.html"), slurp(out / "run-burst-16.html"));
    ASSERT_TRUE(fs::exists(dir / "out" / "index.html")) << "the list of runs";
    EXPECT_NE(r.out.find("Page: out/" + out.filename().string() +
                         "/index.html (every run: out/index.html)"),
              std::string::npos)
        << r.out;

    const std::string page = slurp(out / "run-burst-16.html");
    for (const char* part : {"<!DOCTYPE html>", "Verdict:", "hash check", "Configuration",
                             "Environment", "run-burst-16-reps.csv", "run-burst-16.dot",
                             "run-burst-16.gp", "run-burst-16.json", "workers"})
        EXPECT_NE(page.find(part), std::string::npos) << part;
    // --no-render: no picture, so no <img>, but a note and the script to render it
    EXPECT_EQ(page.find("<img"), std::string::npos);
    EXPECT_NE(page.find("This picture was not rendered: --no-render was given"), std::string::npos);
    expectEveryReferenceExists(out / "run-burst-16.html");
    expectEveryReferenceExists(out / "index.html");
    expectEveryReferenceExists(dir / "out" / "index.html", true);
    fs::remove_all(dir);
}

TEST(HtmlPage, TheOutFoldersIndexLinksEveryRunsPageNewestFirst) {
    const fs::path dir = rigtest::scratch("html-page", "index");
    ASSERT_EQ(rig(kRun + "--no-render --name=first", dir).code, 0);
    const std::string firstFolder = rigtest::latestRun(dir / "out").filename().string();
    ASSERT_EQ(rig(kRun + "--no-render --name=second", dir).code, 0);
    const std::string secondFolder = rigtest::latestRun(dir / "out").filename().string();
    const std::string index = slurp(dir / "out" / "index.html");
    const auto first = index.find("href=\"" + firstFolder + "/first.html\"");
    const auto second = index.find("href=\"" + secondFolder + "/second.html\"");
    ASSERT_NE(first, std::string::npos) << index;
    ASSERT_NE(second, std::string::npos) << index;
    EXPECT_LT(second, first) << "newest first";
    EXPECT_NE(index.find("The newest run, <a href=\"" + secondFolder + "/\">"), std::string::npos);
    EXPECT_EQ(index.find("<h1>stressrig --mode=run"), std::string::npos)
        << "a list of runs, not a run's page";
    expectEveryReferenceExists(dir / "out" / "index.html", true);
    fs::remove_all(dir);
}

TEST(HtmlPage, WithoutGnuplotAndGraphvizThePageSaysSoInsteadOfShowingBrokenPictures) {
    const fs::path dir = rigtest::scratch("html-page", "no-tools");
    // A PATH without gnuplot and dot: the rig finds neither.
    const fs::path bin = rigtest::stressrigBinary();
    const std::string cmd = "cd '" + dir.string() + "' && env PATH=/nonexistent '" + bin.string() +
                            "' --mode=run --pattern=burst --nodes=16 --load=100us --workers=2 "
                            "--life-window=0s --quiet --out=bare >/dev/null 2>&1";
    ASSERT_EQ(std::system(cmd.c_str()), 0);
    const std::string page = slurp(rigtest::latestRun(dir / "bare") / "index.html");
    EXPECT_EQ(page.find("<img"), std::string::npos) << "no picture exists, so none is shown";
    EXPECT_NE(page.find("This picture was not rendered: gnuplot is not installed; render it in "
                        "this folder with: gnuplot run-burst-16.gp"),
              std::string::npos)
        << page;
    EXPECT_NE(page.find("This picture was not rendered: Graphviz is not installed"),
              std::string::npos);
    EXPECT_EQ(page.find("staging"), std::string::npos) << "no temporary folder is named";
    EXPECT_NE(page.find("<a href=\"run-burst-16.gp\">"), std::string::npos);
    expectEveryReferenceExists(rigtest::latestRun(dir / "bare") / "index.html");
    fs::remove_all(dir);
}

TEST(HtmlPage, RendersInHeadlessChromiumWithEveryPictureLoaded) {
    const std::string browser = chromium();
    if (browser.empty())
        GTEST_SKIP() << "Chromium is not installed (tools/setup/install-deps.sh installs it): "
                        "the page was not rendered in a browser";
    if (!rigtest::haveTool("gnuplot"))
        GTEST_SKIP() << "gnuplot is not installed: the page has no pictures to check";
    const fs::path dir = rigtest::scratch("html-page", "chromium");
    const auto r = rig(kRun, dir);
    ASSERT_EQ(r.code, 0) << r.err;
    const fs::path out = rigtest::latestRun(dir / "out");
    const std::string page = slurp(out / "index.html");
    std::size_t images = 0;
    for (std::size_t at = page.find("<img"); at != std::string::npos;
         at = page.find("<img", at + 1))
        ++images;
    ASSERT_GE(images, 1u) << "gnuplot is installed, so the run's plot is on the page";
    expectEveryReferenceExists(out / "index.html");

    // A test-only copy of the page, alone in a folder of its own (so only what it carries
    // can show): a script lists each picture's natural size and the page's width once it
    // has loaded; one picture that must fail proves the check can see a failure, and a
    // long unbroken report line and table value must wrap inside the 1280 px window.
    std::string check = page;
    const std::string longWord(3000, 'x');
    check.replace(check.find("</pre>"), 6, longWord + "</pre>");
    const auto textCell = check.find("<td>");  // a text cell (numbers stay on one line)
    ASSERT_NE(textCell, std::string::npos);
    check.insert(textCell + 4, longWord);
    const std::string probe = R"(<img src="no-such-picture.png" alt="control">
<script>
window.addEventListener('load', function () {
  var lines = ['IMAGES ' + document.images.length];
  for (var i = 0; i < document.images.length; ++i) {
    var img = document.images[i];
    lines.push((img.complete && img.naturalWidth > 0 ? 'LOADED ' : 'BROKEN ') +
               img.naturalWidth + 'x' + img.naturalHeight + ' ' +
               img.getAttribute('src').substring(0, 40));
  }
  lines.push('WIDTH ' + document.documentElement.scrollWidth + ' ' + window.innerWidth);
  var pre = document.createElement('pre');
  pre.id = 'image-check';
  pre.textContent = lines.join('\n') + '\nEND-OF-CHECK';
  document.body.appendChild(pre);
});
</script>
</body>)";
    check.replace(check.rfind("</body>"), 7, probe);
    const fs::path alone = dir / "alone";
    fs::create_directories(alone);
    { std::ofstream(alone / "index-check.html") << check; }

    // One browser start (the slow part on a busy machine): the DOM after the script ran,
    // and the page rendered to a picture.
    const int code =
        runChromium(browser, dir, "--screenshot='" + (dir / "page.png").string() + "' --dump-dom",
                    "file://" + (alone / "index-check.html").string(), dir / "dom.html");
    const std::string dom = slurp(dir / "dom.html");
    ASSERT_EQ(code, 0) << "chromium failed: " << slurp(dir / "chromium-stderr.txt");
    const std::string marker = "<pre id=\"image-check\">";
    auto begin = dom.find(marker);
    if (begin != std::string::npos) begin += marker.size();
    const auto end = dom.find("END-OF-CHECK", begin == std::string::npos ? 0 : begin);
    ASSERT_NE(begin, std::string::npos) << "the check script did not run:\n" << dom.substr(0, 2000);
    ASSERT_NE(end, std::string::npos);
    std::istringstream lines(dom.substr(begin, end - begin));
    std::string word;
    std::size_t count = 0;
    lines >> word >> count;
    EXPECT_EQ(count, images + 1);
    std::size_t loaded = 0, broken = 0;
    int scrollWidth = -1, windowWidth = -1;
    for (std::string line; std::getline(lines, line);) {
        if (line.rfind("WIDTH ", 0) == 0) {
            std::istringstream(line.substr(6)) >> scrollWidth >> windowWidth;
        } else if (line.rfind("LOADED ", 0) == 0) {
            ++loaded;
            EXPECT_EQ(line.find("LOADED 0x"), std::string::npos) << line;
        } else if (line.rfind("BROKEN ", 0) == 0) {
            ++broken;
            EXPECT_NE(line.find("no-such-picture.png"), std::string::npos)
                << "a picture of the page did not load: " << line;
        }
    }
    EXPECT_EQ(loaded, images) << dom.substr(begin, end - begin);
    EXPECT_EQ(broken, 1u) << "the control picture must be seen as broken";
    ASSERT_GT(windowWidth, 0) << dom.substr(begin, end - begin);
    EXPECT_LE(scrollWidth, windowWidth) << "the page is wider than the 1280 px window";

    // The rendered page: a PNG with content (a blank page compresses to far less).
    ASSERT_TRUE(fs::exists(dir / "page.png"));
    EXPECT_EQ(slurp(dir / "page.png").substr(1, 3), "PNG");
    EXPECT_GT(fs::file_size(dir / "page.png"), 20000u);
    fs::remove_all(dir);
}
