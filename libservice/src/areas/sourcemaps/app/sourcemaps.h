// Source map uploads with the unmodified sentry-cli (issue 31 item 1):
// Sentry's chunk-upload protocol as `sentry-cli sourcemaps upload` uses it.
//
//   1. ChunkOptions: what the CLI reads first (chunk size, limits, sha1,
//      gzip, accept artifact_bundles).
//   2. Assemble with the bundle's checksum and its chunks' SHA-1s: the
//      missing chunks (state not_found), or the bundle assembled now.
//   3. UploadChunks: the missing chunks, each checked against its SHA-1 and
//      stored once per organization (content-addressed blobs).
//   4. Assemble again: every chunk present, so the bundle is put together
//      in the request (its SHA-1 checked), its zip directory and manifest
//      read (domain/artifact_bundle.h), the bundle stored as one blob and a
//      row per project written with its files (URL, type, debug id, release,
//      dist). The answer is state ok, or state error with a detail.
//   A bundle the organization already holds (the same checksum) is not
//   assembled again: its stored bytes are read for a new project, release
//   or dist, and a project that has it already answers ok at once.
//
// Who may call (an agent token with publish_symbols, the organization's
// slug, a grant for every project named) is checked by the routes with
// ResolveTarget.
//
// Failures (Status): kInvalidArgument (a chunk whose bytes are not its
// SHA-1, a bad multipart body, too large), kUnavailable
// (storage_unavailable: SERVICE_EVIDENCE_DIR unset), kNotFound for the
// reads.
//
// Thread-safety: the functions are safe from any thread.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "areas/sourcemaps/domain/artifact_bundle.h"
#include "areas/sourcemaps/ports/sourcemap_repository.h"
#include "ports/blob_store.h"
#include "ports/ids.h"
#include "ports/transaction.h"
#include "service/clock.h"
#include "service/status.h"

namespace service::app::sourcemaps {

inline constexpr const char* kPublishScope = "publish_symbols";
inline constexpr const char* kStorageUnavailable = "storage_unavailable";

// The limits (advertised by ChunkOptions, enforced here).
inline constexpr uint64_t kChunkSize = 8ull * 1024 * 1024;        // one chunk, uncompressed
inline constexpr int64_t kChunksPerRequest = 8;                   // chunks in one POST
inline constexpr uint64_t kMaxRequestSize = 32ull * 1024 * 1024;  // one chunk POST's body
inline constexpr uint64_t kMaxBundleBytes = 64ull * 1024 * 1024;  // an assembled bundle
inline constexpr uint64_t kMaxFileBytes = 64ull * 1024 * 1024;    // one file of a bundle, inflated
inline constexpr int64_t kConcurrency = 4;
inline constexpr size_t kMaxProjects = 20;         // projects in one assemble call
inline constexpr size_t kMaxChunksPerBundle = 64;  // SHA-1s in one assemble call
inline constexpr size_t kMaxReleaseBytes = 250;
inline constexpr size_t kMaxDistBytes = 64;

struct SourcemapsDeps {
  ports::Transactions* db = nullptr;
  Clock* clock = nullptr;
  ports::Ids* ids = nullptr;
  ports::SourcemapRepository* repo = nullptr;
  ports::BlobStore* blobs = nullptr;  // null: storage not configured
  // Called with each project a bundle was stored for (the resolver forgets
  // what it found missing there).
  std::function<void(const std::string& project_id)> on_stored;

  int64_t Now() const { return clock->NowMillis(); }
};

// The organization's slug and the projects `refs` name (slugs or ids).
Result<ports::SourcemapRepository::Target> ResolveTarget(const SourcemapsDeps& deps,
                                                         const std::string& org_id,
                                                         const std::vector<std::string>& refs);

// kUnavailable (storage_unavailable) without storage.
Status RequireStorage(const SourcemapsDeps& deps);

// One uploaded chunk: its name (the SHA-1) and its bytes as sent.
struct ChunkPart {
  std::string sha1;
  std::string_view data;
  bool gzip = false;
};
// Checks and stores each chunk (kInvalidArgument: not gzip data, larger
// than kChunkSize once inflated, not its SHA-1). Returns how many were new.
Result<int64_t> UploadChunks(const SourcemapsDeps& deps, const std::string& org_id,
                             const std::vector<ChunkPart>& chunks);

struct AssembleInput {
  std::string checksum;             // SHA-1 of the whole bundle
  std::vector<std::string> chunks;  // SHA-1s in order
  std::vector<std::string> project_ids;
  std::string release;  // "" when none
  std::string dist;     // "" when none
};
struct AssembleOutcome {
  std::string state;  // "ok", "not_found", "error", "assembling" (a concurrent call is writing it)
  std::vector<std::string> missing_chunks;
  std::string detail;  // state error
};
// Validation of the call's shape is the route's; this answers the state.
Result<AssembleOutcome> Assemble(const SourcemapsDeps& deps, const std::string& org_id,
                                 const std::string& token_id, const AssembleInput& in);

// Chunks are kept for assembly only: kChunkTtlMs after a chunk was
// uploaded, ForgetOldChunks (the hourly worker) deletes its row and, when no
// other chunk or bundle row names the same bytes, its blob; at most
// kChunkSweepBatch rows a run. Returns how many rows it deleted.
inline constexpr int64_t kChunkTtlMs = 24LL * 3'600'000;
inline constexpr int64_t kChunkSweepIntervalMs = 3'600'000;
inline constexpr int64_t kChunkSweepBatch = 1000;
Result<int64_t> ForgetOldChunks(const SourcemapsDeps& deps);

// Reads (console): newest first; limit 1-100, offset 0-10000.
struct BundlePage {
  std::vector<ports::SourcemapBundleRow> bundles;
  int64_t total = 0;
};
Result<BundlePage> ListBundles(const SourcemapsDeps& deps, const std::string& org_id,
                               const std::string& project_id, int64_t limit, int64_t offset);
struct BundleWithFiles {
  ports::SourcemapBundleRow bundle;
  std::vector<ports::SourcemapFileRow> files;
};
Result<BundleWithFiles> GetBundle(const SourcemapsDeps& deps, const std::string& org_id,
                                  const std::string& project_id, const std::string& id);
Result<std::vector<ports::SourcemapDebugId>> ListDebugIds(const SourcemapsDeps& deps,
                                                          const std::string& org_id,
                                                          const std::string& project_id, int64_t limit,
                                                          int64_t offset);
Result<std::vector<ports::SourcemapRelease>> ListReleases(const SourcemapsDeps& deps,
                                                          const std::string& org_id,
                                                          const std::string& project_id, int64_t limit,
                                                          int64_t offset);

// The bytes of one stored file (for the resolver and the file read): read
// from its bundle's blob, inflated and checked (CRC-32, at most
// kMaxFileBytes).
Result<std::string> ReadFile(const SourcemapsDeps& deps, const ports::SourcemapFileRow& file);

}  // namespace service::app::sourcemaps
