// Router: method + path pattern ("/v1/bugs/:id") -> handler, with per-route
// rate-limit class and authentication mode. Patterns are matched segment by
// segment; literal segments win over parameters ("/v1/bugs/stats" beats
// "/v1/bugs/:id" regardless of registration order).
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
    Add(Route{std::move(method), std::move(pattern), rate, auth, std::move(handler), std::nullopt});
  }
  void Add(std::string method, std::string pattern, RateClass rate, AuthMode auth,
           domain::Capability capability, Handler handler) {
    Add(Route{std::move(method), std::move(pattern), rate, auth, std::move(handler), capability});
  }

  struct Match {
    const Route* route = nullptr;  // null: nothing matched
    bool path_exists = false;      // the path matched under another method
    PathParams params;
  };
  Match Find(std::string_view method, std::string_view path) const;
  // Methods registered for `path` (for CORS preflight and 405-style hints).
  std::vector<std::string> MethodsFor(std::string_view path) const;

 private:
  struct Compiled {
    Route route;
    std::vector<std::string> segments;  // ":x" marks a parameter
    int literal_score = 0;              // more literals first
  };
  std::vector<Compiled> routes_;
};

}  // namespace service::api
