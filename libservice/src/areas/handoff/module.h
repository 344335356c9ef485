// The handoff area (issue 29 item 3; Spec 2 "Agent handoff", "Agent
// notification row", "Agent settings"): hands a bug to its project's agent
// channels (the integrations engine's agent and webhook destinations, code
// hosts, MCP listeners), records the agent's progress (ack, prUrl) and
// tells the humans' destinations (agent_update), per-project agent
// settings with auto-notify on capture (it subscribes to the platform's
// transactional events), and the listen route. It takes bugs (the bug read)
// and integrations (channels and deliveries); it reads the agent tokens'
// tables for MCP listeners. Its rows go with their organization, project
// and bug (foreign keys): no deletion hooks.
#pragma once

#include <memory>

#include "areas/bugs/module.h"
#include "areas/handoff/app/handoff.h"
#include "areas/handoff/ports/agent_listeners.h"
#include "areas/handoff/ports/handoff_repository.h"
#include "areas/integrations/module.h"
#include "modules/module.h"

namespace service::modules {

class HandoffModule final : public Module {
 public:
  HandoffModule(BugsModule& bugs, IntegrationsModule& integrations)
      : bugs_(bugs), integrations_(integrations) {}
  std::string_view name() const override { return "handoff"; }
  Status Open(Platform& platform) override;
  void RegisterRoutes(api::Pipeline& pipeline) override;

  // The use cases' dependencies (the MCP tools listen_handoffs and ack_bug
  // call app::handoff::Listen and Ack with them). Valid after Open.
  const app::handoff::HandoffDeps& deps() const { return deps_; }

 private:
  BugsModule& bugs_;
  IntegrationsModule& integrations_;
  std::unique_ptr<ports::HandoffRepository> handoff_;
  std::unique_ptr<ports::AgentListeners> listeners_;
  app::handoff::HandoffDeps deps_;
};

}  // namespace service::modules
