#include "app/team/team.h"

#include "app/auth/internal.h"
#include "domain/auth/secrets.h"
#include "domain/plans.h"

namespace service::app {

Result<std::vector<ports::TeamMember>> ListTeam(Core& core, const std::string& org_id) {
  std::vector<ports::TeamMember> out;
  SV_RETURN_IF_ERROR(core.db->Read([&](store::Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(out, core.memberships->ListTeam(c, org_id));
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

Result<InviteResult> InviteMember(Core& core, const TeamActor& actor, const InviteInput& in) {
  if (in.org_id != actor.org_id) return PermissionDenied("Organization mismatch");
  SV_RETURN_IF_ERROR(domain::CheckInvite(actor.role, in.role));
  InviteResult out;
  SV_RETURN_IF_ERROR(core.db->Write([&](store::Connection& tx) -> Status {
    const int64_t now = core.Now();
    SV_ASSIGN_OR_RETURN(std::optional<ports::Organization> org, core.orgs->Find(tx, actor.org_id));
    if (!org) return NotFound("Organization not found");
    SV_ASSIGN_OR_RETURN(std::optional<ports::User> inviter, core.users->FindById(tx, actor.user_id));
    SV_ASSIGN_OR_RETURN(std::optional<ports::User> user, core.users->FindByEmail(tx, in.email));
    std::optional<ports::Membership> membership;
    if (user) {
      SV_ASSIGN_OR_RETURN(membership, core.memberships->Find(tx, actor.org_id, user->id));
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
      const domain::PlanLimits limits = domain::LimitsFor(org->plan, core.options.plan_limits);
      SV_ASSIGN_OR_RETURN(int64_t members, core.memberships->Count(tx, actor.org_id));
      if (!domain::WithinLimit(limits.members, members)) {
        return Status(
            Code::kPaymentRequired, "Plan limit reached", "",
            domain::PlanLimitPayload(limits.members, members, org->plan, core.options.EffectivePublicUrl()));
      }
      if (!user) {
        // Invited without a password: pending until the invitation is accepted.
        ports::User u;
        u.id = core.ids->NewId();
        u.email = in.email;
        u.status = "pending";
        u.created_at = u.updated_at = now;
        SV_RETURN_IF_ERROR(core.users->Insert(tx, u));
        user = u;
      }
      SV_RETURN_IF_ERROR(core.memberships->Insert(
          tx, ports::Membership{actor.org_id, user->id, std::string(domain::RoleName(in.role)), actor.user_id,
                                now}));
    }
    out.user_id = user->id;
    out.state = user->status == "active" ? "active" : "pending";
    out.email_status = MailConfigured(core) ? "queued" : "unavailable";

    std::optional<MailMessage> mail;
    if (out.state == "pending") {
      // A fresh setup link; earlier ones to this organization stop working.
      SV_RETURN_IF_ERROR(core.invitations->RevokeOpen(tx, actor.org_id, user->id, now));
      const domain::IssuedSecret secret = domain::NewInvitationToken(*core.ids);
      ports::Invitation inv;
      inv.id = core.ids->NewId();
      inv.org_id = actor.org_id;
      inv.user_id = user->id;
      inv.email = user->email;
      inv.role = membership ? membership->role : std::string(domain::RoleName(in.role));
      inv.token_hash = secret.hash;
      inv.invited_by = actor.user_id;
      inv.expires_at = now + domain::kInvitationTokenLifetimeMs;
      inv.created_at = now;
      SV_RETURN_IF_ERROR(core.invitations->Insert(tx, inv));
      out.expires_at = inv.expires_at;
      mail = auth_internal::InvitationMail(core, user->email, org->name, DisplayName(inviter), secret.token,
                                           inv.expires_at);
    } else {
      mail = auth_internal::AddedToOrgMail(core, user->email, org->name, DisplayName(inviter));
    }
    if (MailConfigured(core)) SV_RETURN_IF_ERROR(EnqueueMail(core, tx, *mail));
    return Status::Ok();
  }));
  return out;
}

Result<ports::Membership> ChangeMemberRole(Core& core, const TeamActor& actor, const std::string& user_id,
                                           domain::Role role) {
  ports::Membership out;
  SV_RETURN_IF_ERROR(core.db->Write([&](store::Connection& tx) -> Status {
    SV_ASSIGN_OR_RETURN(std::optional<ports::Membership> m,
                        core.memberships->Lock(tx, actor.org_id, user_id, core.Now()));
    if (!m) return MemberNotFound();
    const domain::Role current = domain::ParseRole(m->role).value_or(domain::Role::kViewer);
    SV_RETURN_IF_ERROR(domain::CheckRoleChange(actor.role, actor.user_id == user_id, current, role));
    if (current == domain::Role::kAdmin && role != domain::Role::kAdmin) {
      SV_ASSIGN_OR_RETURN(int64_t admins, core.memberships->CountWithRole(tx, actor.org_id, "admin"));
      if (admins <= 1) return InvalidArgument("An organization needs at least one admin");
    }
    m->role = std::string(domain::RoleName(role));
    SV_ASSIGN_OR_RETURN(bool updated,
                        core.memberships->UpdateRole(tx, actor.org_id, user_id, m->role, core.Now()));
    if (!updated) return MemberNotFound();
    out = *m;
    return Status::Ok();
  }));
  return out;
}

Status RemoveMember(Core& core, const TeamActor& actor, const std::string& user_id) {
  if (actor.user_id == user_id) return InvalidArgument("Cannot remove yourself");
  return core.db->Write([&](store::Connection& tx) -> Status {
    SV_ASSIGN_OR_RETURN(std::optional<ports::Membership> m,
                        core.memberships->Lock(tx, actor.org_id, user_id, core.Now()));
    if (!m) return MemberNotFound();
    const domain::Role target = domain::ParseRole(m->role).value_or(domain::Role::kAdmin);
    SV_RETURN_IF_ERROR(domain::CheckMemberRemoval(actor.role, false, target));
    SV_ASSIGN_OR_RETURN(bool removed, core.memberships->Remove(tx, actor.org_id, user_id, core.Now()));
    if (!removed) return MemberNotFound();
    return Status::Ok();
  });
}

}  // namespace service::app
