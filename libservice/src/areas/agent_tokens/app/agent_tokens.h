// Agent token use cases (Spec 2 "Agent tokens (JWT+Org)", "Authentication"
// 2-3, "Errors", "Limits"; server contract "Agent tokens"): create, list,
// edit and revoke an organization's tokens; the check of a presented token
// on every agent call; lastUsedAt kept in memory and written in batches;
// the metered event read.
//
// Management (list, create, edit, revoke) is for admins and managers
// (Capability::kManageAgentTokens; others 403); a manager cannot edit or
// revoke a token whose creator is currently an admin (403). Creation needs
// an agent-capable plan (pro, team, enterprise) or prepaid credits above 0
// (else 402 MCP_PLAN_REQUIRED); on those plans the number of live tokens is
// capped by the plan's agent_tokens limit (402 Plan limit reached); an
// organization allowed by credits alone is not capped (free's limit is 0).
//
// Errors: kInvalidArgument (400: expiry, grants, projects not of the
// organization), kPermissionDenied (403), kNotFound (404 "Agent token not
// found", another organization's too), kPaymentRequired (402), kConflict
// (409 AGENT_ACCESS_CHANGED for a stale expectedRevision, AGENT_PAT_EXPIRED
// for an expired token, AGENT_PAT_REVOKED for a revoked one).
//
// Thread-safety: every function is safe to call concurrently.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "app/actor.h"
#include "areas/accounts/app/accounts.h"
#include "areas/accounts/ports/org_repository.h"
#include "areas/agent_tokens/domain/agent_token.h"
#include "areas/agent_tokens/ports/agent_token_repository.h"
#include "areas/operations/app/billing.h"
#include "areas/operations/ports/usage_repository.h"
#include "areas/projects/ports/project_repository.h"
#include "ports/ids.h"
#include "ports/transaction.h"
#include "service/clock.h"
#include "service/options.h"
#include "service/status.h"
#include "util/mutex.h"

namespace service::app::agent_tokens {

inline constexpr std::string_view kMcpPlanRequired = "MCP_PLAN_REQUIRED";
inline constexpr std::string_view kAccessChanged = "AGENT_ACCESS_CHANGED";
inline constexpr std::string_view kTokenExpired = "AGENT_PAT_EXPIRED";
inline constexpr std::string_view kTokenRevoked = "AGENT_PAT_REVOKED";
// The scope of Spec 1 bug reads (server contract "Agent tokens").
inline constexpr std::string_view kReadBugsScope = "read_bugs";

// lastUsedAt without a write per request: each authenticated call notes the
// time in memory (a token's time moves at most once per
// kLastUsedResolutionMs); the worker task "agent_tokens.last_used" writes
// the noted times every kLastUsedFlushMs in one transaction (and once more
// at shutdown). So the stored lastUsedAt lags a call by at most
// kLastUsedResolutionMs + kLastUsedFlushMs; the listing shows the newer of
// the stored and the noted time.
inline constexpr int64_t kLastUsedResolutionMs = 60'000;
inline constexpr int64_t kLastUsedFlushMs = 30'000;

class UsageTracker {
 public:
  UsageTracker() = default;
  UsageTracker(const UsageTracker&) = delete;
  UsageTracker& operator=(const UsageTracker&) = delete;

  void Note(const std::string& token_id, int64_t now_ms) SV_EXCLUDES(mu_);
  // The latest noted use of `token_id` (0: none).
  int64_t Noted(const std::string& token_id) const SV_EXCLUDES(mu_);
  // Takes the uses noted since the last Take.
  std::vector<std::pair<std::string, int64_t>> Take() SV_EXCLUDES(mu_);
  // Puts back uses whose write failed.
  void Restore(const std::vector<std::pair<std::string, int64_t>>& uses) SV_EXCLUDES(mu_);

 private:
  static constexpr size_t kMaxNoted = 100'000;
  mutable util::Mutex mu_;
  std::unordered_map<std::string, int64_t> noted_ SV_GUARDED_BY(mu_);
  std::unordered_map<std::string, int64_t> pending_ SV_GUARDED_BY(mu_);
};

// What the agent tokens area needs. Pointers are borrowed from the Service
// and outlive every call.
struct AgentTokensDeps {
  ports::Transactions* db = nullptr;
  Clock* clock = nullptr;
  ports::Ids* ids = nullptr;
  ports::AgentTokenRepository* tokens = nullptr;
  ports::ProjectRepository* projects = nullptr;        // grants name projects of the organization
  ports::MembershipRepository* memberships = nullptr;  // a token's creator's current role
  ports::UsageRepository* usage = nullptr;             // plan and prepaid credits
  PlanLimitOverrides plan_limits;
  std::string public_url;  // the plan-limit answer's upgradeUrl
  UsageTracker* uses = nullptr;
  // The metered read charge (ChargeMeteredRead).
  const app::operations::OperationsDeps* operations = nullptr;

  int64_t Now() const { return clock->NowMillis(); }
};

// The organization's live tokens (neither revoked nor expired): the
// `agentTokens` current figure of GET /v1/org/usage.
Result<int64_t> CountLiveTokens(const AgentTokensDeps& deps, const std::string& org_id);

// GET /v1/org/agent-pats: newest first, revoked ones included;
// last_used_at is the newer of the stored and the noted time.
Result<std::vector<ports::AgentToken>> ListTokens(const AgentTokensDeps& deps, const ConsoleActor& actor);

// POST /v1/org/agent-pats. Shapes arrive validated by the API layer
// (scopes non-empty and known, name length, grant ids are UUIDs without
// duplicates); this checks expiries, the grants' projects and the plan.
struct NewToken {
  std::string name;
  std::vector<std::string> scopes;
  int64_t expires_at = 0;
  std::vector<domain::agent_tokens::Grant> grants;
};
struct CreatedToken {
  ports::AgentToken token;
  std::string secret;  // "sv_pat_...": shown once, never stored or logged
};
Result<CreatedToken> CreateToken(const AgentTokensDeps& deps, const ConsoleActor& actor, const NewToken& in);

// PATCH /v1/org/agent-pats/:id. Absent fields keep their value. Checks, in
// order: 404; 403 (a manager on an admin's token); 409 AGENT_PAT_REVOKED;
// 409 AGENT_PAT_EXPIRED (the stored expiry has passed: make a new token);
// 409 AGENT_ACCESS_CHANGED (`expected_revision` given and not the current
// one, also when another edit wins the race); then 400 for the new values.
// A supplied grant list replaces the grants (empty: none); without one the
// grants are kept, capped by a shorter new expiry. Every edit sets a new
// accessRevision.
struct TokenPatch {
  std::optional<std::string> name;
  std::optional<std::vector<std::string>> scopes;
  std::optional<int64_t> expires_at;
  std::optional<std::vector<domain::agent_tokens::Grant>> grants;
  std::optional<std::string> expected_revision;
};
Result<ports::AgentToken> UpdateToken(const AgentTokensDeps& deps, const ConsoleActor& actor,
                                      const std::string& id, const TokenPatch& patch);

// DELETE /v1/org/agent-pats/:id: revokes (a new accessRevision). 404; 403 (a
// manager on an admin's token). A revoked token stays revoked (answered as
// it is).
Result<ports::AgentToken> RevokeToken(const AgentTokensDeps& deps, const ConsoleActor& actor,
                                      const std::string& id);

// The bearer authenticator's check (AccountsDeps::check_agent_token): see
// app::accounts::CheckAgentToken. Notes the use (UsageTracker).
Result<accounts::AgentTokenCaller> Authenticate(const AgentTokensDeps& deps, std::string_view token);

// The tickets' X-Agent-Token check: a token Authenticate accepts whose
// organization is `org_id`, as the actor it acts for; 401 otherwise.
Result<ConsoleActor> CheckForOrganization(const AgentTokensDeps& deps, std::string_view token,
                                          const std::string& org_id);

// Writes the noted uses (the worker task).
Status FlushUses(const AgentTokensDeps& deps);

// Spec 2 "Limits": an agent token's event read with `limit` above 1 costs
// 2 prepaid credits unless the organization's plan includes agent access;
// 402 credits_exhausted (nothing charged) at a balance below 2. A limit of
// 1 or less is free. Human sessions never call it.
Status ChargeEventRead(const AgentTokensDeps& deps, const std::string& org_id, const std::string& token_id,
                       int64_t limit);

}  // namespace service::app::agent_tokens
