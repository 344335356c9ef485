// Team use cases (Spec 1 "Team"): the member list, invitations, role
// changes and removal, for one organization and one acting member.
//
// Role rules come from the capability table (domain/auth/roles.h); every
// write happens in one Database::Write, mail included.
//
// Thread-safety: every function is safe to call concurrently.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "areas/accounts/app/accounts.h"
#include "areas/accounts/ports/org_repository.h"
#include "domain/roles.h"
#include "service/status.h"

namespace service::app::accounts {

// The member acting on the team (the authenticated caller).
struct TeamActor {
  std::string user_id;
  std::string org_id;
  domain::Role role = domain::Role::kViewer;
};

Result<std::vector<ports::TeamMember>> ListTeam(const AccountsDeps& deps, const std::string& org_id);

// POST /v1/team/invite. `org_id` must equal the actor's (403 Organization
// mismatch). A new email gets a pending account and a setup link by mail; an
// active account is added at once (state active, no link). `resend`
// requires an existing membership, keeps its role and replaces the earlier
// setup link. 402 at the plan's member limit; 409 when already a member.
struct InviteInput {
  std::string email;  // normalised
  domain::Role role = domain::Role::kMember;
  std::string org_id;
  bool resend = false;
};
struct InviteResult {
  std::string user_id;
  std::string state;         // pending or active
  std::string email_status;  // queued or unavailable
  std::optional<int64_t> expires_at;
};
Result<InviteResult> InviteMember(const AccountsDeps& deps, const TeamActor& actor, const InviteInput& in);

// PATCH /v1/team/:userId. 404 Member not found; 400 self-downgrade to
// viewer or demoting the last admin; 403 per domain::CheckRoleChange.
Result<ports::Membership> ChangeMemberRole(const AccountsDeps& deps, const TeamActor& actor,
                                           const std::string& user_id, domain::Role role);

// DELETE /v1/team/:userId: membership, notification preferences,
// assignments and watcher rows in this organization, in one transaction.
// 400 Cannot remove yourself; 404 Member not found.
Status RemoveMember(const AccountsDeps& deps, const TeamActor& actor, const std::string& user_id);

}  // namespace service::app::accounts
