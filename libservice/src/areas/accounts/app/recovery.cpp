// Password recovery and email verification.
#include "areas/accounts/app/accounts.h"
#include "areas/accounts/app/internal.h"
#include "areas/accounts/domain/account.h"
#include "areas/accounts/domain/secrets.h"

namespace service::app::accounts {

using internal::IssueEmailToken;

Result<std::optional<std::string>> ForgotPassword(const AccountsDeps& deps, const std::string& email) {
  std::optional<ports::User> user;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& c) -> Status {
    SV_ASSIGN_OR_RETURN(user, deps.users->FindByEmail(c, email));
    return Status::Ok();
  }));
  const auto status = user ? domain::accounts::ParseAccountStatus(user->status) : std::nullopt;
  if (!user || !status || !domain::accounts::CanResetPassword(*status)) return std::optional<std::string>();
  std::string token;
  SV_RETURN_IF_ERROR(deps.db->Write([&](ports::Tx& tx) -> Status {
    SV_ASSIGN_OR_RETURN(token, IssueEmailToken(deps, tx, user->id, ports::kPasswordResetToken,
                                               domain::accounts::kPasswordResetTokenLifetimeMs));
    if (!deps.mail->configured()) return Status::Ok();
    return deps.mail->Enqueue(tx, internal::PasswordResetMail(deps, user->email, token));
  }));
  return std::optional<std::string>(token);
}

Status ResetPassword(const AccountsDeps& deps, std::string_view token, const std::string& email,
                     const std::string& password) {
  const Status invalid = InvalidArgument("Invalid or expired reset token");
  if (!domain::accounts::IsWellFormedSecret(token)) return invalid;
  const std::string hash = domain::accounts::SecretHash(domain::accounts::NormalizeSecret(token));
  SV_ASSIGN_OR_RETURN(std::string password_hash, internal::HashNewPassword(deps, password));
  return deps.db->Write([&](ports::Tx& tx) -> Status {
    const int64_t now = deps.Now();
    SV_ASSIGN_OR_RETURN(std::optional<ports::User> user, deps.users->FindByEmail(tx, email));
    if (!user) return invalid;
    const auto status = domain::accounts::ParseAccountStatus(user->status);
    if (!status || !domain::accounts::CanResetPassword(*status)) return invalid;
    // Consumed atomically; a token of another account rolls back unconsumed.
    SV_ASSIGN_OR_RETURN(std::optional<std::string> owner,
                        deps.email_tokens->Consume(tx, ports::kPasswordResetToken, hash, now));
    if (!owner || *owner != user->id) return invalid;
    // The new password advances the session revision: every earlier access
    // and refresh token is retired. The link came by mail: verified.
    SV_ASSIGN_OR_RETURN(bool updated, deps.users->SetPassword(tx, user->id, password_hash, true, now));
    if (!updated) return invalid;
    SV_RETURN_IF_ERROR(deps.sessions->RevokeAll(tx, user->id, now));
    return deps.email_tokens->ConsumeAll(tx, user->id, ports::kPasswordResetToken, now);
  });
}

namespace {
Status MailNotConfigured() { return Status::Public(Code::kUnavailable, "Email delivery is not configured"); }
}  // namespace

Result<VerificationSent> SendVerification(const AccountsDeps& deps, const std::string& user_id) {
  VerificationSent out;
  SV_RETURN_IF_ERROR(deps.db->Write([&](ports::Tx& tx) -> Status {
    SV_ASSIGN_OR_RETURN(std::optional<ports::User> user, deps.users->FindById(tx, user_id));
    if (!user) return NotFound("User not found");
    if (user->email_verified) {
      out.already_verified = true;
      return Status::Ok();
    }
    if (!deps.mail->configured()) return MailNotConfigured();
    out.masked_email = domain::accounts::MaskEmail(user->email);
    SV_ASSIGN_OR_RETURN(std::string token,
                        IssueEmailToken(deps, tx, user->id, ports::kVerifyEmailToken,
                                        domain::accounts::kEmailVerificationTokenLifetimeMs));
    return deps.mail->Enqueue(tx, internal::VerificationMail(deps, user->email, token));
  }));
  return out;
}

Result<std::string> ResendVerification(const AccountsDeps& deps, const std::string& email) {
  if (!deps.mail->configured()) return MailNotConfigured();
  SV_RETURN_IF_ERROR(deps.db->Write([&](ports::Tx& tx) -> Status {
    SV_ASSIGN_OR_RETURN(std::optional<ports::User> user, deps.users->FindByEmail(tx, email));
    if (!user || user->email_verified || user->status != "active") return Status::Ok();
    SV_ASSIGN_OR_RETURN(std::string token,
                        IssueEmailToken(deps, tx, user->id, ports::kVerifyEmailToken,
                                        domain::accounts::kEmailVerificationTokenLifetimeMs));
    return deps.mail->Enqueue(tx, internal::VerificationMail(deps, user->email, token));
  }));
  return domain::accounts::MaskEmail(email);
}

Status VerifyEmail(const AccountsDeps& deps, std::string_view token) {
  const Status invalid = InvalidArgument("Invalid or expired verification token");
  if (!domain::accounts::IsWellFormedSecret(token)) return invalid;
  const std::string hash = domain::accounts::SecretHash(domain::accounts::NormalizeSecret(token));
  return deps.db->Write([&](ports::Tx& tx) -> Status {
    const int64_t now = deps.Now();
    SV_ASSIGN_OR_RETURN(std::optional<std::string> user_id,
                        deps.email_tokens->Consume(tx, ports::kVerifyEmailToken, hash, now));
    if (!user_id) return invalid;
    return deps.users->MarkEmailVerified(tx, *user_id, now);
  });
}

}  // namespace service::app::accounts
