// Account and waitlist states and the decisions made on them (Spec 1
// "States and transitions", login errors, session checks).
//
// Account: an invited user without a password is pending; accepting the
// invitation activates them. A pending or deactivated account can neither
// log in nor use password reset. A change of status, email or password
// advances the session revision, which retires every earlier access and
// refresh token; profile edits do not.
//
// Pure functions over values; safe to call from any thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "areas/accounts/domain/token.h"
#include "service/status.h"

namespace service::domain::accounts {

enum class AccountStatus { kPending, kActive, kDeactivated };

// "pending", "active", "deactivated".
std::optional<AccountStatus> ParseAccountStatus(std::string_view name);
std::string_view AccountStatusName(AccountStatus status);

// What the login and session checks need to know of an account.
struct AccountView {
  std::string email;
  AccountStatus status = AccountStatus::kPending;
  bool has_password = false;
  bool email_verified = false;
  int64_t session_revision = 0;
};

// POST /v1/auth/login for an account found by email. `password_matches`
// is VerifyPassword's answer (false when the account has no password; the
// caller then runs DummyVerify to keep the timing).
//   deactivated                  -> kUnauthenticated "Invalid credentials"
//   no password (invite pending) -> kPermissionDenied, code INVITE_PENDING
//   wrong password               -> kUnauthenticated "Invalid credentials"
//   email not verified           -> kPermissionDenied, code EMAIL_UNVERIFIED,
//                                   payload {"maskedEmail": ...}
// The unverified state is only revealed to a caller who knows the password.
// An unknown email is the caller's: InvalidCredentials().
Status CheckLogin(const AccountView& account, bool password_matches);

// 401 "Invalid credentials", the answer for unknown emails and wrong passwords.
Status InvalidCredentials();

// Every authenticated request: the token's account must be active and the
// token's revision must equal the account's current one. kUnauthenticated
// (generic message) otherwise.
Status CheckSession(const TokenClaims& claims, const AccountView& account);

// Password reset (request and completion) is for active accounts only.
bool CanResetPassword(AccountStatus status);

enum class AccountChange { kStatus, kEmail, kPassword, kProfile };

// True for changes that advance the session revision (status, email,
// password); profile edits (name, avatar) keep sessions.
bool RetiresSessions(AccountChange change);

// The revision after a change that retires sessions.
int64_t NextSessionRevision(int64_t current);

// What accepting an invitation does to the invitee's account.
enum class InvitationAcceptance {
  kActivate,  // pending: set the password, mark active (revision advances)
  kJoinOnly,  // active: add the membership; the password is never overwritten
};
// kInvalidArgument, code INVITATION_INVALID, for a deactivated account.
Result<InvitationAcceptance> DecideInvitationAcceptance(AccountStatus status);

// Waitlist entries.
enum class WaitlistStatus { kPending, kApproved, kRejected, kCompleted };

// "pending", "approved", "rejected", "completed".
std::optional<WaitlistStatus> ParseWaitlistStatus(std::string_view name);
std::string_view WaitlistStatusName(WaitlistStatus status);

struct WaitlistJoin {
  WaitlistStatus next = WaitlistStatus::kPending;
  bool accepted = true;       // true: HTTP 202 (new or pending); false: 200 (approved)
  bool send_receipt = false;  // a receipt email for a new entry only
};

// POST /v1/auth/waitlist for an email with no account, given its current
// entry (none: std::nullopt). none -> pending (receipt email); pending ->
// pending; rejected -> pending (re-promoted); approved -> approved (200);
// completed -> kConflict "Signup already completed".
Result<WaitlistJoin> DecideWaitlistJoin(std::optional<WaitlistStatus> current);

// Superadmin approve: pending, rejected or approved -> approved with a fresh
// 7-day token and link email; completed -> kInvalidArgument.
Result<WaitlistStatus> DecideWaitlistApprove(WaitlistStatus current);
// Superadmin reject: any -> rejected (the outstanding token is cleared).
WaitlistStatus DecideWaitlistReject(WaitlistStatus current);
// Superadmin resend: approved only (fresh token, email again), else
// kInvalidArgument "Only approved entries can be resent".
Status CheckWaitlistResend(WaitlistStatus current);

}  // namespace service::domain::accounts
