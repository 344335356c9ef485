// Capture keys: "sv_live_" or "sv_test_" followed by 32 characters from
// [A-Za-z0-9]. Shown once; stored only as a SHA-256 hash; displayed by an
// 8-character prefix (the first 8 random characters).
//
// Pure; thread-safe.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace service::domain::projects {

inline constexpr size_t kCaptureKeyRandomLength = 32;
inline constexpr size_t kCaptureKeyPrefixLength = 8;

struct ParsedCaptureKey {
  std::string env;     // "live" or "test"
  std::string prefix;  // first 8 random characters
};

// Builds the full key text from an environment and 32 random characters.
// REQUIRES: env is "live" or "test"; random has 32 alphanumerics.
std::string FormatCaptureKey(std::string_view env, std::string_view random);
// Checks the shape of a presented key without touching storage.
std::optional<ParsedCaptureKey> ParseCaptureKey(std::string_view key);
// The stored hash of a key (SHA-256 hex).
std::string HashCaptureKey(std::string_view key);

}  // namespace service::domain::projects
