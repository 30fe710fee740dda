// --mode=closed: not yet ported to the mode contract (see legacy/).
#include "cli/UsageError.hpp"
#include "modes/Mode.hpp"

namespace pullsched::rig {

namespace {

class ClosedMode final : public Mode {
  public:
    std::string_view name() const override { return "closed"; }
    std::string_view summary() const override { return "(being ported)"; }
    void declare(OptionTable&) override {}
    ModeResult run(RunContext&) override { throw UsageError("--mode=closed is being ported"); }
};

}  // namespace

std::unique_ptr<Mode> makeClosedMode() {
    return std::make_unique<ClosedMode>();
}

}  // namespace pullsched::rig
