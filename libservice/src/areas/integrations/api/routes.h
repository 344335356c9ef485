// The integrations area's routes: Integrations, deliveries, alert policy, preview and overview (Spec 2).
// Its module registers them.
#pragma once

#include "api/pipeline.h"
#include "areas/integrations/app/integrations.h"

namespace service::api {

void RegisterIntegrationRoutes(Pipeline& p, const app::integrations::IntegrationsDeps& deps);

}  // namespace service::api
