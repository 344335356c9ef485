// SecretBox: seals integration secrets, bearer tokens and destination
// configs at rest with AES-256-GCM (util/crypto) under the operator's key
// (SERVICE_SECRETS_KEY) or, when unset, a key generated once and kept in the
// database's settings table.
//
// Sealed text: "v1:" + base64url(12-byte random nonce || ciphertext || tag).
// Thread-safety: immutable after construction; safe from any thread.
#pragma once

#include <string>
#include <string_view>

#include "ports/ids.h"
#include "service/status.h"

namespace service::app::integrations {

class SecretBox {
 public:
  // REQUIRES: key is 32 bytes; `ids` (the nonce source) outlives this.
  SecretBox(std::string key, ports::Ids* ids) : key_(std::move(key)), ids_(ids) {}

  std::string Seal(std::string_view plaintext) const;
  // kInternal when the text is not sealed under this key (never shows it).
  Result<std::string> Open(std::string_view sealed) const;

 private:
  std::string key_;
  ports::Ids* ids_;
};

// Parses SERVICE_SECRETS_KEY: 64 hex characters or base64 of 32 bytes.
Result<std::string> ParseSecretsKey(std::string_view text);

}  // namespace service::app::integrations
