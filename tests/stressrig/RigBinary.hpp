#pragma once
// Test helper: run the built stressrig in a scratch directory and collect what it said.

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace rigtest {

namespace fs = std::filesystem;

struct Result {
    int code = -1;
    std::string out, err;
};

inline std::string slurp(const fs::path& p) {
    std::ifstream in(p);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

/// A fresh, empty directory for one test (`prefix-name-pid` under the temp dir).
inline fs::path scratch(const std::string& prefix, const std::string& name) {
    fs::path d = fs::temp_directory_path() /
                 ("pullsched-" + prefix + "-" + name + "-" + std::to_string(::getpid()));
    fs::remove_all(d);
    fs::create_directories(d);
    return d;
}

/// Runs the built stressrig with `args` in `dir`; stdout/stderr captured, not left behind.
inline Result rig(const std::string& args, const fs::path& dir) {
    const fs::path bin = fs::path(PULLSCHED_BIN_DIR) / "stressrig";
    const std::string cmd =
        "cd '" + dir.string() + "' && '" + bin.string() + "' " + args + " >stdout.txt 2>stderr.txt";
    const int st = std::system(cmd.c_str());
    Result r;
    r.code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    r.out = slurp(dir / "stdout.txt");
    r.err = slurp(dir / "stderr.txt");
    fs::remove(dir / "stdout.txt");
    fs::remove(dir / "stderr.txt");
    return r;
}

}  // namespace rigtest
