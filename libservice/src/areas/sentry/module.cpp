#include "areas/sentry/module.h"

#include "areas/sentry/api/routes.h"

namespace service::modules {

Status SentryModule::Open(Platform& p) {
  deps_.capture = &capture_.deps();
  const app::sentry::SentryDeps* d = &deps_;
  p.workers.Add("sentry-event-ids", 3'600'000, [d] { return app::sentry::ForgetOldDeliveries(*d); });
  return Status::Ok();
}

void SentryModule::RegisterRoutes(api::Pipeline& pipeline) { api::RegisterSentryRoutes(pipeline, deps_); }

}  // namespace service::modules
