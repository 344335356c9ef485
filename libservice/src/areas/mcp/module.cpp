#include "areas/mcp/module.h"

#include "areas/mcp/api/routes.h"

namespace service::modules {

Status McpModule::Open(Platform& p) {
  deps_.bugs = &bugs_.deps();
  deps_.operations = &operations_.deps();
  deps_.work = &work_.deps();
  deps_.handoff = &handoff_.deps();
  deps_.evidence = &evidence_.deps();
  deps_.log = p.log.get();
  return Status::Ok();
}

void McpModule::RegisterRoutes(api::Pipeline& pipeline) { api::RegisterMcpRoutes(pipeline, deps_); }

}  // namespace service::modules
