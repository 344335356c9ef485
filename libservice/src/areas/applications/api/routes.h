// The application registry's routes (areas/applications/api/applications_routes.cpp).
#pragma once

#include "api/pipeline.h"
#include "areas/applications/app/applications.h"

namespace service::api {

// REQUIRES: `deps` outlives the pipeline.
void RegisterApplicationsRoutes(Pipeline& pipeline, const app::applications::ApplicationsDeps& deps);

}  // namespace service::api
