#include "areas/accounts/domain/secrets.h"

#include <cassert>

#include "util/crypto.h"
#include "util/strings.h"

namespace service::domain::accounts {
namespace {

bool IsHexDigit(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

bool IsContinuationByte(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

// Length in bytes of the first code point of `s` (1 for a stray byte).
size_t FirstCodePointBytes(std::string_view s) {
  size_t n = 1;
  while (n < s.size() && IsContinuationByte(s[n])) ++n;
  return n;
}

// Length in bytes of the last code point of `s`.
size_t LastCodePointBytes(std::string_view s) {
  size_t n = 1;
  while (n < s.size() && IsContinuationByte(s[s.size() - n])) ++n;
  return n;
}

}  // namespace

IssuedSecret SecretFromBytes(std::string_view random_bytes) {
  assert(random_bytes.size() == kSecretBytes);
  IssuedSecret s;
  s.token = util::HexEncode(random_bytes);
  s.hash = SecretHash(s.token);
  return s;
}

IssuedSecret NewSecret(ports::Ids& ids) { return SecretFromBytes(ids.RandomBytes(kSecretBytes)); }

std::string SecretHash(std::string_view token) { return util::Sha256Hex(token); }

bool IsWellFormedSecret(std::string_view token) {
  if (token.size() != kSecretHexChars) return false;
  for (char c : token) {
    if (!IsHexDigit(c)) return false;
  }
  return true;
}

std::string NormalizeSecret(std::string_view token) { return util::ToLower(token); }

std::string MaskEmail(std::string_view email) {
  const size_t at = email.rfind('@');
  if (at == std::string_view::npos) return "***";
  const std::string_view local = email.substr(0, at);
  const std::string_view domain = email.substr(at);  // with the '@'
  std::string out;
  if (!local.empty()) {
    const size_t first = FirstCodePointBytes(local);
    const bool more_than_one = first < local.size();
    if (more_than_one) {
      const size_t last = LastCodePointBytes(local);
      const bool more_than_two = first + last < local.size();
      out += local.substr(0, first);
      out += "***";
      if (more_than_two) out += local.substr(local.size() - last);
    } else {
      out += "***";
    }
  } else {
    out += "***";
  }
  out += domain;
  return out;
}

}  // namespace service::domain::accounts
