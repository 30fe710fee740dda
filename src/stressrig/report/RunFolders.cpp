#include "report/RunFolders.hpp"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <ctime>
#include <tuple>

#include <fmt/format.h>

#include "report/ResultFiles.hpp"

namespace fs = std::filesystem;

namespace pullsched::rig {

namespace {

constexpr std::size_t kStampLength = 16;  // "20261129T031502Z"
/// More runs of one name in one second than this is a runaway loop, not a measurement.
constexpr int kMostSuffixes = 10000;

bool allDigits(std::string_view s) {
    return !s.empty() &&
           std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c) != 0; });
}

bool isStamp(std::string_view s) {
    return s.size() == kStampLength && allDigits(s.substr(0, 8)) && s[8] == 'T' &&
           allDigits(s.substr(9, 6)) && s[15] == 'Z';
}

/// When a result was written, as far as its folder or manifest tells: the stamp of a run
/// folder's name and its suffix; the capture date of a result without such a folder.
struct WrittenAt {
    std::string stamp;
    int suffix = 1;
};

WrittenAt writtenAt(const FolderEntry& e) {
    std::string_view folder = e.folder;
    int suffix = 1;
    if (const auto dash = folder.rfind('-');
        dash != std::string_view::npos && dash > 0 && folder[dash - 1] == 'Z' &&
        allDigits(folder.substr(dash + 1)) && folder.size() - dash <= 6) {
        suffix = std::stoi(std::string(folder.substr(dash + 1)));
        folder = folder.substr(0, dash);
    }
    if (folder.size() >= kStampLength && isStamp(folder.substr(folder.size() - kStampLength)))
        return {std::string(folder.substr(folder.size() - kStampLength)), suffix};
    // "2026-11-29T03:15:02Z" -> "20261129T031502Z"
    std::string compact;
    for (const char c : e.date)
        if (c != '-' && c != ':') compact += c;
    return {compact, 1};
}

}  // namespace

std::string runStamp(std::chrono::system_clock::time_point t) {
    const std::time_t seconds = std::chrono::system_clock::to_time_t(t);
    std::tm tm{};
    ::gmtime_r(&seconds, &tm);
    char stamp[32];
    std::strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", &tm);
    return stamp;
}

std::string runFolderName(const std::string& name, const std::string& stamp, int suffix) {
    std::string folder = name.empty() ? stamp : name + "-" + stamp;
    if (suffix > 1) folder += fmt::format("-{}", suffix);
    return folder;
}

fs::path createRunFolder(const fs::path& out, const std::string& name, const std::string& stamp) {
    const fs::path dir = out.empty() ? fs::path(".") : out;
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec || !fs::is_directory(dir))
        throw ResultWriteError(fmt::format("cannot create the output directory '{}': {}",
                                           dir.string(), ec ? ec.message() : "not a directory"));
    for (int suffix = 1; suffix <= kMostSuffixes; ++suffix) {
        const fs::path run = dir / runFolderName(name, stamp, suffix);
        // mkdir fails on anything that exists: this folder is ours alone
        if (fs::create_directory(run, ec)) return run;
        if (ec && ec != std::errc::file_exists)
            throw ResultWriteError(
                fmt::format("cannot create the run's folder '{}': {}", run.string(), ec.message()));
    }
    throw ResultWriteError(
        fmt::format("cannot create the run's folder in '{}': {} folders named {}", dir.string(),
                    kMostSuffixes, runFolderName(name, stamp, 2)));
}

void linkLatest(const fs::path& out, const std::string& folder) {
    const fs::path link = out / kLatestLink;
    const fs::path tmp = out / fmt::format(".latest.{}", static_cast<long>(::getpid()));
    std::error_code ec;
    fs::remove(tmp, ec);
    // relative, so that the folder can be moved or copied whole
    fs::create_directory_symlink(folder, tmp, ec);
    if (!ec) fs::rename(tmp, link, ec);
    if (ec) {
        std::error_code ignore;
        fs::remove(tmp, ignore);
        throw ResultWriteError(
            fmt::format("cannot point '{}' at {}: {}", link.string(), folder, ec.message()));
    }
}

std::string latestFolder(const fs::path& out) {
    std::error_code ec;
    const fs::path target = fs::read_symlink(out / kLatestLink, ec);
    // only a link to a folder beside it is ours
    if (ec || target.empty() || target.has_parent_path()) return "";
    return target.string();
}

std::vector<FolderEntry> runsIn(const fs::path& out) {
    std::vector<FolderEntry> entries = HtmlPage::folderResults(out);
    std::error_code ec;
    for (const auto& d : fs::directory_iterator(out, ec)) {
        const std::string folder = d.path().filename().string();
        // the link to the newest run is not a run; hidden folders are staging folders
        std::error_code kind;
        if (folder.starts_with(".") || !fs::is_directory(d.symlink_status(kind))) continue;
        for (FolderEntry& e : HtmlPage::folderResults(d.path())) {
            e.folder = folder;
            entries.push_back(std::move(e));
        }
    }
    const std::string latest = latestFolder(out);
    const auto key = [&latest](const FolderEntry& e) {
        WrittenAt at = writtenAt(e);
        // the latest link is the last run written, whatever the clocks said
        return std::make_tuple(!latest.empty() && e.folder == latest, std::move(at.stamp),
                               at.suffix);
    };
    std::stable_sort(entries.begin(), entries.end(),
                     [&](const FolderEntry& a, const FolderEntry& b) {
                         const auto ka = key(a);
                         const auto kb = key(b);
                         if (ka != kb) return ka > kb;
                         return std::tie(a.folder, a.name) < std::tie(b.folder, b.name);
                     });
    return entries;
}

std::optional<fs::path> resultFolderOf(const fs::path& path) {
    std::error_code ec;
    if (!fs::is_directory(path, ec)) return std::nullopt;
    if (!HtmlPage::folderResults(path).empty()) return path;
    for (const FolderEntry& e : runsIn(path))
        if (!e.folder.empty()) return path / e.folder;
    return std::nullopt;
}

}  // namespace pullsched::rig
