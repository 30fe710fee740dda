#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

#include "pullsched/testchain/RuleSet.hpp"

namespace pullsched::testchain {

/// A malformed rule spec; what() names the offending rule and part.
class RuleSyntaxError : public std::invalid_argument {
  public:
    using std::invalid_argument::invalid_argument;
};

/// User rules on the command line or in a file:
///
///     RULE:KEY=VAL[,KEY=VAL...][;RULE:...]
///     RULE  seed | expand | reduce | prune | weight
///     KEY   p (0..1) | min | max | shuffle (bare = 55) | value | atStart | atJoin | atLink
///
/// e.g. `expand:p=0.27,max=4;reduce:p=0.44,min=2,max=6;weight:p=0.66,max=3`.
/// Keys are applied in the given order with the builder semantics of Rule; the last
/// of value/atStart/atJoin/atLink/random keys decides the rule's mode. Whitespace
/// around parts and empty parts (e.g. a trailing ';') are ignored. Rules start from `base`.
class RuleParser {
  public:
    static RuleSet parse(std::string_view spec, const RuleSet& base = RuleSet{});
    /// Canonical spec of the non-neutral rules; parse(toString(r), RuleSet{r.maxFan()})
    /// gives r back (the graph seed is not part of the rule syntax).
    static std::string toString(const RuleSet& rules);
    static std::string toString(const Rule& rule);  ///< "p=0.27,max=4" (empty if neutral)
};

/// Free-function spelling for reports.
inline std::string toString(const RuleSet& rules) {
    return RuleParser::toString(rules);
}

}  // namespace pullsched::testchain
