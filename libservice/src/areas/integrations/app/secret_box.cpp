#include "areas/integrations/app/secret_box.h"

#include "util/crypto.h"

namespace service::app::integrations {

std::string SecretBox::Seal(std::string_view plaintext) const {
  const std::string nonce = ids_->RandomBytes(12);
  return "v1:" + util::Base64UrlEncode(nonce + util::Aes256GcmSeal(key_, nonce, plaintext));
}

Result<std::string> SecretBox::Open(std::string_view sealed) const {
  std::string raw, plain;
  if (!sealed.starts_with("v1:") || !util::Base64UrlDecode(sealed.substr(3), &raw) || raw.size() < 28 ||
      !util::Aes256GcmOpen(key_, std::string_view(raw).substr(0, 12), std::string_view(raw).substr(12),
                           &plain)) {
    return Internal("a sealed secret does not open under the configured key (SERVICE_SECRETS_KEY changed?)");
  }
  return plain;
}

Result<std::string> ParseSecretsKey(std::string_view text) {
  std::string key;
  if (text.size() == 64 && util::HexDecode(text, &key) && key.size() == 32) return key;
  key.clear();
  if (util::Base64UrlDecode(text, &key) && key.size() == 32) return key;
  return InvalidArgument("SERVICE_SECRETS_KEY must be 32 bytes as 64 hex characters or base64");
}

}  // namespace service::app::integrations
