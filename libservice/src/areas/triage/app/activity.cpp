// GET /v1/team/activity and GET /v1/org/usage.
#include "areas/agent_tokens/app/agent_tokens.h"
#include "areas/operations/domain/plans.h"
#include "areas/triage/app/triage.h"
#include "util/time.h"

namespace service::app::triage {

Result<std::vector<ports::ActivityRecord>> TeamActivity(const TriageDeps& deps, const ConsoleActor& actor,
                                                        int64_t limit) {
  std::vector<ports::ActivityRecord> out;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& c) -> Status {
    SV_ASSIGN_OR_RETURN(out, deps.triage->Activity(c, actor.org_id, limit));
    return Status::Ok();
  }));
  return out;
}

Result<OrgUsage> GetUsage(const TriageDeps& deps, const ConsoleActor& actor) {
  OrgUsage u;
  u.period = domain::operations::UsageMonth(deps.Now());
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& c) -> Status {
    SV_ASSIGN_OR_RETURN(std::optional<ports::Organization> org, deps.orgs->Find(c, actor.org_id));
    if (!org) return NotFound("Organization not found");
    u.plan = org->plan;
    const domain::operations::PlanLimits limits = domain::operations::LimitsFor(u.plan, deps.plan_limits);
    SV_ASSIGN_OR_RETURN(int64_t projects, deps.projects->Count(c, actor.org_id));
    SV_ASSIGN_OR_RETURN(int64_t members, deps.memberships->Count(c, actor.org_id));
    SV_ASSIGN_OR_RETURN(int64_t bugs, deps.usage->BugsInMonth(c, actor.org_id, u.period));
    SV_ASSIGN_OR_RETURN(u.ai_requests, deps.usage->AiRequestsInMonth(c, actor.org_id, u.period));
    SV_ASSIGN_OR_RETURN(u.prepaid_credits, deps.usage->PrepaidCredits(c, actor.org_id));
    SV_ASSIGN_OR_RETURN(int64_t integrations, deps.usage->IntegrationCount(c, actor.org_id));
    u.resources = {{"projects", limits.projects, projects},
                   {"members", limits.members, members},
                   {"bugsThisMonth", limits.bugs_per_month, bugs},
                   {"integrations", limits.integrations, integrations},
                   {"agentTokens", limits.agent_tokens, 0}};
    return Status::Ok();
  }));
  if (deps.agent_tokens != nullptr) {
    SV_ASSIGN_OR_RETURN(u.resources.back().current,
                        app::agent_tokens::CountLiveTokens(*deps.agent_tokens, actor.org_id));
  }
  if (domain::operations::PlanHasAgentAccess(u.plan)) {
    u.mcp = true;
    u.mcp_source = "plan";
  } else if (u.prepaid_credits > 0) {
    u.mcp = true;
    u.mcp_source = "credits";
  } else {
    u.mcp_source = "none";
  }
  return u;
}

}  // namespace service::app::triage
