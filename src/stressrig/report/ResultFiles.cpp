#include "report/ResultFiles.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include <fmt/format.h>

namespace fs = std::filesystem;

namespace pullsched::rig {

ResultFiles::ResultFiles(fs::path directory, Writer writer)
    : directory_(directory.empty() ? fs::path(".") : std::move(directory)),
      writer_(writer ? std::move(writer) : Writer(&ResultFiles::writeFile)) {
    std::error_code ec;
    fs::create_directories(directory_, ec);
    if (ec || !fs::is_directory(directory_))
        throw ResultWriteError(fmt::format("cannot create the output directory '{}': {}",
                                           directory_.string(),
                                           ec ? ec.message() : "not a directory"));
    staging_ = directory_ / fmt::format(".stressrig-staging-{}", static_cast<long>(::getpid()));
    fs::remove_all(staging_, ec);
    fs::create_directory(staging_, ec);
    if (ec)
        throw ResultWriteError(
            fmt::format("cannot create '{}': {}", staging_.string(), ec.message()));
}

ResultFiles::~ResultFiles() {
    std::error_code ec;
    fs::remove_all(staging_, ec);
}

void ResultFiles::checkWritable(const fs::path& directory, Writer writer) {
    const fs::path dir = directory.empty() ? fs::path(".") : directory;
    // The folders this check creates, deepest first: they go again afterwards, so that a
    // run refused later (or never reporting) leaves no empty output folder behind.
    std::vector<fs::path> created;
    std::error_code ec;
    fs::path p = fs::absolute(dir, ec).lexically_normal();
    if (!p.has_filename()) p = p.parent_path();  // "out/" is "out"
    // symlink_status reports "not found" through its error code too: only the type counts.
    for (; !ec && p.has_relative_path(); p = p.parent_path()) {
        std::error_code missing;
        if (fs::exists(fs::symlink_status(p, missing))) break;
        created.push_back(p);
    }
    const auto removeCreated = [&created] {
        for (const fs::path& p : created) {
            std::error_code ignore;
            fs::remove(p, ignore);  // only if still empty
        }
    };
    try {
        ResultFiles probe(dir, std::move(writer));
        probe.write(".stressrig-write-test", "stressrig checks that results can be written\n");
    } catch (...) {
        removeCreated();
        throw;
    }
    removeCreated();
}

void ResultFiles::writeFile(const fs::path& file, const std::string& content) {
    errno = 0;
    std::FILE* f = std::fopen(file.c_str(), "wb");
    if (!f)
        throw ResultWriteError(
            fmt::format("cannot write '{}': {}", file.string(), std::strerror(errno)));
    const bool wrote =
        std::fwrite(content.data(), 1, content.size(), f) == content.size() && std::fflush(f) == 0;
    const int err = errno;
    const bool closed = std::fclose(f) == 0;
    if (!wrote || !closed)
        throw ResultWriteError(fmt::format("error writing '{}': {}", file.string(),
                                           std::strerror(wrote ? errno : err)));
}

void ResultFiles::write(const std::string& name, const std::string& content) {
    try {
        writer_(staging_ / name, content);
    } catch (const ResultWriteError& e) {
        // Name the file the user asked for, not its staging place.
        std::string what = e.what();
        const std::string staged = (staging_ / name).string();
        if (const auto at = what.find(staged); at != std::string::npos)
            what.replace(at, staged.size(), (directory_ / name).string());
        throw ResultWriteError(what);
    }
    names_.push_back(name);
}

void ResultFiles::adopt(const std::string& name) {
    names_.push_back(name);
}

std::vector<std::string> ResultFiles::commit(const std::string& last) {
    std::vector<std::string> order;
    for (const std::string& n : names_)
        if (n != last) order.push_back(n);
    for (const std::string& n : names_)
        if (n == last) order.push_back(n);
    std::vector<std::string> moved;
    for (const std::string& n : order) {
        std::error_code ec;
        fs::rename(staging_ / n, directory_ / n, ec);
        if (ec) {
            for (const std::string& m : moved) {
                std::error_code ignore;
                fs::remove(directory_ / m, ignore);
            }
            throw ResultWriteError(fmt::format("cannot move '{}' into place: {}",
                                               (directory_ / n).string(), ec.message()));
        }
        moved.push_back(n);
    }
    names_.clear();
    return order;
}

}  // namespace pullsched::rig
