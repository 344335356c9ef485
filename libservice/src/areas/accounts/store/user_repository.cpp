#include "areas/accounts/ports/user_repository.h"
#include "areas/accounts/store/repositories.h"
#include "store/database.h"

namespace service::store {
namespace {

constexpr const char* kColumns =
    "id, email, name, avatar_url, password_hash, email_verified, status, session_revision, last_org_id, "
    "last_login_at, last_whats_new_at, created_at, updated_at, previous_login_at, first_session_id";

ports::User FromRow(const Rows& r, size_t i) {
  ports::User u;
  u.id = r.Str(i, 0);
  u.email = r.Str(i, 1);
  u.name = r.Str(i, 2);
  u.avatar_url = r.OptStr(i, 3);
  u.password_hash = r.OptStr(i, 4);
  u.email_verified = r.Bool(i, 5);
  u.status = r.Str(i, 6);
  u.session_revision = r.Int(i, 7);
  u.last_org_id = r.OptStr(i, 8);
  u.last_login_at = r.OptInt(i, 9);
  u.last_whats_new_at = r.OptInt(i, 10);
  u.created_at = r.Int(i, 11);
  u.updated_at = r.Int(i, 12);
  u.previous_login_at = r.OptInt(i, 13);
  u.first_session_id = r.OptStr(i, 14);
  return u;
}

Value OptInt(const std::optional<int64_t>& v) { return v ? Value(*v) : Value(nullptr); }

class SqlUserRepository final : public ports::UserRepository {
 public:
  Status Insert(ports::Tx& tx_tx, const ports::User& u) override {
    Connection& tx = Sql(tx_tx);
    return tx
        .Exec(std::string("INSERT INTO users (") + kColumns +
                  ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
              {u.id, u.email, u.name, OptText(u.avatar_url), OptText(u.password_hash), Bool(u.email_verified),
               u.status, u.session_revision, OptText(u.last_org_id), OptInt(u.last_login_at),
               OptInt(u.last_whats_new_at), u.created_at, u.updated_at, OptInt(u.previous_login_at),
               OptText(u.first_session_id)})
        .status();
  }

  Result<std::optional<ports::User>> FindById(ports::Tx& c_tx, const std::string& id) override {
    Connection& c = Sql(c_tx);
    return FindOne(c, "id", id);
  }

  Result<std::optional<ports::User>> FindByEmail(ports::Tx& c_tx, const std::string& email) override {
    Connection& c = Sql(c_tx);
    return FindOne(c, "email", email);
  }

  Result<bool> SetPassword(ports::Tx& tx_tx, const std::string& id, const std::string& password_hash,
                           bool verify_email, int64_t now_ms) override {
    Connection& tx = Sql(tx_tx);
    SV_ASSIGN_OR_RETURN(
        int64_t n,
        tx.Exec("UPDATE users SET password_hash = ?, status = 'active', "
                "email_verified = CASE WHEN ? = 1 THEN 1 ELSE email_verified END, "
                "session_revision = CASE WHEN session_revision < 0 THEN 1 ELSE session_revision + 1 END, "
                "updated_at = ? WHERE id = ?",
                {password_hash, Bool(verify_email), now_ms, id}));
    return n > 0;
  }

  Status MarkEmailVerified(ports::Tx& tx_tx, const std::string& id, int64_t now_ms) override {
    Connection& tx = Sql(tx_tx);
    return tx.Exec("UPDATE users SET email_verified = 1, updated_at = ? WHERE id = ?", {now_ms, id}).status();
  }

  Status RecordLogin(ports::Tx& tx_tx, const std::string& id, const std::string& org_id,
                     const std::string& session_id, int64_t now_ms) override {
    Connection& tx = Sql(tx_tx);
    return tx
        .Exec(
            "UPDATE users SET previous_login_at = last_login_at, last_login_at = ?, "
            "last_org_id = COALESCE(?, last_org_id), first_session_id = COALESCE(first_session_id, ?) "
            "WHERE id = ?",
            {now_ms, org_id.empty() ? Value(nullptr) : Value(org_id), session_id, id})
        .status();
  }

  Status SetLastOrg(ports::Tx& tx_tx, const std::string& id, const std::string& org_id, int64_t) override {
    Connection& tx = Sql(tx_tx);
    return tx.Exec("UPDATE users SET last_org_id = ? WHERE id = ?", {org_id, id}).status();
  }

  Status SetLastWhatsNew(ports::Tx& tx_tx, const std::string& id, int64_t now_ms) override {
    Connection& tx = Sql(tx_tx);
    return tx.Exec("UPDATE users SET last_whats_new_at = ? WHERE id = ?", {now_ms, id}).status();
  }

  Status ForgetLastOrg(ports::Tx& tx_tx, const std::string& org_id) override {
    Connection& tx = Sql(tx_tx);
    return tx.Exec("UPDATE users SET last_org_id = NULL WHERE last_org_id = ?", {org_id}).status();
  }

  Status Delete(ports::Tx& tx_tx, const std::string& id) override {
    Connection& tx = Sql(tx_tx);
    return tx.Exec("DELETE FROM users WHERE id = ?", {id}).status();
  }

 private:
  static Result<std::optional<ports::User>> FindOne(Connection& c, const char* column,
                                                    const std::string& value) {
    SV_ASSIGN_OR_RETURN(
        Rows r, c.Query(std::string("SELECT ") + kColumns + " FROM users WHERE " + column + " = ?", {value}));
    if (r.empty()) return std::optional<ports::User>();
    return std::optional<ports::User>(FromRow(r, 0));
  }
};

}  // namespace
}  // namespace service::store

namespace service::store {
std::unique_ptr<ports::UserRepository> NewSqlUserRepository() {
  return std::make_unique<store::SqlUserRepository>();
}
}  // namespace service::store
