#include "cli/GraphOptions.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <sstream>

#include <fmt/format.h>

#include "cli/UsageError.hpp"
#include "pullsched/testchain/Presets.hpp"
#include "pullsched/testchain/RuleParser.hpp"

namespace pullsched::rig {

using namespace pullsched::testchain;

namespace {

std::string trim(const std::string& s) {
    const auto b = s.find_first_not_of(" \t\r\n");
    const auto e = s.find_last_not_of(" \t\r\n");
    return b == std::string::npos ? std::string{} : s.substr(b, e - b + 1);
}

/// Whether `spec` holds any rule. A list of only separators and blanks would silently
/// mean "the neutral rules".
bool holdsRules(std::string_view spec) {
    return spec.find_first_not_of("; \t\r\n") != std::string_view::npos;
}

}  // namespace

std::string readRulesArgument(const std::string& text) {
    const std::string spec = trim(text);
    if (spec.empty() || spec[0] != '@') {
        if (!holdsRules(spec))
            throw UsageError(
                fmt::format("invalid --rules='{}': an empty rule list (give at "
                            "least one RULE:KEY=VAL, or leave --rules out)",
                            text));
        return spec;
    }
    const std::filesystem::path file = spec.substr(1);
    if (file.empty()) throw UsageError("invalid --rules=@: no file name after '@'");
    const std::string what = fmt::format("invalid --rules=@{}", file.string());
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
        throw UsageError(fmt::format("{}: is a directory, not a rules file", what));
    if (!S_ISREG(st.st_mode))
        throw UsageError(fmt::format("{}: is not a regular file ({}); a rules file must be one",
                                     what,
                                     S_ISFIFO(st.st_mode)   ? "a FIFO"
                                     : S_ISCHR(st.st_mode)  ? "a character device"
                                     : S_ISBLK(st.st_mode)  ? "a block device"
                                     : S_ISSOCK(st.st_mode) ? "a socket"
                                                            : "not a plain file"));
    const auto tooLarge = [&] {
        return UsageError(fmt::format("{}: larger than the {} KiB a rules file may hold", what,
                                      kMaxRulesFileBytes / 1024));
    };
    if (static_cast<std::uintmax_t>(st.st_size) > kMaxRulesFileBytes) throw tooLarge();
    // Read at most one byte past the limit: the size a file reports (0 for many /proc
    // files) is not a bound on what it yields.
    std::string content;
    char buffer[4096];
    while (content.size() <= kMaxRulesFileBytes) {
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0)
            throw UsageError(
                fmt::format("{}: cannot read the file: {}", what, std::strerror(errno)));
        if (n == 0) break;
        content.append(buffer, static_cast<std::size_t>(n));
    }
    if (content.size() > kMaxRulesFileBytes) throw tooLarge();
    std::string all;
    std::istringstream in(content);
    for (std::string line; std::getline(in, line);) {
        const auto hash = line.find('#');
        if (hash != std::string::npos) line.erase(hash);
        line = trim(line);
        if (line.empty()) continue;
        if (!all.empty() && all.back() != ';') all += ';';
        all += line;
    }
    if (!holdsRules(all)) throw UsageError(fmt::format("{}: the file holds no rules", what));
    return all;
}

void GraphOptions::declare(OptionTable& t, bool withNodes) {
    t.group("Graph");
    t.text("pattern", pattern, "NAME", "graph shape (see Patterns)",
           [](const std::string& s) { return trim(s); });
    t.text("rules", rules, "SPEC",
           "custom generator rules or @FILE (see Rules); replaces --pattern",
           [](const std::string& s) { return readRulesArgument(s); });
    t.optionalU64("seed", seed, "graph seed = node 0's hash", "the preset's");
    if (withNodes) t.size("nodes", nodes, 2, 10'000'000, "graph size in nodes");
    t.optionalCount("fan", fan, 1, 16, "maxFan of the generator", "the preset's; 16 for --rules");
}

RuleSet GraphOptions::rulesFor(std::string_view patternName) const {
    if (!rules.empty() && patternName.empty()) {
        const std::size_t f = fan.value_or(TestChainGraph::kDefaultMaxFan);
        RuleSet r{f};
        try {
            r = RuleParser::parse(rules, RuleSet{f});
        } catch (const std::invalid_argument& e) {
            throw UsageError(fmt::format("malformed --rules: {}", e.what()));
        }
        if (seed) r.seed = *seed;
        return r;
    }
    const std::string_view name = patternName.empty() ? std::string_view(pattern) : patternName;
    RuleSet r{16};
    try {
        r = preset(name);
    } catch (const std::invalid_argument& e) {
        throw UsageError(fmt::format("invalid --pattern: {}", e.what()));
    }
    const std::size_t f = fan.value_or(r.maxFan());
    if (f != r.maxFan()) {
        const auto s = r.seed;
        r = RuleParser::parse(RuleParser::toString(r), RuleSet{f});
        r.seed = s;
    }
    if (seed) r.seed = *seed;
    return r;
}

TestChainGraph GraphOptions::graph(std::size_t n) const {
    if (n < 2) throw UsageError(fmt::format("invalid node count {}: a graph needs at least 2", n));
    return TestChainGraph::generate(rulesFor(), n);
}

TestChainGraph GraphOptions::presetGraph(std::string_view patternName, std::size_t n) const {
    if (n < 2) throw UsageError(fmt::format("invalid node count {}: a graph needs at least 2", n));
    return TestChainGraph::generate(rulesFor(patternName), n);
}

}  // namespace pullsched::rig
