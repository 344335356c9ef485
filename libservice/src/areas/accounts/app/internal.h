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

#include "areas/accounts/app/accounts.h"
#include "areas/mail/app/mail.h"
#include "ports/transaction.h"

namespace service::app::accounts::internal {

// Signs an access token and a refresh token for the user, both naming the
// sign-in `session_id` (claim `sid`), and stores the refresh token's hash.
Result<SessionTokens> IssueSession(const AccountsDeps& deps, ports::Tx& tx, const std::string& user_id,
                                   const std::string& org_id, int64_t revision,
                                   const std::string& session_id);

// Issues an emailed token of `kind` for the user (earlier ones of the kind
// are consumed) and returns the secret to put in the mail.
Result<std::string> IssueEmailToken(const AccountsDeps& deps, ports::Tx& tx, const std::string& user_id,
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
Status InsertWorkspace(const AccountsDeps& deps, ports::Tx& tx, const WorkspaceSeed& seed, Workspace* out);
inline constexpr std::string_view kSlugTakenCode = "SLUG_TAKEN";

// Hashes a password with the configured cost and a fresh salt.
Result<std::string> HashNewPassword(const AccountsDeps& deps, std::string_view password);

// True for a status that means the store (not the caller) failed.
bool IsStoreFailure(const Status& s);

// The account mails. Links are built from SERVICE_PUBLIC_URL; secrets travel
// in the URL fragment (never sent to a server or kept in its logs) except
// the data export link, which is a direct download.
app::mail::MailMessage VerificationMail(const AccountsDeps& deps, const std::string& to,
                                        const std::string& token);
app::mail::MailMessage PasswordResetMail(const AccountsDeps& deps, const std::string& to,
                                         const std::string& token);
app::mail::MailMessage InvitationMail(const AccountsDeps& deps, const std::string& to,
                                      const std::string& org_name, const std::string& inviter,
                                      const std::string& token, int64_t expires_at);
app::mail::MailMessage AddedToOrgMail(const AccountsDeps& deps, const std::string& to,
                                      const std::string& org_name, const std::string& inviter);
app::mail::MailMessage WaitlistReceiptMail(const AccountsDeps& deps, const std::string& to,
                                           const std::string& name);
app::mail::MailMessage WaitlistApprovalMail(const AccountsDeps& deps, const std::string& to,
                                            const std::string& name, const std::string& token);
app::mail::MailMessage DataExportMail(const AccountsDeps& deps, const std::string& to,
                                      const std::string& token);
app::mail::MailMessage AccountDeletionMail(const AccountsDeps& deps, const std::string& to,
                                           const std::string& token);

}  // namespace service::app::accounts::internal
