// The tickets area (issue 28 item 4, server-contract "Tickets"): a kanban
// per organization whose tickets may link to a bug and be assigned to a
// member. Deletion: an organization's tickets go with it (hook, and the
// foreign key); a removed member's assignments are cleared (hook); a deleted
// account or bug leaves its tickets unassigned or unlinked (ON DELETE SET
// NULL).
#pragma once

#include <memory>

#include "areas/bugs/module.h"
#include "areas/tickets/app/tickets.h"
#include "areas/tickets/ports/ticket_repository.h"
#include "areas/triage/module.h"
#include "modules/module.h"

namespace service::modules {

class TicketsModule final : public Module {
 public:
  TicketsModule(BugsModule& bugs, TriageModule& triage) : bugs_(bugs), triage_(triage) {}
  std::string_view name() const override { return "tickets"; }
  Status Open(Platform& platform) override;
  void RegisterRoutes(api::Pipeline& pipeline) override;

  const app::tickets::TicketsDeps& deps() const { return deps_; }
  // The development-only X-Agent-Token check (app::tickets::AgentTokenCheck);
  // the agents area sets it while the modules open. Unset: every
  // X-Agent-Token is refused (401).
  void SetAgentTokenCheck(app::tickets::AgentTokenCheck check) { deps_.agent_token_check = std::move(check); }

 private:
  BugsModule& bugs_;
  TriageModule& triage_;
  std::unique_ptr<ports::TicketRepository> tickets_;
  app::tickets::TicketsDeps deps_;
};

}  // namespace service::modules
