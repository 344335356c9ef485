// The sentry area's routes: POST /api/:projectNumber/envelope/ and /store/ (Sentry SDKs).
// Its module registers them.
#pragma once

#include "api/pipeline.h"
#include "areas/sentry/app/sentry.h"

namespace service::api {

void RegisterSentryRoutes(Pipeline& p, const app::sentry::SentryDeps& deps);

}  // namespace service::api
