#include "report/VerdictColour.hpp"

namespace pullsched::rig {

VerdictClass verdictClassOf(const VerdictFacts& facts) {
    if (facts.correctnessFailure) return VerdictClass::Failure;
    if (facts.overload || facts.warned || facts.busyMachine || facts.partial)
        return VerdictClass::Caveat;
    return VerdictClass::Ok;
}

std::string_view verdictClassName(VerdictClass c) {
    switch (c) {
        case VerdictClass::Ok:
            return "ok";
        case VerdictClass::Caveat:
            return "caveat";
        case VerdictClass::Failure:
            return "failure";
    }
    return "caveat";
}

VerdictClass verdictClassOfName(std::string_view name) {
    if (name == "ok") return VerdictClass::Ok;
    if (name == "failure") return VerdictClass::Failure;
    return VerdictClass::Caveat;
}

std::string_view verdictTextColour(VerdictClass c) {
    switch (c) {
        case VerdictClass::Ok:
            return "#2e7d32";
        case VerdictClass::Caveat:
            return "#b26a00";  // darker than the fill: amber text on white stays readable
        case VerdictClass::Failure:
            return "#c62828";
    }
    return "#b26a00";
}

std::string_view verdictFillColour(VerdictClass c) {
    switch (c) {
        case VerdictClass::Ok:
            return "#66bb6a";
        case VerdictClass::Caveat:
            return "#ffa726";
        case VerdictClass::Failure:
            return "#e53935";
    }
    return "#ffa726";
}

}  // namespace pullsched::rig
