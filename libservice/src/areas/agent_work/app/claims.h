// Agent work: fenced claims (Spec 2 "Agent work", server contract "Agent
// work"). Use cases behind POST /v1/agent-work/claims, /claims/renew,
// /claims/release, /claims/complete and GET /v1/agent-work/claims, and
// behind the MCP tools claim_issue, renew_claim, release_claim and
// complete_claim: both parse their input with domain::agent_work::Parse*
// (the HTTP field names) and answer these use cases' Status codes (error
// codes in Status::error_code(): VALIDATION_ERROR, SCOPE_REQUIRED,
// PROJECT_GRANT_REQUIRED, ISSUE_NOT_FOUND, CLAIM_NOT_FOUND, CLAIM_HELD,
// LEASE_STALE, COMMAND_CONFLICT).
//
// Every call rechecks, in this order: the scope (403 SCOPE_REQUIRED), the
// project grant (403 PROJECT_GRANT_REQUIRED), the canonical issue (a bug of
// the caller's organization in that project, or one merged into such a bug:
// the claim is on the merge target; else 404 ISSUE_NOT_FOUND), then the
// command log and the lease, at the clock's time. The caller's account and
// membership are the authenticator's to check (it fills AgentCaller).
//
// Commands run in one WriteAlone transaction that locks the issue first
// (ports/claim_repository.h), so exactly one live claim per issue holds,
// also across server processes on one PostgreSQL. A command that took
// effect is logged with its answer in the same transaction: resending it
// (same commandId, same input, same token) answers that first answer with
// `replayed` set; other input under a logged commandId is 409
// COMMAND_CONFLICT. A refused command (any 4xx) is not logged: it changed
// nothing, and resending it is answered from the current state.
//
// Failures: the codes above, kUnavailable/kInternal from the database.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "areas/agent_work/domain/claims.h"
#include "areas/agent_work/ports/claim_repository.h"
#include "areas/agent_work/ports/command_log_repository.h"
#include "areas/bugs/ports/bug_read_repository.h"
#include "ports/ids.h"
#include "ports/transaction.h"
#include "service/clock.h"
#include "service/options.h"
#include "service/status.h"

namespace service::app::agent_work {

struct AgentWorkDeps {
  ports::Transactions* db = nullptr;
  Clock* clock = nullptr;
  ports::Ids* ids = nullptr;
  ports::ClaimRepository* claims = nullptr;
  ports::CommandLogRepository* commands = nullptr;
  ports::BugReadRepository* bugs = nullptr;  // the canonical issue: a bug of the organization
  // SERVICE_RETENTION agent_commands: how long a command's answer is kept for replays.
  int64_t command_retention_ms = RetentionPeriods().agent_commands_ms;

  int64_t Now() const { return clock->NowMillis(); }
};

// The agent token calling, as its authenticator read it on this call.
struct AgentCaller {
  std::string token_id;
  std::string org_id;
  std::string user_id;  // the token's creator
  std::vector<std::string> scopes;
  std::vector<std::string> granted_projects;
};

// A command's answer: the claim and whether it was a replay (the HTTP
// route answers 200 instead of 201 for a replayed claim).
struct ClaimOutcome {
  domain::agent_work::ClaimView claim;
  bool replayed = false;
};

Result<ClaimOutcome> Claim(const AgentWorkDeps& deps, const AgentCaller& caller,
                           const domain::agent_work::ClaimInput& in);
// Renews, releases or completes the lease named by `in` (kind kRenew,
// kRelease or kComplete).
Result<ClaimOutcome> LeaseCommand(const AgentWorkDeps& deps, const AgentCaller& caller,
                                  domain::agent_work::CommandKind kind,
                                  const domain::agent_work::LeaseInput& in);
inline Result<ClaimOutcome> Renew(const AgentWorkDeps& deps, const AgentCaller& caller,
                                  const domain::agent_work::LeaseInput& in) {
  return LeaseCommand(deps, caller, domain::agent_work::CommandKind::kRenew, in);
}
inline Result<ClaimOutcome> Release(const AgentWorkDeps& deps, const AgentCaller& caller,
                                    const domain::agent_work::LeaseInput& in) {
  return LeaseCommand(deps, caller, domain::agent_work::CommandKind::kRelease, in);
}
inline Result<ClaimOutcome> Complete(const AgentWorkDeps& deps, const AgentCaller& caller,
                                     const domain::agent_work::LeaseInput& in) {
  return LeaseCommand(deps, caller, domain::agent_work::CommandKind::kComplete, in);
}

// GET /claims: the canonical issue's current or latest claim (status as of
// now: an active claim past its expiry reads `expired`). Scope claim_issue
// or request_evidence. No claim ever: 404 CLAIM_NOT_FOUND.
// REQUIRES: project_id and issue_id are lower-case UUIDs.
Result<domain::agent_work::ClaimView> GetClaim(const AgentWorkDeps& deps, const AgentCaller& caller,
                                               const std::string& project_id, const std::string& issue_id);

// For the verification area (above this one; README "Verification"),
// inside its own write transaction:
// The canonical issue `issue_id` of `project_id` stands for (itself, or
// the bug it was merged into); else 404 ISSUE_NOT_FOUND.
Result<std::string> ResolveIssue(const AgentWorkDeps& deps, ports::Tx& tx, const std::string& org_id,
                                 const std::string& project_id, const std::string& issue_id);
// Locks the canonical issue (as the lease commands do) and returns the live
// lease these fields name, held by `token_id`: ISSUE_NOT_FOUND, LEASE_STALE
// (wrong fields, no longer live, or another token's lease).
// REQUIRES: a write transaction.
struct HeldLease {
  std::string issue_id;  // canonical
  ports::ClaimRow claim;
};
Result<HeldLease> LockLiveLease(const AgentWorkDeps& deps, ports::Tx& tx, const std::string& org_id,
                                const std::string& token_id, const std::string& project_id,
                                const std::string& issue_id, const std::string& claim_id, int64_t generation,
                                int64_t fencing_token, int64_t now_ms);
// Completes a lease LockLiveLease returned in this transaction, with
// `receipt_id`, as POST /claims/complete does; logs no command (the caller
// logs its own).
Result<domain::agent_work::ClaimView> CompleteHeldLease(const AgentWorkDeps& deps, ports::Tx& tx,
                                                        ports::ClaimRow claim, const std::string& receipt_id,
                                                        int64_t now_ms);

// Called inside a triage write's transaction for every event it publishes
// (platform events): a `deleted` event with `mergedInto` records the merge,
// so commands naming the merged-away issue resolve to its target.
Status OnTriageEvent(const AgentWorkDeps& deps, ports::Tx& tx, const std::string& type,
                     const std::string& org_id, const std::string& project_id,
                     const std::string& payload_json);

// Deletes command-log rows older than deps.command_retention_ms (the
// answers kept for replays; SERVICE_RETENTION agent_commands, default 24
// hours) in batches of kRetentionBatchRows (worker task).
Status PruneCommandLog(const AgentWorkDeps& deps);

}  // namespace service::app::agent_work
