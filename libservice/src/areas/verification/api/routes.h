// The verification area's routes (areas/verification/app/verification.h).
#pragma once

#include "api/pipeline.h"
#include "areas/verification/app/verification.h"

namespace service::api {

// Enrollment (organization admins, JWT+Org) and the agent-token routes
// under /v1/agent-work/verification. REQUIRES: `deps` outlives the pipeline.
void RegisterVerificationRoutes(Pipeline& p, const app::verification::VerificationDeps& deps);

}  // namespace service::api
