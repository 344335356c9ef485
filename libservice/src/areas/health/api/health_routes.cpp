// GET /v1/health and GET /v1/health/deep (Spec 1 "Health").
// Not rate limited: load balancers and orchestrators poll them.
#include "api/context.h"
#include "api/json.h"
#include "api/pipeline.h"
#include "areas/health/api/routes.h"
#include "areas/health/app/health.h"
#include "util/time.h"

namespace service::api {

void RegisterHealthRoutes(Pipeline& p, const app::health::HealthDeps& deps, std::string service_name) {
  p.router().Add("GET", "/v1/health", RateClass::kNone, AuthMode::kNone, [&deps, service_name](Context&) {
    const app::health::Liveness live = app::health::CheckLiveness(deps);
    json::object body{{"status", live.ok ? "ok" : "degraded"}, {"service", service_name}};
    if (!live.ok) body["error"] = "Database unreachable";
    body["timestamp"] = util::FormatIso8601(deps.Now());
    return JsonResponse(live.ok ? 200 : 503, body);
  });

  p.router().Add(
      "GET", "/v1/health/deep", RateClass::kNone, AuthMode::kNone, [&deps, service_name](Context&) {
        const app::health::DeepHealth h = app::health::CheckDeep(deps);
        json::object body{
            {"status", h.healthy() ? "ok" : "degraded"},
            {"service", service_name},
            {"timestamp", util::FormatIso8601(deps.Now())},
            {"checks",
             json::object{
                 {"db", json::object{{"name", "db"}, {"ok", h.db_ok}, {"latencyMs", h.db_latency_ms}}},
                 {"migrations",
                  json::object{{"name", "migrations"},
                               {"ok", h.migrations_ok},
                               {"applied", h.migrations_applied},
                               {"known", h.migrations_known},
                               {"pending", std::max<int64_t>(0, h.migrations_known - h.migrations_applied)}}},
                 {"email", json::object{{"name", h.email_provider}, {"configured", h.email_configured}}},
                 {"ai", json::object{{"name", h.ai_configured ? "openai-compatible" : "none"},
                                     {"configured", h.ai_configured}}},
                 {"jobs", json::object{{"name", "outbox"},
                                       {"status", h.jobs_ok ? "ok" : "degraded"},
                                       {"running", h.jobs_running},
                                       {"pending", h.jobs_pending},
                                       {"failed", h.jobs_failed},
                                       {"overdue", h.jobs_overdue}}},
                 {"redis", json::object{{"name", "redis"}, {"configured", false}, {"ok", false}}},
             }}};
        return JsonResponse(h.healthy() ? 200 : 503, body);
      });
}

}  // namespace service::api
