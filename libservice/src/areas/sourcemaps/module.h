// The sourcemaps area (issue 31 item 1): source map uploads with the
// unmodified sentry-cli (Sentry's chunk-upload and artifact bundle assembly
// routes), their rows (migration 0034: chunks, bundles, files) and their
// bytes in a blob store of their own under SERVICE_EVIDENCE_DIR/sourcemaps
// (unset: the upload routes answer 503 storage_unavailable), and the
// console's reads (bundles, debug ids, releases of a project); resolution
// of Sentry events' minified frames at ingest (app/resolver.h), handed to
// the Sentry area while opening. Deletion: rows
// go with their organization and project (foreign keys); blobs stay
// (content-addressed, possibly shared).
#pragma once

#include <memory>

#include "areas/sentry/module.h"
#include "areas/sourcemaps/api/routes.h"
#include "areas/sourcemaps/app/resolver.h"
#include "areas/sourcemaps/app/sourcemaps.h"
#include "areas/sourcemaps/ports/sourcemap_repository.h"
#include "modules/module.h"
#include "ports/blob_store.h"

namespace service::modules {

class SourcemapsModule final : public Module {
 public:
  explicit SourcemapsModule(SentryModule& sentry) : sentry_(sentry) {}
  std::string_view name() const override { return "sourcemaps"; }
  Status Open(Platform& platform) override;
  void RegisterRoutes(api::Pipeline& pipeline) override;

  // The use cases' dependencies (valid after Open): the resolver and tests.
  const app::sourcemaps::SourcemapsDeps& deps() const { return deps_; }
  // The ingest resolver (valid after Open; benchmarks read its stats).
  app::sourcemaps::FrameResolver* resolver() { return resolver_.get(); }

 private:
  SentryModule& sentry_;
  std::unique_ptr<ports::BlobStore> blobs_;  // null without SERVICE_EVIDENCE_DIR
  std::unique_ptr<ports::SourcemapRepository> repo_;
  app::sourcemaps::SourcemapsDeps deps_;
  api::SourcemapsRouteDeps route_deps_;
  std::unique_ptr<app::sourcemaps::FrameResolver> resolver_;
};

}  // namespace service::modules
