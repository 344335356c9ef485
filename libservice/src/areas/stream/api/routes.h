// The stream area's routes: GET /v1/bugs/stream (server-sent events).
// Its module registers them.
#pragma once

#include "api/pipeline.h"
#include "areas/stream/app/stream.h"

namespace service::api {

void RegisterStreamRoutes(Pipeline& p, app::stream::Hub& hub);

}  // namespace service::api
