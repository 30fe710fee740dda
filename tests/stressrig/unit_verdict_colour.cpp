// A verdict's colour says what it means: green only when nothing qualifies the result,
// amber for overload and caveats (a measurement, exit 0), red only for a correctness
// failure.
#include <gtest/gtest.h>

#include "report/VerdictColour.hpp"

using namespace pullsched::rig;

TEST(VerdictColour, NothingToQualifyIsOkAndGreen) {
    const VerdictClass c = verdictClassOf({});
    EXPECT_EQ(c, VerdictClass::Ok);
    EXPECT_EQ(verdictClassName(c), "ok");
    EXPECT_EQ(verdictTextColour(c), "#2e7d32");
}

TEST(VerdictColour, EveryCaveatAloneIsAmber) {
    VerdictFacts overload, warned, busy, partial;
    overload.overload = true;
    warned.warned = true;
    busy.busyMachine = true;
    partial.partial = true;
    for (const VerdictFacts& f : {overload, warned, busy, partial}) {
        EXPECT_EQ(verdictClassOf(f), VerdictClass::Caveat);
        EXPECT_EQ(verdictClassName(verdictClassOf(f)), "caveat");
    }
    EXPECT_EQ(verdictTextColour(VerdictClass::Caveat), "#b26a00");
    EXPECT_EQ(verdictFillColour(VerdictClass::Caveat), "#ffa726");
}

TEST(VerdictColour, CorrectnessFailureIsRedWhateverElseHappened) {
    VerdictFacts f;
    f.correctnessFailure = true;
    EXPECT_EQ(verdictClassOf(f), VerdictClass::Failure);
    f.overload = f.warned = f.busyMachine = f.partial = true;
    EXPECT_EQ(verdictClassOf(f), VerdictClass::Failure);
    EXPECT_EQ(verdictClassName(VerdictClass::Failure), "failure");
    EXPECT_EQ(verdictTextColour(VerdictClass::Failure), "#c62828");
}

TEST(VerdictColour, TheThreeClassesLookDifferent) {
    for (const VerdictClass a : {VerdictClass::Ok, VerdictClass::Caveat, VerdictClass::Failure})
        for (const VerdictClass b : {VerdictClass::Ok, VerdictClass::Caveat, VerdictClass::Failure})
            if (a != b) {
                EXPECT_NE(verdictTextColour(a), verdictTextColour(b));
                EXPECT_NE(verdictFillColour(a), verdictFillColour(b));
            }
}
