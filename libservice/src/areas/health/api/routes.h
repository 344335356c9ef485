// The health area's routes: GET /v1/health, /v1/health/deep.
// Its module registers them.
#pragma once

#include <string>

#include "api/pipeline.h"
#include "areas/health/app/health.h"

namespace service::api {

void RegisterHealthRoutes(Pipeline& p, const app::health::HealthDeps& deps, std::string service_name);

}  // namespace service::api
