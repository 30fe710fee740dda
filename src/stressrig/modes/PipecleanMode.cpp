// --mode=pipeclean: not yet ported to the mode contract (see legacy/).
#include "cli/UsageError.hpp"
#include "modes/Mode.hpp"

namespace pullsched::rig {

namespace {

class PipecleanMode final : public Mode {
  public:
    std::string_view name() const override { return "pipeclean"; }
    std::string_view summary() const override { return "(being ported)"; }
    void declare(OptionTable&) override {}
    ModeResult run(RunContext&) override { throw UsageError("--mode=pipeclean is being ported"); }
};

}  // namespace

std::unique_ptr<Mode> makePipecleanMode() {
    return std::make_unique<PipecleanMode>();
}

}  // namespace pullsched::rig
