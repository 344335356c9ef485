#include "areas/agent_tokens/app/agent_tokens.h"

#include <algorithm>

#include "areas/operations/domain/plans.h"
#include "domain/roles.h"
#include "util/crypto.h"

namespace service::app::agent_tokens {
namespace {

namespace dat = domain::agent_tokens;

Status TokenNotFound() { return NotFound("Agent token not found"); }
Status InvalidToken() { return Unauthenticated("Missing or invalid token"); }

Status RequireManage(const ConsoleActor& actor) {
  return RequireCapability(actor, domain::Capability::kManageAgentTokens);
}

std::string NewRevision(const AgentTokensDeps& deps) { return deps.ids->RandomAlnum(dat::kRevisionLength); }

// Every granted project is a project of the organization (400 otherwise).
Status CheckGrantProjects(const AgentTokensDeps& deps, ports::Tx& tx, const std::string& org_id,
                          const std::vector<dat::Grant>& grants) {
  for (const dat::Grant& g : grants) {
    SV_ASSIGN_OR_RETURN(std::optional<ports::Project> p, deps.projects->Find(tx, org_id, g.project_id));
    if (!p)
      return InvalidArgument("projectGrants: project " + g.project_id +
                             " is not a project of this organization");
  }
  return Status::Ok();
}

// Each grant's own expiry against the token's (400).
Status CheckGrantExpiries(const std::vector<dat::Grant>& grants, int64_t token_expires_at, int64_t now) {
  for (const dat::Grant& g : grants) {
    if (g.expires_at) SV_RETURN_IF_ERROR(dat::CheckGrantExpiry(*g.expires_at, token_expires_at, now));
  }
  return Status::Ok();
}

// A manager may not touch a token whose creator is currently an admin.
Status CheckOwner(const AgentTokensDeps& deps, ports::Tx& tx, const ConsoleActor& actor,
                  const ports::AgentToken& token) {
  std::optional<std::string> owner_role;
  if (token.created_by != actor.user_id) {
    SV_ASSIGN_OR_RETURN(std::optional<ports::Membership> m,
                        deps.memberships->Find(tx, actor.org_id, token.created_by));
    if (m) owner_role = m->role;
  } else {
    owner_role = actor.role;
  }
  if (!dat::MayManage(actor.role, owner_role)) {
    return PermissionDenied("A manager cannot manage an admin's agent token");
  }
  return Status::Ok();
}

void MergeNoted(const AgentTokensDeps& deps, ports::AgentToken& t) {
  if (deps.uses == nullptr) return;
  const int64_t noted = deps.uses->Noted(t.id);
  if (noted > 0 && (!t.last_used_at || *t.last_used_at < noted)) t.last_used_at = noted;
}

}  // namespace

// ---- UsageTracker ----------------------------------------------------------------

void UsageTracker::Note(const std::string& token_id, int64_t now_ms) {
  util::MutexLock lock(&mu_);
  auto [it, inserted] = noted_.try_emplace(token_id, now_ms);
  if (!inserted) {
    if (now_ms >= it->second && now_ms - it->second < kLastUsedResolutionMs) return;
    it->second = now_ms;
  }
  int64_t& pending = pending_[token_id];
  if (pending < now_ms) pending = now_ms;
}

int64_t UsageTracker::Noted(const std::string& token_id) const {
  util::MutexLock lock(&mu_);
  auto it = noted_.find(token_id);
  return it == noted_.end() ? 0 : it->second;
}

std::vector<std::pair<std::string, int64_t>> UsageTracker::Take() {
  util::MutexLock lock(&mu_);
  std::vector<std::pair<std::string, int64_t>> out(pending_.begin(), pending_.end());
  pending_.clear();
  if (noted_.size() > kMaxNoted) noted_.clear();
  std::sort(out.begin(), out.end());  // one lock order for concurrent writers
  return out;
}

void UsageTracker::Restore(const std::vector<std::pair<std::string, int64_t>>& uses) {
  util::MutexLock lock(&mu_);
  for (const auto& [id, at] : uses) {
    int64_t& pending = pending_[id];
    if (pending < at) pending = at;
  }
}

// ---- management ----------------------------------------------------------------

Result<std::vector<ports::AgentToken>> ListTokens(const AgentTokensDeps& deps, const ConsoleActor& actor) {
  SV_RETURN_IF_ERROR(RequireManage(actor));
  std::vector<ports::AgentToken> out;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& c) -> Status {
    SV_ASSIGN_OR_RETURN(out, deps.tokens->List(c, actor.org_id));
    return Status::Ok();
  }));
  for (ports::AgentToken& t : out) MergeNoted(deps, t);
  return out;
}

Result<CreatedToken> CreateToken(const AgentTokensDeps& deps, const ConsoleActor& actor, const NewToken& in) {
  SV_RETURN_IF_ERROR(RequireManage(actor));
  const int64_t now = deps.Now();
  SV_RETURN_IF_ERROR(dat::CheckTokenExpiry(in.expires_at, now));
  SV_RETURN_IF_ERROR(CheckGrantExpiries(in.grants, in.expires_at, now));

  CreatedToken out;
  const std::string random = deps.ids->RandomAlnum(dat::kTokenRandomLength);
  out.secret = dat::FormatToken(random);
  ports::AgentToken& t = out.token;
  t.id = deps.ids->NewId();
  t.org_id = actor.org_id;
  t.created_by = actor.user_id;
  t.name = in.name;
  t.prefix = *dat::ParseToken(out.secret);
  t.token_hash = dat::HashToken(out.secret);
  t.scopes = in.scopes;
  t.expires_at = in.expires_at;
  t.access_revision = NewRevision(deps);
  t.created_at = now;
  t.grants = in.grants;
  std::sort(t.grants.begin(), t.grants.end(),
            [](const dat::Grant& a, const dat::Grant& b) { return a.project_id < b.project_id; });

  SV_RETURN_IF_ERROR(deps.db->Write([&](ports::Tx& tx) -> Status {
    SV_ASSIGN_OR_RETURN(std::string plan, deps.usage->PlanOf(tx, actor.org_id));
    if (domain::operations::PlanHasAgentAccess(plan)) {
      const domain::operations::PlanLimits limits = domain::operations::LimitsFor(plan, deps.plan_limits);
      SV_ASSIGN_OR_RETURN(int64_t live, deps.tokens->CountLive(tx, actor.org_id, now));
      if (!domain::operations::WithinLimit(limits.agent_tokens, live)) {
        return Status(Code::kPaymentRequired, "Plan limit reached", "",
                      domain::operations::PlanLimitPayload(limits.agent_tokens, live, plan, deps.public_url));
      }
    } else {
      SV_ASSIGN_OR_RETURN(int64_t credits, deps.usage->PrepaidCredits(tx, actor.org_id));
      if (credits <= 0) {
        return Status(Code::kPaymentRequired,
                      "Agent tokens need the Pro, Team or Enterprise plan, or prepaid credits",
                      std::string(kMcpPlanRequired));
      }
    }
    SV_RETURN_IF_ERROR(CheckGrantProjects(deps, tx, actor.org_id, t.grants));
    return deps.tokens->Insert(tx, t);
  }));
  return out;
}

Result<ports::AgentToken> UpdateToken(const AgentTokensDeps& deps, const ConsoleActor& actor,
                                      const std::string& id, const TokenPatch& patch) {
  SV_RETURN_IF_ERROR(RequireManage(actor));
  const int64_t now = deps.Now();
  ports::AgentToken out;
  SV_RETURN_IF_ERROR(deps.db->Write([&](ports::Tx& tx) -> Status {
    SV_ASSIGN_OR_RETURN(std::optional<ports::AgentToken> found, deps.tokens->Find(tx, actor.org_id, id));
    if (!found) return TokenNotFound();
    ports::AgentToken t = std::move(*found);
    SV_RETURN_IF_ERROR(CheckOwner(deps, tx, actor, t));
    if (t.revoked_at) {
      return Status(Code::kConflict, "This agent token is revoked and cannot be edited",
                    std::string(kTokenRevoked));
    }
    if (t.expires_at <= now) {
      return Status(Code::kConflict, "This agent token has expired; create a new one",
                    std::string(kTokenExpired));
    }
    if (patch.expected_revision && *patch.expected_revision != t.access_revision) {
      return Status(Code::kConflict, "The agent token changed since it was read; reload it",
                    std::string(kAccessChanged));
    }
    const std::string expected = t.access_revision;
    if (patch.name) t.name = *patch.name;
    if (patch.scopes) t.scopes = *patch.scopes;
    if (patch.expires_at) {
      SV_RETURN_IF_ERROR(dat::CheckTokenExpiry(*patch.expires_at, now));
      t.expires_at = *patch.expires_at;
    }
    if (patch.grants) {
      SV_RETURN_IF_ERROR(CheckGrantExpiries(*patch.grants, t.expires_at, now));
      SV_RETURN_IF_ERROR(CheckGrantProjects(deps, tx, actor.org_id, *patch.grants));
      t.grants = *patch.grants;
      std::sort(t.grants.begin(), t.grants.end(),
                [](const dat::Grant& a, const dat::Grant& b) { return a.project_id < b.project_id; });
    } else {
      t.grants = dat::CapGrants(std::move(t.grants), t.expires_at);
    }
    t.access_revision = NewRevision(deps);
    SV_ASSIGN_OR_RETURN(bool updated, deps.tokens->Update(tx, t, expected));
    if (!updated) {
      return Status(Code::kConflict, "The agent token changed since it was read; reload it",
                    std::string(kAccessChanged));
    }
    out = std::move(t);
    return Status::Ok();
  }));
  MergeNoted(deps, out);
  return out;
}

Result<ports::AgentToken> RevokeToken(const AgentTokensDeps& deps, const ConsoleActor& actor,
                                      const std::string& id) {
  SV_RETURN_IF_ERROR(RequireManage(actor));
  const int64_t now = deps.Now();
  ports::AgentToken out;
  SV_RETURN_IF_ERROR(deps.db->Write([&](ports::Tx& tx) -> Status {
    SV_ASSIGN_OR_RETURN(std::optional<ports::AgentToken> found, deps.tokens->Find(tx, actor.org_id, id));
    if (!found) return TokenNotFound();
    SV_RETURN_IF_ERROR(CheckOwner(deps, tx, actor, *found));
    out = std::move(*found);
    if (out.revoked_at) return Status::Ok();
    const std::string revision = NewRevision(deps);
    SV_ASSIGN_OR_RETURN(bool revoked, deps.tokens->Revoke(tx, actor.org_id, id, now, revision));
    if (revoked) {
      out.revoked_at = now;
      out.access_revision = revision;
    }
    return Status::Ok();
  }));
  MergeNoted(deps, out);
  return out;
}

// ---- authentication ----------------------------------------------------------------

Result<accounts::AgentTokenCaller> Authenticate(const AgentTokensDeps& deps, std::string_view token) {
  if (!dat::ParseToken(token)) return InvalidToken();
  const std::string hash = dat::HashToken(token);
  std::optional<ports::AgentTokenAuth> found;
  const Status read = deps.db->Read([&](ports::Tx& c) -> Status {
    SV_ASSIGN_OR_RETURN(found, deps.tokens->FindForAuth(c, hash));
    return Status::Ok();
  });
  if (!read.ok()) return accounts::AuthUnavailable();
  if (!found || !util::ConstantTimeEquals(found->token.token_hash, hash)) return InvalidToken();
  const ports::AgentToken& t = found->token;
  const int64_t now = deps.Now();
  if (t.revoked_at) return Status(Code::kUnauthenticated, "Agent token revoked", std::string(kTokenRevoked));
  if (t.expires_at <= now)
    return Status(Code::kUnauthenticated, "Agent token expired", std::string(kTokenExpired));
  // The token acts for its creator: an active account, still a member.
  if (found->creator_status != "active" || !found->creator_role) return InvalidToken();

  accounts::AgentTokenCaller caller;
  caller.token_id = t.id;
  caller.user_id = t.created_by;
  caller.email = found->creator_email;
  caller.org_id = t.org_id;
  caller.role = *found->creator_role;
  caller.scopes = t.scopes;
  for (const dat::Grant& g : t.grants) {
    if (dat::EffectiveExpiry(g, t.expires_at) > now) caller.granted_projects.push_back(g.project_id);
  }
  if (deps.uses != nullptr) deps.uses->Note(t.id, now);
  return caller;
}

Result<ConsoleActor> CheckForOrganization(const AgentTokensDeps& deps, std::string_view token,
                                          const std::string& org_id) {
  auto caller = Authenticate(deps, token);
  if (!caller.ok()) {
    if (caller.status().code() == Code::kUnauthenticated) return InvalidToken();
    return caller.status();
  }
  if (caller->org_id != org_id) return InvalidToken();
  return ConsoleActor{caller->user_id, caller->email, caller->org_id, caller->role};
}

Status FlushUses(const AgentTokensDeps& deps) {
  if (deps.uses == nullptr) return Status::Ok();
  std::vector<std::pair<std::string, int64_t>> batch = deps.uses->Take();
  if (batch.empty()) return Status::Ok();
  Status st = deps.db->Write([&](ports::Tx& tx) { return deps.tokens->TouchLastUsed(tx, batch); });
  if (!st.ok()) deps.uses->Restore(batch);
  return st;
}

// ---- metered reads ----------------------------------------------------------------

Status ChargeEventRead(const AgentTokensDeps& deps, const std::string& org_id, const std::string& token_id,
                       int64_t limit) {
  if (limit <= 1) return Status::Ok();
  if (deps.operations == nullptr) return Internal("metered reads are not wired");
  // The ledger keeps one row per (organization, kind, reference): each read
  // is its own reference, naming the token.
  auto charge = operations::ChargeMeteredRead(*deps.operations, org_id,
                                              "agent_pat:" + token_id + ":" + deps.ids->NewId());
  return charge.status();
}

Result<int64_t> CountLiveTokens(const AgentTokensDeps& deps, const std::string& org_id) {
  int64_t live = 0;
  const int64_t now = deps.Now();
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& c) -> Status {
    SV_ASSIGN_OR_RETURN(live, deps.tokens->CountLive(c, org_id, now));
    return Status::Ok();
  }));
  return live;
}

}  // namespace service::app::agent_tokens
