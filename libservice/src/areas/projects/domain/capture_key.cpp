#include "areas/projects/domain/capture_key.h"

#include "util/crypto.h"

namespace service::domain::projects {

std::string FormatCaptureKey(std::string_view env, std::string_view random) {
  std::string key = "sv_";
  key += env;
  key += '_';
  key += random;
  return key;
}

std::optional<ParsedCaptureKey> ParseCaptureKey(std::string_view key) {
  std::string env;
  if (key.substr(0, 8) == "sv_live_") {
    env = "live";
  } else if (key.substr(0, 8) == "sv_test_") {
    env = "test";
  } else {
    return std::nullopt;
  }
  const std::string_view random = key.substr(8);
  if (random.size() != kCaptureKeyRandomLength) return std::nullopt;
  for (char c : random) {
    const bool alnum = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
    if (!alnum) return std::nullopt;
  }
  return ParsedCaptureKey{env, std::string(random.substr(0, kCaptureKeyPrefixLength))};
}

std::string HashCaptureKey(std::string_view key) { return util::Sha256Hex(key); }

}  // namespace service::domain::projects
