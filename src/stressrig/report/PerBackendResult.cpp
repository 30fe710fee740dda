#include "report/PerBackendResult.hpp"

namespace pullsched::rig {

ModeResult combineBackendResults(std::string name, std::vector<BackendResult> parts) {
    if (parts.size() == 1) return std::move(parts.front().result);
    ModeResult m;
    m.name = std::move(name);
    m.result["backends"] = nlohmann::json::object();
    for (BackendResult& p : parts) {
        ModeResult& r = p.result;
        const std::string& b = p.backend;
        m.text.push_back("[" + b + "] " + r.verdict);
        for (std::string& l : r.text)
            m.text.push_back("  " + std::move(l));
        m.verdict += (m.verdict.empty() ? "" : "; ") + b + ": " + r.verdict;
        for (std::string& w : r.warnings)
            m.warnings.push_back(b + ": " + std::move(w));
        for (std::string& f : r.failures)
            m.failures.push_back(b + ": " + std::move(f));
        m.systemFailure = m.systemFailure || r.systemFailure;
        m.partial = m.partial || r.partial;
        m.overload = m.overload || r.overload;
        if (m.calibration.is_null()) m.calibration = std::move(r.calibration);
        m.result["backends"][b] = std::move(r.result);
        for (ResultTable& t : r.tables)
            m.tables.push_back({"-" + b + t.suffix, std::move(t.table)});
        for (ResultPlot& pl : r.plots) {
            pl.script.markAsPart(b, r.verdict);
            m.plots.push_back({"-" + b + pl.suffix, std::move(pl.script)});
        }
        for (ResultFile& f : r.files)
            m.files.push_back({"-" + b + f.suffix, std::move(f.content), f.kind});
    }
    return m;
}

ModeResult runOnEachBackend(std::string name, const std::vector<std::string>& backends,
                            const StopRequest& stop,
                            const std::function<ModeResult(const std::string&)>& runOn) {
    std::vector<BackendResult> parts;
    for (const std::string& b : backends) {
        if (!parts.empty() && stop.requested()) break;
        parts.push_back({b, runOn(b)});
    }
    return combineBackendResults(std::move(name), std::move(parts));
}

}  // namespace pullsched::rig
