// Evidence (Spec 2 "Evidence", server contract "Evidence"; issue 30 item 1):
// the use cases behind /v1/evidence/*, the attachment of artifacts from an
// ingest, the expiry sweep, and the MCP tool list_evidence.
//
// Who may do what (checked in this order; the first refusal answers):
//   1. a capture key may read the capabilities only: everything else 403;
//   2. writes (reserve, upload): a person who is a member but not a viewer
//      (403), or an agent token with create_bug (403 SCOPE_REQUIRED) and a
//      grant for the project (403 PROJECT_GRANT_REQUIRED); deletion: people
//      only (agent tokens 403), not viewers;
//      reads (metadata, occurrence listing, download): any member, or an
//      agent token with get_repro_context and a grant (same codes);
//   3. storage not configured (SERVICE_EVIDENCE_DIR unset): 503
//      storage_unavailable;
//   4. the project: another organization's or a missing one reads 404;
//      then the occurrence or the artifact (404 when missing, another
//      project's or organization's).
// So an unauthorized project is 403 before a missing or foreign occurrence
// is 404 (Spec 2 "Errors").
//
// Answers never carry a storage key, a path, a credential or an uploader.
//
// Thread-safety: safe from any thread.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "areas/evidence/domain/evidence.h"
#include "areas/evidence/ports/artifact_repository.h"
#include "areas/projects/ports/project_repository.h"
#include "ports/blob_store.h"
#include "ports/ids.h"
#include "ports/transaction.h"
#include "service/clock.h"
#include "service/status.h"

namespace service::app::evidence {

struct EvidenceDeps {
  ports::Transactions* db = nullptr;
  Clock* clock = nullptr;
  ports::Ids* ids = nullptr;
  ports::ArtifactRepository* artifacts = nullptr;
  ports::ProjectRepository* projects = nullptr;  // the project of a route
  ports::BlobStore* blobs = nullptr;             // null: storage not configured
  // SERVICE_RETENTION evidence: an uploaded artifact's life from its upload.
  int64_t retention_ms = domain::evidence::kRetentionMs;
  // SERVICE_RETENTION expired_evidence: how long an expired or deleted
  // artifact's row (its state for reads) stays before the sweep deletes it.
  int64_t spent_retention_ms = 30LL * 86'400'000;

  int64_t Now() const { return clock->NowMillis(); }
};

// Who calls, as the route's authentication read it.
struct EvidenceCaller {
  enum class Kind { kUser, kAgent, kCaptureKey };
  Kind kind = Kind::kUser;
  std::string org_id;
  std::string user_id;                        // people and agent tokens (the token's creator)
  std::string role;                           // the member's (the creator's for a token)
  std::string token_id;                       // agent tokens
  std::string project_id;                     // capture keys: the key's project
  std::vector<std::string> scopes;            // agent tokens
  std::vector<std::string> granted_projects;  // agent tokens
};

// Steps 1-3 of the order above for one call on `project_id`: kWrite
// (reserve, upload), kRead (metadata, listing, download), kRemove (delete).
// Every use case below runs it first; routes may run it before they parse a
// body.
enum class Access { kWrite, kRead, kRemove };
Status Authorize(const EvidenceDeps& deps, const EvidenceCaller& caller, const std::string& project_id,
                 Access access);

// GET /v1/evidence/capabilities.
struct Capabilities {
  bool configured = false;
  std::optional<std::string> project_id;  // capture keys only
};
Capabilities GetCapabilities(const EvidenceDeps& deps, const EvidenceCaller& caller);

// POST /v1/evidence/projects/:projectId/artifacts: a reserved artifact
// (expiring after domain::evidence::kReservationTtlMs). An occurrenceId
// names an occurrence of the project (else 404).
Result<domain::evidence::ArtifactView> Reserve(const EvidenceDeps& deps, const EvidenceCaller& caller,
                                               const std::string& project_id,
                                               const domain::evidence::ReserveInput& in);

// PUT .../artifacts/:artifactId/content: `body` (of `length` bytes when the
// transport knows it) must be exactly the reserved bytes: otherwise 400
// EVIDENCE_MISMATCH and nothing is stored. A ready artifact: 409
// EVIDENCE_ALREADY_UPLOADED; an expired or deleted one: 409
// EVIDENCE_NOT_UPLOADABLE. The body is streamed into the store (never
// whole in memory). Success: the artifact, ready, kept deps.retention_ms
// (SERVICE_RETENTION evidence; default domain::evidence::kRetentionMs).
Result<domain::evidence::ArtifactView> Upload(const EvidenceDeps& deps, const EvidenceCaller& caller,
                                              const std::string& project_id, const std::string& artifact_id,
                                              ports::ByteSource& body, std::optional<uint64_t> length);

// GET .../artifacts/:artifactId: a ready artifact's metadata (any other
// state: 404).
Result<domain::evidence::ArtifactView> GetArtifact(const EvidenceDeps& deps, const EvidenceCaller& caller,
                                                   const std::string& project_id,
                                                   const std::string& artifact_id);

// GET .../occurrences/:occurrenceId/artifacts: the occurrence's ready
// artifacts by creation time then id.
struct ArtifactList {
  std::vector<domain::evidence::ArtifactView> artifacts;
  int64_t total = 0;
  int64_t limit = 0;
  int64_t offset = 0;
};
Result<ArtifactList> ListForOccurrence(const EvidenceDeps& deps, const EvidenceCaller& caller,
                                       const std::string& project_id, const std::string& occurrence_id,
                                       const domain::evidence::ListBounds& bounds);

// GET .../artifacts/:artifactId/content: a ready artifact and a reader over
// its bytes.
struct Download {
  domain::evidence::ArtifactView artifact;
  std::unique_ptr<ports::BlobReader> reader;
};
Result<Download> OpenContent(const EvidenceDeps& deps, const EvidenceCaller& caller,
                             const std::string& project_id, const std::string& artifact_id);

// DELETE .../artifacts/:artifactId: reserved or ready -> deleted (people
// but viewers). Its bytes are removed by the sweep once no other artifact
// has the same content. Already deleted or expired: 404.
Result<domain::evidence::ArtifactView> Delete(const EvidenceDeps& deps, const EvidenceCaller& caller,
                                              const std::string& project_id, const std::string& artifact_id);

// The accepted-capture hook (inside the ingest transaction): attaches the
// artifacts `evidence_ids` names that are ready, of the project and not yet
// attached, to the occurrence. Ids that are no UUID, unknown, of another
// project or organization, not ready or attached already are ignored
// (beyond kMaxAttachIds, too). Non-OK only when the database failed.
Status AttachFromCapture(const EvidenceDeps& deps, ports::Tx& tx, const std::string& org_id,
                         const std::string& project_id, const std::string& occurrence_id,
                         const std::vector<std::string>& evidence_ids);

// The worker's sweep: writes `expired` on artifacts past their expiry,
// then deletes the blobs no reserved or ready artifact names any more (and
// their rows). Runs every kSweepIntervalMs.
inline constexpr int64_t kSweepIntervalMs = 10 * 60 * 1000;
Status Sweep(const EvidenceDeps& deps);

// For other areas (verification): the state artifact `artifact_id` of the
// organization reads as now ("ready", "reserved", "expired", "deleted"), or
// nullopt when there is no such artifact.
Result<std::optional<std::string>> ArtifactState(const EvidenceDeps& deps, ports::Tx& tx,
                                                 const std::string& org_id, const std::string& artifact_id);

}  // namespace service::app::evidence
