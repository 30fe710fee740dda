#pragma once
// A result's files appear together or not at all: they are written into a staging
// folder inside the output directory and renamed into place only when all of them are
// complete, the JSON manifest last.

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace pullsched::rig {

/// Thrown when a file cannot be written; what() names the file and the reason.
class ResultWriteError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

class ResultFiles {
  public:
    /// Writes `content` to `file`; throws ResultWriteError naming the file and strerror.
    /// Injectable so that tests can play a full disk.
    using Writer =
        std::function<void(const std::filesystem::path& file, const std::string& content)>;

    /// Creates `directory` (ResultWriteError if impossible) and a staging folder in it.
    explicit ResultFiles(std::filesystem::path directory, Writer writer = {});
    /// Removes the staging folder with whatever it still holds.
    ~ResultFiles();
    ResultFiles(const ResultFiles&) = delete;
    ResultFiles& operator=(const ResultFiles&) = delete;

    /// Where files are staged; tools (gnuplot, dot) may write there too.
    const std::filesystem::path& staging() const noexcept { return staging_; }
    const std::filesystem::path& directory() const noexcept { return directory_; }

    /// Stages `name` (a plain file name) with `content`.
    void write(const std::string& name, const std::string& content);
    /// Adds a file a tool made in the staging folder (a rendered picture).
    void adopt(const std::string& name);

    /// Names staged so far, in order.
    const std::vector<std::string>& staged() const noexcept { return names_; }

    /// Moves every staged file into the directory, in the order staged; files named
    /// in `last` go after all others. On a failure, removes what was already moved and
    /// throws ResultWriteError. Returns the names.
    std::vector<std::string> commit(const std::string& last = {});

    /// Checks before any work that results can be written to `directory`: creates it
    /// (with missing parents), a staging folder in it and a small file there, then
    /// removes all of that again, so the check leaves nothing behind. Throws
    /// ResultWriteError naming the folder or file and the reason.
    static void checkWritable(const std::filesystem::path& directory, Writer writer = {});

    /// The default Writer: fopen/fwrite/fclose with the errno of the failing call.
    static void writeFile(const std::filesystem::path& file, const std::string& content);

  private:
    std::filesystem::path directory_;
    std::filesystem::path staging_;
    Writer writer_;
    std::vector<std::string> names_;
};

}  // namespace pullsched::rig
