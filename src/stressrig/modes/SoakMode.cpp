// --mode=soak: not yet ported to the mode contract (see legacy/).
#include "cli/UsageError.hpp"
#include "modes/Mode.hpp"

namespace pullsched::rig {

namespace {

class SoakMode final : public Mode {
  public:
    std::string_view name() const override { return "soak"; }
    std::string_view summary() const override { return "(being ported)"; }
    void declare(OptionTable&) override {}
    ModeResult run(RunContext&) override { throw UsageError("--mode=soak is being ported"); }
};

}  // namespace

std::unique_ptr<Mode> makeSoakMode() {
    return std::make_unique<SoakMode>();
}

}  // namespace pullsched::rig
