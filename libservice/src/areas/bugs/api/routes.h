// The bugs area's routes: Reading bugs: /v1/bugs lists, groups, search and one bug with its parts.
// Its module registers them.
#pragma once

#include "api/pipeline.h"
#include "areas/agent_tokens/app/agent_tokens.h"
#include "areas/bugs/app/bugs.h"

namespace service::api {

// `agents`: the agent tokens area's (the metered event read); null refuses
// an agent's event read (500).
void RegisterBugsRoutes(Pipeline& p, const app::bugs::BugsDeps& deps,
                        const app::agent_tokens::AgentTokensDeps* agents);
void RegisterBugInsightRoutes(Pipeline& p, const app::bugs::BugsDeps& deps);

}  // namespace service::api
