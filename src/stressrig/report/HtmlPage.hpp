#pragma once
// One page per result: `<name>.html`, static HTML with inline CSS (no script, nothing
// fetched from the network), showing the verdict, warnings and failures, the text report,
// the result's figures, every picture inline, the configuration and environment, and
// links to every file of the result. The page is self-contained: pictures are inlined as
// data: URIs, so the HTML file alone shows them once copied or attached. It stays within
// a size budget (kSizeBudget): a picture that would take it over is left out with a note
// and a link to its file. Its layout fits a 1280 px window: long lines wrap in their box. The
// --out folder's `index.html` lists every run in it (runsPage), each linking its page.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace pullsched::rig {

/// A picture of the result: the rendered file, or why it is missing and its source.
struct PagePicture {
    std::string source;   ///< the script or graph it is made from (.gp / .dot)
    std::string picture;  ///< the rendered .png / .svg; empty when not rendered
    std::string note;     ///< why it was not rendered and how to render it
    std::string bytes;    ///< the rendered picture's content, inlined; empty: not inlined
};

/// A file of the result with its size (nullopt when unknown).
struct PageFile {
    std::string name;
    std::optional<std::uintmax_t> bytes;
};

/// One result of a folder, as its manifest describes it.
struct FolderEntry {
    std::string name;  ///< base name: `<name>.json`, `<name>.html`
    std::string mode;
    std::string date;  ///< the environment's capture time (UTC, ISO 8601), "" if unknown
    std::string verdict;
    std::string verdictClass;  ///< the envelope's `verdict_class`, "" if it has none
    int exitStatus = 0;
    bool partial = false;
    bool hasPage = false;  ///< `<name>.html` exists
    std::string folder;    ///< the run's folder in --out (RunFolders.hpp); "" when in it
};

class HtmlPage {
  public:
    /// The page's size budget in bytes (pictures are left out to stay within it).
    static constexpr std::size_t kSizeBudget = 2u << 20;

    /// `text` with &, <, >, " and ' replaced by entities (safe in content and attributes).
    static std::string escape(std::string_view text);

    /// The page of one result. `envelope` is the manifest (mode, configuration,
    /// environment, verdict, warnings, failures, exit_status, partial, result). Pictures
    /// are inlined in order while the page stays within `budget` bytes.
    static std::string resultPage(const std::string& name, const nlohmann::json& envelope,
                                  const std::vector<std::string>& text,
                                  const std::vector<PagePicture>& pictures,
                                  const std::vector<PageFile>& files,
                                  std::size_t budget = kSizeBudget);

    /// The --out folder's index: every run in `runs` (newest first, as RunFolders' runsIn
    /// lists them) with its date, mode, exit status and verdict in the verdict's colour,
    /// each linking its page; `latest` (a folder name, "" for none) is linked as the newest.
    static std::string runsPage(const std::vector<FolderEntry>& runs, const std::string& latest);

    /// Every result manifest in `directory` (JSON files with a mode, files and verdict),
    /// newest first (by the capture date, then by name). Unreadable files are skipped.
    static std::vector<FolderEntry> folderResults(const std::filesystem::path& directory);
};

}  // namespace pullsched::rig
