// SQL behind ports::AgentTokenRepository. Scopes are one text column (names
// separated by single spaces); grants a table of their own.
#include <map>

#include "areas/agent_tokens/ports/agent_token_repository.h"
#include "areas/agent_tokens/store/repositories.h"
#include "store/database.h"
#include "util/strings.h"

namespace service::store {
namespace {

constexpr std::string_view kTokenColumns =
    "t.id, t.org_id, t.created_by, t.name, t.prefix, t.token_hash, t.scopes, t.expires_at, "
    "t.access_revision, t.created_at, t.revoked_at, t.last_used_at";
constexpr size_t kTokenColumnCount = 12;

std::string JoinScopes(const std::vector<std::string>& scopes) {
  std::string out;
  for (const std::string& s : scopes) {
    if (!out.empty()) out += ' ';
    out += s;
  }
  return out;
}

std::vector<std::string> SplitScopes(const std::string& text) {
  std::vector<std::string> out;
  for (std::string& s : util::Split(text, ' ')) {
    if (!s.empty()) out.push_back(std::move(s));
  }
  return out;
}

ports::AgentToken TokenAt(const Rows& r, size_t i) {
  ports::AgentToken t;
  t.id = r.Str(i, 0);
  t.org_id = r.Str(i, 1);
  t.created_by = r.Str(i, 2);
  t.name = r.Str(i, 3);
  t.prefix = r.Str(i, 4);
  t.token_hash = r.Str(i, 5);
  t.scopes = SplitScopes(r.Str(i, 6));
  t.expires_at = r.Int(i, 7);
  t.access_revision = r.Str(i, 8);
  t.created_at = r.Int(i, 9);
  t.revoked_at = r.OptInt(i, 10);
  t.last_used_at = r.OptInt(i, 11);
  return t;
}

Status InsertGrants(Connection& c, const ports::AgentToken& t) {
  for (const domain::agent_tokens::Grant& g : t.grants) {
    SV_RETURN_IF_ERROR(
        c.Exec("INSERT INTO agent_token_grants (token_id, project_id, expires_at) VALUES (?, ?, ?)",
               {t.id, g.project_id, g.expires_at ? Value(*g.expires_at) : Null()})
            .status());
  }
  return Status::Ok();
}

// Fills the grants of `tokens` (one query for all of them).
Status LoadGrants(Connection& c, std::vector<ports::AgentToken*> tokens) {
  if (tokens.empty()) return Status::Ok();
  std::map<std::string, ports::AgentToken*> by_id;
  std::string sql = "SELECT token_id, project_id, expires_at FROM agent_token_grants WHERE token_id IN (";
  std::vector<Value> params;
  for (ports::AgentToken* t : tokens) {
    sql += params.empty() ? "?" : ", ?";
    params.emplace_back(t->id);
    by_id[t->id] = t;
  }
  sql += ") ORDER BY token_id, project_id";
  SV_ASSIGN_OR_RETURN(Rows r, c.Query(sql, params));
  for (size_t i = 0; i < r.size(); ++i) {
    auto it = by_id.find(r.Str(i, 0));
    if (it == by_id.end()) continue;
    it->second->grants.push_back(domain::agent_tokens::Grant{r.Str(i, 1), r.OptInt(i, 2)});
  }
  return Status::Ok();
}

class SqlAgentTokenRepository final : public ports::AgentTokenRepository {
 public:
  Status Insert(ports::Tx& tx, const ports::AgentToken& t) override {
    Connection& c = Sql(tx);
    SV_RETURN_IF_ERROR(
        c.Exec("INSERT INTO agent_tokens (id, org_id, created_by, name, prefix, token_hash, scopes, "
               "expires_at, "
               "access_revision, created_at, revoked_at, last_used_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
               "?, ?)",
               {t.id, t.org_id, t.created_by, t.name, t.prefix, t.token_hash, JoinScopes(t.scopes),
                t.expires_at, t.access_revision, t.created_at, t.revoked_at ? Value(*t.revoked_at) : Null(),
                t.last_used_at ? Value(*t.last_used_at) : Null()})
            .status());
    return InsertGrants(c, t);
  }

  Result<std::vector<ports::AgentToken>> List(ports::Tx& tx, const std::string& org_id) override {
    Connection& c = Sql(tx);
    SV_ASSIGN_OR_RETURN(Rows r, c.Query(std::string("SELECT ") + std::string(kTokenColumns) +
                                            " FROM agent_tokens t WHERE t.org_id = ? "
                                            "ORDER BY t.created_at DESC, t.id DESC",
                                        {org_id}));
    std::vector<ports::AgentToken> out;
    out.reserve(r.size());
    for (size_t i = 0; i < r.size(); ++i) out.push_back(TokenAt(r, i));
    std::vector<ports::AgentToken*> all;
    for (ports::AgentToken& t : out) all.push_back(&t);
    SV_RETURN_IF_ERROR(LoadGrants(c, all));
    return out;
  }

  Result<std::optional<ports::AgentToken>> Find(ports::Tx& tx, const std::string& org_id,
                                                const std::string& id) override {
    Connection& c = Sql(tx);
    SV_ASSIGN_OR_RETURN(Rows r, c.Query(std::string("SELECT ") + std::string(kTokenColumns) +
                                            " FROM agent_tokens t WHERE t.org_id = ? AND t.id = ?",
                                        {org_id, id}));
    if (r.empty()) return std::optional<ports::AgentToken>();
    ports::AgentToken t = TokenAt(r, 0);
    SV_RETURN_IF_ERROR(LoadGrants(c, {&t}));
    return std::optional<ports::AgentToken>(std::move(t));
  }

  Result<bool> Update(ports::Tx& tx, const ports::AgentToken& t,
                      const std::string& expected_revision) override {
    Connection& c = Sql(tx);
    SV_ASSIGN_OR_RETURN(
        int64_t n, c.Exec("UPDATE agent_tokens SET name = ?, scopes = ?, expires_at = ?, access_revision = ? "
                          "WHERE id = ? AND org_id = ? AND access_revision = ? AND revoked_at IS NULL",
                          {t.name, JoinScopes(t.scopes), t.expires_at, t.access_revision, t.id, t.org_id,
                           expected_revision}));
    if (n == 0) return false;
    SV_RETURN_IF_ERROR(c.Exec("DELETE FROM agent_token_grants WHERE token_id = ?", {t.id}).status());
    SV_RETURN_IF_ERROR(InsertGrants(c, t));
    return true;
  }

  Result<bool> Revoke(ports::Tx& tx, const std::string& org_id, const std::string& id, int64_t at,
                      const std::string& new_revision) override {
    SV_ASSIGN_OR_RETURN(int64_t n, Sql(tx).Exec("UPDATE agent_tokens SET revoked_at = ?, access_revision = ? "
                                                "WHERE org_id = ? AND id = ? AND revoked_at IS NULL",
                                                {at, new_revision, org_id, id}));
    return n > 0;
  }

  Result<std::optional<ports::AgentTokenAuth>> FindForAuth(ports::Tx& tx,
                                                           const std::string& token_hash) override {
    Connection& c = Sql(tx);
    SV_ASSIGN_OR_RETURN(Rows r, c.Query(std::string("SELECT ") + std::string(kTokenColumns) +
                                            ", u.email, u.status, m.role FROM agent_tokens t "
                                            "JOIN users u ON u.id = t.created_by "
                                            "LEFT JOIN memberships m ON m.org_id = t.org_id AND m.user_id = "
                                            "t.created_by WHERE t.token_hash = ?",
                                        {token_hash}));
    if (r.empty()) return std::optional<ports::AgentTokenAuth>();
    ports::AgentTokenAuth a;
    a.token = TokenAt(r, 0);
    a.creator_email = r.Str(0, kTokenColumnCount);
    a.creator_status = r.Str(0, kTokenColumnCount + 1);
    a.creator_role = r.OptStr(0, kTokenColumnCount + 2);
    SV_RETURN_IF_ERROR(LoadGrants(c, {&a.token}));
    return std::optional<ports::AgentTokenAuth>(std::move(a));
  }

  Status TouchLastUsed(ports::Tx& tx, const std::vector<std::pair<std::string, int64_t>>& uses) override {
    Connection& c = Sql(tx);
    for (const auto& [id, at] : uses) {
      SV_RETURN_IF_ERROR(c.Exec("UPDATE agent_tokens SET last_used_at = ? WHERE id = ? AND "
                                "(last_used_at IS NULL OR last_used_at < ?)",
                                {at, id, at})
                             .status());
    }
    return Status::Ok();
  }

  Result<int64_t> CountLive(ports::Tx& tx, const std::string& org_id, int64_t now) override {
    SV_ASSIGN_OR_RETURN(Rows r, Sql(tx).Query("SELECT COUNT(*) FROM agent_tokens WHERE org_id = ? AND "
                                              "revoked_at IS NULL AND expires_at > ?",
                                              {org_id, now}));
    return r.Int(0, 0);
  }

  Status DeleteForMember(ports::Tx& tx, const std::string& org_id, const std::string& user_id) override {
    return Sql(tx)
        .Exec("DELETE FROM agent_tokens WHERE org_id = ? AND created_by = ?", {org_id, user_id})
        .status();
  }
};

}  // namespace

std::unique_ptr<ports::AgentTokenRepository> NewSqlAgentTokenRepository() {
  return std::make_unique<SqlAgentTokenRepository>();
}

}  // namespace service::store
