#include "backends/Recursion.hpp"

#include <charconv>
#include <stdexcept>

namespace pullsched::rig {

namespace {

std::uint64_t fibOf(unsigned n) {
    std::uint64_t a = 0, b = 1;
    for (unsigned i = 0; i < n; ++i) {
        const std::uint64_t next = a + b;
        a = b;
        b = next;
    }
    return a;
}

unsigned maxSize(RecursionKind kind) {
    switch (kind) {
        case RecursionKind::Fib:
            return kMaxFib;
        case RecursionKind::Skynet:
            return kMaxSkynetDepth;
        case RecursionKind::Loop:
            return kMaxLoop;
        case RecursionKind::Loop1us:
            return kMaxLoop1us;
    }
    return 0;
}

}  // namespace

std::uint64_t expectedResult(const RecursionShape& shape) {
    if (isLoop(shape)) return shape.size;
    if (shape.kind == RecursionKind::Fib) return fibOf(shape.size);
    const std::uint64_t leaves = powerOfTen(shape.size);
    return leaves * (leaves - 1) / 2;
}

std::uint64_t callCount(const RecursionShape& shape) {
    if (isLoop(shape)) return shape.size;
    if (shape.kind == RecursionKind::Fib) return 2 * fibOf(shape.size + 1) - 1;
    return (powerOfTen(shape.size + 1) - 1) / 9;
}

std::string_view kindName(RecursionKind kind) {
    switch (kind) {
        case RecursionKind::Fib:
            return "fib";
        case RecursionKind::Skynet:
            return "skynet";
        case RecursionKind::Loop:
            return "loop";
        case RecursionKind::Loop1us:
            return "loop1us";
    }
    return "?";
}

std::string recursionLabel(const RecursionShape& shape) {
    return std::string(kindName(shape.kind)) + "-" + std::to_string(shape.size);
}

std::optional<RecursionShape> parseRecursion(std::string_view text) {
    const std::size_t colon = text.find(':');
    const std::string_view name = text.substr(0, colon);
    RecursionShape shape;
    if (name == "fib") {
        shape.kind = RecursionKind::Fib;
    } else if (name == "skynet") {
        shape.kind = RecursionKind::Skynet;
    } else if (name == "loop") {
        shape.kind = RecursionKind::Loop;
    } else if (name == "loop1us") {
        shape.kind = RecursionKind::Loop1us;
    } else {
        return std::nullopt;
    }
    const std::string what(text);
    if (colon == std::string_view::npos)
        throw std::invalid_argument(
            "'" + what + "': give the size, e.g. " +
            (isLoop(shape) ? "loop:4096 or loop1us:64" : "fib:25 or skynet:6"));
    const std::string_view digits = text.substr(colon + 1);
    unsigned size = 0;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), size);
    if (ec != std::errc{} || end != digits.data() + digits.size() || digits.empty())
        throw std::invalid_argument("'" + what + "': the size must be a whole number");
    const unsigned max = maxSize(shape.kind);
    if (size > max) throw std::invalid_argument("'" + what + "': at most " + std::to_string(max));
    // a loop of no iteration has no time per iteration
    if (size == 0 && isLoop(shape))
        throw std::invalid_argument("'" + what + "': at least 1 iteration");
    shape.size = size;
    return shape;
}

}  // namespace pullsched::rig
