// The canonical end-user key of an occurrence (Spec 1 "End user": the
// application's user id when supplied, otherwise the reporter email,
// otherwise an anonymous key derived from the hashed client address). Every
// users-affected count groups by this key. Pure; safe from any thread.
#pragma once

#include <string>
#include <string_view>

namespace service::domain::capture {

struct EndUserIdentity {
  // The key is what the application sent, so a caller finds an end user by
  // the id it knows (`?userKey=cust-42`, `/v1/end-users/cust-42/timeline`):
  //   kind "user"       the application's user id, trimmed, case kept;
  //   kind "email"      the reporter email, trimmed and lower-cased;
  //   kind "anonymous"  "anon:" and the first 16 hex digits (lower case) of
  //                     the keyed client-address hash, or "anon:unknown"
  //                     when there is none. The form is fixed (21 or 12
  //                     characters, "anon:" then [0-9a-f]{16} or "unknown")
  //                     so it reads as derived, not as an application id.
  // An id and an email that are the same text are one end user (kind
  // "user" once any report supplied the id).
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

}  // namespace service::domain::capture
