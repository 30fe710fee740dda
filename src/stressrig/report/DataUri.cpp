#include "report/DataUri.hpp"

#include <cstdint>

namespace pullsched::rig {

std::string base64(std::string_view bytes) {
    static constexpr char kAlphabet[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string r;
    r.reserve((bytes.size() + 2) / 3 * 4);
    std::size_t i = 0;
    // three bytes make four characters of six bits each
    for (; i + 2 < bytes.size(); i += 3) {
        const std::uint32_t n =
            static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[i])) << 16 |
            static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[i + 1])) << 8 |
            static_cast<unsigned char>(bytes[i + 2]);
        r += kAlphabet[(n >> 18) & 63];
        r += kAlphabet[(n >> 12) & 63];
        r += kAlphabet[(n >> 6) & 63];
        r += kAlphabet[n & 63];
    }
    if (const std::size_t left = bytes.size() - i; left > 0) {
        std::uint32_t n = static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[i])) << 16;
        if (left == 2)
            n |= static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[i + 1])) << 8;
        r += kAlphabet[(n >> 18) & 63];
        r += kAlphabet[(n >> 12) & 63];
        r += left == 2 ? kAlphabet[(n >> 6) & 63] : '=';
        r += '=';
    }
    return r;
}

std::string dataUri(std::string_view mediaType, std::string_view bytes) {
    return "data:" + std::string(mediaType) + ";base64," + base64(bytes);
}

std::string_view pictureMediaType(std::string_view fileName) {
    auto endsWith = [&](std::string_view ext) {
        return fileName.size() >= ext.size() &&
               fileName.substr(fileName.size() - ext.size()) == ext;
    };
    if (endsWith(".png")) return "image/png";
    if (endsWith(".svg")) return "image/svg+xml";
    return "";
}

}  // namespace pullsched::rig
