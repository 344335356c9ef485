#include "areas/openapi/module.h"

#include "areas/openapi/api/routes.h"
#include "service/service.h"

namespace service::modules {

void OpenApiModule::RegisterRoutes(api::Pipeline& pipeline) {
  api::RegisterOpenApiRoutes(pipeline, Version());
}

}  // namespace service::modules
