#include "areas/accounts/ports/email_token_repository.h"
#include "areas/accounts/ports/invitation_repository.h"
#include "areas/accounts/ports/session_repository.h"
#include "areas/accounts/ports/waitlist_repository.h"
#include "areas/accounts/store/repositories.h"
#include "store/database.h"

namespace service::store {
namespace {

class SqlSessionRepository final : public ports::SessionRepository {
 public:
  Status Insert(ports::Tx& tx_tx, const ports::RefreshToken& t) override {
    Connection& tx = Sql(tx_tx);
    return tx
        .Exec(
            "INSERT INTO refresh_tokens (id, user_id, org_id, token_hash, revision, expires_at, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            {t.id, t.user_id, t.org_id.empty() ? Value(nullptr) : Value(t.org_id), t.token_hash, t.revision,
             t.expires_at, t.created_at})
        .status();
  }

  Result<std::optional<ports::RefreshToken>> Consume(ports::Tx& tx_tx, const std::string& token_hash,
                                                     int64_t now_ms) override {
    Connection& tx = Sql(tx_tx);
    SV_ASSIGN_OR_RETURN(
        Rows r, tx.Query("UPDATE refresh_tokens SET used_at = ? WHERE token_hash = ? AND used_at IS NULL AND "
                         "revoked_at IS NULL AND expires_at > ? "
                         "RETURNING id, user_id, org_id, token_hash, revision, expires_at, created_at",
                         {now_ms, token_hash, now_ms}));
    if (r.empty()) return std::optional<ports::RefreshToken>();
    ports::RefreshToken t;
    t.id = r.Str(0, 0);
    t.user_id = r.Str(0, 1);
    t.org_id = r.Str(0, 2);
    t.token_hash = r.Str(0, 3);
    t.revision = r.Int(0, 4);
    t.expires_at = r.Int(0, 5);
    t.created_at = r.Int(0, 6);
    return std::optional<ports::RefreshToken>(std::move(t));
  }

  Status RevokeAll(ports::Tx& tx_tx, const std::string& user_id, int64_t now_ms) override {
    Connection& tx = Sql(tx_tx);
    return tx
        .Exec(
            "UPDATE refresh_tokens SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL AND "
            "used_at IS NULL",
            {now_ms, user_id})
        .status();
  }
};

class SqlEmailTokenRepository final : public ports::EmailTokenRepository {
 public:
  Status Insert(ports::Tx& tx_tx, const ports::EmailToken& t) override {
    Connection& tx = Sql(tx_tx);
    return tx
        .Exec(
            "INSERT INTO email_tokens (id, user_id, kind, token_hash, expires_at, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            {t.id, t.user_id, t.kind, t.token_hash, t.expires_at, t.created_at})
        .status();
  }

  Result<std::optional<std::string>> Consume(ports::Tx& tx_tx, std::string_view kind,
                                             const std::string& token_hash, int64_t now_ms) override {
    Connection& tx = Sql(tx_tx);
    SV_ASSIGN_OR_RETURN(Rows r, tx.Query("UPDATE email_tokens SET consumed_at = ? WHERE kind = ? AND "
                                         "token_hash = ? AND consumed_at IS NULL AND expires_at > ? "
                                         "RETURNING user_id",
                                         {now_ms, std::string(kind), token_hash, now_ms}));
    if (r.empty()) return std::optional<std::string>();
    return std::optional<std::string>(r.Str(0, 0));
  }

  Status ConsumeAll(ports::Tx& tx_tx, const std::string& user_id, std::string_view kind,
                    int64_t now_ms) override {
    Connection& tx = Sql(tx_tx);
    return tx
        .Exec(
            "UPDATE email_tokens SET consumed_at = ? WHERE user_id = ? AND kind = ? AND consumed_at IS NULL",
            {now_ms, user_id, std::string(kind)})
        .status();
  }
};

constexpr const char* kInvitationColumns =
    "i.id, i.org_id, i.user_id, i.email, i.role, i.token_hash, i.invited_by, i.expires_at, i.created_at";

ports::Invitation InvitationFromRow(const Rows& r, size_t i) {
  ports::Invitation v;
  v.id = r.Str(i, 0);
  v.org_id = r.Str(i, 1);
  v.user_id = r.Str(i, 2);
  v.email = r.Str(i, 3);
  v.role = r.Str(i, 4);
  v.token_hash = r.Str(i, 5);
  v.invited_by = r.OptStr(i, 6);
  v.expires_at = r.Int(i, 7);
  v.created_at = r.Int(i, 8);
  return v;
}

class SqlInvitationRepository final : public ports::InvitationRepository {
 public:
  Status Insert(ports::Tx& tx_tx, const ports::Invitation& v) override {
    Connection& tx = Sql(tx_tx);
    return tx
        .Exec(
            "INSERT INTO invitations (id, org_id, user_id, email, role, token_hash, invited_by, expires_at, "
            "created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            {v.id, v.org_id, v.user_id, v.email, v.role, v.token_hash, OptText(v.invited_by), v.expires_at,
             v.created_at})
        .status();
  }

  Result<std::optional<ports::Invitation>> FindOpen(ports::Tx& c_tx, const std::string& token_hash,
                                                    int64_t now_ms) override {
    Connection& c = Sql(c_tx);
    SV_ASSIGN_OR_RETURN(Rows r,
                        c.Query(std::string("SELECT ") + kInvitationColumns +
                                    ", o.name FROM invitations i JOIN organizations o ON o.id = i.org_id "
                                    "WHERE i.token_hash = ? AND i.accepted_at IS NULL AND "
                                    "i.revoked_at IS NULL AND i.expires_at > ?",
                                {token_hash, now_ms}));
    if (r.empty()) return std::optional<ports::Invitation>();
    ports::Invitation v = InvitationFromRow(r, 0);
    v.org_name = r.Str(0, 9);
    return std::optional<ports::Invitation>(std::move(v));
  }

  Result<std::optional<ports::Invitation>> Accept(ports::Tx& tx_tx, const std::string& token_hash,
                                                  const std::string& email, int64_t now_ms) override {
    Connection& tx = Sql(tx_tx);
    SV_ASSIGN_OR_RETURN(Rows r,
                        tx.Query("UPDATE invitations SET accepted_at = ? WHERE token_hash = ? AND "
                                 "email = ? AND accepted_at IS NULL AND revoked_at IS NULL AND "
                                 "expires_at > ? RETURNING id, org_id, user_id, email, role, token_hash, "
                                 "invited_by, expires_at, created_at",
                                 {now_ms, token_hash, email, now_ms}));
    if (r.empty()) return std::optional<ports::Invitation>();
    ports::Invitation v = InvitationFromRow(r, 0);
    SV_ASSIGN_OR_RETURN(Rows o, tx.Query("SELECT name FROM organizations WHERE id = ?", {v.org_id}));
    if (!o.empty()) v.org_name = o.Str(0, 0);
    return std::optional<ports::Invitation>(std::move(v));
  }

  Status RevokeOpen(ports::Tx& tx_tx, const std::string& org_id, const std::string& user_id,
                    int64_t now_ms) override {
    Connection& tx = Sql(tx_tx);
    return tx
        .Exec(
            "UPDATE invitations SET revoked_at = ? WHERE org_id = ? AND user_id = ? AND accepted_at IS NULL "
            "AND revoked_at IS NULL",
            {now_ms, org_id, user_id})
        .status();
  }
};

constexpr const char* kWaitlistColumns =
    "id, email, name, org_name, use_case, status, approval_token_hash, approval_expires_at, created_at, "
    "updated_at, target_org_id, admin_note";

ports::WaitlistEntry WaitlistFromRow(const Rows& r, size_t i) {
  ports::WaitlistEntry e;
  e.id = r.Str(i, 0);
  e.email = r.Str(i, 1);
  e.name = r.Str(i, 2);
  e.org_name = r.Str(i, 3);
  e.use_case = r.OptStr(i, 4);
  e.status = r.Str(i, 5);
  e.approval_token_hash = r.OptStr(i, 6);
  e.approval_expires_at = r.OptInt(i, 7);
  e.created_at = r.Int(i, 8);
  e.updated_at = r.Int(i, 9);
  e.target_org_id = r.OptStr(i, 10);
  e.admin_note = r.OptStr(i, 11);
  return e;
}

Result<std::optional<ports::WaitlistEntry>> FirstEntry(Result<Rows> rows) {
  if (!rows.ok()) return rows.status();
  if (rows->empty()) return std::optional<ports::WaitlistEntry>();
  return std::optional<ports::WaitlistEntry>(WaitlistFromRow(*rows, 0));
}

Value OptInt(std::optional<int64_t> v) { return v ? Value(*v) : Value(nullptr); }

class SqlWaitlistRepository final : public ports::WaitlistRepository {
 public:
  Status Insert(ports::Tx& tx_tx, const ports::WaitlistEntry& e) override {
    Connection& tx = Sql(tx_tx);
    return tx
        .Exec(std::string("INSERT INTO waitlist (") + kWaitlistColumns +
                  ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
              {e.id, e.email, e.name, e.org_name, OptText(e.use_case), e.status,
               OptText(e.approval_token_hash), OptInt(e.approval_expires_at), e.created_at, e.updated_at,
               OptText(e.target_org_id), OptText(e.admin_note)})
        .status();
  }

  Result<std::optional<ports::WaitlistEntry>> FindByEmail(ports::Tx& c_tx,
                                                          const std::string& email) override {
    Connection& c = Sql(c_tx);
    return FirstEntry(
        c.Query(std::string("SELECT ") + kWaitlistColumns + " FROM waitlist WHERE email = ?", {email}));
  }

  Result<std::optional<ports::WaitlistEntry>> FindById(ports::Tx& c_tx, const std::string& id) override {
    Connection& c = Sql(c_tx);
    return FirstEntry(
        c.Query(std::string("SELECT ") + kWaitlistColumns + " FROM waitlist WHERE id = ?", {id}));
  }

  Status UpdateDetails(ports::Tx& tx_tx, const ports::WaitlistEntry& e, int64_t now_ms) override {
    Connection& tx = Sql(tx_tx);
    return tx
        .Exec(
            "UPDATE waitlist SET name = ?, org_name = ?, use_case = ?, status = ?, updated_at = ? WHERE id = "
            "?",
            {e.name, e.org_name, OptText(e.use_case), e.status, now_ms, e.id})
        .status();
  }

  Status SetStatus(ports::Tx& tx_tx, const std::string& id, const std::string& status,
                   const std::optional<std::string>& token_hash, std::optional<int64_t> expires_at,
                   int64_t now_ms) override {
    Connection& tx = Sql(tx_tx);
    return tx
        .Exec(
            "UPDATE waitlist SET status = ?, approval_token_hash = ?, approval_expires_at = ?, updated_at = "
            "? "
            "WHERE id = ?",
            {status, OptText(token_hash), OptInt(expires_at), now_ms, id})
        .status();
  }

  Result<std::optional<ports::WaitlistEntry>> FindByApprovalToken(ports::Tx& c_tx,
                                                                  const std::string& token_hash,
                                                                  int64_t now_ms) override {
    Connection& c = Sql(c_tx);
    return FirstEntry(c.Query(std::string("SELECT ") + kWaitlistColumns +
                                  " FROM waitlist WHERE approval_token_hash = ? AND status = 'approved' AND "
                                  "approval_expires_at > ?",
                              {token_hash, now_ms}));
  }

  Result<std::optional<ports::WaitlistEntry>> Complete(ports::Tx& tx_tx, const std::string& token_hash,
                                                       int64_t now_ms) override {
    Connection& tx = Sql(tx_tx);
    return FirstEntry(
        tx.Query(std::string("UPDATE waitlist SET status = 'completed', approval_token_hash = NULL, "
                             "approval_expires_at = NULL, updated_at = ? WHERE "
                             "approval_token_hash = ? AND status = 'approved' AND "
                             "approval_expires_at > ? RETURNING ") +
                     kWaitlistColumns,
                 {now_ms, token_hash, now_ms}));
  }

  Status DeleteByEmail(ports::Tx& tx_tx, const std::string& email) override {
    Connection& tx = Sql(tx_tx);
    return tx.Exec("DELETE FROM waitlist WHERE email = ?", {email}).status();
  }

  Status SetNote(ports::Tx& tx_tx, const std::string& id, const std::optional<std::string>& note,
                 int64_t now_ms) override {
    return Sql(tx_tx)
        .Exec("UPDATE waitlist SET admin_note = ?, updated_at = ? WHERE id = ?", {OptText(note), now_ms, id})
        .status();
  }
};

}  // namespace
}  // namespace service::store

namespace service::store {
std::unique_ptr<ports::SessionRepository> NewSqlSessionRepository() {
  return std::make_unique<store::SqlSessionRepository>();
}
std::unique_ptr<ports::EmailTokenRepository> NewSqlEmailTokenRepository() {
  return std::make_unique<store::SqlEmailTokenRepository>();
}
std::unique_ptr<ports::InvitationRepository> NewSqlInvitationRepository() {
  return std::make_unique<store::SqlInvitationRepository>();
}
std::unique_ptr<ports::WaitlistRepository> NewSqlWaitlistRepository() {
  return std::make_unique<store::SqlWaitlistRepository>();
}
}  // namespace service::store
