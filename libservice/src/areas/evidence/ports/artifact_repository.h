// ArtifactRepository: the evidence artifacts' rows (evidence_artifacts) and
// the blobs they refer to (evidence_blobs: one row per storage key, the
// key's lock), and the one read of capture's occurrences the evidence routes
// need (which project an occurrence belongs to).
//
// Blobs are shared by content (ports/blob_store.h): a blob may be deleted
// only when no reserved or ready artifact names its key. Every writer that
// needs the blob to stay (a reservation, an upload becoming ready) and the
// sweep that deletes it first takes the key's row (LockBlob), so the two
// never interleave: a reservation made after the sweep's check puts the
// bytes back itself, one made before keeps the blob.
//
// Every method but the sweep's (ExpireDue, UnreferencedBlobs, LockBlob,
// BlobReferenced, ForgetBlob) is scoped to one organization: another
// organization's ids find nothing.
//
// Thread-safety: stateless; safe from any thread with its own Tx.
// Failure: kUnavailable/kInternal from the database; kConflict on a
// duplicate id.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ports/transaction.h"
#include "service/status.h"

namespace service::ports {

struct ArtifactRow {
  std::string id;
  std::string org_id;
  std::string project_id;
  std::optional<std::string> occurrence_id;
  std::string kind;
  std::string content_type;
  int64_t byte_count = 0;
  std::string sha256;       // lower-case hex
  std::string storage_key;  // never shown to clients
  std::string state;        // reserved, ready, deleted, expired (as written)
  int64_t generation = 1;
  std::string redaction_json;  // "" when none
  std::string uploader_id;     // "user:<id>" or "agent:<token id>"; never shown to clients
  int64_t created_at = 0;
  int64_t updated_at = 0;
  int64_t expires_at = 0;
  std::optional<int64_t> ready_at;
};

struct ArtifactPage {
  std::vector<ArtifactRow> rows;
  int64_t total = 0;
};

class ArtifactRepository {
 public:
  ArtifactRepository() = default;
  ArtifactRepository(const ArtifactRepository&) = delete;
  ArtifactRepository& operator=(const ArtifactRepository&) = delete;
  virtual ~ArtifactRepository() = default;

  // Inserts a new artifact. kConflict when the id exists.
  virtual Status Insert(Tx& tx, const ArtifactRow& row) = 0;

  // The artifact `id` of `org_id`, any state; nullopt when absent or
  // another organization's.
  virtual Result<std::optional<ArtifactRow>> Find(Tx& tx, const std::string& org_id,
                                                  const std::string& id) = 0;

  // reserved -> ready when the row is still reserved and unexpired at
  // `now_ms`: sets ready_at, expires_at, generation + 1. False when it was
  // not (another upload won, or it expired).
  virtual Result<bool> MarkReady(Tx& tx, const std::string& org_id, const std::string& id, int64_t now_ms,
                                 int64_t expires_at_ms) = 0;

  // reserved or ready -> deleted (generation + 1). False when the row is
  // absent, another organization's, or already deleted or expired.
  virtual Result<bool> MarkDeleted(Tx& tx, const std::string& org_id, const std::string& id,
                                   int64_t now_ms) = 0;

  // The ready, unexpired artifacts of the occurrence in the project, by
  // creation time then id ascending, `limit` from `offset`, and how many
  // there are.
  virtual Result<ArtifactPage> ListForOccurrence(Tx& tx, const std::string& org_id,
                                                 const std::string& project_id,
                                                 const std::string& occurrence_id, int64_t now_ms,
                                                 int64_t limit, int64_t offset) = 0;

  // Attaches the artifacts among `ids` that are ready, unexpired, of the
  // project and not yet attached to `occurrence_id` (generation + 1); the
  // rest are left alone. Returns how many were attached.
  virtual Result<int64_t> Attach(Tx& tx, const std::string& org_id, const std::string& project_id,
                                 const std::vector<std::string>& ids, const std::string& occurrence_id,
                                 int64_t now_ms) = 0;

  // The project of occurrence `occurrence_id` of `org_id` (capture's
  // occurrences), or nullopt.
  virtual Result<std::optional<std::string>> OccurrenceProject(Tx& tx, const std::string& org_id,
                                                               const std::string& occurrence_id) = 0;

  // ---- blobs and the sweep

  // Takes the lock of blob `key` (creating its row when missing) for the
  // rest of the transaction.
  virtual Status LockBlob(Tx& tx, const std::string& key, int64_t now_ms) = 0;
  // True when a reserved or ready artifact names `key`.
  virtual Result<bool> BlobReferenced(Tx& tx, const std::string& key) = 0;
  // Forgets blob `key`'s row.
  virtual Status ForgetBlob(Tx& tx, const std::string& key) = 0;
  // Up to `limit` blob keys no reserved or ready artifact names.
  virtual Result<std::vector<std::string>> UnreferencedBlobs(Tx& tx, int64_t limit) = 0;
  // Writes `expired` (generation + 1) on up to `limit` reserved or ready
  // artifacts whose expiry is at or before `now_ms`; returns how many.
  virtual Result<int64_t> ExpireDue(Tx& tx, int64_t now_ms, int64_t limit) = 0;
  // Retention: deletes up to `limit` expired or deleted artifacts (any
  // organization) whose last change is before `before_ms`, the oldest
  // first; returns how many. Their blobs are already unreferenced.
  virtual Result<int64_t> DeleteSpent(Tx& tx, int64_t before_ms, int64_t limit) = 0;
};

}  // namespace service::ports
