// Context: what a handler sees of one request after the pipeline's middleware.
#pragma once

#include <boost/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "api/query.h"
#include "api/router.h"
#include "service/http.h"
#include "service/status.h"

namespace service::api {

// Who is calling, filled by the authenticator.
struct Principal {
  enum class Kind { kAnonymous, kUser, kCaptureKey, kAgent };
  Kind kind = Kind::kAnonymous;
  std::string user_id;
  std::string email;
  std::string session_id;  // users: the token's sign-in (claim `sid`), or empty
  std::string org_id;      // X-Service-Org (verified member) or the key's org
  std::string role;        // membership role in org_id
  std::string project_id;  // capture keys: the key's project
  std::string key_id;      // capture key or agent token id
  std::string key_env;     // capture keys: "live" or "test"
  // A verified email on SERVICE_SUPERADMIN_EMAILS.
  bool superadmin = false;
  // A superadmin acting in org_id under a support session
  // (X-Service-Support-Session): role is "admin", this is the session's id.
  // Routes Spec 2 closes to support sessions (budget, agent settings PUT,
  // digest decisions) refuse a principal with it set (403).
  std::string support_session_id;
  // Agent tokens (kind kAgent): the token's scopes and the projects its
  // unexpired grants cover, read on this call; user_id, org_id and role are
  // the token creator's, rechecked on every call (api/agent_access.h asks).
  std::vector<std::string> scopes;
  std::vector<std::string> granted_projects;
};

struct Context {
  explicit Context(const Request& r) : req(r) {}

  const Request& req;
  std::string request_id;
  std::string client_ip;  // after SERVICE_TRUST_PROXY
  PathParams params;
  QueryParams query;
  Principal principal;
  const Route* route = nullptr;

  // The body parsed as JSON, once. Malformed: kInvalidArgument
  // "Invalid JSON in request body".
  Result<const boost::json::value*> Body();

 private:
  std::optional<boost::json::value> body_;
};

// A route handler bound to its area's dependencies: `fn(deps, ctx)`.
// REQUIRES: `deps` outlives the router.
template <typename Deps, typename Fn>
Handler Bind(const Deps& deps, Fn fn) {
  return [&deps, fn](Context& ctx) { return fn(deps, ctx); };
}

// The token of "Authorization: Bearer <token>" (scheme case-insensitive), or "".
std::string BearerToken(const Request& req);

}  // namespace service::api
