// Graphviz output: the published Topo-10 lines and the exact layout rules (spec §5).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "pullsched/testchain/DotWriter.hpp"
#include "pullsched/testchain/Presets.hpp"

using namespace pullsched::testchain;

namespace {

std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in{text};
    for (std::string l; std::getline(in, l);)
        out.push_back(l);
    return out;
}

}  // namespace

TEST(DotWriter, Topo10PublishedLines) {
    const auto g = TestChainGraph::generate(preset("burst"), 64);
    const auto l = lines(DotWriter::toString(g));
    ASSERT_EQ(l.size(), 2u + 64 + 2 + 26 + 2 + 84 + 1);
    EXPECT_EQ(l[0], "digraph {");
    EXPECT_EQ(l[1], "  // Nodes");
    EXPECT_EQ(l[2], "  N0[label=\"0: 37\", shape=doublecircle ]");
    EXPECT_EQ(l[3], "  N1[label=\"1: 4F\" ]");
    EXPECT_EQ(l[4], "  N2[label=\"2: 95.2\" ]");
    EXPECT_EQ(l[65], "  N63[label=\"63: 4B\", shape=box, style=rounded ]");
    EXPECT_EQ(l[66], "");
    EXPECT_EQ(l[67], "  // Layers");
    EXPECT_EQ(l[68], "  { /*0*/ rank=min  N0 }");
    EXPECT_EQ(l[69], "  { /*1*/ rank=same N1 }");
    // The spec shows this line shortened to three nodes; level 24 is 10 wide (N51..N60).
    EXPECT_EQ(l[68 + 24], "  { /*24*/ rank=same N51 N52 N53 N54 N55 N56 N57 N58 N59 N60 }");
    EXPECT_EQ(l[68 + 25], "  { /*25*/ rank=same N61 N62 N63 }");
    EXPECT_EQ(l[94], "");
    EXPECT_EQ(l[95], "  // Topology");
    EXPECT_EQ(l[96], "  N0 -> N1");
    EXPECT_EQ(l.back(), "}");
}

TEST(DotWriter, MatchesStoredTopo10File) {
    std::ifstream in{PULLSCHED_SOURCE_DIR "/data/testchain/topo10-burst-64.dot"};
    ASSERT_TRUE(in) << "reference file missing";
    std::stringstream expected;
    expected << in.rdbuf();
    EXPECT_EQ(DotWriter::toString(TestChainGraph::generate(preset("burst"), 64)), expected.str());
}

TEST(DotWriter, SmallGraphExactly) {
    // 0 -> 2, 1 -> 2, 2 -> 3; node 1 is a further start node, 3 the exit
    TestChainGraph g{4};
    g.node(1).level = 0;
    g.node(2).level = 1;
    g.node(3).level = 2;
    g.link(0, 2);
    g.link(1, 2);
    g.link(2, 3);
    g.setSeed(0xAB);
    g.recalculate();
    g.node(2).weight = 12;
    auto hh = [&](std::size_t i) {
        static const char* digits = "0123456789ABCDEF";
        const auto b = g.node(i).hash & 0xFF;
        return std::string{digits[b >> 4], digits[b & 0xF]};
    };
    const std::string expected =
        "digraph {\n"
        "  // Nodes\n"
        "  N0[label=\"0: AB\", shape=doublecircle ]\n"
        "  N1[label=\"1: AB\", shape=circle ]\n"
        "  N2[label=\"2: " +
        hh(2) +
        ".12\" ]\n"
        "  N3[label=\"3: " +
        hh(3) +
        "\", shape=box, style=rounded ]\n"
        "\n"
        "  // Layers\n"
        "  { /*0*/ rank=min  N0 N1 }\n"
        "  { /*1*/ rank=same N2 }\n"
        "  { /*2*/ rank=same N3 }\n"
        "\n"
        "  // Topology\n"
        "  N0 -> N2\n"
        "  N1 -> N2\n"
        "  N2 -> N3\n"
        "}\n";
    EXPECT_EQ(DotWriter::toString(g), expected);
    EXPECT_EQ(DotWriter::label(g, 2), "2: " + hh(2) + ".12");
    g.node(3).hash = 0x1234567890ABCD05ULL;
    EXPECT_EQ(DotWriter::label(g, 3), "3: 05");  // two digits, low byte only
}
