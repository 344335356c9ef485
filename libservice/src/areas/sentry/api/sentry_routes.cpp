// Sentry SDK endpoints (issue 13):
//   POST /api/:projectNumber/envelope/   (with or without the trailing slash)
//   POST /api/:projectNumber/store/      (the legacy single-event body)
// Authentication as SDKs send it: X-Sentry-Auth or Authorization "Sentry
// sentry_key=...", ?sentry_key= (browser SDKs), or the envelope header's
// dsn. Answers: 200 {"id": "<event id>"}; 400 {"detail"}; 401/403
// {"detail"}; the plan limit as 429 with Retry-After and X-Sentry-Rate-Limits
// (the ingest rate limit's 429 gets the same headers through the
// pipeline's open-origin paths, registered here with CORS for every origin).
#include <boost/json.hpp>
#include <charconv>

#include "api/json.h"
#include "areas/sentry/api/routes.h"
#include "areas/sentry/app/sentry.h"
#include "util/decompress.h"

namespace service::api {
namespace {

namespace json = boost::json;
using app::sentry::SentryDeps;

Response Detail(int status, std::string_view detail) {
  return JsonResponse(status, json::object{{"detail", detail}});
}

Response Handle(const SentryDeps& deps, Context& ctx, bool envelope) {
  const std::string number_text = ctx.params.Get("projectNumber");
  int64_t number = 0;
  const auto [end, ec] = std::from_chars(number_text.data(), number_text.data() + number_text.size(), number);
  if (ec != std::errc() || end != number_text.data() + number_text.size() || number <= 0) {
    return Detail(404, "Unknown project");
  }
  app::sentry::SentryRequest req;
  req.project_number = number;
  req.envelope = envelope;
  req.client_ip = ctx.client_ip;
  if (const std::string* ua = ctx.req.headers.Find("User-Agent")) req.user_agent = *ua;
  if (const std::string* h = ctx.req.headers.Find("X-Sentry-Auth"))
    req.key = app::sentry::KeyFromAuthHeader(*h);
  if (req.key.empty()) {
    if (const std::string* h = ctx.req.headers.Find("Authorization");
        h != nullptr && h->rfind("Sentry ", 0) == 0) {
      req.key = app::sentry::KeyFromAuthHeader(*h);
    }
  }
  if (req.key.empty()) {
    const std::vector<std::string> keys = ctx.query.All("sentry_key");
    if (!keys.empty()) req.key = keys.front();
  }

  std::string decoded;
  const std::string* encoding = ctx.req.headers.Find("Content-Encoding");
  const util::Encoding enc = encoding ? util::ParseContentEncoding(*encoding) : util::Encoding::kIdentity;
  if (enc == util::Encoding::kIdentity) {
    req.body = ctx.req.body;
  } else {
    Result<std::string> d = util::Decompress(ctx.req.body, enc, app::sentry::kMaxDecompressedBytes);
    if (!d.ok()) {
      return Detail(d.status().code() == Code::kPayloadTooLarge ? 413 : 400, d.status().message());
    }
    decoded = std::move(d).value();
    req.body = decoded;
  }

  Result<app::sentry::SentryResult> r = app::sentry::Receive(deps, req);
  if (!r.ok()) {
    const Status& s = r.status();
    switch (s.code()) {
      case Code::kInvalidArgument:
        return Detail(400, s.message());
      case Code::kUnauthenticated:
        return Detail(401, s.message());
      case Code::kPermissionDenied:
        return Detail(403, s.message());
      case Code::kPayloadTooLarge:
        return Detail(413, s.message());
      case Code::kPaymentRequired: {
        // SDKs back off on 429 with these headers; a 402 would be dropped.
        Response res = Detail(429, "Plan limit reached: no new bugs until next month");
        res.headers.Set("Retry-After", "3600");
        res.headers.Set("X-Sentry-Rate-Limits", "3600:error;default:organization:quota_exceeded");
        return res;
      }
      default:
        return StatusResponse(s);
    }
  }
  return JsonResponse(200, json::object{{"id", r->event_id}});
}

Response HandleEnvelope(const SentryDeps& deps, Context& ctx) { return Handle(deps, ctx, true); }
Response HandleStore(const SentryDeps& deps, Context& ctx) { return Handle(deps, ctx, false); }

}  // namespace

void RegisterSentryRoutes(Pipeline& p, const app::sentry::SentryDeps& deps) {
  // Browser SDKs post from the customer's site with their own headers, and
  // back off on 429 by X-Sentry-Rate-Limits.
  p.AddOpenOriginPaths(OpenOriginPaths{
      "/api/", "Content-Type, Content-Encoding, X-Sentry-Auth, Authorization, Sentry-Trace, Baggage",
      "X-Sentry-Error, X-Sentry-Rate-Limits, Retry-After", [](int64_t retry_after, Headers& h) {
        h.Set("X-Sentry-Rate-Limits", std::to_string(retry_after) + "::ip:rate_limited");
      }});
  Router& r = p.router();
  // The router ignores a trailing slash: each pattern serves both forms.
  r.Add("POST", "/api/:projectNumber/envelope", RateClass::kIngest, AuthMode::kNone,
        Bind(deps, HandleEnvelope));
  r.Add("POST", "/api/:projectNumber/store", RateClass::kIngest, AuthMode::kNone, Bind(deps, HandleStore));
}

}  // namespace service::api
