// --mode=sweep: not yet ported to the mode contract (see legacy/).
#include "cli/UsageError.hpp"
#include "modes/Mode.hpp"

namespace pullsched::rig {

namespace {

class SweepMode final : public Mode {
  public:
    std::string_view name() const override { return "sweep"; }
    std::string_view summary() const override { return "(being ported)"; }
    void declare(OptionTable&) override {}
    ModeResult run(RunContext&) override { throw UsageError("--mode=sweep is being ported"); }
};

}  // namespace

std::unique_ptr<Mode> makeSweepMode() {
    return std::make_unique<SweepMode>();
}

}  // namespace pullsched::rig
