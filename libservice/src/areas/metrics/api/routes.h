// The metrics area's route: GET /metrics (Prometheus text exposition
// format 0.0.4), for callers presenting the metrics token as a bearer.
// Its module registers it only when SERVICE_METRICS_TOKEN is set.
#pragma once

#include <string>

#include "api/pipeline.h"
#include "util/metrics.h"

namespace service::api {

// REQUIRES: `registry` outlives the pipeline; `token` not empty.
void RegisterMetricsRoutes(Pipeline& p, const util::metrics::Registry& registry, std::string token);

}  // namespace service::api
