// The admin area's routes: /v1/admin/* (Spec 2 "Superadmin").
#pragma once

#include "api/pipeline.h"
#include "areas/admin/app/admin.h"

namespace service::api {

void RegisterAdminRoutes(Pipeline& pipeline, const app::admin::AdminDeps& deps);

}  // namespace service::api
