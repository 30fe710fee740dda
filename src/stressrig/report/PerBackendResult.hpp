#pragma once
// One mode's results on several backends as one result, as fio reports one job run on
// several engines: each backend's measurement is presented by the mode's own presenter,
// then this puts them side by side under the backend's name.

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "load/StopRequest.hpp"
#include "report/ModeResult.hpp"

namespace pullsched::rig {

/// One backend's result, presented alone.
struct BackendResult {
    std::string backend;
    ModeResult result;
};

/// One part: returned as it is (the keys of a one-backend result do not change). More:
/// result {"backends": {name: result, ...}}; text under a heading per backend; verdict,
/// warnings and failures prefixed by the backend; every table, plot and file renamed
/// `-<backend><suffix>` (a plot keeps drawing its own table, titled with its backend and
/// showing that backend's verdict); the flags of any part.
ModeResult combineBackendResults(std::string name, std::vector<BackendResult> parts);

/// `runOn(backend)` for each of `backends` in turn (a stop request ends the series after
/// the backend it cut short), combined as above.
ModeResult runOnEachBackend(std::string name, const std::vector<std::string>& backends,
                            const StopRequest& stop,
                            const std::function<ModeResult(const std::string&)>& runOn);

}  // namespace pullsched::rig
