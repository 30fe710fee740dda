#include "backends/StreamBackends.hpp"

#include <stdexcept>
#include <string>

namespace pullsched::rig {

std::unique_ptr<StreamBackend> makeStreamBackend(std::string_view name) {
    if (name == "pullsched") return makePullschedStream();
    if (name == "tbb") return makeTbbStream();
    if (name == "openmp") return makeOpenMpStream();
    if (name == "asio") return makeAsioStream();
    if (name == "pool") return makePoolStream();
    throw std::invalid_argument("unknown stream backend '" + std::string(name) + "'");
}

}  // namespace pullsched::rig
