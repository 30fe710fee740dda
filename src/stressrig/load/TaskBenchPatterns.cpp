#include "load/TaskBenchPatterns.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <stdexcept>

#include <fmt/format.h>

#include "load/SyntheticGraphs.hpp"
#include "pullsched/testchain/FanList.hpp"

namespace pullsched::rig {

using testchain::TestChainGraph;

namespace {

using Point = std::ptrdiff_t;

constexpr std::array<std::string_view, 11> kNames{
    "trivial",    "no_comm", "stencil_1d", "stencil_1d_periodic", "dom", "tree", "fft",
    "all_to_all", "nearest", "spread",     "random_nearest"};

/// A job has at most this many predecessors and successors (testchain's FanList).
constexpr std::size_t kMaxFan = testchain::FanList::kCapacity;

/// Salts that keep the random draws of the weights and of random_nearest apart.
enum class Draw : std::uint64_t { Weight = 1, Neighbour = 2 };

std::uint64_t mix(std::uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/// A uniform value in [0, 1) that depends only on its arguments: the same graph on every
/// build, whatever order the nodes are made in.
double uniformDraw(Draw salt, std::uint64_t a, std::uint64_t b, std::uint64_t c) {
    std::uint64_t h = mix(kSyntheticGraphSeed ^ std::uint64_t(salt));
    for (const std::uint64_t v : {a, b, c})
        h = mix(h ^ v);
    return double(h >> 11) * 0x1.0p-53;
}

bool usesRadix(TaskBenchPattern p) {
    return p == TaskBenchPattern::Nearest || p == TaskBenchPattern::Spread ||
           p == TaskBenchPattern::RandomNearest;
}

/// fft's butterfly stages: ⌈log2 W⌉, at least 1.
std::size_t fftStages(std::size_t width) {
    std::size_t stages = 0;
    while ((std::size_t{1} << stages) < width)
        ++stages;
    return std::max<std::size_t>(stages, 1);
}

/// spread's period: Task Bench's default, at most ⌈W / radix⌉ so that no shift wraps
/// onto another.
std::size_t spreadPeriod(const TaskBenchShape& s) {
    const std::size_t spreadLimit = (s.width + s.radix - 1) / s.radix;
    return std::max<std::size_t>(1, std::min(kTaskBenchPeriod, spreadLimit));
}

/// The window of nearest and random_nearest: radix points from x − ⌊R/2⌋.
std::vector<Point> window(Point x, Point radix) {
    std::vector<Point> out;
    for (Point d = x - radix / 2; d <= x + (radix - 1) / 2; ++d)
        out.push_back(d);
    return out;
}

/// What the pattern names for (t, x), t ≥ 1, before clipping: may lie outside the
/// width or repeat.
std::vector<Point> candidates(const TaskBenchShape& s, std::size_t t, Point x) {
    const Point W = Point(s.width), R = Point(s.radix);
    switch (s.pattern) {
        case TaskBenchPattern::Trivial:
            return {};
        case TaskBenchPattern::NoComm:
            return {x};
        case TaskBenchPattern::Stencil1d:
            return {x - 1, x, x + 1};
        case TaskBenchPattern::Stencil1dPeriodic:
            return {(x - 1 + W) % W, x, (x + 1) % W};
        case TaskBenchPattern::Dom:
            return {x - 1, x};
        case TaskBenchPattern::Tree:
            return {x / 2};
        case TaskBenchPattern::Fft: {
            const Point stride = Point{1} << ((t - 1) % fftStages(s.width));
            return {x - stride, x, x + stride};
        }
        case TaskBenchPattern::AllToAll: {
            std::vector<Point> all(s.width);
            for (Point d = 0; d < W; ++d)
                all[std::size_t(d)] = d;
            return all;
        }
        case TaskBenchPattern::Nearest:
            return window(x, R);
        case TaskBenchPattern::Spread: {
            const Point set = Point(t % spreadPeriod(s));
            std::vector<Point> out;
            for (Point i = 0; i < R; ++i)
                out.push_back((x + i * W / R + (i > 0 ? set : 0)) % W);
            return out;
        }
        case TaskBenchPattern::RandomNearest: {
            const std::uint64_t set = t % kTaskBenchPeriod;
            std::vector<Point> out;
            for (const Point d : window(x, R))
                if (d == x || uniformDraw(Draw::Neighbour, set, std::uint64_t(d),
                                          std::uint64_t(x)) < kRandomNearestFraction)
                    out.push_back(d);
            return out;
        }
    }
    return {};
}

}  // namespace

std::span<const std::string_view> taskBenchPatternNames() {
    return kNames;
}

std::optional<TaskBenchPattern> taskBenchPatternNamed(std::string_view name) {
    const auto it = std::find(kNames.begin(), kNames.end(), name);
    if (it == kNames.end()) return std::nullopt;
    return TaskBenchPattern(it - kNames.begin());
}

std::string_view nameOf(TaskBenchPattern pattern) {
    return kNames.at(std::size_t(pattern));
}

PointRange activePoints(const TaskBenchShape& s, std::size_t t) {
    if (t >= s.steps) return {};
    switch (s.pattern) {
        case TaskBenchPattern::Dom: {
            // a wavefront over a W × (S − W + 1) grid: it widens by one point a step,
            // then slides right and narrows to the last point
            const std::size_t first = t + s.width > s.steps ? t + s.width - s.steps : 0;
            return {first, std::min({s.width, t + 1, s.steps - t})};
        }
        case TaskBenchPattern::Tree:
            return {0, t >= 63 ? s.width : std::min(s.width, std::size_t{1} << t)};
        default:
            return {0, s.width};
    }
}

std::vector<std::size_t> dependencies(const TaskBenchShape& s, std::size_t t, std::size_t x) {
    if (t == 0 || t >= s.steps) return {};
    const PointRange before = activePoints(s, t - 1);
    std::vector<std::size_t> out;
    for (const Point d : candidates(s, t, Point(x)))
        if (d >= 0 && before.contains(std::size_t(d))) out.push_back(std::size_t(d));
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

std::size_t jobWeight(const TaskBenchShape& s, std::size_t t, std::size_t x) {
    if (s.imbalance <= 0) return 1;
    const double u = uniformDraw(Draw::Weight, t, x, 0);
    const double w = (1 + (u - 0.5) * s.imbalance) * double(kImbalanceBaseWeight);
    return std::size_t(std::max(1.0, std::round(w)));  // every job does some work
}

std::size_t nodeCount(const TaskBenchShape& s) {
    std::size_t n = 0;
    for (std::size_t t = 0; t < s.steps; ++t)
        n += activePoints(s, t).count;
    return n;
}

std::string shapeProblem(const TaskBenchShape& s) {
    if (s.width < 1 || s.steps < 1) return "width and steps must be at least 1";
    if (s.width > kTaskBenchMaxNodes || s.steps > kTaskBenchMaxNodes ||
        s.width * s.steps > kTaskBenchMaxNodes)
        return fmt::format("more than {} jobs", kTaskBenchMaxNodes);
    if (!(s.imbalance >= 0 && s.imbalance <= 2)) return "the imbalance must be 0..2";
    if (usesRadix(s.pattern) && (s.radix < 1 || s.radix > kMaxFan))
        return fmt::format("{} needs a radix 1..{} (a job has at most {} predecessors)",
                           nameOf(s.pattern), kMaxFan, kMaxFan);
    if (s.pattern == TaskBenchPattern::AllToAll && s.width > kMaxFan)
        return fmt::format(
            "all_to_all needs a width of at most {} (a job has at most {} predecessors)", kMaxFan,
            kMaxFan);
    if (nodeCount(s) < 2) return "a graph needs at least 2 jobs";
    return {};
}

std::string shapeLabel(const TaskBenchShape& s, bool withSteps) {
    std::string label = withSteps ? fmt::format("{}-{}x{}", nameOf(s.pattern), s.width, s.steps)
                                  : fmt::format("{}-{}", nameOf(s.pattern), s.width);
    if (usesRadix(s.pattern) && s.radix != kTaskBenchDefaultRadix)
        label += fmt::format("-r{}", s.radix);
    if (s.imbalance > 0) label += fmt::format("-i{:g}", s.imbalance);
    return label;
}

std::optional<TaskBenchShape> parseTaskBenchShape(std::string_view text, std::size_t radix,
                                                  double imbalance) {
    const std::size_t colon = text.find(':');
    const auto pattern = taskBenchPatternNamed(text.substr(0, colon));
    if (!pattern) return std::nullopt;
    const auto malformed = [&] {
        return std::invalid_argument(
            fmt::format("a Task Bench shape is NAME:WIDTHxSTEPS, e.g. {}:8x100", nameOf(*pattern)));
    };
    const auto count = [&](std::string_view digits) {
        std::size_t v = 0;
        if (digits.empty() || digits.size() > 8 ||
            !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
            throw malformed();
        for (const char c : digits)
            v = 10 * v + std::size_t(c - '0');
        return v;
    };
    const std::string_view size = colon == std::string_view::npos ? "" : text.substr(colon + 1);
    const std::size_t x = size.find('x');
    if (x == std::string_view::npos) throw malformed();
    TaskBenchShape s{*pattern, count(size.substr(0, x)), count(size.substr(x + 1)), radix,
                     imbalance};
    if (const std::string problem = shapeProblem(s); !problem.empty())
        throw std::invalid_argument(problem);
    return s;
}

TestChainGraph taskBenchGraph(const TaskBenchShape& s) {
    if (const std::string problem = shapeProblem(s); !problem.empty())
        throw std::invalid_argument(fmt::format("taskBenchGraph {}: {}", shapeLabel(s), problem));
    TestChainGraph g(nodeCount(s), kMaxFan);
    std::size_t next = 0, previousFirstId = 0;
    for (std::size_t t = 0; t < s.steps; ++t) {
        const PointRange points = activePoints(s, t);
        const std::size_t previousFirstPoint = t > 0 ? activePoints(s, t - 1).first : 0;
        const std::size_t firstId = next;
        for (std::size_t x = points.first; x < points.first + points.count; ++x) {
            const std::size_t id = next++;
            g.node(id).level = t;
            g.node(id).weight = jobWeight(s, t, x);
            for (const std::size_t d : dependencies(s, t, x))
                g.link(previousFirstId + (d - previousFirstPoint), id);
        }
        previousFirstId = firstId;
    }
    g.setSeed(kSyntheticGraphSeed);
    g.clearNodeHashes();
    return g;
}

}  // namespace pullsched::rig
