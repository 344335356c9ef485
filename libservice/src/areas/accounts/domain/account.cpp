#include "areas/accounts/domain/account.h"

#include <boost/json.hpp>

#include "areas/accounts/domain/secrets.h"

namespace service::domain::accounts {

std::optional<AccountStatus> ParseAccountStatus(std::string_view name) {
  if (name == "pending") return AccountStatus::kPending;
  if (name == "active") return AccountStatus::kActive;
  if (name == "deactivated") return AccountStatus::kDeactivated;
  return std::nullopt;
}

std::string_view AccountStatusName(AccountStatus status) {
  switch (status) {
    case AccountStatus::kPending:
      return "pending";
    case AccountStatus::kActive:
      return "active";
    case AccountStatus::kDeactivated:
      return "deactivated";
  }
  return "pending";
}

Status InvalidCredentials() { return Unauthenticated("Invalid credentials"); }

Status CheckLogin(const AccountView& account, bool password_matches) {
  if (account.status == AccountStatus::kDeactivated) return InvalidCredentials();
  if (!account.has_password || account.status == AccountStatus::kPending) {
    return Status(Code::kPermissionDenied,
                  "Account setup is pending: accept your invitation to set a password", "INVITE_PENDING");
  }
  if (!password_matches) return InvalidCredentials();
  if (!account.email_verified) {
    boost::json::object payload;
    payload["maskedEmail"] = MaskEmail(account.email);
    return Status(Code::kPermissionDenied, "Email not verified", "EMAIL_UNVERIFIED",
                  boost::json::serialize(payload));
  }
  return Status::Ok();
}

Status CheckSession(const TokenClaims& claims, const AccountView& account) {
  if (account.status != AccountStatus::kActive || claims.rev != account.session_revision) {
    return Unauthenticated("Invalid or expired token");
  }
  return Status::Ok();
}

bool CanResetPassword(AccountStatus status) { return status == AccountStatus::kActive; }

bool RetiresSessions(AccountChange change) {
  switch (change) {
    case AccountChange::kStatus:
    case AccountChange::kEmail:
    case AccountChange::kPassword:
      return true;
    case AccountChange::kProfile:
      return false;
  }
  return true;
}

int64_t NextSessionRevision(int64_t current) { return current < 0 ? 1 : current + 1; }

Result<InvitationAcceptance> DecideInvitationAcceptance(AccountStatus status) {
  switch (status) {
    case AccountStatus::kPending:
      return InvitationAcceptance::kActivate;
    case AccountStatus::kActive:
      return InvitationAcceptance::kJoinOnly;
    case AccountStatus::kDeactivated:
      break;
  }
  return Status(Code::kInvalidArgument, "Invalid or expired invitation", "INVITATION_INVALID");
}

std::optional<WaitlistStatus> ParseWaitlistStatus(std::string_view name) {
  if (name == "pending") return WaitlistStatus::kPending;
  if (name == "approved") return WaitlistStatus::kApproved;
  if (name == "rejected") return WaitlistStatus::kRejected;
  if (name == "completed") return WaitlistStatus::kCompleted;
  return std::nullopt;
}

std::string_view WaitlistStatusName(WaitlistStatus status) {
  switch (status) {
    case WaitlistStatus::kPending:
      return "pending";
    case WaitlistStatus::kApproved:
      return "approved";
    case WaitlistStatus::kRejected:
      return "rejected";
    case WaitlistStatus::kCompleted:
      return "completed";
  }
  return "pending";
}

Result<WaitlistJoin> DecideWaitlistJoin(std::optional<WaitlistStatus> current) {
  if (!current) return WaitlistJoin{WaitlistStatus::kPending, true, true};
  switch (*current) {
    case WaitlistStatus::kPending:
    case WaitlistStatus::kRejected:
      return WaitlistJoin{WaitlistStatus::kPending, true, false};
    case WaitlistStatus::kApproved:
      return WaitlistJoin{WaitlistStatus::kApproved, false, false};
    case WaitlistStatus::kCompleted:
      break;
  }
  return Conflict("Signup already completed");
}

Result<WaitlistStatus> DecideWaitlistApprove(WaitlistStatus current) {
  if (current == WaitlistStatus::kCompleted) return InvalidArgument("Signup already completed");
  return WaitlistStatus::kApproved;
}

WaitlistStatus DecideWaitlistReject(WaitlistStatus /*current*/) { return WaitlistStatus::kRejected; }

Status CheckWaitlistResend(WaitlistStatus current) {
  if (current != WaitlistStatus::kApproved) return InvalidArgument("Only approved entries can be resent");
  return Status::Ok();
}

}  // namespace service::domain::accounts
