// Session tokens: compact JWTs (HS256) for console sessions.
//
// An access token authenticates bearer routes for one hour; a refresh token
// (30 days) is only good for POST /v1/auth/refresh and carries a `jti` whose
// hash the store keeps so a refresh can be retired. Every token carries the
// account's session revision (`rev`); the caller compares it with the
// account's current revision, so a change of status, email or password
// retires all earlier tokens.
//
// Pure functions over values; safe to call from any thread.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "service/status.h"

namespace service::domain::accounts {

inline constexpr int kTokenVersion = 2;
inline constexpr int64_t kAccessTokenLifetimeSeconds = 60 * 60;             // 1 hour
inline constexpr int64_t kRefreshTokenLifetimeSeconds = 30 * 24 * 60 * 60;  // 30 days
inline constexpr std::string_view kAccessTokenType = "access";
inline constexpr std::string_view kRefreshTokenType = "refresh";
// Longer tokens are refused before any decoding work.
inline constexpr size_t kMaxTokenBytes = 4096;

struct TokenClaims {
  std::string sub;          // user id
  std::string org;          // organization id, or empty
  std::string typ;          // kAccessTokenType or kRefreshTokenType
  int ver = kTokenVersion;  // token format version
  int64_t rev = 0;          // account session revision; absent means 0
  int64_t iat = 0;          // issued at, Unix seconds
  int64_t exp = 0;          // expires at, Unix seconds
  std::string jti;          // refresh tokens: opaque id (see secrets.h); empty otherwise
  // The sign-in this token descends from: one id per sign-in (login or
  // signup), carried by every refresh and organization switch. Empty in
  // tokens issued before it existed.
  std::string sid;

  bool operator==(const TokenClaims&) const = default;
};

// Claims for a new access token issued at `now_ms` (lifetime 1 hour).
TokenClaims MakeAccessClaims(std::string user_id, std::string org_id, int64_t revision, int64_t now_ms);
// Claims for a new refresh token issued at `now_ms` (lifetime 30 days).
// REQUIRES: `jti` non-empty.
TokenClaims MakeRefreshClaims(std::string user_id, std::string org_id, int64_t revision, std::string jti,
                              int64_t now_ms);

// "<header>.<payload>.<signature>", header {"alg":"HS256","typ":"JWT"}.
// Empty `org`, `jti` and `sid` are omitted from the payload.
// REQUIRES: `secret` non-empty.
std::string SignToken(const TokenClaims& claims, std::string_view secret);

// Checks the token's form, algorithm (HS256 only), signature (constant
// time), version (2), type (`expected_typ`) and expiry (`now_ms` must be
// before `exp`); refresh tokens must carry a `jti`. Every failure is
// kUnauthenticated with the same message, which never contains the token.
Result<TokenClaims> VerifyToken(std::string_view token, std::string_view secret, int64_t now_ms,
                                std::string_view expected_typ);

}  // namespace service::domain::accounts
