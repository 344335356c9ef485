// The canonical end-user key of an occurrence (Spec 1 "End user": the
// application's user id when supplied, otherwise the reporter email,
// otherwise an anonymous key derived from the hashed client address). Every
// users-affected count groups by this key. Pure; safe from any thread.
#pragma once

#include <string>
#include <string_view>

namespace service::domain {

struct EndUserIdentity {
  // "user:<id>"       the application's user id, trimmed, case kept;
  // "email:<address>" the reporter email, trimmed and lower-cased;
  // "anon:<hash16>"   the first 16 characters of the client-address hash,
  //                   lower-cased; "anon:unknown" when there is no hash.
  std::string user_key;
  std::string kind;  // "user", "email" or "anonymous"
};

// Blank values count as absent. REQUIRES: `ip_hash` is a keyed hash of the
// client address (see HashClientAddress), never the raw address.
EndUserIdentity EndUserKey(std::string_view app_user_id, std::string_view reporter_email,
                           std::string_view ip_hash);

// Hex HMAC-SHA-256 of the client address under a server secret: stable per
// address, not reversible without the secret. Stored as Occurrence.ip_hash.
std::string HashClientAddress(std::string_view secret, std::string_view address);

}  // namespace service::domain
