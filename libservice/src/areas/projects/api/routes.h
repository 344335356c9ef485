// The projects area's routes: /v1/projects/*: projects, keys and the test event (a capture use case).
// Its module registers them.
#pragma once

#include "api/pipeline.h"
#include "areas/capture/app/deps.h"
#include "areas/projects/app/projects.h"

namespace service::api {

struct ProjectRoutes {
  const app::projects::ProjectsDeps* projects = nullptr;
  const app::capture::CaptureDeps* capture = nullptr;
};
void RegisterProjectRoutes(Pipeline& p, const ProjectRoutes& deps);

}  // namespace service::api
