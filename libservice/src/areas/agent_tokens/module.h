// The agent tokens area (issue 29 items 1-2; Spec 2 "Agent token", "Agent
// tokens", "Authentication" 2-3): an organization's sv_pat_ tokens, their
// management routes, and the check of a presented token, which it hands to
// the accounts area's bearer authenticator (AccountsModule::SetAgentTokens).
// It shares its dependencies (app::agent_tokens::AgentTokensDeps) with the
// areas above that serve agents (the bug reads' metered charge), and offers
// the tickets' X-Agent-Token check (TicketAgentCheck, wired by the area
// list). It needs accounts (creators, memberships), projects (grants) and
// operations (plans, credits, the metered charge).
#pragma once

#include <functional>
#include <memory>

#include "app/actor.h"
#include "areas/accounts/module.h"
#include "areas/agent_tokens/app/agent_tokens.h"
#include "areas/agent_tokens/ports/agent_token_repository.h"
#include "areas/operations/module.h"
#include "modules/module.h"

namespace service::modules {

class AgentTokensModule final : public Module {
 public:
  AgentTokensModule(AccountsModule& accounts, OperationsModule& operations)
      : accounts_(accounts), operations_(operations) {}
  std::string_view name() const override { return "agent_tokens"; }
  // app::agent_tokens::AgentTokensDeps (filled at Open).
  void Provide(Platform& platform) override;
  Status Open(Platform& platform) override;
  void RegisterRoutes(api::Pipeline& pipeline) override;

  // Valid after Open.
  const app::agent_tokens::AgentTokensDeps& deps() const { return *deps_; }
  // The tickets' X-Agent-Token check (app::tickets::AgentTokenCheck's
  // signature): a valid agent token of `org_id` as the actor it acts for.
  // May be taken before Open (it keeps the module, which outlives it).
  std::function<Result<app::ConsoleActor>(const std::string& token, const std::string& org_id)>
  TicketAgentCheck() const;
  // Writes the noted lastUsedAt times now (the worker's task; tests).
  Status FlushUses() const { return app::agent_tokens::FlushUses(*deps_); }

 private:
  AccountsModule& accounts_;
  OperationsModule& operations_;
  std::unique_ptr<ports::AgentTokenRepository> tokens_;
  app::agent_tokens::UsageTracker uses_;
  app::agent_tokens::AgentTokensDeps* deps_ = nullptr;  // owned by the platform (shared)
};

}  // namespace service::modules
