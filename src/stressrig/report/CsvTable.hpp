#pragma once
// Measurement tables as CSV: our writer and a reader for our own files.

#include <cstddef>
#include <filesystem>
#include <iosfwd>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "pullsched/testchain/StopCheck.hpp"

namespace pullsched::rig {

/// A table of named columns, numeric or text, with `key: value` comments carrying the
/// run configuration.
///
/// File format (written and read):
///     # pattern: burst          ← one comment line per key, in insertion order
///     # seed: 42
///     "load size","result time" ← header, every name double-quoted
///     1,8.57                    ← numbers: 15 significant digits (%.15g), unquoted
///     2,"some text"             ← text cells: always double-quoted
/// Quotes inside names and texts are doubled (RFC 4180); commas and line breaks are
/// allowed inside quotes. NaN marks a missing value and is written as an empty cell; ±inf as `inf`,
/// `-inf`. Lines starting with '#' are comments: the reader takes `# key: value` lines (before or
/// after the header) as comments; other '#' lines are ignored. The reader types a column as Text
/// when any of its cells is quoted or not a number; empty numeric cells read as NaN.
class CsvTable {
  public:
    enum class Kind { Number, Text };
    using Cell = std::variant<double, std::string>;
    struct Column {
        std::string name;
        Kind kind = Kind::Number;
    };

    CsvTable() = default;
    /// All columns numeric; add text columns with addColumn().
    explicit CsvTable(std::vector<std::string> numericColumns);

    /// Columns can be added only while the table has no rows (std::logic_error).
    void addColumn(std::string name, Kind kind = Kind::Number);
    /// One cell per column, each of its column's kind (std::invalid_argument otherwise).
    void addRow(std::vector<Cell> cells);
    /// Convenience for all-numeric tables.
    void addRow(std::initializer_list<double> values);

    /// Sets (or replaces) a `# key: value` comment. Line breaks in the value become blanks.
    void setComment(const std::string& key, std::string value);
    void addComments(const std::vector<std::pair<std::string, std::string>>& comments);
    const std::vector<std::pair<std::string, std::string>>& comments() const { return comments_; }
    /// Value of a comment, or "" when absent.
    std::string comment(const std::string& key) const;

    const std::vector<Column>& columns() const noexcept { return columns_; }
    std::size_t columnCount() const noexcept { return columns_.size(); }
    std::size_t rowCount() const noexcept { return rows_.size(); }
    /// Index of a column by name; throws std::out_of_range naming it when absent.
    std::size_t columnIndex(const std::string& name) const;
    bool hasColumn(const std::string& name) const;
    const Cell& cell(std::size_t row, std::size_t col) const { return rows_.at(row).at(col); }
    /// Throws std::bad_variant_access when the cell is of the other kind.
    double number(std::size_t row, std::size_t col) const;
    double number(std::size_t row, const std::string& col) const;
    const std::string& text(std::size_t row, std::size_t col) const;
    /// All values of a numeric column.
    std::vector<double> numbers(const std::string& col) const;

    /// `stop` is polled every testchain::kStopPollItems rows (a per-job table of millions of
    /// rows takes seconds); testchain::Stopped is thrown part-way when it asks.
    void write(std::ostream& out, const testchain::StopPredicate& stop = {}) const;
    std::string toString(const testchain::StopPredicate& stop = {}) const;
    /// The text of a copy given every comment of `defaults` that it has no value for (as
    /// setComment() would), without copying the rows.
    std::string toString(const testchain::StopPredicate& stop,
                         const std::vector<std::pair<std::string, std::string>>& defaults) const;
    /// Throws std::runtime_error if the file cannot be written.
    void writeFile(const std::filesystem::path& file) const;

    /// Throws std::runtime_error with the line number on malformed input (e.g. a row
    /// with the wrong number of cells, an unterminated quote, no header).
    static CsvTable read(std::istream& in);
    static CsvTable parse(const std::string& text);
    static CsvTable readFile(const std::filesystem::path& file);

    /// `%.15g`; NaN (missing) as "", and inf/-inf.
    static std::string formatNumber(double v);
    /// Name quoted for the header / a text cell.
    static std::string quote(const std::string& s);

  private:
    void writeHead(std::ostream& out) const;  ///< comments and the header line
    void writeRows(std::ostream& out, const testchain::StopPredicate& stop) const;

    std::vector<Column> columns_;
    std::vector<std::vector<Cell>> rows_;
    std::vector<std::pair<std::string, std::string>> comments_;
};

}  // namespace pullsched::rig
