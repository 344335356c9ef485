#include "areas/agent_tokens/module.h"

#include "areas/agent_tokens/api/routes.h"
#include "areas/agent_tokens/store/repositories.h"

namespace service::modules {

void AgentTokensModule::Provide(Platform& p) {
  deps_ = p.Share(std::make_unique<app::agent_tokens::AgentTokensDeps>());
}

Status AgentTokensModule::Open(Platform& p) {
  tokens_ = store::NewSqlAgentTokenRepository();
  app::agent_tokens::AgentTokensDeps& d = *deps_;
  d.db = p.tx.get();
  d.clock = p.clock.get();
  d.ids = p.ids.get();
  d.tokens = tokens_.get();
  d.projects = p.Shared<ports::ProjectRepository>();
  d.memberships = p.Shared<ports::MembershipRepository>();
  d.usage = p.Shared<ports::UsageRepository>();
  d.plan_limits = p.options.plan_limits;
  d.public_url = p.options.EffectivePublicUrl();
  d.uses = &uses_;
  d.operations = &operations_.deps();

  const app::agent_tokens::AgentTokensDeps* deps = deps_;
  accounts_.SetAgentTokens(
      [deps](std::string_view token) { return app::agent_tokens::Authenticate(*deps, token); });
  p.workers.Add("agent_tokens.last_used", app::agent_tokens::kLastUsedFlushMs,
                [deps] { return app::agent_tokens::FlushUses(*deps); });

  // Tokens and grants go with their organization, creator and project
  // (cascading foreign keys); a member who leaves takes their tokens along.
  ports::AgentTokenRepository* tokens = tokens_.get();
  p.deletion.OnMemberRemoved([tokens](ports::Tx& tx, const std::string& org_id, const std::string& user_id) {
    return tokens->DeleteForMember(tx, org_id, user_id);
  });
  return Status::Ok();
}

std::function<Result<app::ConsoleActor>(const std::string&, const std::string&)>
AgentTokensModule::TicketAgentCheck() const {
  // Called while the area list is assembled, before Provide: the module
  // (not its dependencies, made later) is what the check keeps.
  const AgentTokensModule* self = this;
  return [self](const std::string& token, const std::string& org_id) -> Result<app::ConsoleActor> {
    if (self->deps_ == nullptr) return Unauthenticated("Missing or invalid agent token");
    return app::agent_tokens::CheckForOrganization(*self->deps_, token, org_id);
  };
}

void AgentTokensModule::RegisterRoutes(api::Pipeline& pipeline) {
  api::RegisterAgentTokenRoutes(pipeline, *deps_);
}

}  // namespace service::modules
