// SQL behind ports::SymbolRepository (one text for both backends).
#include "areas/symbols/ports/symbol_repository.h"
#include "areas/symbols/store/repositories.h"
#include "store/database.h"

namespace service::store {
namespace {

constexpr std::string_view kColumns =
    "SELECT id, org_id, project_id, application_id, build_id, name, byte_count, sha256, storage_key, "
    "declared_debug_id, declared_arch, state, format, reason, uploaded_by, created_at, processed_at "
    "FROM symbol_files";

ports::SymbolFileRow RowAt(const Rows& r, size_t i) {
  ports::SymbolFileRow f;
  f.id = r.Str(i, 0);
  f.org_id = r.Str(i, 1);
  f.project_id = r.Str(i, 2);
  f.application_id = r.Str(i, 3);
  f.build_id = r.Str(i, 4);
  f.name = r.Str(i, 5);
  f.byte_count = static_cast<uint64_t>(r.Int(i, 6));
  f.sha256 = r.Str(i, 7);
  f.storage_key = r.Str(i, 8);
  f.declared_debug_id = r.Str(i, 9);
  f.declared_arch = r.Str(i, 10);
  f.state = r.Str(i, 11);
  f.format = r.Str(i, 12);
  f.reason = r.Str(i, 13);
  f.uploaded_by = r.Str(i, 14);
  f.created_at = r.Int(i, 15);
  f.processed_at = r.OptInt(i, 16);
  return f;
}

class SqlSymbolRepository final : public ports::SymbolRepository {
 public:
  Status Insert(ports::Tx& t, const ports::SymbolFileRow& f) override {
    return Sql(t)
        .Exec(
            "INSERT INTO symbol_files (id, org_id, project_id, application_id, build_id, name, byte_count, "
            "sha256, storage_key, declared_debug_id, declared_arch, state, format, reason, uploaded_by, "
            "created_at, processed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            {f.id, f.org_id, f.project_id, f.application_id, f.build_id, f.name,
             static_cast<int64_t>(f.byte_count), f.sha256, f.storage_key, f.declared_debug_id,
             f.declared_arch, f.state, f.format, f.reason, f.uploaded_by, f.created_at,
             f.processed_at ? Value(*f.processed_at) : Value(nullptr)})
        .status();
  }

  Result<std::optional<ports::SymbolFileRow>> FindByDigest(ports::Tx& t, const std::string& org_id,
                                                           const std::string& build_id,
                                                           const std::string& sha256) override {
    SV_ASSIGN_OR_RETURN(
        Rows r, Sql(t).Query(std::string(kColumns) + " WHERE org_id = ? AND build_id = ? AND sha256 = ?",
                             {org_id, build_id, sha256}));
    if (r.empty()) return std::optional<ports::SymbolFileRow>();
    ports::SymbolFileRow f = RowAt(r, 0);
    SV_RETURN_IF_ERROR(LoadSlices(t, f));
    return std::optional<ports::SymbolFileRow>(std::move(f));
  }

  Result<std::optional<ports::SymbolFileRow>> Find(ports::Tx& t, const std::string& org_id,
                                                   const std::string& id) override {
    SV_ASSIGN_OR_RETURN(Rows r,
                        Sql(t).Query(std::string(kColumns) + " WHERE id = ? AND org_id = ?", {id, org_id}));
    if (r.empty()) return std::optional<ports::SymbolFileRow>();
    ports::SymbolFileRow f = RowAt(r, 0);
    SV_RETURN_IF_ERROR(LoadSlices(t, f));
    return std::optional<ports::SymbolFileRow>(std::move(f));
  }

  Result<std::vector<ports::SymbolFileRow>> ListForBuild(ports::Tx& t, const std::string& org_id,
                                                         const std::string& project_id,
                                                         const std::string& build_id, int64_t limit,
                                                         int64_t offset) override {
    SV_ASSIGN_OR_RETURN(
        Rows r, Sql(t).Query(std::string(kColumns) + " WHERE org_id = ? AND project_id = ? AND build_id = ? "
                                                     "ORDER BY created_at, id LIMIT ? OFFSET ?",
                             {org_id, project_id, build_id, limit, offset}));
    std::vector<ports::SymbolFileRow> out;
    for (size_t i = 0; i < r.size(); ++i) {
      out.push_back(RowAt(r, i));
      SV_RETURN_IF_ERROR(LoadSlices(t, out.back()));
    }
    return out;
  }

  Result<int64_t> CountForBuild(ports::Tx& t, const std::string& org_id, const std::string& project_id,
                                const std::string& build_id) override {
    SV_ASSIGN_OR_RETURN(Rows r, Sql(t).Query("SELECT COUNT(*) FROM symbol_files WHERE org_id = ? AND "
                                             "project_id = ? AND build_id = ?",
                                             {org_id, project_id, build_id}));
    return r.Int(0, 0);
  }

  Result<std::vector<ports::SymbolFileRow>> Pending(ports::Tx& t, int64_t limit) override {
    SV_ASSIGN_OR_RETURN(Rows r, Sql(t).Query(std::string(kColumns) +
                                                 " WHERE state = 'pending' ORDER BY created_at, id LIMIT ?",
                                             {limit}));
    std::vector<ports::SymbolFileRow> out;
    for (size_t i = 0; i < r.size(); ++i) out.push_back(RowAt(r, i));
    return out;
  }

  Result<bool> Finish(ports::Tx& t, const std::string& id, const std::string& state,
                      const std::string& format, const std::string& reason,
                      const std::vector<ports::SymbolSliceRow>& slices, int64_t now) override {
    SV_ASSIGN_OR_RETURN(int64_t n, Sql(t).Exec("UPDATE symbol_files SET state = ?, format = ?, reason = ?, "
                                               "processed_at = ? WHERE id = ? AND state = 'pending'",
                                               {state, format, reason, now, id}));
    if (n == 0) return false;
    for (size_t i = 0; i < slices.size(); ++i) {
      SV_RETURN_IF_ERROR(
          Sql(t)
              .Exec("INSERT INTO symbol_slices (file_id, position, project_id, arch, debug_id) "
                    "SELECT id, ?, project_id, ?, ? FROM symbol_files WHERE id = ?",
                    {static_cast<int64_t>(i), slices[i].arch, slices[i].debug_id, id})
              .status());
    }
    return true;
  }

 private:
  static Status LoadSlices(ports::Tx& t, ports::SymbolFileRow& f) {
    SV_ASSIGN_OR_RETURN(Rows r, Sql(t).Query("SELECT arch, debug_id FROM symbol_slices WHERE file_id = ? "
                                             "ORDER BY position",
                                             {f.id}));
    f.slices.clear();
    for (size_t i = 0; i < r.size(); ++i) f.slices.push_back({r.Str(i, 0), r.Str(i, 1)});
    return Status::Ok();
  }
};

}  // namespace

std::unique_ptr<ports::SymbolRepository> NewSqlSymbolRepository() {
  return std::make_unique<SqlSymbolRepository>();
}

}  // namespace service::store
