// GET /metrics: not rate limited (a scraper calls it every few seconds) and
// outside the bearer sessions: the token of "Authorization: Bearer" (read as
// on every route, BearerToken) is compared in constant time; a missing or
// wrong one is 401 with WWW-Authenticate.
#include "api/context.h"
#include "api/json.h"
#include "api/pipeline.h"
#include "areas/metrics/api/routes.h"
#include "util/crypto.h"

namespace service::api {

void RegisterMetricsRoutes(Pipeline& p, const util::metrics::Registry& registry, std::string token) {
  p.router().Add("GET", "/metrics", RateClass::kNone, AuthMode::kNone,
                 [&registry, token = std::move(token)](Context& ctx) {
                   const std::string presented = BearerToken(ctx.req);
                   if (presented.empty() || !util::ConstantTimeEquals(presented, token)) {
                     Response r = ErrorResponse(401, "Missing or invalid metrics token");
                     r.headers.Set("WWW-Authenticate", "Bearer realm=\"metrics\"");
                     return r;
                   }
                   Response r;
                   r.status = 200;
                   r.headers.Set("Content-Type", std::string(util::metrics::kContentType));
                   r.headers.Set("Cache-Control", "no-store");
                   r.body = registry.RenderText();
                   return r;
                 });
}

}  // namespace service::api
