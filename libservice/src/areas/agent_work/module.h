// The agent-work area (issue 29 item 4; Spec 2 "Claim (lease)", "Agent
// work"): fenced claims of agent tokens on canonical issues, and their
// command log. It reads bugs through the bugs area (a claim's issue is a
// bug of the token's organization) and learns of merges from the triage
// area's `deleted` events (platform events, inside the merge's
// transaction). Deletion: claims, counters, merge records and logged
// commands go with their organization or project (foreign keys).
#pragma once

#include <memory>

#include "areas/agent_work/app/claims.h"
#include "areas/agent_work/ports/claim_repository.h"
#include "areas/agent_work/ports/command_log_repository.h"
#include "areas/bugs/module.h"
#include "modules/module.h"

namespace service::modules {

class AgentWorkModule final : public Module {
 public:
  explicit AgentWorkModule(BugsModule& bugs) : bugs_(bugs) {}
  std::string_view name() const override { return "agent_work"; }
  Status Open(Platform& platform) override;
  void RegisterRoutes(api::Pipeline& pipeline) override;

  // The claim use cases' dependencies (valid after Open), for the MCP tools.
  const app::agent_work::AgentWorkDeps& deps() const { return deps_; }

 private:
  BugsModule& bugs_;
  std::unique_ptr<ports::ClaimRepository> claims_;
  std::unique_ptr<ports::CommandLogRepository> commands_;
  app::agent_work::AgentWorkDeps deps_;
};

}  // namespace service::modules
