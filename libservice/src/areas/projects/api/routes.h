// The projects area's routes: /v1/projects/*, projects and capture keys.
// Its module registers them.
#pragma once

#include "api/pipeline.h"
#include "areas/projects/app/projects.h"

namespace service::api {

void RegisterProjectRoutes(Pipeline& p, const app::projects::ProjectsDeps& deps);

}  // namespace service::api
