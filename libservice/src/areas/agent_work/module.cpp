#include "areas/agent_work/module.h"

#include "app/retention.h"
#include "areas/agent_work/api/routes.h"
#include "areas/agent_work/store/repositories.h"

namespace service::modules {

Status AgentWorkModule::Open(Platform& p) {
  claims_ = store::NewSqlClaimRepository();
  commands_ = store::NewSqlCommandLogRepository();
  deps_.db = p.tx.get();
  deps_.clock = p.clock.get();
  deps_.ids = p.ids.get();
  deps_.claims = claims_.get();
  deps_.commands = commands_.get();
  deps_.bugs = bugs_.deps().bugs;
  deps_.command_retention_ms = p.options.retention.agent_commands_ms;

  const app::agent_work::AgentWorkDeps* deps = &deps_;
  p.events.Subscribe([deps](ports::Tx& tx, const ports::Event& e, std::string_view area) -> Status {
    if (area != app::kTriageEvents) return Status::Ok();
    return app::agent_work::OnTriageEvent(*deps, tx, e.type, e.org_id, e.project_id, e.payload);
  });
  p.workers.Add("agent-work-command-log", app::kRetentionSweepIntervalMs,
                [deps] { return app::agent_work::PruneCommandLog(*deps); });
  return Status::Ok();
}

void AgentWorkModule::RegisterRoutes(api::Pipeline& pipeline) {
  api::RegisterAgentWorkRoutes(pipeline, deps_);
}

}  // namespace service::modules
