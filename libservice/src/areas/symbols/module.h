// The symbols area (issue 30 item 5; Spec 2 "Symbol publishing"): symbol
// files of application builds published by agent tokens with
// publish_symbols, their rows (migration 0032) and their bytes in a blob
// store of their own under SERVICE_EVIDENCE_DIR/symbols (unset: the publish
// route answers 503 storage_unavailable). A worker task ("symbols-verify")
// reads every pending file itself and marks it ready or rejected. Deletion:
// rows go with their organization, project, application or build (foreign
// keys); blobs stay (content-addressed, possibly shared by two files).
#pragma once

#include <memory>

#include "areas/applications/module.h"
#include "areas/symbols/api/routes.h"
#include "areas/symbols/app/symbols.h"
#include "areas/symbols/ports/symbol_repository.h"
#include "modules/module.h"
#include "ports/blob_store.h"

namespace service::modules {

class SymbolsModule final : public Module {
 public:
  explicit SymbolsModule(ApplicationsModule& applications) : applications_(applications) {}
  std::string_view name() const override { return "symbols"; }
  Status Open(Platform& platform) override;
  void RegisterRoutes(api::Pipeline& pipeline) override;

  // The use cases' dependencies (valid after Open): tests run the verifier.
  const app::symbols::SymbolsDeps& deps() const { return deps_; }

 private:
  ApplicationsModule& applications_;
  std::unique_ptr<ports::BlobStore> blobs_;  // null without SERVICE_EVIDENCE_DIR
  std::unique_ptr<ports::SymbolRepository> files_;
  app::symbols::SymbolsDeps deps_;
  api::SymbolsRouteDeps route_deps_;
};

}  // namespace service::modules
