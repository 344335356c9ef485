// SQL behind ports::ArtifactRepository (one text for both backends).
#include "areas/evidence/ports/artifact_repository.h"
#include "areas/evidence/store/repositories.h"
#include "store/database.h"

namespace service::store {
namespace {

constexpr std::string_view kColumns =
    "SELECT id, org_id, project_id, occurrence_id, kind, content_type, byte_count, sha256, storage_key, "
    "state, "
    "generation, redaction, uploader_id, created_at, updated_at, expires_at, ready_at FROM "
    "evidence_artifacts";

ports::ArtifactRow RowAt(const Rows& r, size_t i) {
  ports::ArtifactRow a;
  a.id = r.Str(i, 0);
  a.org_id = r.Str(i, 1);
  a.project_id = r.Str(i, 2);
  a.occurrence_id = r.OptStr(i, 3);
  a.kind = r.Str(i, 4);
  a.content_type = r.Str(i, 5);
  a.byte_count = r.Int(i, 6);
  a.sha256 = r.Str(i, 7);
  a.storage_key = r.Str(i, 8);
  a.state = r.Str(i, 9);
  a.generation = r.Int(i, 10);
  a.redaction_json = r.OptStr(i, 11).value_or("");
  a.uploader_id = r.Str(i, 12);
  a.created_at = r.Int(i, 13);
  a.updated_at = r.Int(i, 14);
  a.expires_at = r.Int(i, 15);
  a.ready_at = r.OptInt(i, 16);
  return a;
}

class SqlArtifactRepository final : public ports::ArtifactRepository {
 public:
  Status Insert(ports::Tx& t, const ports::ArtifactRow& a) override {
    return Sql(t)
        .Exec(
            "INSERT INTO evidence_artifacts (id, org_id, project_id, occurrence_id, kind, content_type, "
            "byte_count, sha256, storage_key, state, generation, redaction, uploader_id, created_at, "
            "updated_at, "
            "expires_at, ready_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            {a.id, a.org_id, a.project_id, OptText(a.occurrence_id), a.kind, a.content_type, a.byte_count,
             a.sha256, a.storage_key, a.state, a.generation,
             a.redaction_json.empty() ? Value(nullptr) : Value(a.redaction_json), a.uploader_id, a.created_at,
             a.updated_at, a.expires_at, a.ready_at ? Value(*a.ready_at) : Value(nullptr)})
        .status();
  }

  Result<std::optional<ports::ArtifactRow>> Find(ports::Tx& t, const std::string& org_id,
                                                 const std::string& id) override {
    SV_ASSIGN_OR_RETURN(Rows r,
                        Sql(t).Query(std::string(kColumns) + " WHERE id = ? AND org_id = ?", {id, org_id}));
    if (r.empty()) return std::optional<ports::ArtifactRow>();
    return std::optional<ports::ArtifactRow>(RowAt(r, 0));
  }

  Result<bool> MarkReady(ports::Tx& t, const std::string& org_id, const std::string& id, int64_t now_ms,
                         int64_t expires_at_ms) override {
    SV_ASSIGN_OR_RETURN(
        int64_t n, Sql(t).Exec("UPDATE evidence_artifacts SET state = 'ready', generation = generation + 1, "
                               "ready_at = ?, updated_at = ?, expires_at = ? WHERE id = ? AND org_id = ? AND "
                               "state = 'reserved' AND expires_at > ?",
                               {now_ms, now_ms, expires_at_ms, id, org_id, now_ms}));
    return n > 0;
  }

  Result<bool> MarkDeleted(ports::Tx& t, const std::string& org_id, const std::string& id,
                           int64_t now_ms) override {
    SV_ASSIGN_OR_RETURN(
        int64_t n,
        Sql(t).Exec("UPDATE evidence_artifacts SET state = 'deleted', generation = generation + 1, "
                    "updated_at = ? WHERE id = ? AND org_id = ? AND state IN ('reserved', 'ready')",
                    {now_ms, id, org_id}));
    return n > 0;
  }

  Result<ports::ArtifactPage> ListForOccurrence(ports::Tx& t, const std::string& org_id,
                                                const std::string& project_id,
                                                const std::string& occurrence_id, int64_t now_ms,
                                                int64_t limit, int64_t offset) override {
    Connection& c = Sql(t);
    constexpr std::string_view kWhere =
        " WHERE occurrence_id = ? AND org_id = ? AND project_id = ? AND state = 'ready' AND expires_at > ?";
    ports::ArtifactPage page;
    SV_ASSIGN_OR_RETURN(Rows count, c.Query("SELECT COUNT(*) FROM evidence_artifacts" + std::string(kWhere),
                                            {occurrence_id, org_id, project_id, now_ms}));
    page.total = count.empty() ? 0 : count.Int(0, 0);
    if (page.total <= offset) return page;
    SV_ASSIGN_OR_RETURN(Rows r, c.Query(std::string(kColumns) + std::string(kWhere) +
                                            " ORDER BY created_at ASC, id ASC LIMIT ? OFFSET ?",
                                        {occurrence_id, org_id, project_id, now_ms, limit, offset}));
    page.rows.reserve(r.size());
    for (size_t i = 0; i < r.size(); ++i) page.rows.push_back(RowAt(r, i));
    return page;
  }

  Result<int64_t> Attach(ports::Tx& t, const std::string& org_id, const std::string& project_id,
                         const std::vector<std::string>& ids, const std::string& occurrence_id,
                         int64_t now_ms) override {
    if (ids.empty()) return int64_t{0};
    std::string sql =
        "UPDATE evidence_artifacts SET occurrence_id = ?, generation = generation + 1, updated_at = ? WHERE "
        "org_id = ? AND project_id = ? AND state = 'ready' AND expires_at > ? AND occurrence_id IS NULL AND "
        "id IN (";
    std::vector<Value> params{occurrence_id, now_ms, org_id, project_id, now_ms};
    for (size_t i = 0; i < ids.size(); ++i) {
      sql += i == 0 ? "?" : ", ?";
      params.emplace_back(ids[i]);
    }
    sql += ")";
    return Sql(t).Exec(sql, params);
  }

  Result<std::optional<std::string>> OccurrenceProject(ports::Tx& t, const std::string& org_id,
                                                       const std::string& occurrence_id) override {
    SV_ASSIGN_OR_RETURN(Rows r, Sql(t).Query("SELECT project_id FROM occurrences WHERE id = ? AND org_id = ?",
                                             {occurrence_id, org_id}));
    if (r.empty()) return std::optional<std::string>();
    return std::optional<std::string>(r.Str(0, 0));
  }

  Status LockBlob(ports::Tx& t, const std::string& key, int64_t now_ms) override {
    return Sql(t)
        .Exec(
            "INSERT INTO evidence_blobs (storage_key, created_at, touched_at) VALUES (?, ?, ?) ON CONFLICT "
            "(storage_key) DO UPDATE SET touched_at = excluded.touched_at",
            {key, now_ms, now_ms})
        .status();
  }

  Result<bool> BlobReferenced(ports::Tx& t, const std::string& key) override {
    SV_ASSIGN_OR_RETURN(Rows r,
                        Sql(t).Query("SELECT 1 FROM evidence_artifacts WHERE storage_key = ? AND state IN "
                                     "('reserved', 'ready') LIMIT 1",
                                     {key}));
    return !r.empty();
  }

  Status ForgetBlob(ports::Tx& t, const std::string& key) override {
    return Sql(t).Exec("DELETE FROM evidence_blobs WHERE storage_key = ?", {key}).status();
  }

  Result<std::vector<std::string>> UnreferencedBlobs(ports::Tx& t, int64_t limit) override {
    SV_ASSIGN_OR_RETURN(
        Rows r,
        Sql(t).Query("SELECT b.storage_key FROM evidence_blobs b WHERE NOT EXISTS (SELECT 1 FROM "
                     "evidence_artifacts a WHERE a.storage_key = b.storage_key AND a.state IN ('reserved', "
                     "'ready')) ORDER BY b.storage_key LIMIT ?",
                     {limit}));
    std::vector<std::string> keys;
    keys.reserve(r.size());
    for (size_t i = 0; i < r.size(); ++i) keys.push_back(r.Str(i, 0));
    return keys;
  }

  Result<int64_t> ExpireDue(ports::Tx& t, int64_t now_ms, int64_t limit) override {
    return Sql(t).Exec(
        "UPDATE evidence_artifacts SET state = 'expired', generation = generation + 1, updated_at = ? WHERE "
        "id IN "
        "(SELECT id FROM evidence_artifacts WHERE state IN ('reserved', 'ready') AND expires_at <= ? ORDER "
        "BY "
        "expires_at LIMIT ?)",
        {now_ms, now_ms, limit});
  }

  Result<int64_t> DeleteSpent(ports::Tx& t, int64_t before_ms, int64_t limit) override {
    return Sql(t).Exec(
        "DELETE FROM evidence_artifacts WHERE id IN (SELECT id FROM evidence_artifacts WHERE state IN "
        "('expired', 'deleted') AND updated_at < ? ORDER BY updated_at LIMIT ?)",
        {before_ms, limit});
  }
};

}  // namespace

std::unique_ptr<ports::ArtifactRepository> NewSqlArtifactRepository() {
  return std::make_unique<SqlArtifactRepository>();
}

}  // namespace service::store
