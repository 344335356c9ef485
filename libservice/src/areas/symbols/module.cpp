#include "areas/symbols/module.h"

#include "adapters/fs_blob_store.h"
#include "areas/symbols/store/repositories.h"

namespace service::modules {

Status SymbolsModule::Open(Platform& p) {
  const std::string& dir = p.options.evidence_dir;
  if (!dir.empty()) {
    // A store of its own under the evidence folder: the evidence sweeper
    // removes blobs no evidence artifact holds, and must never reach a
    // symbol file's bytes that happen to equal an expired artifact's.
    Result<std::unique_ptr<ports::BlobStore>> store = adapters::OpenFsBlobStore(dir + "/symbols");
    if (!store.ok()) return Status(Code::kInternal, "SERVICE_EVIDENCE_DIR: " + store.status().message());
    blobs_ = std::move(*store);
  }
  files_ = store::NewSqlSymbolRepository();
  deps_.db = p.tx.get();
  deps_.clock = p.clock.get();
  deps_.ids = p.ids.get();
  deps_.files = files_.get();
  deps_.directory = &applications_.directory();
  deps_.blobs = blobs_.get();
  deps_.log = p.log.get();

  route_deps_.symbols = &deps_;
  route_deps_.spool_dir = dir.empty() ? std::string() : dir + "/tmp";

  const app::symbols::SymbolsDeps* deps = &deps_;
  p.workers.Add("symbols-verify", app::symbols::kVerifyIntervalMs,
                [deps] { return app::symbols::VerifyPending(*deps).status(); });
  return Status::Ok();
}

void SymbolsModule::RegisterRoutes(api::Pipeline& pipeline) {
  api::RegisterSymbolsRoutes(pipeline, route_deps_);
}

}  // namespace service::modules
