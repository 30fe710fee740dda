#include "load/SyntheticGraphs.hpp"

#include <algorithm>
#include <stdexcept>
#include <vector>

namespace pullsched::rig {

using testchain::TestChainGraph;

namespace {

/// maxFan of the synthetic graphs: at most two predecessors / successors per node.
constexpr std::size_t kMaxFan = 2;

TestChainGraph finish(TestChainGraph g, std::size_t weight) {
    g.setWeight(weight);
    g.setSeed(kSyntheticGraphSeed);
    g.clearNodeHashes();
    return g;
}

}  // namespace

TestChainGraph isolatedGraph(std::size_t nodes, std::size_t weight) {
    return finish(TestChainGraph(nodes, kMaxFan), weight);
}

TestChainGraph chainGraph(std::size_t nodes, std::size_t weight) {
    TestChainGraph g(nodes, kMaxFan);
    for (std::size_t i = 0; i < nodes; ++i) {
        g.node(i).level = i;
        if (i > 0) g.link(i - 1, i);
    }
    return finish(std::move(g), weight);
}

TestChainGraph gridGraph(std::size_t width, std::size_t height, std::size_t weight) {
    if (width == 0 || height == 0)
        throw std::invalid_argument("gridGraph: width and height must be > 0");
    TestChainGraph g(width * height, kMaxFan);
    // index[y * width + x] = node id; assigned diagonal by diagonal.
    std::vector<std::size_t> index(width * height);
    std::size_t next = 0;
    for (std::size_t d = 0; d + 1 < width + height; ++d) {
        const std::size_t yLo = d >= width ? d - width + 1 : 0;
        const std::size_t yHi = std::min(d, height - 1);
        for (std::size_t y = yLo; y <= yHi; ++y) {
            const std::size_t x = d - y;
            const std::size_t id = next++;
            index[y * width + x] = id;
            g.node(id).level = d;
            if (x > 0) g.link(index[y * width + x - 1], id);
            if (y > 0) g.link(index[(y - 1) * width + x], id);
        }
    }
    return finish(std::move(g), weight);
}

}  // namespace pullsched::rig
