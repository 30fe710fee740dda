#pragma once
// Test helpers for the tests of generated scripts: a fresh directory per test, and the
// inlined data block of a Gnuplot script.

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>

#include <filesystem>
#include <string>

#include <gtest/gtest.h>

namespace scripttest {

/// A fresh directory per test (`pullsched_<prefix>_<test>_<pid>`), removed at the end.
struct TempDir {
    std::filesystem::path path;
    explicit TempDir(const std::string& prefix) {
        const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
        path = std::filesystem::temp_directory_path() /
               ("pullsched_" + prefix + "_" + info->name() + "_" + std::to_string(::getpid()));
        std::filesystem::remove_all(path);
        std::filesystem::create_directories(path);
    }
    ~TempDir() { std::filesystem::remove_all(path); }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
};

/// The rows of the script's `$RunData` data block (header included), or "<no datablock>".
inline std::string datablockOf(const std::string& script) {
    const std::string open = "$RunData << _End_of_Data_\n";
    const auto a = script.find(open);
    const auto b = script.find("\n_End_of_Data_\n");
    if (a == std::string::npos || b == std::string::npos || b < a) return "<no datablock>";
    return script.substr(a + open.size(), b + 1 - a - open.size());
}

/// Exit status and combined stdout/stderr of a shell command.
struct CommandRun {
    int status = -1;
    std::string output;
};

inline CommandRun runCommand(const std::string& cmd) {
    CommandRun r;
    FILE* p = popen((cmd + " 2>&1").c_str(), "r");
    if (!p) return r;
    char buf[512];
    while (std::fgets(buf, sizeof buf, p))
        r.output += buf;
    const int st = pclose(p);
    r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    return r;
}

}  // namespace scripttest
