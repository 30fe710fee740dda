#pragma once
// A mode's command-line options, each bound to a field of the mode's own options struct,
// with its bounds, its help line and its typed value for the result's configuration.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "pullsched/scheduler/Time.hpp"

namespace pullsched::rig {

/// The options one mode accepts. A mode (and each option group it uses) declares its
/// options here, bound to the fields that hold them, so an option lives next to its only
/// user, and an option the mode did not declare is rejected instead of ignored.
///
/// Every declaration states the accepted range; parse() checks it and throws UsageError
/// naming the option ("invalid --stress=0: must be 0.01..100"). The field's value at
/// declaration time is the default shown by --help. configuration() gives every option
/// with its value as typed JSON (numbers as numbers); keys are the option names with '_'
/// for '-', and durations carry their unit: `load_us`.
class OptionTable {
  public:
    /// One declared option.
    struct Entry {
        std::string name;       ///< without "--"
        std::string valueName;  ///< e.g. "DUR"; empty for flags
        std::string help;       ///< one line, bounds and default appended by help()
        std::string bounds;     ///< "1..1024", "cpu | memory", ... (may be empty)
        std::string defaultText;
        std::string group;
        std::string jsonKey;
        bool flag = false;
        bool given = false;
        std::function<void(const std::string&)> parse;  ///< sets the bound field
        std::function<nlohmann::json()> value;          ///< reads the bound field
    };

    /// Heading of the following declarations in --help ("Graph", "Schedule", ...).
    OptionTable& group(std::string title);

    OptionTable& count(std::string name, unsigned& field, unsigned min, unsigned max,
                       std::string help);
    OptionTable& optionalCount(std::string name, std::optional<unsigned>& field, unsigned min,
                               unsigned max, std::string help, std::string unsetText);
    OptionTable& size(std::string name, std::size_t& field, std::size_t min, std::size_t max,
                      std::string help);
    /// A 64-bit value, decimal or 0x hex (seeds).
    OptionTable& optionalU64(std::string name, std::optional<std::uint64_t>& field,
                             std::string help, std::string unsetText);
    OptionTable& u64(std::string name, std::uint64_t& field, std::string help);
    OptionTable& number(std::string name, double& field, double min, double max, std::string help);
    OptionTable& duration(std::string name, Duration& field, Duration min, Duration max,
                          std::string help);
    OptionTable& optionalDuration(std::string name, std::optional<Duration>& field, Duration min,
                                  Duration max, std::string help, std::string unsetText);
    /// Jobs per second with units (`2k/s`, `50/ms`); JSON key `<name>_per_s`.
    OptionTable& rate(std::string name, double& field, double min, double max, std::string help);
    /// A share in percent, `0.1%` or `0.1` (percent either way); `field` holds the
    /// fraction (0.001). Bounds in percent; JSON key `<name>_percent`.
    OptionTable& percent(std::string name, double& field, double minPercent, double maxPercent,
                         std::string help);
    OptionTable& choice(std::string name, std::string& field, std::vector<std::string> choices,
                        std::string help);
    /// Free text; `check` (optional) validates and may rewrite it, throwing UsageError.
    OptionTable& text(std::string name, std::string& field, std::string valueName, std::string help,
                      std::function<std::string(const std::string&)> check = {});
    OptionTable& path(std::string name, std::optional<std::filesystem::path>& field,
                      std::string valueName, std::string help);
    OptionTable& flag(std::string name, bool& field, std::string help);
    /// A comma-separated list of distinct counts, e.g. `--workers=1,2,4`.
    OptionTable& countList(std::string name, std::vector<unsigned>& field, unsigned min,
                           unsigned max, std::string help);

    /// Parses `--name=value` / `--name value` / `--flag` arguments (no program name).
    /// Throws UsageError for unknown options (naming the modes that accept one, via
    /// `whoAccepts`), missing values, stray arguments, repeated options and values out of
    /// range. Nothing is half-applied that matters: the caller discards the table on error.
    void parse(const std::vector<std::string>& args,
               const std::function<std::string(std::string_view)>& whoAccepts = {});

    bool declared(std::string_view name) const;
    /// Whether the option was on the command line.
    bool given(std::string_view name) const;
    const std::vector<Entry>& entries() const noexcept { return entries_; }

    /// `{ "nodes": 64, "load_us": 500, ... }` in declaration order.
    nlohmann::json configuration() const;
    /// The options by group: `--name=VALUE  help (default …; bounds)`, the description folded
    /// under its column to kHelpWidth (format/TextWrap.hpp).
    std::string help() const;

  private:
    Entry& add(std::string name, std::string valueName, std::string help, std::string bounds,
               std::string defaultText);

    std::vector<Entry> entries_;
    std::string group_ = "Options";
};

/// Parses a whole unsigned number, decimal or 0x hex; UsageError naming the option.
std::uint64_t parseUnsignedOption(std::string_view option, std::string_view text);

}  // namespace pullsched::rig
