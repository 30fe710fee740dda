#pragma once
// --radix and --imbalance: the parameters of Task Bench's patterns (load/TaskBenchPatterns)
// wherever a graph may be given as NAME:WIDTHxSTEPS.

#include <optional>
#include <stdexcept>
#include <string_view>

#include <fmt/format.h>

#include "cli/OptionTable.hpp"
#include "cli/UsageError.hpp"
#include "load/TaskBenchPatterns.hpp"

namespace pullsched::rig {

struct TaskBenchOptions {
    unsigned radix = kTaskBenchDefaultRadix;
    double imbalance = 0;

    void declare(OptionTable& t) {
        t.count("radix", radix, 1, 16,
                "dependencies per job of the Task Bench patterns nearest, spread and "
                "random_nearest");
        t.number("imbalance", imbalance, 0, 2,
                 "Task Bench's load imbalance F: each job's weight is (1 + (u - 0.5) F) x 16 "
                 "(at least 1) for a seeded uniform u in [0, 1), instead of 1 (0: all jobs alike)");
    }

    /// The Task Bench shape `text` names (NAME:WIDTHxSTEPS), or nullopt when NAME is not a
    /// Task Bench pattern. UsageError "<what> '<text>': <why>" for a malformed one.
    std::optional<TaskBenchShape> shape(std::string_view text, std::string_view what) const {
        try {
            return parseTaskBenchShape(text, radix, imbalance);
        } catch (const std::invalid_argument& e) {
            throw UsageError(fmt::format("{} '{}': {}", what, text, e.what()));
        }
    }
};

}  // namespace pullsched::rig
