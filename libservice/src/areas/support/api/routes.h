// The support area's routes: opening and ending support sessions
// (superadmins) and the organization's log of them (its admins). Its module
// registers them.
#pragma once

#include "api/pipeline.h"
#include "areas/support/app/support.h"

namespace service::api {

void RegisterSupportRoutes(Pipeline& p, const app::support::SupportDeps& deps);

}  // namespace service::api
