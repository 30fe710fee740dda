// Folding of --help lines: words whole, every line within the width (unless one word alone
// is longer), further lines indented, and multi-byte characters counted as one column.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "format/TextWrap.hpp"

using namespace pullsched::rig;

namespace {
std::vector<std::string> linesOf(const std::string& s) {
    std::vector<std::string> lines;
    std::istringstream in(s);
    for (std::string line; std::getline(in, line);)
        lines.push_back(line);
    return lines;
}
}  // namespace

TEST(TextWrap, CountsCodePointsNotBytes) {
    EXPECT_EQ(textColumns("abc"), 3u);
    EXPECT_EQ(textColumns("500µs"), 5u);
    EXPECT_EQ(textColumns("≤ 250 ns"), 8u);
    EXPECT_EQ(textColumns(""), 0u);
}

TEST(TextWrap, ShortTextStaysOnOneLine) {
    EXPECT_EQ(foldText("workers of every backend", 26, 26, 100), "workers of every backend");
    // Two spaces between sentences stay as written within a line.
    EXPECT_EQ(foldText("one.  two", 0, 4, 100), "one.  two");
}

TEST(TextWrap, FoldsAtSpacesWithAHangingIndent) {
    const std::string folded = foldText("aaaa bbbb cccc dddd eeee", 6, 6, 16);
    // Column 6 + "aaaa bbbb" = 15 <= 16; "cccc" would reach 20.
    EXPECT_EQ(folded, "aaaa bbbb\n      cccc dddd\n      eeee");
    for (const std::string& line : linesOf(std::string(6, ' ') + folded))
        EXPECT_LE(textColumns(line), 16u) << line;
}

TEST(TextWrap, AWordLongerThanALineStaysWhole) {
    EXPECT_EQ(foldText("x averyveryverylongword y", 0, 2, 10), "x\n  averyveryverylongword\n  y");
}

TEST(TextWrap, MultiByteCharactersFoldByColumns) {
    // "µµµµ µµµµ" is 9 columns though 18 bytes: it fits a 10-column line.
    EXPECT_EQ(foldText("µµµµ µµµµ", 0, 0, 10), "µµµµ µµµµ");
    EXPECT_EQ(foldText("µµµµ µµµµ µ", 0, 0, 10), "µµµµ µµµµ\nµ");
}

TEST(TextWrap, AHelpLinePadsItsLeftPartAndFoldsUnderTheColumn) {
    EXPECT_EQ(helpLine("  --n=N", 10, "aaa bbb"), "  --n=N   aaa bbb\n");
    // A left part wider than the column: the text follows it, as the padding did before.
    EXPECT_EQ(helpLine("  --a-long-name", 10, "aaa"), "  --a-long-nameaaa\n");
    // 30 words of 4 letters fold under column 10 of a 100-column line.
    std::string text;
    for (int i = 0; i < 30; ++i)
        text += "word ";
    const std::string line = helpLine("  --n", 10, text);
    EXPECT_EQ(line.rfind("  --n     word word", 0), 0u) << line;
    EXPECT_NE(line.find("\n          word"), std::string::npos) << line;
    for (const std::string& l : linesOf(line))
        EXPECT_LE(textColumns(l), kHelpWidth) << l;
}

TEST(TextWrap, SpacesAtAFoldAreDropped) {
    EXPECT_EQ(foldText("aaaa    bbbb  ", 0, 1, 6), "aaaa\n bbbb");
    EXPECT_EQ(foldText("   ", 0, 1, 6), "");
}
