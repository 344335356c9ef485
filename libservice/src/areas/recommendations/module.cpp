#include "areas/recommendations/module.h"

#include "areas/recommendations/store/repositories.h"

namespace service::modules {

Status RecommendationsModule::Open(Platform& p) {
  emissions_ = store::NewSqlRecommendationRepository();
  deps_.db = p.tx.get();
  deps_.clock = p.clock.get();
  deps_.log = p.log.get();
  deps_.bus = p.bus.get();
  deps_.emissions = emissions_.get();
  deps_.bugs = &bugs_.deps();
  deps_.integrations = &integrations_.deps();

  const app::recommendations::RecommendationsDeps* deps = &deps_;
  p.workers.Add("recommended-bug", deps_.interval_ms,
                [deps] { return app::recommendations::EmitRecommended(*deps).status(); });
  return Status::Ok();
}

}  // namespace service::modules
