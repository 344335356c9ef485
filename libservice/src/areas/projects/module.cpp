#include "areas/projects/module.h"

#include "areas/projects/api/routes.h"
#include "areas/projects/store/repositories.h"

namespace service::modules {

void ProjectsModule::Provide(Platform& p) {
  p.projects = store::NewSqlProjectRepository();
  p.capture_keys = store::NewSqlCaptureKeyRepository();
}

Status ProjectsModule::Open(Platform& p) {
  deps_.db = p.tx.get();
  deps_.clock = p.clock.get();
  deps_.ids = p.ids.get();
  deps_.projects = p.projects.get();
  deps_.capture_keys = p.capture_keys.get();
  deps_.usage = p.usage.get();
  app::capture::Runtime* runtime = &capture_.runtime();
  deps_.keys_changed = [runtime] { runtime->ForgetKeys(); };
  deps_.public_url = p.options.EffectivePublicUrl();
  deps_.plan_limits = p.options.plan_limits;
  routes_.projects = &deps_;
  routes_.capture = &capture_.deps();

  ports::CaptureKeyRepository* keys = p.capture_keys.get();
  p.deletion.OnAccountDeleted(
      [keys](ports::Tx& tx, const std::string& user_id) { return keys->ForgetCreator(tx, user_id); });
  return Status::Ok();
}

void ProjectsModule::RegisterRoutes(api::Pipeline& pipeline) {
  api::RegisterProjectRoutes(pipeline, routes_);
}

}  // namespace service::modules
