// --mode=breaking-point: not yet ported to the mode contract (see legacy/).
#include "cli/UsageError.hpp"
#include "modes/Mode.hpp"

namespace pullsched::rig {

namespace {

class BreakingPointMode final : public Mode {
  public:
    std::string_view name() const override { return "breaking-point"; }
    std::string_view summary() const override { return "(being ported)"; }
    void declare(OptionTable&) override {}
    ModeResult run(RunContext&) override { throw UsageError("--mode=breaking-point is being ported"); }
};

}  // namespace

std::unique_ptr<Mode> makeBreakingPointMode() {
    return std::make_unique<BreakingPointMode>();
}

}  // namespace pullsched::rig
