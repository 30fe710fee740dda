#pragma once
// --placement: where pullsched's workers run. Declared by the modes that build their
// schedulers from the command line (not headroom, whose copies of one worker are left to
// the OS so that they spread).

#include <string>

#include "cli/OptionTable.hpp"
#include "load/Placement.hpp"

namespace pullsched::rig {

struct PlacementOption {
    std::string value = "spread";

    void declare(OptionTable& t) {
        t.choice("placement", value, {"spread", "pinned", "os"},
                 "where pullsched's workers run: spread (the OS places them, a busy worker "
                 "moves off a CPU another busy worker uses), pinned (worker i on the i-th "
                 "CPU the process may use), os (the OS alone); other backends are not "
                 "affected");
    }

    Placement placement() const {
        if (value == "pinned") return Placement::Pinned;
        if (value == "os") return Placement::Os;
        return Placement::Spread;
    }
};

}  // namespace pullsched::rig
