#include "modules/bugs.h"

#include "api/routes.h"
#include "store/repositories.h"

namespace service::modules {

Status BugsModule::Open(Platform& p) {
  bugs_ = store::NewSqlBugReadRepository();
  deps_.db = p.tx.get();
  deps_.clock = p.clock.get();
  deps_.bugs = bugs_.get();
  deps_.occurrences = capture_.deps().occurrences;
  return Status::Ok();
}

void BugsModule::RegisterRoutes(api::Pipeline& pipeline) { api::RegisterBugsRoutes(pipeline, deps_); }

}  // namespace service::modules
