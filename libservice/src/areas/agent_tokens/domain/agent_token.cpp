#include "areas/agent_tokens/domain/agent_token.h"

#include <algorithm>

#include "domain/roles.h"
#include "util/crypto.h"

namespace service::domain::agent_tokens {

bool IsKnownScope(std::string_view scope) {
  return std::find(kScopes.begin(), kScopes.end(), scope) != kScopes.end();
}

std::string FormatToken(std::string_view random) {
  std::string token(kTokenPrefix);
  token += random;
  return token;
}

std::optional<std::string> ParseToken(std::string_view token) {
  if (token.substr(0, kTokenPrefix.size()) != kTokenPrefix) return std::nullopt;
  const std::string_view random = token.substr(kTokenPrefix.size());
  if (random.size() < kTokenMinRandomLength || random.size() > kTokenMaxRandomLength) return std::nullopt;
  for (char c : random) {
    const bool alnum = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
    if (!alnum) return std::nullopt;
  }
  return std::string(token.substr(0, kTokenPrefix.size() + kDisplayPrefixLength));
}

std::string HashToken(std::string_view token) { return util::Sha256Hex(token); }

Status CheckTokenExpiry(int64_t expires_at, int64_t now) {
  if (expires_at <= now) return InvalidArgument("expiresAt must be in the future");
  if (expires_at - now > kMaxLifetimeMs) return InvalidArgument("expiresAt must be within 365 days");
  return Status::Ok();
}

Status CheckGrantExpiry(int64_t grant_expires_at, int64_t token_expires_at, int64_t now) {
  if (grant_expires_at <= now) return InvalidArgument("A project grant's expiresAt must be in the future");
  if (grant_expires_at > token_expires_at) {
    return InvalidArgument("A project grant's expiresAt cannot be later than the token's");
  }
  return Status::Ok();
}

std::vector<Grant> CapGrants(std::vector<Grant> grants, int64_t token_expires_at) {
  for (Grant& g : grants) {
    if (g.expires_at && *g.expires_at > token_expires_at) g.expires_at = token_expires_at;
  }
  return grants;
}

bool MayManage(std::string_view actor_role, const std::optional<std::string>& owner_role) {
  const std::optional<Role> actor = ParseRole(actor_role);
  if (!actor || !Can(*actor, Capability::kManageAgentTokens)) return false;
  if (*actor == Role::kAdmin) return true;
  return !(owner_role && *owner_role == RoleName(Role::kAdmin));
}

}  // namespace service::domain::agent_tokens
