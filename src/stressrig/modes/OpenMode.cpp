// --mode=open: not yet ported to the mode contract (see legacy/).
#include "cli/UsageError.hpp"
#include "modes/Mode.hpp"

namespace pullsched::rig {

namespace {

class OpenMode final : public Mode {
  public:
    std::string_view name() const override { return "open"; }
    std::string_view summary() const override { return "(being ported)"; }
    void declare(OptionTable&) override {}
    ModeResult run(RunContext&) override { throw UsageError("--mode=open is being ported"); }
};

}  // namespace

std::unique_ptr<Mode> makeOpenMode() {
    return std::make_unique<OpenMode>();
}

}  // namespace pullsched::rig
