// Invitation links: inspect and accept.
#include "areas/accounts/app/accounts.h"
#include "areas/accounts/app/internal.h"
#include "areas/accounts/domain/account.h"
#include "areas/accounts/domain/secrets.h"

namespace service::app::accounts {

namespace {
Status InvitationInvalid() {
  return Status(Code::kInvalidArgument, "Invalid or expired invitation", "INVITATION_INVALID");
}
}  // namespace

Result<InvitationInfo> InspectInvitation(const AccountsDeps& deps, std::string_view token) {
  if (!domain::accounts::IsWellFormedSecret(token)) return InvitationInvalid();
  const std::string hash = domain::accounts::SecretHash(domain::accounts::NormalizeSecret(token));
  std::optional<ports::Invitation> inv;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& c) -> Status {
    SV_ASSIGN_OR_RETURN(inv, deps.invitations->FindOpen(c, hash, deps.Now()));
    return Status::Ok();
  }));
  if (!inv) return InvitationInvalid();
  return InvitationInfo{inv->org_name, inv->email, inv->expires_at};
}

Result<AcceptedInvitation> AcceptInvitation(const AccountsDeps& deps, std::string_view token,
                                            const std::string& email, const std::string& password) {
  if (!domain::accounts::IsWellFormedSecret(token)) return InvitationInvalid();
  const std::string hash = domain::accounts::SecretHash(domain::accounts::NormalizeSecret(token));
  // Hashed before the transaction (and whether or not it is used, so the
  // answer takes as long for an active account as for a pending one).
  SV_ASSIGN_OR_RETURN(std::string password_hash, internal::HashNewPassword(deps, password));
  AcceptedInvitation out;
  SV_RETURN_IF_ERROR(deps.db->Write([&](ports::Tx& tx) -> Status {
    const int64_t now = deps.Now();
    // Consumed first: the row lock serialises concurrent accepts of one link.
    SV_ASSIGN_OR_RETURN(std::optional<ports::Invitation> inv, deps.invitations->Accept(tx, hash, email, now));
    if (!inv) return InvitationInvalid();
    SV_ASSIGN_OR_RETURN(std::optional<ports::User> user, deps.users->FindById(tx, inv->user_id));
    if (!user || user->email != email) return InvitationInvalid();
    const auto status = domain::accounts::ParseAccountStatus(user->status);
    if (!status) return InvitationInvalid();
    SV_ASSIGN_OR_RETURN(domain::accounts::InvitationAcceptance acceptance,
                        domain::accounts::DecideInvitationAcceptance(*status));
    // The membership must still exist (a removal revokes the invitation
    // too); its row lock keeps a concurrent removal out until we commit.
    SV_ASSIGN_OR_RETURN(std::optional<ports::Membership> m,
                        deps.memberships->Lock(tx, inv->org_id, user->id, now));
    if (!m) return InvitationInvalid();
    if (acceptance == domain::accounts::InvitationAcceptance::kActivate) {
      SV_ASSIGN_OR_RETURN(bool updated, deps.users->SetPassword(tx, user->id, password_hash, true, now));
      if (!updated) return InvitationInvalid();
      SV_RETURN_IF_ERROR(deps.sessions->RevokeAll(tx, user->id, now));
      out.activated = true;
    }
    out.org_id = inv->org_id;
    out.org_name = inv->org_name;
    return Status::Ok();
  }));
  return out;
}

}  // namespace service::app::accounts
