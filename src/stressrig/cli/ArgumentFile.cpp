#include "cli/ArgumentFile.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include "cli/UsageError.hpp"

namespace pullsched::rig {

std::string readArgumentFile(const std::filesystem::path& file, std::string_view what,
                             std::string_view kind, std::size_t maxBytes) {
    // Open first and ask the open file what it is: a FIFO must not block the open, and
    // /dev/zero must not be read at all.
    const int fd = ::open(file.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        throw UsageError(fmt::format("{}: cannot read the file: {}", what, std::strerror(errno)));
    struct FdCloser {
        int fd;
        ~FdCloser() { ::close(fd); }
    } closer{fd};
    struct stat st {};
    if (::fstat(fd, &st) != 0)
        throw UsageError(fmt::format("{}: cannot read the file: {}", what, std::strerror(errno)));
    if (S_ISDIR(st.st_mode))
        throw UsageError(fmt::format("{}: is a directory, not {}", what, kind));
    if (!S_ISREG(st.st_mode))
        throw UsageError(fmt::format("{}: is not a regular file ({}); {} must be one", what,
                                     S_ISFIFO(st.st_mode)   ? "a FIFO"
                                     : S_ISCHR(st.st_mode)  ? "a character device"
                                     : S_ISBLK(st.st_mode)  ? "a block device"
                                     : S_ISSOCK(st.st_mode) ? "a socket"
                                                            : "not a plain file",
                                     kind));
    const auto tooLarge = [&] {
        return UsageError(
            fmt::format("{}: larger than the {} KiB {} may hold", what, maxBytes / 1024, kind));
    };
    if (static_cast<std::uintmax_t>(st.st_size) > maxBytes) throw tooLarge();
    // Read at most one byte past the limit: the size a file reports (0 for many /proc
    // files) is not a bound on what it yields.
    std::string content;
    char buffer[4096];
    while (content.size() <= maxBytes) {
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0)
            throw UsageError(
                fmt::format("{}: cannot read the file: {}", what, std::strerror(errno)));
        if (n == 0) break;
        content.append(buffer, static_cast<std::size_t>(n));
    }
    if (content.size() > maxBytes) throw tooLarge();
    return content;
}

}  // namespace pullsched::rig
