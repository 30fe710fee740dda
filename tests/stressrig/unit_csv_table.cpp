// CsvTable: exact written text, round trip, reader errors, environment info.
#include <cctype>
#include <cmath>
#include <filesystem>
#include <sstream>

#include <unistd.h>

#include <gtest/gtest.h>

#include "measure/Environment.hpp"
#include "report/CsvTable.hpp"

using pullsched::rig::CsvTable;

namespace {

CsvTable sample() {
    CsvTable t({"load size", "result time"});
    t.addColumn("say \"hi\"", CsvTable::Kind::Text);
    t.setComment("pattern", "burst");
    t.setComment("seed", "42");
    t.addRow({1.0, 1.0 / 3, std::string("a \"b\", c")});
    t.addRow({2.0, 123456789.123456789, std::string("plain")});
    t.addRow({3.0, NAN, std::string("")});
    return t;
}

}  // namespace

TEST(CsvTable, WritesExactText) {
    EXPECT_EQ(sample().toString(),
              "# pattern: burst\n"
              "# seed: 42\n"
              "\"load size\",\"result time\",\"say \"\"hi\"\"\"\n"
              "1,0.333333333333333,\"a \"\"b\"\", c\"\n"
              "2,123456789.123457,\"plain\"\n"
              "3,,\"\"\n");
}

TEST(CsvTable, MissingValueIsAnEmptyCell) {
    EXPECT_EQ(CsvTable::formatNumber(NAN), "");
    CsvTable t({"a", "b"});
    t.addRow({1.0, NAN});
    EXPECT_EQ(t.toString(), "\"a\",\"b\"\n1,\n");
    EXPECT_TRUE(std::isnan(CsvTable::parse(t.toString()).number(0, 1)));
}

TEST(CsvTable, NumbersWithFifteenSignificantDigits) {
    EXPECT_EQ(CsvTable::formatNumber(2.0 / 3), "0.666666666666667");
    EXPECT_EQ(CsvTable::formatNumber(1e-20), "1e-20");
    EXPECT_EQ(CsvTable::formatNumber(8.57), "8.57");
    EXPECT_EQ(CsvTable::formatNumber(-INFINITY), "-inf");
    EXPECT_EQ(CsvTable::formatNumber(123456789012345678.0), "1.23456789012346e+17");
}

TEST(CsvTable, RoundTrip) {
    const CsvTable t = CsvTable::parse(sample().toString());
    ASSERT_EQ(t.columnCount(), 3u);
    EXPECT_EQ(t.columns()[0].name, "load size");
    EXPECT_EQ(t.columns()[2].name, "say \"hi\"");
    EXPECT_EQ(t.columns()[1].kind, CsvTable::Kind::Number);
    EXPECT_EQ(t.columns()[2].kind, CsvTable::Kind::Text);
    ASSERT_EQ(t.rowCount(), 3u);
    EXPECT_EQ(t.number(0, 1), 0.333333333333333);
    EXPECT_EQ(t.number(1, "result time"), 123456789.123457);
    EXPECT_TRUE(std::isnan(t.number(2, 1)));
    EXPECT_EQ(t.text(0, 2), "a \"b\", c");
    EXPECT_EQ(t.text(2, 2), "");
    EXPECT_EQ(t.comment("pattern"), "burst");
    EXPECT_EQ(t.comment("seed"), "42");
    EXPECT_EQ(t.comment("absent"), "");
    EXPECT_EQ(t.numbers("load size"), (std::vector<double>{1, 2, 3}));
    EXPECT_EQ(t.toString(), sample().toString());  // stable under a second round
}

TEST(CsvTable, ReaderToleratesCrLfBlankLinesAndQuotedNewlines) {
    const CsvTable t = CsvTable::parse(
        "# a: 1\r\n# free text without "
        "colon\r\n\"x\",\"y\"\r\n\r\n1,\"two\nlines\"\r\n2,\"z\"\r\n");
    ASSERT_EQ(t.rowCount(), 2u);
    EXPECT_EQ(t.text(0, 1), "two\nlines");
    EXPECT_EQ(t.number(1, 0), 2.0);
    ASSERT_EQ(t.comments().size(), 1u);
    EXPECT_EQ(t.comment("a"), "1");
}

TEST(CsvTable, ReaderErrorsNameTheLine) {
    try {
        CsvTable::parse("\"a\",\"b\"\n1,2\n3\n");
        FAIL() << "no exception";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("line 3"), std::string::npos) << e.what();
    }
    EXPECT_THROW(CsvTable::parse("\"a\"\n\"unterminated\n"), std::runtime_error);
    EXPECT_THROW(CsvTable::parse("# only: comments\n"), std::runtime_error);
    EXPECT_THROW(CsvTable::parse("\"a\"\n\"x\"y\n"), std::runtime_error);
}

TEST(CsvTable, ShapeIsEnforced) {
    CsvTable t({"a", "b"});
    EXPECT_THROW(t.addRow({1.0}), std::invalid_argument);
    EXPECT_THROW(t.addRow(std::vector<CsvTable::Cell>{1.0, std::string("x")}),
                 std::invalid_argument);
    t.addRow({1.0, 2.0});
    EXPECT_THROW(t.addColumn("c"), std::logic_error);
    EXPECT_THROW((void)t.columnIndex("nope"), std::out_of_range);
    EXPECT_TRUE(t.hasColumn("b"));
    EXPECT_THROW((void)t.text(0, 0), std::bad_variant_access);
    t.setComment("k", "line\nbreak");
    t.setComment("k", "replaced");
    ASSERT_EQ(t.comments().size(), 1u);
    EXPECT_EQ(t.comment("k"), "replaced");
}

TEST(CsvTable, FileRoundTrip) {
    const auto dir =
        std::filesystem::temp_directory_path() /
        ("pullsched_csv_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
         "_" + std::to_string(getpid()));
    std::filesystem::create_directories(dir);
    const auto file = dir / "t.csv";
    sample().writeFile(file);
    EXPECT_EQ(CsvTable::readFile(file).toString(), sample().toString());
    EXPECT_THROW(CsvTable::readFile(dir / "missing.csv"), std::runtime_error);
    EXPECT_THROW(sample().writeFile(dir / "no" / "such" / "dir.csv"), std::runtime_error);
    std::filesystem::remove_all(dir);
}

TEST(CsvTable, EnvironmentInfo) {
    const auto info = pullsched::rig::Environment::capture().comments();
    CsvTable t;
    t.addComments(info);
    for (const char* key : {"build type", "compiler", "machine", "cpu", "date"})
        EXPECT_FALSE(t.comment(key).empty()) << key;
    // YYYY-MM-DDTHH:MM:SSZ (checked by hand: std::regex trips GCC 12 warnings under ASan)
    const std::string date = t.comment("date");
    const std::string shape = "dddd-dd-ddTdd:dd:ddZ";
    ASSERT_EQ(date.size(), shape.size()) << date;
    for (std::size_t i = 0; i < shape.size(); ++i)
        EXPECT_TRUE(shape[i] == 'd' ? std::isdigit(static_cast<unsigned char>(date[i])) != 0
                                    : date[i] == shape[i])
            << date;
}

// The Reporter's way to add the configuration: the same text as a copy given the comments
// with setComment() where it has none (its own win, a duplicate key counts once), without
// copying the rows.
TEST(CsvTable, DefaultCommentsAsOnACopy) {
    CsvTable t = sample();
    t.setComment("empty", "");
    const std::vector<std::pair<std::string, std::string>> defaults{
        {"seed", "7"}, {"mode", "run"}, {"empty", "filled"}, {"mode", "again"}, {"x", "a\nb"}};
    CsvTable copy = t;
    for (const auto& [k, v] : defaults)
        if (copy.comment(k).empty()) copy.setComment(k, v);
    EXPECT_EQ(t.toString({}, defaults), copy.toString());
    EXPECT_EQ(t.comment("mode"), "") << "the table itself is unchanged";
}

// A stop asked part-way ends the text with testchain::Stopped; none changes nothing.
TEST(CsvTable, AStopEndsTheText) {
    CsvTable t({"x"});
    for (std::size_t i = 0; i < 2 * pullsched::testchain::kStopPollItems; ++i)
        t.addRow({double(i)});
    int polls = 0;
    EXPECT_THROW(t.toString([&] { return ++polls == 2; }), pullsched::testchain::Stopped);
    EXPECT_EQ(polls, 2);
    EXPECT_EQ(t.toString([] { return false; }), t.toString());
}
