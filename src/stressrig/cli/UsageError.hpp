#pragma once
// Bad input from the user: main() prints what() and exits with code 2.

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>

namespace pullsched::rig {

/// `text` as a message may echo it: control bytes visible (`\x00`, `\n`), and at most about
/// `maxBytes` of it, cut at a character boundary and marked "…" (a file's content must
/// not make a one-line message of a megabyte).
inline std::string echoed(std::string_view text, std::size_t maxBytes = 120) {
    bool cut = false;
    if (text.size() > maxBytes) {
        std::size_t end = maxBytes;
        while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80)
            --end;  // not inside a UTF-8 sequence
        text = text.substr(0, end);
        cut = true;
    }
    std::string out;
    for (const char ch : text) {
        const auto c = static_cast<unsigned char>(ch);
        if (c == '\n') {
            out += "\\n";
        } else if (c == '\r') {
            out += "\\r";
        } else if (c == '\t') {
            out += "\\t";
        } else if (c < 0x20 || c == 0x7f) {
            constexpr char kHex[] = "0123456789abcdef";
            out += "\\x";
            out += kHex[c >> 4];
            out += kHex[c & 0xF];
        } else {
            out += ch;
        }
    }
    return cut ? out + "…" : out;
}

/// Thrown for anything the user got wrong (unknown option, invalid value, unknown
/// pattern or mode, malformed rules, an output directory that cannot be created).
/// what() is the complete message, naming the offending option or value.
class UsageError : public std::invalid_argument {
  public:
    // A NUL byte (from a file) would end what() there: it is shown as `\x00` instead.
    explicit UsageError(const std::string& what) : std::invalid_argument(withoutNul(what)) {}
    explicit UsageError(const char* what) : std::invalid_argument(what) {}

  private:
    static std::string withoutNul(const std::string& s) {
        if (s.find('\0') == std::string::npos) return s;
        std::string out;
        for (const char c : s)
            out += c == '\0' ? std::string("\\x00") : std::string(1, c);
        return out;
    }
};

}  // namespace pullsched::rig
