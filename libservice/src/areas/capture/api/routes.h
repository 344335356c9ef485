// The capture area's routes: Capture-key authentication, /v1/ingest, /v1/ingest/presence and their /v1/bugs
// aliases, /v1/bugs/manual, /v1/bugs/presence and the projects' test event
// (POST /v1/projects/:id/test-event), and the projects' scrubbing settings
// (GET/PUT /v1/projects/:id/scrubbing, scrubbing_routes.cpp).
// Its module registers them.
#pragma once

#include "api/pipeline.h"
#include "areas/capture/app/deps.h"

namespace service::api {

void RegisterCaptureRoutes(Pipeline& p, const app::capture::CaptureDeps& deps);
void RegisterScrubbingRoutes(Pipeline& p, const app::capture::CaptureDeps& deps);

}  // namespace service::api
