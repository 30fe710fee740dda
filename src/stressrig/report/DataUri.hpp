#pragma once
// A file's bytes as a `data:` URI (RFC 2397, base64), so a page carries its pictures
// inside itself and still shows them once copied, mailed or attached alone.

#include <string>
#include <string_view>

namespace pullsched::rig {

/// `bytes` in base64 (RFC 4648, with '=' padding, no line breaks).
std::string base64(std::string_view bytes);

/// "data:<mediaType>;base64,<base64 of bytes>".
std::string dataUri(std::string_view mediaType, std::string_view bytes);

/// The media type of a picture by its file name: image/png, image/svg+xml; "" otherwise.
std::string_view pictureMediaType(std::string_view fileName);

}  // namespace pullsched::rig
