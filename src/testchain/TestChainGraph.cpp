#include "pullsched/testchain/TestChainGraph.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "pullsched/testchain/ComputationalLoad.hpp"

namespace pullsched::testchain {

TestChainGraph::TestChainGraph(std::size_t nodes, std::size_t maxFan) : maxFan_(maxFan) {
    if (nodes < 2)
        throw std::invalid_argument(
            fmt::format("TestChainGraph: need more than 1 node, got {}", nodes));
    if (maxFan < 1 || maxFan > FanList::kCapacity)
        throw std::invalid_argument(
            fmt::format("TestChainGraph: maxFan must be 1..16, got {}", maxFan));
    if (nodes > UINT32_MAX) throw std::invalid_argument("TestChainGraph: too many nodes");
    nodes_.resize(nodes);
}

TestChainGraph TestChainGraph::generate(const RuleSet& rules, std::size_t nodes,
                                        const StopPredicate& stop) {
    TestChainGraph g{nodes, rules.maxFan()};
    g.buildTopology(rules, stop);
    return g;
}

TestChainGraph& TestChainGraph::buildTopology(const RuleSet& ruleSet, const StopPredicate& stop) {
    if (ruleSet.maxFan() != maxFan_)
        throw std::invalid_argument(fmt::format(
            "buildTopology: rules have maxFan {} but the graph has {}", ruleSet.maxFan(), maxFan_));
    if (ruleSet.seed) nodes_[0].hash = *ruleSet.seed;

    RuleSet rules = ruleSet;  // run state (shuffle counters) must not leak between builds
    for (auto k : RuleSet::kKinds)
        rules.rule(k).resetCounter();

    const std::uint64_t seed = nodes_[0].hash;  // read before node 0 is re-initialised
    const std::size_t total = nodes_.size();
    std::size_t cursor = 0;
    std::size_t level = 0;
    std::vector<std::uint32_t> curr;
    std::vector<std::uint32_t> next;
    curr.reserve(maxFan_);
    next.reserve(maxFan_);

    auto spaceLeft = [&] { return next.size() < maxFan_ && cursor < total; };
    auto addNode = [&](std::uint64_t hashSeed) {
        const auto idx = static_cast<std::uint32_t>(cursor++);
        nodes_[idx].reset(hashSeed, level);
        next.push_back(idx);
        return idx;
    };
    auto calcNode = [&](std::uint32_t idx) {
        Node& n = nodes_[idx];
        n.calculate(nodes_);
        n.weight = rules.weight.draw(n);
    };

    std::size_t nextStopCheck = 0;
    while (cursor < total) {
        if (cursor >= nextStopCheck) {  // a graph of millions of nodes takes seconds
            throwIfStopped(stop);
            nextStopCheck = cursor + kStopCheckNodes;
        }
        curr.swap(next);
        next.clear();
        std::size_t toReduce = 0;
        bool haveR = false;
        std::uint32_t r = 0;

        for (std::uint32_t o : curr) {
            calcNode(o);  // hash final: all following draws use it
            const Node& on = nodes_[o];
            if (rules.pruning.draw(on) != 0) continue;
            const std::size_t s = rules.seeding.draw(on);
            const std::size_t x = rules.expansion.draw(on);
            for (std::size_t i = 0; i < s && spaceLeft(); ++i)
                addNode(seed);
            for (std::size_t i = 0; i < x && spaceLeft(); ++i)
                link(o, addNode(0));
            if (toReduce == 0) {
                haveR = spaceLeft();
                if (haveR) r = addNode(0);
                toReduce = rules.reduction.draw(nodes_[o]);
            } else {
                --toReduce;
            }
            if (haveR)
                link(o, r);
            else if (nodes_[o].succ_.empty() && !next.empty())
                link(o, next.back());  // the chain must not break off when space runs out
        }
        if (next.empty()) addNode(seed);  // everything pruned: start afresh
        ++level;
    }
    for (std::uint32_t idx : next)
        calcNode(idx);
    return *this;
}

void TestChainGraph::link(std::size_t pred, std::size_t succ) {
    if (pred >= succ || succ >= nodes_.size())
        throw std::invalid_argument(
            fmt::format("link {} -> {}: needs pred < succ < {}", pred, succ, nodes_.size()));
    Node& a = nodes_[pred];
    Node& b = nodes_[succ];
    if (a.succ_.size() >= FanList::kCapacity || b.pred_.size() >= FanList::kCapacity)
        throw std::invalid_argument(fmt::format("link {} -> {}: more than 16 links", pred, succ));
    a.succ_.push_back(static_cast<std::uint32_t>(succ));
    b.pred_.push_back(static_cast<std::uint32_t>(pred));
}

TestChainGraph& TestChainGraph::setSeed(std::uint64_t seed) {
    nodes_[0].hash = seed;
    return *this;
}

TestChainGraph& TestChainGraph::setWeight(std::size_t w) {
    for (Node& n : nodes_)
        n.weight = w;
    return *this;
}

TestChainGraph& TestChainGraph::clearNodeHashes() {
    const std::uint64_t seed = nodes_[0].hash;
    for (Node& n : nodes_)
        n.hash = n.isStart() ? seed : 0;
    return *this;
}

TestChainGraph& TestChainGraph::recalculate(const StopPredicate& stop) {
    clearNodeHashes();
    for (std::size_t i = 0; i < nodes_.size(); ++i) {
        pollStop(stop, i);
        nodes_[i].calculate(nodes_);
    }
    return *this;
}

std::uint64_t TestChainGraph::performGraphSynchronously(Duration timeBase, ComputationalLoad& load,
                                                        WeightPolicy policy) {
    clearNodeHashes();
    for (Node& n : nodes_) {
        const std::size_t w = effectiveWeight(n.weight, policy);
        if (w > 0) load.invoke(w, timeBase);
        n.calculate(nodes_);
    }
    return graphHash();
}

std::uint64_t TestChainGraph::graphHash() const noexcept {
    std::uint64_t h = 0;
    for (const Node& n : nodes_)
        if (n.isExit() && n.hash != 0) h = hashCombine(h, n.hash);
    return h;
}

std::size_t TestChainGraph::levels() const noexcept {
    std::size_t top = 0;
    for (const Node& n : nodes_)
        top = std::max(top, n.level);
    return top + 1;
}

std::size_t TestChainGraph::edgeCount() const noexcept {
    std::size_t e = 0;
    for (const Node& n : nodes_)
        e += n.successors().size();
    return e;
}

std::size_t TestChainGraph::count(NodeKind kind) const noexcept {
    std::size_t c = 0;
    for (const Node& n : nodes_)
        c += n.is(kind) ? 1 : 0;
    return c;
}

std::size_t TestChainGraph::weightSum() const noexcept {
    std::size_t w = 0;
    for (const Node& n : nodes_)
        w += n.weight;
    return w;
}

std::vector<std::size_t> TestChainGraph::levelWidths() const {
    std::vector<std::size_t> widths(levels(), 0);
    for (const Node& n : nodes_)
        ++widths[n.level];
    return widths;
}

}  // namespace pullsched::testchain
