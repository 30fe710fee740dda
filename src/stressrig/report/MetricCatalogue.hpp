#pragma once
// The one table of the rig's result figures: the key each has in the JSON, its unit, which
// direction is better, a short label, a one-line meaning and the words of its CSV column.
// The page's "Result figures" table, `--check` names and the CSV headers of figure columns
// all come from it.

#include <span>
#include <string>
#include <string_view>

namespace pullsched::rig {

/// What kind of quantity a figure is; it decides the units a `--check` value may carry.
enum class Dimension {
    Duration,      ///< ns, us, µs, ms, s, min, h; base unit µs
    Rate,          ///< per second (`2k/s`, `50/ms`, `10kHz`, a bare number); base unit /s
    Ratio,         ///< a plain number, `x`, or `%` (95% = 0.95); base unit 1
    Percent,       ///< stored in percent: the value needs `%`; base unit %
    Count,         ///< a plain number
    Memory,        ///< KiB, MiB, GiB; base unit MiB
    MemoryGrowth,  ///< KiB/h, MiB/h, GiB/h; base unit MiB/h
};

/// Which direction of a figure is the good one.
enum class Better { Lower, Higher, Neither };

/// One figure of a mode's result.
struct Metric {
    std::string_view name;  ///< the `--check` name: `lateness_p99`
    std::string_view key;   ///< the key as in the JSON: `lateness_p99_us` (name if derived)
    /// The same figure inside a nested object (`lateness.p99_us`), empty if none.
    std::string_view nestedKey;
    Dimension dimension;
    double toBase;  ///< JSON value × toBase = value in the dimension's base unit
    Better better;
    std::string_view label;    ///< "p99 lateness"
    std::string_view meaning;  ///< one line
    /// The words of its CSV column before the unit (`p99 lateness`); empty: the label.
    std::string_view csvWords = {};
};

/// The values a figure can take, in its dimension's base unit.
struct MetricRange {
    double least;
    double most;
};

class MetricCatalogue {
  public:
    /// Every figure, in the order the page lists them.
    static std::span<const Metric> all();
    /// The figure named `name` (its check name or its JSON key); nullptr if none.
    static const Metric* find(std::string_view name);
    /// The figure whose key (or nested key) a flattened JSON path `a.b.key` ends with;
    /// `qualifier` gets the rest of the path (`backends.pullsched`). nullptr if none.
    static const Metric* forPath(std::string_view path, std::string& qualifier);
    /// The unit the JSON value is in, as people read it: "µs", "ms", "/s", "%", "MiB", "".
    static std::string_view jsonUnit(const Metric& m);
    /// A JSON value of the figure as text with its unit: `12.3µs`, `2.50k/s`, `0.881`.
    static std::string format(const Metric& m, double jsonValue);
    /// The unit of a CSV header: "us", "ms", "per s", "MiB", "%", "".
    static std::string_view csvUnit(const Metric& m);
    /// The header of the figure's column in every CSV table, its words and unit:
    /// `p99 lateness us`, `achieved rate per s`, `jobs expired`.
    static std::string csvHeader(const Metric& m);
    /// The same for the figure named `name`; std::logic_error when the catalogue has none
    /// (a writer naming a figure that is not in the catalogue is a bug).
    static std::string csvHeader(std::string_view name);
    /// What no run can fall outside of: 0 up for counts, times, rates and most ratios (a job
    /// never starts before its start time); a share of the jobs 0..1; a correlation -1..1;
    /// a fitted slope (gradient, memory trend) anything.
    static MetricRange range(const Metric& m);
    /// The units a `--check` value of this dimension takes, for messages.
    static std::string_view unitsOf(Dimension d);
    /// "duration", "rate", ... for messages.
    static std::string_view nameOf(Dimension d);
};

}  // namespace pullsched::rig
