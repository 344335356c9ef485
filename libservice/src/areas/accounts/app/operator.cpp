// The superadmin's account use cases (app/operator.h).
#include "areas/accounts/app/operator.h"

#include "areas/accounts/app/internal.h"
#include "areas/accounts/domain/account.h"
#include "areas/accounts/domain/secrets.h"
#include "areas/accounts/domain/validation.h"
#include "util/strings.h"

namespace service::app::accounts {
namespace {

Status CustomerNotFound() { return NotFound("Customer not found"); }
Status EntryNotFound() { return NotFound("Waitlist entry not found"); }

Result<std::string> PickSlug(const AccountsDeps& deps, ports::Tx& tx, const std::string& org_name) {
  const std::string base = domain::accounts::Slugify(org_name, "org");
  for (int n = 1; n <= 20; ++n) {
    std::string candidate = domain::accounts::SlugCandidate(base, n);
    SV_ASSIGN_OR_RETURN(bool taken, deps.orgs->SlugTaken(tx, candidate));
    if (!taken) return candidate;
  }
  return domain::accounts::SlugCandidate(base, 2) + "-" + util::ToLower(deps.ids->RandomAlnum(6));
}

std::string NameOf(const std::optional<ports::User>& u) {
  if (!u) return {};
  return u->name.empty() ? u->email : u->name;
}

Status MaybeMail(const AccountsDeps& deps, ports::Tx& tx, const app::mail::MailMessage& m) {
  if (!deps.mail->configured()) return Status::Ok();
  return deps.mail->Enqueue(tx, m);
}

// Adds `email` to `org` with `role` on the operator's behalf, inside `tx`:
// a new email gets a pending account and an invitation link, a pending
// account a fresh link, an active one the "added" mail.
Result<OperatorMember> AddMemberInTx(const AccountsDeps& deps, ports::Tx& tx, const ports::Organization& org,
                                     const std::string& email, const std::string& role,
                                     const std::string& name, const std::string& operator_id) {
  const int64_t now = deps.Now();
  SV_ASSIGN_OR_RETURN(std::optional<ports::User> op, deps.users->FindById(tx, operator_id));
  SV_ASSIGN_OR_RETURN(std::optional<ports::User> user, deps.users->FindByEmail(tx, email));
  if (user) {
    SV_ASSIGN_OR_RETURN(std::optional<ports::Membership> m, deps.memberships->Find(tx, org.id, user->id));
    if (m) return Conflict("This email is already a member of the organization");
    if (user->status == "deactivated") return Conflict("This account is deactivated");
  } else {
    ports::User u;
    u.id = deps.ids->NewId();
    u.email = email;
    u.name = name;
    u.status = "pending";
    u.created_at = u.updated_at = now;
    SV_RETURN_IF_ERROR(deps.users->Insert(tx, u));
    user = u;
  }
  SV_RETURN_IF_ERROR(
      deps.memberships->Insert(tx, ports::Membership{org.id, user->id, role, operator_id, now}));
  if (user->status == "active") {
    SV_RETURN_IF_ERROR(
        MaybeMail(deps, tx, internal::AddedToOrgMail(deps, user->email, org.name, NameOf(op))));
  } else {
    SV_RETURN_IF_ERROR(deps.invitations->RevokeOpen(tx, org.id, user->id, now));
    const domain::accounts::IssuedSecret secret = domain::accounts::NewInvitationToken(*deps.ids);
    ports::Invitation inv;
    inv.id = deps.ids->NewId();
    inv.org_id = org.id;
    inv.user_id = user->id;
    inv.email = user->email;
    inv.role = role;
    inv.token_hash = secret.hash;
    inv.invited_by = operator_id;
    inv.expires_at = now + domain::accounts::kInvitationTokenLifetimeMs;
    inv.created_at = now;
    SV_RETURN_IF_ERROR(deps.invitations->Insert(tx, inv));
    SV_RETURN_IF_ERROR(MaybeMail(
        deps, tx,
        internal::InvitationMail(deps, user->email, org.name, NameOf(op), secret.token, inv.expires_at)));
  }
  return OperatorMember{user->id, role};
}

// A fresh approval token on entry `id` (status approved), mailed.
Status IssueApproval(const AccountsDeps& deps, ports::Tx& tx, const ports::WaitlistEntry& e) {
  const int64_t now = deps.Now();
  const domain::accounts::IssuedSecret secret = domain::accounts::NewApprovalToken(*deps.ids);
  SV_RETURN_IF_ERROR(deps.waitlist->SetStatus(tx, e.id, "approved", secret.hash,
                                              now + domain::accounts::kApprovalTokenLifetimeMs, now));
  return MaybeMail(deps, tx, internal::WaitlistApprovalMail(deps, e.email, e.name, secret.token));
}

Result<ports::WaitlistEntry> FindEntry(const AccountsDeps& deps, ports::Tx& tx, const std::string& id) {
  SV_ASSIGN_OR_RETURN(std::optional<ports::WaitlistEntry> e, deps.waitlist->FindById(tx, id));
  if (!e) return EntryNotFound();
  return std::move(*e);
}

domain::accounts::WaitlistStatus StatusOf(const ports::WaitlistEntry& e) {
  return domain::accounts::ParseWaitlistStatus(e.status).value_or(domain::accounts::WaitlistStatus::kPending);
}

}  // namespace

Result<CreatedCustomer> CreateCustomer(const AccountsDeps& deps, const NewCustomer& in,
                                       const CustomerExtra& extra) {
  for (int attempt = 0;; ++attempt) {
    CreatedCustomer out;
    Status s = deps.db->Write([&](ports::Tx& tx) -> Status {
      const int64_t now = deps.Now();
      ports::Organization& org = out.org;
      org.id = deps.ids->NewId();
      org.name = in.org_name;
      SV_ASSIGN_OR_RETURN(org.slug, PickSlug(deps, tx, in.org_name));
      org.plan = in.plan;
      org.created_at = now;
      Status ins = deps.orgs->Insert(tx, org);
      if (ins.code() == Code::kConflict)
        return Status(Code::kConflict, "Organization slug taken", std::string(internal::kSlugTakenCode));
      SV_RETURN_IF_ERROR(ins);
      SV_ASSIGN_OR_RETURN(out.project, deps.create_first_project(tx, org.id, in.operator_id, now));

      SV_ASSIGN_OR_RETURN(std::optional<ports::User> user, deps.users->FindByEmail(tx, in.contact_email));
      if (user) {
        SV_ASSIGN_OR_RETURN(OperatorMember m, AddMemberInTx(deps, tx, org, in.contact_email, "admin",
                                                            in.contact_name, in.operator_id));
        out.user_id = m.user_id;
      } else {
        // A person without an account: an approved entry naming this
        // organization (an earlier entry of the email is replaced).
        SV_RETURN_IF_ERROR(deps.waitlist->DeleteByEmail(tx, in.contact_email));
        ports::WaitlistEntry e;
        e.id = deps.ids->NewId();
        e.email = in.contact_email;
        e.name = in.contact_name.empty() ? in.contact_email : in.contact_name;
        e.org_name = in.org_name;
        e.use_case = in.use_case;
        e.status = "approved";
        e.target_org_id = org.id;
        e.created_at = e.updated_at = now;
        SV_RETURN_IF_ERROR(deps.waitlist->Insert(tx, e));
        SV_RETURN_IF_ERROR(IssueApproval(deps, tx, e));
        out.waitlist_id = e.id;
      }
      if (extra) SV_RETURN_IF_ERROR(extra(tx, org));
      return Status::Ok();
    });
    if (s.ok()) return out;
    if (s.error_code() != internal::kSlugTakenCode || attempt >= 3) return s;
  }
}

Result<OperatorMember> AddMemberAsOperator(const AccountsDeps& deps, const OperatorMemberInput& in) {
  OperatorMember out;
  SV_RETURN_IF_ERROR(deps.db->Write([&](ports::Tx& tx) -> Status {
    SV_ASSIGN_OR_RETURN(std::optional<ports::Organization> org, deps.orgs->Find(tx, in.org_id));
    if (!org) return CustomerNotFound();
    SV_ASSIGN_OR_RETURN(out, AddMemberInTx(deps, tx, *org, in.email, in.role, in.name, in.operator_id));
    return Status::Ok();
  }));
  return out;
}

Status SetOrganizationPlan(const AccountsDeps& deps, ports::Tx& tx, const std::string& org_id,
                           const std::string& plan) {
  SV_ASSIGN_OR_RETURN(bool found, deps.orgs->SetPlan(tx, org_id, plan, deps.Now()));
  return found ? Status::Ok() : CustomerNotFound();
}

Status ApproveWaitlistEntry(const AccountsDeps& deps, const std::string& id,
                            const std::optional<std::string>& note) {
  return deps.db->Write([&](ports::Tx& tx) -> Status {
    SV_ASSIGN_OR_RETURN(ports::WaitlistEntry e, FindEntry(deps, tx, id));
    SV_RETURN_IF_ERROR(domain::accounts::DecideWaitlistApprove(StatusOf(e)).status());
    SV_RETURN_IF_ERROR(IssueApproval(deps, tx, e));
    return note ? deps.waitlist->SetNote(tx, e.id, note, deps.Now()) : Status::Ok();
  });
}

Status RejectWaitlistEntry(const AccountsDeps& deps, const std::string& id,
                           const std::optional<std::string>& note) {
  return deps.db->Write([&](ports::Tx& tx) -> Status {
    SV_ASSIGN_OR_RETURN(ports::WaitlistEntry e, FindEntry(deps, tx, id));
    const auto next = domain::accounts::DecideWaitlistReject(StatusOf(e));
    const int64_t now = deps.Now();
    SV_RETURN_IF_ERROR(deps.waitlist->SetStatus(
        tx, e.id, std::string(domain::accounts::WaitlistStatusName(next)), std::nullopt, std::nullopt, now));
    return note ? deps.waitlist->SetNote(tx, e.id, note, now) : Status::Ok();
  });
}

Status ResendWaitlistApproval(const AccountsDeps& deps, const std::string& id) {
  return deps.db->Write([&](ports::Tx& tx) -> Status {
    SV_ASSIGN_OR_RETURN(ports::WaitlistEntry e, FindEntry(deps, tx, id));
    SV_RETURN_IF_ERROR(domain::accounts::CheckWaitlistResend(StatusOf(e)));
    return IssueApproval(deps, tx, e);
  });
}

Result<ports::Organization> DeleteOrganizationAsOperator(const AccountsDeps& deps, const std::string& org_id,
                                                         const OrganizationStep& before_delete) {
  ports::Organization out;
  SV_RETURN_IF_ERROR(deps.db->Write([&](ports::Tx& tx) -> Status {
    SV_ASSIGN_OR_RETURN(std::optional<ports::Organization> org, deps.orgs->Find(tx, org_id));
    if (!org) return CustomerNotFound();
    out = *org;
    if (before_delete) SV_RETURN_IF_ERROR(before_delete(tx, *org));
    SV_RETURN_IF_ERROR(deps.deletion->RunOrganizationDeleted(tx, org_id));
    return deps.orgs->Delete(tx, org_id);
  }));
  return out;
}

}  // namespace service::app::accounts
