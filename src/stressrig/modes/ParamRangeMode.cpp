// --mode=param-range: not yet ported to the mode contract (see legacy/).
#include "cli/UsageError.hpp"
#include "modes/Mode.hpp"

namespace pullsched::rig {

namespace {

class ParamRangeMode final : public Mode {
  public:
    std::string_view name() const override { return "param-range"; }
    std::string_view summary() const override { return "(being ported)"; }
    void declare(OptionTable&) override {}
    ModeResult run(RunContext&) override { throw UsageError("--mode=param-range is being ported"); }
};

}  // namespace

std::unique_ptr<Mode> makeParamRangeMode() {
    return std::make_unique<ParamRangeMode>();
}

}  // namespace pullsched::rig
