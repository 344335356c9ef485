// The openapi area's route: GET /v1/openapi.json (public, cacheable), the
// OpenAPI 3.1 document of every route of the router it is registered on.
// Its module registers it after every other area's routes.
#pragma once

#include <string>

#include "api/pipeline.h"

namespace service::api {

// `version`: info.version of the document.
void RegisterOpenApiRoutes(Pipeline& p, std::string version);

}  // namespace service::api
