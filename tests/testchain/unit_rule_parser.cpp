// The user rule syntax: valid specs, round trip, and errors naming the offending part.
#include <gtest/gtest.h>

#include <string>

#include "pullsched/testchain/Presets.hpp"
#include "pullsched/testchain/RuleParser.hpp"

using namespace pullsched::testchain;

namespace {

std::string errorOf(std::string_view spec, const RuleSet& base = RuleSet{}) {
    try {
        RuleParser::parse(spec, base);
    } catch (const RuleSyntaxError& e) {
        return e.what();
    }
    return "<no error>";
}

}  // namespace

TEST(RuleParser, BurstRulesFromTheCommandLine) {
    const RuleSet r =
        RuleParser::parse("expand:p=0.27,max=4;reduce:p=0.44,min=2,max=6;weight:p=0.66,max=3");
    EXPECT_EQ(r.expansion.probabilityValue(), 0.27);
    EXPECT_EQ(r.expansion.maxValue(), 4u);
    EXPECT_EQ(r.reduction.minValue(), 2u);
    EXPECT_EQ(r.reduction.maxValue(), 6u);
    EXPECT_EQ(r.weight.maxValue(), 3u);
    EXPECT_TRUE(r.seeding.isNeutral());
    EXPECT_TRUE(r.pruning.isNeutral());
    RuleSet burst = preset("burst");
    burst.seed.reset();
    EXPECT_EQ(r, burst);
}

TEST(RuleParser, AllKeys) {
    const RuleSet r = RuleParser::parse(
        " seed : atStart=1 ; prune:atJoin=1;expand:atLink=2; reduce:p=.5,shuffle ;weight:value=3;",
        RuleSet{8});
    EXPECT_EQ(r.maxFan(), 8u);
    EXPECT_EQ(r.seeding.mode(), Rule::Mode::AtStart);
    EXPECT_EQ(r.seeding.fixedValue(), 1u);
    EXPECT_EQ(r.pruning.mode(), Rule::Mode::AtJoin);
    EXPECT_EQ(r.expansion.mode(), Rule::Mode::AtLink);
    EXPECT_EQ(r.expansion.fixedValue(), 2u);
    EXPECT_EQ(r.reduction.probabilityValue(), 0.5);
    EXPECT_EQ(r.reduction.shuffleSeed(), 55u);
    EXPECT_EQ(r.reduction.maxValue(), 8u);
    EXPECT_EQ(r.weight.mode(), Rule::Mode::Fixed);
    EXPECT_EQ(r.weight.fixedValue(), 3u);
    EXPECT_EQ(RuleParser::parse("reduce:shuffle=9").reduction.shuffleSeed(), 9u);
}

TEST(RuleParser, KeysApplyInOrderWithBuilderSemantics) {
    // min then max vs. max then min give different rules (builder adjusts the other bound)
    const RuleSet a = RuleParser::parse("expand:min=5,max=3");
    EXPECT_EQ(a.expansion.minValue(), 2u);
    EXPECT_EQ(a.expansion.maxValue(), 3u);
    const RuleSet b = RuleParser::parse("expand:max=3,min=5");
    EXPECT_EQ(b.expansion.minValue(), 5u);
    EXPECT_EQ(b.expansion.maxValue(), 6u);
    // the last mode-setting key wins
    EXPECT_EQ(RuleParser::parse("weight:value=2,p=0.5").weight.mode(), Rule::Mode::Random);
    EXPECT_EQ(RuleParser::parse("weight:p=0.5,value=2").weight.mode(), Rule::Mode::Fixed);
    // a rule named twice continues where it left off
    const RuleSet c = RuleParser::parse("expand:p=0.4;expand:max=2");
    EXPECT_EQ(c.expansion.probabilityValue(), 0.4);
    EXPECT_EQ(c.expansion.maxValue(), 2u);
    // max is limited to the base's maxFan
    EXPECT_EQ(RuleParser::parse("expand:max=12", RuleSet{8}).expansion.maxValue(), 8u);
}

TEST(RuleParser, EmptySpecKeepsBase) {
    RuleSet base = preset("chains");
    EXPECT_EQ(RuleParser::parse("", base), base);
    EXPECT_EQ(RuleParser::parse(" ; ", base), base);
}

TEST(RuleParser, ErrorsNameTheOffendingPart) {
    EXPECT_EQ(errorOf("expand:p=0.27;reduce:p=abc"),
              "rule 2 'reduce:p=abc': value 'abc' of key 'p' is not a number");
    EXPECT_EQ(errorOf("expand:p=1.5"),
              "rule 1 'expand:p=1.5': value '1.5' of key 'p' must be in 0..1");
    EXPECT_EQ(
        errorOf("grow:p=0.5"),
        "rule 1 'grow:p=0.5': unknown rule 'grow' (valid: seed, expand, reduce, prune, weight)");
    EXPECT_EQ(errorOf("expand:p=0.5;prune:q=1"),
              "rule 2 'prune:q=1': unknown key 'q' (valid: p, min, max, shuffle, value, atStart, "
              "atJoin, atLink)");
    EXPECT_EQ(errorOf("expand"),
              "rule 1 'expand': expected RULE:KEY=VAL[,KEY=VAL...] (missing ':')");
    EXPECT_EQ(errorOf("expand:"), "rule 1 'expand:': no KEY=VAL after ':'");
    EXPECT_EQ(errorOf("expand:max"), "rule 1 'expand:max': key 'max' needs a value (KEY=VAL)");
    EXPECT_EQ(errorOf("expand:max=-2"),
              "rule 1 'expand:max=-2': value '-2' of key 'max' is not a non-negative integer");
    EXPECT_EQ(errorOf("expand:min=2.5"),
              "rule 1 'expand:min=2.5': value '2.5' of key 'min' is not a non-negative integer");
    EXPECT_EQ(errorOf("expand:p=0.5,,max=2"),
              "rule 1 'expand:p=0.5,,max=2': empty KEY=VAL (stray ',')");
    EXPECT_EQ(errorOf("expand:=3"), "rule 1 'expand:=3': missing key in '=3'");
    EXPECT_EQ(errorOf("weight:value=99999999"),
              "rule 1 'weight:value=99999999': value '99999999' of key 'value' is too large");
    EXPECT_EQ(errorOf("expand:p="), "rule 1 'expand:p=': value '' of key 'p' is not a number");
    EXPECT_EQ(errorOf("expand:max=3,max=35"),
              "rule 1 'expand:max=3,max=35': key 'max' given twice");
}

TEST(RuleParser, SyntaxErrorIsAnInvalidArgument) {
    EXPECT_THROW(RuleParser::parse("expand:p=x"), std::invalid_argument);
}

TEST(RuleParser, ToStringRoundTripsEveryPreset) {
    for (const auto& info : presetList()) {
        const RuleSet r = preset(info.name);
        const std::string spec = toString(r);
        RuleSet back = RuleParser::parse(spec, RuleSet{r.maxFan()});
        back.seed = r.seed;
        EXPECT_EQ(back, r) << info.name << ": " << spec;
    }
    EXPECT_EQ(toString(preset("burst")),
              "expand:p=0.27,max=4;reduce:p=0.44,max=6,min=2;weight:p=0.66,max=3");
    EXPECT_EQ(toString(preset("segments3")),
              "seed:p=0.8,max=1;reduce:p=0.75,max=3;prune:atJoin=1;weight:value=1");
    EXPECT_EQ(toString(RuleSet{}), "");
}

TEST(RuleParser, ToStringRoundTripsAwkwardBounds) {
    RuleSet r{16};
    r.expansion.probability(0.125).minVal(16).shuffle(3);  // max = 17 beyond maxFan
    r.weight.maxVal(0);
    const RuleSet back = RuleParser::parse(toString(r), RuleSet{16});
    EXPECT_EQ(back, r) << toString(r);
}
