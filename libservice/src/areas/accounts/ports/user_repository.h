// UserRepository: console accounts (Spec 1 "User and membership", account
// states). Emails are stored normalised (domain::accounts::NormalizeEmail) and unique.
//
// Methods taking `tx` run inside the caller's Database::Write (REQUIRES), so
// they compose with other writes in one transaction. Changes of status,
// email or password advance `session_revision` in the same statement, which
// retires every earlier token; profile edits do not.
//
// Thread-safety: stateless; safe from any thread. Failure: driver errors as
// Status (kConflict for a taken email).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "ports/transaction.h"
#include "service/status.h"

namespace service::ports {

struct User {
  std::string id;
  std::string email;
  std::string name;
  std::optional<std::string> avatar_url;
  std::optional<std::string> password_hash;  // absent: invited, no password yet
  bool email_verified = false;
  std::string status = "active";  // "pending", "active", "deactivated"
  int64_t session_revision = 0;
  std::optional<std::string> last_org_id;
  std::optional<int64_t> last_login_at;
  std::optional<int64_t> previous_login_at;  // the sign-in before last_login_at
  // The session id (token claim `sid`) of the account's first sign-in; ""
  // for accounts that signed in before sign-ins had ids; absent before the
  // first sign-in (an invited account).
  std::optional<std::string> first_session_id;
  std::optional<int64_t> last_whats_new_at;
  int64_t created_at = 0;
  int64_t updated_at = 0;
};

class UserRepository {
 public:
  UserRepository() = default;
  UserRepository(const UserRepository&) = delete;
  UserRepository& operator=(const UserRepository&) = delete;
  virtual ~UserRepository() = default;

  // A taken email: kConflict.
  virtual Status Insert(Tx& tx, const User& user) = 0;
  virtual Result<std::optional<User>> FindById(Tx& c, const std::string& id) = 0;
  // REQUIRES: `email` normalised.
  virtual Result<std::optional<User>> FindByEmail(Tx& c, const std::string& email) = 0;

  // Sets the password and makes the account active, advancing the session
  // revision (every earlier token is retired). `verify_email` also marks the
  // address verified (the caller proved it owns the mailbox). Returns false
  // when no such user exists.
  virtual Result<bool> SetPassword(Tx& tx, const std::string& id, const std::string& password_hash,
                                   bool verify_email, int64_t now_ms) = 0;
  virtual Status MarkEmailVerified(Tx& tx, const std::string& id, int64_t now_ms) = 0;
  // A sign-in: previous_login_at = last_login_at, last_login_at = now, the
  // organization the session was opened in, and `session_id` as the first
  // session's id when the account has none yet.
  virtual Status RecordLogin(Tx& tx, const std::string& id, const std::string& org_id,
                             const std::string& session_id, int64_t now_ms) = 0;
  virtual Status SetLastOrg(Tx& tx, const std::string& id, const std::string& org_id, int64_t now_ms) = 0;
  virtual Status SetLastWhatsNew(Tx& tx, const std::string& id, int64_t now_ms) = 0;
  // Deletes the account; memberships, sessions, emailed tokens and
  // invitations go with it (foreign keys cascade).
  virtual Status Delete(Tx& tx, const std::string& id) = 0;
  // Clears last_org_id where it names `org_id` (before the organization is
  // deleted).
  virtual Status ForgetLastOrg(Tx& tx, const std::string& org_id) = 0;
};

}  // namespace service::ports
