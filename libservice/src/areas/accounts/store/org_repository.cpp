#include "areas/accounts/ports/org_repository.h"
#include "areas/accounts/store/repositories.h"
#include "store/database.h"

namespace service::store {
namespace {

class SqlOrgRepository final : public ports::OrgRepository {
 public:
  Status Insert(ports::Tx& tx_tx, const ports::Organization& o) override {
    Connection& tx = Sql(tx_tx);
    return tx
        .Exec(
            "INSERT INTO organizations (id, name, slug, plan, created_at, updated_at) VALUES (?, ?, ?, ?, ?, "
            "?)",
            {o.id, o.name, o.slug, o.plan, o.created_at, o.created_at})
        .status();
  }

  Result<std::optional<ports::Organization>> Find(ports::Tx& c_tx, const std::string& id) override {
    Connection& c = Sql(c_tx);
    SV_ASSIGN_OR_RETURN(
        Rows r, c.Query("SELECT id, name, slug, plan, created_at FROM organizations WHERE id = ?", {id}));
    if (r.empty()) return std::optional<ports::Organization>();
    ports::Organization o;
    o.id = r.Str(0, 0);
    o.name = r.Str(0, 1);
    o.slug = r.Str(0, 2);
    o.plan = r.Str(0, 3);
    o.created_at = r.Int(0, 4);
    return std::optional<ports::Organization>(std::move(o));
  }

  Result<bool> SlugTaken(ports::Tx& c_tx, const std::string& slug) override {
    Connection& c = Sql(c_tx);
    SV_ASSIGN_OR_RETURN(Rows r, c.Query("SELECT 1 FROM organizations WHERE slug = ?", {slug}));
    return !r.empty();
  }

  Result<int64_t> CountAll(ports::Tx& c_tx) override {
    Connection& c = Sql(c_tx);
    SV_ASSIGN_OR_RETURN(Rows r, c.Query("SELECT COUNT(*) FROM organizations"));
    return r.Int(0, 0);
  }

  Status Delete(ports::Tx& tx_tx, const std::string& id) override {
    Connection& tx = Sql(tx_tx);
    return tx.Exec("DELETE FROM organizations WHERE id = ?", {id}).status();
  }

  Result<bool> SetPlan(ports::Tx& tx_tx, const std::string& id, const std::string& plan,
                       int64_t now_ms) override {
    SV_ASSIGN_OR_RETURN(int64_t n,
                        Sql(tx_tx).Exec("UPDATE organizations SET plan = ?, updated_at = ? WHERE id = ?",
                                        {plan, now_ms, id}));
    return n > 0;
  }
};

ports::Membership MembershipFromRow(const Rows& r, size_t i) {
  ports::Membership m;
  m.org_id = r.Str(i, 0);
  m.user_id = r.Str(i, 1);
  m.role = r.Str(i, 2);
  m.invited_by = r.OptStr(i, 3);
  m.created_at = r.Int(i, 4);
  return m;
}

class SqlMembershipRepository final : public ports::MembershipRepository {
 public:
  Status Insert(ports::Tx& tx_tx, const ports::Membership& m) override {
    Connection& tx = Sql(tx_tx);
    return tx
        .Exec(
            "INSERT INTO memberships (org_id, user_id, role, invited_by, created_at, updated_at) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            {m.org_id, m.user_id, m.role, OptText(m.invited_by), m.created_at, m.created_at})
        .status();
  }

  Result<std::optional<ports::Membership>> Find(ports::Tx& c_tx, const std::string& org_id,
                                                const std::string& user_id) override {
    Connection& c = Sql(c_tx);
    SV_ASSIGN_OR_RETURN(Rows r,
                        c.Query("SELECT org_id, user_id, role, invited_by, created_at FROM memberships "
                                "WHERE org_id = ? AND user_id = ?",
                                {org_id, user_id}));
    if (r.empty()) return std::optional<ports::Membership>();
    return std::optional<ports::Membership>(MembershipFromRow(r, 0));
  }

  Result<std::optional<ports::Membership>> Lock(ports::Tx& tx_tx, const std::string& org_id,
                                                const std::string& user_id, int64_t now_ms) override {
    Connection& tx = Sql(tx_tx);
    SV_ASSIGN_OR_RETURN(Rows r,
                        tx.Query("UPDATE memberships SET updated_at = ? WHERE org_id = ? AND user_id = ? "
                                 "RETURNING org_id, user_id, role, invited_by, created_at",
                                 {now_ms, org_id, user_id}));
    if (r.empty()) return std::optional<ports::Membership>();
    return std::optional<ports::Membership>(MembershipFromRow(r, 0));
  }

  Result<std::vector<ports::UserOrg>> ListForUser(ports::Tx& c_tx, const std::string& user_id) override {
    Connection& c = Sql(c_tx);
    SV_ASSIGN_OR_RETURN(Rows r, c.Query("SELECT o.id, o.name, o.slug, o.plan, m.role, m.created_at "
                                        "FROM memberships m JOIN organizations o ON o.id = m.org_id "
                                        "WHERE m.user_id = ? ORDER BY m.created_at, o.id",
                                        {user_id}));
    std::vector<ports::UserOrg> out;
    for (size_t i = 0; i < r.size(); ++i) {
      out.push_back({r.Str(i, 0), r.Str(i, 1), r.Str(i, 2), r.Str(i, 3), r.Str(i, 4), r.Int(i, 5)});
    }
    return out;
  }

  Result<std::vector<ports::TeamMember>> ListTeam(ports::Tx& c_tx, const std::string& org_id) override {
    Connection& c = Sql(c_tx);
    SV_ASSIGN_OR_RETURN(
        Rows r,
        c.Query("SELECT u.id, u.email, u.name, u.avatar_url, m.role, u.status, m.created_at, "
                "u.last_login_at, (SELECT MAX(i.expires_at) FROM invitations i WHERE i.org_id = m.org_id "
                "AND i.user_id = m.user_id AND i.accepted_at IS NULL AND i.revoked_at IS NULL) "
                "FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.org_id = ? "
                "ORDER BY m.created_at, u.id",
                {org_id}));
    std::vector<ports::TeamMember> out;
    for (size_t i = 0; i < r.size(); ++i) {
      ports::TeamMember t;
      t.user_id = r.Str(i, 0);
      t.email = r.Str(i, 1);
      t.name = r.Str(i, 2);
      t.avatar_url = r.OptStr(i, 3);
      t.role = r.Str(i, 4);
      t.status = r.Str(i, 5);
      t.joined_at = r.Int(i, 6);
      t.last_login_at = r.OptInt(i, 7);
      t.invitation_expires_at = r.OptInt(i, 8);
      out.push_back(std::move(t));
    }
    return out;
  }

  Result<int64_t> Count(ports::Tx& c_tx, const std::string& org_id) override {
    Connection& c = Sql(c_tx);
    SV_ASSIGN_OR_RETURN(Rows r, c.Query("SELECT COUNT(*) FROM memberships WHERE org_id = ?", {org_id}));
    return r.Int(0, 0);
  }

  Result<int64_t> CountWithRole(ports::Tx& c_tx, const std::string& org_id,
                                const std::string& role) override {
    Connection& c = Sql(c_tx);
    SV_ASSIGN_OR_RETURN(
        Rows r, c.Query("SELECT COUNT(*) FROM memberships WHERE org_id = ? AND role = ?", {org_id, role}));
    return r.Int(0, 0);
  }

  Result<bool> UpdateRole(ports::Tx& tx_tx, const std::string& org_id, const std::string& user_id,
                          const std::string& role, int64_t now_ms) override {
    Connection& tx = Sql(tx_tx);
    SV_ASSIGN_OR_RETURN(
        int64_t n, tx.Exec("UPDATE memberships SET role = ?, updated_at = ? WHERE org_id = ? AND user_id = ?",
                           {role, now_ms, org_id, user_id}));
    return n > 0;
  }

  Result<bool> Remove(ports::Tx& tx_tx, const std::string& org_id, const std::string& user_id,
                      int64_t now_ms) override {
    Connection& tx = Sql(tx_tx);
    SV_ASSIGN_OR_RETURN(
        int64_t n, tx.Exec("DELETE FROM memberships WHERE org_id = ? AND user_id = ?", {org_id, user_id}));
    if (n == 0) return false;
    SV_RETURN_IF_ERROR(tx.Exec("UPDATE invitations SET revoked_at = ? WHERE org_id = ? AND user_id = ? AND "
                               "accepted_at IS NULL AND revoked_at IS NULL",
                               {now_ms, org_id, user_id})
                           .status());
    return true;
  }
};

}  // namespace
}  // namespace service::store

namespace service::store {
std::unique_ptr<ports::OrgRepository> NewSqlOrgRepository() {
  return std::make_unique<store::SqlOrgRepository>();
}
std::unique_ptr<ports::MembershipRepository> NewSqlMembershipRepository() {
  return std::make_unique<store::SqlMembershipRepository>();
}
}  // namespace service::store
