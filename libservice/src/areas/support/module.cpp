#include "areas/support/module.h"

#include "areas/support/api/routes.h"
#include "areas/support/store/repositories.h"

namespace service::modules {

Status SupportModule::Open(Platform& p) {
  sessions_ = store::NewSqlSupportSessionRepository();
  deps_.db = p.tx.get();
  deps_.clock = p.clock.get();
  deps_.ids = p.ids.get();
  deps_.orgs = p.Shared<ports::OrgRepository>();
  deps_.sessions = sessions_.get();

  const app::support::SupportDeps* deps = &deps_;
  accounts_.SetSupportSessions([deps](const app::accounts::SupportSessionRequest& request) {
    return app::support::CheckAndRecord(*deps, request);
  });

  // Sessions and their log go with the organization (cascading foreign
  // keys); an operator's deleted account no longer names them.
  ports::SupportSessionRepository* sessions = sessions_.get();
  p.deletion.OnAccountDeleted([sessions](ports::Tx& tx, const std::string& user_id) {
    return sessions->ForgetOperator(tx, user_id);
  });
  return Status::Ok();
}

void SupportModule::RegisterRoutes(api::Pipeline& pipeline) { api::RegisterSupportRoutes(pipeline, deps_); }

}  // namespace service::modules
