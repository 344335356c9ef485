// Agent tokens (Spec 2 "Agent token", "Agent tokens", "Limits"; server
// contract "Agent tokens"): the rules that need no I/O. A token is
// "sv_pat_" followed by 40 characters from [A-Za-z0-9] (the contract asks 32
// or more), shown once and stored only as its SHA-256 hex digest; it is
// shown afterwards by its prefix, "sv_pat_" plus the first 8 random
// characters. Its scopes come from a closed list (the nine of Spec 2 plus
// read_bugs), its expiry is in the future and within 365 days, and its
// project grants expire no later than the token.
//
// Pure; thread-safe.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "service/status.h"

namespace service::domain::agent_tokens {

inline constexpr std::string_view kTokenPrefix = "sv_pat_";
// Random characters of a new token; ParseToken accepts 32 to 128.
inline constexpr size_t kTokenRandomLength = 40;
inline constexpr size_t kTokenMinRandomLength = 32;
inline constexpr size_t kTokenMaxRandomLength = 128;
// Random characters kept (after kTokenPrefix) in the displayed prefix.
inline constexpr size_t kDisplayPrefixLength = 8;
// Spec 2 "Limits": expiry in the future and within 365 days.
inline constexpr int64_t kMaxLifetimeMs = int64_t{365} * 24 * 60 * 60 * 1000;
inline constexpr size_t kMaxNameLength = 100;
inline constexpr size_t kMaxGrants = 100;
// Random characters of an accessRevision (an opaque string).
inline constexpr size_t kRevisionLength = 16;

// Spec 2 "Authentication" 2 names nine scopes; the server contract adds
// read_bugs (Spec 1 bug reads of granted projects).
inline constexpr std::array<std::string_view, 10> kScopes = {
    "claim_issue",       "request_evidence", "submit_verification", "read_verification", "create_bug",
    "get_repro_context", "publish_symbols",  "suggest_fix",         "subscribe",         "read_bugs"};
bool IsKnownScope(std::string_view scope);

// "sv_pat_" + `random`. REQUIRES: random is alphanumeric.
std::string FormatToken(std::string_view random);
// The displayed prefix of a well-formed token ("sv_pat_" + 8 characters),
// or nullopt when `token` does not have a token's shape (checked before any
// store lookup).
std::optional<std::string> ParseToken(std::string_view token);
// The stored digest: SHA-256, lower-case hex.
std::string HashToken(std::string_view token);

// The expiry of a token: later than `now` and at most kMaxLifetimeMs after
// it; otherwise kInvalidArgument naming the rule.
Status CheckTokenExpiry(int64_t expires_at, int64_t now);

// One project grant as asked or stored: no expiry follows the token's.
struct Grant {
  std::string project_id;
  std::optional<int64_t> expires_at;
};
// A grant's own expiry: later than `now`, not after the token's; otherwise
// kInvalidArgument.
Status CheckGrantExpiry(int64_t grant_expires_at, int64_t token_expires_at, int64_t now);
// The grants after the token's expiry changes to `token_expires_at`: each
// grant's own expiry is capped by it (Spec 2: "omitting it keeps existing
// grants, capped by a shorter token expiry").
std::vector<Grant> CapGrants(std::vector<Grant> grants, int64_t token_expires_at);
// When the grant stops covering its project.
inline int64_t EffectiveExpiry(const Grant& g, int64_t token_expires_at) {
  return g.expires_at && *g.expires_at < token_expires_at ? *g.expires_at : token_expires_at;
}

// May an actor of role `actor_role` manage (edit, revoke) a token whose
// creator's current role in the organization is `owner_role` (nullopt: no
// longer a member)? Admins and managers may; a manager not an admin's
// token (Spec 2). Role names as domain/roles.h spells them.
bool MayManage(std::string_view actor_role, const std::optional<std::string>& owner_role);

}  // namespace service::domain::agent_tokens
