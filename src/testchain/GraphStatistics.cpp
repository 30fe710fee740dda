#include "pullsched/testchain/GraphStatistics.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <ostream>

namespace pullsched::testchain {

namespace {

using Cat = GraphStatistics::Category;

double itemsOf(const Node& n, Cat c, WeightPolicy policy) {
    switch (c) {
        case Cat::Node:
            return 1;
        case Cat::Seed:
            return n.isStart();
        case Cat::Exit:
            return n.isExit();
        case Cat::Inner:
            return n.isInner();
        case Cat::Fork:
            return n.isFork();
        case Cat::Join:
            return n.isJoin();
        case Cat::Link:
            return n.isLink();
        case Cat::Knot:
            return n.isKnot();
        case Cat::Weight:
            break;
    }
    return static_cast<double>(effectiveWeight(n.weight, policy));
}

}  // namespace

GraphStatistics::GraphStatistics(const TestChainGraph& graph, WeightPolicy policy,
                                 const StopPredicate& stop)
    : nodes_(graph.size()), levels_(graph.levels()), edges_(graph.edgeCount()) {
    const auto nodes = graph.nodes();
    for (auto& v : perLevel_)
        v.assign(levels_, 0.0);
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        pollStop(stop, i);
        for (std::size_t c = 0; c < kCategories; ++c)
            perLevel_[c][nodes[i].level] += itemsOf(nodes[i], static_cast<Cat>(c), policy);
    }

    // Segments: a level of width 1 holding one seed node begins a new independent part.
    std::vector<std::size_t> sub(levels_, 0);
    const auto& width = perLevel_[static_cast<std::size_t>(Cat::Node)];
    const auto& seeds = perLevel_[static_cast<std::size_t>(Cat::Seed)];
    segments_ = 1;
    for (std::size_t l = 1; l < levels_; ++l) {
        pollStop(stop, l);
        if (width[l] == 1 && seeds[l] == 1) {
            ++segments_;
            sub[l] = 0;
        } else {
            sub[l] = sub[l - 1] + 1;
        }
        maxSubLevel_ = std::max(maxSubLevel_, sub[l]);
    }
    for (double w : width)
        maxWidth_ = std::max(maxWidth_, static_cast<std::size_t>(w));

    const double nodeCnt = static_cast<double>(nodes_);
    const double lvls = static_cast<double>(levels_);
    for (std::size_t c = 0; c < kCategories; ++c) {
        Indicator& ind = indicators_[c];
        double sumW = 0, cL = 0, cLW = 0, sL = 0, sLW = 0;
        for (std::size_t l = 0; l < levels_; ++l) {
            pollStop(stop, l);
            const double k = perLevel_[c][l];
            if (width[l] == 0) continue;  // gap in hand-made level numbering
            const double kw = k / width[l];
            ind.cnt += k;
            sumW += kw;
            cL += static_cast<double>(l) * k;
            cLW += static_cast<double>(l) * kw;
            sL += static_cast<double>(sub[l]) * k;
            sLW += static_cast<double>(sub[l]) * kw;
        }
        ind.frac = ind.cnt / nodeCnt;
        ind.pS = ind.cnt / static_cast<double>(segments_);
        ind.pL = ind.cnt / lvls;
        ind.pLW = sumW / lvls;
        // The reference divides by levels−1 unguarded; a single level has no centre.
        if (levels_ > 1) {
            ind.gL = ind.cnt > 0 ? cL / ind.cnt / (lvls - 1) : 0;
            ind.gLW = sumW > 0 ? cLW / sumW / (lvls - 1) : 0;
        }
        if (maxSubLevel_ > 0) {
            const double h = static_cast<double>(maxSubLevel_);
            ind.gSL = ind.cnt > 0 ? sL / ind.cnt / h : 0;
            ind.gSLW = sumW > 0 ? sLW / sumW / h : 0;
        }
    }

    // Critical path: index order is topological, so one forward pass suffices.
    std::vector<std::size_t> heaviest(nodes.size(), 0);
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        pollStop(stop, i);
        std::size_t before = 0;
        for (std::uint32_t p : nodes[i].predecessors())
            before = std::max(before, heaviest[p]);
        const std::size_t w = effectiveWeight(nodes[i].weight, policy);
        heaviest[i] = before + w;
        totalWeight_ += w;
        criticalPath_ = std::max(criticalPath_, heaviest[i]);
    }
}

double GraphStatistics::averageSegmentHeight() const noexcept {
    return static_cast<double>(levels_) / static_cast<double>(segments_);
}

Duration GraphStatistics::work(Duration timeBase) const noexcept {
    return timeBase * static_cast<Duration::rep>(totalWeight_);
}

Duration GraphStatistics::criticalPath(Duration timeBase) const noexcept {
    return timeBase * static_cast<Duration::rep>(criticalPath_);
}

Duration GraphStatistics::lowerBound(std::size_t workers, Duration timeBase) const noexcept {
    const auto p = static_cast<Duration::rep>(std::max<std::size_t>(workers, 1));
    const Duration perWorker = (work(timeBase) + Duration{p - 1}) / p;  // round up
    return std::max(perWorker, criticalPath(timeBase));
}

void GraphStatistics::print(std::ostream& os, Duration timeBase) const {
    auto ms = [](Duration d) { return std::chrono::duration<double, std::milli>(d).count(); };
    fmt::print(os, "{:<6}{:>8}{:>8}{:>8}{:>8}{:>8}{:>7}{:>7}{:>7}{:>7}\n", "", "cnt", "frac", "∅pS",
               "∅pL", "∅pLW", "γL", "γLW", "γL⬙", "γLW⬙");
    for (std::size_t c = 0; c < kCategories; ++c) {
        const Indicator& i = indicators_[c];
        fmt::print(os,
                   "{:<6}{:>8}{:>8.3f}{:>8.2f}{:>8.2f}{:>8.2f}{:>7.2f}{:>7.2f}{:>7.2f}{:>7.2f}\n",
                   kCategoryNames[c], i.cnt, i.frac, i.pS, i.pL, i.pLW, i.gL, i.gLW, i.gSL, i.gSLW);
    }
    fmt::print(os, "LEVL  {:>8}   max width {}\n", levels_, maxWidth_);
    fmt::print(os, "SEGS  {:>8}   h = ∅{:.1f} / max.{}\n", segments_, averageSegmentHeight(),
               maxSubLevel_ + 1);
    fmt::print(os, "work  {} × {}µs = {:.3f} ms; critical path {} = {:.3f} ms\n", totalWeight_,
               std::chrono::duration<double, std::micro>(timeBase).count(), ms(work(timeBase)),
               criticalPath_, ms(criticalPath(timeBase)));
    fmt::print(os, "lower bound (ms): P=1 {:.3f}  P=2 {:.3f}  P=4 {:.3f}  P=8 {:.3f}\n",
               ms(lowerBound(1, timeBase)), ms(lowerBound(2, timeBase)),
               ms(lowerBound(4, timeBase)), ms(lowerBound(8, timeBase)));
}

}  // namespace pullsched::testchain
