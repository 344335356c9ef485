#include "areas/accounts/app/team.h"

#include "areas/accounts/app/internal.h"
#include "areas/accounts/domain/secrets.h"
#include "areas/operations/domain/plans.h"

namespace service::app::accounts {

Result<std::vector<ports::TeamMember>> ListTeam(const AccountsDeps& deps, const std::string& org_id) {
  std::vector<ports::TeamMember> out;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& c) -> Status {
    SV_ASSIGN_OR_RETURN(out, deps.memberships->ListTeam(c, org_id));
    return Status::Ok();
  }));
  return out;
}

namespace {

Status MemberNotFound() { return NotFound("Member not found"); }

std::string DisplayName(const std::optional<ports::User>& u) {
  if (!u) return "";
  return u->name.empty() ? u->email : u->name;
}

}  // namespace

Result<InviteResult> InviteMember(const AccountsDeps& deps, const TeamActor& actor, const InviteInput& in) {
  if (in.org_id != actor.org_id) return PermissionDenied("Organization mismatch");
  SV_RETURN_IF_ERROR(domain::CheckInvite(actor.role, in.role));
  InviteResult out;
  SV_RETURN_IF_ERROR(deps.db->Write([&](ports::Tx& tx) -> Status {
    const int64_t now = deps.Now();
    SV_ASSIGN_OR_RETURN(std::optional<ports::Organization> org, deps.orgs->Find(tx, actor.org_id));
    if (!org) return NotFound("Organization not found");
    SV_ASSIGN_OR_RETURN(std::optional<ports::User> inviter, deps.users->FindById(tx, actor.user_id));
    SV_ASSIGN_OR_RETURN(std::optional<ports::User> user, deps.users->FindByEmail(tx, in.email));
    std::optional<ports::Membership> membership;
    if (user) {
      SV_ASSIGN_OR_RETURN(membership, deps.memberships->Find(tx, actor.org_id, user->id));
    }
    if (in.resend) {
      if (!membership)
        return InvalidArgument("Nothing to resend: this email is not a member of the organization");
      // The role stays; a manager still may not act on an admin.
      SV_RETURN_IF_ERROR(domain::CheckInvite(
          actor.role, domain::ParseRole(membership->role).value_or(domain::Role::kAdmin)));
    } else {
      if (membership) return Conflict("This email is already a member of the organization");
      if (user && user->status == "deactivated") return Conflict("This account is deactivated");
      const domain::operations::PlanLimits limits =
          domain::operations::LimitsFor(org->plan, deps.plan_limits);
      SV_ASSIGN_OR_RETURN(int64_t members, deps.memberships->Count(tx, actor.org_id));
      if (!domain::operations::WithinLimit(limits.members, members)) {
        return Status(
            Code::kPaymentRequired, "Plan limit reached", "",
            domain::operations::PlanLimitPayload(limits.members, members, org->plan, deps.public_url));
      }
      if (!user) {
        // Invited without a password: pending until the invitation is accepted.
        ports::User u;
        u.id = deps.ids->NewId();
        u.email = in.email;
        u.status = "pending";
        u.created_at = u.updated_at = now;
        SV_RETURN_IF_ERROR(deps.users->Insert(tx, u));
        user = u;
      }
      SV_RETURN_IF_ERROR(deps.memberships->Insert(
          tx, ports::Membership{actor.org_id, user->id, std::string(domain::RoleName(in.role)), actor.user_id,
                                now}));
    }
    out.user_id = user->id;
    out.state = user->status == "active" ? "active" : "pending";
    out.email_status = deps.mail->configured() ? "queued" : "unavailable";

    std::optional<app::mail::MailMessage> mail;
    if (out.state == "pending") {
      // A fresh setup link; earlier ones to this organization stop working.
      SV_RETURN_IF_ERROR(deps.invitations->RevokeOpen(tx, actor.org_id, user->id, now));
      const domain::accounts::IssuedSecret secret = domain::accounts::NewInvitationToken(*deps.ids);
      ports::Invitation inv;
      inv.id = deps.ids->NewId();
      inv.org_id = actor.org_id;
      inv.user_id = user->id;
      inv.email = user->email;
      inv.role = membership ? membership->role : std::string(domain::RoleName(in.role));
      inv.token_hash = secret.hash;
      inv.invited_by = actor.user_id;
      inv.expires_at = now + domain::accounts::kInvitationTokenLifetimeMs;
      inv.created_at = now;
      SV_RETURN_IF_ERROR(deps.invitations->Insert(tx, inv));
      out.expires_at = inv.expires_at;
      mail = internal::InvitationMail(deps, user->email, org->name, DisplayName(inviter), secret.token,
                                      inv.expires_at);
    } else {
      mail = internal::AddedToOrgMail(deps, user->email, org->name, DisplayName(inviter));
    }
    if (deps.mail->configured()) SV_RETURN_IF_ERROR(deps.mail->Enqueue(tx, *mail));
    return Status::Ok();
  }));
  return out;
}

Result<ports::Membership> ChangeMemberRole(const AccountsDeps& deps, const TeamActor& actor,
                                           const std::string& user_id, domain::Role role) {
  ports::Membership out;
  SV_RETURN_IF_ERROR(deps.db->Write([&](ports::Tx& tx) -> Status {
    SV_ASSIGN_OR_RETURN(std::optional<ports::Membership> m,
                        deps.memberships->Lock(tx, actor.org_id, user_id, deps.Now()));
    if (!m) return MemberNotFound();
    const domain::Role current = domain::ParseRole(m->role).value_or(domain::Role::kViewer);
    SV_RETURN_IF_ERROR(domain::CheckRoleChange(actor.role, actor.user_id == user_id, current, role));
    if (current == domain::Role::kAdmin && role != domain::Role::kAdmin) {
      SV_ASSIGN_OR_RETURN(int64_t admins, deps.memberships->CountWithRole(tx, actor.org_id, "admin"));
      if (admins <= 1) return InvalidArgument("An organization needs at least one admin");
    }
    m->role = std::string(domain::RoleName(role));
    SV_ASSIGN_OR_RETURN(bool updated,
                        deps.memberships->UpdateRole(tx, actor.org_id, user_id, m->role, deps.Now()));
    if (!updated) return MemberNotFound();
    out = *m;
    return Status::Ok();
  }));
  return out;
}

Status RemoveMember(const AccountsDeps& deps, const TeamActor& actor, const std::string& user_id) {
  if (actor.user_id == user_id) return InvalidArgument("Cannot remove yourself");
  return deps.db->Write([&](ports::Tx& tx) -> Status {
    SV_ASSIGN_OR_RETURN(std::optional<ports::Membership> m,
                        deps.memberships->Lock(tx, actor.org_id, user_id, deps.Now()));
    if (!m) return MemberNotFound();
    const domain::Role target = domain::ParseRole(m->role).value_or(domain::Role::kAdmin);
    SV_RETURN_IF_ERROR(domain::CheckMemberRemoval(actor.role, false, target));
    SV_ASSIGN_OR_RETURN(bool removed, deps.memberships->Remove(tx, actor.org_id, user_id, deps.Now()));
    if (!removed) return MemberNotFound();
    return deps.deletion->RunMemberRemoved(tx, actor.org_id, user_id);
  });
}

}  // namespace service::app::accounts
