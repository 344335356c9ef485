// Router: method + path pattern ("/v1/bugs/:id") -> handler, with per-route
// rate-limit class and authentication mode. Patterns are matched segment by
// segment; literal segments win over parameters ("/v1/bugs/stats" beats
// "/v1/bugs/:id" regardless of registration order).
//
// Request bodies: every route takes at most kMaxBodyBytes, in memory, unless
// it has a BodyPolicy (service/http.h): a route that takes larger bodies, or
// whose body the shell spools to a file (Request::body_source), says so once
// after adding it:
//   router.Add("PUT", "/v1/evidence/:id/content", ...);
//   router.SetBodyPolicy("PUT", "/v1/evidence/:id/content",
//                        {.max_bytes = limit, .spooled = true, .spool_dir = dir});
// The pipeline answers 413 above the route's limit; shells ask BodyPolicyFor
// (through Service::BodyPolicyFor) once a request's headers are in.
//
// Thread-safety: build it once at start, then Match concurrently.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "domain/roles.h"
#include "service/http.h"
#include "util/metrics.h"

namespace service::api {

struct Context;

enum class RateClass { kNone, kGeneral, kIngest, kAuth };

// Who may call a route. The pipeline runs the registered authenticator for
// every mode but kNone before the handler.
enum class AuthMode {
  kNone,
  kCaptureKey,  // X-Service-Key
  kJwt,         // Authorization: Bearer <access token>
  kJwtOrg,      // bearer plus X-Service-Org membership
  kSuperadmin,  // bearer, email on SERVICE_SUPERADMIN_EMAILS
  kAgentToken,  // Authorization: Bearer sv_pat_...
  kJwtOrgOrAgent,
};

using Handler = std::function<Response(Context&)>;

// What /metrics counts per route: answers by status class (1xx..5xx) and
// their latency. Relaxed atomics only (util/metrics.h).
struct RouteMetrics {
  util::metrics::Counter by_class[5];
  util::metrics::Histogram latency{util::metrics::LatencyBuckets()};

  void Record(int status, double seconds) {
    const int cls = status / 100;
    if (cls >= 1 && cls <= 5) by_class[cls - 1].Inc();
    latency.Observe(seconds);
  }
};

struct Route {
  std::string method;
  std::string pattern;
  RateClass rate = RateClass::kGeneral;
  AuthMode auth = AuthMode::kNone;
  Handler handler;
  // The membership capability the caller's role needs (organization routes).
  // Checked by the bearer authenticator after membership: 403 without it.
  // Default: none (any member).
  std::optional<domain::Capability> capability;
  // How the route takes its body (SetBodyPolicy). Default: kMaxBodyBytes,
  // in memory.
  std::optional<BodyPolicy> body_policy;
};

struct PathParams {
  std::vector<std::pair<std::string, std::string>> items;
  // Decoded value of `:name`, or "".
  std::string Get(std::string_view name) const;
};

class Router {
 public:
  void Add(Route route);
  void Add(std::string method, std::string pattern, RateClass rate, AuthMode auth, Handler handler) {
    Add(Route{std::move(method), std::move(pattern), rate, auth, std::move(handler), std::nullopt,
              std::nullopt});
  }
  void Add(std::string method, std::string pattern, RateClass rate, AuthMode auth,
           domain::Capability capability, Handler handler) {
    Add(Route{std::move(method), std::move(pattern), rate, auth, std::move(handler), capability,
              std::nullopt});
  }

  struct Match {
    const Route* route = nullptr;  // null: nothing matched
    bool path_exists = false;      // the path matched under another method
    PathParams params;
    RouteMetrics* metrics = nullptr;  // the matched route's
  };
  Match Find(std::string_view method, std::string_view path) const;
  // Sets the body policy of the route added as `method` `pattern` (the
  // pattern exactly as added). False when there is no such route.
  bool SetBodyPolicy(std::string_view method, std::string_view pattern, BodyPolicy policy);
  // The body policy of the route `method` `path` matches; the default
  // (kMaxBodyBytes, in memory) when it matches none or has none.
  BodyPolicy BodyPolicyFor(std::string_view method, std::string_view path) const;
  // Methods registered for `path` (for CORS preflight and 405-style hints).
  std::vector<std::string> MethodsFor(std::string_view path) const;
  // Every route with its metrics, in match order.
  std::vector<std::pair<const Route*, const RouteMetrics*>> MeteredRoutes() const;
  // Every route, in match order (the OpenAPI document and its tests).
  std::vector<const Route*> Routes() const;

 private:
  struct Compiled {
    Route route;
    std::vector<std::string> segments;  // ":x" marks a parameter
    int literal_score = 0;              // more literals first
    std::shared_ptr<RouteMetrics> metrics;
  };
  std::vector<Compiled> routes_;
};

}  // namespace service::api
