// The handoff area's routes (Spec 2 "Agent handoff"): notify-agent,
// agent-status, ack, agent settings and the listen route. Its module
// registers them.
#pragma once

#include "api/context.h"
#include "api/pipeline.h"
#include "areas/handoff/app/handoff.h"

namespace service::api {

void RegisterHandoffRoutes(Pipeline& p, const app::handoff::HandoffDeps& deps);

// The caller of a handoff use case from a request's principal (a member, or
// an agent token with its scopes and grants): for routes of other areas
// that call these use cases (the MCP tools listen_handoffs and ack_bug).
app::handoff::HandoffCaller HandoffCallerOf(const Principal& p);

// The JSON answers, with the HTTP routes' field names (MCP tools reuse them):
//   Listen  {cursor, notifications[{id, bugId, trigger, createdAt, title, severity}]}
//   Ack     the agent-status object plus agentUpdate {action, deliveries} or null
boost::json::object ListenJson(const app::handoff::ListenPage& page);
boost::json::object AckJson(const app::handoff::AckResult& result);

}  // namespace service::api
