#include "areas/sourcemaps/module.h"

#include "adapters/fs_blob_store.h"
#include "areas/sourcemaps/store/repositories.h"

namespace service::modules {

Status SourcemapsModule::Open(Platform& p) {
  const std::string& dir = p.options.evidence_dir;
  if (!dir.empty()) {
    // A store of its own under the evidence folder: the evidence sweeper
    // removes blobs no evidence artifact holds, and must never reach a
    // chunk or a bundle whose bytes happen to equal an expired artifact's.
    Result<std::unique_ptr<ports::BlobStore>> store = adapters::OpenFsBlobStore(dir + "/sourcemaps");
    if (!store.ok()) return Status(Code::kInternal, "SERVICE_EVIDENCE_DIR: " + store.status().message());
    blobs_ = std::move(*store);
  }
  repo_ = store::NewSqlSourcemapRepository();
  deps_.db = p.tx.get();
  deps_.clock = p.clock.get();
  deps_.ids = p.ids.get();
  deps_.repo = repo_.get();
  deps_.blobs = blobs_.get();
  route_deps_.sourcemaps = &deps_;
  const app::sourcemaps::SourcemapsDeps* d = &deps_;
  p.workers.Add("sourcemap-chunks", app::sourcemaps::kChunkSweepIntervalMs,
                [d] { return app::sourcemaps::ForgetOldChunks(*d).status(); });
  if (blobs_ != nullptr) {
    resolver_ = std::make_unique<app::sourcemaps::FrameResolver>(&deps_, p.log.get());
    app::sourcemaps::FrameResolver* r = resolver_.get();
    deps_.on_stored = [r](const std::string& project_id) { r->Forget(project_id); };
    sentry_.SetFrameResolver(r);
  }
  return Status::Ok();
}

void SourcemapsModule::RegisterRoutes(api::Pipeline& pipeline) {
  api::RegisterSourcemapsRoutes(pipeline, route_deps_);
}

}  // namespace service::modules
