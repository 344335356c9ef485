#include "areas/portfolio/module.h"

#include "areas/portfolio/api/routes.h"

namespace service::modules {

Status PortfolioModule::Open(Platform& p) {
  deps_.db = p.tx.get();
  deps_.clock = p.clock.get();
  deps_.memberships = p.Shared<ports::MembershipRepository>();
  deps_.projects = p.Shared<ports::ProjectRepository>();
  deps_.bugs = bugs_.deps().bugs;
  deps_.insights = bugs_.deps().insights;
  return Status::Ok();
}

void PortfolioModule::RegisterRoutes(api::Pipeline& pipeline) {
  api::RegisterPortfolioRoutes(pipeline, deps_);
}

}  // namespace service::modules
