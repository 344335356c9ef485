// The tickets area's routes: the kanban, /v1/tickets* (JWT+Org; X-Agent-Token
// with X-Service-Org in development only). Its module registers them.
#pragma once

#include "api/pipeline.h"
#include "areas/tickets/app/tickets.h"

namespace service::api {

void RegisterTicketRoutes(Pipeline& p, const app::tickets::TicketsDeps& deps);

}  // namespace service::api
