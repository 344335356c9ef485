#include "areas/accounts/app/internal.h"

#include "areas/accounts/domain/password.h"
#include "areas/accounts/domain/secrets.h"
#include "areas/accounts/domain/token.h"
#include "areas/accounts/domain/validation.h"
#include "util/strings.h"
#include "util/time.h"

namespace service::app::accounts::internal {

Result<SessionTokens> IssueSession(const AccountsDeps& deps, ports::Tx& tx, const std::string& user_id,
                                   const std::string& org_id, int64_t revision,
                                   const std::string& session_id) {
  const int64_t now = deps.Now();
  SessionTokens out;
  domain::accounts::TokenClaims access = domain::accounts::MakeAccessClaims(user_id, org_id, revision, now);
  access.sid = session_id;
  out.access_token = domain::accounts::SignToken(access, deps.jwt_secret);
  const domain::accounts::IssuedSecret jti = domain::accounts::NewRefreshTokenId(*deps.ids);
  domain::accounts::TokenClaims refresh =
      domain::accounts::MakeRefreshClaims(user_id, org_id, revision, jti.token, now);
  refresh.sid = session_id;
  out.refresh_token = domain::accounts::SignToken(refresh, deps.jwt_secret);
  ports::RefreshToken row;
  row.id = deps.ids->NewId();
  row.user_id = user_id;
  row.org_id = org_id;
  row.token_hash = jti.hash;
  row.revision = revision;
  row.expires_at = refresh.exp * 1000;
  row.created_at = now;
  SV_RETURN_IF_ERROR(deps.sessions->Insert(tx, row));
  return out;
}

Result<std::string> IssueEmailToken(const AccountsDeps& deps, ports::Tx& tx, const std::string& user_id,
                                    std::string_view kind, int64_t lifetime_ms) {
  const int64_t now = deps.Now();
  SV_RETURN_IF_ERROR(deps.email_tokens->ConsumeAll(tx, user_id, kind, now));
  const domain::accounts::IssuedSecret secret = domain::accounts::NewSecret(*deps.ids);
  ports::EmailToken row;
  row.id = deps.ids->NewId();
  row.user_id = user_id;
  row.kind = std::string(kind);
  row.token_hash = secret.hash;
  row.expires_at = now + lifetime_ms;
  row.created_at = now;
  SV_RETURN_IF_ERROR(deps.email_tokens->Insert(tx, row));
  return secret.token;
}

namespace {

Result<std::string> PickOrgSlug(const AccountsDeps& deps, ports::Tx& tx, const std::string& org_name) {
  const std::string base = domain::accounts::Slugify(org_name, "org");
  for (int n = 1; n <= 20; ++n) {
    std::string candidate = domain::accounts::SlugCandidate(base, n);
    SV_ASSIGN_OR_RETURN(bool taken, deps.orgs->SlugTaken(tx, candidate));
    if (!taken) return candidate;
  }
  // A crowded name: a random suffix ends the search.
  return domain::accounts::SlugCandidate(base, 2) + "-" + util::ToLower(deps.ids->RandomAlnum(6));
}

}  // namespace

Status InsertWorkspace(const AccountsDeps& deps, ports::Tx& tx, const WorkspaceSeed& seed, Workspace* out) {
  const int64_t now = deps.Now();
  const Status email_taken = Conflict("Email already registered");
  SV_ASSIGN_OR_RETURN(std::optional<ports::User> existing, deps.users->FindByEmail(tx, seed.email));
  if (existing) return email_taken;

  ports::User& user = out->user;
  user = ports::User{};
  user.id = deps.ids->NewId();
  user.email = seed.email;
  user.name = seed.name;
  user.password_hash = seed.password_hash;
  user.email_verified = seed.email_verified;
  user.status = "active";
  user.created_at = user.updated_at = now;

  ports::Organization& org = out->org;
  org = ports::Organization{};
  org.id = deps.ids->NewId();
  org.name = seed.org_name;
  SV_ASSIGN_OR_RETURN(org.slug, PickOrgSlug(deps, tx, seed.org_name));
  org.plan = "free";
  org.created_at = now;
  user.last_org_id = org.id;
  user.last_login_at = now;
  const std::string session_id = deps.ids->NewId();  // signing up is the first sign-in
  user.first_session_id = session_id;

  Status s = deps.users->Insert(tx, user);
  if (s.code() == Code::kConflict) return email_taken;
  SV_RETURN_IF_ERROR(s);
  s = deps.orgs->Insert(tx, org);
  if (s.code() == Code::kConflict)
    return Status(Code::kConflict, "Organization slug taken", std::string(kSlugTakenCode));
  SV_RETURN_IF_ERROR(s);
  SV_RETURN_IF_ERROR(
      deps.memberships->Insert(tx, ports::Membership{org.id, user.id, "admin", std::nullopt, now}));

  SV_ASSIGN_OR_RETURN(out->project, deps.create_first_project(tx, org.id, user.id, now));

  SV_ASSIGN_OR_RETURN(out->tokens,
                      IssueSession(deps, tx, user.id, org.id, user.session_revision, session_id));

  if (!user.email_verified && deps.mail->configured()) {
    SV_ASSIGN_OR_RETURN(std::string token,
                        IssueEmailToken(deps, tx, user.id, ports::kVerifyEmailToken,
                                        domain::accounts::kEmailVerificationTokenLifetimeMs));
    SV_RETURN_IF_ERROR(deps.mail->Enqueue(tx, VerificationMail(deps, user.email, token)));
  }
  return Status::Ok();
}

Result<std::string> HashNewPassword(const AccountsDeps& deps, std::string_view password) {
  return domain::accounts::HashPassword(password, deps.ids->RandomBytes(domain::accounts::kPasswordSaltBytes),
                                        *deps.password_params);
}

bool IsStoreFailure(const Status& s) { return s.code() == Code::kUnavailable || s.code() == Code::kInternal; }

namespace {

std::string Link(const AccountsDeps& deps, std::string_view path) {
  return deps.public_url + std::string(path);
}

std::string Footer() { return "\n\nIf you did not expect this message, you can ignore it.\n"; }

}  // namespace

app::mail::MailMessage VerificationMail(const AccountsDeps& deps, const std::string& to,
                                        const std::string& token) {
  return {to, "Verify your email address",
          "Confirm that this is your email address by opening this link within 24 hours:\n\n" +
              Link(deps, "/verify-email#token=" + token) + "\n\nVerification token: " + token + Footer()};
}

app::mail::MailMessage PasswordResetMail(const AccountsDeps& deps, const std::string& to,
                                         const std::string& token) {
  return {to, "Reset your password",
          "Someone asked to reset the password of your account. Choose a new password within one hour:\n\n" +
              Link(deps, "/reset-password#token=" + token + "&email=" + util::UrlEncode(to)) +
              "\n\nReset token: " + token + Footer()};
}

app::mail::MailMessage InvitationMail(const AccountsDeps& deps, const std::string& to,
                                      const std::string& org_name, const std::string& inviter,
                                      const std::string& token, int64_t expires_at) {
  return {to, "You are invited to join " + org_name,
          (inviter.empty() ? std::string("You have") : inviter + " has") + " invited you to join " +
              org_name + ". Accept the invitation and choose your password here:\n\n" +
              Link(deps, "/invite#token=" + token) + "\n\nThe invitation expires at " +
              util::FormatIso8601(expires_at) + "." + Footer()};
}

app::mail::MailMessage AddedToOrgMail(const AccountsDeps& deps, const std::string& to,
                                      const std::string& org_name, const std::string& inviter) {
  return {to, "You were added to " + org_name,
          (inviter.empty() ? std::string("You were added to ") : inviter + " has added you to ") + org_name +
              ". Sign in to switch to it:\n\n" + Link(deps, "/login") + Footer()};
}

app::mail::MailMessage WaitlistReceiptMail(const AccountsDeps& deps, const std::string& to,
                                           const std::string& name) {
  return {
      to, "You are on the waitlist",
      "Hello " + name +
          ",\n\nthank you for your interest. You are on the waitlist; we will send you a signup link once "
          "your request is approved.\n\n" +
          deps.public_url + Footer()};
}

app::mail::MailMessage WaitlistApprovalMail(const AccountsDeps& deps, const std::string& to,
                                            const std::string& name, const std::string& token) {
  return {to, "Your account request was approved",
          "Hello " + name + ",\n\nyour request was approved. Complete your signup within 7 days here:\n\n" +
              Link(deps, "/signup#token=" + token) + Footer()};
}

app::mail::MailMessage DataExportMail(const AccountsDeps& deps, const std::string& to,
                                      const std::string& token) {
  return {to, "Your data export is ready",
          "Download a copy of your account data (a JSON file) within 24 hours. The link works once:\n\n" +
              Link(deps, "/v1/auth/data-export/" + token) + Footer()};
}

app::mail::MailMessage AccountDeletionMail(const AccountsDeps& deps, const std::string& to,
                                           const std::string& token) {
  return {to, "Confirm the deletion of your account",
          "Someone asked to delete your account and its data. This cannot be undone. To confirm within one "
          "hour, open:\n\n" +
              Link(deps, "/delete-account#token=" + token) + "\n\nConfirmation token: " + token + Footer()};
}

}  // namespace service::app::accounts::internal
