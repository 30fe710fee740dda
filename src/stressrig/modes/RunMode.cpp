// --mode=run: not yet ported to the mode contract (see legacy/).
#include "cli/UsageError.hpp"
#include "modes/Mode.hpp"

namespace pullsched::rig {

namespace {

class RunMode final : public Mode {
  public:
    std::string_view name() const override { return "run"; }
    std::string_view summary() const override { return "(being ported)"; }
    void declare(OptionTable&) override {}
    ModeResult run(RunContext&) override { throw UsageError("--mode=run is being ported"); }
};

}  // namespace

std::unique_ptr<Mode> makeRunMode() {
    return std::make_unique<RunMode>();
}

}  // namespace pullsched::rig
