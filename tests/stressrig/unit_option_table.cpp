// OptionTable: typed options with bounds, one-line errors naming the option, typed JSON.
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cli/OptionTable.hpp"
#include "cli/UsageError.hpp"

using namespace pullsched::rig;
using pullsched::Duration;
using namespace std::chrono_literals;

namespace {

struct Sample {
    unsigned count = 4;
    std::optional<unsigned> maybe;
    std::size_t nodes = 64;
    std::optional<std::uint64_t> seed;
    double stress = 1.0;
    Duration load = 500us;
    std::optional<Duration> window;
    double rate = 1000;
    std::string kind = "cpu";
    std::string name;
    bool flag = false;
    std::vector<unsigned> list{2};

    void declare(OptionTable& t) {
        t.group("Sample");
        t.count("count", count, 1, 8, "a count");
        t.optionalCount("maybe", maybe, 1, 16, "an optional count", "unset");
        t.size("nodes", nodes, 2, 1000, "a size");
        t.optionalU64("seed", seed, "a seed", "the preset's");
        t.number("stress", stress, 0.01, 100, "a number");
        t.duration("load", load, 100ns, 10s, "a duration");
        t.optionalDuration("window", window, 0ns, 1h, "an optional duration", "100 x limit");
        t.rate("rate", rate, 1, 1e7, "a rate");
        t.choice("kind", kind, {"cpu", "memory"}, "a choice");
        t.text("name", name, "NAME", "a text");
        t.flag("flag", flag, "a flag");
        t.countList("list", list, 1, 64, "a list");
    }
};

std::string errorOf(const std::vector<std::string>& args) {
    Sample s;
    OptionTable t;
    s.declare(t);
    try {
        t.parse(args, [](std::string_view o) {
            return o == "elsewhere" ? std::string("it belongs to --mode=other") : std::string();
        });
    } catch (const UsageError& e) {
        return e.what();
    }
    return "no error";
}

}  // namespace

TEST(OptionTable, ParsesEveryKindIntoItsField) {
    Sample s;
    OptionTable t;
    s.declare(t);
    t.parse({"--count=8", "--maybe=3", "--nodes", "128", "--seed=0x37", "--stress=0.85",
             "--load=2ms", "--window=20ms", "--rate=2k/s", "--kind=memory", "--name=x", "--flag",
             "--list=1,2,4"});
    EXPECT_EQ(s.count, 8u);
    EXPECT_EQ(s.maybe, 3u);
    EXPECT_EQ(s.nodes, 128u);
    EXPECT_EQ(s.seed, 0x37u);
    EXPECT_DOUBLE_EQ(s.stress, 0.85);
    EXPECT_EQ(s.load, 2ms);
    EXPECT_EQ(s.window, 20ms);
    EXPECT_DOUBLE_EQ(s.rate, 2000);
    EXPECT_EQ(s.kind, "memory");
    EXPECT_EQ(s.name, "x");
    EXPECT_TRUE(s.flag);
    EXPECT_EQ(s.list, (std::vector<unsigned>{1, 2, 4}));
    EXPECT_TRUE(t.given("load"));
    EXPECT_FALSE(t.given("absent"));
}

TEST(OptionTable, DefaultsStayWhenNotGiven) {
    Sample s;
    OptionTable t;
    s.declare(t);
    t.parse({});
    EXPECT_EQ(s.count, 4u);
    EXPECT_FALSE(s.maybe);
    EXPECT_EQ(s.load, 500us);
    EXPECT_FALSE(t.given("count"));
}

TEST(OptionTable, ConfigurationIsTypedJsonWithUnitsInTheKeys) {
    Sample s;
    OptionTable t;
    s.declare(t);
    t.parse({"--load=2ms", "--seed=7"});
    const nlohmann::json c = t.configuration();
    EXPECT_EQ(c["count"], 4);
    EXPECT_TRUE(c["count"].is_number_integer());
    EXPECT_TRUE(c["maybe"].is_null());
    EXPECT_EQ(c["nodes"], 64);
    EXPECT_EQ(c["seed"], 7);
    EXPECT_DOUBLE_EQ(c["load_us"].get<double>(), 2000.0);
    EXPECT_TRUE(c["window_us"].is_null());
    EXPECT_DOUBLE_EQ(c["rate_per_s"].get<double>(), 1000.0);
    EXPECT_EQ(c["kind"], "cpu");
    EXPECT_EQ(c["flag"], false);
    EXPECT_EQ(c["list"], nlohmann::json::array({2}));
    EXPECT_FALSE(c.contains("load"));
}

TEST(OptionTable, ErrorsNameTheOptionAndItsBounds) {
    EXPECT_EQ(errorOf({"--count=9"}), "invalid --count=9: must be 1..8");
    EXPECT_EQ(errorOf({"--count=-1"}), "invalid --count='-1': expected a non-negative integer");
    // Past 64 bits: too large, not "not an integer", and never wrapped.
    EXPECT_EQ(errorOf({"--count=99999999999999999999"}),
              "invalid --count='99999999999999999999': too large (at most 18446744073709551615)");
    EXPECT_EQ(errorOf({"--seed=0x1ffffffffffffffff"}),
              "invalid --seed='0x1ffffffffffffffff': too large (at most 18446744073709551615)");
    EXPECT_EQ(errorOf({"--stress=1e-300"}), "invalid --stress=1e-300: must be 0.01..100");
    EXPECT_EQ(errorOf({"--stress=nan"}), "invalid --stress='nan': expected a number");
    EXPECT_EQ(errorOf({"--load=20s"}), "invalid --load=20s: must be 100ns..10.0s");
    EXPECT_NE(errorOf({"--load=fast"}).find("invalid --load='fast'"), std::string::npos);
    EXPECT_EQ(errorOf({"--kind=gpu"}), "invalid --kind='gpu': one of cpu | memory");
    EXPECT_EQ(errorOf({"--list=1,,2"}), "invalid --list='': expected a non-negative integer");
    EXPECT_EQ(errorOf({"--list=1,2,"}), "invalid --list='1,2,': expected a list like 1,2,4,8");
    EXPECT_EQ(errorOf({"--list=100"}), "invalid --list=100: must be 1..64");
    EXPECT_EQ(errorOf({"--list=2,4,2"}), "invalid --list='2,4,2': 2 is given twice");
    EXPECT_EQ(errorOf({"--list=4,04"}), "invalid --list='4,04': 4 is given twice");
    EXPECT_EQ(errorOf({"--load="}), "invalid --load: needs a value (--load=VALUE)");
    EXPECT_EQ(errorOf({"--load"}), "invalid --load: needs a value (--load=VALUE)");
    EXPECT_EQ(errorOf({"--flag=yes"}), "invalid --flag: takes no value");
    EXPECT_EQ(errorOf({"--count=2", "--count=3"}), "--count given more than once");
    EXPECT_EQ(errorOf({"--bogus=1"}), "unknown option --bogus (see --help)");
    EXPECT_EQ(errorOf({"--elsewhere=1"}),
              "--elsewhere does not apply here: it belongs to --mode=other");
    EXPECT_EQ(errorOf({"stray"}),
              "unexpected argument 'stray': options are --name=value (see --help)");
    EXPECT_EQ(errorOf({"-c"}), "unexpected argument '-c': options are --name=value (see --help)");
}

TEST(OptionTable, HelpShowsGroupsDefaultsAndBounds) {
    Sample s;
    OptionTable t;
    s.declare(t);
    const std::string h = t.help();
    EXPECT_NE(h.find("Sample:"), std::string::npos);
    EXPECT_NE(h.find("--load=DUR"), std::string::npos);
    EXPECT_NE(h.find("(default 500us; 100ns..10.0s)"), std::string::npos) << h;
    EXPECT_NE(h.find("(default 100 x limit; 0ns..1h 00min)"), std::string::npos) << h;
    EXPECT_NE(h.find("--flag "), std::string::npos);
    EXPECT_NE(h.find("cpu | memory"), std::string::npos);
}

TEST(OptionTable, DeclaringAnOptionTwiceIsAProgrammingError) {
    unsigned a = 0, b = 0;
    OptionTable t;
    t.count("x", a, 0, 1, "x");
    EXPECT_THROW(t.count("x", b, 0, 1, "x again"), std::logic_error);
}
