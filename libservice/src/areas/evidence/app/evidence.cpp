#include "areas/evidence/app/evidence.h"

#include <algorithm>

#include "app/retention.h"
#include "service/options.h"
#include "util/strings.h"

namespace service::app::evidence {
namespace {

namespace de = domain::evidence;
using Kind = EvidenceCaller::Kind;

bool Has(const std::vector<std::string>& list, std::string_view item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

Status NotFound(std::string what) { return Status(Code::kNotFound, what + " not found"); }

// Step 4: the project must be the caller's organization's.
Status RequireProject(const EvidenceDeps& deps, ports::Tx& tx, const EvidenceCaller& caller,
                      const std::string& project_id) {
  SV_ASSIGN_OR_RETURN(std::optional<ports::Project> p, deps.projects->Find(tx, caller.org_id, project_id));
  if (!p) return NotFound("Project");
  return Status::Ok();
}

de::ArtifactView ViewOf(const ports::ArtifactRow& r, int64_t now_ms) {
  de::ArtifactView v;
  v.id = r.id;
  v.project_id = r.project_id;
  v.occurrence_id = r.occurrence_id;
  v.kind = r.kind;
  v.content_type = r.content_type;
  v.byte_count = static_cast<uint64_t>(r.byte_count);
  v.sha256 = r.sha256;
  v.state = std::string(de::EffectiveState(r.state, r.expires_at, now_ms));
  v.generation = r.generation;
  v.created_at = r.created_at;
  v.expires_at = r.expires_at;
  v.redaction_json = r.redaction_json;
  return v;
}

// The artifact of the project (404 otherwise).
Result<ports::ArtifactRow> FindInProject(const EvidenceDeps& deps, ports::Tx& tx,
                                         const EvidenceCaller& caller, const std::string& project_id,
                                         const std::string& artifact_id) {
  SV_RETURN_IF_ERROR(RequireProject(deps, tx, caller, project_id));
  SV_ASSIGN_OR_RETURN(std::optional<ports::ArtifactRow> row,
                      deps.artifacts->Find(tx, caller.org_id, artifact_id));
  if (!row || row->project_id != project_id) return NotFound("Artifact");
  return std::move(*row);
}

// A ready artifact of the project, as read on a snapshot (404 otherwise).
Result<ports::ArtifactRow> FindReady(const EvidenceDeps& deps, const EvidenceCaller& caller,
                                     const std::string& project_id, const std::string& artifact_id,
                                     int64_t now) {
  std::optional<ports::ArtifactRow> out;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& tx) -> Status {
    SV_ASSIGN_OR_RETURN(ports::ArtifactRow row, FindInProject(deps, tx, caller, project_id, artifact_id));
    out = std::move(row);
    return Status::Ok();
  }));
  if (de::EffectiveState(out->state, out->expires_at, now) != de::kReady) return NotFound("Artifact");
  return std::move(*out);
}

std::string UploaderOf(const EvidenceCaller& caller) {
  return caller.kind == Kind::kAgent ? "agent:" + caller.token_id : "user:" + caller.user_id;
}

// Why an upload of `row` cannot happen (its effective state is not reserved).
Status NotUploadable(const ports::ArtifactRow& row, int64_t now) {
  const std::string_view state = de::EffectiveState(row.state, row.expires_at, now);
  if (state == de::kReady) {
    return Status(Code::kConflict, "The artifact's content was uploaded already",
                  std::string(de::kAlreadyUploaded));
  }
  return Status(Code::kConflict, "The artifact is " + std::string(state) + " and takes no upload",
                std::string(de::kNotUploadable));
}

}  // namespace

Status Authorize(const EvidenceDeps& deps, const EvidenceCaller& caller, const std::string& project_id,
                 Access access) {
  switch (caller.kind) {
    case Kind::kCaptureKey:
      return PermissionDenied("Capture keys cannot reserve, upload, list or download evidence");
    case Kind::kAgent: {
      if (access == Access::kRemove) return PermissionDenied("Agent tokens cannot delete evidence");
      const std::string_view scope = access == Access::kWrite ? de::kCreateBugScope : de::kReproContextScope;
      if (!Has(caller.scopes, scope)) return de::ScopeRequired(scope);
      if (!Has(caller.granted_projects, project_id)) return de::ProjectGrantRequired();
      break;
    }
    case Kind::kUser:
      if (access != Access::kRead && caller.role == "viewer") {
        return PermissionDenied("Viewers cannot change evidence");
      }
      break;
  }
  if (deps.blobs == nullptr) return de::StorageUnavailable();
  return Status::Ok();
}

Capabilities GetCapabilities(const EvidenceDeps& deps, const EvidenceCaller& caller) {
  Capabilities c;
  c.configured = deps.blobs != nullptr;
  if (caller.kind == Kind::kCaptureKey) c.project_id = caller.project_id;
  return c;
}

Result<de::ArtifactView> Reserve(const EvidenceDeps& deps, const EvidenceCaller& caller,
                                 const std::string& project_id, const de::ReserveInput& in) {
  SV_RETURN_IF_ERROR(Authorize(deps, caller, project_id, Access::kWrite));
  SV_ASSIGN_OR_RETURN(const std::string key, deps.blobs->KeyFor(in.sha256));
  ports::ArtifactRow row;
  SV_RETURN_IF_ERROR(deps.db->Write([&](ports::Tx& tx) -> Status {
    const int64_t now = deps.Now();
    SV_RETURN_IF_ERROR(RequireProject(deps, tx, caller, project_id));
    if (in.occurrence_id) {
      SV_ASSIGN_OR_RETURN(std::optional<std::string> project,
                          deps.artifacts->OccurrenceProject(tx, caller.org_id, *in.occurrence_id));
      if (!project || *project != project_id) return NotFound("Occurrence");
    }
    row = ports::ArtifactRow{};
    row.id = deps.ids->NewId();
    row.org_id = caller.org_id;
    row.project_id = project_id;
    row.occurrence_id = in.occurrence_id;
    row.kind = in.kind;
    row.content_type = in.content_type;
    row.byte_count = static_cast<int64_t>(in.byte_count);
    row.sha256 = in.sha256;
    row.storage_key = key;
    row.state = std::string(de::kReserved);
    row.generation = 1;
    row.redaction_json = in.redaction_json;
    row.uploader_id = UploaderOf(caller);
    row.created_at = now;
    row.updated_at = now;
    row.expires_at = now + de::kReservationTtlMs;
    // The key's lock: a sweep deciding about this blob now waits for us.
    SV_RETURN_IF_ERROR(deps.artifacts->LockBlob(tx, key, now));
    return deps.artifacts->Insert(tx, row);
  }));
  return ViewOf(row, row.created_at);
}

Result<de::ArtifactView> Upload(const EvidenceDeps& deps, const EvidenceCaller& caller,
                                const std::string& project_id, const std::string& artifact_id,
                                ports::ByteSource& body, std::optional<uint64_t> length) {
  SV_RETURN_IF_ERROR(Authorize(deps, caller, project_id, Access::kWrite));
  std::optional<ports::ArtifactRow> reserved;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& tx) -> Status {
    SV_ASSIGN_OR_RETURN(ports::ArtifactRow row, FindInProject(deps, tx, caller, project_id, artifact_id));
    reserved = std::move(row);
    return Status::Ok();
  }));
  if (de::EffectiveState(reserved->state, reserved->expires_at, deps.Now()) != de::kReserved) {
    return NotUploadable(*reserved, deps.Now());
  }
  const uint64_t expected = static_cast<uint64_t>(reserved->byte_count);
  if (length && *length != expected) {
    return de::Mismatch("The content is " + std::to_string(*length) + " bytes, the reservation declared " +
                        std::to_string(expected));
  }
  Result<ports::BlobRef> put = deps.blobs->Put(body, expected, reserved->sha256);
  if (!put.ok()) {
    if (put.status().error_code() == ports::kBlobMismatch) return de::Mismatch(put.status().message());
    return put.status();
  }
  std::optional<ports::ArtifactRow> ready;
  SV_RETURN_IF_ERROR(deps.db->Write([&](ports::Tx& tx) -> Status {
    const int64_t now = deps.Now();
    SV_RETURN_IF_ERROR(deps.artifacts->LockBlob(tx, reserved->storage_key, now));
    // Under the key's lock no sweep removes the blob; it must still be
    // there (a sweep that ran between the Put and the lock took it).
    SV_ASSIGN_OR_RETURN(bool stored, deps.blobs->Exists(reserved->storage_key));
    if (!stored) {
      return Status::Public(Code::kUnavailable, "The upload was interrupted, please send it again");
    }
    SV_ASSIGN_OR_RETURN(
        bool marked, deps.artifacts->MarkReady(tx, caller.org_id, artifact_id, now, now + deps.retention_ms));
    SV_ASSIGN_OR_RETURN(std::optional<ports::ArtifactRow> row,
                        deps.artifacts->Find(tx, caller.org_id, artifact_id));
    if (!row) return NotFound("Artifact");
    if (!marked) return NotUploadable(*row, now);
    ready = std::move(row);
    return Status::Ok();
  }));
  return ViewOf(*ready, deps.Now());
}

Result<de::ArtifactView> GetArtifact(const EvidenceDeps& deps, const EvidenceCaller& caller,
                                     const std::string& project_id, const std::string& artifact_id) {
  SV_RETURN_IF_ERROR(Authorize(deps, caller, project_id, Access::kRead));
  const int64_t now = deps.Now();
  SV_ASSIGN_OR_RETURN(ports::ArtifactRow row, FindReady(deps, caller, project_id, artifact_id, now));
  return ViewOf(row, now);
}

Result<ArtifactList> ListForOccurrence(const EvidenceDeps& deps, const EvidenceCaller& caller,
                                       const std::string& project_id, const std::string& occurrence_id,
                                       const de::ListBounds& bounds) {
  SV_RETURN_IF_ERROR(Authorize(deps, caller, project_id, Access::kRead));
  const int64_t now = deps.Now();
  ArtifactList out;
  out.limit = bounds.limit;
  out.offset = bounds.offset;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& tx) -> Status {
    SV_RETURN_IF_ERROR(RequireProject(deps, tx, caller, project_id));
    SV_ASSIGN_OR_RETURN(std::optional<std::string> project,
                        deps.artifacts->OccurrenceProject(tx, caller.org_id, occurrence_id));
    if (!project || *project != project_id) return NotFound("Occurrence");
    SV_ASSIGN_OR_RETURN(ports::ArtifactPage page,
                        deps.artifacts->ListForOccurrence(tx, caller.org_id, project_id, occurrence_id, now,
                                                          bounds.limit, bounds.offset));
    out.total = page.total;
    out.artifacts.clear();
    for (const auto& r : page.rows) out.artifacts.push_back(ViewOf(r, now));
    return Status::Ok();
  }));
  return out;
}

Result<Download> OpenContent(const EvidenceDeps& deps, const EvidenceCaller& caller,
                             const std::string& project_id, const std::string& artifact_id) {
  SV_RETURN_IF_ERROR(Authorize(deps, caller, project_id, Access::kRead));
  const int64_t now = deps.Now();
  SV_ASSIGN_OR_RETURN(ports::ArtifactRow row, FindReady(deps, caller, project_id, artifact_id, now));
  Result<std::unique_ptr<ports::BlobReader>> reader = deps.blobs->Open(row.storage_key);
  if (!reader.ok()) {
    // A ready artifact whose bytes are gone is the storage's failure.
    if (reader.status().code() == Code::kNotFound)
      return Internal("evidence: the blob of a ready artifact is missing");
    return reader.status();
  }
  return Download{ViewOf(row, now), std::move(*reader)};
}

Result<de::ArtifactView> Delete(const EvidenceDeps& deps, const EvidenceCaller& caller,
                                const std::string& project_id, const std::string& artifact_id) {
  SV_RETURN_IF_ERROR(Authorize(deps, caller, project_id, Access::kRemove));
  std::optional<ports::ArtifactRow> out;
  SV_RETURN_IF_ERROR(deps.db->Write([&](ports::Tx& tx) -> Status {
    const int64_t now = deps.Now();
    SV_ASSIGN_OR_RETURN(ports::ArtifactRow row, FindInProject(deps, tx, caller, project_id, artifact_id));
    const std::string_view state = de::EffectiveState(row.state, row.expires_at, now);
    if (state != de::kReserved && state != de::kReady) return NotFound("Artifact");
    SV_ASSIGN_OR_RETURN(bool deleted, deps.artifacts->MarkDeleted(tx, caller.org_id, artifact_id, now));
    if (!deleted) return NotFound("Artifact");
    SV_ASSIGN_OR_RETURN(std::optional<ports::ArtifactRow> after,
                        deps.artifacts->Find(tx, caller.org_id, artifact_id));
    out = std::move(after);
    return Status::Ok();
  }));
  if (!out) return NotFound("Artifact");
  return ViewOf(*out, deps.Now());
}

Status AttachFromCapture(const EvidenceDeps& deps, ports::Tx& tx, const std::string& org_id,
                         const std::string& project_id, const std::string& occurrence_id,
                         const std::vector<std::string>& evidence_ids) {
  std::vector<std::string> ids;
  for (const std::string& id : evidence_ids) {
    if (ids.size() >= de::kMaxAttachIds) break;
    if (!util::IsUuid(id)) continue;
    std::string lower = util::ToLower(id);
    if (!Has(ids, lower)) ids.push_back(std::move(lower));
  }
  if (ids.empty()) return Status::Ok();
  return deps.artifacts->Attach(tx, org_id, project_id, ids, occurrence_id, deps.Now()).status();
}

Status Sweep(const EvidenceDeps& deps) {
  constexpr int64_t kBatch = 500;
  // Expire in batches until none is due (a backlog after a long stop).
  for (int round = 0; round < 100; ++round) {
    int64_t expired = 0;
    SV_RETURN_IF_ERROR(deps.db->Write([&](ports::Tx& tx) -> Status {
      SV_ASSIGN_OR_RETURN(expired, deps.artifacts->ExpireDue(tx, deps.Now(), kBatch));
      return Status::Ok();
    }));
    if (expired < kBatch) break;
  }
  // Rows of artifacts expired or deleted long enough ago (their blobs are
  // unreferenced already): bounded batches, one transaction each.
  const int64_t spent_before = deps.Now() - deps.spent_retention_ms;
  SV_RETURN_IF_ERROR(SweepInBatches(*deps.db, kRetentionBatchRows, [&](ports::Tx& tx, int64_t limit) {
                       return deps.artifacts->DeleteSpent(tx, spent_before, limit);
                     }).status());
  // Without storage there are no files to remove; the rows wait.
  if (deps.blobs == nullptr) return Status::Ok();
  std::vector<std::string> keys;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& tx) -> Status {
    SV_ASSIGN_OR_RETURN(keys, deps.artifacts->UnreferencedBlobs(tx, kBatch));
    return Status::Ok();
  }));
  for (const std::string& key : keys) {
    SV_RETURN_IF_ERROR(deps.db->Write([&](ports::Tx& tx) -> Status {
      SV_RETURN_IF_ERROR(deps.artifacts->LockBlob(tx, key, deps.Now()));
      SV_ASSIGN_OR_RETURN(bool referenced, deps.artifacts->BlobReferenced(tx, key));
      if (referenced) return Status::Ok();
      // Inside the transaction holding the key's lock: a reservation of the
      // same bytes waits until the row is gone and then stores them anew.
      SV_RETURN_IF_ERROR(deps.blobs->Delete(key));
      return deps.artifacts->ForgetBlob(tx, key);
    }));
  }
  return Status::Ok();
}

Result<std::optional<std::string>> ArtifactState(const EvidenceDeps& deps, ports::Tx& tx,
                                                 const std::string& org_id, const std::string& artifact_id) {
  if (!util::IsUuid(artifact_id)) return std::optional<std::string>();
  SV_ASSIGN_OR_RETURN(std::optional<ports::ArtifactRow> row,
                      deps.artifacts->Find(tx, org_id, util::ToLower(artifact_id)));
  if (!row) return std::optional<std::string>();
  return std::optional<std::string>(std::string(de::EffectiveState(row->state, row->expires_at, deps.Now())));
}

}  // namespace service::app::evidence
