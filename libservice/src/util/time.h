// Time formatting: integer Unix milliseconds inside, ISO 8601 on the wire.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace service::util {

// "2026-11-21T10:00:00.123Z"
std::string FormatIso8601(int64_t unix_millis);
// Accepts "YYYY-MM-DDTHH:MM:SS[.fff][Z|+HH:MM]" and "YYYY-MM-DD".
std::optional<int64_t> ParseIso8601(std::string_view text);

}  // namespace service::util
