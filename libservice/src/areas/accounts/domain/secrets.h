// Opaque one-time secrets of the account flows (refresh-token ids, email
// verification, password reset, invitation and waitlist approval tokens)
// and the masked email shown in responses.
//
// A secret is 32 random bytes as 64 lower-case hex characters. It is sent to
// its owner once (in a token, a link or an email) and stored only as its
// SHA-256 hex digest, so a database leak does not leak usable links; because
// the secret has 256 bits of entropy a plain digest (no salt, no stretching)
// is enough and lets the store look it up by an indexed equality.
//
// Pure functions; safe to call from any thread (the Ids port is itself
// thread-safe).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "ports/ids.h"
#include "service/status.h"

namespace service::domain::accounts {

inline constexpr size_t kSecretBytes = 32;
inline constexpr size_t kSecretHexChars = 2 * kSecretBytes;

// Lifetimes (milliseconds). The approval token's 7 days are in the spec; the
// others are this service's choice.
inline constexpr int64_t kApprovalTokenLifetimeMs = int64_t{7} * 24 * 60 * 60 * 1000;
inline constexpr int64_t kInvitationTokenLifetimeMs = int64_t{7} * 24 * 60 * 60 * 1000;
inline constexpr int64_t kEmailVerificationTokenLifetimeMs = int64_t{24} * 60 * 60 * 1000;
inline constexpr int64_t kPasswordResetTokenLifetimeMs = int64_t{60} * 60 * 1000;

// A freshly issued secret: `token` goes to its owner, `hash` to the store.
struct IssuedSecret {
  std::string token;  // 64 lower-case hex chars; never logged
  std::string hash;   // SecretHash(token)
};

// The secret spelled from caller-supplied random bytes.
// REQUIRES: random_bytes.size() == kSecretBytes.
IssuedSecret SecretFromBytes(std::string_view random_bytes);

// kSecretBytes from `ids` (a CSPRNG) as a secret.
IssuedSecret NewSecret(ports::Ids& ids);
// Named for the flows that use them; all are NewSecret.
inline IssuedSecret NewRefreshTokenId(ports::Ids& ids) { return NewSecret(ids); }
inline IssuedSecret NewEmailVerificationToken(ports::Ids& ids) { return NewSecret(ids); }
inline IssuedSecret NewPasswordResetToken(ports::Ids& ids) { return NewSecret(ids); }
inline IssuedSecret NewInvitationToken(ports::Ids& ids) { return NewSecret(ids); }
inline IssuedSecret NewApprovalToken(ports::Ids& ids) { return NewSecret(ids); }

// The storage hash of a secret: SHA-256, lower-case hex (64 chars).
std::string SecretHash(std::string_view token);

// True when `token` has the shape of a secret (64 hex chars, either case).
// Lets a handler reject garbage before touching the store; callers hash
// the lower-cased form (NormalizeSecret) for the lookup.
bool IsWellFormedSecret(std::string_view token);
// Lower-cases a well-formed secret so "ABC..." and "abc..." hash alike.
std::string NormalizeSecret(std::string_view token);

// Masks an email for responses such as EMAIL_UNVERIFIED: the domain is kept,
// the local part keeps its first and last character around "***".
// Local parts of one or two characters would be (nearly) revealed that way,
// so they keep only the first character when 2 long and nothing when 1:
//   "alice@example.com" -> "a***e@example.com"
//   "bo@example.com"    -> "b***@example.com"
//   "x@example.com"     -> "***@example.com"
// Characters are whole UTF-8 code points. Without an '@' the whole value
// is "***".
std::string MaskEmail(std::string_view email);

}  // namespace service::domain::accounts
