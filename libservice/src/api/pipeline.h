// Pipeline: the transport-neutral HTTP API. Runs the middleware (request id,
// client address, CORS, body limit, route match, rate limit, authentication)
// and the handler, and turns any escaped exception into a 500 envelope with
// `requestId`. Every response carries X-Request-Id.
//
// Thread-safety: Handle may be called concurrently once routes are registered.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "api/context.h"
#include "api/rate_limit.h"
#include "api/router.h"
#include "ports/ids.h"
#include "service/clock.h"
#include "service/http.h"
#include "service/logger.h"
#include "service/options.h"
#include "util/metrics.h"

namespace service::api {

class Console;

// Authenticates a request for `mode`, filling ctx.principal. Returns the
// failure to answer with (401, 403, 503 AUTH_UNAVAILABLE, ...). Two areas
// provide one each: capture keys (kCaptureKey) and bearer credentials
// (sessions and agent tokens: every other mode). Until one is set, its routes
// answer 401.
using Authenticator = std::function<Status(Context& ctx, AuthMode mode)>;

// What the pipeline's middleware needs.
struct PipelineDeps {
  Clock* clock = nullptr;     // rate-limit windows
  ports::Ids* ids = nullptr;  // request ids
  Logger* log = nullptr;      // 5xx causes, with the request id
  CorsPolicy cors;
  bool trust_proxy = false;
  RateLimits rate_limits;
  const Console* console = nullptr;  // answers GETs no route takes (null: none)
  // Where the HTTP and ingest metrics are registered (null: none kept).
  util::metrics::Registry* metrics = nullptr;
};

// Paths under `prefix` are called from any origin (e.g. browser SDKs of
// other products, api/sentry_routes.cpp): every origin is allowed with
// `allow_headers` in preflights and `expose_headers` on answers, whatever
// the configured CORS policy; `on_rate_limited`, when set, adds headers
// of the callers' own protocol to the rate limiter's 429.
struct OpenOriginPaths {
  std::string prefix;
  std::string allow_headers;
  std::string expose_headers;
  std::function<void(int64_t retry_after_s, Headers& headers)> on_rate_limited;
};

class Pipeline {
 public:
  // REQUIRES: the pointers in `deps` outlive the pipeline.
  explicit Pipeline(PipelineDeps deps);
  Pipeline(const Pipeline&) = delete;
  Pipeline& operator=(const Pipeline&) = delete;

  Router& router() { return router_; }
  void SetCaptureKeyAuthenticator(Authenticator a) { key_authenticator_ = std::move(a); }
  void SetBearerAuthenticator(Authenticator a) { bearer_authenticator_ = std::move(a); }
  Response Handle(const Request& req);
  RateLimiter& rate_limiter() { return *limiter_; }
  // Registers paths open to every origin. Before handling requests.
  void AddOpenOriginPaths(OpenOriginPaths paths) { open_paths_.push_back(std::move(paths)); }

 private:
  void ApplyCors(const Request& req, Response& res) const;
  Response Dispatch(Context& ctx, const Router::Match& match);
  // Logs a 5xx answer with its request id and internal cause.
  void LogServerError(const Context& ctx, const Response& res, const std::string& cause) const;

  const PipelineDeps deps_;
  Router router_;
  Authenticator key_authenticator_;
  Authenticator bearer_authenticator_;
  std::unique_ptr<RateLimiter> limiter_;
  std::vector<OpenOriginPaths> open_paths_;
  // The open paths `path` is under, or null.
  const OpenOriginPaths* OpenPathsFor(std::string_view path) const;
  // Counts an answer in the metrics: by route (or unmatched, by method)
  // and, on an ingest route, a refusal before the use case by its status
  // (invalid, unauthenticated, too_large; rate_limited is counted where the
  // limiter refuses, since a plan limit may also answer 429).
  void Measure(const Request& req, const Route* route, RouteMetrics* metrics, int status, double seconds);
  // The HTTP families of /metrics (a Registry collector).
  void CollectHttp(std::vector<util::metrics::Family>& out) const;

  // Requests no route took, by method (GET, HEAD, POST, PUT, PATCH, DELETE,
  // OPTIONS, other).
  RouteMetrics unmatched_[8];
  // Ingest requests refused before the use case (null without metrics).
  util::metrics::Counter* refused_invalid_ = nullptr;
  util::metrics::Counter* refused_unauthenticated_ = nullptr;
  util::metrics::Counter* refused_too_large_ = nullptr;
  util::metrics::Counter* refused_rate_limited_ = nullptr;
};

}  // namespace service::api
