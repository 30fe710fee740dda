#include "cli/OptionTable.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <sstream>

#include <fmt/format.h>
#include <boost/program_options.hpp>

#include "cli/UnitParsing.hpp"
#include "cli/UsageError.hpp"
#include "format/TextWrap.hpp"
#include "format/Units.hpp"

namespace po = boost::program_options;

namespace pullsched::rig {

namespace {

std::string trim(std::string_view s) {
    const auto b = s.find_first_not_of(" \t");
    const auto e = s.find_last_not_of(" \t");
    return b == std::string_view::npos ? std::string{} : std::string(s.substr(b, e - b + 1));
}

std::string jsonName(const std::string& name) {
    std::string k = name;
    for (char& c : k)
        if (c == '-') c = '_';
    return k;
}

double micros(Duration d) {
    return std::chrono::duration<double, std::micro>(d).count();
}

std::string fmtNumber(double v) {
    return fmt::format("{:g}", v);
}

double parseNumber(std::string_view option, std::string_view text) {
    const std::string t = trim(text);
    double v = 0;
    auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    if (t.empty() || ec != std::errc{} || p != t.data() + t.size() || !std::isfinite(v))
        throw UsageError(fmt::format("invalid --{}='{}': expected a number", option, text));
    return v;
}

/// The bounds go into the message too: "100000000h" is refused as too large for a
/// nanosecond count before the range check could name them.
Duration parseDurationOption(std::string_view option, std::string_view text,
                             const std::string& bounds) {
    try {
        return parseDuration(trim(text));
    } catch (const std::exception& e) {
        throw UsageError(
            fmt::format("invalid --{}='{}': {} (must be {})", option, text, e.what(), bounds));
    }
}

template <class T>
T checkedRange(std::string_view option, std::string_view text, T v, T min, T max,
               const std::string& bounds) {
    if (v < min || v > max)
        throw UsageError(fmt::format("invalid --{}={}: must be {}", option, trim(text), bounds));
    return v;
}

std::string durationBounds(Duration min, Duration max) {
    return fmt::format("{}..{}", Units::formatDuration(min, true),
                       Units::formatDuration(max, true));
}

}  // namespace

std::uint64_t parseUnsignedOption(std::string_view option, std::string_view text) {
    const std::string t = trim(text);
    int base = 10;
    std::string_view digits = t;
    if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) {
        base = 16;
        digits.remove_prefix(2);
    }
    std::uint64_t v = 0;
    auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v, base);
    if (ec == std::errc::result_out_of_range && p == digits.data() + digits.size())
        throw UsageError(fmt::format("invalid --{}='{}': too large (at most {})", option, text,
                                     std::numeric_limits<std::uint64_t>::max()));
    if (digits.empty() || ec != std::errc{} || p != digits.data() + digits.size())
        throw UsageError(
            fmt::format("invalid --{}='{}': expected a non-negative integer", option, text));
    return v;
}

OptionTable& OptionTable::group(std::string title) {
    group_ = std::move(title);
    return *this;
}

OptionTable::Entry& OptionTable::add(std::string name, std::string valueName, std::string help,
                                     std::string bounds, std::string defaultText) {
    for (const Entry& e : entries_)
        if (e.name == name) throw std::logic_error(fmt::format("option --{} declared twice", name));
    Entry e;
    e.jsonKey = jsonName(name);
    e.name = std::move(name);
    e.valueName = std::move(valueName);
    e.help = std::move(help);
    e.bounds = std::move(bounds);
    e.defaultText = std::move(defaultText);
    e.group = group_;
    entries_.push_back(std::move(e));
    return entries_.back();
}

OptionTable& OptionTable::count(std::string name, unsigned& field, unsigned min, unsigned max,
                                std::string help) {
    const std::string bounds = fmt::format("{}..{}", min, max);
    Entry& e = add(name, "N", std::move(help), bounds, fmt::format("{}", field));
    e.parse = [&field, name, min, max, bounds](const std::string& s) {
        const std::uint64_t v = parseUnsignedOption(name, s);
        field = static_cast<unsigned>(checkedRange<std::uint64_t>(name, s, v, min, max, bounds));
    };
    e.value = [&field] { return nlohmann::json(field); };
    return *this;
}

OptionTable& OptionTable::optionalCount(std::string name, std::optional<unsigned>& field,
                                        unsigned min, unsigned max, std::string help,
                                        std::string unsetText) {
    const std::string bounds = fmt::format("{}..{}", min, max);
    Entry& e = add(name, "N", std::move(help), bounds,
                   field ? fmt::format("{}", *field) : std::move(unsetText));
    e.parse = [&field, name, min, max, bounds](const std::string& s) {
        const std::uint64_t v = parseUnsignedOption(name, s);
        field = static_cast<unsigned>(checkedRange<std::uint64_t>(name, s, v, min, max, bounds));
    };
    e.value = [&field] { return field ? nlohmann::json(*field) : nlohmann::json(nullptr); };
    return *this;
}

OptionTable& OptionTable::size(std::string name, std::size_t& field, std::size_t min,
                               std::size_t max, std::string help) {
    const std::string bounds = fmt::format("{}..{}", min, max);
    Entry& e = add(name, "N", std::move(help), bounds, fmt::format("{}", field));
    e.parse = [&field, name, min, max, bounds](const std::string& s) {
        const std::uint64_t v = parseUnsignedOption(name, s);
        field = static_cast<std::size_t>(checkedRange<std::uint64_t>(name, s, v, min, max, bounds));
    };
    e.value = [&field] { return nlohmann::json(field); };
    return *this;
}

OptionTable& OptionTable::optionalU64(std::string name, std::optional<std::uint64_t>& field,
                                      std::string help, std::string unsetText) {
    Entry& e = add(name, "N", std::move(help), "decimal or 0x hex",
                   field ? fmt::format("{}", *field) : std::move(unsetText));
    e.parse = [&field, name](const std::string& s) { field = parseUnsignedOption(name, s); };
    e.value = [&field] { return field ? nlohmann::json(*field) : nlohmann::json(nullptr); };
    return *this;
}

OptionTable& OptionTable::u64(std::string name, std::uint64_t& field, std::string help) {
    Entry& e = add(name, "N", std::move(help), "decimal or 0x hex", fmt::format("{}", field));
    e.parse = [&field, name](const std::string& s) { field = parseUnsignedOption(name, s); };
    e.value = [&field] { return nlohmann::json(field); };
    return *this;
}

OptionTable& OptionTable::number(std::string name, double& field, double min, double max,
                                 std::string help) {
    const std::string bounds = fmt::format("{}..{}", fmtNumber(min), fmtNumber(max));
    Entry& e = add(name, "X", std::move(help), bounds, fmtNumber(field));
    e.parse = [&field, name, min, max, bounds](const std::string& s) {
        field = checkedRange(name, s, parseNumber(name, s), min, max, bounds);
    };
    e.value = [&field] { return nlohmann::json(field); };
    return *this;
}

OptionTable& OptionTable::duration(std::string name, Duration& field, Duration min, Duration max,
                                   std::string help) {
    const std::string bounds = durationBounds(min, max);
    Entry& e = add(name, "DUR", std::move(help), bounds, Units::formatDuration(field, true));
    e.jsonKey += "_us";
    e.parse = [&field, name, min, max, bounds](const std::string& s) {
        field = checkedRange(name, s, parseDurationOption(name, s, bounds), min, max, bounds);
    };
    e.value = [&field] { return nlohmann::json(micros(field)); };
    return *this;
}

OptionTable& OptionTable::optionalDuration(std::string name, std::optional<Duration>& field,
                                           Duration min, Duration max, std::string help,
                                           std::string unsetText) {
    const std::string bounds = durationBounds(min, max);
    Entry& e = add(name, "DUR", std::move(help), bounds,
                   field ? Units::formatDuration(*field, true) : std::move(unsetText));
    e.jsonKey += "_us";
    e.parse = [&field, name, min, max, bounds](const std::string& s) {
        field = checkedRange(name, s, parseDurationOption(name, s, bounds), min, max, bounds);
    };
    e.value = [&field] { return field ? nlohmann::json(micros(*field)) : nlohmann::json(nullptr); };
    return *this;
}

OptionTable& OptionTable::rate(std::string name, double& field, double min, double max,
                               std::string help) {
    const std::string bounds =
        fmt::format("{}..{}", Units::formatRate(min), Units::formatRate(max));
    Entry& e = add(name, "RATE", std::move(help), bounds, Units::formatRate(field));
    e.jsonKey += "_per_s";
    e.parse = [&field, name, min, max, bounds](const std::string& s) {
        double v = 0;
        try {
            v = parseRate(trim(s));
        } catch (const std::exception& ex) {
            throw UsageError(fmt::format("invalid --{}='{}': {}", name, s, ex.what()));
        }
        field = checkedRange(name, s, v, min, max, bounds);
    };
    e.value = [&field] { return nlohmann::json(field); };
    return *this;
}

OptionTable& OptionTable::percent(std::string name, double& field, double minPercent,
                                  double maxPercent, std::string help) {
    const std::string bounds =
        fmt::format("{}%..{}%", fmtNumber(minPercent), fmtNumber(maxPercent));
    Entry& e = add(name, "PCT", std::move(help), bounds, fmtNumber(100 * field) + "%");
    e.jsonKey += "_percent";
    e.parse = [&field, name, minPercent, maxPercent, bounds](const std::string& s) {
        std::string t = trim(s);
        if (!t.empty() && t.back() == '%') t = trim(t.substr(0, t.size() - 1));
        field = checkedRange(name, s, parseNumber(name, t), minPercent, maxPercent, bounds) / 100;
    };
    e.value = [&field] { return nlohmann::json(100 * field); };
    return *this;
}

OptionTable& OptionTable::choice(std::string name, std::string& field,
                                 std::vector<std::string> choices, std::string help) {
    std::string bounds;
    for (const std::string& c : choices)
        bounds += fmt::format("{}{}", bounds.empty() ? "" : " | ", c);
    Entry& e = add(name, "KIND", std::move(help), bounds, field);
    e.parse = [&field, name, choices, bounds](const std::string& s) {
        const std::string t = trim(s);
        for (const std::string& c : choices)
            if (c == t) {
                field = t;
                return;
            }
        throw UsageError(fmt::format("invalid --{}='{}': one of {}", name, s, bounds));
    };
    e.value = [&field] { return nlohmann::json(field); };
    return *this;
}

OptionTable& OptionTable::text(std::string name, std::string& field, std::string valueName,
                               std::string help,
                               std::function<std::string(const std::string&)> check) {
    Entry& e = add(name, std::move(valueName), std::move(help), "", field);
    e.parse = [&field, check](const std::string& s) { field = check ? check(s) : s; };
    e.value = [&field] { return nlohmann::json(field); };
    return *this;
}

OptionTable& OptionTable::path(std::string name, std::optional<std::filesystem::path>& field,
                               std::string valueName, std::string help) {
    Entry& e = add(name, std::move(valueName), std::move(help), "", field ? field->string() : "");
    e.parse = [&field, name](const std::string& s) {
        if (trim(s).empty()) throw UsageError(fmt::format("invalid --{}: empty file name", name));
        field = std::filesystem::path(s);
    };
    e.value = [&field] {
        return field ? nlohmann::json(field->string()) : nlohmann::json(nullptr);
    };
    return *this;
}

OptionTable& OptionTable::flag(std::string name, bool& field, std::string help) {
    Entry& e = add(name, "", std::move(help), "", "");
    e.flag = true;
    e.parse = [&field](const std::string&) { field = true; };
    e.value = [&field] { return nlohmann::json(field); };
    return *this;
}

OptionTable& OptionTable::countList(std::string name, std::vector<unsigned>& field, unsigned min,
                                    unsigned max, std::string help) {
    std::string def;
    for (unsigned v : field)
        def += fmt::format("{}{}", def.empty() ? "" : ",", v);
    const std::string bounds = fmt::format("each {}..{}", min, max);
    Entry& e = add(name, "LIST", std::move(help), bounds, def);
    e.parse = [&field, name, min, max](const std::string& s) {
        std::vector<unsigned> list;
        std::stringstream ss(s);
        const std::string each = fmt::format("{}..{}", min, max);
        for (std::string item; std::getline(ss, item, ',');) {
            const std::uint64_t v = parseUnsignedOption(name, item);
            const auto n =
                static_cast<unsigned>(checkedRange<std::uint64_t>(name, item, v, min, max, each));
            // a value twice would be measured twice and reported as two (`1,1`)
            if (std::find(list.begin(), list.end(), n) != list.end())
                throw UsageError(fmt::format("invalid --{}='{}': {} is given twice", name, s, n));
            list.push_back(n);
        }
        if (list.empty() || s.back() == ',')
            throw UsageError(
                fmt::format("invalid --{}='{}': expected a list like 1,2,4,8", name, s));
        field = std::move(list);
    };
    e.value = [&field] { return nlohmann::json(field); };
    return *this;
}

bool OptionTable::declared(std::string_view name) const {
    for (const Entry& e : entries_)
        if (e.name == name) return true;
    return false;
}

bool OptionTable::given(std::string_view name) const {
    for (const Entry& e : entries_)
        if (e.name == name) return e.given;
    return false;
}

void OptionTable::parse(const std::vector<std::string>& args,
                        const std::function<std::string(std::string_view)>& whoAccepts) {
    po::options_description desc;
    for (const Entry& e : entries_) {
        if (e.flag)
            desc.add_options()(e.name.c_str(), po::bool_switch(), e.help.c_str());
        else
            desc.add_options()(e.name.c_str(), po::value<std::string>(), e.help.c_str());
    }
    desc.add_options()("stray-arguments", po::value<std::vector<std::string>>());
    po::positional_options_description stray;
    stray.add("stray-arguments", -1);
    po::variables_map vm;
    try {
        po::store(po::command_line_parser(args)
                      .options(desc)
                      .positional(stray)
                      .style(po::command_line_style::default_style &
                             ~po::command_line_style::allow_guessing &
                             ~po::command_line_style::allow_short)
                      .run(),
                  vm);
    } catch (const po::unknown_option& e) {
        std::string name = e.get_option_name();
        while (!name.empty() && name.front() == '-')
            name.erase(0, 1);
        name = name.substr(0, name.find('='));
        const std::string who = whoAccepts ? whoAccepts(name) : std::string{};
        throw UsageError(who.empty() ? fmt::format("unknown option --{} (see --help)", name)
                                     : fmt::format("--{} does not apply here: {}", name, who));
    } catch (const po::invalid_command_line_syntax& e) {
        std::string name = e.get_option_name();
        while (!name.empty() && name.front() == '-')
            name.erase(0, 1);
        if (e.kind() == po::invalid_command_line_syntax::missing_parameter ||
            e.kind() == po::invalid_command_line_syntax::empty_adjacent_parameter)
            throw UsageError(fmt::format("invalid --{}: needs a value (--{}=VALUE)", name, name));
        if (e.kind() == po::invalid_command_line_syntax::extra_parameter)
            throw UsageError(fmt::format("invalid --{}: takes no value", name));
        throw UsageError(fmt::format("invalid command line at --{} (see --help)", name));
    } catch (const po::multiple_occurrences& e) {
        std::string name = e.get_option_name();
        while (!name.empty() && name.front() == '-')
            name.erase(0, 1);
        throw UsageError(fmt::format("--{} given more than once", name));
    } catch (const po::error& e) {
        throw UsageError(fmt::format("{} (see --help)", e.what()));
    }
    if (vm.count("stray-arguments"))
        throw UsageError(
            fmt::format("unexpected argument '{}': options are --name=value (see --help)",
                        vm["stray-arguments"].as<std::vector<std::string>>().front()));
    for (Entry& e : entries_) {
        if (!vm.count(e.name)) continue;
        if (e.flag) {
            if (!vm[e.name].as<bool>()) continue;
            e.parse({});
        } else {
            const std::string& v = vm[e.name].as<std::string>();
            if (trim(v).empty())
                throw UsageError(
                    fmt::format("invalid --{}: needs a value (--{}=VALUE)", e.name, e.name));
            e.parse(v);
        }
        e.given = true;
    }
}

nlohmann::json OptionTable::configuration() const {
    nlohmann::json j = nlohmann::json::object();
    for (const Entry& e : entries_)
        j[e.jsonKey] = e.value();
    return j;
}

std::string OptionTable::help() const {
    std::string out;
    std::string group;
    for (const Entry& e : entries_) {
        if (e.group != group) {
            group = e.group;
            out += fmt::format("\n{}:\n", group);
        }
        const std::string left =
            e.flag ? fmt::format("  --{}", e.name) : fmt::format("  --{}={}", e.name, e.valueName);
        std::string tail;
        if (!e.defaultText.empty()) tail = fmt::format("default {}", e.defaultText);
        if (!e.bounds.empty()) tail += fmt::format("{}{}", tail.empty() ? "" : "; ", e.bounds);
        // The description beside the name, folded under its own column.
        constexpr std::size_t kHelpColumn = 26;
        const std::string text = tail.empty() ? e.help : fmt::format("{} ({})", e.help, tail);
        out += helpLine(left, kHelpColumn, text);
    }
    return out;
}

}  // namespace pullsched::rig
