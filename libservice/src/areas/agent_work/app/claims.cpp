#include "areas/agent_work/app/claims.h"

#include <algorithm>
#include <boost/json.hpp>

#include "app/retention.h"

namespace service::app::agent_work {
namespace {

namespace json = boost::json;
namespace dw = domain::agent_work;

bool Has(const std::vector<std::string>& list, std::string_view item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

Status RequireGrant(const AgentCaller& caller, const std::string& project_id) {
  if (!Has(caller.granted_projects, project_id)) return dw::ProjectGrantRequired();
  return Status::Ok();
}

dw::ClaimView ViewOf(const ports::ClaimRow& c, int64_t now_ms) {
  return dw::ClaimView{
      c.id,         c.generation, c.fencing_token,
      c.project_id, c.issue_id,   std::string(dw::EffectiveStatus(c.status, c.expires_at, now_ms)),
      c.expires_at};
}

// The canonical issue `issue_id` of `project_id` stands for: itself when it
// is an unmerged bug of the organization in that project, else the bug it
// was merged into (same project). Else 404.
Result<std::string> CanonicalIssue(const AgentWorkDeps& deps, ports::Tx& tx, const std::string& org_id,
                                   const std::string& project_id, const std::string& issue_id) {
  SV_ASSIGN_OR_RETURN(std::optional<ports::BugRecord> bug, deps.bugs->Find(tx, org_id, issue_id));
  std::string canonical = issue_id;
  if (!bug) {
    SV_ASSIGN_OR_RETURN(std::optional<std::string> target, deps.claims->MergeTarget(tx, org_id, issue_id));
    if (!target) return dw::IssueNotFound();
    SV_ASSIGN_OR_RETURN(bug, deps.bugs->Find(tx, org_id, *target));
    canonical = *target;
  }
  if (!bug || bug->project_id != project_id) return dw::IssueNotFound();
  return canonical;
}

// The logged answer of `command_id` when it was sent before: OK with
// `out` set for a replay, COMMAND_CONFLICT for other input, OK with `out`
// untouched when it is new.
Status LookUpCommand(const AgentWorkDeps& deps, ports::Tx& tx, const std::string& org_id,
                     const std::string& command_id, const std::string& fingerprint,
                     std::optional<ClaimOutcome>& out) {
  SV_ASSIGN_OR_RETURN(std::optional<ports::CommandRecord> logged,
                      deps.commands->Find(tx, org_id, command_id));
  if (!logged) return Status::Ok();
  if (logged->fingerprint != fingerprint) return dw::CommandConflict();
  boost::system::error_code ec;
  const json::value answer = json::parse(logged->answer_json, ec);
  std::optional<dw::ClaimView> view = ec ? std::nullopt : dw::ClaimFromJson(answer);
  if (!view) return Internal("agent_commands: unreadable answer of " + command_id);
  out = ClaimOutcome{std::move(*view), true};
  return Status::Ok();
}

Status LogCommand(const AgentWorkDeps& deps, ports::Tx& tx, const AgentCaller& caller,
                  const std::string& command_id, dw::CommandKind kind, const std::string& fingerprint,
                  int status, const dw::ClaimView& answer, int64_t now) {
  ports::CommandRecord r;
  r.org_id = caller.org_id;
  r.command_id = command_id;
  r.kind = std::string(dw::CommandName(kind));
  r.fingerprint = fingerprint;
  r.token_id = caller.token_id;
  r.status = status;
  r.answer_json = json::serialize(dw::ClaimJson(answer));
  r.created_at = now;
  return deps.commands->Insert(tx, r);
}

// Runs a command's transaction; once more when it lost a race on a unique
// key (the same commandId sent concurrently for two issues: the second run
// finds the first's log row).
Status RunCommand(const AgentWorkDeps& deps, const ports::TxFn& fn) {
  Status s = deps.db->WriteAlone(fn);
  if (s.code() == Code::kConflict && s.error_code().empty()) s = deps.db->WriteAlone(fn);
  if (s.code() == Code::kConflict && s.error_code().empty()) {
    return Status::Public(Code::kUnavailable, "Busy, please resend the command");
  }
  return s;
}

}  // namespace

Result<ClaimOutcome> Claim(const AgentWorkDeps& deps, const AgentCaller& caller, const dw::ClaimInput& in) {
  if (!Has(caller.scopes, dw::kClaimScope)) return dw::ScopeRequired(dw::kClaimScope);
  SV_RETURN_IF_ERROR(RequireGrant(caller, in.project_id));
  const std::string fingerprint = dw::Fingerprint(caller.token_id, in);
  const int64_t ttl = in.ttl_seconds.value_or(dw::kDefaultTtlSeconds);
  std::optional<ClaimOutcome> out;
  // The refusal first, on a read snapshot: an issue a live claim holds (or
  // a command logged before) is answered without the write path, so agents
  // polling a held issue cost a read each (on SQLite no turn of the one
  // writer). Holding then is holding at that instant; a free issue is
  // decided again under the lock below.
  bool held = false;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& tx) -> Status {
    SV_ASSIGN_OR_RETURN(const std::string issue,
                        CanonicalIssue(deps, tx, caller.org_id, in.project_id, in.issue_id));
    SV_RETURN_IF_ERROR(LookUpCommand(deps, tx, caller.org_id, in.command_id, fingerprint, out));
    if (out) return Status::Ok();
    SV_ASSIGN_OR_RETURN(std::optional<ports::ClaimRow> latest, deps.claims->Latest(tx, caller.org_id, issue));
    held = latest && dw::IsLive(latest->status, latest->expires_at, deps.Now());
    return Status::Ok();
  }));
  if (out) return std::move(*out);
  if (held) return dw::ClaimHeld();
  SV_RETURN_IF_ERROR(RunCommand(deps, [&](ports::Tx& tx) -> Status {
    out.reset();
    const int64_t now = deps.Now();
    SV_ASSIGN_OR_RETURN(const std::string issue,
                        CanonicalIssue(deps, tx, caller.org_id, in.project_id, in.issue_id));
    SV_ASSIGN_OR_RETURN(ports::IssueCounters counters,
                        deps.claims->LockIssue(tx, caller.org_id, in.project_id, issue, now));
    SV_RETURN_IF_ERROR(LookUpCommand(deps, tx, caller.org_id, in.command_id, fingerprint, out));
    if (out) return Status::Ok();

    SV_ASSIGN_OR_RETURN(std::optional<ports::ClaimRow> latest, deps.claims->Latest(tx, caller.org_id, issue));
    if (latest && latest->status == dw::kActive) {
      if (dw::IsLive(latest->status, latest->expires_at, now)) return dw::ClaimHeld();
      // Expired at its expiry: written down before the next claim takes
      // the issue (the index allows one active row).
      latest->status = std::string(dw::kExpired);
      latest->ended_at = latest->expires_at;
      latest->updated_at = now;
      SV_ASSIGN_OR_RETURN(bool updated, deps.claims->Update(tx, *latest));
      if (!updated) return Internal("agent_claims: the latest claim vanished");
    }

    ports::ClaimRow row;
    row.id = deps.ids->NewId();
    row.org_id = caller.org_id;
    row.project_id = in.project_id;
    row.issue_id = issue;
    row.generation = counters.generation + 1;
    row.fencing_token = counters.fencing_token + 1;
    row.token_id = caller.token_id;
    row.user_id = caller.user_id;
    row.status = std::string(dw::kActive);
    row.ttl_seconds = ttl;
    row.expires_at = now + ttl * 1000;
    row.created_at = row.updated_at = now;
    SV_RETURN_IF_ERROR(deps.claims->SetCounters(tx, caller.org_id, issue,
                                                ports::IssueCounters{row.generation, row.fencing_token}));
    SV_RETURN_IF_ERROR(deps.claims->Insert(tx, row));
    const dw::ClaimView view = ViewOf(row, now);
    SV_RETURN_IF_ERROR(
        LogCommand(deps, tx, caller, in.command_id, dw::CommandKind::kClaim, fingerprint, 201, view, now));
    out = ClaimOutcome{view, false};
    return Status::Ok();
  }));
  return std::move(*out);
}

Result<ClaimOutcome> LeaseCommand(const AgentWorkDeps& deps, const AgentCaller& caller, dw::CommandKind kind,
                                  const dw::LeaseInput& in) {
  if (!Has(caller.scopes, dw::kClaimScope)) return dw::ScopeRequired(dw::kClaimScope);
  SV_RETURN_IF_ERROR(RequireGrant(caller, in.project_id));
  if (kind == dw::CommandKind::kClaim) return InvalidArgument("LeaseCommand: not a lease command");
  const std::string fingerprint = dw::Fingerprint(kind, caller.token_id, in);
  std::optional<ClaimOutcome> out;
  SV_RETURN_IF_ERROR(RunCommand(deps, [&](ports::Tx& tx) -> Status {
    out.reset();
    const int64_t now = deps.Now();
    SV_ASSIGN_OR_RETURN(const std::string issue,
                        CanonicalIssue(deps, tx, caller.org_id, in.project_id, in.issue_id));
    SV_RETURN_IF_ERROR(deps.claims->LockIssue(tx, caller.org_id, in.project_id, issue, now).status());
    SV_RETURN_IF_ERROR(LookUpCommand(deps, tx, caller.org_id, in.command_id, fingerprint, out));
    if (out) return Status::Ok();

    SV_ASSIGN_OR_RETURN(std::optional<ports::ClaimRow> claim,
                        deps.claims->Find(tx, caller.org_id, in.claim_id));
    std::optional<dw::StoredLease> stored;
    if (claim) {
      stored = dw::StoredLease{claim->issue_id,      claim->project_id, claim->generation,
                               claim->fencing_token, claim->status,     claim->expires_at};
    }
    SV_RETURN_IF_ERROR(dw::CheckLease(stored, issue, in.project_id, in.generation, in.fencing_token, now));

    switch (kind) {
      case dw::CommandKind::kRenew:
        if (in.ttl_seconds) claim->ttl_seconds = *in.ttl_seconds;
        claim->expires_at = now + claim->ttl_seconds * 1000;
        break;
      case dw::CommandKind::kRelease:
        claim->status = std::string(dw::kReleased);
        claim->ended_at = now;
        break;
      case dw::CommandKind::kComplete:
        claim->status = std::string(dw::kCompleted);
        claim->ended_at = now;
        claim->receipt_id = in.receipt_id;
        break;
      case dw::CommandKind::kClaim:
        break;
    }
    claim->updated_at = now;
    SV_ASSIGN_OR_RETURN(bool updated, deps.claims->Update(tx, *claim));
    if (!updated) return dw::LeaseStale();
    const dw::ClaimView view = ViewOf(*claim, now);
    SV_RETURN_IF_ERROR(LogCommand(deps, tx, caller, in.command_id, kind, fingerprint, 200, view, now));
    out = ClaimOutcome{view, false};
    return Status::Ok();
  }));
  return std::move(*out);
}

Result<dw::ClaimView> GetClaim(const AgentWorkDeps& deps, const AgentCaller& caller,
                               const std::string& project_id, const std::string& issue_id) {
  if (!Has(caller.scopes, dw::kClaimScope) && !Has(caller.scopes, dw::kEvidenceScope)) {
    return dw::ScopeRequired(dw::kClaimScope);
  }
  SV_RETURN_IF_ERROR(RequireGrant(caller, project_id));
  std::optional<dw::ClaimView> view;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& tx) -> Status {
    SV_ASSIGN_OR_RETURN(const std::string issue,
                        CanonicalIssue(deps, tx, caller.org_id, project_id, issue_id));
    SV_ASSIGN_OR_RETURN(std::optional<ports::ClaimRow> latest, deps.claims->Latest(tx, caller.org_id, issue));
    if (latest) view = ViewOf(*latest, deps.Now());
    return Status::Ok();
  }));
  if (!view) return dw::ClaimNotFound();
  return std::move(*view);
}

Result<std::string> ResolveIssue(const AgentWorkDeps& deps, ports::Tx& tx, const std::string& org_id,
                                 const std::string& project_id, const std::string& issue_id) {
  return CanonicalIssue(deps, tx, org_id, project_id, issue_id);
}

Result<HeldLease> LockLiveLease(const AgentWorkDeps& deps, ports::Tx& tx, const std::string& org_id,
                                const std::string& token_id, const std::string& project_id,
                                const std::string& issue_id, const std::string& claim_id, int64_t generation,
                                int64_t fencing_token, int64_t now_ms) {
  SV_ASSIGN_OR_RETURN(const std::string issue, CanonicalIssue(deps, tx, org_id, project_id, issue_id));
  SV_RETURN_IF_ERROR(deps.claims->LockIssue(tx, org_id, project_id, issue, now_ms).status());
  SV_ASSIGN_OR_RETURN(std::optional<ports::ClaimRow> claim, deps.claims->Find(tx, org_id, claim_id));
  std::optional<dw::StoredLease> stored;
  if (claim) {
    stored = dw::StoredLease{claim->issue_id,      claim->project_id, claim->generation,
                             claim->fencing_token, claim->status,     claim->expires_at};
  }
  SV_RETURN_IF_ERROR(dw::CheckLease(stored, issue, project_id, generation, fencing_token, now_ms));
  if (claim->token_id != token_id) return dw::LeaseStale();
  return HeldLease{issue, std::move(*claim)};
}

Result<dw::ClaimView> CompleteHeldLease(const AgentWorkDeps& deps, ports::Tx& tx, ports::ClaimRow claim,
                                        const std::string& receipt_id, int64_t now_ms) {
  claim.status = std::string(dw::kCompleted);
  claim.ended_at = now_ms;
  claim.receipt_id = receipt_id;
  claim.updated_at = now_ms;
  SV_ASSIGN_OR_RETURN(bool updated, deps.claims->Update(tx, claim));
  if (!updated) return dw::LeaseStale();
  return ViewOf(claim, now_ms);
}

Status OnTriageEvent(const AgentWorkDeps& deps, ports::Tx& tx, const std::string& type,
                     const std::string& org_id, const std::string& project_id,
                     const std::string& payload_json) {
  if (type != "deleted" || payload_json.find("\"mergedInto\"") == std::string::npos) return Status::Ok();
  boost::system::error_code ec;
  const json::value v = json::parse(payload_json, ec);
  if (ec || !v.is_object()) return Status::Ok();
  const json::object& o = v.get_object();
  const json::value* source = o.if_contains("bugId");
  const json::value* target = o.if_contains("mergedInto");
  if (source == nullptr || target == nullptr || !source->is_string() || !target->is_string()) {
    return Status::Ok();
  }
  return deps.claims->RecordMerge(tx, org_id, project_id, std::string(source->get_string()),
                                  std::string(target->get_string()), deps.Now());
}

Status PruneCommandLog(const AgentWorkDeps& deps) {
  const int64_t before = deps.Now() - deps.command_retention_ms;
  return SweepInBatches(*deps.db, kRetentionBatchRows,
                        [&](ports::Tx& tx, int64_t limit) { return deps.commands->Prune(tx, before, limit); })
      .status();
}

}  // namespace service::app::agent_work
