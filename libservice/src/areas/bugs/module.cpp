#include "areas/bugs/module.h"

#include "areas/bugs/api/routes.h"
#include "areas/bugs/store/repositories.h"

namespace service::modules {

Status BugsModule::Open(Platform& p) {
  bugs_ = store::NewSqlBugReadRepository();
  deps_.db = p.tx.get();
  deps_.clock = p.clock.get();
  insights_ = store::NewSqlBugInsightRepository();
  deps_.bugs = bugs_.get();
  deps_.insights = insights_.get();
  search_ = store::NewSqlBugSearchRepository();
  deps_.search = search_.get();
  search_index_ = std::make_unique<app::bugs::SearchIndex>();
  deps_.search_index = search_index_.get();
  deps_.occurrences = capture_.deps().occurrences;
  deps_.end_users = capture_.deps().end_users;
  agent_tokens_ = p.Shared<app::agent_tokens::AgentTokensDeps>();
  return Status::Ok();
}

void BugsModule::RegisterRoutes(api::Pipeline& pipeline) {
  api::RegisterBugsRoutes(pipeline, deps_, agent_tokens_);
  api::RegisterBugInsightRoutes(pipeline, deps_);
}

}  // namespace service::modules
