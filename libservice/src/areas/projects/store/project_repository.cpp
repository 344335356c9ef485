#include "areas/projects/ports/project_repository.h"
#include "areas/projects/store/repositories.h"
#include "store/database.h"

namespace service::store {
namespace {

ports::Project ProjectFromRow(const Rows& r, size_t i) {
  ports::Project p;
  p.id = r.Str(i, 0);
  p.org_id = r.Str(i, 1);
  p.name = r.Str(i, 2);
  p.slug = r.Str(i, 3);
  p.platform = r.Str(i, 4);
  p.created_at = r.Int(i, 5);
  p.grouping_v3_shadow = r.Int(i, 6) != 0;
  p.project_number = r.Int(i, 7);
  return p;
}

// Eight columns (ProjectFromRow); List appends its counts after them.
constexpr const char* kProjectColumns =
    "p.id, p.org_id, p.name, p.slug, p.platform, p.created_at, p.grouping_v3_shadow_enabled, "
    "p.project_number";

class SqlProjectRepository final : public ports::ProjectRepository {
 public:
  Status Insert(ports::Tx& tx_tx, ports::Project& p) override {
    Connection& tx = Sql(tx_tx);
    // The counter row is updated first: on PostgreSQL its lock orders
    // concurrent creations, so two projects never take one number.
    SV_ASSIGN_OR_RETURN(Rows n,
                        tx.Query("UPDATE project_counter SET next_number = next_number + 1 WHERE id = 1 "
                                 "RETURNING next_number - 1"));
    if (n.empty()) return Internal("project_counter row missing");
    p.project_number = n.Int(0, 0);
    return tx
        .Exec(
            "INSERT INTO projects (id, org_id, name, slug, platform, created_at, project_number) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            {p.id, p.org_id, p.name, p.slug, p.platform, p.created_at, p.project_number})
        .status();
  }

  Result<std::vector<ports::Project>> List(ports::Tx& c_tx, const std::string& org_id) override {
    Connection& c = Sql(c_tx);
    SV_ASSIGN_OR_RETURN(
        Rows r,
        c.Query(std::string("SELECT ") + kProjectColumns +
                    ", (SELECT COUNT(*) FROM bugs b WHERE b.project_id = p.id AND b.key_env = 'live'), "
                    "(SELECT COUNT(*) FROM bugs b WHERE b.project_id = p.id AND b.key_env = 'live' AND "
                    "b.status = 'new') FROM projects p WHERE p.org_id = ? ORDER BY p.created_at, p.id",
                {org_id}));
    std::vector<ports::Project> out;
    for (size_t i = 0; i < r.size(); ++i) {
      out.push_back(ProjectFromRow(r, i));
      out.back().bug_count = r.Int(i, 8);
      out.back().new_bug_count = r.Int(i, 9);
    }
    return out;
  }

  Result<std::optional<ports::Project>> Find(ports::Tx& c_tx, const std::string& org_id,
                                             const std::string& project_id) override {
    Connection& c = Sql(c_tx);
    SV_ASSIGN_OR_RETURN(Rows r, c.Query(std::string("SELECT ") + kProjectColumns +
                                            " FROM projects p WHERE p.org_id = ? AND p.id = ?",
                                        {org_id, project_id}));
    if (r.empty()) return std::optional<ports::Project>();
    return std::optional<ports::Project>(ProjectFromRow(r, 0));
  }

  Result<int64_t> Count(ports::Tx& c_tx, const std::string& org_id) override {
    Connection& c = Sql(c_tx);
    SV_ASSIGN_OR_RETURN(Rows r, c.Query("SELECT COUNT(*) FROM projects WHERE org_id = ?", {org_id}));
    return r.Int(0, 0);
  }

  Result<bool> SlugTaken(ports::Tx& c_tx, const std::string& org_id, const std::string& slug) override {
    Connection& c = Sql(c_tx);
    SV_ASSIGN_OR_RETURN(Rows r,
                        c.Query("SELECT 1 FROM projects WHERE org_id = ? AND slug = ?", {org_id, slug}));
    return !r.empty();
  }

  Result<bool> SetShadowGrouping(ports::Tx& tx_tx, const std::string& org_id, const std::string& project_id,
                                 bool enabled) override {
    Connection& tx = Sql(tx_tx);
    SV_ASSIGN_OR_RETURN(
        int64_t n, tx.Exec("UPDATE projects SET grouping_v3_shadow_enabled = ? WHERE org_id = ? AND id = ?",
                           {Bool(enabled), org_id, project_id}));
    return n > 0;
  }
};

ports::CaptureKey KeyFromRow(const Rows& r, size_t i) {
  ports::CaptureKey k;
  k.id = r.Str(i, 0);
  k.org_id = r.Str(i, 1);
  k.project_id = r.Str(i, 2);
  k.env = r.Str(i, 3);
  k.prefix = r.Str(i, 4);
  k.key_hash = r.Str(i, 5);
  k.label = r.Str(i, 6);
  k.expires_at = r.OptInt(i, 7);
  k.last_used = r.OptInt(i, 8);
  k.revoked_at = r.OptInt(i, 9);
  k.created_by = r.Str(i, 10);
  k.created_at = r.Int(i, 11);
  return k;
}

constexpr const char* kKeyColumns =
    "id, org_id, project_id, env, prefix, key_hash, label, expires_at, last_used, revoked_at, created_by, "
    "created_at";

class SqlCaptureKeyRepository final : public ports::CaptureKeyRepository {
 public:
  Status Insert(ports::Tx& tx_tx, const ports::CaptureKey& k) override {
    Connection& tx = Sql(tx_tx);
    return tx
        .Exec(
            "INSERT INTO capture_keys (id, org_id, project_id, env, prefix, key_hash, label, expires_at, "
            "last_used, revoked_at, created_by, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL, ?, "
            "?)",
            {k.id, k.org_id, k.project_id, k.env, k.prefix, k.key_hash, k.label,
             k.expires_at ? Value(*k.expires_at) : Value(nullptr),
             k.created_by.empty() ? Value(nullptr) : Value(k.created_by), k.created_at})
        .status();
  }

  Result<std::optional<ports::CaptureKey>> FindByHash(ports::Tx& c_tx, const std::string& key_hash) override {
    Connection& c = Sql(c_tx);
    SV_ASSIGN_OR_RETURN(
        Rows r,
        c.Query(std::string("SELECT ") + kKeyColumns + " FROM capture_keys WHERE key_hash = ?", {key_hash}));
    if (r.empty()) return std::optional<ports::CaptureKey>();
    return std::optional<ports::CaptureKey>(KeyFromRow(r, 0));
  }

  Result<std::optional<ports::IngestKeyRecord>> FindForIngest(ports::Tx& c_tx,
                                                              const std::string& key_hash) override {
    Connection& c = Sql(c_tx);
    SV_ASSIGN_OR_RETURN(
        Rows r,
        c.Query("SELECT k.id, k.org_id, k.project_id, k.env, k.prefix, k.key_hash, k.label, k.expires_at, "
                "k.last_used, k.revoked_at, k.created_by, k.created_at, o.plan, p.name, "
                "p.grouping_v3_shadow_enabled, p.project_number FROM capture_keys k "
                "JOIN organizations o ON o.id = k.org_id JOIN projects p ON p.id = k.project_id "
                "WHERE k.key_hash = ?",
                {key_hash}));
    if (r.empty()) return std::optional<ports::IngestKeyRecord>();
    return std::optional<ports::IngestKeyRecord>(ports::IngestKeyRecord{
        KeyFromRow(r, 0), r.Str(0, 12), r.Str(0, 13), r.Int(0, 14) != 0, r.Int(0, 15)});
  }

  Result<std::optional<ports::CaptureKey>> Find(ports::Tx& c_tx, const std::string& org_id,
                                                const std::string& project_id,
                                                const std::string& key_id) override {
    Connection& c = Sql(c_tx);
    SV_ASSIGN_OR_RETURN(Rows r,
                        c.Query(std::string("SELECT ") + kKeyColumns +
                                    " FROM capture_keys WHERE org_id = ? AND project_id = ? AND id = ?",
                                {org_id, project_id, key_id}));
    if (r.empty()) return std::optional<ports::CaptureKey>();
    return std::optional<ports::CaptureKey>(KeyFromRow(r, 0));
  }

  Result<std::vector<ports::CaptureKey>> ListActive(ports::Tx& c_tx, const std::string& org_id,
                                                    const std::string& project_id) override {
    Connection& c = Sql(c_tx);
    SV_ASSIGN_OR_RETURN(Rows r, c.Query(std::string("SELECT ") + kKeyColumns +
                                            " FROM capture_keys WHERE org_id = ? AND project_id = ? AND "
                                            "revoked_at IS NULL ORDER BY created_at DESC, id DESC",
                                        {org_id, project_id}));
    std::vector<ports::CaptureKey> out;
    for (size_t i = 0; i < r.size(); ++i) out.push_back(KeyFromRow(r, i));
    return out;
  }

  Result<bool> Revoke(ports::Tx& tx_tx, const std::string& org_id, const std::string& project_id,
                      const std::string& key_id, int64_t now_ms) override {
    Connection& tx = Sql(tx_tx);
    SV_ASSIGN_OR_RETURN(int64_t n, tx.Exec("UPDATE capture_keys SET revoked_at = ? WHERE org_id = ? AND "
                                           "project_id = ? AND id = ? AND revoked_at IS NULL",
                                           {now_ms, org_id, project_id, key_id}));
    return n > 0;
  }

  Status ForgetCreator(ports::Tx& tx_tx, const std::string& user_id) override {
    Connection& tx = Sql(tx_tx);
    return tx.Exec("UPDATE capture_keys SET created_by = NULL WHERE created_by = ?", {user_id}).status();
  }

  Status TouchLastUsed(ports::Tx& tx_tx, const std::vector<std::pair<std::string, int64_t>>& uses) override {
    Connection& tx = Sql(tx_tx);
    for (const auto& [id, at] : uses) {
      SV_RETURN_IF_ERROR(
          tx.Exec(
                "UPDATE capture_keys SET last_used = ? WHERE id = ? AND (last_used IS NULL OR last_used < ?)",
                {at, id, at})
              .status());
    }
    return Status::Ok();
  }
};

}  // namespace
}  // namespace service::store

namespace service::store {
std::unique_ptr<ports::ProjectRepository> NewSqlProjectRepository() {
  return std::make_unique<store::SqlProjectRepository>();
}
std::unique_ptr<ports::CaptureKeyRepository> NewSqlCaptureKeyRepository() {
  return std::make_unique<store::SqlCaptureKeyRepository>();
}
}  // namespace service::store
