// The agent-work area's routes (areas/agent_work/app/claims.h).
#pragma once

#include "api/context.h"
#include "api/pipeline.h"
#include "areas/agent_work/app/claims.h"

namespace service::api {

// POST /v1/agent-work/claims, /claims/renew, /claims/release,
// /claims/complete and GET /v1/agent-work/claims (agent tokens only).
// REQUIRES: `deps` outlives the pipeline.
void RegisterAgentWorkRoutes(Pipeline& p, const app::agent_work::AgentWorkDeps& deps);

// The caller of an agent-work use case from an agent token's principal
// (for the MCP tools, which call the same use cases).
app::agent_work::AgentCaller AgentCallerOf(const Principal& principal);

}  // namespace service::api
