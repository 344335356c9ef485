// The evidence area (issue 30 item 1; Spec 2 "Evidence artifact",
// "Evidence"): files clients attach to occurrences (logs, replays), their
// rows (migration 0030) and their bytes in the BlobStore under
// SERVICE_EVIDENCE_DIR (adapters/fs_blob_store). It shares the store with
// the areas above it (ports::SharedBlobStore; null store when the folder is
// unset), attaches artifacts named by an ingest's metadata.evidence through
// capture's accepted-capture hook, and sweeps expired artifacts and
// unreferenced blobs with a worker. Deletion: artifacts go with their
// organization, project or occurrence (foreign keys); their blobs with the
// next sweep.
#pragma once

#include <memory>

#include "areas/accounts/module.h"
#include "areas/capture/module.h"
#include "areas/evidence/api/routes.h"
#include "areas/evidence/app/evidence.h"
#include "areas/evidence/ports/artifact_repository.h"
#include "modules/module.h"
#include "ports/blob_store.h"

namespace service::modules {

class EvidenceModule final : public Module {
 public:
  EvidenceModule(AccountsModule& accounts, CaptureModule& capture) : accounts_(accounts), capture_(capture) {}
  std::string_view name() const override { return "evidence"; }
  // ports::SharedBlobStore (its store is made in Open).
  void Provide(Platform& platform) override;
  Status Open(Platform& platform) override;
  void RegisterRoutes(api::Pipeline& pipeline) override;

  // The use cases' dependencies (valid after Open): the MCP tool
  // list_evidence, the verification area (ArtifactState), tests.
  const app::evidence::EvidenceDeps& deps() const { return deps_; }
  // The blob store, or null when SERVICE_EVIDENCE_DIR is unset (valid after
  // Open).
  ports::BlobStore* blob_store() const { return shared_ ? shared_->store.get() : nullptr; }

 private:
  AccountsModule& accounts_;
  CaptureModule& capture_;
  ports::SharedBlobStore* shared_ = nullptr;
  std::unique_ptr<ports::ArtifactRepository> artifacts_;
  app::evidence::EvidenceDeps deps_;
  api::EvidenceRouteDeps route_deps_;
};

}  // namespace service::modules
