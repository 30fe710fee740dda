#pragma once
// Every run keeps its results in a folder of its own under --out, `<name>-<UTC time>`
// (`-2`, `-3`, ... when that folder exists already), so that no run replaces another;
// `<out>/latest` links the newest run's folder and `<out>/index.html` lists every run
// (HtmlPage::runsPage). Readers of stored results (compare, --check-baseline) take a
// run's folder, or an --out folder and then its newest run.

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "report/HtmlPage.hpp"

namespace pullsched::rig {

/// The name of the link to the newest run's folder, inside --out.
inline constexpr std::string_view kLatestLink = "latest";

/// `t` as a run folder's time: UTC, to the second, "20261129T031502Z".
std::string runStamp(std::chrono::system_clock::time_point t);

/// The name of a run's folder: `<name>-<stamp>`, `-<suffix>` added from 2 on.
std::string runFolderName(const std::string& name, const std::string& stamp, int suffix = 1);

/// Creates `<out>/<name>-<stamp>` (and `out` when missing), or the first of `-2`, `-3`, ...
/// that does not exist: the creation itself is the test, so a folder is never reused, not
/// even by a run writing at the same moment. Throws ResultWriteError.
std::filesystem::path createRunFolder(const std::filesystem::path& out, const std::string& name,
                                      const std::string& stamp);

/// Points `<out>/latest` at the folder `<out>/<folder>` with a relative link, replacing the
/// old link in one step (a new link renamed over it). Throws ResultWriteError.
void linkLatest(const std::filesystem::path& out, const std::string& folder);

/// The folder `<out>/latest` names ("" when there is no such link).
std::string latestFolder(const std::filesystem::path& out);

/// Every result under `out`, newest first: those of its run folders (FolderEntry::folder
/// names the folder) and those an older stressrig wrote into `out` itself. The folder
/// `latest` names comes first; the others by the time in their names, the flat ones by
/// their capture date.
std::vector<FolderEntry> runsIn(const std::filesystem::path& out);

/// Where a reader of `path` finds results: `path` when it holds result manifests itself
/// (a run's folder), else the folder of its newest run (an --out folder); nullopt when
/// there is neither.
std::optional<std::filesystem::path> resultFolderOf(const std::filesystem::path& path);

}  // namespace pullsched::rig
