#pragma once
// --placement: where pullsched's workers run. Declared by the modes that build their
// schedulers from the command line (not headroom, whose copies of one worker are left to
// the OS so that they spread).

#include <string>
#include <vector>

#include "cli/BackendOptions.hpp"
#include "cli/OptionTable.hpp"
#include "load/Placement.hpp"

namespace pullsched::rig {

struct PlacementOption {
    std::string value = "spread";

    void declare(OptionTable& t) {
        std::vector<std::string> names;
        for (const Placement p : kPlacements)
            names.emplace_back(toString(p));
        t.choice("placement", value, std::move(names),
                 "where pullsched's workers run: spread (the OS places them, a busy worker "
                 "moves off a CPU another busy worker uses, a woken worker is kept off its "
                 "waker's CPU), pinned (worker i on the i-th "
                 "CPU the process may use), os (the OS alone); other backends are not "
                 "affected");
    }

    /// UsageError when --placement was given and a chosen backend places no workers: it
    /// would be measured otherwise than asked, so it is named and refused.
    void refuseIgnoredBy(const OptionTable& t, const BackendOptions& backends) const {
        if (t.given("placement"))
            backends.refuseLacking(&BackendInfo::placement, "--placement=" + value,
                                   "no worker placement", "leave out --placement to compare {}");
    }

    Placement placement() const {
        for (const Placement p : kPlacements)
            if (value == toString(p)) return p;
        return Placement::Spread;  // unreachable: the table only accepts the names above
    }
};

}  // namespace pullsched::rig
