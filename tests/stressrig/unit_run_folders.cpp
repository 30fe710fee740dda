// A run's folder under --out: named after the run and the UTC time, never reused (-2, -3,
// ... when the name is taken), `latest` replaced to point at the newest, the runs listed
// newest first, and a reader led from an --out folder to its newest run.
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "RigTestSupport.hpp"
#include "report/ResultFiles.hpp"
#include "report/RunFolders.hpp"

namespace fs = std::filesystem;
using namespace pullsched::rig;

namespace {

/// 2026-11-29 03:15:02 UTC.
std::chrono::system_clock::time_point aMoment() {
    using namespace std::chrono;
    return sys_days{year{2026} / November / 29} + hours{3} + minutes{15} + seconds{2} +
           milliseconds{999};
}

/// A result manifest `<dir>/<name>.json` of `mode`, captured at `date`.
void manifest(const fs::path& dir, const std::string& name, const std::string& date,
              const std::string& mode = "run") {
    fs::create_directories(dir);
    nlohmann::json e;
    e["mode"] = mode;
    e["files"] = nlohmann::json::array({name + ".json"});
    e["verdict"] = "measured";
    e["exit_status"] = 0;
    e["environment"]["date"] = date;
    e["result"] = nlohmann::json::object();
    std::ofstream(dir / (name + ".json")) << e.dump();
}

}  // namespace

TEST(RunFolders, TheStampIsTheUtcSecond) {
    EXPECT_EQ(runStamp(aMoment()), "20261129T031502Z");
    EXPECT_EQ(runFolderName("run-burst-64", "20261129T031502Z"), "run-burst-64-20261129T031502Z");
    EXPECT_EQ(runFolderName("run-burst-64", "20261129T031502Z", 3),
              "run-burst-64-20261129T031502Z-3");
    EXPECT_EQ(runFolderName("", "20261129T031502Z"), "20261129T031502Z") << "never a leading '-'";
}

TEST(RunFolders, AFolderIsNeverReusedTheNextSuffixIsTaken) {
    const fs::path out = rigtest::scratch("run-folders", "create") / "out";  // made on demand
    const std::string stamp = runStamp(aMoment());
    EXPECT_EQ(createRunFolder(out, "run-burst-64", stamp), out / "run-burst-64-20261129T031502Z");
    std::ofstream(out / "run-burst-64-20261129T031502Z" / "run-burst-64.json") << "{}";
    EXPECT_EQ(createRunFolder(out, "run-burst-64", stamp), out / "run-burst-64-20261129T031502Z-2");
    // a file of that name is in the way just as a folder is
    std::ofstream(out / "run-burst-64-20261129T031502Z-3") << "x";
    EXPECT_EQ(createRunFolder(out, "run-burst-64", stamp), out / "run-burst-64-20261129T031502Z-4");
    EXPECT_EQ(createRunFolder(out, "other", stamp), out / "other-20261129T031502Z");
    EXPECT_EQ(rigtest::slurp(out / "run-burst-64-20261129T031502Z" / "run-burst-64.json"), "{}")
        << "the first run's files are untouched";
    EXPECT_TRUE(fs::is_empty(out / "run-burst-64-20261129T031502Z-4"));
    // an --out under a regular file cannot be made
    EXPECT_THROW(createRunFolder(out / "run-burst-64-20261129T031502Z-3" / "sub", "x", stamp),
                 ResultWriteError);
    fs::remove_all(out.parent_path());
}

TEST(RunFolders, LatestIsARelativeLinkReplacedByTheNewestRun) {
    const fs::path out = rigtest::scratch("run-folders", "latest");
    fs::create_directories(out / "a-20261129T031502Z");
    fs::create_directories(out / "a-20261129T031503Z");
    EXPECT_EQ(latestFolder(out), "") << "no link yet";
    linkLatest(out, "a-20261129T031502Z");
    EXPECT_EQ(fs::read_symlink(out / "latest"), fs::path("a-20261129T031502Z"));
    linkLatest(out, "a-20261129T031503Z");
    EXPECT_EQ(fs::read_symlink(out / "latest"), fs::path("a-20261129T031503Z"));
    EXPECT_EQ(latestFolder(out), "a-20261129T031503Z");
    std::size_t entries = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(out))
        ++entries;
    EXPECT_EQ(entries, 3u) << "two folders and the link; no temporary link left";
    // a real folder named latest is not replaced
    const fs::path other = rigtest::scratch("run-folders", "latest-folder");
    fs::create_directories(other / "latest" / "mine");
    EXPECT_THROW(linkLatest(other, "a-20261129T031502Z"), ResultWriteError);
    EXPECT_TRUE(fs::exists(other / "latest" / "mine"));
    fs::remove_all(out);
    fs::remove_all(other);
}

TEST(RunFolders, RunsAreListedNewestFirstTheLatestLeading) {
    const fs::path out = rigtest::scratch("run-folders", "list");
    manifest(out / "b-20261129T031502Z", "b", "2026-11-29T03:15:01Z");
    manifest(out / "a-20261129T031502Z-2", "a", "2026-11-29T03:15:01Z");
    manifest(out / "a-20261129T031502Z-10", "a", "2026-11-29T03:15:02Z");
    manifest(out / "a-20261129T031502Z", "a", "2026-11-29T03:15:00Z");
    manifest(out / "c-20261130T000000Z", "c", "2026-11-30T00:00:00Z");
    manifest(out, "flat", "2026-11-28T00:00:00Z");  // written into --out by an older version
    fs::create_directories(out / "no-result-20261201T000000Z");
    fs::create_directories(out / ".stressrig-staging-1");
    manifest(out / ".stressrig-staging-1", "staged", "2026-12-01T00:00:00Z");
    // Without a link: by the time in the folder names, then the suffix (numerically).
    std::vector<std::string> order;
    for (const FolderEntry& e : runsIn(out))
        order.push_back(e.folder + ":" + e.name);
    EXPECT_EQ(order, (std::vector<std::string>{"c-20261130T000000Z:c", "a-20261129T031502Z-10:a",
                                               "a-20261129T031502Z-2:a", "a-20261129T031502Z:a",
                                               "b-20261129T031502Z:b", ":flat"}));
    // The link names the last run written, whatever the clocks said; the link itself is
    // not a run of its own.
    linkLatest(out, "b-20261129T031502Z");
    const std::vector<FolderEntry> runs = runsIn(out);
    ASSERT_EQ(runs.size(), 6u);
    EXPECT_EQ(runs[0].folder, "b-20261129T031502Z");
    EXPECT_EQ(runs[1].folder, "c-20261130T000000Z");
    fs::remove_all(out);
}

TEST(RunFolders, AReaderTakesARunsFolderOrTheNewestRunOfAnOutFolder) {
    const fs::path out = rigtest::scratch("run-folders", "reader");
    EXPECT_FALSE(resultFolderOf(out).has_value()) << "no result at all";
    EXPECT_FALSE(resultFolderOf(out / "missing").has_value());
    manifest(out / "a-20261129T031502Z", "a", "2026-11-29T03:15:02Z");
    manifest(out / "a-20261129T031503Z", "a", "2026-11-29T03:15:03Z");
    EXPECT_EQ(resultFolderOf(out), out / "a-20261129T031503Z") << "the newest without a link";
    linkLatest(out, "a-20261129T031502Z");
    EXPECT_EQ(resultFolderOf(out), out / "a-20261129T031502Z") << "the one latest names";
    EXPECT_EQ(resultFolderOf(out / "a-20261129T031503Z"), out / "a-20261129T031503Z");
    fs::remove_all(out);
}
