// tools/call of the MCP endpoint (api/mcp_routes.cpp): runs one tool over
// its use case and renders the tool result. Success: {content: [{type:
// text, text: <the JSON answer>}], structuredContent: <the same object>,
// isError: false}. A refusal or failure of the use case: {content: [{type:
// text, text: <the HTTP route's error body: {error, code?, status, ...}>}],
// isError: true}; an internal cause is logged with the request id and shown
// as "Internal server error", as on the HTTP routes.
#pragma once

#include <boost/json.hpp>

#include "api/context.h"
#include "areas/mcp/app/mcp.h"
#include "areas/mcp/domain/tools.h"

namespace service::api::mcp {

// REQUIRES: `arguments` passed domain::mcp::CheckArguments for `tool`.
boost::json::object CallTool(const app::mcp::McpDeps& deps, const Context& ctx,
                             const app::mcp::AgentCaller& caller, const domain::mcp::ToolSpec& tool,
                             const boost::json::object& arguments);

}  // namespace service::api::mcp
