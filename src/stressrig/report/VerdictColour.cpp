#include "report/VerdictColour.hpp"

#include <cstddef>

namespace pullsched::rig {

VerdictClass verdictClassOf(const VerdictFacts& facts) {
    if (facts.correctnessFailure) return VerdictClass::Failure;
    if (facts.overload || facts.warned || facts.busyMachine || facts.partial)
        return VerdictClass::Caveat;
    return VerdictClass::Ok;
}

namespace {

/// Per class, in the enum's order: its name and colours.
struct VerdictLook {
    std::string_view name, text, fill;
};
// the caveat's text colour is darker than its fill: amber text on white stays readable
constexpr VerdictLook kLooks[] = {{"ok", "#2e7d32", "#66bb6a"},
                                  {"caveat", "#b26a00", "#ffa726"},
                                  {"failure", "#c62828", "#e53935"}};

const VerdictLook& lookOf(VerdictClass c) {
    return kLooks[static_cast<std::size_t>(c)];
}

}  // namespace

std::string_view verdictClassName(VerdictClass c) {
    return lookOf(c).name;
}

VerdictClass verdictClassOfName(std::string_view name) {
    for (const VerdictClass c : {VerdictClass::Ok, VerdictClass::Failure})
        if (lookOf(c).name == name) return c;
    return VerdictClass::Caveat;
}

std::string_view verdictTextColour(VerdictClass c) {
    return lookOf(c).text;
}

std::string_view verdictFillColour(VerdictClass c) {
    return lookOf(c).fill;
}

}  // namespace pullsched::rig
