#include "areas/capture/domain/end_user.h"

#include "areas/capture/domain/text.h"
#include "util/crypto.h"

namespace service::domain::capture {
namespace {

std::string_view TrimAscii(std::string_view s) {
  while (!s.empty() && static_cast<unsigned char>(s.front()) <= 0x20) s.remove_prefix(1);
  while (!s.empty() && static_cast<unsigned char>(s.back()) <= 0x20) s.remove_suffix(1);
  return s;
}

}  // namespace

EndUserIdentity EndUserKey(std::string_view app_user_id, std::string_view reporter_email,
                           std::string_view ip_hash) {
  if (const std::string_view id = TrimAscii(app_user_id); !id.empty()) {
    return {std::string(id), "user"};
  }
  if (const std::string_view email = TrimAscii(reporter_email); !email.empty()) {
    return {text::LowerAsciiCopy(email), "email"};
  }
  const std::string_view hash = TrimAscii(ip_hash);
  if (hash.empty()) return {"anon:unknown", "anonymous"};
  return {"anon:" + text::LowerAsciiCopy(hash.substr(0, 16)), "anonymous"};
}

std::string HashClientAddress(std::string_view secret, std::string_view address) {
  return util::HexEncode(util::HmacSha256(secret, address));
}

}  // namespace service::domain::capture
