#include "areas/evidence/module.h"

#include "adapters/fs_blob_store.h"
#include "areas/evidence/store/repositories.h"

namespace service::modules {

void EvidenceModule::Provide(Platform& p) { shared_ = p.Share(std::make_unique<ports::SharedBlobStore>()); }

Status EvidenceModule::Open(Platform& p) {
  const std::string& dir = p.options.evidence_dir;
  if (!dir.empty()) {
    Result<std::unique_ptr<ports::BlobStore>> store = adapters::OpenFsBlobStore(dir);
    if (!store.ok()) return Status(Code::kInternal, "SERVICE_EVIDENCE_DIR: " + store.status().message());
    shared_->store = std::move(*store);
  }
  artifacts_ = store::NewSqlArtifactRepository();
  deps_.db = p.tx.get();
  deps_.clock = p.clock.get();
  deps_.ids = p.ids.get();
  deps_.retention_ms = p.options.retention.evidence_ms;
  deps_.spent_retention_ms = p.options.retention.expired_evidence_ms;
  deps_.artifacts = artifacts_.get();
  deps_.projects = p.Shared<ports::ProjectRepository>();
  deps_.blobs = shared_->store.get();

  route_deps_.evidence = &deps_;
  route_deps_.accounts = &accounts_.deps();
  route_deps_.capture = &capture_.runtime();
  route_deps_.spool_dir = dir.empty() ? std::string() : dir + "/tmp";

  const app::evidence::EvidenceDeps* deps = &deps_;
  capture_.AddAcceptedCaptureHook([deps](ports::Tx& tx, const app::capture::AcceptedCapture& c) -> Status {
    if (c.evidence_ids.empty()) return Status::Ok();
    return app::evidence::AttachFromCapture(*deps, tx, c.org_id, c.project_id, c.occurrence_id,
                                            c.evidence_ids);
  });
  p.workers.Add("evidence-sweep", app::evidence::kSweepIntervalMs,
                [deps] { return app::evidence::Sweep(*deps); });
  return Status::Ok();
}

void EvidenceModule::RegisterRoutes(api::Pipeline& pipeline) {
  api::RegisterEvidenceRoutes(pipeline, route_deps_);
}

}  // namespace service::modules
