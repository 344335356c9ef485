// Password recovery and email verification.
#include "app/auth/auth.h"
#include "app/auth/internal.h"
#include "domain/auth/account.h"
#include "domain/auth/secrets.h"

namespace service::app {

using auth_internal::IssueEmailToken;

Result<std::optional<std::string>> ForgotPassword(Core& core, const std::string& email) {
  std::optional<ports::User> user;
  SV_RETURN_IF_ERROR(core.db->Read([&](store::Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(user, core.users->FindByEmail(c, email));
    return Status::Ok();
  }));
  const auto status = user ? domain::ParseAccountStatus(user->status) : std::nullopt;
  if (!user || !status || !domain::CanResetPassword(*status)) return std::optional<std::string>();
  std::string token;
  SV_RETURN_IF_ERROR(core.db->Write([&](store::Connection& tx) -> Status {
    SV_ASSIGN_OR_RETURN(token, IssueEmailToken(core, tx, user->id, ports::kPasswordResetToken,
                                               domain::kPasswordResetTokenLifetimeMs));
    if (!MailConfigured(core)) return Status::Ok();
    return EnqueueMail(core, tx, auth_internal::PasswordResetMail(core, user->email, token));
  }));
  return std::optional<std::string>(token);
}

Status ResetPassword(Core& core, std::string_view token, const std::string& email,
                     const std::string& password) {
  const Status invalid = InvalidArgument("Invalid or expired reset token");
  if (!domain::IsWellFormedSecret(token)) return invalid;
  const std::string hash = domain::SecretHash(domain::NormalizeSecret(token));
  SV_ASSIGN_OR_RETURN(std::string password_hash, auth_internal::HashNewPassword(core, password));
  return core.db->Write([&](store::Connection& tx) -> Status {
    const int64_t now = core.Now();
    SV_ASSIGN_OR_RETURN(std::optional<ports::User> user, core.users->FindByEmail(tx, email));
    if (!user) return invalid;
    const auto status = domain::ParseAccountStatus(user->status);
    if (!status || !domain::CanResetPassword(*status)) return invalid;
    // Consumed atomically; a token of another account rolls back unconsumed.
    SV_ASSIGN_OR_RETURN(std::optional<std::string> owner,
                        core.email_tokens->Consume(tx, ports::kPasswordResetToken, hash, now));
    if (!owner || *owner != user->id) return invalid;
    // The new password advances the session revision: every earlier access
    // and refresh token is retired. The link came by mail: verified.
    SV_ASSIGN_OR_RETURN(bool updated, core.users->SetPassword(tx, user->id, password_hash, true, now));
    if (!updated) return invalid;
    SV_RETURN_IF_ERROR(core.sessions->RevokeAll(tx, user->id, now));
    return core.email_tokens->ConsumeAll(tx, user->id, ports::kPasswordResetToken, now);
  });
}

namespace {
Status MailNotConfigured() { return Unavailable("Email delivery is not configured"); }
}  // namespace

Result<VerificationSent> SendVerification(Core& core, const std::string& user_id) {
  VerificationSent out;
  SV_RETURN_IF_ERROR(core.db->Write([&](store::Connection& tx) -> Status {
    SV_ASSIGN_OR_RETURN(std::optional<ports::User> user, core.users->FindById(tx, user_id));
    if (!user) return NotFound("User not found");
    if (user->email_verified) {
      out.already_verified = true;
      return Status::Ok();
    }
    if (!MailConfigured(core)) return MailNotConfigured();
    out.masked_email = domain::MaskEmail(user->email);
    SV_ASSIGN_OR_RETURN(std::string token, IssueEmailToken(core, tx, user->id, ports::kVerifyEmailToken,
                                                           domain::kEmailVerificationTokenLifetimeMs));
    return EnqueueMail(core, tx, auth_internal::VerificationMail(core, user->email, token));
  }));
  return out;
}

Result<std::string> ResendVerification(Core& core, const std::string& email) {
  if (!MailConfigured(core)) return MailNotConfigured();
  SV_RETURN_IF_ERROR(core.db->Write([&](store::Connection& tx) -> Status {
    SV_ASSIGN_OR_RETURN(std::optional<ports::User> user, core.users->FindByEmail(tx, email));
    if (!user || user->email_verified || user->status != "active") return Status::Ok();
    SV_ASSIGN_OR_RETURN(std::string token, IssueEmailToken(core, tx, user->id, ports::kVerifyEmailToken,
                                                           domain::kEmailVerificationTokenLifetimeMs));
    return EnqueueMail(core, tx, auth_internal::VerificationMail(core, user->email, token));
  }));
  return domain::MaskEmail(email);
}

Status VerifyEmail(Core& core, std::string_view token) {
  const Status invalid = InvalidArgument("Invalid or expired verification token");
  if (!domain::IsWellFormedSecret(token)) return invalid;
  const std::string hash = domain::SecretHash(domain::NormalizeSecret(token));
  return core.db->Write([&](store::Connection& tx) -> Status {
    const int64_t now = core.Now();
    SV_ASSIGN_OR_RETURN(std::optional<std::string> user_id,
                        core.email_tokens->Consume(tx, ports::kVerifyEmailToken, hash, now));
    if (!user_id) return invalid;
    return core.users->MarkEmailVerified(tx, *user_id, now);
  });
}

}  // namespace service::app
