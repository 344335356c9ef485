// Small string helpers shared by every layer.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace service::util {

std::string ToLower(std::string_view s);
std::string Trim(std::string_view s);
std::vector<std::string> Split(std::string_view s, char sep);
bool StartsWith(std::string_view s, std::string_view prefix);
bool EqualsIgnoreCase(std::string_view a, std::string_view b);
// Strict decimal parse of the whole string.
std::optional<int64_t> ParseInt(std::string_view s);
// Percent-decoding; '+' becomes ' ' when `plus_as_space`.
std::string UrlDecode(std::string_view s, bool plus_as_space);
std::string UrlEncode(std::string_view s);
bool IsValidUtf8(std::string_view s);
// Number of code points (assumes valid UTF-8).
size_t Utf8Length(std::string_view s);
// The first `max_bytes` bytes of `s`, cut back to a code point boundary.
std::string_view Utf8Prefix(std::string_view s, size_t max_bytes);
// Utf8Prefix, with "..." appended when anything was cut.
std::string Utf8Shorten(std::string_view s, size_t max_bytes);
bool IsUuid(std::string_view s);
// Pragmatic address check: one '@', non-empty local part, dotted domain, no spaces, <= 254.
bool IsValidEmail(std::string_view s);

// Transparent hash for unordered maps keyed by std::string that are looked
// up with std::string_view (with std::equal_to<>): no temporary string.
struct StringHash {
  using is_transparent = void;
  size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>{}(s); }
};

}  // namespace service::util
