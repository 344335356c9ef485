// The bugs area's routes: Reading bugs: /v1/bugs lists, groups, search and one bug with its parts.
// Its module registers them.
#pragma once

#include "api/pipeline.h"
#include "areas/bugs/app/bugs.h"

namespace service::api {

void RegisterBugsRoutes(Pipeline& p, const app::bugs::BugsDeps& deps);
void RegisterBugInsightRoutes(Pipeline& p, const app::bugs::BugsDeps& deps);

}  // namespace service::api
