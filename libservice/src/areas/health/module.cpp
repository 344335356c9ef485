#include "areas/health/module.h"

#include "areas/health/api/routes.h"
#include "store/migrations.h"

namespace service::modules {

Status HealthModule::Open(Platform& p) {
  deps_.db = p.tx.get();
  deps_.clock = p.clock.get();
  deps_.outbox = p.outbox.get();
  deps_.workers = &p.workers;
  Platform* platform = &p;
  deps_.migrations = [platform]() -> Result<app::health::MigrationCounts> {
    SV_ASSIGN_OR_RETURN(store::MigrationState state, store::ReadMigrationState(*platform->db));
    return app::health::MigrationCounts{state.applied, state.known, state.latest_applied};
  };
  deps_.email_provider = p.mailer ? std::string(p.mailer->provider()) : "none";
  deps_.ai_configured = !p.options.ai.url.empty();
  service_name_ = p.service_name;
  return Status::Ok();
}

void HealthModule::RegisterRoutes(api::Pipeline& pipeline) {
  api::RegisterHealthRoutes(pipeline, deps_, service_name_);
}

}  // namespace service::modules
