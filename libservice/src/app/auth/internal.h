// Helpers shared by the account use cases (app/auth, app/team): issuing
// sessions and emailed tokens inside a transaction, creating workspaces,
// and the texts of the account mails. Not for other areas.
//
// Thread-safety: stateless functions. Functions taking `tx` REQUIRE a
// connection inside Database::Write.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "app/auth/auth.h"
#include "app/core.h"
#include "app/mail/mail.h"
#include "store/database.h"

namespace service::app::auth_internal {

// Signs an access token and a refresh token for the user, and stores the
// refresh token's hash.
Result<SessionTokens> IssueSession(Core& core, store::Connection& tx, const std::string& user_id,
                                   const std::string& org_id, int64_t revision);

// Issues an emailed token of `kind` for the user (earlier ones of the kind
// are consumed) and returns the secret to put in the mail.
Result<std::string> IssueEmailToken(Core& core, store::Connection& tx, const std::string& user_id,
                                    std::string_view kind, int64_t lifetime_ms);

// What a new workspace is made of.
struct WorkspaceSeed {
  std::string email;  // normalised
  std::string name;
  std::string org_name;
  std::string password_hash;
  bool email_verified = false;
};

// Inserts user, organization (free plan, unique slug), admin membership,
// default project, first live capture key and the session. kConflict
// "Email already registered" for a taken email; kConflict with code
// "SLUG_TAKEN" when another request took the chosen slug meanwhile (the
// caller retries the transaction).
Status InsertWorkspace(Core& core, store::Connection& tx, const WorkspaceSeed& seed, Workspace* out);
inline constexpr std::string_view kSlugTakenCode = "SLUG_TAKEN";

// Hashes a password with the configured cost and a fresh salt.
Result<std::string> HashNewPassword(Core& core, std::string_view password);

// True for a status that means the store (not the caller) failed.
bool IsStoreFailure(const Status& s);

// The account mails. Links are built from SERVICE_PUBLIC_URL; secrets travel
// in the URL fragment (never sent to a server or kept in its logs) except
// the data export link, which is a direct download.
MailMessage VerificationMail(const Core& core, const std::string& to, const std::string& token);
MailMessage PasswordResetMail(const Core& core, const std::string& to, const std::string& token);
MailMessage InvitationMail(const Core& core, const std::string& to, const std::string& org_name,
                           const std::string& inviter, const std::string& token, int64_t expires_at);
MailMessage AddedToOrgMail(const Core& core, const std::string& to, const std::string& org_name,
                           const std::string& inviter);
MailMessage WaitlistReceiptMail(const Core& core, const std::string& to, const std::string& name);
MailMessage WaitlistApprovalMail(const Core& core, const std::string& to, const std::string& name,
                                 const std::string& token);
MailMessage DataExportMail(const Core& core, const std::string& to, const std::string& token);
MailMessage AccountDeletionMail(const Core& core, const std::string& to, const std::string& token);

}  // namespace service::app::auth_internal
