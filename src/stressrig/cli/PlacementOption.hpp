#pragma once
// --placement: where pullsched's workers run. Declared by the modes that build their
// schedulers from the command line (not headroom, whose copies of one worker are left to
// the OS so that they spread).

#include <string>
#include <vector>

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

    Placement placement() const {
        for (const Placement p : kPlacements)
            if (value == toString(p)) return p;
        return Placement::Spread;  // unreachable: the table only accepts the names above
    }
};

}  // namespace pullsched::rig
