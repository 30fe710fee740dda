#include "format/TextWrap.hpp"

#include <algorithm>

namespace pullsched::rig {

std::size_t textColumns(std::string_view text) noexcept {
    // Every byte but a UTF-8 continuation byte (10xxxxxx) starts a code point.
    return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) {
        return (static_cast<unsigned char>(c) & 0xC0u) != 0x80u;
    }));
}

std::string foldText(std::string_view text, std::size_t startColumn, std::size_t indent,
                     std::size_t width) {
    std::string out;
    std::size_t column = startColumn;
    bool lineHasWord = false;
    std::size_t pos = 0;
    while (pos < text.size()) {
        const std::size_t begin = text.find_first_not_of(' ', pos);
        if (begin == std::string_view::npos) break;
        std::size_t end = text.find(' ', begin);
        if (end == std::string_view::npos) end = text.size();
        const std::string_view word = text.substr(begin, end - begin);
        const std::size_t gap = lineHasWord ? begin - pos : 0;  // the spaces as written
        const std::size_t wordColumns = textColumns(word);
        if (lineHasWord && column + gap + wordColumns > width) {
            out += '\n';
            out.append(indent, ' ');
            column = indent;
        } else {
            out.append(gap, ' ');
            column += gap;
        }
        out += word;
        column += wordColumns;
        lineHasWord = true;
        pos = end;
    }
    return out;
}

std::string helpLine(std::string_view left, std::size_t column, std::string_view text) {
    const std::size_t used = textColumns(left);
    std::string out(left);
    if (used < column) out.append(column - used, ' ');
    out += foldText(text, std::max(column, used), column);
    out += '\n';
    return out;
}

}  // namespace pullsched::rig
