#include "areas/mcp/app/mcp.h"

#include <algorithm>

#include "areas/operations/domain/plans.h"

namespace service::app::mcp {

bool AgentCaller::HasScope(std::string_view scope) const {
  return std::find(scopes.begin(), scopes.end(), scope) != scopes.end();
}

bool AgentCaller::HasGrant(std::string_view project_id) const {
  return std::find(granted_projects.begin(), granted_projects.end(), project_id) != granted_projects.end();
}

agent_work::AgentCaller AgentCaller::WorkCaller() const {
  return agent_work::AgentCaller{token_id, org_id, user_id, scopes, granted_projects};
}

handoff::HandoffCaller AgentCaller::HandoffCaller() const {
  return handoff::HandoffCaller{Actor(), true, token_id, scopes, granted_projects};
}

Status RequireScope(const AgentCaller& caller, std::string_view scope) {
  if (caller.HasScope(scope)) return Status::Ok();
  return Status(Code::kPermissionDenied, "This token lacks the " + std::string(scope) + " scope",
                std::string(kScopeRequired));
}

Status RequireGrant(const AgentCaller& caller, const std::string& project_id) {
  if (caller.HasGrant(project_id)) return Status::Ok();
  return Status(Code::kPermissionDenied, "This token has no grant for the project",
                std::string(kProjectGrantRequired));
}

Status RequireProjectAccess(const AgentCaller& caller, std::string_view scope,
                            const std::string& project_id) {
  SV_RETURN_IF_ERROR(RequireScope(caller, scope));
  return RequireGrant(caller, project_id);
}

Result<std::string> ListedProject(const AgentCaller& caller, const std::optional<std::string>& requested) {
  if (requested) {
    SV_RETURN_IF_ERROR(RequireGrant(caller, *requested));
    return *requested;
  }
  if (caller.granted_projects.size() == 1) return caller.granted_projects.front();
  if (caller.granted_projects.empty()) {
    return Status(Code::kPermissionDenied, "This token has no project grant",
                  std::string(kProjectGrantRequired));
  }
  return Status(Code::kInvalidArgument, "projectId is required (the token has several project grants)",
                "VALIDATION_ERROR");
}

Result<ports::BugPage> ListBugs(const McpDeps& deps, const AgentCaller& caller, ports::BugFilter filter,
                                int64_t limit, int64_t offset) {
  SV_RETURN_IF_ERROR(RequireScope(caller, kReadBugs));
  SV_ASSIGN_OR_RETURN(filter.project_id, ListedProject(caller, filter.project_id));
  filter.org_id = caller.org_id;
  return bugs::ListBugs(*deps.bugs, filter, limit, offset);
}

Result<bugs::SearchResult> SearchBugs(const McpDeps& deps, const AgentCaller& caller, ports::BugFilter filter,
                                      const std::string& query, int64_t limit) {
  SV_RETURN_IF_ERROR(RequireScope(caller, kReadBugs));
  SV_ASSIGN_OR_RETURN(filter.project_id, ListedProject(caller, filter.project_id));
  filter.org_id = caller.org_id;
  return bugs::SearchGroups(*deps.bugs, filter, query, limit);
}

Result<BugContext> GetBugContext(const McpDeps& deps, const AgentCaller& caller, const std::string& bug_id,
                                 const ReproLimits& limits, const std::string& reference) {
  SV_RETURN_IF_ERROR(RequireScope(caller, kReadBugs));
  const ConsoleActor actor = caller.Actor();
  BugContext out;
  SV_ASSIGN_OR_RETURN(out.detail, bugs::GetBug(*deps.bugs, actor, bug_id));
  // Another project's bug reads as absent, as on GET /v1/bugs/:id.
  if (!caller.HasGrant(out.detail.bug.project_id)) return NotFound("Bug not found");
  // The id the bug answers with (a lookup is case-insensitive).
  const std::string id = out.detail.bug.id;
  if (limits.events > 1) {
    // The plan is read first so that organizations with agent access (the
    // usual case) do not queue an empty write per read; ChargeMeteredRead
    // decides again inside its own transaction.
    std::string plan;
    SV_RETURN_IF_ERROR(deps.operations->db->Read([&](ports::Tx& tx) -> Status {
      SV_ASSIGN_OR_RETURN(plan, deps.operations->usage->PlanOf(tx, caller.org_id));
      return Status::Ok();
    }));
    if (!domain::operations::PlanHasAgentAccess(plan)) {
      SV_ASSIGN_OR_RETURN(operations::MeteredCharge charge,
                          operations::ChargeMeteredRead(*deps.operations, caller.org_id, reference));
      out.charged = charge.charged;
    }
  }
  SV_ASSIGN_OR_RETURN(out.events,
                      bugs::ListEvents(*deps.bugs, actor, id, std::nullopt, std::nullopt, limits.events));
  SV_ASSIGN_OR_RETURN(out.occurrences,
                      bugs::ListOccurrences(*deps.bugs, actor, id, std::nullopt, limits.occurrences, 0));
  SV_ASSIGN_OR_RETURN(out.users, bugs::ListBugUsers(*deps.bugs, actor, id, limits.users, 0));
  return out;
}

Result<evidence::ArtifactList> ListEvidence(const McpDeps& deps, const AgentCaller& caller,
                                            const std::string& project_id, const std::string& occurrence_id,
                                            const domain::evidence::ListBounds& bounds) {
  SV_RETURN_IF_ERROR(RequireProjectAccess(caller, kGetReproContext, project_id));
  if (deps.evidence == nullptr) {
    return Status::Public(Code::kUnavailable, "Evidence storage is not configured",
                          std::string(kStorageUnavailable));
  }
  evidence::EvidenceCaller c;
  c.kind = evidence::EvidenceCaller::Kind::kAgent;
  c.org_id = caller.org_id;
  c.user_id = caller.user_id;
  c.role = caller.role;
  c.token_id = caller.token_id;
  c.scopes = caller.scopes;
  c.granted_projects = caller.granted_projects;
  return evidence::ListForOccurrence(*deps.evidence, c, project_id, occurrence_id, bounds);
}

}  // namespace service::app::mcp
