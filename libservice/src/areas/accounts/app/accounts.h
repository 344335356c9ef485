// Account and session use cases (Spec 1 "Auth", "Authentication", account
// and waitlist states): signup, login, sessions, password recovery, email
// verification, invitations, organization switching, what's new, and the
// account's data export and deletion.
//
// Inputs arrive validated for shape by the API layer (field types and
// lengths); these functions apply the rules and write everything a request
// changes in ONE Database::Write, mail included (app/mail), so a failure
// leaves nothing behind. Password hashing (scrypt, Core::password_params)
// runs outside transactions.
//
// Failure: Status with the spec's messages and codes (400 Validation failed
// is the API layer's). Session checks answer kUnauthenticated for a rejected
// session and kUnavailable "AUTH_UNAVAILABLE" when the account lookup fails.
//
// Thread-safety: every function is safe to call concurrently.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "app/deletion_hooks.h"
#include "areas/accounts/domain/password.h"
#include "areas/accounts/ports/account_data_repository.h"
#include "areas/accounts/ports/email_token_repository.h"
#include "areas/accounts/ports/invitation_repository.h"
#include "areas/accounts/ports/org_repository.h"
#include "areas/accounts/ports/session_repository.h"
#include "areas/accounts/ports/user_repository.h"
#include "areas/accounts/ports/waitlist_repository.h"
#include "areas/mail/app/mail.h"
#include "ports/ids.h"
#include "ports/transaction.h"
#include "service/clock.h"
#include "service/options.h"
#include "service/status.h"

namespace service::app::accounts {

// The project a new organization starts with and its first live capture
// key. The projects area makes it (AccountsDeps::create_first_project).
struct FirstProject {
  std::string id;
  std::string name;
  std::string slug;
  std::string platform;
  int64_t project_number = 0;
  std::string api_key;  // the full capture key: shown once, stored as a hash
  std::string dsn;      // the key as a Sentry SDK's DSN
};
// Creates it inside the signup's transaction for `org_id`, the key created
// by `creator_id`, at `now`.
using CreateFirstProject = std::function<Result<FirstProject>(ports::Tx& tx, const std::string& org_id,
                                                              const std::string& creator_id, int64_t now)>;

// A request a superadmin makes under a support session
// (X-Service-Support-Session, server contract "Support sessions"), as the
// bearer authenticator saw it: the session it names, the organization of
// X-Service-Org, the caller, the method and the route's pattern.
struct SupportSessionRequest {
  std::string session_id;
  std::string org_id;
  std::string user_id;
  std::string method;
  std::string route;  // "/v1/bugs/:id": the pattern, never the raw path
};
// Checks that the session is the caller's, for that organization, not ended
// and not expired, and records the request in the organization's log; 403
// otherwise, 503 AUTH_UNAVAILABLE when the store fails. The support area
// sets it (AccountsModule::SetSupportSessions) and the accounts area cannot
// include it: it sits above accounts.
using CheckSupportSession = std::function<Status(const SupportSessionRequest& request)>;

// An agent token (Authorization: Bearer sv_pat_..., Spec 2 "Authentication"
// 2) as the agent tokens area found it on this call: the token, the creator
// it acts for (active, still a member: `role` is their current role in
// `org_id`), its scopes and the projects its unexpired grants cover.
struct AgentTokenCaller {
  std::string token_id;
  std::string user_id;
  std::string email;
  std::string org_id;
  std::string role;
  std::vector<std::string> scopes;
  std::vector<std::string> granted_projects;
};
// Checks a presented agent token (no cache: every call reads the token, its
// creator and membership): 401 for an unknown, malformed, revoked or
// expired token, or a creator deactivated or no longer a member; 503
// AUTH_UNAVAILABLE when the store fails. The agent tokens area sets it
// (AccountsModule::SetAgentTokens); it sits above accounts.
using CheckAgentToken = std::function<Result<AgentTokenCaller>(std::string_view token)>;

// What the account areas (auth, team) need. Pointers are borrowed from the
// Service and outlive every call.
struct AccountsDeps {
  ports::Transactions* db = nullptr;
  Clock* clock = nullptr;
  ports::Ids* ids = nullptr;
  ports::UserRepository* users = nullptr;
  ports::OrgRepository* orgs = nullptr;
  ports::MembershipRepository* memberships = nullptr;
  ports::SessionRepository* sessions = nullptr;
  ports::EmailTokenRepository* email_tokens = nullptr;
  ports::InvitationRepository* invitations = nullptr;
  ports::WaitlistRepository* waitlist = nullptr;
  ports::AccountDataRepository* account_data = nullptr;
  // A new workspace's default project and first capture key (set by the
  // projects area's module).
  CreateFirstProject create_first_project;
  // Support sessions (set by the support area's module). Empty: a request
  // naming a support session is refused (403).
  CheckSupportSession check_support_session;
  // Agent tokens (set by the agent tokens area's module). Empty: every
  // sv_pat_ bearer is refused (401).
  CheckAgentToken check_agent_token;
  const app::mail::MailOutbox* mail = nullptr;
  // Rows of other areas that go with an organization, member or account.
  const DeletionHooks* deletion = nullptr;

  std::string jwt_secret;  // never logged
  // scrypt cost for new password hashes (and the login timing decoy).
  const domain::accounts::ScryptParams* password_params = nullptr;
  std::string public_url;  // links in mails
  bool require_email_verification = false;
  std::vector<std::string> superadmin_emails;  // lower-cased
  PlanLimitOverrides plan_limits;

  int64_t Now() const { return clock->NowMillis(); }
};

struct SessionTokens {
  std::string access_token;   // 1 hour
  std::string refresh_token;  // 30 days, one rotation
};

// What signup creates: the account, its organization (plan free, admin
// membership), the default project and its first live capture key.
struct Workspace {
  ports::User user;
  ports::Organization org;
  FirstProject project;  // with its key and DSN
  SessionTokens tokens;
};

// POST /v1/auth/register. `email` normalised; `name` and `org_name` valid
// names; `password` within the policy. 409 "Email already registered".
// Queues a verification mail when a mail provider is configured.
struct RegisterInput {
  std::string email;
  std::string password;
  std::string name;
  std::string org_name;
};
Result<Workspace> Register(const AccountsDeps& deps, const RegisterInput& in);

// POST /v1/auth/waitlist. 409 for an email with an account or a completed
// signup. `accepted` false: the entry is approved already (HTTP 200).
struct WaitlistInput {
  std::string email;
  std::string name;
  std::string org_name;
  std::optional<std::string> use_case;
};
struct WaitlistOutcome {
  std::string status;  // pending or approved
  bool accepted = true;
};
Result<WaitlistOutcome> JoinWaitlist(const AccountsDeps& deps, const WaitlistInput& in);

// GET /v1/auth/approval/:token (not consumed). 400 "Invalid or expired
// approval link".
struct ApprovalInfo {
  std::string email;
  std::string name;
  std::string org_name;
};
Result<ApprovalInfo> InspectApproval(const AccountsDeps& deps, std::string_view token);

// POST /v1/auth/complete-signup: consumes the approval token and creates
// the workspace for the waitlist entry's email (marked verified). An entry
// an operator made with an organization (app/operator.h CreateCustomer)
// joins that organization as its admin instead; the Workspace's project is
// then empty (the organization's project exists; no key is shown again).
Result<Workspace> CompleteSignup(const AccountsDeps& deps, std::string_view token, const std::string& name,
                                 const std::string& password);

// POST /v1/auth/login. 401 Invalid credentials (unknown email or wrong
// password, in the same time), 403 INVITE_PENDING, 403 EMAIL_UNVERIFIED.
// The session opens in the last used organization, else the oldest.
struct LoginResult {
  ports::User user;
  std::optional<ports::UserOrg> org;
  SessionTokens tokens;
};
Result<LoginResult> Login(const AccountsDeps& deps, const std::string& email, const std::string& password);

// POST /v1/auth/refresh: rotates the refresh token (the old one is refused
// afterwards). 401 for any invalid, expired, used or retired token or an
// inactive account; 503 AUTH_UNAVAILABLE when the store fails.
Result<SessionTokens> Refresh(const AccountsDeps& deps, std::string_view refresh_token);

// Every bearer request: verifies the access token and re-reads the account
// (active, same session revision) and, when `org_id` is given, the
// caller's membership there (nullopt: not a member).
struct Caller {
  ports::User user;
  std::optional<ports::Membership> membership;
  std::string session_id;  // the token's sign-in (claim `sid`); empty in older tokens
};
// The accounts and memberships of one organization's callers, read once, to
// check many access tokens against (the live stream checks every open
// stream of an organization before a delivery).
struct AccessSnapshot {
  std::string org_id;
  std::map<std::string, std::optional<ports::User>> users;              // by user id
  std::map<std::string, std::optional<ports::Membership>> memberships;  // by user id
};
// One read transaction for `user_ids` (memberships only when `org_id` is
// not empty). A failed read: 503 AUTH_UNAVAILABLE.
Result<AccessSnapshot> ReadAccess(const AccountsDeps& deps, const std::string& org_id,
                                  const std::vector<std::string>& user_ids);
// AuthenticateAccess(deps, token, &snapshot.org_id) answered from the
// snapshot. A token whose user the snapshot did not read: kNotFound (read a
// snapshot that includes it).
Result<Caller> CheckAccess(const AccountsDeps& deps, std::string_view access_token,
                           const AccessSnapshot& snapshot);
Result<Caller> AuthenticateAccess(const AccountsDeps& deps, std::string_view access_token,
                                  const std::string* org_id);

// True when the account is a superadmin (server contract "Superadmin"):
// its email is on SERVICE_SUPERADMIN_EMAILS (case-insensitively) and
// verified. An unverified address on the list is nobody's superadmin.
bool IsSuperadmin(const AccountsDeps& deps, const ports::User& user);
// The same for an email: reads the account (only when the email is on the
// list) and requires it verified; false when the read fails. Prefer the
// overload above when the account is at hand.
bool IsSuperadmin(const AccountsDeps& deps, std::string_view email);

// GET /v1/auth/me. 404 User not found.
struct Profile {
  ports::User user;
  std::vector<ports::UserOrg> orgs;
  bool superadmin = false;
};
Result<Profile> GetProfile(const AccountsDeps& deps, const std::string& user_id);

// POST /v1/auth/switch-org: new tokens for another organization of the
// user. 403 when the user is not a member.
struct SwitchedOrg {
  ports::UserOrg org;
  SessionTokens tokens;
};
// The new tokens keep the caller's sign-in (`session_id`).
Result<SwitchedOrg> SwitchOrg(const AccountsDeps& deps, const std::string& user_id, const std::string& org_id,
                              const std::string& session_id);

// POST /v1/auth/forgot-password: issues a reset token and mails it when the
// email belongs to an active account; otherwise does nothing. The token is
// returned for the API layer to show outside production only.
Result<std::optional<std::string>> ForgotPassword(const AccountsDeps& deps, const std::string& email);

// POST /v1/auth/reset-password: consumes the token atomically, sets the
// password and retires every session. Active accounts only. 400 "Invalid or
// expired reset token".
Status ResetPassword(const AccountsDeps& deps, std::string_view token, const std::string& email,
                     const std::string& password);

// POST /v1/auth/send-verification. `already_verified`: nothing sent. 404
// User not found; 503 when no mail provider is configured.
struct VerificationSent {
  bool already_verified = false;
  std::string masked_email;
};
Result<VerificationSent> SendVerification(const AccountsDeps& deps, const std::string& user_id);

// POST /v1/auth/resend-verification: mails a new link when the email
// belongs to an active unverified account; answers the same either way
// (the masked address). 503 when no mail provider is configured.
Result<std::string> ResendVerification(const AccountsDeps& deps, const std::string& email);

// POST /v1/auth/verify-email. 400 "Invalid or expired verification token".
Status VerifyEmail(const AccountsDeps& deps, std::string_view token);

// POST /v1/auth/invitations/inspect (not consumed). 400 INVITATION_INVALID.
struct InvitationInfo {
  std::string org_name;
  std::string email;
  int64_t expires_at = 0;
};
Result<InvitationInfo> InspectInvitation(const AccountsDeps& deps, std::string_view token);

// POST /v1/auth/invitations/accept: consumes the invitation; a pending
// invitee gets the password and becomes active (verified: the link came by
// mail); an active account only joins (its password is never overwritten).
// The membership is re-checked under its row lock. 400 INVITATION_INVALID.
struct AcceptedInvitation {
  std::string org_id;
  std::string org_name;
  bool activated = false;
};
Result<AcceptedInvitation> AcceptInvitation(const AccountsDeps& deps, std::string_view token,
                                            const std::string& email, const std::string& password);

// GET /v1/auth/whats-new for a member of `org_id` (403 otherwise). While the
// caller's session (`session_id`) is the account's first sign-in: first_login
// and an empty feed. Otherwise what happened since the later of the previous
// sign-in and the last read of the feed (else since the account was
// created). Either way the last read then moves to now.
struct WhatsNewResult {
  bool first_login = false;
  int64_t since = 0;
  ports::WhatsNew feed;
};
inline constexpr int kWhatsNewLimit = 50;
Result<WhatsNewResult> GetWhatsNew(const AccountsDeps& deps, const std::string& user_id,
                                   const std::string& session_id, const std::string& org_id);

// Data export: RequestDataExport mails a one-time link (24 h) to
// GET /v1/auth/data-export/:token; DownloadDataExport consumes it and
// returns the bundle. 503 without a mail provider; 400 "Invalid or expired
// export link".
inline constexpr int64_t kDataExportTokenLifetimeMs = int64_t{24} * 60 * 60 * 1000;
Result<int64_t> RequestDataExport(const AccountsDeps& deps, const std::string& user_id);  // the link's expiry
struct DataExport {
  int64_t exported_at = 0;
  ports::User user;
  std::vector<ports::UserOrg> orgs;
  ports::AccountData data;
};
Result<DataExport> DownloadDataExport(const AccountsDeps& deps, std::string_view token);

// Account deletion: RequestAccountDeletion mails a one-time confirmation
// link (1 h); ConfirmAccountDeletion consumes it and deletes the account,
// its personal rows, and every organization it is the only member of. Both
// refuse with 409 SOLE_ADMIN (payload `organizations`) while the account is
// the only admin of an organization that has other members.
inline constexpr int64_t kDataDeleteTokenLifetimeMs = int64_t{60} * 60 * 1000;
Result<int64_t> RequestAccountDeletion(const AccountsDeps& deps, const std::string& user_id);
struct DeletedAccount {
  std::string user_id;
  std::vector<std::string> deleted_org_ids;
};
Result<DeletedAccount> ConfirmAccountDeletion(const AccountsDeps& deps, std::string_view token);

// The 503 every session check answers when the account lookup fails.
Status AuthUnavailable();

}  // namespace service::app::accounts
