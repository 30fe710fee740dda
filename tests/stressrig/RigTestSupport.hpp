#pragma once
// The one helper header of the rig's tests: run the built stressrig in a scratch directory
// and read what it said and wrote (in the newest run's folder), fresh directories per
// test, shell commands, and the data block of a generated Gnuplot script. The tests that
// hold shown figures to the JSON add FiguresSupport.hpp on top of it.

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

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

/// The stressrig binary the tests run (built before them).
inline fs::path stressrigBinary() {
    return fs::path(PULLSCHED_BIN_DIR) / "stressrig";
}

/// Whether the shell finds `tool` (gnuplot, python3, ...): tests of optional tools skip
/// without it.
inline bool haveTool(const std::string& tool) {
    return std::system(("command -v " + tool + " >/dev/null 2>&1").c_str()) == 0;
}

/// Runs the built stressrig with `args` in `dir`; stdout/stderr captured, not left behind.
inline Result rig(const std::string& args, const fs::path& dir) {
    const fs::path bin = stressrigBinary();
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

/// Starts the built stressrig with `args` (without the program name) in `dir`, its stdout
/// and stderr going to stdout.txt and stderr.txt there, and returns its pid at once: for
/// tests that signal a run while it is going.
inline pid_t startRig(std::vector<std::string> args, const fs::path& dir) {
    const std::string bin = stressrigBinary().string();
    args.insert(args.begin(), "stressrig");
    const pid_t pid = ::fork();
    if (pid == 0) {
        std::vector<char*> argv;
        for (std::string& a : args)
            argv.push_back(a.data());
        argv.push_back(nullptr);
        if (::chdir(dir.c_str()) != 0) ::_exit(127);
        ::dup2(::open("stdout.txt", O_WRONLY | O_CREAT | O_TRUNC, 0644), 1);
        ::dup2(::open("stderr.txt", O_WRONLY | O_CREAT | O_TRUNC, 0644), 2);
        ::execv(bin.c_str(), argv.data());
        ::_exit(127);
    }
    return pid;
}

/// Whether `file` comes to contain `text`, looked at every 50 ms at most `looks` times.
/// The bound only keeps a broken binary from hanging the test; nothing is timed.
inline bool waitForText(const fs::path& file, const std::string& text, int looks = 1200) {
    for (int i = 0; i < looks; ++i) {
        if (slurp(file).find(text) != std::string::npos) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return false;
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

/// The newest run's folder in the --out folder `out`, the one `out/latest` links; a test
/// failure (and `out/latest` all the same) when there is no such link.
inline fs::path latestRun(const fs::path& out) {
    std::error_code ec;
    const fs::path target = fs::read_symlink(out / "latest", ec);
    if (ec || target.empty()) {
        ADD_FAILURE() << out << "/latest is not a link: no run wrote its results there";
        return out / "latest";
    }
    return out / target;
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

/// rigJson() in a fresh directory `scratch(prefix, name)`.
inline JsonRun rigJsonIn(const std::string& prefix, const std::string& name,
                         const std::string& args, int expected = 0) {
    return rigJson(args, scratch(prefix, name), expected);
}

/// A duration in microseconds, as the rig's JSON states them.
inline double usOf(std::chrono::nanoseconds d) {
    return std::chrono::duration<double, std::micro>(d).count();
}

/// A fresh directory per test (`pullsched_<prefix>_<test>_<pid>`), removed at the end.
struct TempDir {
    fs::path path;
    explicit TempDir(const std::string& prefix) {
        const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
        path = fs::temp_directory_path() /
               ("pullsched_" + prefix + "_" + info->name() + "_" + std::to_string(::getpid()));
        fs::remove_all(path);
        fs::create_directories(path);
    }
    ~TempDir() { fs::remove_all(path); }
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

/// Whether a TSan build leaves `backend` out: libgomp and Debian's libtbb are not built
/// with TSan, whose reports then include races that the libraries' own (invisible)
/// synchronisation does order (libgomp's futexes and barriers; the task queues inside
/// libtbb.so, which hand a flow graph's task objects from the thread that made them to the
/// one that runs them). Every other build (ASan+UBSan included) runs these cases.
inline bool skipUnderThreadSanitizer(const std::string& backend) {
#if defined(__SANITIZE_THREAD__)
    return backend == "openmp" || backend == "tbb";
#else
    (void)backend;
    return false;
#endif
}

/// The backends of --backends=all that this build runs, in the registry's order.
inline std::vector<std::string> runnableBackends() {
    std::vector<std::string> out;
    for (const char* b : {"pullsched", "tbb", "openmp", "asio", "pool"})
        if (!skipUnderThreadSanitizer(b)) out.emplace_back(b);
    return out;
}

/// `--backends=` naming runnableBackends().
inline std::string runnableBackendsOption() {
    std::string list;
    for (const std::string& b : runnableBackends())
        list += (list.empty() ? "" : ",") + b;
    return "--backends=" + list;
}

}  // namespace rigtest
