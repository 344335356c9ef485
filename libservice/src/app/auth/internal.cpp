#include "app/auth/internal.h"

#include "domain/auth/password.h"
#include "domain/auth/secrets.h"
#include "domain/auth/token.h"
#include "domain/auth/validation.h"
#include "domain/keys/capture_key.h"
#include "util/strings.h"
#include "util/time.h"

namespace service::app::auth_internal {

Result<SessionTokens> IssueSession(Core& core, store::Connection& tx, const std::string& user_id,
                                   const std::string& org_id, int64_t revision) {
  const int64_t now = core.Now();
  SessionTokens out;
  out.access_token =
      domain::SignToken(domain::MakeAccessClaims(user_id, org_id, revision, now), core.jwt_secret);
  const domain::IssuedSecret jti = domain::NewRefreshTokenId(*core.ids);
  const domain::TokenClaims refresh = domain::MakeRefreshClaims(user_id, org_id, revision, jti.token, now);
  out.refresh_token = domain::SignToken(refresh, core.jwt_secret);
  ports::RefreshToken row;
  row.id = core.ids->NewId();
  row.user_id = user_id;
  row.org_id = org_id;
  row.token_hash = jti.hash;
  row.revision = revision;
  row.expires_at = refresh.exp * 1000;
  row.created_at = now;
  SV_RETURN_IF_ERROR(core.sessions->Insert(tx, row));
  return out;
}

Result<std::string> IssueEmailToken(Core& core, store::Connection& tx, const std::string& user_id,
                                    std::string_view kind, int64_t lifetime_ms) {
  const int64_t now = core.Now();
  SV_RETURN_IF_ERROR(core.email_tokens->ConsumeAll(tx, user_id, kind, now));
  const domain::IssuedSecret secret = domain::NewSecret(*core.ids);
  ports::EmailToken row;
  row.id = core.ids->NewId();
  row.user_id = user_id;
  row.kind = std::string(kind);
  row.token_hash = secret.hash;
  row.expires_at = now + lifetime_ms;
  row.created_at = now;
  SV_RETURN_IF_ERROR(core.email_tokens->Insert(tx, row));
  return secret.token;
}

namespace {

Result<std::string> PickOrgSlug(Core& core, store::Connection& tx, const std::string& org_name) {
  const std::string base = domain::Slugify(org_name, "org");
  for (int n = 1; n <= 20; ++n) {
    std::string candidate = domain::SlugCandidate(base, n);
    SV_ASSIGN_OR_RETURN(bool taken, core.orgs->SlugTaken(tx, candidate));
    if (!taken) return candidate;
  }
  // A crowded name: a random suffix ends the search.
  return domain::SlugCandidate(base, 2) + "-" + util::ToLower(core.ids->RandomAlnum(6));
}

}  // namespace

Status InsertWorkspace(Core& core, store::Connection& tx, const WorkspaceSeed& seed, Workspace* out) {
  const int64_t now = core.Now();
  const Status email_taken = Conflict("Email already registered");
  SV_ASSIGN_OR_RETURN(std::optional<ports::User> existing, core.users->FindByEmail(tx, seed.email));
  if (existing) return email_taken;

  ports::User& user = out->user;
  user = ports::User{};
  user.id = core.ids->NewId();
  user.email = seed.email;
  user.name = seed.name;
  user.password_hash = seed.password_hash;
  user.email_verified = seed.email_verified;
  user.status = "active";
  user.created_at = user.updated_at = now;

  ports::Organization& org = out->org;
  org = ports::Organization{};
  org.id = core.ids->NewId();
  org.name = seed.org_name;
  SV_ASSIGN_OR_RETURN(org.slug, PickOrgSlug(core, tx, seed.org_name));
  org.plan = "free";
  org.created_at = now;
  user.last_org_id = org.id;
  user.last_login_at = now;

  Status s = core.users->Insert(tx, user);
  if (s.code() == Code::kConflict) return email_taken;
  SV_RETURN_IF_ERROR(s);
  s = core.orgs->Insert(tx, org);
  if (s.code() == Code::kConflict)
    return Status(Code::kConflict, "Organization slug taken", std::string(kSlugTakenCode));
  SV_RETURN_IF_ERROR(s);
  SV_RETURN_IF_ERROR(
      core.memberships->Insert(tx, ports::Membership{org.id, user.id, "admin", std::nullopt, now}));

  ports::Project& project = out->project;
  project = ports::Project{};
  project.id = core.ids->NewId();
  project.org_id = org.id;
  project.name = "Default";
  project.slug = "default";
  project.platform = "web";
  project.created_at = now;
  SV_RETURN_IF_ERROR(core.projects->Insert(tx, project));

  const std::string random = core.ids->RandomAlnum(domain::kCaptureKeyRandomLength);
  out->api_key = domain::FormatCaptureKey("live", random);
  ports::CaptureKey key;
  key.id = core.ids->NewId();
  key.org_id = org.id;
  key.project_id = project.id;
  key.env = "live";
  key.prefix = random.substr(0, domain::kCaptureKeyPrefixLength);
  key.key_hash = domain::HashCaptureKey(out->api_key);
  key.label = "Default";
  key.created_by = user.id;
  key.created_at = now;
  SV_RETURN_IF_ERROR(core.capture_keys->Insert(tx, key));

  SV_ASSIGN_OR_RETURN(out->tokens, IssueSession(core, tx, user.id, org.id, user.session_revision));

  if (!user.email_verified && MailConfigured(core)) {
    SV_ASSIGN_OR_RETURN(std::string token, IssueEmailToken(core, tx, user.id, ports::kVerifyEmailToken,
                                                           domain::kEmailVerificationTokenLifetimeMs));
    SV_RETURN_IF_ERROR(EnqueueMail(core, tx, VerificationMail(core, user.email, token)));
  }
  return Status::Ok();
}

Result<std::string> HashNewPassword(Core& core, std::string_view password) {
  return domain::HashPassword(password, core.ids->RandomBytes(domain::kPasswordSaltBytes),
                              core.password_params);
}

bool IsStoreFailure(const Status& s) { return s.code() == Code::kUnavailable || s.code() == Code::kInternal; }

namespace {

std::string Link(const Core& core, std::string_view path) {
  return core.options.EffectivePublicUrl() + std::string(path);
}

std::string Footer() { return "\n\nIf you did not expect this message, you can ignore it.\n"; }

}  // namespace

MailMessage VerificationMail(const Core& core, const std::string& to, const std::string& token) {
  return {to, "Verify your email address",
          "Confirm that this is your email address by opening this link within 24 hours:\n\n" +
              Link(core, "/verify-email#token=" + token) + "\n\nVerification token: " + token + Footer()};
}

MailMessage PasswordResetMail(const Core& core, const std::string& to, const std::string& token) {
  return {to, "Reset your password",
          "Someone asked to reset the password of your account. Choose a new password within one hour:\n\n" +
              Link(core, "/reset-password#token=" + token + "&email=" + util::UrlEncode(to)) +
              "\n\nReset token: " + token + Footer()};
}

MailMessage InvitationMail(const Core& core, const std::string& to, const std::string& org_name,
                           const std::string& inviter, const std::string& token, int64_t expires_at) {
  return {to, "You are invited to join " + org_name,
          (inviter.empty() ? std::string("You have") : inviter + " has") + " invited you to join " +
              org_name + ". Accept the invitation and choose your password here:\n\n" +
              Link(core, "/invite#token=" + token) + "\n\nThe invitation expires at " +
              util::FormatIso8601(expires_at) + "." + Footer()};
}

MailMessage AddedToOrgMail(const Core& core, const std::string& to, const std::string& org_name,
                           const std::string& inviter) {
  return {to, "You were added to " + org_name,
          (inviter.empty() ? std::string("You were added to ") : inviter + " has added you to ") + org_name +
              ". Sign in to switch to it:\n\n" + Link(core, "/login") + Footer()};
}

MailMessage WaitlistReceiptMail(const Core& core, const std::string& to, const std::string& name) {
  return {
      to, "You are on the waitlist",
      "Hello " + name +
          ",\n\nthank you for your interest. You are on the waitlist; we will send you a signup link once "
          "your request is approved.\n\n" +
          core.options.EffectivePublicUrl() + Footer()};
}

MailMessage WaitlistApprovalMail(const Core& core, const std::string& to, const std::string& name,
                                 const std::string& token) {
  return {to, "Your account request was approved",
          "Hello " + name + ",\n\nyour request was approved. Complete your signup within 7 days here:\n\n" +
              Link(core, "/signup#token=" + token) + Footer()};
}

MailMessage DataExportMail(const Core& core, const std::string& to, const std::string& token) {
  return {to, "Your data export is ready",
          "Download a copy of your account data (a JSON file) within 24 hours. The link works once:\n\n" +
              Link(core, "/v1/auth/data-export/" + token) + Footer()};
}

MailMessage AccountDeletionMail(const Core& core, const std::string& to, const std::string& token) {
  return {to, "Confirm the deletion of your account",
          "Someone asked to delete your account and its data. This cannot be undone. To confirm within one "
          "hour, open:\n\n" +
              Link(core, "/delete-account#token=" + token) + "\n\nConfirmation token: " + token + Footer()};
}

}  // namespace service::app::auth_internal
