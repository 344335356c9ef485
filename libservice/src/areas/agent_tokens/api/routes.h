// The agent tokens area's routes: /v1/org/agent-pats (JWT+Org). Its module
// registers them.
#pragma once

#include "api/pipeline.h"
#include "areas/agent_tokens/app/agent_tokens.h"

namespace service::api {

void RegisterAgentTokenRoutes(Pipeline& p, const app::agent_tokens::AgentTokensDeps& deps);

}  // namespace service::api
