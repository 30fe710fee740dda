#include "report/CsvTable.hpp"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <ctime>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <thread>

#include <fmt/format.h>
#include <sys/utsname.h>

namespace pullsched::rig {
namespace {

std::string trim(std::string s) {
    const auto notSpace = [](unsigned char c) { return !std::isspace(c); };
    s.erase(s.begin(), std::find_if(s.begin(), s.end(), notSpace));
    s.erase(std::find_if(s.rbegin(), s.rend(), notSpace).base(), s.end());
    return s;
}

std::string oneLine(std::string s) {
    std::replace_if(
        s.begin(), s.end(), [](char c) { return c == '\n' || c == '\r'; }, ' ');
    return s;
}

struct Field {
    std::string text;
    bool quoted = false;
};

/// Splits CSV text into records; '#' at the start of a record makes a comment line.
class Parser {
  public:
    explicit Parser(const std::string& text) : s_(text) {}

    bool atEnd() const { return pos_ >= s_.size(); }
    std::size_t line() const { return line_; }

    /// Returns false at the end. A comment line yields isComment and its text.
    bool next(std::vector<Field>& fields, bool& isComment, std::string& comment) {
        fields.clear();
        isComment = false;
        while (!atEnd() && (s_[pos_] == '\n' || s_[pos_] == '\r'))
            advanceNewline();  // blanks
        if (atEnd()) return false;
        recordLine_ = line_;
        if (s_[pos_] == '#') {
            const std::size_t eol = s_.find('\n', pos_);
            comment = s_.substr(pos_ + 1, (eol == std::string::npos ? s_.size() : eol) - pos_ - 1);
            if (!comment.empty() && comment.back() == '\r') comment.pop_back();
            isComment = true;
            pos_ = eol == std::string::npos ? s_.size() : eol;
            return true;
        }
        for (;;) {
            Field f;
            if (!atEnd() && s_[pos_] == '"') {
                f.quoted = true;
                ++pos_;
                for (;;) {
                    if (atEnd())
                        throw std::runtime_error(
                            fmt::format("CSV line {}: unterminated quoted field", recordLine_));
                    const char c = s_[pos_++];
                    if (c == '"') {
                        if (!atEnd() && s_[pos_] == '"') {
                            f.text += '"';
                            ++pos_;
                        } else {
                            break;
                        }
                    } else {
                        if (c == '\n') ++line_;
                        f.text += c;
                    }
                }
                while (!atEnd() && (s_[pos_] == ' ' || s_[pos_] == '\t'))
                    ++pos_;
                if (!atEnd() && s_[pos_] != ',' && s_[pos_] != '\n' && s_[pos_] != '\r')
                    throw std::runtime_error(fmt::format(
                        "CSV line {}: unexpected '{}' after a quoted field", line_, s_[pos_]));
            } else {
                while (!atEnd() && s_[pos_] != ',' && s_[pos_] != '\n' && s_[pos_] != '\r')
                    f.text += s_[pos_++];
                f.text = trim(f.text);
            }
            fields.push_back(std::move(f));
            if (atEnd()) return true;
            if (s_[pos_] == ',') {
                ++pos_;
                continue;
            }
            advanceNewline();
            return true;
        }
    }
    std::size_t recordLine() const { return recordLine_; }

  private:
    void advanceNewline() {
        if (s_[pos_] == '\r') ++pos_;
        if (!atEnd() && s_[pos_] == '\n') {
            ++pos_;
            ++line_;
        }
    }

    const std::string& s_;
    std::size_t pos_ = 0;
    std::size_t line_ = 1;
    std::size_t recordLine_ = 1;
};

bool parseNumber(const std::string& text, double& v) {
    if (text.empty()) {
        v = std::nan("");
        return true;
    }
    const char* first = text.data();
    if (*first == '+') ++first;
    const auto [end, ec] = std::from_chars(first, text.data() + text.size(), v);
    return ec == std::errc{} && end == text.data() + text.size();
}

}  // namespace

CsvTable::CsvTable(std::vector<std::string> numericColumns) {
    for (auto& name : numericColumns)
        addColumn(std::move(name), Kind::Number);
}

void CsvTable::addColumn(std::string name, Kind kind) {
    if (!rows_.empty())
        throw std::logic_error(fmt::format("CsvTable: cannot add column '{}' after rows", name));
    columns_.push_back(Column{std::move(name), kind});
}

void CsvTable::addRow(std::vector<Cell> cells) {
    if (cells.size() != columns_.size())
        throw std::invalid_argument(fmt::format("CsvTable: row has {} cells, table has {} columns",
                                                cells.size(), columns_.size()));
    for (std::size_t i = 0; i < cells.size(); ++i) {
        const bool isText = std::holds_alternative<std::string>(cells[i]);
        if (isText != (columns_[i].kind == Kind::Text))
            throw std::invalid_argument(fmt::format("CsvTable: column '{}' expects {}",
                                                    columns_[i].name,
                                                    isText ? "a number" : "text"));
    }
    rows_.push_back(std::move(cells));
}

void CsvTable::addRow(std::initializer_list<double> values) {
    addRow(std::vector<Cell>(values.begin(), values.end()));
}

void CsvTable::setComment(const std::string& key, std::string value) {
    value = oneLine(std::move(value));
    for (auto& [k, v] : comments_)
        if (k == key) {
            v = std::move(value);
            return;
        }
    comments_.emplace_back(oneLine(key), std::move(value));
}

void CsvTable::addComments(const std::vector<std::pair<std::string, std::string>>& comments) {
    for (const auto& [k, v] : comments)
        setComment(k, v);
}

std::string CsvTable::comment(const std::string& key) const {
    for (const auto& [k, v] : comments_)
        if (k == key) return v;
    return {};
}

std::size_t CsvTable::columnIndex(const std::string& name) const {
    for (std::size_t i = 0; i < columns_.size(); ++i)
        if (columns_[i].name == name) return i;
    throw std::out_of_range(fmt::format("CsvTable: no column named '{}'", name));
}

bool CsvTable::hasColumn(const std::string& name) const {
    return std::any_of(columns_.begin(), columns_.end(),
                       [&](const Column& c) { return c.name == name; });
}

double CsvTable::number(std::size_t row, std::size_t col) const {
    return std::get<double>(cell(row, col));
}
double CsvTable::number(std::size_t row, const std::string& col) const {
    return number(row, columnIndex(col));
}
const std::string& CsvTable::text(std::size_t row, std::size_t col) const {
    return std::get<std::string>(cell(row, col));
}

std::vector<double> CsvTable::numbers(const std::string& col) const {
    const std::size_t c = columnIndex(col);
    std::vector<double> out;
    out.reserve(rows_.size());
    for (std::size_t r = 0; r < rows_.size(); ++r)
        out.push_back(number(r, c));
    return out;
}

std::string CsvTable::formatNumber(double v) {
    if (std::isnan(v)) return "";  // a missing value is an empty cell, never a number
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    return fmt::format("{:.15g}", v);
}

std::string CsvTable::quote(const std::string& s) {
    std::string q = "\"";
    for (char c : s) {
        if (c == '"') q += '"';
        q += c;
    }
    return q + '"';
}

void CsvTable::write(std::ostream& out, const testchain::StopPredicate& stop) const {
    writeHead(out);
    writeRows(out, stop);
}

void CsvTable::writeHead(std::ostream& out) const {
    for (const auto& [k, v] : comments_)
        out << "# " << k << ": " << v << '\n';
    for (std::size_t i = 0; i < columns_.size(); ++i)
        out << (i ? "," : "") << quote(columns_[i].name);
    out << '\n';
}

void CsvTable::writeRows(std::ostream& out, const testchain::StopPredicate& stop) const {
    for (std::size_t r = 0; r < rows_.size(); ++r) {
        testchain::pollStop(stop, r);
        const auto& row = rows_[r];
        for (std::size_t i = 0; i < row.size(); ++i) {
            if (i) out << ',';
            if (const double* d = std::get_if<double>(&row[i]))
                out << formatNumber(*d);
            else
                out << quote(std::get<std::string>(row[i]));
        }
        out << '\n';
    }
}

std::string CsvTable::toString(const testchain::StopPredicate& stop) const {
    std::ostringstream s;
    write(s, stop);
    return s.str();
}

std::string CsvTable::toString(
    const testchain::StopPredicate& stop,
    const std::vector<std::pair<std::string, std::string>>& defaults) const {
    CsvTable head;
    head.columns_ = columns_;
    head.comments_ = comments_;
    for (const auto& [k, v] : defaults)
        if (head.comment(k).empty()) head.setComment(k, v);
    std::ostringstream s;
    head.writeHead(s);
    writeRows(s, stop);
    return s.str();
}

void CsvTable::writeFile(const std::filesystem::path& file) const {
    std::ofstream out(file);
    if (!out) throw std::runtime_error(fmt::format("cannot write CSV file {}", file.string()));
    write(out);
    out.flush();
    if (!out) throw std::runtime_error(fmt::format("error writing CSV file {}", file.string()));
}

CsvTable CsvTable::parse(const std::string& text) {
    Parser p(text);
    CsvTable t;
    std::vector<Field> fields;
    std::vector<std::vector<Field>> raw;
    std::vector<std::size_t> rawLines;
    bool isComment = false, haveHeader = false;
    std::string comment;
    while (p.next(fields, isComment, comment)) {
        if (isComment) {
            const auto colon = comment.find(':');
            if (colon != std::string::npos) {
                std::string key = trim(comment.substr(0, colon));
                if (!key.empty()) t.comments_.emplace_back(key, trim(comment.substr(colon + 1)));
            }
            continue;
        }
        if (!haveHeader) {
            for (auto& f : fields)
                t.columns_.push_back(Column{std::move(f.text), Kind::Number});
            haveHeader = true;
            continue;
        }
        if (fields.size() != t.columns_.size())
            throw std::runtime_error(fmt::format("CSV line {}: {} cells, header has {} columns",
                                                 p.recordLine(), fields.size(), t.columns_.size()));
        raw.push_back(fields);
        rawLines.push_back(p.recordLine());
    }
    if (!haveHeader) throw std::runtime_error("CSV: no header line");

    // A column is numeric only if every cell is an unquoted number.
    for (std::size_t c = 0; c < t.columns_.size(); ++c) {
        double dummy = 0;
        for (const auto& row : raw)
            if (row[c].quoted || !parseNumber(row[c].text, dummy)) {
                t.columns_[c].kind = Kind::Text;
                break;
            }
    }
    for (const auto& row : raw) {
        std::vector<Cell> cells;
        cells.reserve(row.size());
        for (std::size_t c = 0; c < row.size(); ++c) {
            if (t.columns_[c].kind == Kind::Text) {
                cells.emplace_back(row[c].text);
            } else {
                double v = 0;
                parseNumber(row[c].text, v);
                cells.emplace_back(v);
            }
        }
        t.rows_.push_back(std::move(cells));
    }
    return t;
}

CsvTable CsvTable::read(std::istream& in) {
    const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    return parse(text);
}

CsvTable CsvTable::readFile(const std::filesystem::path& file) {
    std::ifstream in(file);
    if (!in) throw std::runtime_error(fmt::format("cannot read CSV file {}", file.string()));
    return read(in);
}

}  // namespace pullsched::rig
