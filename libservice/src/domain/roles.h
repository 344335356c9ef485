// Organization roles and what each may do: one capability table (roles.cpp)
// that every route and use case asks through Can().
//
// The table follows Spec 1 "Roles" and the role lists on individual
// endpoints (Spec 1 projects and team; Spec 2 agent notify, agent settings,
// agent tokens, applications, billing). Where the spec is silent the choice
// is marked in roles.cpp.
//
// Pure functions over constant data; safe to call from any thread.
#pragma once

#include <optional>
#include <string_view>

#include "service/status.h"

namespace service::domain {

enum class Role { kAdmin, kManager, kMember, kTester, kViewer };

inline constexpr Role kAllRoles[] = {Role::kAdmin, Role::kManager, Role::kMember, Role::kTester,
                                     Role::kViewer};

// "admin", "manager", "member", "tester", "viewer" (exact, lower-case).
std::optional<Role> ParseRole(std::string_view name);
std::string_view RoleName(Role role);

enum class Capability {
  kViewBugs,            // list, search, read bugs, events, end users, stream
  kUpdateBugs,          // PATCH bug (status, severity, assignee), bulk update
  kComment,             // add comments
  kAnalyzeBugs,         // AI analysis and event assessments
  kDeleteBugs,          // DELETE bug
  kMergeBugs,           // POST /v1/bugs/merge
  kNotifyAgent,         // POST /v1/bugs/:id/notify-agent
  kViewProjects,        // list projects, masked key listing, agent settings
  kCreateProjects,      // POST /v1/projects
  kManageProjects,      // edit or delete projects, PUT agent settings
  kManageKeys,          // create and revoke capture keys
  kViewTeam,            // GET /v1/team, team activity
  kInviteMembers,       // POST /v1/team/invite
  kManageTeam,          // PATCH and DELETE /v1/team/:userId
  kManageAgentTokens,   // agent personal access tokens of the organization
  kManageApplications,  // the application registry
  kManageIntegrations,  // integrations and webhooks
  kManageSettings,      // organization settings, agent-work verification
  kViewBilling,         // plan, invoices, budget
  kManageBilling,       // change plan, budgets, credits
  kCount,               // not a capability: the number of them
};

inline constexpr int kCapabilityCount = static_cast<int>(Capability::kCount);

// "view_bugs", "update_bugs", ... (for logs and errors).
std::string_view CapabilityName(Capability capability);

// True when `role` may do `capability`. Capability::kCount: false.
bool Can(Role role, Capability capability);

// PATCH /v1/team/:userId. kPermissionDenied when the actor may not manage
// the team, or is a manager touching the admin role (granting it or
// changing an admin); kInvalidArgument "Cannot downgrade yourself to viewer"
// when an actor changes their own role to viewer.
Status CheckRoleChange(Role actor, bool actor_is_target, Role target_current, Role new_role);

// DELETE /v1/team/:userId. kInvalidArgument "Cannot remove yourself";
// kPermissionDenied as for CheckRoleChange (a manager cannot remove an
// admin).
Status CheckMemberRemoval(Role actor, bool actor_is_target, Role target_role);

// POST /v1/team/invite. kPermissionDenied when the actor may not invite or
// is a manager inviting an admin.
Status CheckInvite(Role actor, Role invited_role);

}  // namespace service::domain
