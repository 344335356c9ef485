// The sourcemaps area's routes (Sentry's /api/0/organizations/:org/
// chunk-upload and artifactbundle/assemble, and the console's
// /v1/sourcemaps/*). Its module registers them.
#pragma once

#include "api/pipeline.h"
#include "areas/sourcemaps/app/sourcemaps.h"

namespace service::api {

struct SourcemapsRouteDeps {
  const app::sourcemaps::SourcemapsDeps* sourcemaps = nullptr;
};

void RegisterSourcemapsRoutes(Pipeline& p, const SourcemapsRouteDeps& deps);

}  // namespace service::api
