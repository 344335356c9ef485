// Building blocks of the settings rows: the platform's (options.cpp) and the
// areas' (their modules' AddSettings), so that every row words its refusals
// alike. Not installed.
//
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace service {

// From service/options.h (not included, so that this header stays below it).
struct Options;
template <typename O>
struct SettingRow;
using SettingInfo = SettingRow<Options>;

namespace modules {

// Building blocks of the areas' settings rows, beside the platform's rows
// in options.cpp, so that every row words its refusals alike.
// A value quoted for a message, shortened so that a pasted secret or a huge
// value never fills the log.
std::string QuoteSettingValue(std::string_view value);
// True when `text` holds a space or a control character.
bool HasSpaceOrControl(std::string_view text);
// Checks an http(s) URL: scheme, host, optional port, optional path (when
// `allow_path`); no query, fragment, user information or white space.
// Returns what is wrong ("must start with http:// or https://", ...) or "".
std::string CheckHttpUrl(std::string_view url, bool allow_path);
// The platform's own rows (options.cpp): listen, database, environment, ...
std::vector<SettingInfo> PlatformSettings();

}  // namespace modules
}  // namespace service
