// SQL behind ports::SourcemapRepository (one text for both backends).
#include "areas/sourcemaps/ports/sourcemap_repository.h"
#include "areas/sourcemaps/store/repositories.h"
#include "store/database.h"

namespace service::store {
namespace {

constexpr std::string_view kBundleColumns =
    "SELECT id, org_id, project_id, checksum, bundle_id, release, dist, byte_count, sha256, storage_key, "
    "file_count, uploaded_by, created_at FROM sourcemap_bundles";

ports::SourcemapBundleRow BundleAt(const Rows& r, size_t i) {
  ports::SourcemapBundleRow b;
  b.id = r.Str(i, 0);
  b.org_id = r.Str(i, 1);
  b.project_id = r.Str(i, 2);
  b.checksum = r.Str(i, 3);
  b.bundle_id = r.Str(i, 4);
  b.release = r.Str(i, 5);
  b.dist = r.Str(i, 6);
  b.byte_count = static_cast<uint64_t>(r.Int(i, 7));
  b.sha256 = r.Str(i, 8);
  b.storage_key = r.Str(i, 9);
  b.file_count = r.Int(i, 10);
  b.uploaded_by = r.Str(i, 11);
  b.created_at = r.Int(i, 12);
  return b;
}

constexpr std::string_view kFileColumns =
    "SELECT f.bundle_id, f.position, f.project_id, f.path, f.url, f.url_path, f.file_type, f.debug_id, "
    "f.sourcemap, f.release, f.dist, f.method, f.data_offset, f.compressed_size, f.byte_count, f.crc32, "
    "b.storage_key FROM sourcemap_files f JOIN sourcemap_bundles b ON b.id = f.bundle_id";

ports::SourcemapFileRow FileAt(const Rows& r, size_t i) {
  ports::SourcemapFileRow f;
  f.bundle_id = r.Str(i, 0);
  f.position = r.Int(i, 1);
  f.project_id = r.Str(i, 2);
  f.path = r.Str(i, 3);
  f.url = r.Str(i, 4);
  f.url_path = r.Str(i, 5);
  f.file_type = r.Str(i, 6);
  f.debug_id = r.Str(i, 7);
  f.sourcemap = r.Str(i, 8);
  f.release = r.Str(i, 9);
  f.dist = r.Str(i, 10);
  f.method = r.Int(i, 11);
  f.data_offset = static_cast<uint64_t>(r.Int(i, 12));
  f.compressed_size = static_cast<uint64_t>(r.Int(i, 13));
  f.byte_count = static_cast<uint64_t>(r.Int(i, 14));
  f.crc32 = static_cast<uint32_t>(r.Int(i, 15));
  f.storage_key = r.Str(i, 16);
  return f;
}

std::string Placeholders(size_t n) {
  std::string s;
  for (size_t i = 0; i < n; ++i) s += i ? ", ?" : "?";
  return s;
}

class SqlSourcemapRepository final : public ports::SourcemapRepository {
 public:
  Result<Target> ResolveTarget(ports::Tx& t, const std::string& org_id,
                               const std::vector<std::string>& refs) override {
    Target out;
    SV_ASSIGN_OR_RETURN(Rows o, Sql(t).Query("SELECT slug FROM organizations WHERE id = ?", {org_id}));
    if (!o.empty()) out.org_slug = o.Str(0, 0);
    for (const std::string& ref : refs) {
      SV_ASSIGN_OR_RETURN(Rows p,
                          Sql(t).Query("SELECT id FROM projects WHERE org_id = ? AND (slug = ? OR id = ?) "
                                       "ORDER BY CASE WHEN slug = ? THEN 0 ELSE 1 END LIMIT 1",
                                       {org_id, ref, ref, ref}));
      if (!p.empty()) out.projects.emplace_back(ref, p.Str(0, 0));
    }
    return out;
  }

  Result<std::vector<ports::SourcemapChunk>> FindChunks(ports::Tx& t, const std::string& org_id,
                                                        const std::vector<std::string>& sha1s) override {
    std::vector<ports::SourcemapChunk> out;
    if (sha1s.empty()) return out;
    std::vector<Value> params{org_id};
    for (const auto& s : sha1s) params.emplace_back(s);
    SV_ASSIGN_OR_RETURN(Rows r, Sql(t).Query("SELECT sha1, byte_count, storage_key FROM sourcemap_chunks "
                                             "WHERE org_id = ? AND sha1 IN (" +
                                                 Placeholders(sha1s.size()) + ")",
                                             params));
    for (size_t i = 0; i < r.size(); ++i)
      out.push_back({r.Str(i, 0), static_cast<uint64_t>(r.Int(i, 1)), r.Str(i, 2)});
    return out;
  }

  Result<std::vector<std::pair<std::string, ports::SourcemapChunk>>> OldChunks(ports::Tx& t, int64_t before,
                                                                               int64_t limit) override {
    SV_ASSIGN_OR_RETURN(Rows r,
                        Sql(t).Query("SELECT org_id, sha1, byte_count, storage_key FROM sourcemap_chunks "
                                     "WHERE created_at < ? ORDER BY created_at, org_id, sha1 LIMIT ?",
                                     {before, limit}));
    std::vector<std::pair<std::string, ports::SourcemapChunk>> out;
    for (size_t i = 0; i < r.size(); ++i) {
      out.push_back(
          {r.Str(i, 0), ports::SourcemapChunk{r.Str(i, 1), static_cast<uint64_t>(r.Int(i, 2)), r.Str(i, 3)}});
    }
    return out;
  }

  Status DeleteChunk(ports::Tx& t, const std::string& org_id, const std::string& sha1) override {
    return Sql(t).Exec("DELETE FROM sourcemap_chunks WHERE org_id = ? AND sha1 = ?", {org_id, sha1}).status();
  }

  Result<bool> StorageKeyInUse(ports::Tx& t, const std::string& storage_key) override {
    SV_ASSIGN_OR_RETURN(Rows r, Sql(t).Query("SELECT 1 FROM sourcemap_chunks WHERE storage_key = ? UNION ALL "
                                             "SELECT 1 FROM sourcemap_bundles WHERE storage_key = ? LIMIT 1",
                                             {storage_key, storage_key}));
    return r.size() > 0;
  }

  Status InsertChunk(ports::Tx& t, const std::string& org_id, const ports::SourcemapChunk& c,
                     int64_t now) override {
    return Sql(t)
        .Exec(
            "INSERT INTO sourcemap_chunks (org_id, sha1, byte_count, storage_key, created_at) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT (org_id, sha1) DO NOTHING",
            {org_id, c.sha1, static_cast<int64_t>(c.byte_count), c.storage_key, now})
        .status();
  }

  Result<std::optional<ports::SourcemapBundleRow>> FindByChecksum(ports::Tx& t, const std::string& org_id,
                                                                  const std::string& checksum) override {
    SV_ASSIGN_OR_RETURN(Rows r,
                        Sql(t).Query(std::string(kBundleColumns) +
                                         " WHERE org_id = ? AND checksum = ? ORDER BY created_at LIMIT 1",
                                     {org_id, checksum}));
    if (r.empty()) return std::optional<ports::SourcemapBundleRow>();
    return std::optional<ports::SourcemapBundleRow>(BundleAt(r, 0));
  }

  Result<bool> HasBundle(ports::Tx& t, const std::string& org_id, const std::string& project_id,
                         const std::string& checksum, const std::string& release,
                         const std::string& dist) override {
    SV_ASSIGN_OR_RETURN(Rows r,
                        Sql(t).Query("SELECT 1 FROM sourcemap_bundles WHERE org_id = ? AND project_id = ? "
                                     "AND checksum = ? AND release = ? AND dist = ?",
                                     {org_id, project_id, checksum, release, dist}));
    return !r.empty();
  }

  Status InsertBundle(ports::Tx& t, const ports::SourcemapBundleRow& b,
                      const std::vector<ports::SourcemapFileRow>& files) override {
    Connection& c = Sql(t);
    SV_RETURN_IF_ERROR(
        c.Exec("INSERT INTO sourcemap_bundles (id, org_id, project_id, checksum, bundle_id, release, dist, "
               "byte_count, sha256, storage_key, file_count, uploaded_by, created_at) "
               "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
               {b.id, b.org_id, b.project_id, b.checksum, b.bundle_id, b.release, b.dist,
                static_cast<int64_t>(b.byte_count), b.sha256, b.storage_key, b.file_count, b.uploaded_by,
                b.created_at})
            .status());
    for (const auto& f : files) {
      SV_RETURN_IF_ERROR(
          c.Exec(
               "INSERT INTO sourcemap_files (bundle_id, position, project_id, path, url, url_path, "
               "file_type, "
               "debug_id, sourcemap, release, dist, method, data_offset, compressed_size, byte_count, crc32, "
               "created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
               {b.id, f.position, b.project_id, f.path, f.url, f.url_path, f.file_type, f.debug_id,
                f.sourcemap, b.release, b.dist, f.method, static_cast<int64_t>(f.data_offset),
                static_cast<int64_t>(f.compressed_size), static_cast<int64_t>(f.byte_count),
                static_cast<int64_t>(f.crc32), b.created_at})
              .status());
    }
    return Status::Ok();
  }

  Result<std::vector<ports::SourcemapBundleRow>> ListBundles(ports::Tx& t, const std::string& org_id,
                                                             const std::string& project_id, int64_t limit,
                                                             int64_t offset) override {
    SV_ASSIGN_OR_RETURN(Rows r, Sql(t).Query(std::string(kBundleColumns) +
                                                 " WHERE org_id = ? AND project_id = ? "
                                                 "ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?",
                                             {org_id, project_id, limit, offset}));
    std::vector<ports::SourcemapBundleRow> out;
    for (size_t i = 0; i < r.size(); ++i) out.push_back(BundleAt(r, i));
    return out;
  }

  Result<int64_t> CountBundles(ports::Tx& t, const std::string& org_id,
                               const std::string& project_id) override {
    SV_ASSIGN_OR_RETURN(Rows r, Sql(t).Query("SELECT COUNT(*) FROM sourcemap_bundles WHERE org_id = ? AND "
                                             "project_id = ?",
                                             {org_id, project_id}));
    return r.Int(0, 0);
  }

  Result<std::optional<ports::SourcemapBundleRow>> FindBundle(ports::Tx& t, const std::string& org_id,
                                                              const std::string& project_id,
                                                              const std::string& id) override {
    SV_ASSIGN_OR_RETURN(
        Rows r, Sql(t).Query(std::string(kBundleColumns) + " WHERE org_id = ? AND project_id = ? AND id = ?",
                             {org_id, project_id, id}));
    if (r.empty()) return std::optional<ports::SourcemapBundleRow>();
    return std::optional<ports::SourcemapBundleRow>(BundleAt(r, 0));
  }

  Result<std::vector<ports::SourcemapFileRow>> ListFiles(ports::Tx& t,
                                                         const std::string& bundle_id) override {
    SV_ASSIGN_OR_RETURN(
        Rows r,
        Sql(t).Query(std::string(kFileColumns) + " WHERE f.bundle_id = ? ORDER BY f.position", {bundle_id}));
    std::vector<ports::SourcemapFileRow> out;
    for (size_t i = 0; i < r.size(); ++i) out.push_back(FileAt(r, i));
    return out;
  }

  Result<std::vector<ports::SourcemapDebugId>> ListDebugIds(ports::Tx& t, const std::string& org_id,
                                                            const std::string& project_id, int64_t limit,
                                                            int64_t offset) override {
    // The newest bundle of each debug id, with its files of that id.
    SV_ASSIGN_OR_RETURN(Rows ids,
                        Sql(t).Query("SELECT f.debug_id, MAX(f.created_at) AS last_at FROM sourcemap_files f "
                                     "JOIN sourcemap_bundles b ON b.id = f.bundle_id "
                                     "WHERE b.org_id = ? AND f.project_id = ? AND f.debug_id <> '' "
                                     "GROUP BY f.debug_id ORDER BY last_at DESC, f.debug_id LIMIT ? OFFSET ?",
                                     {org_id, project_id, limit, offset}));
    std::vector<ports::SourcemapDebugId> out;
    for (size_t i = 0; i < ids.size(); ++i) {
      ports::SourcemapDebugId d;
      d.debug_id = ids.Str(i, 0);
      d.created_at = ids.Int(i, 1);
      SV_ASSIGN_OR_RETURN(std::vector<ports::SourcemapFileRow> files,
                          FindByDebugId(t, org_id, project_id, d.debug_id));
      if (!files.empty()) d.bundle_id = files.front().bundle_id;
      for (const auto& f : files) {
        if (f.bundle_id != d.bundle_id) break;
        d.file_types.push_back(f.file_type);
        d.urls.push_back(f.url);
      }
      out.push_back(std::move(d));
    }
    return out;
  }

  Result<std::vector<ports::SourcemapRelease>> ListReleases(ports::Tx& t, const std::string& org_id,
                                                            const std::string& project_id, int64_t limit,
                                                            int64_t offset) override {
    SV_ASSIGN_OR_RETURN(Rows r,
                        Sql(t).Query("SELECT release, dist, COUNT(*), SUM(file_count), MAX(created_at) AS "
                                     "last_at FROM sourcemap_bundles WHERE org_id = ? AND project_id = ? "
                                     "AND release <> '' GROUP BY release, dist "
                                     "ORDER BY last_at DESC, release, dist LIMIT ? OFFSET ?",
                                     {org_id, project_id, limit, offset}));
    std::vector<ports::SourcemapRelease> out;
    for (size_t i = 0; i < r.size(); ++i)
      out.push_back({r.Str(i, 0), r.Str(i, 1), r.Int(i, 2), r.Int(i, 3), r.Int(i, 4)});
    return out;
  }

  Result<std::vector<ports::SourcemapFileRow>> FindByDebugId(ports::Tx& t, const std::string& org_id,
                                                             const std::string& project_id,
                                                             const std::string& debug_id) override {
    SV_ASSIGN_OR_RETURN(Rows r,
                        Sql(t).Query(std::string(kFileColumns) +
                                         " WHERE b.org_id = ? AND f.project_id = ? AND f.debug_id = ? "
                                         "ORDER BY b.created_at DESC, b.id DESC, f.position",
                                     {org_id, project_id, debug_id}));
    std::vector<ports::SourcemapFileRow> out;
    for (size_t i = 0; i < r.size(); ++i) out.push_back(FileAt(r, i));
    return out;
  }

  Result<std::vector<ports::SourcemapFileRow>> FindByUrl(ports::Tx& t, const std::string& org_id,
                                                         const std::string& project_id,
                                                         const std::string& release, const std::string& dist,
                                                         const std::string& url_path) override {
    SV_ASSIGN_OR_RETURN(Rows r,
                        Sql(t).Query(std::string(kFileColumns) +
                                         " WHERE b.org_id = ? AND f.project_id = ? AND f.release = ? AND "
                                         "f.dist = ? AND f.url_path = ? "
                                         "ORDER BY b.created_at DESC, b.id DESC, f.position",
                                     {org_id, project_id, release, dist, url_path}));
    std::vector<ports::SourcemapFileRow> out;
    for (size_t i = 0; i < r.size(); ++i) out.push_back(FileAt(r, i));
    return out;
  }
};

}  // namespace

std::unique_ptr<ports::SourcemapRepository> NewSqlSourcemapRepository() {
  return std::make_unique<SqlSourcemapRepository>();
}

}  // namespace service::store
