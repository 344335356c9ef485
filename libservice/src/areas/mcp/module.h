// The MCP area (issue 29 item 5, server-contract "MCP"): POST /v1/mcp, the
// Model Context Protocol server for agent tokens. It owns no table: each
// tool runs another area's use case (bugs' reads, operations' metered
// charge, agent work's claims, the handoff's listen and ack, evidence's
// occurrence listing), so its module
// comes last in the list.
#pragma once

#include "areas/agent_work/module.h"
#include "areas/bugs/module.h"
#include "areas/evidence/module.h"
#include "areas/handoff/module.h"
#include "areas/mcp/app/mcp.h"
#include "areas/operations/module.h"
#include "modules/module.h"

namespace service::modules {

class McpModule final : public Module {
 public:
  McpModule(BugsModule& bugs, OperationsModule& operations, AgentWorkModule& work, HandoffModule& handoff,
            EvidenceModule& evidence)
      : bugs_(bugs), operations_(operations), work_(work), handoff_(handoff), evidence_(evidence) {}
  std::string_view name() const override { return "mcp"; }
  Status Open(Platform& platform) override;
  void RegisterRoutes(api::Pipeline& pipeline) override;

 private:
  BugsModule& bugs_;
  OperationsModule& operations_;
  AgentWorkModule& work_;
  HandoffModule& handoff_;
  EvidenceModule& evidence_;
  app::mcp::McpDeps deps_;
};

}  // namespace service::modules
