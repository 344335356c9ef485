#include "domain/roles.h"

#include <array>

namespace service::domain {
namespace {

// The capability table: one row per capability, one column per role.
// Sources: Spec 1 "Roles" (admin: full access; manager: manage bugs and
// projects, view team; member: view and update bugs, comment; viewer:
// read-only bugs and projects), POST /v1/projects and /keys "roles admin,
// manager, member", PATCH/DELETE /v1/team "admin or manager", Spec 2
// notify-agent "roles admin, manager, member" with 403 for "viewer or
// tester", agent settings PUT / agent tokens / applications "admin or
// manager", billing and verification enrollment "admin".
// The tester role is absent from the spec's table; it triages like a member
// (view, update, comment, analyze) but is not in any endpoint's explicit
// role list, so it gets none of those (projects, keys, notify-agent).
// Choices where the spec is silent: viewing the team is open to every role
// (assignee pickers need it); inviting is admin or manager, like the other
// team changes; AI analysis goes with updating bugs; billing is admin-only.
struct Row {
  Capability capability;
  std::string_view name;
  bool admin, manager, member, tester, viewer;
};

// clang-format off
constexpr Row kTable[] = {
    // capability                       name                    admin  manager member tester viewer
    {Capability::kViewBugs,               "view_bugs",            true,  true,  true,  true,  true},
    {Capability::kUpdateBugs,             "update_bugs",          true,  true,  true,  true,  false},
    {Capability::kComment,                "comment",              true,  true,  true,  true,  false},
    {Capability::kAnalyzeBugs,            "analyze_bugs",         true,  true,  true,  true,  false},
    {Capability::kDeleteBugs,             "delete_bugs",          true,  true,  false, false, false},
    {Capability::kMergeBugs,              "merge_bugs",           true,  true,  false, false, false},
    {Capability::kNotifyAgent,            "notify_agent",         true,  true,  true,  false, false},
    {Capability::kViewProjects,           "view_projects",        true,  true,  true,  true,  true},
    {Capability::kCreateProjects,         "create_projects",      true,  true,  true,  false, false},
    {Capability::kManageProjects,         "manage_projects",      true,  true,  false, false, false},
    {Capability::kManageKeys,             "manage_keys",          true,  true,  true,  false, false},
    {Capability::kViewTeam,               "view_team",            true,  true,  true,  true,  true},
    {Capability::kInviteMembers,          "invite_members",       true,  true,  false, false, false},
    {Capability::kManageTeam,             "manage_team",          true,  true,  false, false, false},
    {Capability::kManageAgentTokens,      "manage_agent_tokens",  true,  true,  false, false, false},
    {Capability::kManageApplications,     "manage_applications",  true,  true,  false, false, false},
    {Capability::kManageIntegrations,     "manage_integrations",  true,  false, false, false, false},
    {Capability::kManageSettings,         "manage_settings",      true,  false, false, false, false},
    {Capability::kViewBilling,            "view_billing",         true,  false, false, false, false},
    {Capability::kManageBilling,          "manage_billing",       true,  false, false, false, false},
};
// clang-format on

constexpr bool TableIsInEnumOrder() {
  int i = 0;
  for (const Row& row : kTable) {
    if (static_cast<int>(row.capability) != i++) return false;
  }
  return i == kCapabilityCount;
}
static_assert(TableIsInEnumOrder(), "kTable must list every Capability once, in enum order");

const Row* Find(Capability capability) {
  const int i = static_cast<int>(capability);
  if (i < 0 || i >= kCapabilityCount) return nullptr;
  return &kTable[i];
}

}  // namespace

std::optional<Role> ParseRole(std::string_view name) {
  for (Role r : kAllRoles) {
    if (RoleName(r) == name) return r;
  }
  return std::nullopt;
}

std::string_view RoleName(Role role) {
  switch (role) {
    case Role::kAdmin:
      return "admin";
    case Role::kManager:
      return "manager";
    case Role::kMember:
      return "member";
    case Role::kTester:
      return "tester";
    case Role::kViewer:
      return "viewer";
  }
  return "viewer";
}

std::string_view CapabilityName(Capability capability) {
  const Row* row = Find(capability);
  return row == nullptr ? std::string_view("unknown") : row->name;
}

bool Can(Role role, Capability capability) {
  const Row* row = Find(capability);
  if (row == nullptr) return false;
  switch (role) {
    case Role::kAdmin:
      return row->admin;
    case Role::kManager:
      return row->manager;
    case Role::kMember:
      return row->member;
    case Role::kTester:
      return row->tester;
    case Role::kViewer:
      return row->viewer;
  }
  return false;
}

namespace {

Status NotAllowed() { return PermissionDenied("Insufficient permissions"); }

// Only an admin may grant the admin role or act on an admin: otherwise a
// manager could promote themselves or demote every admin.
bool TouchesAdminWithoutBeingOne(Role actor, Role a, Role b) {
  return actor != Role::kAdmin && (a == Role::kAdmin || b == Role::kAdmin);
}

}  // namespace

Status CheckRoleChange(Role actor, bool actor_is_target, Role target_current, Role new_role) {
  if (!Can(actor, Capability::kManageTeam)) return NotAllowed();
  if (actor_is_target && new_role == Role::kViewer && target_current != Role::kViewer) {
    return InvalidArgument("Cannot downgrade yourself to viewer");
  }
  if (TouchesAdminWithoutBeingOne(actor, target_current, new_role)) return NotAllowed();
  return Status::Ok();
}

Status CheckMemberRemoval(Role actor, bool actor_is_target, Role target_role) {
  if (!Can(actor, Capability::kManageTeam)) return NotAllowed();
  if (actor_is_target) return InvalidArgument("Cannot remove yourself");
  if (TouchesAdminWithoutBeingOne(actor, target_role, target_role)) return NotAllowed();
  return Status::Ok();
}

Status CheckInvite(Role actor, Role invited_role) {
  if (!Can(actor, Capability::kInviteMembers)) return NotAllowed();
  if (TouchesAdminWithoutBeingOne(actor, invited_role, invited_role)) return NotAllowed();
  return Status::Ok();
}

}  // namespace service::domain
