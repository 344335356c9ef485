// The triage area's routes: Changing bugs: PATCH /v1/bugs/:id and /bulk, DELETE, merge, comments, watch,
// the AI analysis routes; notifications, their preferences, team activity, usage.
// Its module registers them.
#pragma once

#include "api/pipeline.h"
#include "areas/triage/app/triage.h"

namespace service::api {

void RegisterTriageRoutes(Pipeline& p, const app::triage::TriageDeps& deps);
void RegisterNotificationRoutes(Pipeline& p, const app::triage::TriageDeps& deps);
// GET /v1/alerts/digests, POST /v1/alerts/digests/:batchId/resolution.
void RegisterDigestRoutes(Pipeline& p, const app::triage::TriageDeps& deps);

}  // namespace service::api
