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
std::string Base64UrlEncode(std::string_view bytes);            // no padding
bool Base64UrlDecode(std::string_view text, std::string* out);  // also accepts + and /
std::string Base64Encode(std::string_view bytes);
// AES-256-GCM with a 12-byte nonce and a 16-byte tag. `key` is 32 bytes;
// `nonce` 12 bytes (never reused under one key: callers draw it at random).
// Seal returns ciphertext || tag. Open returns false when the key, nonce or
// data do not match (the tag fails) or the input is too short.
std::string Aes256GcmSeal(std::string_view key, std::string_view nonce, std::string_view plaintext);
bool Aes256GcmOpen(std::string_view key, std::string_view nonce, std::string_view sealed, std::string* out);
// Constant time in the length of the inputs; false when lengths differ.
bool ConstantTimeEquals(std::string_view a, std::string_view b);

}  // namespace service::util
