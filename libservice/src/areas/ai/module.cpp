#include "areas/ai/module.h"

#include "areas/ai/api/routes.h"

namespace service::modules {

Status AiModule::Open(Platform& p) {
  if (!p.options.ai.url.empty()) provider_ = ports::NewOpenAiCompatibleProvider(p.options.ai, *p.http);
  deps_.ai = provider_.get();
  return Status::Ok();
}

void AiModule::RegisterRoutes(api::Pipeline& pipeline) { api::RegisterAiRoutes(pipeline, deps_); }

}  // namespace service::modules
