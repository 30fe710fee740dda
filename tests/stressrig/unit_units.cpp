// Units: durations and rates with units, and their human-readable forms.
#include <gtest/gtest.h>

#include "cli/UnitParsing.hpp"
#include "format/Units.hpp"

using namespace std::chrono_literals;
using pullsched::rig::parseDuration;
using pullsched::rig::parseRate;
using pullsched::rig::UnitError;
using pullsched::rig::Units;

namespace {

std::string errorOf(std::string_view text, bool rate = false) {
    try {
        if (rate)
            (void)parseRate(text);
        else
            (void)parseDuration(text);
    } catch (const UnitError& e) {
        return e.what();
    }
    return "no error";
}

}  // namespace

TEST(Units, ParseDurations) {
    EXPECT_EQ(parseDuration("500us"), 500us);
    EXPECT_EQ(parseDuration("500\u00b5s"), 500us);  // micro sign
    EXPECT_EQ(parseDuration("500\u03bcs"), 500us);  // greek mu
    EXPECT_EQ(parseDuration("2ms"), 2ms);
    EXPECT_EQ(parseDuration("1.5s"), 1500ms);
    EXPECT_EQ(parseDuration("10min"), 600s);
    EXPECT_EQ(parseDuration("1h"), 3600s);
    EXPECT_EQ(parseDuration("250ns"), 250ns);
    EXPECT_EQ(parseDuration(" 3 ms "), 3ms);
    EXPECT_EQ(parseDuration("2e3us"), 2ms);
    EXPECT_EQ(parseDuration(".5ms"), 500us);
    EXPECT_EQ(parseDuration("1.4ns"), 1ns);
    EXPECT_EQ(parseDuration("0s"), 0ns);
}

TEST(Units, BadDurationsNameTheValue) {
    EXPECT_THROW((void)parseDuration(""), UnitError);
    EXPECT_NE(errorOf("500").find("'500'"), std::string::npos);
    EXPECT_NE(errorOf("500").find("missing unit"), std::string::npos);
    EXPECT_NE(errorOf("5m").find("min"), std::string::npos);
    EXPECT_NE(errorOf("abc").find("'abc'"), std::string::npos);
    EXPECT_NE(errorOf("-5ms").find("negative"), std::string::npos);
    EXPECT_NE(errorOf("5 parsecs").find("unknown unit 'parsecs'"), std::string::npos);
    EXPECT_NE(errorOf("1e30s").find("too large"), std::string::npos);
    EXPECT_NE(errorOf(".ms").find("'.ms'"), std::string::npos);
    EXPECT_NE(errorOf("1.2.3ms").find("'1.2.3ms'"), std::string::npos);
}

TEST(Units, ParseRates) {
    EXPECT_DOUBLE_EQ(parseRate("1000"), 1000);
    EXPECT_DOUBLE_EQ(parseRate("2k"), 2000);
    EXPECT_DOUBLE_EQ(parseRate("2k/s"), 2000);
    EXPECT_DOUBLE_EQ(parseRate("1.5M"), 1.5e6);
    EXPECT_DOUBLE_EQ(parseRate("50/ms"), 50'000);
    EXPECT_DOUBLE_EQ(parseRate("600/min"), 10);
    EXPECT_DOUBLE_EQ(parseRate("10kHz"), 10'000);
    EXPECT_DOUBLE_EQ(parseRate("3600/h"), 1);
    EXPECT_DOUBLE_EQ(parseRate("2/us"), 2e6);
}

TEST(Units, BadRatesNameTheValue) {
    EXPECT_NE(errorOf("0", true).find("must be positive"), std::string::npos);
    EXPECT_NE(errorOf("-5", true).find("'-5'"), std::string::npos);
    EXPECT_NE(errorOf("fast", true).find("'fast'"), std::string::npos);
    EXPECT_NE(errorOf("5/week", true).find("unknown suffix '/week'"), std::string::npos);
    EXPECT_THROW((void)parseRate(""), UnitError);
    EXPECT_THROW((void)parseRate("5/week"), std::invalid_argument);  // UnitError is one
}

TEST(Units, FormatDurations) {
    EXPECT_EQ(Units::formatDuration(0ns), "0ns");
    EXPECT_EQ(Units::formatDuration(850ns), "850ns");
    EXPECT_EQ(Units::formatDuration(12'345ns), "12.3µs");
    EXPECT_EQ(Units::formatDuration(12'345ns, true), "12.3us");
    EXPECT_EQ(Units::formatDuration(1'500'000ns), "1.50ms");
    EXPECT_EQ(Units::formatDuration(999'999ns), "1.00ms");
    EXPECT_EQ(Units::formatDuration(2'346ms), "2.35s");
    EXPECT_EQ(Units::formatDuration(125s), "2min 05.0s");
    EXPECT_EQ(Units::formatDuration(59'960ms), "1min 00.0s");
    EXPECT_EQ(Units::formatDuration(3723s), "1h 02min");
    EXPECT_EQ(Units::formatDuration(-1500ns), "-1.50µs");
}

TEST(Units, FormatRates) {
    EXPECT_EQ(Units::formatRate(950), "950/s");
    EXPECT_EQ(Units::formatRate(12'500), "12.5k/s");
    EXPECT_EQ(Units::formatRate(1.2e6), "1.20M/s");
}
