// SQL behind ports::SignatureRepository.
#include "areas/capture/store/signature_repository.h"

#include "store/database.h"

namespace service::store {
namespace {

class SqlSignatureRepository final : public ports::SignatureRepository {
 public:
  Result<std::vector<ports::StoredSignature>> Page(ports::Tx& c, const std::optional<std::string>& project_id,
                                                   const std::string& after_id, int64_t limit) override {
    std::string sql = "SELECT id, signature, signature_hash, group_key FROM bugs WHERE id > ?";
    std::vector<Value> params = {after_id};
    if (project_id) {
      sql += " AND project_id = ?";
      params.emplace_back(*project_id);
    }
    sql += " ORDER BY id LIMIT ?";
    params.emplace_back(limit);
    SV_ASSIGN_OR_RETURN(Rows r, Sql(c).Query(sql, params));
    std::vector<ports::StoredSignature> out;
    out.reserve(r.size());
    for (size_t i = 0; i < r.size(); ++i) {
      out.push_back(ports::StoredSignature{r.Str(i, 0), r.OptStr(i, 1), r.OptStr(i, 2), r.Str(i, 3)});
    }
    return out;
  }

  Status Set(ports::Tx& tx, const std::string& bug_id, const std::string& signature,
             const std::string& signature_hash, int64_t now_ms) override {
    return Sql(tx)
        .Exec("UPDATE bugs SET signature = ?, signature_hash = ?, group_key = ?, updated_at = ? WHERE id = ?",
              {signature, signature_hash, signature_hash, now_ms, bug_id})
        .status();
  }
};

}  // namespace

std::unique_ptr<ports::SignatureRepository> NewSqlSignatureRepository() {
  return std::make_unique<SqlSignatureRepository>();
}

}  // namespace service::store
