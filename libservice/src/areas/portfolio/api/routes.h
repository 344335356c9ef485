// The portfolio area's route: GET /v1/portfolio/overview (JWT, no
// organization header). Its module registers it.
#pragma once

#include "api/pipeline.h"
#include "areas/portfolio/app/portfolio.h"

namespace service::api {

void RegisterPortfolioRoutes(Pipeline& p, const app::portfolio::PortfolioDeps& deps);

}  // namespace service::api
