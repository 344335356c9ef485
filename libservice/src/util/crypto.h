// Hashing, MACs, encodings and constant-time comparison (OpenSSL).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace service::util {

std::string Sha256(std::string_view data);                            // 32 raw bytes
std::string Sha256Hex(std::string_view data);                         // 64 hex chars
std::string HmacSha256(std::string_view key, std::string_view data);  // 32 raw bytes
std::string HexEncode(std::string_view bytes);
bool HexDecode(std::string_view hex, std::string* out);
std::string Base64UrlEncode(std::string_view bytes);  // no padding
bool Base64UrlDecode(std::string_view text, std::string* out);
std::string Base64Encode(std::string_view bytes);
// Constant time in the length of the inputs; false when lengths differ.
bool ConstantTimeEquals(std::string_view a, std::string_view b);

}  // namespace service::util
