// The ai area's routes: /v1/ingest/ai-summary and /v1/bugs/ai-summary.
// Its module registers them.
#pragma once

#include "api/pipeline.h"
#include "areas/ai/app/ai.h"

namespace service::api {

void RegisterAiRoutes(Pipeline& p, const app::ai::AiDeps& deps);

}  // namespace service::api
