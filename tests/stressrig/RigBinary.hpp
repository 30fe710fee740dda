#pragma once
// Test helper: run the built stressrig in a scratch directory and collect what it said.

#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

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

/// `text` as one JSON object; a test failure naming `what` (and an empty object) if not.
inline nlohmann::json parseJson(const std::string& text, const std::string& what) {
    try {
        return nlohmann::json::parse(text);
    } catch (const std::exception& e) {
        ADD_FAILURE() << what << " is not one JSON object: " << e.what() << "\n" << text;
        return nlohmann::json::object();
    }
}

/// The envelope a run printed with --json.
inline nlohmann::json stdoutEnvelope(const Result& r) {
    return parseJson(r.out, "stdout (stderr: " + r.err + ")");
}

/// The envelope (manifest) a run wrote as `<name>.json`.
inline nlohmann::json fileEnvelope(const fs::path& file) {
    return parseJson(slurp(file), file.string());
}

/// A run with --json --quiet --no-render and its envelope (empty unless it exited 0).
struct JsonRun {
    Result r;
    nlohmann::json j;
};

/// Runs `args --json --quiet --no-render` in `dir`; expects exit `expected`.
inline JsonRun rigJson(const std::string& args, const fs::path& dir, int expected = 0) {
    JsonRun run;
    run.r = rig(args + " --json --quiet --no-render", dir);
    EXPECT_EQ(run.r.code, expected) << args << "\n" << run.r.err;
    if (run.r.code == 0 || !run.r.out.empty()) run.j = stdoutEnvelope(run.r);
    return run;
}

/// A duration in microseconds, as the rig's JSON states them.
inline double usOf(std::chrono::nanoseconds d) {
    return std::chrono::duration<double, std::micro>(d).count();
}

}  // namespace rigtest
