#include "areas/projects/module.h"

#include "areas/projects/api/routes.h"
#include "areas/projects/store/repositories.h"

namespace service::modules {

void ProjectsModule::Provide(Platform& p) {
  p.Share(store::NewSqlProjectRepository());
  p.Share(store::NewSqlCaptureKeyRepository());
}

Status ProjectsModule::Open(Platform& p) {
  deps_.db = p.tx.get();
  deps_.clock = p.clock.get();
  deps_.ids = p.ids.get();
  deps_.projects = p.Shared<ports::ProjectRepository>();
  deps_.capture_keys = p.Shared<ports::CaptureKeyRepository>();
  deps_.usage = p.Shared<ports::UsageRepository>();
  deps_.public_url = p.options.EffectivePublicUrl();
  deps_.plan_limits = p.options.plan_limits;
  const app::projects::ProjectsDeps* deps = &deps_;
  accounts_.SetFirstProject([deps](ports::Tx& tx, const std::string& org_id, const std::string& creator_id,
                                   int64_t now) -> Result<app::accounts::FirstProject> {
    SV_ASSIGN_OR_RETURN(app::projects::DefaultProject made,
                        app::projects::CreateDefaultProject(*deps, tx, org_id, creator_id, now));
    return app::accounts::FirstProject{made.project.id,       made.project.name,           made.project.slug,
                                       made.project.platform, made.project.project_number, made.key.full_key,
                                       made.key.dsn};
  });

  ports::CaptureKeyRepository* keys = p.Shared<ports::CaptureKeyRepository>();
  p.deletion.OnAccountDeleted(
      [keys](ports::Tx& tx, const std::string& user_id) { return keys->ForgetCreator(tx, user_id); });
  return Status::Ok();
}

void ProjectsModule::RegisterRoutes(api::Pipeline& pipeline) { api::RegisterProjectRoutes(pipeline, deps_); }

}  // namespace service::modules
