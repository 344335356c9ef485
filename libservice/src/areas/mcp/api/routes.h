// The MCP area's routes: POST /v1/mcp, the Model Context Protocol's
// Streamable HTTP endpoint for agent tokens (GET and DELETE answer 405).
// Its module registers them.
#pragma once

#include "api/pipeline.h"
#include "areas/mcp/app/mcp.h"

namespace service::api {

// REQUIRES: `deps` outlives the pipeline.
void RegisterMcpRoutes(Pipeline& p, const app::mcp::McpDeps& deps);

}  // namespace service::api
