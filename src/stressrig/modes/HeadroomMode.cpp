// --mode=headroom: not yet ported to the mode contract (see legacy/).
#include "cli/UsageError.hpp"
#include "modes/Mode.hpp"

namespace pullsched::rig {

namespace {

class HeadroomMode final : public Mode {
  public:
    std::string_view name() const override { return "headroom"; }
    std::string_view summary() const override { return "(being ported)"; }
    void declare(OptionTable&) override {}
    ModeResult run(RunContext&) override { throw UsageError("--mode=headroom is being ported"); }
};

}  // namespace

std::unique_ptr<Mode> makeHeadroomMode() {
    return std::make_unique<HeadroomMode>();
}

}  // namespace pullsched::rig
