#include "measure/Environment.hpp"

#include <sys/utsname.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <thread>

#include <fmt/format.h>

#include "measure/BuildCommit.hpp"

namespace pullsched::rig {

namespace {

std::string trim(const std::string& s) {
    const auto b = s.find_first_not_of(" \t");
    const auto e = s.find_last_not_of(" \t");
    return b == std::string::npos ? std::string{} : s.substr(b, e - b + 1);
}

std::string buildTypeText() {
#if defined(PULLSCHED_BUILD_TYPE)
    std::string build = PULLSCHED_BUILD_TYPE;
#else
    std::string build;
#endif
#if defined(__OPTIMIZE__)
    std::string flags = "optimised";
#else
    std::string flags = "unoptimised";
#endif
#if defined(NDEBUG)
    flags += ", NDEBUG";
#else
    flags += ", assertions on";
#endif
#if defined(__SANITIZE_ADDRESS__)
    flags += ", ASan";
#endif
#if defined(__SANITIZE_THREAD__)
    flags += ", TSan";
#endif
    return build.empty() ? flags : fmt::format("{} ({})", build, flags);
}

std::string jsonOrNull(const std::optional<double>& v) {
    return v ? fmt::format("{:.2f}", *v) : "n/a";
}

}  // namespace

Environment Environment::capture() {
    Environment env;
#if defined(PULLSCHED_VERSION)
    env.version = PULLSCHED_VERSION;
#else
    env.version = "unknown";
#endif
    env.commit = buildCommit();
    env.buildType = buildTypeText();
#if defined(__clang__)
    env.compiler = fmt::format("clang {}", __clang_version__);
#elif defined(__GNUC__)
    env.compiler = fmt::format("gcc {}", __VERSION__);
#else
    env.compiler = "unknown";
#endif
    utsname u{};
    if (uname(&u) == 0)
        env.machine = fmt::format("{} ({} {} {})", u.nodename, u.sysname, u.release, u.machine);
    env.cpu = "unknown";
    std::ifstream cpuinfo("/proc/cpuinfo");
    for (std::string line; std::getline(cpuinfo, line);)
        if (line.starts_with("model name")) {
            const auto colon = line.find(':');
            if (colon != std::string::npos) env.cpu = trim(line.substr(colon + 1));
            break;
        }
    env.cores = std::max(1u, std::thread::hardware_concurrency());
    const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    std::tm tm{};
    gmtime_r(&now, &tm);
    char date[32];
    std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &tm);
    env.date = date;
    env.loadAverageStart = loadAverage();
    env.machineAtCapture = MachineCpuTicks::read();
    env.ownCpuAtCapture = ProcessSampler::snapshot().cpuTime;
    return env;
}

void Environment::finish() {
    loadAverageEnd = loadAverage();
    const MachineCpuTicks now = MachineCpuTicks::read();
    const double other = MachineCpuTicks::otherWorkCores(
        machineAtCapture, now, ProcessSampler::snapshot().cpuTime - ownCpuAtCapture,
        ::sysconf(_SC_CLK_TCK), cores);
    otherWorkCores = std::isnan(other) ? std::nullopt : std::optional<double>(other);
}

std::optional<double> Environment::loadAverage() {
    double l[1];
    if (::getloadavg(l, 1) != 1) return std::nullopt;
    return l[0];
}

namespace {
bool loadAbove(const Environment& e) {
    const double limit = e.cores / 2.0;
    return (e.loadAverageStart && *e.loadAverageStart > limit) ||
           (e.loadAverageEnd && *e.loadAverageEnd > limit);
}
bool otherWorkAbove(const Environment& e) {
    return e.otherWorkCores && *e.otherWorkCores >= e.cores / 4.0;
}
}  // namespace

bool Environment::busy() const {
    return loadAbove(*this) || otherWorkAbove(*this);
}

bool Environment::busyNow() const {
    const std::optional<double> now = loadAverage();
    return busy() || (now && *now > cores / 2.0);
}

std::string Environment::busyWarning() const {
    if (loadAbove(*this)) {
        const double l = std::max(loadAverageStart.value_or(0), loadAverageEnd.value_or(0));
        return fmt::format(
            "load average {:.2f} on {} cores: other work is running, so times and lateness "
            "include competition for the CPU (results will be noisy)",
            l, cores);
    }
    if (otherWorkAbove(*this))
        return fmt::format(
            "other work kept {:.2f} of {} cores busy during the run, so times and lateness "
            "include competition for the CPU (results will be noisy)",
            *otherWorkCores, cores);
    return {};
}

nlohmann::json Environment::json() const {
    nlohmann::json j;
    j["version"] = version;
    j["commit"] = commit;
    j["build_type"] = buildType;
    j["compiler"] = compiler;
    j["machine"] = machine;
    j["cpu"] = cpu;
    j["cores"] = cores;
    j["date"] = date;
    j["load_average_start"] = loadAverageStart ? nlohmann::json(*loadAverageStart) : nullptr;
    j["load_average_end"] = loadAverageEnd ? nlohmann::json(*loadAverageEnd) : nullptr;
    j["other_work_cores"] = otherWorkCores ? nlohmann::json(*otherWorkCores) : nullptr;
    j["busy"] = busy();
    return j;
}

std::vector<std::pair<std::string, std::string>> Environment::comments() const {
    return {
        {"version", fmt::format("{} ({})", version, commit)},
        {"build type", buildType},
        {"compiler", compiler},
        {"machine", machine},
        {"cpu", fmt::format("{}, {} hardware threads", cpu, cores)},
        {"date", date},
        {"load average", fmt::format("{} at start, {} at end", jsonOrNull(loadAverageStart),
                                     jsonOrNull(loadAverageEnd))},
        {"other work",
         fmt::format("{} of {} cores during the run", jsonOrNull(otherWorkCores), cores)},
    };
}

}  // namespace pullsched::rig
