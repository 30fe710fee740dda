#include "report/ChangeColour.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <string>

namespace pullsched::rig {

namespace {

// Words of metric names, as the rig writes them in CSV headers and JSON keys.
constexpr std::array<std::string_view, 19> kLowerIsBetter{
    "runtime",  "delta",  "lateness", "expired",  "cancelled",  "failed",     "lost",
    "repeated", "misses", "drops",    "failures", "mismatch",   "incomplete", "sdev",
    "backlog",  "metg",   "overhead", "late",     "interrupted"};
constexpr std::array<std::string_view, 9> kHigherIsBetter{"efficiency", "concurrency", "completed",
                                                          "complete",   "ok",          "achieved",
                                                          "throughput", "sustained",   "breaking"};

template <std::size_t N>
bool contains(const std::array<std::string_view, N>& words, const std::string& w) {
    return std::find(words.begin(), words.end(), w) != words.end();
}

}  // namespace

BetterDirection betterDirectionOf(std::string_view metric) {
    bool lower = false, higher = false;
    std::string word;
    auto judgeWord = [&] {
        lower = lower || contains(kLowerIsBetter, word);
        higher = higher || contains(kHigherIsBetter, word);
        word.clear();
    };
    for (const char c : metric) {
        if (std::isalnum(static_cast<unsigned char>(c)))
            word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        else
            judgeWord();
    }
    judgeWord();
    // a name with words of both kinds ("lateness ... completed") says nothing sure
    if (lower == higher) return BetterDirection::None;
    return lower ? BetterDirection::Lower : BetterDirection::Higher;
}

ChangeClass changeClassOf(Judgement judgement, double changePercent, BetterDirection direction) {
    if (judgement == Judgement::Within) return ChangeClass::WithinNoise;
    if (judgement == Judgement::None) return ChangeClass::NoJudgement;
    if (direction == BetterDirection::None || std::isnan(changePercent) || changePercent == 0)
        return ChangeClass::Changed;
    const bool up = changePercent > 0;
    return up == (direction == BetterDirection::Higher) ? ChangeClass::Better : ChangeClass::Worse;
}

namespace {

/// Per class, in the enum's order: its colour and legend.
struct ChangeLook {
    std::string_view colour, legend;
};
constexpr ChangeLook kLooks[] = {
    {"#2e7d32", "B better, beyond the noise"},
    {"#ef6c00", "B worse, beyond the noise"},
    {"#7e57c2", "changed beyond the noise (no better direction)"},
    {"#90a4ae", "within the noise"},
    {"#d6d6d6", "no judgement possible: single value or too few reps"}};

}  // namespace

std::string_view changeColour(ChangeClass c) {
    return kLooks[static_cast<std::size_t>(c)].colour;
}

std::string_view changeLegend(ChangeClass c) {
    return kLooks[static_cast<std::size_t>(c)].legend;
}

}  // namespace pullsched::rig
