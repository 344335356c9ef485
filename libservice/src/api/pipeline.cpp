#include "api/pipeline.h"

#include <chrono>
#include <exception>

#include "api/console.h"
#include "api/json.h"
#include "util/crypto.h"
#include "util/strings.h"

namespace service::api {

namespace {
constexpr std::string_view kAllowedHeaders = "Content-Type, Authorization, X-Service-Key, X-Service-Org";
constexpr std::string_view kAllowedMethods = "GET, POST, PATCH, DELETE, OPTIONS";

std::string ClientAddress(const Request& req, bool trust_proxy) {
  if (trust_proxy) {
    if (const std::string* xff = req.headers.Find("X-Forwarded-For")) {
      std::string first = util::Trim(std::string_view(*xff).substr(0, xff->find(',')));
      if (!first.empty()) return first;
    }
  }
  return req.remote_addr;
}

// HEAD is GET without the content (RFC 9110 9.3.2): the same status and
// headers, the GET's length in Content-Length, no body. A streamed answer
// (export, live stream) is closed unread and has no length.
void StripForHead(Response& res) {
  if (res.stream) {
    res.stream->Close();
    res.stream.reset();
    return;
  }
  res.headers.Set("Content-Length", std::to_string(res.body.size()));
  res.body.clear();
}

// Unhandled server errors carry the request id in the body.
void AddRequestIdToServerError(Response& res, const std::string& request_id) {
  if (res.status < 500 || res.stream) return;
  boost::system::error_code ec;
  json::value v = json::parse(res.body, ec);
  if (ec || !v.is_object()) {
    res = ErrorResponse(res.status, kInternalServerError);
    v = json::parse(res.body);
  }
  json::object& o = v.as_object();
  if (!o.contains("requestId")) {
    o["requestId"] = request_id;
    res.body = json::serialize(o);
  }
}

constexpr const char* kMethods[] = {"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "other"};
constexpr const char* kClasses[] = {"1xx", "2xx", "3xx", "4xx", "5xx"};

size_t MethodIndex(std::string_view method) {
  for (size_t i = 0; i < 7; ++i) {
    if (method == kMethods[i]) return i;
  }
  return 7;
}

Status DefaultAuthenticator(Context&, AuthMode mode) {
  if (mode == AuthMode::kCaptureKey) return Unauthenticated("Missing or invalid API key");
  return Unauthenticated("Missing or invalid token");
}
}  // namespace

Pipeline::Pipeline(PipelineDeps deps)
    : deps_(std::move(deps)),
      key_authenticator_(DefaultAuthenticator),
      bearer_authenticator_(DefaultAuthenticator),
      limiter_(std::make_unique<RateLimiter>(deps_.rate_limits)) {
  util::metrics::Registry* m = deps_.metrics;
  if (m == nullptr) return;
  constexpr const char* kRefused = "service_reports_refused_total";
  constexpr const char* kRefusedHelp =
      "Reports refused, by reason (invalid, unauthenticated, too_large and rate_limited count every ingest "
      "route: reports, Sentry envelopes, presence pings, AI summaries).";
  refused_invalid_ = m->GetCounter(kRefused, kRefusedHelp, {{"reason", "invalid"}});
  refused_unauthenticated_ = m->GetCounter(kRefused, kRefusedHelp, {{"reason", "unauthenticated"}});
  refused_too_large_ = m->GetCounter(kRefused, kRefusedHelp, {{"reason", "too_large"}});
  refused_rate_limited_ = m->GetCounter(kRefused, kRefusedHelp, {{"reason", "rate_limited"}});
  m->AddCollector([this](std::vector<util::metrics::Family>& out) { CollectHttp(out); });
}

void Pipeline::Measure(const Request& req, const Route* route, RouteMetrics* metrics, int status,
                       double seconds) {
  if (deps_.metrics == nullptr) return;
  if (metrics == nullptr) metrics = &unmatched_[MethodIndex(req.method)];
  metrics->Record(status, seconds);
  if (route == nullptr || route->rate != RateClass::kIngest) return;
  switch (status) {
    case 400:
    case 422:
      refused_invalid_->Inc();
      break;
    case 401:
    case 403:
      refused_unauthenticated_->Inc();
      break;
    case 413:
      refused_too_large_->Inc();
      break;
    default:
      break;
  }
}

void Pipeline::CollectHttp(std::vector<util::metrics::Family>& out) const {
  using util::metrics::Family;
  using util::metrics::Type;
  Family requests{
      "service_http_requests_total",
      "HTTP requests answered, by method, route pattern (\"unmatched\": no route) and status class.",
      Type::kCounter,
      {}};
  Family latency{"service_http_request_duration_seconds",
                 "Time from a request's arrival in the library to its answer (a streamed answer: its first "
                 "part), by method and route pattern.",
                 Type::kHistogram,
                 {}};
  auto add = [&](const std::string& method, const std::string& route, const RouteMetrics& rm) {
    if (rm.latency.Count() == 0) return;  // never called: no series
    for (int c = 0; c < 5; ++c) {
      const uint64_t n = rm.by_class[c].Value();
      if (n == 0) continue;
      requests.samples.push_back(
          {{{"method", method}, {"route", route}, {"status", kClasses[c]}}, static_cast<double>(n)});
    }
    latency.samples.push_back(rm.latency.Snapshot({{"method", method}, {"route", route}}));
  };
  for (const auto& [route, rm] : router_.MeteredRoutes()) add(route->method, route->pattern, *rm);
  for (size_t i = 0; i < 8; ++i) add(kMethods[i], "unmatched", unmatched_[i]);
  out.push_back(std::move(requests));
  out.push_back(std::move(latency));
}

void Pipeline::LogServerError(const Context& ctx, const Response& res, const std::string& cause) const {
  if (deps_.log == nullptr) return;
  std::vector<LogField> fields{{"requestId", ctx.request_id},
                               {"method", ctx.req.method},
                               {"route", ctx.route ? ctx.route->pattern : std::string()},
                               {"status", std::to_string(res.status)}};
  if (!cause.empty()) fields.push_back({"error", cause});
  deps_.log->Log(LogLevel::kError, "request failed", fields);
}

const OpenOriginPaths* Pipeline::OpenPathsFor(std::string_view path) const {
  for (const OpenOriginPaths& p : open_paths_) {
    if (path.rfind(p.prefix, 0) == 0) return &p;
  }
  return nullptr;
}

void Pipeline::ApplyCors(const Request& req, Response& res) const {
  const std::string* origin = req.headers.Find("Origin");
  if (!origin) return;
  if (const OpenOriginPaths* open = OpenPathsFor(req.path)) {
    res.headers.Set("Access-Control-Allow-Origin", "*");
    res.headers.Set("Access-Control-Expose-Headers", open->expose_headers);
    return;
  }
  const CorsPolicy& cors = deps_.cors;
  bool allowed = cors.any_origin;
  for (const auto& o : cors.origins) allowed = allowed || o == *origin;
  if (!allowed) return;
  res.headers.Set("Access-Control-Allow-Origin", cors.any_origin ? "*" : *origin);
  if (!cors.any_origin) res.headers.Set("Vary", "Origin");
  res.headers.Set("Access-Control-Expose-Headers",
                  "X-Request-Id, Retry-After, X-Query-Ms, X-Row-Count, X-Next-After");
}

Response Pipeline::Handle(const Request& req) {
  const auto started = std::chrono::steady_clock::now();
  const Route* measured_route = nullptr;
  RouteMetrics* measured = nullptr;
  Context ctx(req);
  ctx.request_id = deps_.ids->NewId();
  ctx.client_ip = ClientAddress(req, deps_.trust_proxy);
  Response res;
  std::string cause;
  TakeInternalError();  // nothing left over from an earlier request
  try {
    if (req.method == "OPTIONS") {
      // CORS preflight: only the spec's headers and methods are offered.
      res.status = 204;
      res.route = "OPTIONS *";
      if (req.headers.Has("Origin")) {
        ApplyCors(req, res);
        if (res.headers.Has("Access-Control-Allow-Origin")) {
          res.headers.Set("Access-Control-Allow-Methods", std::string(kAllowedMethods));
          const OpenOriginPaths* open = OpenPathsFor(req.path);
          res.headers.Set("Access-Control-Allow-Headers",
                          open ? open->allow_headers : std::string(kAllowedHeaders));
          res.headers.Set("Access-Control-Max-Age", "600");
        }
      } else {
        res.headers.Set("Allow", std::string(kAllowedMethods));
      }
    } else {
      // Every GET route and console path answers HEAD the same way.
      Router::Match match =
          router_.Find(req.method == "HEAD" ? std::string_view("GET") : req.method, req.path);
      measured_route = match.route;  // also when the handler throws
      measured = match.metrics;
      const bool has_policy = match.route && match.route->body_policy;
      const uint64_t limit = has_policy ? match.route->body_policy->max_bytes : kMaxBodyBytes;
      const uint64_t size = req.body_source ? req.body_source->size() : req.body.size();
      if (req.body_too_large || size > limit) {
        res = ErrorResponse(413, "Payload too large", json::object{{"limit", limit}});
      } else if (req.body_source && !(has_policy && match.route->body_policy->spooled)) {
        // An in-process caller's body source on a route that reads `body`.
        Request copy = req;
        copy.body_source.reset();
        copy.body.resize(static_cast<size_t>(size));
        size_t at = 0;
        while (at < copy.body.size()) {
          const int64_t n = req.body_source->Read(copy.body.data() + at, copy.body.size() - at);
          if (n <= 0) break;
          at += static_cast<size_t>(n);
        }
        if (at == copy.body.size()) return Handle(copy);
        res = ErrorResponse(400, "Invalid request body");
      } else {
        res = Dispatch(ctx, match);
      }
      if (match.route) res.route = match.route->method + " " + match.route->pattern;
    }
  } catch (const std::exception& e) {
    res = ErrorResponse(500, kInternalServerError);
    cause = std::string("exception: ") + e.what();
  } catch (...) {
    res = ErrorResponse(500, kInternalServerError);
    cause = "unknown exception";
  }
  if (res.status >= 500) {
    if (cause.empty()) cause = TakeInternalError();
    LogServerError(ctx, res, cause);
  }
  AddRequestIdToServerError(res, ctx.request_id);
  if (req.method == "HEAD") StripForHead(res);
  ApplyCors(req, res);
  res.headers.Set("X-Request-Id", ctx.request_id);
  Measure(req, measured_route, measured, res.status,
          std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
  return res;
}

Response Pipeline::Dispatch(Context& ctx, const Router::Match& match) {
  // The console's own files come from memory without the database and are
  // not rate limited: a reload by someone behind a busy address gets the
  // page, whose API calls then wait out a 429 and say so.
  if (!match.route && deps_.console != nullptr) {
    if (std::optional<Response> page = deps_.console->Serve(ctx.req)) return std::move(*page);
  }
  const RateClass rate = match.route ? match.route->rate : RateClass::kGeneral;
  int64_t retry_after = 0;
  if (!limiter_->Allow(rate, ctx.client_ip, deps_.clock->NowMillis(), &retry_after)) {
    if (rate == RateClass::kIngest && refused_rate_limited_ != nullptr) refused_rate_limited_->Inc();
    Response r = ErrorResponse(429, "Too many requests, please try again later",
                               json::object{{"retryAfter", retry_after}});
    r.headers.Set("Retry-After", std::to_string(retry_after));
    if (const OpenOriginPaths* open = OpenPathsFor(ctx.req.path); open && open->on_rate_limited) {
      open->on_rate_limited(retry_after, r.headers);
    }
    return r;
  }
  if (!match.route) return ErrorResponse(404, "Not found");
  ctx.route = match.route;
  ctx.params = match.params;
  ctx.query = QueryParams::Parse(ctx.req.query);
  if (match.route->auth != AuthMode::kNone) {
    const AuthMode mode = match.route->auth;
    Status s =
        mode == AuthMode::kCaptureKey ? key_authenticator_(ctx, mode) : bearer_authenticator_(ctx, mode);
    if (!s.ok()) return StatusResponse(s);
  }
  return match.route->handler(ctx);
}

}  // namespace service::api
