// SourcemapRepository: the rows of source map uploads (issue 31 item 1,
// migration 0034): chunks an organization uploaded (by SHA-1, their bytes in
// the area's blob store), assembled artifact bundles of a project (one row
// per project, release and dist an upload named) and their files (URL,
// type, debug id), which the resolver looks up by debug id or by release,
// dist and URL path.
//
// Every read is scoped by organization (and project): another
// organization's rows read as absent. Methods run inside the caller's
// transaction.
//
// Failures: kInternal for the database (text for logs).
// Thread-safety: stateless; safe from any thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ports/transaction.h"
#include "service/status.h"

namespace service::ports {

struct SourcemapChunk {
  std::string sha1;
  uint64_t byte_count = 0;
  std::string storage_key;
};

struct SourcemapFileRow {
  std::string bundle_id;  // the bundle row's id
  int64_t position = 0;
  std::string project_id;
  std::string path;  // entry name in the archive
  std::string url;
  std::string url_path;
  std::string file_type;
  std::string debug_id;  // "" when none
  std::string sourcemap;
  std::string release;
  std::string dist;
  int64_t method = 0;
  uint64_t data_offset = 0;
  uint64_t compressed_size = 0;
  uint64_t byte_count = 0;
  uint32_t crc32 = 0;
  std::string storage_key;  // the bundle's (filled by the lookups)
};

struct SourcemapBundleRow {
  std::string id;
  std::string org_id;
  std::string project_id;
  std::string checksum;   // SHA-1 of the whole bundle, as the CLI sent it
  std::string bundle_id;  // the manifest's debug_id ("" when none)
  std::string release;    // "" when none
  std::string dist;       // "" when none
  uint64_t byte_count = 0;
  std::string sha256;
  std::string storage_key;
  int64_t file_count = 0;
  std::string uploaded_by;  // the agent token's id
  int64_t created_at = 0;
};

struct SourcemapDebugId {
  std::string debug_id;
  std::string bundle_id;  // the bundle row's id
  std::vector<std::string> file_types;
  std::vector<std::string> urls;
  int64_t created_at = 0;
};

struct SourcemapRelease {
  std::string release;
  std::string dist;
  int64_t bundle_count = 0;
  int64_t file_count = 0;
  int64_t last_upload_at = 0;
};

class SourcemapRepository {
 public:
  SourcemapRepository() = default;
  SourcemapRepository(const SourcemapRepository&) = delete;
  SourcemapRepository& operator=(const SourcemapRepository&) = delete;
  virtual ~SourcemapRepository() = default;

  // The organization's slug and the project ids of `refs` (each a project's
  // slug or id) in that organization; a ref matching none is absent from
  // the answer's map.
  struct Target {
    std::string org_slug;
    std::vector<std::pair<std::string, std::string>> projects;  // (ref, project id)
  };
  virtual Result<Target> ResolveTarget(Tx& c, const std::string& org_id,
                                       const std::vector<std::string>& refs) = 0;

  // Chunks recorded before `before` (any organization), oldest first, at
  // most `limit`: their org_id in the pair's first, the chunk in second.
  virtual Result<std::vector<std::pair<std::string, SourcemapChunk>>> OldChunks(Tx& c, int64_t before,
                                                                                int64_t limit) = 0;
  // Deletes a chunk's row (absent: nothing happens).
  virtual Status DeleteChunk(Tx& tx, const std::string& org_id, const std::string& sha1) = 0;
  // Whether any chunk or bundle row (any organization) names this storage key.
  virtual Result<bool> StorageKeyInUse(Tx& c, const std::string& storage_key) = 0;

  // Chunks of the organization among `sha1s` (lower-case hex).
  virtual Result<std::vector<SourcemapChunk>> FindChunks(Tx& c, const std::string& org_id,
                                                         const std::vector<std::string>& sha1s) = 0;
  // Records a chunk; one already recorded is left as it is.
  virtual Status InsertChunk(Tx& tx, const std::string& org_id, const SourcemapChunk& chunk, int64_t now) = 0;

  // A bundle of the organization with this checksum (any project), for its
  // stored bytes.
  virtual Result<std::optional<SourcemapBundleRow>> FindByChecksum(Tx& c, const std::string& org_id,
                                                                   const std::string& checksum) = 0;
  // Whether the project already has this checksum for this release and dist.
  virtual Result<bool> HasBundle(Tx& c, const std::string& org_id, const std::string& project_id,
                                 const std::string& checksum, const std::string& release,
                                 const std::string& dist) = 0;
  // Inserts a bundle and its files (kConflict when the project already has
  // this checksum, release and dist).
  virtual Status InsertBundle(Tx& tx, const SourcemapBundleRow& bundle,
                              const std::vector<SourcemapFileRow>& files) = 0;

  // Reads for the console, newest first.
  virtual Result<std::vector<SourcemapBundleRow>> ListBundles(Tx& c, const std::string& org_id,
                                                              const std::string& project_id, int64_t limit,
                                                              int64_t offset) = 0;
  virtual Result<int64_t> CountBundles(Tx& c, const std::string& org_id, const std::string& project_id) = 0;
  virtual Result<std::optional<SourcemapBundleRow>> FindBundle(Tx& c, const std::string& org_id,
                                                               const std::string& project_id,
                                                               const std::string& id) = 0;
  virtual Result<std::vector<SourcemapFileRow>> ListFiles(Tx& c, const std::string& bundle_id) = 0;
  virtual Result<std::vector<SourcemapDebugId>> ListDebugIds(Tx& c, const std::string& org_id,
                                                             const std::string& project_id, int64_t limit,
                                                             int64_t offset) = 0;
  virtual Result<std::vector<SourcemapRelease>> ListReleases(Tx& c, const std::string& org_id,
                                                             const std::string& project_id, int64_t limit,
                                                             int64_t offset) = 0;

  // The resolver's lookups: the project's files with `debug_id` (newest
  // bundle first), or whose release, dist and URL path are these.
  virtual Result<std::vector<SourcemapFileRow>> FindByDebugId(Tx& c, const std::string& org_id,
                                                              const std::string& project_id,
                                                              const std::string& debug_id) = 0;
  virtual Result<std::vector<SourcemapFileRow>> FindByUrl(Tx& c, const std::string& org_id,
                                                          const std::string& project_id,
                                                          const std::string& release, const std::string& dist,
                                                          const std::string& url_path) = 0;
};

}  // namespace service::ports
