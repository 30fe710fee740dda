#pragma once
// Help text folded to the width of a terminal, with a hanging indent, so that an option's
// long description stays beside its name instead of running across the next lines' column.

#include <cstddef>
#include <string>
#include <string_view>

namespace pullsched::rig {

/// The width --help is folded to: a common terminal's, and that of the help's fixed text.
inline constexpr std::size_t kHelpWidth = 100;

/// Columns `text` takes: its UTF-8 code points (µ, ≤ and × are one column each).
std::size_t textColumns(std::string_view text) noexcept;

/// `text` folded at spaces into lines of at most `width` columns, the first of which starts
/// at column `startColumn` (after what the caller printed before it) and every further one
/// after `indent` spaces. A word longer than a line stays whole on a line of its own. Runs
/// of spaces at a fold are dropped; the result has no trailing newline.
std::string foldText(std::string_view text, std::size_t startColumn, std::size_t indent,
                     std::size_t width = kHelpWidth);

/// One line of a help list: `left` padded to `column`, then `text` folded under that column
/// (starting after `left` where it is wider), and a newline.
std::string helpLine(std::string_view left, std::size_t column, std::string_view text);

}  // namespace pullsched::rig
